"""Who is connected, on any server, in SQL for both backends: the :class:`~.base.Store` methods
by which each server records how many connections of each seat it holds and that it is alive
(its heartbeat), and learns which seats have a connection anywhere (see :mod:`.sql_store`).

The connections of a server silent for too long no longer count: its seats may be marked away
(a dead server's players are not waited for).
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import PRESENCE, Change, Heartbeat, SeatCount
from .dialect import Sql
from .plans import Announce, Plan, SqlRunner

#: The columns of a :class:`SeatCount` list given to a statement (name, PostgreSQL type).
_COUNTED = (("t", "text"), ("s", "int"), ("n", "int"))


class PresenceSql(SqlRunner):
    async def set_presence(self, server: str, counts: Sequence[SeatCount]) -> None:
        if counts:
            await self._write(self._set_presence(server, counts))

    def _set_presence(self, server: str, counts: Sequence[SeatCount]) -> Plan[None]:
        d = self.dialect
        present = [(c.table_id, c.seat, c.connections) for c in counts if c.connections > 0]
        gone = [(c.table_id, c.seat) for c in counts if c.connections <= 0]
        if present:
            q = Sql(d)
            me = q(server)
            yield q.statement(
                f"WITH u AS ({d.rows(q, _COUNTED, present)})"
                f" INSERT INTO presence (table_id, seat, server, connections) SELECT t, s, {me}, n"
                " FROM u WHERE TRUE ON CONFLICT (table_id, seat, server)"
                " DO UPDATE SET connections = excluded.connections"
            )
        if gone:
            q = Sql(d)
            me = q(server)
            yield q.statement(
                f"WITH u AS ({d.rows(q, _COUNTED[:2], gone)}) DELETE FROM presence"
                f" WHERE server = {me} AND (table_id, seat) IN (SELECT t, s FROM u)"
            )
        tables = sorted({c.table_id for c in counts})
        yield Announce(tuple(Change(table_id, PRESENCE, 0, 0) for table_id in tables))

    async def present_seats(self, table_id: str, alive: float) -> set[int]:
        q = Sql(self.dialect)
        rows = await self._read_one(
            q.statement(
                "SELECT DISTINCT p.seat FROM presence p JOIN servers s ON s.id = p.server"
                f" WHERE p.table_id = {q(table_id)} AND p.connections > 0"
                f" AND s.heartbeat >= {q.ago(alive)}"
            )
        )
        return {row[0] for row in rows}

    async def heartbeat(self, server: str, alive: float) -> Heartbeat:
        return await self._write(self._heartbeat(server, alive))

    def _heartbeat(self, server: str, alive: float) -> Plan[Heartbeat]:
        d = self.dialect
        q = Sql(d)
        kept = yield q.statement(
            f"UPDATE servers SET heartbeat = {q.now()} WHERE id = {q(server)} RETURNING 1"
        )
        if not kept:
            q = Sql(d)
            yield q.statement(
                f"INSERT INTO servers (id, heartbeat) VALUES ({q(server)}, {q.now()})"
            )
        # Connections of servers silent for too long (or whose record is gone) no longer count:
        # only the seats they held may become away.
        q = Sql(d)
        me = q(server)
        rows = yield q.statement(
            f"DELETE FROM presence WHERE server <> {me} AND server NOT IN"
            f" (SELECT id FROM servers WHERE heartbeat >= {q.ago(alive)})"
            " RETURNING table_id, seat"
        )
        q = Sql(d)
        yield q.statement(
            f"DELETE FROM servers WHERE heartbeat < {q.ago(alive)} AND id <> {q(server)}"
        )
        forgotten = sorted({(row[0], row[1]) for row in rows})
        tables = sorted({table_id for table_id, _ in forgotten})
        if tables:
            yield Announce(tuple(Change(table_id, PRESENCE, 0, 0) for table_id in tables))
        return Heartbeat(bool(kept), tuple(forgotten))
