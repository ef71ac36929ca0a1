"""Brute-force throttling of sign-ins, per account and per address, counted in the database
(``sign_in_failures``) so that every server process sees every failure.

A name (an account or not: the answer must not say which) may fail :data:`PER_ACCOUNT` times and
an address :data:`PER_ADDRESS` times in :data:`WINDOW` seconds; past that, sign-ins with that
name, or from that address, are refused with ``429 too_many_attempts`` (before any password is
checked) until the oldest failure leaves the window. A success forgets the name's failures
(not the address's). Keys are digests: no name or address is stored in clear.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..errors import ApiError
from ..names import name_key
from ..storage import Store

WINDOW = 15 * 60.0


@dataclass(frozen=True, slots=True)
class SignInLimits:
    """Failed sign-ins allowed per name and per address in ``window`` seconds."""

    per_account: int = 10
    per_address: int = 30
    window: float = WINDOW


def name_throttle_key(name: str) -> str:
    return "n:" + hashlib.sha256(f"oriflamme:{name_key(name)}".encode()).hexdigest()[:32]


def address_throttle_key(origin: str) -> str:
    return f"a:{origin}"


def too_many_attempts(limits: SignInLimits) -> ApiError:
    minutes = round(limits.window / 60)
    return ApiError(
        429, "too_many_attempts",
        f"too many failed sign-ins: wait up to {minutes} minutes, then try again",
    )


async def check_sign_in(store: Store, limits: SignInLimits, name: str, origin: str) -> None:
    """Refuse (``429 too_many_attempts``) a sign-in with a name or from an address that failed
    too often lately."""
    keys = (name_throttle_key(name), address_throttle_key(origin))
    counts = await store.sign_in_failures(keys, limits.window)
    if counts[keys[0]] >= limits.per_account or counts[keys[1]] >= limits.per_address:
        raise too_many_attempts(limits)


async def check_address(store: Store, limits: SignInLimits, origin: str) -> None:
    """Refuse (``429 too_many_attempts``) a sign-in from an address that failed too often
    lately (a passkey sign-in names no account)."""
    key = address_throttle_key(origin)
    counts = await store.sign_in_failures((key,), limits.window)
    if counts[key] >= limits.per_address:
        raise too_many_attempts(limits)


async def sign_in_failed(
    store: Store, limits: SignInLimits, name: str | None, origin: str
) -> None:
    """Count a failed sign-in against the address, and the name if one was typed."""
    keys = [address_throttle_key(origin)]
    if name is not None:
        keys.append(name_throttle_key(name))
    await store.add_sign_in_failure(keys, limits.window)


async def sign_in_succeeded(store: Store, name: str) -> None:
    await store.clear_sign_in_failures(name_throttle_key(name))
