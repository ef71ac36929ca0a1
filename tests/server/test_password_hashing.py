"""Password hashing under load (docs/server.md, "Accounts and sessions"; issue #28's sign-in
benchmark): argon2id at one of OWASP's minimum configurations, hashes made with other
parameters verified then replaced at the next sign-in, the hashing threads (one per core at
most, at a lower CPU priority than the games), and ``503 busy`` with a ``Retry-After`` past the
bounded queue."""

from __future__ import annotations

import os
import sys
import threading
from typing import ClassVar

import pytest
from argon2 import PasswordHasher, Type
from argon2.exceptions import VerifyMismatchError
from fastapi.testclient import TestClient

from oriflamme.server.accounts import passwords
from test_accounts_api import PASSWORD, client, error, me, sign_in, sign_up, store

__all__ = ["client"]  # the fixture, imported

#: OWASP's minimum configurations of argon2id (memory KiB, passes), each with one lane.
OWASP_MINIMUMS = {(47104, 1), (19456, 2), (12288, 3), (9216, 4), (7168, 5)}


def stored_hash(client: TestClient, name: str = "Ann") -> str:
    s = store(client)
    account = client.portal.call(s.account_by_name, name)  # type: ignore[union-attr]
    assert account is not None
    found = client.portal.call(s.password_hash, account.account_id)  # type: ignore[union-attr]
    assert found is not None
    return found


def set_stored_hash(client: TestClient, password_hash: str, name: str = "Ann") -> None:
    s = store(client)
    account = client.portal.call(s.account_by_name, name)  # type: ignore[union-attr]
    assert account is not None
    assert client.portal.call(  # type: ignore[union-attr]
        s.set_password_hash, account.account_id, password_hash
    )


def test_the_parameters_are_one_of_owasps_minimums() -> None:
    hasher = passwords.HASHER
    assert hasher.type is Type.ID and hasher.parallelism == 1
    assert (hasher.memory_cost, hasher.time_cost) in OWASP_MINIMUMS
    assert hasher.salt_len >= 16 and hasher.hash_len >= 32


@pytest.mark.parametrize(
    ("memory_kib", "passes"), [(19456, 2), (65536, 3), (7168, 5)], ids=["owasp-19m", "64m", "7m"]
)
def test_a_hash_with_other_parameters_verifies_then_is_replaced(
    client: TestClient, memory_kib: int, passes: int
) -> None:
    assert sign_up(client).status_code == 201
    older = PasswordHasher(time_cost=passes, memory_cost=memory_kib, parallelism=1)
    set_stored_hash(client, older.hash(PASSWORD))
    assert passwords.needs_rehash(stored_hash(client))
    # A wrong password replaces nothing.
    assert error(sign_in(client, "Ann", "not the password")) == (401, "bad_credentials")
    assert passwords.needs_rehash(stored_hash(client))
    assert sign_in(client).status_code == 200
    renewed = stored_hash(client)
    assert not passwords.needs_rehash(renewed)
    assert f"m={passwords.HASHER.memory_cost},t={passwords.HASHER.time_cost},p=1" in renewed
    assert passwords.HASHER.verify(renewed, PASSWORD)
    with pytest.raises(VerifyMismatchError):
        passwords.HASHER.verify(renewed, "not the password")
    assert sign_in(client).status_code == 200 and stored_hash(client) == renewed


class PriorityNoting(PasswordHasher):
    """Notes the CPU priority (nice) of the threads it hashes in."""

    nice: ClassVar[set[int]] = set()

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        PriorityNoting.nice.add(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return super().verify(hash, password)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice: Linux")
def test_hashes_run_in_threads_of_lower_priority_one_per_core_at_most(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = passwords.HASHER
    monkeypatch.setattr(passwords, "HASHER", PriorityNoting(
        time_cost=h.time_cost, memory_cost=h.memory_cost, parallelism=h.parallelism,
        hash_len=h.hash_len, salt_len=h.salt_len, type=h.type,
    ))
    assert sign_up(client).status_code == 201
    assert sign_in(client).status_code == 200
    loop_nice = os.getpriority(os.PRIO_PROCESS, 0)
    assert PriorityNoting.nice == {min(19, loop_nice + passwords.NICER)}
    assert 1 <= passwords.CONCURRENT_HASHES <= (os.cpu_count() or 1)


def test_past_the_queue_a_sign_in_is_told_when_to_come_back(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert sign_up(client).status_code == 201
    client.cookies.clear()
    monkeypatch.setattr(passwords, "MAX_WAITING", 0)
    answer = sign_in(client)
    assert error(answer) == (503, "busy")
    assert int(answer.headers["Retry-After"]) >= 1
    assert error(me(client)) == (401, "signed_out")
    # The queue has room again: the same sign-in goes through.
    monkeypatch.setattr(passwords, "MAX_WAITING", 64)
    assert sign_in(client).status_code == 200


def test_no_sign_in_queues_longer_than_the_pace_of_the_hashes_allows(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert sign_up(client).status_code == 201
    client.cookies.clear()
    # Hashes have lately taken 40 s each (the games left the threads no CPU): refused at once,
    # rather than kept waiting; back when they are fast again.
    monkeypatch.setattr(passwords, "_seconds_per_hash", 40.0 * passwords.CONCURRENT_HASHES)
    answer = sign_in(client)
    assert error(answer) == (503, "busy") and int(answer.headers["Retry-After"]) >= 1
    monkeypatch.setattr(passwords, "_seconds_per_hash", 0.03)
    assert sign_in(client).status_code == 200
