"""Passwords: what a password may be, and its argon2id hash (docs/server.md, "Accounts and
sessions").

A password has at least :data:`MIN_LENGTH` characters and is not one of the common passwords
shipped with the package (``common_passwords.txt``, see :mod:`.common`). It is hashed with
argon2id (``argon2-cffi``) at :data:`HASHER`'s parameters, in a worker thread: a hash takes tens
of milliseconds of CPU and must not stall the event loop that serves every game of the process.
The hashes have their own :data:`CONCURRENT_HASHES` threads (one per core, at most four), which
bounds the memory they take and leaves the event loop's default threads (SQLite's reads use
them) to everything else; on Linux those threads run at a lower priority (nice +10) than the
games, so that a stream of sign-ins waits for the CPU the games leave rather than the games for
the sign-ins. Past :data:`MAX_WAITING` hashes waiting, or :data:`MAX_WAIT_S` seconds of them at
the pace of the last ones, a request is refused at once (``503 busy``, with a ``Retry-After``
from how long the hashes take now) instead of queueing for longer.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import secrets
import threading
import time
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

#: argon2id at one of OWASP's equivalent minimum configurations (the Password Storage Cheat
#: Sheet lists 19 MiB x 2 passes, 12 MiB x 3, 9 MiB x 4, 7 MiB x 5, 46 MiB x 1, each with 1 lane,
#: as equal defences): 12 MiB and 3 passes costs a fifth less CPU than 19 MiB and 2 (24 against
#: 30 ms of a shared server core: docs/benchmarks.md) and 12 MiB of memory per guess. Hashes
#: made with other parameters still verify and are replaced at the next sign-in.
HASHER = PasswordHasher(
    time_cost=3, memory_cost=12 * 1024, parallelism=1, hash_len=32, salt_len=16, type=Type.ID
)
#: More threads than cores would only queue in the kernel instead of here.
CONCURRENT_HASHES = max(1, min(4, os.cpu_count() or 1))
#: The queue's bounds: hashes waiting, and the seconds a new one would wait for its turn (at the
#: pace of the last ones: when the games leave little CPU, fewer may wait, and none longer than a
#: person would wait for a sign-in).
MAX_WAITING, MAX_WAIT_S = 64, 5.0
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
#: The wall time of recent hashes (seconds, a moving average): what a new one waits for.
_seconds_per_hash = 0.05


def busy(retry_after: int = 1) -> ApiError:
    return ApiError(
        503,
        "busy",
        "the server is busy signing people in: try again in a moment",
        retry_after=retry_after,
    )


def _wait_s(waiting: int) -> float:
    """Seconds until ``waiting`` hashes are done, at the pace of the last ones."""
    return waiting * _seconds_per_hash / CONCURRENT_HASHES


def _timed(work: Callable[..., T], *args: str | None) -> T:
    global _seconds_per_hash
    started = time.perf_counter()
    try:
        return work(*args)
    finally:
        _seconds_per_hash += (time.perf_counter() - started - _seconds_per_hash) / 8


async def _in_hashing_thread(work: Callable[..., T], *args: str | None) -> T:
    global _waiting
    if _waiting >= MAX_WAITING or _wait_s(_waiting + 1) > MAX_WAIT_S:
        raise busy(max(1, math.ceil(_wait_s(_waiting))))
    _waiting += 1
    try:
        return await asyncio.get_running_loop().run_in_executor(_HASHING, _timed, work, *args)
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
