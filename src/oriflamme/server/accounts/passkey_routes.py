"""The passkeys' HTTP API (docs/server.md, "Passkeys"):

- ``POST /api/account/passkeys/options`` then ``POST /api/account/passkeys``: add a passkey;
- ``GET /api/account/passkeys``; ``POST /api/account/passkeys/{id}/delete``;
- ``POST /api/account/passkey-signin/options`` then ``POST /api/account/passkey-signin``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Response

from ..errors import ApiError
from ..storage import AccountRecord
from .current import address_of, answers, ensure_active, require_account, store_of
from .models import (
    AccountOut,
    CeremonyOut,
    Done,
    PasskeyOut,
    PasskeySignInRequest,
    PasskeysOut,
    RegisterPasskeyRequest,
)
from .passkeys import begin_registration, begin_sign_in, finish_registration, finish_sign_in
from .routes import account_out, limits_of
from .sessions import start_session
from .throttle import check_address, sign_in_failed

AccountDep = Annotated[AccountRecord, Depends(require_account)]
CREDENTIAL_ID = Path(pattern=r"^[A-Za-z0-9_-]{1,1024}$", description="the passkey's id")


def passkeys_router(limit: Callable[[Request], Awaitable[None]]) -> APIRouter:
    """The routes; ``limit`` throttles their POSTs per address (shared by the accounts'
    routers: ``current.posts_limited``)."""
    router = APIRouter(prefix="/api/account", tags=["accounts"], dependencies=[Depends(limit)])

    @router.get("/passkeys", response_model=PasskeysOut, responses=answers(401))
    async def passkeys(request: Request, account: AccountDep) -> PasskeysOut:
        """The account's passkeys."""
        found = await store_of(request).account_passkeys(account.account_id)
        return PasskeysOut(passkeys=[
            PasskeyOut(id=p.credential_id, label=p.label, created=p.created, used=p.used)
            for p in found
        ])

    @router.post(
        "/passkeys/options", response_model=CeremonyOut, responses=answers(401, 409)
    )
    async def register_options(request: Request, account: AccountDep) -> CeremonyOut:
        """Begin adding a passkey: options for ``navigator.credentials.create``."""
        ceremony, options = await begin_registration(store_of(request), request, account)
        return CeremonyOut(ceremony=ceremony, options=options)

    @router.post(
        "/passkeys", status_code=201, response_model=PasskeyOut,
        responses=answers(400, 401, 409),
    )
    async def register(
        body: RegisterPasskeyRequest, request: Request, account: AccountDep
    ) -> PasskeyOut:
        """Finish adding a passkey with the browser's new credential."""
        store = store_of(request)
        passkey = await finish_registration(
            store, request, account, body.ceremony, body.credential, body.label
        )
        kept = await store.passkey(passkey.credential_id)
        created = kept.created if kept is not None else 0.0
        return PasskeyOut(id=passkey.credential_id, label=passkey.label, created=created, used=None)

    @router.post(
        "/passkeys/{credential_id}/delete", response_model=Done, responses=answers(401, 404)
    )
    async def delete_passkey(
        request: Request, account: AccountDep,
        credential_id: Annotated[str, CREDENTIAL_ID],
    ) -> Done:
        """Remove one of the account's passkeys."""
        if not await store_of(request).delete_passkey(account.account_id, credential_id):
            raise ApiError(404, "unknown_passkey", "the account has no such passkey")
        return Done(count=1)

    @router.post(
        "/passkey-signin/options", response_model=CeremonyOut, responses=answers(429)
    )
    async def sign_in_options(request: Request) -> CeremonyOut:
        """Begin a sign-in with a passkey: options for ``navigator.credentials.get``."""
        store = store_of(request)
        await check_address(store, limits_of(request), address_of(request))
        ceremony, options = await begin_sign_in(store, request)
        return CeremonyOut(ceremony=ceremony, options=options)

    @router.post(
        "/passkey-signin", response_model=AccountOut, responses=answers(400, 401, 403, 429)
    )
    async def sign_in(
        body: PasskeySignInRequest, request: Request, response: Response
    ) -> AccountOut:
        """Finish a sign-in with a passkey (a new session cookie)."""
        store, limits, origin = store_of(request), limits_of(request), address_of(request)
        await check_address(store, limits, origin)
        account = await finish_sign_in(store, request, body.ceremony, body.credential)
        if account is None:
            await sign_in_failed(store, limits, None, origin)
            raise ApiError(401, "bad_passkey", "this passkey does not sign in to any account")
        ensure_active(account)
        session = await start_session(store, response, request, account)
        return account_out(account, session)

    return router
