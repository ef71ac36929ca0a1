""""Your turn" pushes, in SQL for both backends: the :class:`~.push_records.PushStore` methods
(see :mod:`.sql_store`)."""

from __future__ import annotations

from typing import Any

from .dialect import Sql
from .plans import Plan, SqlRunner
from .push_records import PushDue, PushSubscription

_SUBSCRIPTION_COLUMNS = "endpoint, account_id, p256dh, auth, agent"


def _subscription(row: Any) -> PushSubscription:
    return PushSubscription(row[0], row[1], row[2], row[3], row[4])


class PushSql(SqlRunner):
    async def server_key(self, name: str, candidate: str) -> str:
        return await self._write(self._server_key(name, candidate))

    def _server_key(self, name: str, candidate: str) -> Plan[str]:
        d = self.dialect
        q = Sql(d)
        # Insert if absent, then read back: processes starting together all get the first one.
        yield q.statement(
            f"INSERT INTO server_keys (name, value, created) VALUES ({q(name)}, {q(candidate)},"
            f" {q.now()}) ON CONFLICT (name) DO NOTHING"
        )
        q = Sql(d)
        rows = yield q.statement(f"SELECT value FROM server_keys WHERE name = {q(name)}")
        return str(rows[0][0])

    async def add_push_subscription(self, subscription: PushSubscription, limit: int) -> bool:
        return await self._write(self._add_push_subscription(subscription, limit))

    def _add_push_subscription(self, s: PushSubscription, limit: int) -> Plan[bool]:
        d = self.dialect
        q = Sql(d)
        rows = yield q.statement(
            f"SELECT COUNT(*) FROM push_subscriptions WHERE account_id = {q(s.account_id)}"
            f" AND endpoint <> {q(s.endpoint)}"
        )
        if int(rows[0][0]) >= limit:
            return False
        q = Sql(d)
        yield q.statement(
            f"INSERT INTO push_subscriptions ({_SUBSCRIPTION_COLUMNS}, created) VALUES"
            f" ({q(s.endpoint)}, {q(s.account_id)}, {q(s.p256dh)}, {q(s.auth)}, {q(s.agent)},"
            f" {q.now()}) ON CONFLICT (endpoint) DO UPDATE SET account_id = excluded.account_id,"
            " p256dh = excluded.p256dh, auth = excluded.auth, agent = excluded.agent,"
            " created = excluded.created"
        )
        return True

    async def remove_push_subscription(self, endpoint: str, account_id: str | None = None) -> bool:
        q = Sql(self.dialect)
        whose = f" AND account_id = {q(account_id)}" if account_id is not None else ""
        rows = await self._write_one(q.statement(
            f"DELETE FROM push_subscriptions WHERE endpoint = {q(endpoint)}{whose}"
            " RETURNING endpoint"
        ))
        return bool(rows)

    async def push_subscriptions(self, account_id: str) -> list[PushSubscription]:
        q = Sql(self.dialect)
        rows = await self._read_one(q.statement(
            f"SELECT {_SUBSCRIPTION_COLUMNS} FROM push_subscriptions"
            f" WHERE account_id = {q(account_id)} ORDER BY created, endpoint"
        ))
        return [_subscription(row) for row in rows]

    async def pushes_due(self, alive: float, limit: int) -> list[PushDue]:
        d = self.dialect
        q = Sql(d)
        now = q.now()
        # Nobody connected since: the later of the decision's start and the seat's going away.
        since = "CASE WHEN s.away_since > g.turn_since THEN s.away_since ELSE g.turn_since END"
        rows = await self._read_one(q.statement(
            f"SELECT g.table_id, g.number, g.turn_step, g.turn_seat, s.account_id,"
            f" {now} - ({since}), t.clock, t.bank, t.increment"
            " FROM games g JOIN seats s ON s.table_id = g.table_id AND s.seat = g.turn_seat"
            " JOIN tables t ON t.id = g.table_id"
            f" WHERE {d.false('g.finished')} AND {d.false('g.turn_bot')}"
            " AND g.turn_step IS NOT NULL AND g.turn_since IS NOT NULL"
            f" AND {d.false('t.closed')} AND s.kind = 'human' AND s.account_id IS NOT NULL"
            " AND s.left_at IS NULL"
            " AND g.number = (SELECT MAX(number) FROM games WHERE table_id = g.table_id)"
            " AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.table_id = g.table_id"
            " AND o.kind = 'open')"
            " AND NOT EXISTS (SELECT 1 FROM presence p JOIN servers v ON v.id = p.server"
            " WHERE p.table_id = g.table_id AND p.seat = g.turn_seat AND p.connections > 0"
            f" AND v.heartbeat >= {q.ago(alive)})"
            " AND EXISTS (SELECT 1 FROM push_subscriptions u WHERE u.account_id = s.account_id)"
            " AND NOT EXISTS (SELECT 1 FROM push_sent x WHERE x.table_id = g.table_id"
            " AND x.game = g.number AND x.step = g.turn_step AND x.account_id = s.account_id)"
            f" ORDER BY g.turn_since LIMIT {q(limit)}"
        ))
        return [
            PushDue(
                row[0], int(row[1]), int(row[2]), int(row[3]), row[4], float(row[5]),
                None if row[6] is None else float(row[6]),
                None if row[7] is None else float(row[7]),
                None if row[8] is None else float(row[8]),
            )
            for row in rows
        ]

    async def claim_push(self, due: PushDue) -> bool:
        q = Sql(self.dialect)
        rows = await self._write_one(q.statement(
            "INSERT INTO push_sent (table_id, game, step, account_id, at) VALUES"
            f" ({q(due.table_id)}, {q(due.game)}, {q(due.step)}, {q(due.account_id)},"
            f" {q.now()}) ON CONFLICT (table_id, game, step, account_id) DO NOTHING"
            " RETURNING 1"
        ))
        return bool(rows)
