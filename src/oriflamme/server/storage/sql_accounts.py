"""Accounts, in SQL for both backends: the :class:`~.accounts.AccountStore` methods (accounts,
sessions, failed sign-ins, passkeys and the challenges of passkey ceremonies; see
:mod:`.sql_store`). Expiry goes by the database's clock, as every deadline of the store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..names import name_key
from .accounts import (
    AccountRecord,
    Challenge,
    PasskeyRecord,
    SessionRecord,
)
from .base import SEATS, AccountNameTaken, Change
from .dialect import Sql
from .plans import Announce, Plan, SqlRunner

ACCOUNT_COLUMNS = "id, name, created, suspended, admin"
SESSION_COLUMNS = "id_hash, account_id, csrf, created, seen, expires, agent"
PASSKEY_COLUMNS = "credential_id, account_id, public_key, sign_count, label, created, used"


def account_of(row: Any, at: int = 0) -> AccountRecord:
    """The account in the columns ``ACCOUNT_COLUMNS`` of ``row`` from position ``at``."""
    return AccountRecord(
        row[at], row[at + 1], float(row[at + 2]), bool(row[at + 3]), bool(row[at + 4])
    )


def session_of(row: Any) -> SessionRecord:
    return SessionRecord(
        row[0], row[1], row[2], float(row[3]), float(row[4]), float(row[5]), row[6]
    )


def passkey_of(row: Any) -> PasskeyRecord:
    used = None if row[6] is None else float(row[6])
    return PasskeyRecord(row[0], row[1], row[2], int(row[3]), row[4], float(row[5]), used)


class AccountsSql(SqlRunner):
    # -- accounts ---------------------------------------------------------------------------
    async def create_account(
        self, account_id: str, name: str, password_hash: str | None
    ) -> AccountRecord:
        q = Sql(self.dialect)
        rows = await self._write_one(q.statement(
            f"INSERT INTO accounts (id, name, name_key, password_hash, created) VALUES"
            f" ({q(account_id)}, {q(name)}, {q(name_key(name))}, {q(password_hash)}, {q.now()})"
            f" ON CONFLICT (name_key) DO NOTHING RETURNING {ACCOUNT_COLUMNS}"
        ))
        if not rows:
            raise AccountNameTaken(f"an account is already called {name!r}")
        return account_of(rows[0])

    async def account(self, account_id: str) -> AccountRecord | None:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = {q(account_id)}"
        ))
        return account_of(rows[0]) if rows else None

    async def account_by_name(self, name: str) -> AccountRecord | None:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = {q(name_key(name))}"
        ))
        return account_of(rows[0]) if rows else None

    async def password_hash(self, account_id: str) -> str | None:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT password_hash FROM accounts WHERE id = {q(account_id)}"
        ))
        return rows[0][0] if rows else None

    async def set_password_hash(self, account_id: str, password_hash: str) -> bool:
        q = Sql(self.dialect)
        rows = await self._write_one(q.statement(
            f"UPDATE accounts SET password_hash = {q(password_hash)} WHERE id = {q(account_id)}"
            " RETURNING id"
        ))
        return bool(rows)

    async def set_account_flags(
        self, account_id: str, *, suspended: bool | None = None, admin: bool | None = None
    ) -> AccountRecord | None:
        q = Sql(self.dialect)
        sets = [f"{column} = {q(value)}" for column, value in
                (("suspended", suspended), ("admin", admin)) if value is not None]
        if not sets:
            return await self.account(account_id)
        rows = await self._write_one(q.statement(
            f"UPDATE accounts SET {', '.join(sets)} WHERE id = {q(account_id)}"
            f" RETURNING {ACCOUNT_COLUMNS}"
        ))
        return account_of(rows[0]) if rows else None

    async def list_accounts(self, limit: int, after: str = "") -> list[AccountRecord]:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key > {q(after)}"
            f" ORDER BY name_key LIMIT {q(limit)}"
        ))
        return [account_of(row) for row in rows]

    async def delete_account(self, account_id: str, shown_as: str) -> list[str] | None:
        return await self._write(self._delete_account(account_id, shown_as))

    def _delete_account(self, account_id: str, shown_as: str) -> Plan[list[str] | None]:
        d = self.dialect
        q = Sql(d)
        # The seats stay (the games and their replays do not change), owned by nobody; the
        # servers holding their tables reload them (the name changed).
        rows = yield q.statement(
            f"UPDATE seats SET account_id = NULL, name = {q(shown_as)},"
            f" name_key = {q(name_key(shown_as))} WHERE account_id = {q(account_id)}"
            " RETURNING table_id"
        )
        tables = sorted({row[0] for row in rows})
        if tables:
            yield Announce(tuple(Change(table_id, SEATS, 0, 0) for table_id in tables))
        for table in ("sessions", "passkeys", "challenges", "push_subscriptions"):
            q = Sql(d)
            yield q.statement(f"DELETE FROM {table} WHERE account_id = {q(account_id)}")
        q = Sql(d)
        rows = yield q.statement(f"DELETE FROM accounts WHERE id = {q(account_id)} RETURNING id")
        return tables if rows else None

    async def account_seats(self, account_id: str) -> list[tuple[str, int]]:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            "SELECT s.table_id, s.seat FROM seats s JOIN tables t ON t.id = s.table_id"
            f" WHERE s.account_id = {q(account_id)} ORDER BY t.created, s.table_id, s.seat"
        ))
        return [(row[0], int(row[1])) for row in rows]

    # -- sessions ---------------------------------------------------------------------------
    async def create_session(
        self, id_hash: str, account_id: str, csrf: str, lifetime: float, agent: str = ""
    ) -> SessionRecord:
        q = Sql(self.dialect)
        now = q.now()
        rows = await self._write_one(q.statement(
            f"INSERT INTO sessions (id_hash, account_id, csrf, created, seen, expires, agent)"
            f" VALUES ({q(id_hash)}, {q(account_id)}, {q(csrf)}, {now}, {now},"
            f" {now} + {q(lifetime)}, {q(agent)}) RETURNING {SESSION_COLUMNS}"
        ))
        return session_of(rows[0])

    async def session(self, id_hash: str) -> tuple[SessionRecord, AccountRecord] | None:
        q = Sql(self.dialect)
        columns = ", ".join(f"s.{c.strip()}" for c in SESSION_COLUMNS.split(","))
        accounts = ", ".join(f"a.{c.strip()}" for c in ACCOUNT_COLUMNS.split(","))
        rows = await self._read_one(q.statement(
            f"SELECT {columns}, {accounts} FROM sessions s JOIN accounts a"
            f" ON a.id = s.account_id WHERE s.id_hash = {q(id_hash)} AND s.expires > {q.now()}"
        ))
        if not rows:
            return None
        return session_of(rows[0]), account_of(rows[0], 7)

    async def renew_session(self, id_hash: str, lifetime: float) -> SessionRecord | None:
        q = Sql(self.dialect)
        now = q.now()
        rows = await self._write_one(q.statement(
            f"UPDATE sessions SET seen = {now}, expires = {now} + {q(lifetime)}"
            f" WHERE id_hash = {q(id_hash)} AND expires > {now} RETURNING {SESSION_COLUMNS}"
        ))
        return session_of(rows[0]) if rows else None

    async def delete_session(self, id_hash: str) -> bool:
        q = Sql(self.dialect)
        rows = await self._write_one(q.statement(
            f"DELETE FROM sessions WHERE id_hash = {q(id_hash)} RETURNING id_hash"
        ))
        return bool(rows)

    async def account_sessions(self, account_id: str) -> list[SessionRecord]:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE account_id = {q(account_id)}"
            f" AND expires > {q.now()} ORDER BY seen DESC, created DESC"
        ))
        return [session_of(row) for row in rows]

    async def delete_sessions(
        self, account_id: str, keep: str | None = None, public_id: str | None = None
    ) -> int:
        q = Sql(self.dialect)
        where = f"account_id = {q(account_id)}"
        if keep is not None:
            where += f" AND id_hash <> {q(keep)}"
        if public_id is not None:
            where += f" AND substr(id_hash, 1, 16) = {q(public_id)}"
        rows = await self._write_one(q.statement(
            f"DELETE FROM sessions WHERE {where} RETURNING id_hash"
        ))
        return len(rows)

    # -- brute-force throttling -------------------------------------------------------------
    async def sign_in_failures(self, keys: Sequence[str], within: float) -> dict[str, int]:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT key, COUNT(*) FROM sign_in_failures WHERE {q.among('key', keys)}"
            f" AND at > {q.ago(within)} GROUP BY key"
        ))
        counts = dict.fromkeys(keys, 0)
        counts.update({row[0]: int(row[1]) for row in rows})
        return counts

    async def add_sign_in_failure(self, keys: Sequence[str], keep: float) -> None:
        await self._write(self._add_sign_in_failure(keys, keep))

    def _add_sign_in_failure(self, keys: Sequence[str], keep: float) -> Plan[None]:
        d = self.dialect
        q = Sql(d)
        yield q.statement(f"DELETE FROM sign_in_failures WHERE at <= {q.ago(keep)}")
        q = Sql(d)
        yield q.statement(
            f"INSERT INTO sign_in_failures (key, at) SELECT k.key, {q.now()}"
            f" FROM ({d.rows(q, [('key', 'text')], [[key] for key in keys])}) k"
        )

    async def clear_sign_in_failures(self, key: str) -> None:
        q = Sql(self.dialect)
        await self._write_one(q.statement(f"DELETE FROM sign_in_failures WHERE key = {q(key)}"))

    # -- passkeys ---------------------------------------------------------------------------
    async def add_passkey(self, passkey: PasskeyRecord) -> None:
        q = Sql(self.dialect)
        p = passkey
        await self._write_one(q.statement(
            f"INSERT INTO passkeys ({PASSKEY_COLUMNS}) VALUES ({q(p.credential_id)},"
            f" {q(p.account_id)}, {q(p.public_key)}, {q(p.sign_count)}, {q(p.label)},"
            f" {q.now()}, NULL)"
        ))

    async def passkey(self, credential_id: str) -> PasskeyRecord | None:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE credential_id = {q(credential_id)}"
        ))
        return passkey_of(rows[0]) if rows else None

    async def account_passkeys(self, account_id: str) -> list[PasskeyRecord]:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE account_id = {q(account_id)}"
            " ORDER BY created"
        ))
        return [passkey_of(row) for row in rows]

    async def passkey_used(self, credential_id: str, sign_count: int) -> None:
        q = Sql(self.dialect)
        await self._write_one(q.statement(
            f"UPDATE passkeys SET sign_count = {q(sign_count)}, used = {q.now()}"
            f" WHERE credential_id = {q(credential_id)}"
        ))

    async def delete_passkey(self, account_id: str, credential_id: str) -> bool:
        q = Sql(self.dialect)
        rows = await self._write_one(q.statement(
            f"DELETE FROM passkeys WHERE account_id = {q(account_id)}"
            f" AND credential_id = {q(credential_id)} RETURNING credential_id"
        ))
        return bool(rows)

    async def store_challenge(self, id_hash: str, challenge: Challenge, ttl: float) -> None:
        await self._write(self._store_challenge(id_hash, challenge, ttl))

    def _store_challenge(self, id_hash: str, challenge: Challenge, ttl: float) -> Plan[None]:
        d = self.dialect
        q = Sql(d)
        yield q.statement(f"DELETE FROM challenges WHERE expires <= {q.now()}")
        q = Sql(d)
        yield q.statement(
            "INSERT INTO challenges (id_hash, purpose, account_id, challenge, expires) VALUES"
            f" ({q(id_hash)}, {q(challenge.purpose)}, {q(challenge.account_id)},"
            f" {q(challenge.challenge)}, {q.now()} + {q(ttl)})"
        )

    async def take_challenge(self, id_hash: str, purpose: str) -> Challenge | None:
        q = Sql(self.dialect)
        rows = await self._write_one(q.statement(
            f"DELETE FROM challenges WHERE id_hash = {q(id_hash)} AND purpose = {q(purpose)}"
            f" RETURNING purpose, account_id, challenge, expires > {q.now()}"
        ))
        if not rows or not rows[0][3]:
            return None
        return Challenge(rows[0][0], rows[0][1], rows[0][2])
