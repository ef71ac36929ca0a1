"""Claims, in SQL for both backends: the :class:`~.base.Store` methods by which exactly one
server plays each bot decision (and each decision whose human ran out of time), and runs each
periodic job (see :mod:`.sql_store`).

A claim is a lease (an owner and an end, by the database's clock) that its owner renews while
it works; a claim whose end has passed is free for any server.
"""

from __future__ import annotations

from .base import BotTurn
from .dialect import Sql
from .plans import SqlRunner


class ClaimsSql(SqlRunner):
    async def claim_bot_turns(self, owner: str, limit: int, ttl: float) -> list[BotTurn]:
        q = Sql(self.dialect)
        now = q.now()
        rows = await self._write_one(
            q.statement(
                f"UPDATE games SET lease_owner = {q(owner)}, lease_until = {now} + {q(ttl)}"
                " FROM (SELECT table_id AS free_table, number AS free_number FROM games"
                f" WHERE turn_deadline <= {now} AND (lease_until IS NULL OR lease_until < {now})"
                f" ORDER BY turn_watched DESC, turn_since LIMIT {q(limit)}"
                f"{self.dialect.skip_locked()}) AS free WHERE table_id = free_table"
                " AND number = free_number RETURNING table_id, number, turn_step"
            )
        )
        return [BotTurn(*row) for row in rows]

    async def waiting_bot_turns(self) -> int:
        q = Sql(self.dialect)
        now = q.now()
        rows = await self._read_one(
            q.statement(
                f"SELECT COUNT(*) FROM games WHERE turn_deadline <= {now}"
                f" AND (lease_until IS NULL OR lease_until < {now})"
            )
        )
        return int(rows[0][0])

    async def claim_bot_turn(self, owner: str, turn: BotTurn, ttl: float) -> bool:
        q = Sql(self.dialect)
        now, me = q.now(), q(owner)
        return bool(
            await self._write_one(
                q.statement(
                    f"UPDATE games SET lease_owner = {me}, lease_until = {now} + {q(ttl)}"
                    f" WHERE table_id = {q(turn.table_id)} AND number = {q(turn.game)}"
                    f" AND turn_deadline <= {now} AND turn_step = {q(turn.step)}"
                    f" AND (lease_until IS NULL OR lease_until < {now} OR lease_owner = {me})"
                    " RETURNING 1"
                )
            )
        )

    async def renew_claim(self, owner: str, turn: BotTurn, ttl: float) -> bool:
        q = Sql(self.dialect)
        return bool(
            await self._write_one(
                q.statement(
                    f"UPDATE games SET lease_until = {q.now()} + {q(ttl)}"
                    f" WHERE table_id = {q(turn.table_id)} AND number = {q(turn.game)}"
                    f" AND turn_deadline IS NOT NULL AND turn_step = {q(turn.step)}"
                    f" AND lease_owner = {q(owner)} RETURNING 1"
                )
            )
        )

    async def release_claim(self, owner: str, turn: BotTurn) -> None:
        q = Sql(self.dialect)
        await self._write_one(
            q.statement(
                "UPDATE games SET lease_owner = NULL, lease_until = NULL"
                f" WHERE table_id = {q(turn.table_id)} AND number = {q(turn.game)}"
                f" AND turn_step = {q(turn.step)} AND lease_owner = {q(owner)}"
            )
        )

    async def claim_job(self, name: str, owner: str, ttl: float) -> bool:
        q = Sql(self.dialect)
        now = q.now()
        return bool(
            await self._write_one(
                q.statement(
                    "INSERT INTO jobs (name, owner, until)"
                    f" VALUES ({q(name)}, {q(owner)}, {now} + {q(ttl)})"
                    " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner,"
                    f" until = excluded.until WHERE jobs.until < {now}"
                    " OR jobs.owner = excluded.owner RETURNING 1"
                )
            )
        )
