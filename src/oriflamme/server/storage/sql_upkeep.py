"""Quotas and clean-up, in SQL for both backends: the :class:`~.base.Store` methods that count
what an address created (its quotas) and delete the tables nobody uses any more (see
:mod:`.sql_store`). Both go by the database's clock: a server whose own clock is wrong deletes
nothing it should not."""

from __future__ import annotations

from .dialect import Sql
from .plans import Plan, SqlRunner

#: What a table's id names in each table of the schema (the tables' own last).
_TABLE_KEYS = (
    ("actions", "table_id"),
    ("presence", "table_id"),
    ("chat", "table_id"),
    ("push_sent", "table_id"),
    ("analyses", "table_id"),
    ("games", "table_id"),
    ("seats", "table_id"),
    ("tables", "id"),
)


class UpkeepSql(SqlRunner):
    async def origin_counts(self, origin: str, within: float) -> tuple[int, int]:
        return await self._read(self._origin_counts(origin, within))

    def _origin_counts(self, origin: str, within: float) -> Plan[tuple[int, int]]:
        d = self.dialect
        q = Sql(d)
        where = q(origin)
        created = yield q.statement(
            f"SELECT (SELECT COUNT(*) FROM tables WHERE origin = {where} AND created >= s.since)"
            f" + (SELECT COUNT(*) FROM seats WHERE origin = {where} AND joined >= s.since)"
            f" FROM (SELECT {q.ago(within)} AS since) s"
        )
        # The unfinished tables of the origin where no human plays.
        q = Sql(d)
        playing = yield q.statement(
            f"SELECT COUNT(*) FROM tables t WHERE t.origin = {q(origin)} AND NOT EXISTS"
            " (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind IN ('human', 'open'))"
            " AND EXISTS (SELECT 1 FROM games g WHERE g.table_id = t.id"
            f" AND {d.false('g.finished')})"
        )
        return int(created[0][0]), int(playing[0][0])

    async def delete_abandoned(self, idle: float, limit: int) -> list[str]:
        return await self._write(self._delete_abandoned(idle, limit))

    def _delete_abandoned(self, idle: float, limit: int) -> Plan[list[str]]:
        d = self.dialect
        q = Sql(d)
        # Tables created before the cut whose games have not moved since then either.
        rows = yield q.statement(
            f"SELECT t.id FROM tables t, (SELECT {q.ago(idle)} AS before) c"
            " WHERE t.created < c.before AND NOT EXISTS (SELECT 1 FROM games g"
            " WHERE g.table_id = t.id AND g.turn_since >= c.before)"
            f" LIMIT {q(limit)}{d.skip_locked('t')}"
        )
        ids = [row[0] for row in rows]
        if ids:
            for name, key in _TABLE_KEYS:
                q = Sql(d)
                yield q.statement(f"DELETE FROM {name} WHERE {q.among(key, ids)}")
        return ids

    async def ping(self) -> None:
        await self._read_one(Sql(self.dialect).statement("SELECT 1"))
