"""Passwords: what a password may be, and its argon2id hash (docs/server.md, "Accounts and
sessions").

A password has at least :data:`MIN_LENGTH` characters and is not one of the common passwords
shipped with the package (``common_passwords.txt``, see :mod:`.common`). It is hashed with
argon2id (``argon2-cffi``) at :data:`HASHER`'s parameters, in a worker thread: a hash takes tens
of milliseconds of CPU and must not stall the event loop that serves every game of the process.
At most :data:`CONCURRENT_HASHES` hashes run at once, which bounds the memory they take.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from functools import lru_cache

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from .common import is_common

MIN_LENGTH = 8
MAX_LENGTH = 256

#: argon2id with the OWASP recommendation (19 MiB, 2 passes, 1 lane): about 20 ms of one core,
#: so that a server still signs in tens of players a second while a stolen hash costs an
#: attacker as much per guess.
HASHER = PasswordHasher(
    time_cost=2, memory_cost=19 * 1024, parallelism=1, hash_len=32, salt_len=16, type=Type.ID
)
CONCURRENT_HASHES = 4
#: Taken by the worker threads (an event loop's semaphore would tie it to one loop).
_hashing = threading.BoundedSemaphore(CONCURRENT_HASHES)


class WeakPassword(ValueError):
    """A password refused: too short, too long or too common (the message says which)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def check_password(password: str) -> None:
    """Refuse (:class:`WeakPassword`) a password that is too short, too long or common."""
    if len(password) < MIN_LENGTH:
        raise WeakPassword(
            "password_too_short", f"a password has at least {MIN_LENGTH} characters"
        )
    if len(password) > MAX_LENGTH:
        raise WeakPassword("password_too_long", f"a password has at most {MAX_LENGTH} characters")
    if is_common(password):
        raise WeakPassword(
            "password_too_common", "this password is among the most common ones: choose another"
        )


async def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (in a worker thread)."""
    return await asyncio.to_thread(_hash, password)


def _hash(password: str) -> str:
    with _hashing:
        return HASHER.hash(password)


def _verify(stored: str | None, password: str) -> bool:
    with _hashing:
        try:
            return HASHER.verify(stored or _dummy_hash(), password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    return HASHER.hash(secrets.token_urlsafe(16))


async def warm_up() -> None:
    """Make the dummy hash now (when the server starts), so that not even the first sign-in
    with an unknown name takes longer than one with a wrong password."""
    await asyncio.to_thread(_dummy_hash)


async def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the hash ``stored``. With None (no such account, or one
    without a password) a dummy hash is checked all the same, so that the answer takes as long
    as for a wrong password: nobody learns which names exist by timing sign-ins."""
    return await asyncio.to_thread(_verify, stored, password)


def needs_rehash(stored: str) -> bool:
    """Whether a hash was made with other parameters than today's (rehash it at sign-in)."""
    try:
        return HASHER.check_needs_rehash(stored)
    except InvalidHashError:
        return False
