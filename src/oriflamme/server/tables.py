"""The tables: the authoritative games, held in memory, rebuilt from storage, changed under a
per-table lock; every accepted action is stored before anyone is told about it."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Protocol

from oriflamme.api import Action, ActionError, Game, GameConfig, load

from . import bots
from .errors import ApiError, bad_token, unknown_table
from .storage import GameRecord, SeatRecord, Store, StoreConflict, TableRecord
from .tasks import spawn
from .views import ViewCache

log = logging.getLogger("oriflamme.server")

HUMAN, BOT = "human", "bot"
#: Connections a table accepts at once (seats and spectators together).
MAX_LISTENERS = 32
#: Seeds are drawn below this bound (SQLite integers are 64-bit signed).
SEED_BOUND = 2**62


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Role(Enum):
    SEAT = "seat"
    SPECTATOR = "spectator"
    CREATOR = "creator"


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a token designates: a seat (with its index), a spectator or the creator."""

    role: Role
    seat: int | None = None


class Listener(Protocol):
    """A connection following a table: told (without waiting) when the table changes."""

    identity: Identity

    def notify(self) -> None: ...


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat asked for at creation: ``kind`` human (with a name) or bot (with a level)."""

    kind: str
    name: str | None = None  #: None: a bot's default name (:func:`bots.bot_name`)
    level: str | None = None


@dataclass(frozen=True, slots=True)
class GameSetup:
    """How a table's first game starts: dealt from ``seed`` and ``actions`` played on it, or
    from ``start`` (a save without history; ``seed`` then seeds the bots)."""

    config: GameConfig
    seed: int
    start: Mapping[str, Any] | None = None
    actions: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class NewTable:
    """A created table and the tokens handed out once: creator, spectator, one per human."""

    table: Table
    creator_token: str
    spectator_token: str
    seat_tokens: Mapping[int, str]


def _record_error(exc: Exception) -> ApiError:
    return ApiError(422, "invalid_save", f"save: {exc}"[:300])


def setup_from_record(data: Mapping[str, Any], players: int) -> GameSetup:
    """The set-up of a game continued from ``data``: a save (``Game.save()``), a position or a
    replay (docs/formats.md); 422 ``invalid_save`` saying what is wrong with it."""
    try:
        game = load(data)
        if game.seed is not None:
            # A dealt game: deal it again and replay its history, which must lead to the save's
            # position, so that the table stores it as a seed and actions like any other.
            replayed = Game.from_replay(game.replay())
            if replayed.position() != game.position():
                raise ValueError("its history does not lead to its position")
            game = replayed
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise _record_error(exc) from None
    if game.config.players != players:
        raise ApiError(
            422, "invalid_save", f"players: the saved game has {game.config.players} players"
        )
    if game.is_over:
        raise ApiError(422, "invalid_save", "save: this game is over")
    if game.seed is not None:
        actions = tuple(a.to_json() for a in game.history)
        return GameSetup(game.config, game.seed, None, actions)
    return GameSetup(game.config, secrets.randbelow(SEED_BOUND), game.save())


def _start(config: GameConfig, record: GameRecord) -> Game:
    game = Game.new(config, record.seed) if record.start is None else Game.from_save(record.start)
    for action in record.actions:
        game.apply(action)
    return game


class Table:
    """One table: its seats, its current game and the connections that follow it."""

    def __init__(self, record: TableRecord, game: GameRecord) -> None:
        self.id = record.table_id
        self.config = GameConfig.from_dict(record.config)
        self.lang = record.lang
        self.seats = list(record.seats)
        self._creator_hash = record.creator_hash
        self._spectator_hash = record.spectator_hash
        self.lock = asyncio.Lock()
        #: Each connection, with the seat whose view it gets (None: the public view).
        self.listeners: dict[Listener, int | None] = {}
        self._open = [0] * len(self.seats)  #: connections getting each seat's view
        #: Changes of the seats or their connections (views show them): part of a view's key.
        self.version = 0
        self.game_number = game.number
        self.seed = game.seed
        self.game = _start(self.config, game)
        self.views = ViewCache()

    def new_game(self, number: int, seed: int) -> None:
        """Deal game ``number`` from ``seed``."""
        self.game_number, self.seed = number, seed
        self.game = Game.new(self.config, seed)
        self.views = ViewCache()

    def identify(self, token: str) -> Identity:
        """The identity ``token`` designates; :func:`bad_token` if none."""
        digest = token_hash(token)
        found: Identity | None = None
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(digest, seat.token_hash):
                found = Identity(Role.SEAT, seat.seat)
        if secrets.compare_digest(digest, self._spectator_hash):
            found = Identity(Role.SPECTATOR)
        if secrets.compare_digest(digest, self._creator_hash):
            found = Identity(Role.CREATOR)
        if found is None:
            raise bad_token()
        return found

    def view_seat(self, identity: Identity) -> int | None:
        """Whose view this identity gets: its seat while a human plays it, else the public one."""
        seat = identity.seat
        if identity.role is Role.SEAT and seat is not None and self.seats[seat].kind == HUMAN:
            return seat
        return None

    def connected(self, seat: int) -> bool:
        """A bot, or a human with at least one open connection."""
        return self.seats[seat].kind == BOT or self._open[seat] > 0

    def add_listener(self, listener: Listener) -> bool:
        """Follow the table; True if that connected its seat (the others' views change)."""
        seat = self.view_seat(listener.identity)
        self.listeners[listener] = seat
        if seat is None:
            return False
        self._open[seat] += 1
        return self._open[seat] == 1 and self._seat_changed()

    def remove_listener(self, listener: Listener) -> bool:
        """Stop following; True if that left its seat without a connection."""
        seat = self.listeners.pop(listener, None)
        if seat is None:
            return False
        self._open[seat] -= 1
        return self._open[seat] == 0 and self.seats[seat].kind == HUMAN and self._seat_changed()

    def _seat_changed(self) -> bool:
        self.version += 1
        return True

    def set_seat(self, record: SeatRecord) -> None:
        self.seats[record.seat] = record
        self.version += 1


def parse_action(data: object) -> Action:
    """An action from its JSON form; 400 ``malformed_action`` naming what is wrong."""
    if not isinstance(data, Mapping):
        raise ApiError(400, "malformed_action", "an action must be a JSON object")
    try:
        return Action.from_json(data)
    except (ActionError, TypeError, ValueError, KeyError) as exc:
        raise ApiError(400, "malformed_action", str(exc)[:200]) from None


def stale() -> ApiError:
    return ApiError(409, "stale", "the game has moved on since this view: reload it")


class TableManager:
    """Every table in play: creates, loads, changes them and runs their bot seats."""

    def __init__(self, store: Store, bot_delay: float = 0.8) -> None:
        self._store = store
        self._bot_delay = bot_delay
        self._tables: dict[str, Table] = {}
        self._bot_tasks: dict[str, asyncio.Task[Any]] = {}
        self.bot_pool = bots.BotPool()

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every unfinished game from storage and let its bots play on."""
        for table_id in await asyncio.to_thread(self._store.unfinished_tables):
            try:
                self._poke_bot(self.get(table_id))
            except ApiError:
                continue  # logged by _load

    async def stop(self) -> None:
        tasks = list(self._bot_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.bot_pool.shutdown()

    def get(self, table_id: str) -> Table:
        """The table (loaded from storage on first use); 404 ``unknown_table``."""
        table = self._tables.get(table_id)
        if table is None:
            table = self._tables[table_id] = self._load(table_id)
        return table

    def _load(self, table_id: str) -> Table:
        found = self._store.load_table(table_id)
        if found is None:
            raise unknown_table()
        try:
            return Table(*found)
        except ValueError:  # ConfigError, ActionError, RecordError
            log.exception("table %s cannot be rebuilt from storage", table_id)
            raise ApiError(503, "table_unavailable", "this table cannot be loaded") from None

    async def create(self, setup: GameSetup, lang: str, seats: Sequence[SeatSpec]) -> NewTable:
        """Store a new table with its first game; return it with its tokens."""
        creator, spectator = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        seat_tokens = {i: secrets.token_urlsafe(24) for i, s in enumerate(seats) if s.kind == HUMAN}
        records = tuple(
            SeatRecord(
                seat=i,
                kind=s.kind,
                name=s.name or bots.bot_name(s.level or "random", i),
                level=s.level if s.kind == BOT else None,
                token_hash=token_hash(seat_tokens[i]) if i in seat_tokens else None,
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
        )
        game = GameRecord(1, setup.seed, setup.actions, setup.start)
        table = Table(record, game)  # checks the game before it is stored
        await asyncio.wrap_future(
            self._store.create_table(record, setup.seed, setup.start, setup.actions)
        )
        self._tables[record.table_id] = table
        self._changed(table)
        return NewTable(table, creator, spectator, seat_tokens)

    # -- changes ---------------------------------------------------------------------------
    async def act(
        self,
        table: Table,
        identity: Identity,
        data: object,
        step: int | None = None,
        game_number: int | None = None,
    ) -> None:
        """Apply a human's action for the seat ``identity`` designates (every check first)."""
        if identity.role is not Role.SEAT or identity.seat is None:
            raise ApiError(403, "not_a_player", "only a seat's link can act")
        action = parse_action(data)
        await self._apply(table, identity.seat, action, step, game_number, by_bot=False)

    async def _apply(
        self,
        table: Table,
        seat: int,
        action: Action,
        step: int | None,
        game_number: int | None,
        by_bot: bool,
    ) -> None:
        async with table.lock:
            game = table.game
            if table.seats[seat].kind != (BOT if by_bot else HUMAN):
                if by_bot:
                    raise stale()
                raise ApiError(403, "seat_is_bot", "this seat is now played by a bot")
            if game_number is not None and game_number != table.game_number:
                raise stale()
            if game.is_over:
                raise ApiError(409, "game_over", "the game is over")
            if step is not None and step != len(game.history):
                raise stale()
            if game.current_player != seat:
                raise ApiError(403, "not_your_turn", "it is not your turn")
            if action not in game.legal_actions():
                raise ApiError(400, "illegal_action", "this action is not legal now")
            after = game.copy()
            after.apply(action, check=False)
            stored = self._store.append_action(
                table.id, table.game_number, len(game.history), action.to_json(), after.is_over
            )
            try:
                await asyncio.wrap_future(stored)
            except StoreConflict:
                log.error("table %s: action %d already stored", table.id, len(game.history))
                raise stale() from None
            table.game = after
        self._changed(table)

    async def hand_to_bot(self, table: Table, creator_token: str, seat: int, level: str) -> None:
        """The creator gives a human seat to a bot; its old link then only watches."""
        if table.identify(creator_token).role is not Role.CREATOR:
            raise ApiError(403, "not_creator", "only the table's creator can do this")
        if not 0 <= seat < len(table.seats):
            raise ApiError(404, "unknown_seat", "this table has no such seat")
        if not bots.level_available(level):
            raise ApiError(422, "unknown_level", "this bot level is not available")
        async with table.lock:
            if table.seats[seat].kind == BOT:
                raise ApiError(409, "already_bot", "this seat is already played by a bot")
            name = bots.bot_name(level, seat)
            record = replace(table.seats[seat], kind=BOT, level=level, name=name)
            await asyncio.wrap_future(self._store.set_seat(table.id, record))
            table.set_seat(record)
        self._changed(table)

    async def rematch(self, table: Table, token: str, game_number: int | None = None) -> None:
        """Start the next game at the table once the current one is over.

        With ``game_number`` older than the current game, the rematch already happened: nothing
        is done (two players asking at once both get the new game).
        """
        if table.identify(token).role is Role.SPECTATOR:
            raise ApiError(403, "not_a_player", "spectators cannot start a game")
        async with table.lock:
            if game_number is not None and game_number < table.game_number:
                return
            if not table.game.is_over:
                raise ApiError(409, "not_over", "the game is not over yet")
            seed = secrets.randbelow(SEED_BOUND)
            number = table.game_number + 1
            await asyncio.wrap_future(self._store.new_game(table.id, number, seed))
            table.new_game(number, seed)
        self._changed(table)

    def add_listener(self, table: Table, listener: Listener) -> None:
        if len(table.listeners) >= MAX_LISTENERS:
            raise ApiError(429, "too_many_connections", "this table has too many connections")
        if table.add_listener(listener):
            self._changed(table)

    def remove_listener(self, table: Table, listener: Listener) -> None:
        if table.remove_listener(listener):
            self._changed(table)

    def _changed(self, table: Table) -> None:
        for listener in list(table.listeners):
            listener.notify()
        self._poke_bot(table)

    # -- bots ------------------------------------------------------------------------------
    def _bot_to_move(self, table: Table) -> int | None:
        seat = table.game.current_player
        return seat if seat is not None and table.seats[seat].kind == BOT else None

    def _poke_bot(self, table: Table) -> None:
        """Start the table's bot task if a bot must decide and none is running."""
        task = self._bot_tasks.get(table.id)
        if (task is None or task.done()) and self._bot_to_move(table) is not None:
            self._bot_tasks[table.id] = spawn(self._play_bots(table), f"bots:{table.id}")

    async def _play_bots(self, table: Table) -> None:
        """Play bot decisions one after the other until a human must decide or the game ends."""
        while True:
            async with table.lock:
                seat = self._bot_to_move(table)
                if seat is None:
                    return
                game = table.game
                level = table.seats[seat].level or "random"
                step, number = len(game.history), table.game_number
                seed = bots.decision_seed(table.seed, seat, step)
                observation, legal = game.observe(seat), tuple(game.legal_actions())
            action = await self.bot_pool.think(level, seed, observation, legal, self._bot_delay)
            try:
                await self._apply(table, seat, action, step, number, by_bot=True)
            except ApiError as exc:
                moved_on = (len(table.game.history), table.game_number) != (step, number)
                log.info("table %s: bot move dropped (%s)", table.id, exc.code)
                if not moved_on:
                    return
