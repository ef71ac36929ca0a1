"""The table talk, in SQL for both backends: the :class:`~.chat_records.ChatStore` methods
(see :mod:`.sql_store`)."""

from __future__ import annotations

from typing import Any

from .base import CHAT, Change
from .chat_records import ChatRecord
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


class ChatSql(SqlRunner):
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
        self, table_id: str, channel: str, limit: int, before: int | None = None
    ) -> list[ChatRecord]:
        q = Sql(self.dialect)
        older = f" AND number < {q(before)}" if before is not None else ""
        rows = await self._read_one(q.statement(
            f"SELECT {CHAT_COLUMNS} FROM chat WHERE table_id = {q(table_id)}"
            f" AND channel = {q(channel)}{older} ORDER BY number DESC LIMIT {q(limit)}"
        ))
        return [chat_from_row(row) for row in reversed(rows)]
