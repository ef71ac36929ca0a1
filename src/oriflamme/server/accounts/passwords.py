"""Passwords: what a password may be, and its argon2id hash (docs/server.md, "Accounts and
sessions").

A password has at least :data:`MIN_LENGTH` characters and is not one of the common passwords
shipped with the package (``common_passwords.txt``, see :mod:`.common`). It is hashed with
argon2id (``argon2-cffi``) at :data:`HASHER`'s parameters, in a worker thread: a hash takes tens
of milliseconds of CPU and must not stall the event loop that serves every game of the process.
The hashes have their own :data:`CONCURRENT_HASHES` threads, which bounds the memory they take
and leaves the event loop's default threads (SQLite's reads use them) to everything else; on
Linux those threads run at a lower priority (nice +10) than the games, so that a stream of
sign-ins waits for the CPU the games leave rather than the games for the sign-ins. Past
:data:`MAX_WAITING` hashes waiting, a request is refused at once (``503 busy``) instead of
queueing for seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import TypeVar

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..errors import ApiError
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
MAX_WAITING = 64
#: How much less CPU priority the hashing threads have (Linux: a thread's own nice value).
NICER = 10
T = TypeVar("T")


def _lower_priority() -> None:
    # Not Linux, or not allowed: the default priority.
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICER)


#: The hashes' own threads (shared by every event loop of the process).
_HASHING = ThreadPoolExecutor(
    CONCURRENT_HASHES, thread_name_prefix="argon2", initializer=_lower_priority
)
_waiting = 0


def busy() -> ApiError:
    return ApiError(503, "busy", "the server is busy signing people in: try again in a moment")


async def _in_hashing_thread(work: Callable[..., T], *args: str | None) -> T:
    global _waiting
    if _waiting >= MAX_WAITING:
        raise busy()
    _waiting += 1
    try:
        return await asyncio.get_running_loop().run_in_executor(_HASHING, work, *args)
    finally:
        _waiting -= 1


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
    return await _in_hashing_thread(HASHER.hash, password)


def _verify(stored: str | None, password: str) -> bool:
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
    await _in_hashing_thread(_dummy_hash)


async def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the hash ``stored``. With None (no such account, or one
    without a password) a dummy hash is checked all the same, so that the answer takes as long
    as for a wrong password: nobody learns which names exist by timing sign-ins."""
    return await _in_hashing_thread(_verify, stored, password)


def needs_rehash(stored: str) -> bool:
    """Whether a hash was made with other parameters than today's (rehash it at sign-in)."""
    try:
        return HASHER.check_needs_rehash(stored)
    except InvalidHashError:
        return False
