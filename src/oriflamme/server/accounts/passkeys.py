"""Passkeys (WebAuthn, with the ``webauthn`` package): an account adds one, then signs in with
it instead of its password. Each ceremony has two steps: the server's options (with a random
challenge) and the browser's signed answer. The challenge is kept in the database
(``challenges``, for :data:`CEREMONY_TTL` seconds, under the digest of a ceremony id the browser
sends back), so that any server process can finish a ceremony another began; it serves once.

Passkeys are discoverable credentials (``residentKey: required``): the browser offers the
account's passkeys without a name being typed. The relying party is the host the browser sees
(``origins.rp_id``) and the expected origin this server's own (``origins.own_origin``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from starlette.requests import HTTPConnection

from ..errors import ApiError
from ..storage import AccountRecord, Challenge, PasskeyRecord, Store, StoreConflict
from .origins import own_origin, rp_id
from .sessions import digest

REGISTER, SIGN_IN = "register", "signin"
CEREMONY_TTL = 300.0
RP_NAME = "Oriflamme"
#: At most this many passkeys per account.
MAX_PASSKEYS = 20
LABEL_DEFAULT = "passkey"


def bad_ceremony() -> ApiError:
    return ApiError(
        400, "bad_ceremony", "this passkey request expired or was already used: start again"
    )


def refused(what: str) -> ApiError:
    return ApiError(400, "passkey_refused", f"the browser's passkey answer is not valid ({what})")


# webauthn is imported where a ceremony needs it, not with this module: it and the ASN.1
# tables it loads take about 0.2 s of CPU, which every server process would pay at its start.


def _options_json(options: Any) -> dict[str, Any]:
    import json

    from webauthn import options_to_json

    data: dict[str, Any] = json.loads(options_to_json(options))
    return data


async def _begin(store: Store, purpose: str, account_id: str | None, challenge: bytes) -> str:
    from webauthn.helpers import bytes_to_base64url

    ceremony = secrets.token_urlsafe(24)
    await store.store_challenge(
        digest(ceremony), Challenge(purpose, account_id, bytes_to_base64url(challenge)),
        CEREMONY_TTL,
    )
    return ceremony


def _origin(connection: HTTPConnection) -> str:
    origin = own_origin(connection)
    if origin is None:
        raise ApiError(400, "bad_host", "the request names no usable Host")
    return origin


async def begin_registration(
    store: Store, connection: HTTPConnection, account: AccountRecord
) -> tuple[str, dict[str, Any]]:
    """A new passkey for ``account``: the ceremony id and the options for the browser."""
    from webauthn import generate_registration_options
    from webauthn.helpers import base64url_to_bytes
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        PublicKeyCredentialDescriptor,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    known = await store.account_passkeys(account.account_id)
    if len(known) >= MAX_PASSKEYS:
        raise ApiError(409, "too_many_passkeys", f"an account has at most {MAX_PASSKEYS} passkeys")
    options = generate_registration_options(
        rp_id=rp_id(connection),
        rp_name=RP_NAME,
        user_name=account.name,
        user_id=account.account_id.encode(),
        user_display_name=account.name,
        timeout=int(CEREMONY_TTL * 1000),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id)) for p in known
        ],
    )
    ceremony = await _begin(store, REGISTER, account.account_id, options.challenge)
    return ceremony, _options_json(options)


async def finish_registration(
    store: Store,
    connection: HTTPConnection,
    account: AccountRecord,
    ceremony: str,
    credential: Mapping[str, Any],
    label: str,
) -> PasskeyRecord:
    """Check the browser's new credential and keep it."""
    from webauthn import verify_registration_response
    from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
    from webauthn.helpers.exceptions import WebAuthnException

    challenge = await store.take_challenge(digest(ceremony), REGISTER)
    if challenge is None or challenge.account_id != account.account_id:
        raise bad_ceremony()
    try:
        verified = verify_registration_response(
            credential=dict(credential),
            expected_challenge=base64url_to_bytes(challenge.challenge),
            expected_rp_id=rp_id(connection),
            expected_origin=_origin(connection),
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise refused(str(exc)[:120] or type(exc).__name__) from None
    passkey = PasskeyRecord(
        credential_id=bytes_to_base64url(verified.credential_id),
        account_id=account.account_id,
        public_key=bytes_to_base64url(verified.credential_public_key),
        sign_count=verified.sign_count,
        label=label.strip() or LABEL_DEFAULT,
        created=0.0,
    )
    try:
        await store.add_passkey(passkey)
    except StoreConflict:
        raise ApiError(409, "passkey_known", "this passkey is already registered") from None
    return passkey


async def begin_sign_in(store: Store, connection: HTTPConnection) -> tuple[str, dict[str, Any]]:
    """A sign-in with a passkey: the ceremony id and the options for the browser (no list of
    credentials: the browser offers the passkeys it holds for this site)."""
    from webauthn import generate_authentication_options
    from webauthn.helpers.structs import UserVerificationRequirement

    options = generate_authentication_options(
        rp_id=rp_id(connection),
        timeout=int(CEREMONY_TTL * 1000),
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    ceremony = await _begin(store, SIGN_IN, None, options.challenge)
    return ceremony, _options_json(options)


async def finish_sign_in(
    store: Store, connection: HTTPConnection, ceremony: str, credential: Mapping[str, Any]
) -> AccountRecord | None:
    """The account whose passkey signed the challenge, or None if the credential is unknown or
    its signature wrong (:func:`bad_ceremony` if the ceremony is unknown or expired)."""
    from webauthn import verify_authentication_response
    from webauthn.helpers import base64url_to_bytes
    from webauthn.helpers.exceptions import WebAuthnException

    challenge = await store.take_challenge(digest(ceremony), SIGN_IN)
    if challenge is None:
        raise bad_ceremony()
    credential_id = credential.get("id")
    if not isinstance(credential_id, str) or len(credential_id) > 1024:
        return None
    passkey = await store.passkey(credential_id)
    if passkey is None:
        return None
    try:
        verified = verify_authentication_response(
            credential=dict(credential),
            expected_challenge=base64url_to_bytes(challenge.challenge),
            expected_rp_id=rp_id(connection),
            expected_origin=_origin(connection),
            credential_public_key=base64url_to_bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError):
        return None
    await store.passkey_used(passkey.credential_id, verified.new_sign_count)
    return await store.account(passkey.account_id)
