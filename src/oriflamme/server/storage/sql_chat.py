"""The table talk, in SQL for both backends: the :class:`~.chat_records.ChatStore` methods
(see :mod:`.sql_store`): messages, mutes and reports."""

from __future__ import annotations

from typing import Any

from .base import CHAT, CHAT_DELETED, Change
from .chat_records import ChatRecord, ReportedMessage
from .dialect import Sql
from .plans import Announce, Plan, SqlRunner
from .sql_seats import lock_table

#: The columns of a :class:`ChatRecord`, in its fields' order.
CHAT_COLUMNS = "table_id, number, channel, seat, name, text, phrase, game, step, at, deleted"


def chat_from_row(row: Any) -> ChatRecord:
    return ChatRecord(
        row[0], int(row[1]), row[2], None if row[3] is None else int(row[3]), row[4], row[5],
        row[6], int(row[7]), int(row[8]), float(row[9]), bool(row[10]),
    )


def _not_muted(q: Sql, table_id: str, muter: int | None) -> str:
    """The condition that leaves out the messages of the seats ``muter`` muted."""
    if muter is None:
        return ""
    return (
        " AND (seat IS NULL OR seat NOT IN (SELECT muted FROM chat_mutes"
        f" WHERE table_id = {q(table_id)} AND seat = {q(muter)}))"
    )


class ChatSql(SqlRunner):
    # -- messages ----------------------------------------------------------------------------
    async def post_chat(self, message: ChatRecord) -> ChatRecord:
        return await self._write(self._post_chat(message))

    def _post_chat(self, m: ChatRecord) -> Plan[ChatRecord]:
        d = self.dialect
        yield from lock_table(d, m.table_id)  # one number per message, whoever writes at once
        q = Sql(d)
        table = q(m.table_id)
        rows = yield q.statement(
            "INSERT INTO chat (table_id, number, channel, seat, name, text, phrase, game, step,"
            f" at) SELECT {table}, COALESCE(MAX(number), 0) + 1, {q(m.channel)}, {q(m.seat)},"
            f" {q(m.name)}, {q(m.text)}, {q(m.phrase)}, {q(m.game)}, {q(m.step)}, {q.now()}"
            f" FROM chat WHERE table_id = {table} RETURNING {CHAT_COLUMNS}"
        )
        stored = chat_from_row(rows[0])
        yield Announce((Change(m.table_id, CHAT, stored.game, stored.number),))
        return stored

    async def chat_message(self, table_id: str, number: int) -> ChatRecord | None:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT {CHAT_COLUMNS} FROM chat WHERE table_id = {q(table_id)}"
            f" AND number = {q(number)}"
        ))
        return chat_from_row(rows[0]) if rows else None

    async def chat_history(
        self, table_id: str, channel: str, limit: int, before: int | None = None,
        muter: int | None = None,
    ) -> list[ChatRecord]:
        q = Sql(self.dialect)
        older = f" AND number < {q(before)}" if before is not None else ""
        rows = await self._read_one(q.statement(
            f"SELECT {CHAT_COLUMNS} FROM chat WHERE table_id = {q(table_id)}"
            f" AND channel = {q(channel)}{older}{_not_muted(q, table_id, muter)}"
            f" ORDER BY number DESC LIMIT {q(limit)}"
        ))
        return [chat_from_row(row) for row in reversed(rows)]

    async def game_chat(
        self, table_id: str, game: int, channel: str, limit: int, muter: int | None = None
    ) -> list[ChatRecord]:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT {CHAT_COLUMNS} FROM chat WHERE table_id = {q(table_id)}"
            f" AND game = {q(game)} AND channel = {q(channel)}{_not_muted(q, table_id, muter)}"
            f" ORDER BY number LIMIT {q(limit)}"
        ))
        return [chat_from_row(row) for row in rows]

    # -- mutes -------------------------------------------------------------------------------
    async def set_chat_mute(self, table_id: str, seat: int, muted: int, on: bool) -> list[int]:
        return await self._write(self._set_mute(table_id, seat, muted, on))

    def _set_mute(self, table_id: str, seat: int, muted: int, on: bool) -> Plan[list[int]]:
        q = Sql(self.dialect)
        if on:
            yield q.statement(
                f"INSERT INTO chat_mutes (table_id, seat, muted) VALUES ({q(table_id)},"
                f" {q(seat)}, {q(muted)}) ON CONFLICT DO NOTHING"
            )
        else:
            yield q.statement(
                f"DELETE FROM chat_mutes WHERE table_id = {q(table_id)} AND seat = {q(seat)}"
                f" AND muted = {q(muted)}"
            )
        q = Sql(self.dialect)
        rows = yield q.statement(
            f"SELECT muted FROM chat_mutes WHERE table_id = {q(table_id)} AND seat = {q(seat)}"
            " ORDER BY muted"
        )
        return [int(row[0]) for row in rows]

    async def chat_mutes(self, table_id: str, seat: int) -> list[int]:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT muted FROM chat_mutes WHERE table_id = {q(table_id)} AND seat = {q(seat)}"
            " ORDER BY muted"
        ))
        return [int(row[0]) for row in rows]

    async def chat_muting(self, table_id: str, author: int) -> list[int]:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT seat FROM chat_mutes WHERE table_id = {q(table_id)}"
            f" AND muted = {q(author)} ORDER BY seat"
        ))
        return [int(row[0]) for row in rows]

    # -- reports and moderation --------------------------------------------------------------
    async def report_chat(self, table_id: str, number: int, reporter: str, reason: str) -> bool:
        q = Sql(self.dialect)
        rows = await self._write_one(q.statement(
            "INSERT INTO chat_reports (table_id, number, reporter, reason, at) VALUES"
            f" ({q(table_id)}, {q(number)}, {q(reporter)}, {q(reason)}, {q.now()})"
            " ON CONFLICT DO NOTHING RETURNING number"
        ))
        return bool(rows)

    async def open_chat_reports(self, limit: int) -> list[ReportedMessage]:
        q = Sql(self.dialect)
        columns = ", ".join(f"c.{column.strip()}" for column in CHAT_COLUMNS.split(","))
        rows = await self._read_one(q.statement(
            f"SELECT {columns}, r.reason, r.at, s.account_id, a.name FROM chat_reports r"
            " JOIN chat c ON c.table_id = r.table_id AND c.number = r.number"
            " LEFT JOIN seats s ON s.table_id = c.table_id AND s.seat = c.seat"
            " LEFT JOIN accounts a ON a.id = s.account_id"
            f" WHERE r.handled IS NULL ORDER BY r.at, r.table_id, r.number LIMIT {q(limit * 20)}"
        ))
        found: dict[tuple[str, int], ReportedMessage] = {}
        for row in rows:
            message = chat_from_row(row)
            key = (message.table_id, message.number)
            known = found.get(key)
            if known is None:
                if len(found) == limit:
                    continue
                found[key] = ReportedMessage(
                    message, 1, (row[11],) if row[11] else (), float(row[12]), row[13], row[14]
                )
            else:
                reasons = known.reasons + ((row[11],) if row[11] else ())
                found[key] = ReportedMessage(
                    message, known.reports + 1, reasons, known.first_at, row[13], row[14]
                )
        return list(found.values())

    async def delete_chat(self, table_id: str, number: int) -> ChatRecord | None:
        return await self._write(self._delete_chat(table_id, number))

    def _delete_chat(self, table_id: str, number: int) -> Plan[ChatRecord | None]:
        d = self.dialect
        q = Sql(d)
        rows = yield q.statement(
            f"UPDATE chat SET deleted = {q(True)}, text = NULL, phrase = NULL"
            f" WHERE table_id = {q(table_id)} AND number = {q(number)}"
            f" RETURNING {CHAT_COLUMNS}"
        )
        if not rows:
            return None
        yield from self._close_reports(table_id, number)
        deleted = chat_from_row(rows[0])
        yield Announce((Change(table_id, CHAT_DELETED, deleted.game, deleted.number),))
        return deleted

    async def close_chat_reports(self, table_id: str, number: int) -> int:
        return await self._write(self._close_reports(table_id, number))

    def _close_reports(self, table_id: str, number: int) -> Plan[int]:
        q = Sql(self.dialect)
        rows = yield q.statement(
            f"UPDATE chat_reports SET handled = {q.now()} WHERE table_id = {q(table_id)}"
            f" AND number = {q(number)} AND handled IS NULL RETURNING reporter"
        )
        return len(rows)

    async def chat_author_account(self, table_id: str, number: int) -> str | None:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            "SELECT s.account_id FROM chat c JOIN seats s ON s.table_id = c.table_id"
            f" AND s.seat = c.seat WHERE c.table_id = {q(table_id)} AND c.number = {q(number)}"
        ))
        return rows[0][0] if rows and rows[0][0] is not None else None
