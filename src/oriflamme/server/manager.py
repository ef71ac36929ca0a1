"""The tables of this server: created, loaded, changed and kept up to date with storage.

The database is the authority and the tables in memory are copies (``tables.Table``). A change
is made under the table's lock against this server's copy, then stored; only once stored is the
copy changed and anyone told. Of two servers storing an action at the same step one wins; the
other reloads its copy and answers ``409 stale`` (or applies the action again on the new state,
when the client did not pin a step and the action is still legal). Every committed change is
announced by storage to every server, which brings its copy up to date and pushes the new views
to its own connections. Bot decisions are claimed and played by exactly one server
(``scheduler``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from oriflamme.api import Action, Game

from . import absence, handover, sources, thinking
from .announced import ALL, Announced
from .errors import ApiError, QuietLog, unknown_table
from .lobby import LOBBY_FOR
from .names import name_key
from .replay_links import new_replay_key
from .scheduler import BotScheduler
from .storage import (
    ACTION,
    GAME,
    PRESENCE,
    Change,
    GameRecord,
    QuotaReached,
    SeatCount,
    SeatRecord,
    Store,
    StoreConflict,
    TableRecord,
    Turn,
)
from .tables import (
    BOT,
    HUMAN,
    OPEN,
    SEED_BOUND,
    GameSetup,
    Identity,
    Listener,
    NewTable,
    Role,
    SeatSpec,
    Table,
    TableOptions,
    parse_action,
    stale,
    token_hash,
)
from .tasks import spawn

log = logging.getLogger("oriflamme.server")
quiet = QuietLog(log)

#: Who makes a decision: a human, a bot seat, or the stand-in of a late or absent human.
STAND_IN = "stand-in"

#: Connections one seat may have open at once on one server (tabs, devices): a seat's own
#: allowance, which no spectator can use up.
MAX_SEAT_CONNECTIONS = 8
#: Connections the spectators of a table (the spectator link, the creator's, and links of seats
#: handed to bots) share on one server.
MAX_SPECTATORS = 32
#: Seconds between this server's heartbeats (shared storage: its connections count while alive).
HEARTBEAT = 5.0
#: Seconds without a heartbeat after which a server's connections no longer count.
ALIVE = 20.0


@dataclass(frozen=True, slots=True)
class Quotas:
    """What one network address may do (0: no limit)."""

    #: Tables it may create in an hour.
    tables_per_hour: int = 120
    #: Unfinished tables where no human plays (every seat a bot) it may have at once.
    bot_tables: int = 4
    #: Public tables it may have in the lobby at once (waiting for players).
    public_tables: int = 3
    #: Post-game analyses it may have waiting for their turn or under way at once.
    queued_analyses: int = 3

#: Seconds a table no connection follows stays in memory after its last use.
EVICT_AFTER = 600.0
#: Seconds without a change after which a table is deleted (30 days), and how often one server
#: looks for such tables.
ABANDONED_AFTER, EXPIRY_EVERY = 30 * 86400.0, 3600.0
#: Seconds between looks for tables to let go from memory.
JANITOR_EVERY = 60.0
#: Seconds during which connection changes are gathered into one presence write.
PRESENCE_BATCH = 0.1
#: Times an action is tried again on a newer state when another server stored one first.
RETRIES = 3
#: Seconds between reloads of a table to look for a token it does not know (a seat joined
#: through another server), whatever the number of unknown tokens tried.
TOKEN_REFRESH = 1.0


class TableManager:
    """Every table this server holds: creates, loads, changes them and keeps them up to date."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.8,
        server_id: str | None = None,
        quotas: Quotas | None = None,
    ) -> None:
        self._store = store
        self.quotas = quotas or Quotas()
        self.server_id = server_id or secrets.token_hex(8)
        self._tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table]] = {}
        #: What was announced of the tables being loaded (their copy may predate it).
        self._announced: dict[str, Announced] = {}
        self._stale: dict[str, Announced] = {}  #: tables to bring up to date
        self._background: list[asyncio.Task[Any]] = []
        self._unpublished: dict[tuple[str, int], Table] = {}  #: presence not yet stored
        self._publishing: asyncio.Task[None] | None = None
        self.bot_pool = thinking.BotPool()
        self.scheduler = BotScheduler(self, store, self.bot_pool, self.server_id, bot_delay)

    @property
    def store(self) -> Store:
        return self._store

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen for other servers' changes and start playing the bots' decisions."""
        # One server per SQLite file: the connections stored by its earlier runs are gone.
        beat = await self._store.heartbeat(self.server_id, ALIVE if self._store.shared else 0.0)
        if self._store.shared:
            self._background.append(spawn(self._beat(), "heartbeat"))
        self._background.append(
            spawn(self._store.listen(self._on_change, self._on_reset), "listen")
        )
        self._background.append(spawn(self.scheduler.run(), "bot-scheduler"))
        self._background.append(spawn(self._janitor(), "janitor"))
        await self._forget(beat.forgotten)  # before any table is loaded

    async def _forget(self, seats: Sequence[tuple[str, int]]) -> None:
        """These seats' connections were on a server that died or stopped: those without a
        connection elsewhere are away from now on (a seat whose player never connected, or
        connected only elsewhere, is not)."""
        by_table: dict[str, list[int]] = {}
        for table_id, seat in seats:
            by_table.setdefault(table_id, []).append(seat)
        for table_id, numbers in by_table.items():
            await self._store.seat_away(table_id, numbers, ALIVE)

    async def stop(self) -> None:
        for task in self._background:
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        await self.scheduler.stop()
        await self.bot_pool.close()

    async def _beat(self) -> None:
        """Say that this server is alive. After a gap (the database away, or this process
        paused: a VM pause, swapping) the others may have forgotten its connections, or read
        them as gone: publish them again."""
        missed = False
        last = time.monotonic()  # of the last beat that reached the database
        forgotten: list[tuple[str, int]] = []  # seats not marked away yet
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                beat = await self._store.heartbeat(self.server_id, ALIVE)
                forgotten += beat.forgotten
                await self._forget(forgotten)
                forgotten = []
            except Exception as exc:  # the database is away: beat again later
                if not missed:
                    log.warning("heartbeat failed (%s)", type(exc).__name__)
                missed = True
                continue
            now = time.monotonic()
            if missed or not beat.kept or now - last >= ALIVE - HEARTBEAT:
                log.info("publishing this server's connections again (last beat %.0f s ago)",
                         now - last)
                self._republish()
            missed, last = False, now

    def _republish(self) -> None:
        for table in list(self._tables.values()):
            for seat in range(len(table.seats)):
                if table.open_here(seat):
                    self._presence(table, seat)

    async def _janitor(self) -> None:
        """Let idle tables go from memory; delete abandoned ones (one server at a time)."""
        last_expiry = -EXPIRY_EVERY
        while True:
            await asyncio.sleep(JANITOR_EVERY)
            self.evict_idle()
            if time.monotonic() - last_expiry < EXPIRY_EVERY:
                continue
            try:
                if await self._store.claim_job("expire", self.server_id, EXPIRY_EVERY * 0.9):
                    last_expiry = time.monotonic()
                    await self.expire_abandoned()
            except Exception as exc:  # the database is away: next round
                log.warning("clean-up postponed (%s)", type(exc).__name__)

    def evict_idle(self, older: float = EVICT_AFTER) -> list[str]:
        """Let go the tables no connection follows and nobody used for ``older`` seconds (they
        are loaded again from storage when needed); return their ids."""
        now = time.monotonic()
        gone = [
            table_id
            for table_id, table in self._tables.items()
            if not table.listeners
            and not table.lock.locked()
            and table_id not in self._stale
            and now - table.touched >= older
            and not self.scheduler.playing(table_id)
        ]
        for table_id in gone:
            del self._tables[table_id]
        return gone

    async def expire_abandoned(self, after: float = ABANDONED_AFTER) -> list[str]:
        """Delete the tables nothing changed for ``after`` seconds by the database's clock (from
        storage and memory): a server whose own clock is wrong deletes no live table."""
        deleted: list[str] = []
        while batch := await self._store.delete_abandoned(after, 500):
            deleted += batch
            for table_id in batch:
                self._tables.pop(table_id, None)
        if deleted:
            log.info("deleted %d tables abandoned for %d days", len(deleted), after // 86400)
        return deleted

    # -- loading and refreshing ------------------------------------------------------------
    def cached(self, table_id: str) -> Table | None:
        """The table if this server holds it now (nothing is loaded)."""
        return self._tables.get(table_id)

    async def get(self, table_id: str) -> Table:
        """The table (loaded from storage on first use, refreshed if suspect); 404 if none."""
        table = self._tables.get(table_id)
        if table is not None:
            table.touched = time.monotonic()
            if table.suspect:
                await self.refresh(table)
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.get_running_loop().create_future()
            self._announced[table_id] = Announced()
            try:
                table = await self._load_current(table_id)
                self._tables[table_id] = table  # from now on, announcements reach it
                loading.set_result(table)
            except BaseException as exc:
                loading.set_exception(exc)
                loading.exception()  # retrieved: nobody else may be waiting
                raise
            finally:
                del self._loading[table_id]
                del self._announced[table_id]
            if self._store.shared:
                table.set_elsewhere(frozenset(await self._store.present_seats(table_id, ALIVE)))
            self.scheduler.offer(table)
            return table
        return await asyncio.shield(loading)

    async def _load_current(self, table_id: str) -> Table:
        """Load the table, and read it again for as long as a change announced meanwhile may
        be missing from the copy: a copy is never older than a change this server was told
        of (the announcement found no table here to bring up to date)."""
        table = await self._load(table_id)
        while not self._announced[table_id].known_by(table):
            self._announced[table_id] = Announced()
            log.debug("table %s changed while it was loaded: reading it again", table_id)
            await self._reload_locked(table)  # nobody else holds this copy yet
        return table

    async def _load(self, table_id: str) -> Table:
        found = await self._store.load_table(table_id)
        if found is None:
            raise unknown_table()
        try:
            return Table(*found)
        except ValueError:  # ConfigError, ActionError, RecordError
            log.exception("table %s cannot be rebuilt from storage", table_id)
            raise ApiError(503, "table_unavailable", "this table cannot be loaded") from None

    async def refresh(self, table: Table) -> None:
        """Bring the table up to storage and tell its connections if it changed."""
        async with table.lock:
            changed = await self._reload_locked(table)
        if changed:
            self._changed(table)

    async def _reload_locked(self, table: Table) -> bool:
        found = await self._store.load_table(table.id)
        if found is None:
            return False
        table.suspect = False
        try:
            return table.load(*found)
        except ValueError:
            log.exception("table %s cannot be rebuilt from storage", table.id)
            raise ApiError(503, "table_unavailable", "this table cannot be loaded") from None

    def _on_change(self, change: Change) -> None:
        """Storage announced a committed change (by any server, this one included)."""
        table = self._tables.get(change.table_id)
        if table is None:
            announced = self._announced.get(change.table_id)
            if announced is not None:  # being loaded, perhaps from before this change
                announced.note(change)
            return  # not held here: it will be loaded fresh when needed
        if change.kind in (ACTION, GAME) and (change.game, change.step) <= (
            table.game_number,
            len(table.game.history),
        ):
            return  # already known (this server's own write)
        if (
            change.kind == ACTION
            and change.action is not None
            and (change.game, change.step - 1) == (table.game_number, len(table.game.history))
            and not table.lock.locked()
            and table.id not in self._stale
        ):
            # The usual case: the very next action of this game, nobody changing the table here.
            try:
                table.extend([json.loads(change.action)], [change.source])
            except ValueError:
                log.warning("table %s: an announced action does not apply", table.id)
            else:
                self._changed(table, offer=False)
                return
        stale = self._stale.get(table.id)
        if stale is None:
            stale = self._stale[table.id] = Announced()
            spawn(self._catch_up(table), f"catch-up:{table.id}")
        stale.note(change)

    def _on_reset(self) -> None:
        """Listening (re)started: any table may have changed meanwhile."""
        for announced in self._announced.values():
            announced.kinds.add(ALL)  # being loaded: read it again once loaded
        for table in self._tables.values():
            table.suspect = True
            if table.listeners:
                spawn(self.refresh(table), f"refresh:{table.id}")

    async def _catch_up(self, table: Table) -> None:
        """Apply the announced changes of ``table`` until none is left (a change announced
        meanwhile is recorded in ``_stale`` and done by this same task)."""
        while (stale := self._stale.get(table.id)) and stale.kinds:
            kinds, upto = stale.kinds, stale.upto
            stale.kinds = set()
            try:
                changed = False
                if PRESENCE in kinds:
                    seats = await self._store.present_seats(table.id, ALIVE)
                    changed = table.set_elsewhere(frozenset(seats))
                if kinds - {PRESENCE}:
                    async with table.lock:
                        known = (table.game_number, len(table.game.history)) >= upto
                        if kinds == {ACTION} and known:
                            pass  # this server's own action, announced before it was kept
                        elif ALL in kinds:
                            changed = await self._reload_locked(table) or changed
                        else:
                            done = len(table.game.history)
                            actions = await self._store.load_actions(
                                table.id, table.game_number, done
                            )
                            played_by = await self._store.load_sources(
                                table.id, table.game_number, done
                            )
                            changed = table.extend(actions, played_by) or changed
                if changed:
                    self._changed(table, offer=False)
            except Exception as exc:
                quiet.warning("catch-up", "table %s: cannot catch up (%r); reloading later",
                              table.id, exc)
                table.suspect = True
        self._stale.pop(table.id, None)

    async def identify(self, table: Table, token: str) -> Identity:
        """Who ``token`` designates at ``table``; if nobody, the table is read again from
        storage first (a seat just joined through another server), at most once a second."""
        try:
            return table.identify(token)
        except ApiError:
            now = time.monotonic()
            if now - table.token_refreshed < TOKEN_REFRESH:
                raise
            table.token_refreshed = now
            await self.refresh(table)
            return table.identify(token)

    # -- creating --------------------------------------------------------------------------
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
        await self._check_quota(origin)
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
        self._tables[record.table_id] = table
        self._changed(table)
        return NewTable(table, creator, spectator, seat_tokens)

    async def _check_quota(self, origin: str, code: str = "too_many_tables") -> None:
        """429 if ``origin`` created or joined its quota of tables in the last hour."""
        quota = self.quotas.tables_per_hour
        if origin and quota:
            created, _ = await self._store.origin_counts(origin, 3600.0)
            if created >= quota:
                raise ApiError(
                    429,
                    code,
                    f"at most {quota} tables created or joined an hour from one address:"
                    " wait a while",
                )

    # -- open seats ------------------------------------------------------------------------
    async def join(
        self, table: Table, name: str, seat: int | None, origin: str = ""
    ) -> tuple[int, str]:
        """Take an open seat (``seat``, or the first open one) for a player named ``name``
        from the address digest ``origin`` (held to the quota of tables an hour); return the
        seat and its private token (given once). 409 ``seat_taken`` if it is no longer open:
        of two joins for one seat, on any servers, exactly one gets it."""
        if seat is not None and not 0 <= seat < len(table.seats):
            raise ApiError(404, "unknown_seat", "this table has no such seat")
        if table.closed:
            raise ApiError(409, "table_closed", "this table was closed by its creator")
        if seat is not None and table.seats[seat].kind != OPEN:
            raise ApiError(409, "seat_taken", "this seat is not open")
        if not table.open_seats():
            raise ApiError(409, "seat_taken", "this table has no open seat")
        await self._check_quota(origin, "too_many_joins")
        token = secrets.token_urlsafe(24)
        record = SeatRecord(-1 if seat is None else seat, HUMAN, name, None, token_hash(token))
        async with table.lock:
            taken = await self._store.fill_seat(table.id, record, origin)
            await self._reload_locked(table)
        self._changed(table)
        if taken is None:
            key = name_key(name)
            if any(name_key(s.name) == key for s in table.seats if s.kind != OPEN):
                raise ApiError(
                    409, "name_taken", "someone at this table has this name: choose another"
                )
            raise ApiError(409, "seat_taken", "someone else took this seat first")
        return taken, token

    async def close(self, table: Table, creator_token: str) -> None:
        """The creator closes a table whose seats are not all taken: it leaves the lobby and
        nobody plays at it."""
        if (await self.identify(table, creator_token)).role is not Role.CREATOR:
            raise ApiError(403, "not_creator", "only the table's creator can do this")
        async with table.lock:
            closed = await self._store.close_table(table.id)
            await self._reload_locked(table)
        if not closed and not table.closed:
            raise ApiError(409, "already_started", "every seat is taken: the game is under way")
        self._changed(table)

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
        await self._apply(table, identity.seat, action, step, game_number, by=HUMAN)
        record = table.seats[identity.seat]
        if record.away_since is not None or record.arrived is None:
            spawn(self._here(table, identity.seat), f"back:{table.id}")  # acting: here

    async def apply_bot(
        self,
        table: Table,
        seat: int,
        action: Action,
        step: int,
        game_number: int,
        stand_in: bool = False,
    ) -> None:
        """Apply a bot's decision made at ``step`` of game ``game_number`` (with ``stand_in``:
        for the human at ``seat``, whose deadline passed)."""
        await self._apply(table, seat, action, step, game_number, by=STAND_IN if stand_in else BOT)

    async def _apply(
        self,
        table: Table,
        seat: int,
        action: Action,
        step: int | None,
        game_number: int | None,
        by: str,
    ) -> None:
        async with table.lock:
            if (step is not None and step > len(table.game.history)) or (
                game_number is not None and game_number > table.game_number
            ):
                await self._reload_locked(table)  # the client saw what this server has not yet
            for attempt in range(RETRIES + 1):
                self._check(table, seat, action, step, game_number, by)
                after = table.game.copy()
                after.apply(action, check=False)
                source = _source(table, seat, by)
                try:
                    await asyncio.shield(self._store_action(table, action, after, source))
                except StoreConflict:
                    # Another server stored an action at this step first: catch up, then the
                    # checks decide (a pinned step is stale; an unpinned action may still fit).
                    log.info("table %s: step %d taken elsewhere", table.id, len(after.history) - 1)
                    await self._reload_locked(table)
                    if step is not None or attempt == RETRIES:
                        self._changed(table)
                        raise stale() from None
                    continue
                break
        self._changed(table)

    async def _store_action(self, table: Table, action: Action, after: Game, source: str) -> None:
        """Store the action that leads ``table`` to ``after``, played by ``source``, then take
        ``after`` as the table's game: both, even if the request that asked for it is
        cancelled meanwhile."""
        step = len(table.game.history)
        stand_in = sources.parse(source)[0] == sources.STAND_IN
        await self._store.append_action(
            table.id, table.game_number, step, action.to_json(), table.turn(after), stand_in,
            source=source,
        )
        if len(table.game.history) == step:
            table.moved(after, source)

    @staticmethod
    def _check(
        table: Table,
        seat: int,
        action: Action,
        step: int | None,
        game_number: int | None,
        by: str,
    ) -> None:
        game = table.game
        if table.seats[seat].kind != (BOT if by == BOT else HUMAN):
            if by != HUMAN:
                raise stale()
            raise ApiError(403, "seat_is_bot", "this seat is now played by a bot")
        if table.closed:
            raise ApiError(409, "table_closed", "this table was closed by its creator")
        if table.waiting():
            raise ApiError(409, "waiting_for_players", "the game starts when every seat is taken")
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

    async def hand_to_bot(
        self, table: Table, creator_token: str, seat: int, level: str, expect: str
    ) -> None:
        """The creator gives a seat to a bot: an open one (``expect`` "open") or a human nobody
        is connected to ("away"; see :mod:`.handover`). The old link of a human seat then only
        watches."""
        if (await self.identify(table, creator_token)).role is not Role.CREATOR:
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
            await self._check_bot_tables(table, seats)
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
            await self._reload_locked(table)
        self._changed(table)
        if not done:  # another request, or another server, changed the seat first
            raise handover.refusal(table, seat, expect, time.time()) or ApiError(
                409, "seat_active", "this player is back: the seat stays theirs"
            )

    async def _check_bot_tables(self, table: Table, seats: Sequence[SeatRecord]) -> None:
        """429 if these seats would make one more table where only bots play, from an address
        that has its quota of them."""
        limit = self.quotas.bot_tables
        if limit and table.origin and table.self_playing(seats) and not table.game.is_over:
            _, playing = await self._store.origin_counts(table.origin, 0.0)
            if playing >= limit:
                raise ApiError(
                    429,
                    "too_many_bot_tables",
                    f"at most {limit} tables where only bots play, per address",
                )

    async def rematch(self, table: Table, token: str, game_number: int | None = None) -> None:
        """Start the next game at the table once the current one is over.

        With ``game_number`` older than the current game, the rematch already happened: nothing
        is done (two players asking at once, on any servers, both get the new game).
        """
        identity = await self.identify(table, token)
        if identity.role is Role.SPECTATOR or (
            identity.role is Role.SEAT and table.view_seat(identity) is None
        ):  # a seat handed to a bot: its old link only watches, like a spectator's
            raise ApiError(403, "not_a_player", "spectators cannot start a game")
        async with table.lock:
            if game_number is not None and game_number >= table.game_number:
                await self._reload_locked(table)
            if game_number is not None and game_number < table.game_number:
                return
            if not table.game.is_over:
                raise ApiError(409, "not_over", "the game is not over yet")
            seed = secrets.randbelow(SEED_BOUND)
            number = table.game_number + 1
            game = Game.new(table.config, seed)
            try:
                await self._store.new_game(table.id, number, seed, table.turn(game))
            except StoreConflict:  # another server started it first: take theirs
                await self._reload_locked(table)
            else:
                table.new_game(number, seed, game)
        self._changed(table)

    # -- connections -----------------------------------------------------------------------
    def add_listener(self, table: Table, listener: Listener) -> None:
        viewer = table.view_seat(listener.identity)
        if viewer is None and table.spectators() >= MAX_SPECTATORS:
            raise ApiError(429, "too_many_connections", "this table has too many spectators")
        if viewer is not None and table.open_here(viewer) >= MAX_SEAT_CONNECTIONS:
            raise ApiError(429, "too_many_connections", "this seat has too many connections")
        seat = table.add_listener(listener)
        if seat is not None:
            if table.seats[seat].arrived is None:
                # The player came: at once, not with the next presence batch (a visit shorter
                # than a batch counts too).
                spawn(self._here(table, seat), f"arrived:{table.id}")
            self._presence(table, seat)
            self._changed(table)
        else:  # the first connection may be a spectator's: it too is told when a seat is away
            self._watch_absence(table)

    def remove_listener(self, table: Table, listener: Listener) -> None:
        seat = table.remove_listener(listener)
        if seat is not None:
            self._presence(table, seat)
            self._changed(table)

    def _presence(self, table: Table, seat: int) -> None:
        """Store how many connections a seat has here (for the other servers, and for this one
        after a restart: only seats connected then become away): soon,
        together with the other seats whose connections changed meanwhile (one write); then
        mark the seat away, or back."""
        self._unpublished[(table.id, seat)] = table
        if self._publishing is None or self._publishing.done():
            self._publishing = spawn(self._publish_presence(), "presence")

    async def _away_or_back(self, table: Table, seat: int) -> None:
        """After a seat's connections here changed (and were published): if none is left
        anywhere, it is away from now on; if one opened, it is back."""
        try:
            if table.open_here(seat) > 0:
                await self._back(table, seat)
            elif table.seats[seat].kind == HUMAN:
                changed = await self._store.seat_away(table.id, [seat], ALIVE)
                if changed and not self._store.shared:
                    await self.refresh(table)  # no announcement to learn it from
        except Exception as exc:
            quiet.warning("away", "table %s: seat %d not marked away or back (%r)", table.id,
                          seat, exc)

    async def _here(self, table: Table, seat: int) -> None:
        """The seat's player is here (connected, or acting): back if away, come if never."""
        try:
            await self._back(table, seat)
        except Exception as exc:  # the database is away: presence will say it again
            log.warning("table %s: seat %d not marked here (%r)", table.id, seat, exc)

    async def _back(self, table: Table, seat: int) -> None:
        if await self._store.seat_back(table.id, seat) and not self._store.shared:
            await self.refresh(table)

    async def _publish_presence(self) -> None:
        """Store the connections of the seats that changed, trying again while the database
        is away."""
        pause = PRESENCE_BATCH
        while self._unpublished:
            await asyncio.sleep(pause)
            batch, self._unpublished = self._unpublished, {}
            counts = [
                SeatCount(table_id, seat, table.open_here(seat))
                for (table_id, seat), table in batch.items()
            ]
            try:
                await self._store.set_presence(self.server_id, counts)
                pause = PRESENCE_BATCH
                for (table_id, seat), table in batch.items():
                    spawn(self._away_or_back(table, seat), f"away:{table_id}")
            except Exception as exc:
                quiet.warning("presence", "presence not stored yet (%s)", type(exc).__name__)
                self._unpublished = batch | self._unpublished
                pause = min(max(pause * 2, 0.5), HEARTBEAT)

    def _changed(self, table: Table, offer: bool = True) -> None:
        """Tell the table's connections here; with ``offer``, let this server play the bot
        decision that may follow (a change made elsewhere is left to the server that made it,
        or to whichever server's scan finds it first)."""
        table.touched = time.monotonic()
        for listener in list(table.listeners):
            listener.notify()
        if offer:
            self.scheduler.offer(table)
        self._watch_absence(table)

    def _watch_absence(self, table: Table) -> None:
        """Views show a seat as away (or a no-show) once it reached the table's limit, and
        whether it may be handed to a bot (``absence``): tell the connections at that moment
        (nothing else changes then)."""
        if not table.listeners:
            return
        now = time.time()
        moment = absence.next_change(table, now)
        if moment is None or (table.absence_timer is not None and table.absence_due <= moment):
            return
        if table.absence_timer is not None:
            table.absence_timer.cancel()  # a sooner moment came up (a seat just left)

        def fire() -> None:
            table.absence_timer = None
            table.version += 1
            self._changed(table, offer=False)

        table.absence_due = moment
        table.absence_timer = asyncio.get_running_loop().call_later(moment - now + 0.05, fire)


def _source(table: Table, seat: int, by: str) -> str:
    """Who plays ``seat``'s action (``sources``): its human, its bot, or the stand-in (why)."""
    if by == HUMAN:
        return sources.PLAYER
    if by == BOT:
        return sources.BOT
    return sources.stand_in(sources.stand_in_reason(table, seat, time.time()))
