"""Tables, games and their actions, in SQL for both backends: the :class:`~.base.Store` methods
that create, load and play them (see :mod:`.sql_store`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..names import name_key
from ..rating_model import RatedGame
from .bank_sql import bank_update, reset_banks
from .base import (
    ACTION,
    GAME,
    SEATS,
    BankCharged,
    BankMove,
    Change,
    GameRecord,
    QuotaReached,
    SeatRecord,
    StoreConflict,
    TableRecord,
    Turn,
)
from .dialect import Sql
from .lobby_sql import listed_count_query
from .plans import Announce, Chain, Plan, quota
from .sql_ratings import RatingsSql
from .turns_sql import turn_update

#: The columns of a :class:`SeatRecord`, in its fields' order.
SEAT_COLUMNS = (
    "seat, kind, name, level, token_hash, away_since, joined, arrived, account_id, left_at,"
    " bank_left, ran_out"
)
#: The columns of a :class:`TableRecord` after its id and before its seats.
TABLE_COLUMNS = (
    "config, lang, creator_hash, spectator_hash, origin, public, clock, absent_after, stand_in,"
    " closed, listed, hints, no_show_after, replay_key, created, rated, min_reputation, chat,"
    " bank, increment"
)


#: One encoder for every action (``json.dumps`` with options makes one at each call).
_COMPACT = json.JSONEncoder(separators=(",", ":"))


def action_text(action: Mapping[str, Any]) -> str:
    """An action as stored (and announced): compact JSON."""
    return _COMPACT.encode(action)


class GamesSql(RatingsSql):
    async def create_table(
        self,
        table: TableRecord,
        seed: int,
        turn: Turn,
        start: Mapping[str, Any] | None = None,
        actions: Sequence[Mapping[str, Any]] = (),
        custom_deal: bool = False,
        listed_quota: tuple[int, float] | None = None,
    ) -> None:
        await self._write(
            self._create_table(table, seed, turn, start, actions, custom_deal, listed_quota)
        )

    def _create_table(
        self,
        table: TableRecord,
        seed: int,
        turn: Turn,
        start: Mapping[str, Any] | None,
        actions: Sequence[Mapping[str, Any]],
        custom_deal: bool,
        listed_quota: tuple[int, float] | None,
    ) -> Plan[None]:
        d, table_id = self.dialect, table.table_id
        if listed_quota is not None and table.public:
            limit, within = listed_quota
            refusal = QuotaReached(f"{limit} tables of this address are in the lobby")
            count = listed_count_query(Sql(d), table.origin, within)
            yield from quota(d, f"lobby:{table.origin}", count, limit, refusal)
        q = Sql(d)
        yield q.statement(
            "INSERT INTO tables (id, config, lang, creator_hash, spectator_hash, created, origin,"
            " public, listed, clock, absent_after, stand_in, hints, no_show_after, replay_key,"
            " rated, min_reputation, chat, bank, increment)"
            f" VALUES ({q(table_id)}, {q(json.dumps(table.config))}, {q(table.lang)},"
            f" {q(table.creator_hash)}, {q(table.spectator_hash)}, {q.now()}, {q(table.origin)},"
            f" {q(table.public)}, {q.now() if table.public else 'NULL'}, {q(table.clock)},"
            f" {q(table.absent_after)}, {q(table.stand_in)}, {q(table.hints)},"
            f" {q(table.no_show_after)}, {q(table.replay_key)}, {q(table.rated)},"
            f" {q(table.min_reputation)}, {q(table.chat)}, {q(table.bank)},"
            f" {q(table.increment)})"
        )
        q = Sql(d)
        yield q.statement(
            "INSERT INTO games (table_id, number, seed, start, custom_deal) VALUES"
            f" ({q(table_id)}, 1, {q(seed)}, {q(None if start is None else json.dumps(start))},"
            f" {q(custom_deal)})"
        )
        for seat in table.seats:
            q = Sql(d)
            yield q.statement(
                "INSERT INTO seats (table_id, seat, kind, name, level, token_hash, name_key,"
                f" account_id) VALUES ({q(table_id)}, {q(seat.seat)}, {q(seat.kind)},"
                f" {q(seat.name)}, {q(seat.level)}, {q(seat.token_hash)},"
                f" {q(name_key(seat.name))}, {q(seat.account_id)})"
            )
        for index, action in enumerate(actions):
            q = Sql(d)
            yield q.statement(
                "INSERT INTO actions (table_id, game, idx, action) VALUES"
                f" ({q(table_id)}, 1, {q(index)}, {q(action_text(action))})"
            )
        q = Sql(d)
        yield q.statement(turn_update(q, table_id, 1, turn))
        yield Announce((Change(table_id, GAME, 1, turn.step),))

    async def append_action(
        self,
        table_id: str,
        game: int,
        index: int,
        action: Mapping[str, Any],
        turn: Turn,
        stand_in: bool = False,
        source: str | None = None,
        finished: RatedGame | None = None,
        bank: BankMove | None = None,
    ) -> BankCharged | None:
        if (finished is not None and turn.over) or bank is not None:
            return await self._write(
                self._append_in_transaction(
                    table_id, game, index, action, turn, stand_in, source, finished, bank
                )
            )
        # One chain, so one round trip in PostgreSQL: the action and who played it
        # (``server.sources``), the turn it leads to, the announcement.
        text = action_text(action)
        q = Sql(self.dialect)
        table, number, step, played = q(table_id), q(game), q(index), q(text)
        by = q(source)
        link = self.dialect.link()
        if stand_in:  # only while the human's deadline has passed (they did not come back)
            added = q.statement(
                "INSERT INTO actions (table_id, game, idx, action, source) SELECT"
                f" CAST({table} AS TEXT), CAST({number} AS INTEGER), CAST({step} AS INTEGER),"
                f" CAST({played} AS TEXT), CAST({by} AS TEXT) WHERE EXISTS (SELECT 1 FROM games"
                f" WHERE table_id = {table} AND number = {number} AND turn_step = {step}"
                f" AND turn_deadline <= {q.now()}){link}"
            )
        else:
            added = q.statement(
                "INSERT INTO actions (table_id, game, idx, action, source)"
                f" VALUES ({table}, {number}, {step}, {played}, {by}){link}"
            )
        turned = q.statement(
            f"{turn_update(q, table_id, game, turn)}{q.after_previous()} RETURNING 1"
        )
        change = Change(table_id, ACTION, game, index + 1, text, source)
        if not await self._write_one(Chain((added, turned), change)):
            raise StoreConflict("the stand-in's deadline has not passed")
        return None

    def _append_in_transaction(
        self,
        table_id: str,
        game: int,
        index: int,
        action: Mapping[str, Any],
        turn: Turn,
        stand_in: bool,
        source: str | None,
        finished: RatedGame | None,
        bank: BankMove | None = None,
    ) -> Plan[BankCharged | None]:
        """An action in one transaction with what goes with it: at a table with a time bank,
        the decision's time charged to its seat (before the turn moves on); the last action of
        a game, its end, its accounts' results and the ratings it updates (so that a game never
        ends without them, nor counts twice)."""
        text = action_text(action)
        q = Sql(self.dialect)
        table, number, step = q(table_id), q(game), q(index)
        condition = (
            f" WHERE EXISTS (SELECT 1 FROM games WHERE table_id = {table} AND number = {number}"
            f" AND turn_step = {step} AND turn_deadline <= {q.now()})"
            if stand_in
            else ""
        )
        added = yield q.statement(
            "INSERT INTO actions (table_id, game, idx, action, source) SELECT"
            f" CAST({table} AS TEXT), CAST({number} AS INTEGER), CAST({step} AS INTEGER),"
            f" CAST({q(text)} AS TEXT), CAST({q(source)} AS TEXT){condition} RETURNING 1"
        )
        if not added:
            raise StoreConflict("the stand-in's deadline has not passed")
        charged = None
        if bank is not None:
            q = Sql(self.dialect)
            rows = yield q.statement(bank_update(q, table_id, game, bank))
            charged = BankCharged(*rows[0]) if rows else None
        q = Sql(self.dialect)
        yield q.statement(turn_update(q, table_id, game, turn))
        if finished is not None and turn.over:
            yield from self._record_results(finished)
        played = Change(table_id, ACTION, game, index + 1, text, source)
        # A bank changed: every server reads the seats again (the database computed it).
        yield Announce((played, Change(table_id, SEATS, 0, 0)) if bank else (played,))
        return charged

    async def new_game(self, table_id: str, game: int, seed: int, turn: Turn) -> None:
        await self._write(self._new_game(table_id, game, seed, turn))

    def _new_game(self, table_id: str, game: int, seed: int, turn: Turn) -> Plan[None]:
        q = Sql(self.dialect)
        yield q.statement(
            f"INSERT INTO games (table_id, number, seed) VALUES ({q(table_id)}, {q(game)},"
            f" {q(seed)})"
        )
        q = Sql(self.dialect)  # who left the last game has left the table
        yield q.statement(
            f"UPDATE seats SET account_id = NULL WHERE table_id = {q(table_id)}"
            " AND left_at IS NOT NULL"
        )
        q = Sql(self.dialect)
        yield q.statement(reset_banks(q, table_id))
        q = Sql(self.dialect)
        yield q.statement(turn_update(q, table_id, game, turn))
        yield Announce((Change(table_id, GAME, game, turn.step),))

    async def set_turn(self, table_id: str, game: int, turn: Turn) -> bool:
        return await self._write(self._set_turn(table_id, game, turn))

    def _set_turn(self, table_id: str, game: int, turn: Turn) -> Plan[bool]:
        q = Sql(self.dialect)
        found = yield q.statement(
            f"{turn_update(q, table_id, game, turn)} AND (SELECT COUNT(*) FROM actions"
            f" WHERE table_id = {q(table_id)} AND game = {q(game)}) = {q(turn.step)} RETURNING 1"
        )
        if found:
            yield Announce((Change(table_id, SEATS, game, turn.step),))
        return bool(found)

    # -- reading ---------------------------------------------------------------------------
    async def load_table(self, table_id: str) -> tuple[TableRecord, GameRecord] | None:
        return await self._read(self._load_table(table_id), snapshot=True)

    def _load_table(self, table_id: str) -> Plan[tuple[TableRecord, GameRecord] | None]:
        q = Sql(self.dialect)
        found = yield q.statement(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = {q(table_id)}")
        if not found:
            return None
        row = found[0]
        q = Sql(self.dialect)
        seats = yield q.statement(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = {q(table_id)} ORDER BY seat"
        )
        q = Sql(self.dialect)
        games = yield q.statement(
            "SELECT number, seed, start, custom_deal, turn_since FROM games"
            f" WHERE table_id = {q(table_id)} ORDER BY number DESC LIMIT 1"
        )
        number, seed, start, custom, turn_since = games[0]
        actions, sources = yield from self._played(table_id, number, 0)
        table = TableRecord(
            table_id=table_id,
            config=json.loads(row[0]),
            lang=row[1],
            creator_hash=row[2],
            spectator_hash=row[3],
            seats=tuple(SeatRecord(*seat) for seat in seats),
            origin=row[4],
            public=bool(row[5]),
            clock=row[6],
            absent_after=row[7],
            stand_in=row[8],
            closed=bool(row[9]),
            listed=row[10],
            hints=bool(row[11]),
            no_show_after=row[12],
            replay_key=row[13] or "",
            created=row[14],
            rated=bool(row[15]),
            min_reputation=row[16],
            chat=row[17],
            bank=row[18],
            increment=row[19],
        )
        start_from = None if start is None else json.loads(start)
        record = GameRecord(
            number, seed, tuple(actions), start_from, bool(custom), tuple(sources), turn_since
        )
        return table, record

    async def load_game(self, table_id: str, number: int) -> tuple[GameRecord, bool] | None:
        return await self._read(self._load_game(table_id, number), snapshot=True)

    def _load_game(self, table_id: str, number: int) -> Plan[tuple[GameRecord, bool] | None]:
        q = Sql(self.dialect)
        found = yield q.statement(
            "SELECT seed, start, finished, custom_deal FROM games"
            f" WHERE table_id = {q(table_id)} AND number = {q(number)}"
        )
        if not found:
            return None
        seed, start, finished, custom = found[0]
        actions, sources = yield from self._played(table_id, number, 0)
        start_from = None if start is None else json.loads(start)
        record = GameRecord(
            number, seed, tuple(actions), start_from, bool(custom), tuple(sources)
        )
        return record, bool(finished)

    async def load_actions(self, table_id: str, game: int, first: int) -> list[Mapping[str, Any]]:
        return await self._read(self._actions(table_id, game, first))

    def _actions(self, table_id: str, game: int, first: int) -> Plan[list[Mapping[str, Any]]]:
        q = Sql(self.dialect)
        rows = yield q.statement(
            f"SELECT action FROM actions WHERE table_id = {q(table_id)} AND game = {q(game)}"
            f" AND idx >= {q(first)} ORDER BY idx"
        )
        return [json.loads(row[0]) for row in rows]

    async def load_sources(self, table_id: str, game: int, first: int) -> list[str | None]:
        actions_and_sources = await self._read(self._played(table_id, game, first))
        return actions_and_sources[1]

    def _played(
        self, table_id: str, game: int, first: int
    ) -> Plan[tuple[list[Mapping[str, Any]], list[str | None]]]:
        """The actions of a game from index ``first`` on, and who played each (None: unknown)."""
        q = Sql(self.dialect)
        rows = yield q.statement(
            "SELECT action, source FROM actions WHERE table_id = "
            f"{q(table_id)} AND game = {q(game)} AND idx >= {q(first)} ORDER BY idx"
        )
        return [json.loads(row[0]) for row in rows], [row[1] for row in rows]

    async def unfinished_tables(self) -> list[str]:
        rows = await self._read_one(
            Sql(self.dialect).statement(
                "SELECT g.table_id FROM games g WHERE"
                f" {self.dialect.false('g.finished')} AND g.number ="
                " (SELECT MAX(number) FROM games WHERE table_id = g.table_id)"
            )
        )
        return [row[0] for row in rows]
