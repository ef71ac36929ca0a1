"""The PostgreSQL :class:`~.base.Store` (asyncpg): one database shared by any number of servers.

Every write is one transaction; it is acknowledged once committed. The primary key of an action,
``(table_id, game, idx)``, is where concurrent servers are ordered: of two servers that store an
action at the same index of a game, one commits and the other gets :class:`StoreConflict`.
Each write also sends a notification on the channel :data:`CHANNEL` (``pg_notify`` in the same
transaction, so it is delivered only if and when the write commits): the other servers learn that
a table changed and refresh their copy (``listen``).

The schema is created on first start and migrated from older versions under an advisory lock (two
servers starting at once do it once); a database with a newer schema than this server knows is
refused before anything is written (:mod:`.postgres_schema`). The SQL shared by several methods
is in :mod:`.postgres_sql`, reaching the database in :mod:`.postgres_connect`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import asyncpg

from ..errors import QuietLog
from ..names import name_key
from .analysis_sql import CLAIM_ORDER, queued_before
from .base import (
    ACTION,
    DONE,
    FAILED,
    GAME,
    NO_FILTER,
    PRESENCE,
    QUEUED,
    RUNNING,
    SEATS,
    AnalysisRecord,
    BotTurn,
    Change,
    GameRecord,
    HandOverGrace,
    Heartbeat,
    LobbyEntry,
    LobbyFilter,
    LobbyPlace,
    QuotaReached,
    SeatCount,
    SeatRecord,
    StoreConflict,
    StoreError,
    StoreUnavailable,
    TableRecord,
    Turn,
)
from .lobby_sql import listed_count_query, lobby_query
from .postgres_connect import (
    LISTEN_ERRORS,
    Acquire,
    Unreachable,
    keep_session,
    receiver,
    setter,
)
from .postgres_connect import redacted as redacted  # re-exported (messages, the CLI)
from .postgres_schema import SCHEMA_VERSION as SCHEMA_VERSION  # re-exported
from .postgres_schema import migrate
from .postgres_sql import (
    ANALYSIS_COLUMNS,
    AWAY_DEADLINE,
    BACK_DEADLINE,
    HAND_OVER,
    NOW,
    SEAT_COLUMNS,
    START_IF_FULL,
    Guard,
    Statement,
    action_insert,
    analysis_from_row,
    seat_insert,
    turn_update,
)

log = logging.getLogger("oriflamme.server")
quiet = QuietLog(log)

#: The notification channel of table changes (payload: the table id).
CHANNEL = "oriflamme_tables"
#: ``application_name`` of the servers' connections (visible in ``pg_stat_activity``).
APPLICATION_NAME, LISTENER_NAME = "oriflamme", "oriflamme-listen"
#: Seconds a query may take before the database counts as unreachable.
COMMAND_TIMEOUT = 10.0
CONNECT_TIMEOUT = 5.0
#: Seconds between checks that the listening connection still works.
LISTEN_CHECK = 5.0
#: Pauses (seconds) between attempts to listen again while the database is away.
RECONNECT_MIN, RECONNECT_MAX = 0.2, 5.0


class PostgresStore:
    """:class:`~.base.Store` over a PostgreSQL database (a pool of asyncpg connections).

    Open it with :meth:`open` inside the event loop that will use it.
    """

    shared = True

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        self._listener: asyncpg.Connection | None = None
        self._listen_task: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, *, max_size: int = 10) -> PostgresStore:
        """Connect, create or migrate the schema; :class:`StoreError` with a clear message if
        the database cannot be reached, refuses the login, or has a newer schema."""
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=0,  # no floor to restore in the background while the database is away
                max_size=max_size,
                command_timeout=COMMAND_TIMEOUT,
                timeout=CONNECT_TIMEOUT,
                server_settings={"application_name": APPLICATION_NAME},
                reset=keep_session,
            )
            store = cls(pool, url)
        except (asyncpg.PostgresError, ValueError) as exc:  # a malformed address
            raise StoreError(f"cannot open the database {redacted(url)}: {exc}") from None
        try:
            await store._migrate()  # the first connection
        except Unreachable as exc:
            await pool.close()
            raise StoreUnavailable(
                f"cannot reach the database {redacted(url)} ({exc.reason})"
            ) from None
        except (asyncpg.PostgresError, ValueError) as exc:  # bad login, no such database
            await pool.close()
            raise StoreError(f"cannot open the database {redacted(url)}: {exc}") from None
        except BaseException:
            await pool.close()
            raise
        return store

    async def _migrate(self) -> None:
        async with self.connection() as db, db.transaction():
            await migrate(db)

    def describe(self) -> str:
        return f"PostgreSQL database {redacted(self.url)}"

    def connection(self) -> Any:
        """A pooled connection (``async with``); a broken database is :class:`StoreUnavailable`."""
        return Acquire(self._pool)

    # -- writing ---------------------------------------------------------------------------
    async def _write(
        self,
        change: Change,
        statements: Sequence[Statement],
        guard: Guard | None = None,
    ) -> None:
        """Run ``statements`` in one transaction that also announces ``change`` (delivered to
        the listeners only if the transaction commits); with a ``guard``, only if it allows."""
        try:
            async with self.connection() as db, db.transaction():
                if guard is not None:
                    await guard.check(db)
                for sql, params in statements:
                    await db.execute(sql, *params)
                await db.execute("SELECT pg_notify($1, $2)", CHANNEL, change.encode())
        except asyncpg.exceptions.UniqueViolationError as exc:
            raise StoreConflict(str(exc)) from None
        except asyncpg.exceptions.ForeignKeyViolationError as exc:
            raise StoreConflict(str(exc)) from None

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
        guard = None
        if listed_quota is not None and table.public:
            limit, within = listed_quota
            sql, params = listed_count_query(True, table.origin, within)
            refusal = QuotaReached(f"{limit} tables of this address are in the lobby")
            guard = Guard(f"lobby:{table.origin}", sql, params, limit, refusal)
        statements: list[Statement] = [
            (
                "INSERT INTO tables (id, config, lang, creator_hash, spectator_hash, created,"
                " origin, public, listed, clock, absent_after, stand_in, hints, no_show_after,"
                f" replay_key) VALUES ($1, $2, $3, $4, $5, {NOW}, $6, $7,"
                f" CASE WHEN $7 THEN {NOW} END, $8, $9, $10, $11, $12, $13)",
                (
                    table.table_id,
                    json.dumps(table.config),
                    table.lang,
                    table.creator_hash,
                    table.spectator_hash,
                    table.origin,
                    table.public,
                    table.clock,
                    table.absent_after,
                    table.stand_in,
                    table.hints,
                    table.no_show_after,
                    table.replay_key,
                ),
            ),
            (
                "INSERT INTO games (table_id, number, seed, start, custom_deal)"
                " VALUES ($1, 1, $2, $3, $4)",
                (table.table_id, seed, None if start is None else json.dumps(start), custom_deal),
            ),
        ]
        statements += [seat_insert(table.table_id, seat) for seat in table.seats]
        statements += [action_insert(table.table_id, 1, i, a) for i, a in enumerate(actions)]
        statements.append(turn_update(table.table_id, 1, turn))
        await self._write(Change(table.table_id, GAME, 1, turn.step), statements, guard)

    async def append_action(
        self,
        table_id: str,
        game: int,
        index: int,
        action: Mapping[str, Any],
        turn: Turn,
        stand_in: bool = False,
    ) -> None:
        # One statement, so one round trip: the action, the turn it leads to, the announcement.
        text = json.dumps(action, separators=(",", ":"))
        change = Change(table_id, ACTION, game, index + 1, text)
        if stand_in:  # only while the human's deadline has passed (they did not come back)
            insert = (
                "INSERT INTO actions (table_id, game, idx, action)"
                " SELECT $1::text, $2::int, $3::int, $4::text WHERE EXISTS (SELECT 1 FROM games"
                f" WHERE table_id = $1 AND number = $2 AND turn_step = $3"
                f" AND turn_deadline <= {NOW})"
            )
        else:
            insert = "INSERT INTO actions (table_id, game, idx, action) VALUES ($1, $2, $3, $4)"
        update, params = turn_update(table_id, game, turn, first=7)
        try:
            async with self.connection() as db:
                found = await db.fetchrow(
                    f"WITH added AS ({insert} RETURNING 1),"
                    f" turned AS ({update} AND EXISTS (SELECT 1 FROM added) RETURNING 1)"
                    " SELECT pg_notify($5, $6) FROM turned",
                    table_id,
                    game,
                    index,
                    text,
                    CHANNEL,
                    change.encode(),
                    *params,
                )
        except asyncpg.exceptions.UniqueViolationError as exc:
            raise StoreConflict(str(exc)) from None
        except asyncpg.exceptions.ForeignKeyViolationError as exc:
            raise StoreConflict(str(exc)) from None
        if found is None:
            raise StoreConflict("the stand-in's deadline has not passed")

    async def new_game(self, table_id: str, game: int, seed: int, turn: Turn) -> None:
        await self._write(
            Change(table_id, GAME, game, turn.step),
            [
                (
                    "INSERT INTO games (table_id, number, seed) VALUES ($1, $2, $3)",
                    (table_id, game, seed),
                ),
                turn_update(table_id, game, turn),
            ],
        )

    async def hand_over(
        self, table_id: str, seat: SeatRecord, turn: Turn, grace: HandOverGrace, alive: float
    ) -> bool:
        async with self.connection() as db, db.transaction():
            # One seat change of a table at a time (a join may be filling the last open seat).
            await db.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", table_id)
            found = await db.fetchval(
                HAND_OVER,
                table_id,
                seat.seat,
                seat.kind,
                seat.name,
                seat.level,
                name_key(seat.name),
                alive,
                grace.absent,
                grace.no_show,
            )
            if found is None:
                return False
            sql, params = turn_update(table_id, None, turn)
            await db.execute(sql, *params)
            change = Change(table_id, SEATS, 0, turn.step)
            await db.execute("SELECT pg_notify($1, $2)", CHANNEL, change.encode())
        return True

    async def set_turn(self, table_id: str, game: int, turn: Turn) -> bool:
        sql, params = turn_update(table_id, game, turn)
        n = len(params)
        async with self.connection() as db, db.transaction():
            found = await db.fetchval(
                sql + f" AND (SELECT count(*) FROM actions WHERE table_id = ${n + 1}"
                f" AND game = ${n + 2}) = ${n + 3} RETURNING 1",
                *params,
                table_id,
                game,
                turn.step,
            )
            if found is not None:
                change = Change(table_id, SEATS, game, turn.step)
                await db.execute("SELECT pg_notify($1, $2)", CHANNEL, change.encode())
        return found is not None

    # -- open seats and absent players ------------------------------------------------------
    async def fill_seat(self, table_id: str, seat: SeatRecord, origin: str = "") -> int | None:
        which = "$8" if seat.seat >= 0 else (
            "(SELECT MIN(seat) FROM seats WHERE table_id = $1 AND kind = 'open')"
        )
        async with self.connection() as db, db.transaction():
            # One seat change of a table at a time: whoever fills the last open seat sees it.
            await db.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", table_id)
            taken = await db.fetchval(
                "UPDATE seats SET kind = $2, name = $3, level = $4, token_hash = $5, origin = $6,"
                f" joined = {NOW}, away_since = NULL, arrived = NULL, name_key = $7"
                f" WHERE table_id = $1 AND seat = {which} AND kind = 'open' AND NOT EXISTS"
                " (SELECT 1 FROM seats o WHERE o.table_id = $1 AND o.seat <> seats.seat"
                " AND o.name_key = $7) RETURNING seat",
                table_id,
                seat.kind,
                seat.name,
                seat.level,
                seat.token_hash,
                origin,
                name_key(seat.name),
                *((seat.seat,) if seat.seat >= 0 else ()),
            )
            if taken is None:
                return None
            await db.execute(f"UPDATE tables SET listed = {NOW} WHERE id = $1 AND public", table_id)
            await db.execute(START_IF_FULL, table_id)
            change = Change(table_id, SEATS, 0, 0)
            await db.execute("SELECT pg_notify($1, $2)", CHANNEL, change.encode())
        return int(taken)

    async def close_table(self, table_id: str) -> bool:
        async with self.connection() as db, db.transaction():
            found = await db.fetchval(
                "UPDATE tables SET closed = TRUE WHERE id = $1 AND NOT closed AND EXISTS"
                " (SELECT 1 FROM seats WHERE table_id = $1 AND kind = 'open') RETURNING 1",
                table_id,
            )
            if found is not None:
                change = Change(table_id, SEATS, 0, 0)
                await db.execute("SELECT pg_notify($1, $2)", CHANNEL, change.encode())
        return found is not None

    async def lobby(
        self,
        within: float,
        limit: int,
        only: LobbyFilter = NO_FILTER,
        after: LobbyPlace | None = None,
    ) -> list[LobbyEntry]:
        sql, params = lobby_query(True, within, limit, only, after)
        async with self.connection() as db:
            rows = await db.fetch(sql, *params)
            seats = await db.fetch(
                "SELECT table_id, seat, kind, name, level FROM seats"
                " WHERE table_id = ANY($1) ORDER BY table_id, seat",
                [row["id"] for row in rows],
            )
        by_table: dict[str, list[SeatRecord]] = {}
        for seat in seats:
            by_table.setdefault(seat["table_id"], []).append(
                SeatRecord(seat["seat"], seat["kind"], seat["name"], seat["level"], None)
            )
        return [
            LobbyEntry(
                row["id"],
                json.loads(row["config"]),
                row["clock"],
                row["created"],
                tuple(by_table.get(row["id"], ())),
                row["no_show_after"],
                lang=row["lang"],
                hints=row["hints"],
                stand_in=row["stand_in"],
                absent_after=row["absent_after"],
                place=LobbyPlace(row["place"], row["listed"], row["id"]),
            )
            for row in rows
        ]

    async def seat_away(self, table_id: str, seats: Sequence[int] | None, alive: float) -> bool:
        async with self.connection() as db, db.transaction():
            marked = await db.fetch(
                f"UPDATE seats SET away_since = {NOW} WHERE table_id = $1 AND kind = 'human'"
                " AND away_since IS NULL AND ($2::int[] IS NULL OR seat = ANY($2::int[]))"
                " AND NOT EXISTS (SELECT 1 FROM presence p JOIN servers v ON v.id = p.server"
                " WHERE p.table_id = seats.table_id AND p.seat = seats.seat"
                f" AND p.connections > 0 AND v.heartbeat >= {NOW} - $3) RETURNING seat",
                table_id,
                None if seats is None else list(seats),
                alive,
            )
            if marked:
                await db.execute(AWAY_DEADLINE, table_id)
                change = Change(table_id, SEATS, 0, 0)
                await db.execute("SELECT pg_notify($1, $2)", CHANNEL, change.encode())
        return bool(marked)

    async def seat_back(self, table_id: str, seat: int) -> bool:
        async with self.connection() as db, db.transaction():
            found = await db.fetchval(
                f"UPDATE seats SET away_since = NULL, arrived = COALESCE(arrived, {NOW})"
                " WHERE table_id = $1 AND seat = $2 AND kind = 'human'"
                " AND (away_since IS NOT NULL OR arrived IS NULL) RETURNING seat",
                table_id,
                seat,
            )
            if found is not None:
                await db.execute(BACK_DEADLINE, table_id, seat)
                change = Change(table_id, SEATS, 0, 0)
                await db.execute("SELECT pg_notify($1, $2)", CHANNEL, change.encode())
        return found is not None

    # -- bot decisions ---------------------------------------------------------------------
    async def claim_bot_turns(self, owner: str, limit: int, ttl: float) -> list[BotTurn]:
        async with self.connection() as db:
            rows = await db.fetch(
                f"UPDATE games g SET lease_owner = $1, lease_until = {NOW} + $2"
                f" FROM (SELECT table_id, number FROM games WHERE turn_deadline <= {NOW}"
                f" AND (lease_until IS NULL OR lease_until < {NOW})"
                " ORDER BY turn_watched DESC, turn_since LIMIT $3 FOR UPDATE SKIP LOCKED) free"
                " WHERE g.table_id = free.table_id AND g.number = free.number"
                " RETURNING g.table_id, g.number, g.turn_step",
                owner,
                ttl,
                limit,
            )
        return [BotTurn(r["table_id"], r["number"], r["turn_step"]) for r in rows]

    async def waiting_bot_turns(self) -> int:
        async with self.connection() as db:
            count = await db.fetchval(
                f"SELECT count(*) FROM games WHERE turn_deadline <= {NOW}"
                f" AND (lease_until IS NULL OR lease_until < {NOW})"
            )
        return int(count)

    async def claim_bot_turn(self, owner: str, turn: BotTurn, ttl: float) -> bool:
        async with self.connection() as db:
            found = await db.fetchval(
                f"UPDATE games SET lease_owner = $1, lease_until = {NOW} + $2"
                f" WHERE table_id = $3 AND number = $4 AND turn_deadline <= {NOW}"
                f" AND turn_step = $5 AND (lease_until IS NULL OR lease_until < {NOW}"
                " OR lease_owner = $1)"
                " RETURNING 1",
                owner,
                ttl,
                turn.table_id,
                turn.game,
                turn.step,
            )
        return found is not None

    async def renew_claim(self, owner: str, turn: BotTurn, ttl: float) -> bool:
        async with self.connection() as db:
            found = await db.fetchval(
                f"UPDATE games SET lease_until = {NOW} + $1"
                " WHERE table_id = $2 AND number = $3 AND turn_deadline IS NOT NULL"
                " AND turn_step = $4 AND lease_owner = $5 RETURNING 1",
                ttl,
                turn.table_id,
                turn.game,
                turn.step,
                owner,
            )
        return found is not None

    async def release_claim(self, owner: str, turn: BotTurn) -> None:
        async with self.connection() as db:
            await db.execute(
                "UPDATE games SET lease_owner = NULL, lease_until = NULL"
                " WHERE table_id = $1 AND number = $2 AND turn_step = $3 AND lease_owner = $4",
                turn.table_id,
                turn.game,
                turn.step,
                owner,
            )

    # -- analyses --------------------------------------------------------------------------
    async def request_analysis(
        self, table_id: str, game: int, origin: str = "", queued_limit: int = 0
    ) -> AnalysisRecord:
        async with self.connection() as db, db.transaction():
            if queued_limit and origin:
                refusal = QuotaReached(f"{queued_limit} analyses of this address are queued")
                guard = Guard(
                    f"analyses:{origin}",
                    queued_before(True),
                    (table_id, game, origin),
                    queued_limit,
                    refusal,
                )
                await guard.check(db)
            await db.execute(
                "INSERT INTO analyses (table_id, game, status, requested, origin)"
                f" VALUES ($1, $2, $3, {NOW}, $5) ON CONFLICT (table_id, game) DO UPDATE SET"
                " status = EXCLUDED.status, progress = 0, steps = '[]',"
                " requested = EXCLUDED.requested, origin = EXCLUDED.origin,"
                " lease_owner = NULL, lease_until = NULL WHERE analyses.status = $4",
                table_id,
                game,
                QUEUED,
                FAILED,
                origin,
            )
            row = await db.fetchrow(
                f"SELECT {ANALYSIS_COLUMNS} FROM analyses WHERE table_id = $1 AND game = $2",
                table_id,
                game,
            )
        return analysis_from_row(row)

    async def load_analysis(self, table_id: str, game: int) -> AnalysisRecord | None:
        async with self.connection() as db:
            row = await db.fetchrow(
                f"SELECT {ANALYSIS_COLUMNS} FROM analyses WHERE table_id = $1 AND game = $2",
                table_id,
                game,
            )
        return None if row is None else analysis_from_row(row)

    async def claim_analysis(self, owner: str, ttl: float) -> AnalysisRecord | None:
        async with self.connection() as db:
            row = await db.fetchrow(
                f"UPDATE analyses a SET status = $1, lease_owner = $2, lease_until = {NOW} + $3,"
                f" started = {NOW} FROM (SELECT a.table_id, a.game FROM analyses a"
                f" WHERE a.status IN ($4, $1) AND (a.lease_until IS NULL OR a.lease_until < {NOW})"
                f" ORDER BY {CLAIM_ORDER} LIMIT 1 FOR UPDATE SKIP LOCKED) free"
                " WHERE a.table_id = free.table_id AND a.game = free.game"
                " RETURNING a.table_id, a.game, a.status, a.progress, a.steps",
                RUNNING,
                owner,
                ttl,
                QUEUED,
            )
        return None if row is None else analysis_from_row(row)

    async def save_analysis(self, owner: str, record: AnalysisRecord, ttl: float) -> bool:
        finished = record.status in (DONE, FAILED)
        async with self.connection() as db:
            found = await db.fetchval(
                "UPDATE analyses SET status = $1, progress = $2, steps = $3,"
                f" lease_until = CASE WHEN $4 THEN NULL ELSE {NOW} + $5 END,"
                " lease_owner = CASE WHEN $4 THEN NULL ELSE lease_owner END"
                " WHERE table_id = $6 AND game = $7 AND lease_owner = $8 RETURNING 1",
                record.status,
                record.progress,
                json.dumps(list(record.steps)),
                finished,
                ttl,
                record.table_id,
                record.game,
                owner,
            )
        return found is not None

    # -- presence --------------------------------------------------------------------------
    async def set_presence(self, server: str, counts: Sequence[SeatCount]) -> None:
        if not counts:
            return
        present = [c for c in counts if c.connections > 0]
        gone = [c for c in counts if c.connections <= 0]
        async with self.connection() as db, db.transaction():
            if present:
                await db.execute(
                    "INSERT INTO presence (table_id, seat, server, connections)"
                    " SELECT t, s, $1, n"
                    " FROM unnest($2::text[], $3::int[], $4::int[]) AS u(t, s, n)"
                    " ON CONFLICT (table_id, seat, server)"
                    " DO UPDATE SET connections = EXCLUDED.connections",
                    server,
                    [c.table_id for c in present],
                    [c.seat for c in present],
                    [c.connections for c in present],
                )
            if gone:
                await db.execute(
                    "DELETE FROM presence p USING unnest($2::text[], $3::int[]) AS u(t, s)"
                    " WHERE p.server = $1 AND p.table_id = u.t AND p.seat = u.s",
                    server,
                    [c.table_id for c in gone],
                    [c.seat for c in gone],
                )
            await db.execute(
                "SELECT pg_notify($1, $2 || ' 0 0 ' || t) FROM unnest($3::text[]) AS u(t)",
                CHANNEL,
                PRESENCE,
                sorted({c.table_id for c in counts}),
            )

    async def present_seats(self, table_id: str, alive: float) -> set[int]:
        async with self.connection() as db:
            rows = await db.fetch(
                "SELECT DISTINCT p.seat FROM presence p JOIN servers s ON s.id = p.server"
                f" WHERE p.table_id = $1 AND p.connections > 0 AND s.heartbeat >= {NOW} - $2",
                table_id,
                alive,
            )
        return {row["seat"] for row in rows}

    async def heartbeat(self, server: str, alive: float) -> Heartbeat:
        async with self.connection() as db, db.transaction():
            kept = await db.fetchval(
                f"UPDATE servers SET heartbeat = {NOW} WHERE id = $1 RETURNING 1", server
            )
            if kept is None:
                await db.execute(
                    f"INSERT INTO servers (id, heartbeat) VALUES ($1, {NOW})", server
                )
            # Connections of servers silent for too long (or whose record is gone) no longer
            # count: only the seats they held may become away.
            rows = await db.fetch(
                "DELETE FROM presence WHERE server <> $1 AND server NOT IN"
                f" (SELECT id FROM servers WHERE heartbeat >= {NOW} - $2)"
                " RETURNING table_id, seat",
                server,
                alive,
            )
            await db.execute(
                f"DELETE FROM servers WHERE heartbeat < {NOW} - $2 AND id <> $1", server, alive
            )
            forgotten = sorted({(row["table_id"], row["seat"]) for row in rows})
            for table_id in sorted({table_id for table_id, _ in forgotten}):
                change = Change(table_id, PRESENCE, 0, 0)
                await db.execute("SELECT pg_notify($1, $2)", CHANNEL, change.encode())
        return Heartbeat(kept is not None, tuple(forgotten))

    # -- reading ---------------------------------------------------------------------------
    async def load_table(self, table_id: str) -> tuple[TableRecord, GameRecord] | None:
        async with self.connection() as db, db.transaction(isolation="repeatable_read"):
            row = await db.fetchrow(
                "SELECT config, lang, creator_hash, spectator_hash, origin, public, clock,"
                " absent_after, stand_in, closed, listed, hints, no_show_after, replay_key,"
                " created FROM tables WHERE id = $1",
                table_id,
            )
            if row is None:
                return None
            seats = await db.fetch(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = $1 ORDER BY seat",
                table_id,
            )
            game = await db.fetchrow(
                "SELECT number, seed, start, custom_deal FROM games WHERE table_id = $1"
                " ORDER BY number DESC LIMIT 1",
                table_id,
            )
            actions = await db.fetch(
                "SELECT action FROM actions WHERE table_id = $1 AND game = $2 ORDER BY idx",
                table_id,
                game["number"],
            )
        table = TableRecord(
            table_id=table_id,
            config=json.loads(row["config"]),
            lang=row["lang"],
            creator_hash=row["creator_hash"],
            spectator_hash=row["spectator_hash"],
            seats=tuple(SeatRecord(*seat) for seat in seats),
            origin=row["origin"],
            public=row["public"],
            clock=row["clock"],
            absent_after=row["absent_after"],
            stand_in=row["stand_in"],
            closed=row["closed"],
            listed=row["listed"],
            hints=row["hints"],
            no_show_after=row["no_show_after"],
            replay_key=row["replay_key"] or "",
            created=row["created"],
        )
        start = game["start"]
        record = GameRecord(
            game["number"],
            game["seed"],
            tuple(json.loads(a["action"]) for a in actions),
            None if start is None else json.loads(start),
            game["custom_deal"],
        )
        return table, record

    async def load_game(self, table_id: str, number: int) -> tuple[GameRecord, bool] | None:
        async with self.connection() as db, db.transaction(isolation="repeatable_read"):
            row = await db.fetchrow(
                "SELECT seed, start, finished, custom_deal FROM games"
                " WHERE table_id = $1 AND number = $2",
                table_id,
                number,
            )
            if row is None:
                return None
            actions = await db.fetch(
                "SELECT action FROM actions WHERE table_id = $1 AND game = $2 ORDER BY idx",
                table_id,
                number,
            )
        record = GameRecord(
            number,
            row["seed"],
            tuple(json.loads(a["action"]) for a in actions),
            None if row["start"] is None else json.loads(row["start"]),
            row["custom_deal"],
        )
        return record, bool(row["finished"])

    async def load_actions(self, table_id: str, game: int, first: int) -> list[Mapping[str, Any]]:
        async with self.connection() as db:
            rows = await db.fetch(
                "SELECT action FROM actions WHERE table_id = $1 AND game = $2 AND idx >= $3"
                " ORDER BY idx",
                table_id,
                game,
                first,
            )
        return [json.loads(row["action"]) for row in rows]

    async def unfinished_tables(self) -> list[str]:
        async with self.connection() as db:
            rows = await db.fetch(
                "SELECT g.table_id FROM games g WHERE NOT g.finished AND g.number ="
                " (SELECT MAX(number) FROM games WHERE table_id = g.table_id)"
            )
        return [r["table_id"] for r in rows]

    # -- quotas and clean-up ----------------------------------------------------------------
    async def origin_counts(self, origin: str, within: float) -> tuple[int, int]:
        async with self.connection() as db:
            created = await db.fetchval(
                f"SELECT (SELECT count(*) FROM tables WHERE origin = $1 AND created >= s.since)"
                " + (SELECT count(*) FROM seats WHERE origin = $1 AND joined >= s.since)"
                f" FROM (SELECT {NOW} - $2 AS since) s",
                origin,
                within,
            )
            playing = await db.fetchval(
                "SELECT count(*) FROM tables t WHERE t.origin = $1 AND NOT EXISTS"
                " (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind IN ('human', 'open'))"
                " AND EXISTS (SELECT 1 FROM games g WHERE g.table_id = t.id AND NOT g.finished)",
                origin,
            )
        return int(created), int(playing)

    async def delete_abandoned(self, idle: float, limit: int) -> list[str]:
        async with self.connection() as db, db.transaction():
            rows = await db.fetch(
                f"SELECT t.id FROM tables t, (SELECT {NOW} - $1 AS before) c"
                " WHERE t.created < c.before AND NOT EXISTS (SELECT 1 FROM games g"
                " WHERE g.table_id = t.id AND g.turn_since >= c.before)"
                " LIMIT $2 FOR UPDATE OF t SKIP LOCKED",
                idle,
                limit,
            )
            ids = [row["id"] for row in rows]
            if ids:
                for name in ("actions", "presence", "analyses", "games", "seats"):
                    await db.execute(f"DELETE FROM {name} WHERE table_id = ANY($1)", ids)
                await db.execute("DELETE FROM tables WHERE id = ANY($1)", ids)
        return ids

    async def claim_job(self, name: str, owner: str, ttl: float) -> bool:
        async with self.connection() as db:
            found = await db.fetchval(
                f"INSERT INTO jobs (name, owner, until) VALUES ($1, $2, {NOW} + $3)"
                " ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner,"
                f" until = EXCLUDED.until WHERE jobs.until < {NOW} OR jobs.owner = EXCLUDED.owner"
                " RETURNING 1",
                name,
                owner,
                ttl,
            )
        return found is not None

    async def ping(self) -> None:
        """Raise :class:`StoreUnavailable` unless the database answers."""
        async with self.connection() as db:
            await db.fetchval("SELECT 1")

    # -- notifications ---------------------------------------------------------------------
    async def listen(self, changed: Callable[[Change], None], reset: Callable[[], None]) -> None:
        """Until cancelled: call ``changed`` for every committed change of a table, by any
        server, and ``reset()`` each time listening (re)starts (changes made while nobody
        listened are unknown: every cached table is suspect).

        Listening uses a connection of its own, outside the pool; it is checked every
        :data:`LISTEN_CHECK` seconds (a connection that broke silently never says so) and
        opened again, with a growing pause, while the database is away.
        """
        pause = RECONNECT_MIN
        while True:
            try:
                connection = await asyncpg.connect(
                    self.url,
                    timeout=CONNECT_TIMEOUT,
                    server_settings={"application_name": LISTENER_NAME},
                )
            except LISTEN_ERRORS as exc:
                quiet.warning("listen", "cannot listen for table changes (%s); retrying",
                              type(exc).__name__)
                await asyncio.sleep(pause)
                pause = min(pause * 2, RECONNECT_MAX)
                continue
            lost = asyncio.Event()
            connection.add_termination_listener(setter(lost))
            try:
                await connection.add_listener(CHANNEL, receiver(changed))
                reset()
                pause = RECONNECT_MIN
                while not lost.is_set():
                    try:
                        await asyncio.wait_for(lost.wait(), LISTEN_CHECK)
                    except TimeoutError:
                        await connection.fetchval("SELECT 1", timeout=LISTEN_CHECK)
            except LISTEN_ERRORS as exc:
                log.warning("stopped listening for table changes (%s)", type(exc).__name__)
            finally:
                connection.terminate()

    async def close(self) -> None:
        await self._pool.close()
