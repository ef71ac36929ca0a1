"""Seats, in SQL for both backends: the :class:`~.base.Store` methods of open seats and the
lobby, seats handed to a bot, and players away or back (see :mod:`.sql_store`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..names import name_key
from .base import (
    NO_FILTER,
    SEATS,
    Change,
    HandOverGrace,
    LobbyEntry,
    LobbyFilter,
    LobbyPlace,
    SeatRecord,
    Turn,
)
from .dialect import Dialect, Sql
from .lobby_sql import lobby_query
from .plans import Announce, Plan, SqlRunner
from .turns_sql import away_deadline, back_deadline, start_if_full, turn_update


def lock_table(dialect: Dialect, table_id: str) -> Plan[None]:
    """One seat change of a table at a time, where several servers write (a join may be
    filling the last open seat while the seat is handed over)."""
    if dialect.locks:
        q = Sql(dialect)
        yield q.statement(f"SELECT 1 FROM tables WHERE id = {q(table_id)}{dialect.for_update()}")


def seat_changed(table_id: str, step: int = 0) -> Announce:
    return Announce((Change(table_id, SEATS, 0, step),))


def hand_over_update(
    q: Sql, table_id: str, seat: SeatRecord, grace: HandOverGrace, alive: float
) -> str:
    """Make the human seat ``seat.seat`` the bot ``seat`` if it may be handed over now: no server
    that beat in the last ``alive`` seconds holds a connection of it, and it was set at the
    table's creation, or has been away, or never came, for the table's limit (``grace``'s where
    the table sets none). Its token digest stays: the old link watches."""
    now, table = q.now(), q(table_id)
    return (
        f"UPDATE seats SET kind = {q(seat.kind)}, name = {q(seat.name)}, level = {q(seat.level)},"
        f" name_key = {q(name_key(seat.name))}, away_since = NULL WHERE table_id = {table}"
        f" AND seat = {q(seat.seat)} AND kind = 'human' AND NOT EXISTS (SELECT 1 FROM presence p"
        " JOIN servers v ON v.id = p.server WHERE p.table_id = seats.table_id"
        f" AND p.seat = seats.seat AND p.connections > 0 AND v.heartbeat >= {q.ago(alive)})"
        " AND (joined IS NULL OR (away_since IS NOT NULL AND away_since"
        f" + COALESCE((SELECT absent_after FROM tables WHERE id = {table}), {q(grace.absent)})"
        f" <= {now}) OR (away_since IS NULL AND arrived IS NULL AND joined"
        f" + COALESCE((SELECT no_show_after FROM tables WHERE id = {table}),"
        f" {q(grace.no_show)}) <= {now})) RETURNING seat"
    )


class SeatsSql(SqlRunner):
    async def fill_seat(self, table_id: str, seat: SeatRecord, origin: str = "") -> int | None:
        return await self._write(self._fill_seat(table_id, seat, origin))

    def _fill_seat(self, table_id: str, seat: SeatRecord, origin: str) -> Plan[int | None]:
        d = self.dialect
        yield from lock_table(d, table_id)  # whoever fills the last open seat sees it
        q = Sql(d)
        table, key = q(table_id), q(name_key(seat.name))
        account = q(seat.account_id)  # an account takes one seat of a table at most
        which = q(seat.seat) if seat.seat >= 0 else (
            f"(SELECT MIN(seat) FROM seats WHERE table_id = {table} AND kind = 'open')"
        )
        taken = yield q.statement(
            f"UPDATE seats SET kind = {q(seat.kind)}, name = {q(seat.name)},"
            f" level = {q(seat.level)}, token_hash = {q(seat.token_hash)}, origin = {q(origin)},"
            f" joined = {q.now()}, away_since = NULL, arrived = NULL, name_key = {key},"
            f" account_id = {account} WHERE table_id = {table} AND seat = {which}"
            " AND kind = 'open' AND NOT EXISTS (SELECT 1 FROM seats o"
            " WHERE o.table_id = seats.table_id AND o.seat <> seats.seat"
            f" AND (o.name_key = {key} OR o.account_id = {account})) RETURNING seat"
        )
        if not taken:
            return None
        q = Sql(d)
        yield q.statement(
            f"UPDATE tables SET listed = {q.now()} WHERE id = {q(table_id)}"
            f" AND {d.true('public')}"
        )
        q = Sql(d)
        yield q.statement(start_if_full(q, table_id))
        yield seat_changed(table_id)
        return int(taken[0][0])

    async def close_table(self, table_id: str) -> bool:
        return await self._write(self._close_table(table_id))

    def _close_table(self, table_id: str) -> Plan[bool]:
        q = Sql(self.dialect)
        table = q(table_id)
        found = yield q.statement(
            f"UPDATE tables SET closed = {q(True)} WHERE id = {table}"
            f" AND {self.dialect.false('closed')} AND EXISTS"
            f" (SELECT 1 FROM seats WHERE table_id = {table} AND kind = 'open') RETURNING 1"
        )
        if found:
            yield seat_changed(table_id)
        return bool(found)

    async def hand_over(
        self, table_id: str, seat: SeatRecord, turn: Turn, grace: HandOverGrace, alive: float
    ) -> bool:
        return await self._write(self._hand_over(table_id, seat, turn, grace, alive))

    def _hand_over(
        self, table_id: str, seat: SeatRecord, turn: Turn, grace: HandOverGrace, alive: float
    ) -> Plan[bool]:
        d = self.dialect
        yield from lock_table(d, table_id)
        q = Sql(d)
        if not (yield q.statement(hand_over_update(q, table_id, seat, grace, alive))):
            return False
        q = Sql(d)
        yield q.statement(turn_update(q, table_id, None, turn))
        yield seat_changed(table_id, turn.step)
        return True

    async def seat_away(self, table_id: str, seats: Sequence[int] | None, alive: float) -> bool:
        return await self._write(self._seat_away(table_id, seats, alive))

    def _seat_away(self, table_id: str, seats: Sequence[int] | None, alive: float) -> Plan[bool]:
        q = Sql(self.dialect)
        chosen = "" if seats is None else f" AND {q.among('seat', seats)}"
        marked = yield q.statement(
            f"UPDATE seats SET away_since = {q.now()} WHERE table_id = {q(table_id)}"
            f" AND kind = 'human' AND away_since IS NULL{chosen} AND NOT EXISTS (SELECT 1"
            " FROM presence p JOIN servers v ON v.id = p.server WHERE p.table_id = seats.table_id"
            f" AND p.seat = seats.seat AND p.connections > 0 AND v.heartbeat >= {q.ago(alive)})"
            " RETURNING seat"
        )
        if marked:
            q = Sql(self.dialect)
            yield q.statement(away_deadline(q, table_id))
            yield seat_changed(table_id)
        return bool(marked)

    async def seat_back(self, table_id: str, seat: int) -> bool:
        return await self._write(self._seat_back(table_id, seat))

    def _seat_back(self, table_id: str, seat: int) -> Plan[bool]:
        q = Sql(self.dialect)
        found = yield q.statement(
            f"UPDATE seats SET away_since = NULL, arrived = COALESCE(arrived, {q.now()})"
            f" WHERE table_id = {q(table_id)} AND seat = {q(seat)} AND kind = 'human'"
            " AND (away_since IS NOT NULL OR arrived IS NULL) RETURNING seat"
        )
        if found:
            q = Sql(self.dialect)
            yield q.statement(back_deadline(q, table_id, seat))
            yield seat_changed(table_id)
        return bool(found)

    async def lobby(
        self,
        within: float,
        limit: int,
        only: LobbyFilter = NO_FILTER,
        after: LobbyPlace | None = None,
    ) -> list[LobbyEntry]:
        return await self._read(self._lobby(within, limit, only, after))

    def _lobby(
        self, within: float, limit: int, only: LobbyFilter, after: LobbyPlace | None
    ) -> Plan[list[LobbyEntry]]:
        rows = yield lobby_query(Sql(self.dialect), within, limit, only, after)
        if not rows:
            return []
        q = Sql(self.dialect)
        seats = yield q.statement(
            "SELECT table_id, seat, kind, name, level, account_id FROM seats"
            f" WHERE {q.among('table_id', (row[0] for row in rows))} ORDER BY table_id, seat"
        )
        by_table: dict[str, list[SeatRecord]] = {}
        for table_id, seat, kind, name, level, account_id in seats:
            by_table.setdefault(table_id, []).append(
                SeatRecord(seat, kind, name, level, None, account_id=account_id)
            )
        return [
            LobbyEntry(
                table_id,
                json.loads(config),
                clock,
                created,
                tuple(by_table.get(table_id, ())),
                no_show_after,
                lang=lang,
                hints=bool(hints),
                stand_in=stand_in,
                absent_after=absent_after,
                place=LobbyPlace(int(place), float(listed), table_id),
                rated=bool(rated),
                min_reputation=min_reputation,
                bank=bank,
                increment=increment,
            )
            for (
                table_id, config, clock, created, lang, hints, stand_in, absent_after, listed,
                place, no_show_after, rated, min_reputation, bank, increment,
            ) in rows
        ]
