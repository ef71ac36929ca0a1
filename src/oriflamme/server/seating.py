"""Seats at the tables: tables created (held to the address's quotas), open seats taken,
tables closed, seats handed to bots, the next game started."""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import replace

from oriflamme.api import Game

from . import absence, handover, thinking
from .broadcast import Broadcaster
from .errors import ApiError
from .heartbeat import ALIVE
from .lobby import LOBBY_FOR
from .names import name_key
from .quotas import Quotas, check_bot_tables, check_hourly
from .registry import TableRegistry
from .replay_links import new_replay_key
from .storage import GameRecord, QuotaReached, SeatRecord, Store, StoreConflict, TableRecord, Turn
from .tables import (
    BOT,
    HUMAN,
    OPEN,
    SEED_BOUND,
    GameSetup,
    NewTable,
    Role,
    SeatSpec,
    Table,
    TableOptions,
    token_hash,
)


class Seating:
    """Creates tables and changes who sits at them."""

    def __init__(
        self, store: Store, registry: TableRegistry, broadcast: Broadcaster, quotas: Quotas
    ) -> None:
        self._store = store
        self._registry = registry
        self._broadcast = broadcast
        self.quotas = quotas

    async def create(
        self,
        setup: GameSetup,
        lang: str,
        seats: Sequence[SeatSpec],
        origin: str = "",
        options: TableOptions | None = None,
        hints: bool = False,
    ) -> NewTable:
        """Store a new table with its first game; return it with its tokens. ``origin``: a
        digest of the creator's address, held to its quota of tables an hour; ``hints``: a
        learning table (its human seats may ask for hints)."""
        options = options or TableOptions()
        await check_hourly(self._store, self.quotas, origin)
        creator, spectator = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        seat_tokens = {i: secrets.token_urlsafe(24) for i, s in enumerate(seats) if s.kind == HUMAN}
        records = tuple(
            SeatRecord(
                seat=i,
                kind=s.kind,
                name=""
                if s.kind == OPEN
                else s.name or thinking.bot_name(s.level or "random", i),
                level=s.level if s.kind == BOT else None,
                token_hash=token_hash(seat_tokens[i]) if i in seat_tokens else None,
                account_id=s.account_id if s.kind == HUMAN else None,
            )
            for i, s in enumerate(seats)
        )
        record = TableRecord(
            table_id=secrets.token_urlsafe(9),
            config=setup.config.to_dict(),
            lang=lang,
            creator_hash=token_hash(creator),
            spectator_hash=token_hash(spectator),
            seats=records,
            origin=origin,
            public=options.public,
            clock=options.clock,
            absent_after=options.absent_after,
            stand_in=options.stand_in,
            hints=hints,
            no_show_after=options.no_show_after,
            replay_key=new_replay_key(),
            created=time.time(),
            rated=options.rated,
            min_reputation=options.min_reputation,
            chat=options.chat,
            bank=options.bank,
            increment=options.increment,
        )
        game = GameRecord(1, setup.seed, setup.actions, setup.start, setup.custom_deal)
        table = Table(record, game)  # checks the game before it is stored
        listed = self.quotas.public_tables
        quota = (listed, LOBBY_FOR) if listed and origin else None
        try:
            await self._store.create_table(
                record, setup.seed, table.turn(), setup.start, setup.actions, setup.custom_deal,
                quota,
            )
        except QuotaReached:
            raise ApiError(
                429,
                "too_many_public_tables",
                f"at most {listed} tables of one address wait in the lobby at once: close one,"
                " or wait until one fills",
            ) from None
        self._registry.add(table)
        self._broadcast.changed(table)
        return NewTable(table, creator, spectator, seat_tokens)

    async def join(
        self,
        table: Table,
        name: str,
        seat: int | None,
        origin: str = "",
        account_id: str | None = None,
    ) -> tuple[int, str]:
        """Take an open seat (``seat``, or the first open one) for a player named ``name``
        (owned by ``account_id``, if signed in) from the address digest ``origin`` (held to
        the quota of tables an hour); return the seat and its private token (given once).
        409 ``seat_taken`` if it is no longer open: of two joins for one seat, on any servers,
        exactly one gets it."""
        if seat is not None and not 0 <= seat < len(table.seats):
            raise ApiError(404, "unknown_seat", "this table has no such seat")
        if table.closed:
            raise ApiError(409, "table_closed", "this table was closed by its creator")
        if seat is not None and table.seats[seat].kind != OPEN:
            raise ApiError(409, "seat_taken", "this seat is not open")
        if not table.open_seats():
            raise ApiError(409, "seat_taken", "this table has no open seat")
        await check_hourly(self._store, self.quotas, origin, "too_many_joins")
        token = secrets.token_urlsafe(24)
        record = SeatRecord(
            -1 if seat is None else seat, HUMAN, name, None, token_hash(token),
            account_id=account_id,
        )
        async with table.lock:
            taken = await self._store.fill_seat(table.id, record, origin)
            await self._registry.reload_locked(table)
        self._broadcast.changed(table)
        if taken is None:
            key = name_key(name)
            if any(name_key(s.name) == key for s in table.seats if s.kind != OPEN):
                raise ApiError(
                    409, "name_taken", "someone at this table has this name: choose another"
                )
            if account_id is not None and any(s.account_id == account_id for s in table.seats):
                raise ApiError(409, "already_seated", "you already have a seat at this table")
            raise ApiError(409, "seat_taken", "someone else took this seat first")
        return taken, token

    async def close(self, table: Table, creator_token: str) -> None:
        """The creator closes a table whose seats are not all taken: it leaves the lobby and
        nobody plays at it."""
        if (await self._registry.identify(table, creator_token)).role is not Role.CREATOR:
            raise ApiError(403, "not_creator", "only the table's creator can do this")
        async with table.lock:
            closed = await self._store.close_table(table.id)
            await self._registry.reload_locked(table)
        if not closed and not table.closed:
            raise ApiError(409, "already_started", "every seat is taken: the game is under way")
        self._broadcast.changed(table)

    async def hand_to_bot(
        self, table: Table, creator_token: str, seat: int, level: str, expect: str
    ) -> None:
        """The creator gives a seat to a bot: an open one (``expect`` "open") or a human nobody
        is connected to ("away"; see :mod:`.handover`). The old link of a human seat then only
        watches."""
        if (await self._registry.identify(table, creator_token)).role is not Role.CREATOR:
            raise ApiError(403, "not_creator", "only the table's creator can do this")
        if not 0 <= seat < len(table.seats):
            raise ApiError(404, "unknown_seat", "this table has no such seat")
        if not thinking.level_available(level):
            raise ApiError(422, "unknown_level", "this bot level is not available")
        async with table.lock:
            if refused := handover.refusal(table, seat, expect, time.time()):
                raise refused
            name = thinking.bot_name(level, seat)
            seats = list(table.seats)
            seats[seat] = replace(seats[seat], kind=BOT, level=level, name=name)
            await check_bot_tables(self._store, self.quotas, table, seats)
            if expect == "open":
                record = SeatRecord(seat, BOT, name, level, None)
                done = await self._store.fill_seat(table.id, record) is not None
            else:
                player = table.game.current_player
                bot = player is not None and seats[player].kind == BOT
                turn = Turn(len(table.game.history), player, bot, table.watched())
                done = await self._store.hand_over(
                    table.id, seats[seat], turn, absence.HAND_OVER_GRACE, ALIVE
                )
            await self._registry.reload_locked(table)
        self._broadcast.changed(table)
        if not done:  # another request, or another server, changed the seat first
            raise handover.refusal(table, seat, expect, time.time()) or ApiError(
                409, "seat_active", "this player is back: the seat stays theirs"
            )

    async def rematch(self, table: Table, token: str, game_number: int | None = None) -> None:
        """Start the next game at the table once the current one is over.

        With ``game_number`` older than the current game, the rematch already happened: nothing
        is done (two players asking at once, on any servers, both get the new game).
        """
        identity = await self._registry.identify(table, token)
        if identity.role is Role.SPECTATOR or (
            identity.role is Role.SEAT and table.view_seat(identity) is None
        ):  # a seat handed to a bot: its old link only watches, like a spectator's
            raise ApiError(403, "not_a_player", "spectators cannot start a game")
        async with table.lock:
            if game_number is not None and game_number >= table.game_number:
                await self._registry.reload_locked(table)
            if game_number is not None and game_number < table.game_number:
                return
            if game_number is None and not table.game.is_over and self._store.shared:
                # Another server may have stored the last move before this one heard of it.
                await self._registry.reload_locked(table)
            if not table.game.is_over:
                raise ApiError(409, "not_over", "the game is not over yet")
            seed = secrets.randbelow(SEED_BOUND)
            number = table.game_number + 1
            game = Game.new(table.config, seed)
            try:
                await self._store.new_game(table.id, number, seed, table.turn(game))
            except StoreConflict:  # another server started it first: take theirs
                await self._registry.reload_locked(table)
            else:
                table.new_game(number, seed, game)
        self._broadcast.changed(table)
