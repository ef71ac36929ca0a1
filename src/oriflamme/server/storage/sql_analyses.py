"""Post-game analyses, in SQL for both backends: the :class:`~.base.Store` methods that queue
them (a few per address), let exactly one server claim each (round-robin by address, see
:mod:`.analysis_sql`) and store their progress (see :mod:`.sql_store`)."""

from __future__ import annotations

import json
from typing import Any

from .analysis_sql import CLAIM_ORDER, queued_before
from .base import DONE, FAILED, QUEUED, RUNNING, AnalysisRecord, QuotaReached
from .dialect import Sql, Statement
from .plans import Plan, SqlRunner, quota

#: The columns of an :class:`AnalysisRecord`, in its fields' order.
ANALYSIS_COLUMNS = "table_id, game, status, progress, steps"


def analysis_from_row(row: Any) -> AnalysisRecord:
    return AnalysisRecord(row[0], row[1], row[2], row[3], tuple(json.loads(row[4])))


class AnalysesSql(SqlRunner):
    async def request_analysis(
        self, table_id: str, game: int, origin: str = "", queued_limit: int = 0
    ) -> AnalysisRecord:
        return await self._write(self._request_analysis(table_id, game, origin, queued_limit))

    def _request_analysis(
        self, table_id: str, game: int, origin: str, queued_limit: int
    ) -> Plan[AnalysisRecord]:
        d = self.dialect
        if queued_limit and origin:
            refusal = QuotaReached(f"{queued_limit} analyses of this address are queued")
            count = queued_before(Sql(d), table_id, game, origin)
            yield from quota(d, f"analyses:{origin}", count, queued_limit, refusal)
        q = Sql(d)
        yield q.statement(
            "INSERT INTO analyses (table_id, game, status, requested, origin) VALUES"
            f" ({q(table_id)}, {q(game)}, {q(QUEUED)}, {q.now()}, {q(origin)})"
            " ON CONFLICT (table_id, game) DO UPDATE SET status = excluded.status, progress = 0,"
            " steps = '[]', requested = excluded.requested, origin = excluded.origin,"
            f" lease_owner = NULL, lease_until = NULL WHERE analyses.status = {q(FAILED)}"
        )
        rows = yield self._select(table_id, game)
        return analysis_from_row(rows[0])

    def _select(self, table_id: str, game: int) -> Statement:
        q = Sql(self.dialect)
        return q.statement(
            f"SELECT {ANALYSIS_COLUMNS} FROM analyses WHERE table_id = {q(table_id)}"
            f" AND game = {q(game)}"
        )

    async def queued_analyses(self) -> int:
        q = Sql(self.dialect)
        rows = await self._read_one(
            q.statement(f"SELECT COUNT(*) FROM analyses WHERE status = {q(QUEUED)}")
        )
        return int(rows[0][0])

    async def load_analysis(self, table_id: str, game: int) -> AnalysisRecord | None:
        rows = await self._read_one(self._select(table_id, game))
        return analysis_from_row(rows[0]) if rows else None

    async def claim_analysis(self, owner: str, ttl: float) -> AnalysisRecord | None:
        q = Sql(self.dialect)
        now, running = q.now(), q(RUNNING)
        rows = await self._write_one(
            q.statement(
                f"UPDATE analyses SET status = {running}, lease_owner = {q(owner)},"
                f" lease_until = {now} + {q(ttl)}, started = {now} FROM (SELECT a.table_id"
                " AS free_table, a.game AS free_game FROM analyses a"
                f" WHERE a.status IN ({q(QUEUED)}, {running})"
                f" AND (a.lease_until IS NULL OR a.lease_until < {now})"
                f" ORDER BY {CLAIM_ORDER} LIMIT 1{self.dialect.skip_locked()}) AS free"
                f" WHERE table_id = free_table AND game = free_game RETURNING {ANALYSIS_COLUMNS}"
            )
        )
        return analysis_from_row(rows[0]) if rows else None

    async def save_analysis(self, owner: str, record: AnalysisRecord, ttl: float) -> bool:
        q = Sql(self.dialect)
        finished, steps = q(record.status in (DONE, FAILED)), q(json.dumps(list(record.steps)))
        return bool(
            await self._write_one(
                q.statement(
                    f"UPDATE analyses SET status = {q(record.status)},"
                    f" progress = {q(record.progress)}, steps = {steps},"
                    f" lease_until = CASE WHEN {finished} THEN NULL ELSE {q.now()} + {q(ttl)} END,"
                    f" lease_owner = CASE WHEN {finished} THEN NULL ELSE lease_owner END"
                    f" WHERE table_id = {q(record.table_id)} AND game = {q(record.game)}"
                    f" AND lease_owner = {q(owner)} RETURNING 1"
                )
            )
        )
