"""The SQLite :class:`~.base.Store`: one file, WAL journal, one writer thread (group commit).

An SQLite file serves one server process (the embedded default); several servers share a
PostgreSQL database instead (:mod:`.postgres`). The methods are coroutines: writes go to the
writer thread and are awaited without holding a thread, reads run in a worker thread. The
schema and its migrations are in :mod:`.sqlite_schema`, the SQL shared by several methods in
:mod:`.sqlite_sql`.
"""

from __future__ import annotations

import asyncio
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..names import name_key
from .analysis_sql import CLAIM_ORDER, queued_before
from .base import (
    DONE,
    FAILED,
    NO_FILTER,
    QUEUED,
    RUNNING,
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
    TableRecord,
    Turn,
)
from .lobby_sql import listed_count_query, lobby_query
from .sqlite_schema import SCHEMA_VERSION as SCHEMA_VERSION  # re-exported
from .sqlite_schema import migrate
from .sqlite_sql import (
    ABANDONED,
    ANALYSIS_COLUMNS,
    AWAY_DEADLINE,
    BACK_DEADLINE,
    SEAT_COLUMNS,
    SELF_PLAYING,
    START_IF_FULL,
    Statement,
    action_insert,
    analysis_from_row,
    hand_over_update,
    seat_insert,
    set_latest_turn_statement,
    set_turn_statement,
)


@dataclass
class _Write:
    """Statements to run in one transaction, and the future that reports the outcome: the rows
    the last statement returned (``UPDATE … RETURNING``), or a failure."""

    statements: Sequence[Statement]
    done: Future[list[Any]] = field(default_factory=Future)
    #: The statement whose rows are the outcome (default: the last).
    result_of: int = -1
    #: A query run first, in the same transaction: if its first value is false, nothing is
    #: written and the write fails with ``refusal`` (a quota checked atomically).
    guard: Statement | None = None
    refusal: Exception | None = None


class SqliteStore:
    """:class:`~.base.Store` in one SQLite file (WAL journal, ``synchronous=FULL``).

    One writer thread commits every write queued so far in one transaction (group commit: under
    load many actions share one disk sync), each in its own savepoint so that a conflict fails
    only its own write. Reads use a second connection.
    """

    def __init__(self, path: str | Path) -> None:
        memory = str(path) == ":memory:"
        self.path = path
        if not memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = self._connect(path)
        try:
            migrate(self._db, path)
        except StoreError:
            self._db.close()
            raise
        self._write_lock = threading.Lock()
        # An in-memory database has one connection: reads then share the writer's lock.
        self._reader = self._db if memory else self._connect(path)
        self._read_lock = self._write_lock if memory else threading.Lock()
        self._queue: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write_loop, name="sqlite-writer", daemon=True)
        self._writer.start()

    shared = False

    def describe(self) -> str:
        return f"SQLite file {self.path}"

    @staticmethod
    def _connect(path: str | Path) -> sqlite3.Connection:
        db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        return db

    # -- the writer thread -----------------------------------------------------------------
    def _submit(
        self,
        statements: Sequence[Statement],
        result_of: int = -1,
        guard: tuple[Statement, Exception] | None = None,
    ) -> Future[list[Any]]:
        write = _Write(statements, result_of=result_of)
        if guard is not None:
            write.guard, write.refusal = guard
        self._queue.put(write)
        return write.done

    async def _write(
        self,
        statements: Sequence[Statement],
        result_of: int = -1,
        guard: tuple[Statement, Exception] | None = None,
    ) -> list[Any]:
        return await asyncio.wrap_future(self._submit(statements, result_of, guard))

    def _write_loop(self) -> None:
        """Commit the queued writes, as many at a time as are waiting."""
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while not self._queue.empty():
                write = self._queue.get()
                if write is None:
                    stop = True
                    break
                batch.append(write)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: Sequence[_Write]) -> None:
        # A write whose caller gave up before it ran (a cancelled task) is not made at all.
        batch = [write for write in batch if write.done.set_running_or_notify_cancel()]
        if not batch:
            return
        failed: dict[int, BaseException] = {}
        results: dict[int, list[Any]] = {}
        with self._write_lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for i, write in enumerate(batch):
                    self._db.execute("SAVEPOINT one_write")
                    try:
                        if write.guard is not None and not self._db.execute(
                            *write.guard
                        ).fetchone()[0]:
                            raise write.refusal or StoreConflict("refused")
                        rows = [
                            self._db.execute(sql, params).fetchall()
                            for sql, params in write.statements
                        ]
                        results[i] = rows[write.result_of] if rows else []
                    except Exception as exc:  # any failure (e.g. an integer too large for
                        # SQLite: OverflowError) fails this write alone; the batch commits
                        self._db.execute("ROLLBACK TO one_write")
                        conflict = isinstance(exc, sqlite3.IntegrityError)
                        failed[i] = StoreConflict(str(exc)) if conflict else exc
                    self._db.execute("RELEASE one_write")
                self._db.execute("COMMIT")
            except Exception as exc:  # the transaction failed: nothing of the batch is stored
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                for write in batch:
                    write.done.set_exception(exc)
                return
        for i, write in enumerate(batch):
            if i in failed:
                write.done.set_exception(failed[i])
            else:
                write.done.set_result(results[i])

    async def _read(self, query: Callable[[sqlite3.Connection], Any]) -> Any:
        def run() -> Any:
            with self._read_lock:
                return query(self._reader)

        return await asyncio.to_thread(run)

    # -- tables and games ------------------------------------------------------------------
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
            sql, params = listed_count_query(False, table.origin, within)
            refusal = QuotaReached(f"{limit} tables of this address are in the lobby")
            guard = ((f"SELECT ({sql}) < ?{len(params) + 1}", (*params, limit)), refusal)
        statements: list[Statement] = [
            (
                "INSERT INTO tables (id, config, lang, creator_hash, spectator_hash, created,"
                " origin, public, listed, clock, absent_after, stand_in, hints, no_show_after,"
                " replay_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.table_id,
                    json.dumps(table.config),
                    table.lang,
                    table.creator_hash,
                    table.spectator_hash,
                    table.created or time.time(),
                    table.origin,
                    int(table.public),
                    time.time() if table.public else None,
                    table.clock,
                    table.absent_after,
                    table.stand_in,
                    int(table.hints),
                    table.no_show_after,
                    table.replay_key,
                ),
            ),
            (
                "INSERT INTO games (table_id, number, seed, start, custom_deal)"
                " VALUES (?, 1, ?, ?, ?)",
                (
                    table.table_id,
                    seed,
                    None if start is None else json.dumps(start),
                    int(custom_deal),
                ),
            ),
        ]
        statements += [seat_insert(table.table_id, seat) for seat in table.seats]
        statements += [action_insert(table.table_id, 1, i, a) for i, a in enumerate(actions)]
        statements.append(set_turn_statement(table.table_id, 1, turn))
        await self._write(statements, guard=guard)

    async def append_action(
        self,
        table_id: str,
        game: int,
        index: int,
        action: Mapping[str, Any],
        turn: Turn,
        stand_in: bool = False,
    ) -> None:
        insert = action_insert(table_id, game, index, action)
        if stand_in:  # only while the human's deadline has passed (they did not come back)
            insert = (
                "INSERT INTO actions (table_id, game, idx, action) SELECT ?, ?, ?, ?"
                " WHERE EXISTS (SELECT 1 FROM games WHERE table_id = ? AND number = ?"
                " AND turn_step = ? AND turn_deadline <= ?)",
                (*insert[1], table_id, game, index, time.time()),
            )
        sql, params = set_turn_statement(table_id, game, turn)
        turned = (
            sql + " AND EXISTS (SELECT 1 FROM actions WHERE table_id = ? AND game = ?"
            " AND idx = ?) RETURNING 1",
            (*params, table_id, game, index),
        )
        if not await self._write([insert, turned]):
            raise StoreConflict("the stand-in's deadline has not passed")

    async def new_game(self, table_id: str, game: int, seed: int, turn: Turn) -> None:
        await self._write(
            [
                (
                    "INSERT INTO games (table_id, number, seed) VALUES (?, ?, ?)",
                    (table_id, game, seed),
                ),
                set_turn_statement(table_id, game, turn),
            ]
        )

    async def hand_over(
        self, table_id: str, seat: SeatRecord, turn: Turn, grace: HandOverGrace, alive: float
    ) -> bool:
        sql, params = set_latest_turn_statement(table_id, turn)
        rows = await self._write(
            [
                hand_over_update(table_id, seat, grace, alive),
                (sql + " AND changes() > 0", params),  # only if the seat was handed over
            ],
            result_of=0,
        )
        return bool(rows)

    async def fill_seat(self, table_id: str, seat: SeatRecord, origin: str = "") -> int | None:
        now = time.time()
        which = "?" if seat.seat >= 0 else (
            "(SELECT MIN(seat) FROM seats WHERE table_id = ? AND kind = 'open')"
        )
        key = name_key(seat.name)
        rows = await self._write(
            [
                (
                    "UPDATE seats SET kind = ?, name = ?, level = ?, token_hash = ?, origin = ?,"
                    " joined = ?, away_since = NULL, arrived = NULL, name_key = ?"
                    f" WHERE table_id = ? AND seat = {which} AND kind = 'open' AND NOT EXISTS"
                    " (SELECT 1 FROM seats o WHERE o.table_id = seats.table_id"
                    " AND o.seat <> seats.seat AND o.name_key = ?) RETURNING seat",
                    (seat.kind, seat.name, seat.level, seat.token_hash, origin, now, key, table_id)
                    + ((seat.seat,) if seat.seat >= 0 else (table_id,))
                    + (key,),
                ),
                ("UPDATE tables SET listed = ? WHERE id = ? AND public = 1", (now, table_id)),
                (START_IF_FULL, (now, now, now, table_id, table_id, table_id)),
            ],
            result_of=0,
        )
        return int(rows[0][0]) if rows else None

    async def close_table(self, table_id: str) -> bool:
        rows = await self._write(
            [
                (
                    "UPDATE tables SET closed = 1 WHERE id = ? AND closed = 0 AND EXISTS"
                    " (SELECT 1 FROM seats WHERE table_id = ? AND kind = 'open') RETURNING 1",
                    (table_id, table_id),
                )
            ]
        )
        return bool(rows)

    async def lobby(
        self,
        within: float,
        limit: int,
        only: LobbyFilter = NO_FILTER,
        after: LobbyPlace | None = None,
    ) -> list[LobbyEntry]:
        sql, params = lobby_query(False, within, limit, only, after)

        def query(db: sqlite3.Connection) -> list[LobbyEntry]:
            entries = []
            for row in db.execute(sql, params).fetchall():
                table_id, config, clock, created, lang, hints, stand_in, absent_after = row[:8]
                seats = db.execute(
                    "SELECT seat, kind, name, level, NULL, NULL FROM seats"
                    " WHERE table_id = ? ORDER BY seat",
                    (table_id,),
                ).fetchall()
                entries.append(
                    LobbyEntry(
                        table_id,
                        json.loads(config),
                        clock,
                        created,
                        tuple(SeatRecord(*seat) for seat in seats),
                        row[10],
                        lang=lang,
                        hints=bool(hints),
                        stand_in=stand_in,
                        absent_after=absent_after,
                        place=LobbyPlace(int(row[9]), float(row[8]), table_id),
                    )
                )
            return entries

        found: list[LobbyEntry] = await self._read(query)
        return found

    async def seat_away(self, table_id: str, seats: Sequence[int] | None, alive: float) -> bool:
        now = time.time()
        chosen = "" if seats is None else f" AND seat IN ({', '.join('?' * len(seats))})"
        rows = await self._write(
            [
                (
                    "UPDATE seats SET away_since = ? WHERE table_id = ? AND kind = 'human'"
                    f" AND away_since IS NULL{chosen} AND NOT EXISTS (SELECT 1 FROM presence p"
                    " JOIN servers v ON v.id = p.server WHERE p.table_id = seats.table_id"
                    " AND p.seat = seats.seat AND p.connections > 0 AND v.heartbeat >= ?)"
                    " RETURNING seat",
                    (now, table_id, *(seats or ()), now - alive),
                ),
                (AWAY_DEADLINE, (table_id, table_id)),
            ],
            result_of=0,
        )
        return bool(rows)

    async def seat_back(self, table_id: str, seat: int) -> bool:
        rows = await self._write(
            [
                (
                    "UPDATE seats SET away_since = NULL, arrived = COALESCE(arrived, ?)"
                    " WHERE table_id = ? AND seat = ? AND kind = 'human'"
                    " AND (away_since IS NOT NULL OR arrived IS NULL) RETURNING seat",
                    (time.time(), table_id, seat),
                ),
                (BACK_DEADLINE, (table_id, table_id, seat)),
            ],
            result_of=0,
        )
        return bool(rows)

    async def load_table(self, table_id: str) -> tuple[TableRecord, GameRecord] | None:
        def query(db: sqlite3.Connection) -> tuple[TableRecord, GameRecord] | None:
            row = db.execute(
                "SELECT config, lang, creator_hash, spectator_hash, origin, public, clock,"
                " absent_after, stand_in, closed, listed, hints, no_show_after, replay_key,"
                " created FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            seats = db.execute(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY seat",
                (table_id,),
            ).fetchall()
            number, seed, start, custom = db.execute(
                "SELECT number, seed, start, custom_deal FROM games WHERE table_id = ?"
                " ORDER BY number DESC LIMIT 1",
                (table_id,),
            ).fetchone()
            actions = db.execute(
                "SELECT action FROM actions WHERE table_id = ? AND game = ? ORDER BY idx",
                (table_id, number),
            ).fetchall()
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
            )
            game = GameRecord(
                number,
                seed,
                tuple(json.loads(a[0]) for a in actions),
                None if start is None else json.loads(start),
                bool(custom),
            )
            return table, game

        result: tuple[TableRecord, GameRecord] | None = await self._read(query)
        return result

    async def load_game(self, table_id: str, number: int) -> tuple[GameRecord, bool] | None:
        def query(db: sqlite3.Connection) -> tuple[GameRecord, bool] | None:
            row = db.execute(
                "SELECT seed, start, finished, custom_deal FROM games"
                " WHERE table_id = ? AND number = ?",
                (table_id, number),
            ).fetchone()
            if row is None:
                return None
            actions = db.execute(
                "SELECT action FROM actions WHERE table_id = ? AND game = ? ORDER BY idx",
                (table_id, number),
            ).fetchall()
            record = GameRecord(
                number,
                row[0],
                tuple(json.loads(a[0]) for a in actions),
                None if row[1] is None else json.loads(row[1]),
                bool(row[3]),
            )
            return record, bool(row[2])

        found: tuple[GameRecord, bool] | None = await self._read(query)
        return found

    async def load_actions(self, table_id: str, game: int, first: int) -> list[Mapping[str, Any]]:
        rows = await self._read(
            lambda db: db.execute(
                "SELECT action FROM actions WHERE table_id = ? AND game = ? AND idx >= ?"
                " ORDER BY idx",
                (table_id, game, first),
            ).fetchall()
        )
        return [json.loads(row[0]) for row in rows]

    async def unfinished_tables(self) -> list[str]:
        rows = await self._read(
            lambda db: db.execute(
                "SELECT g.table_id FROM games g WHERE g.finished = 0 AND g.number ="
                " (SELECT MAX(number) FROM games WHERE table_id = g.table_id)"
            ).fetchall()
        )
        return [r[0] for r in rows]

    async def set_turn(self, table_id: str, game: int, turn: Turn) -> bool:
        statement = set_turn_statement(table_id, game, turn)
        rows = await self._write(
            [
                (
                    statement[0] + " AND (SELECT COUNT(*) FROM actions"
                    " WHERE table_id = ? AND game = ?) = ? RETURNING 1",
                    (*statement[1], table_id, game, turn.step),
                )
            ]
        )
        return bool(rows)

    # -- bot decisions ---------------------------------------------------------------------
    async def claim_bot_turns(self, owner: str, limit: int, ttl: float) -> list[BotTurn]:
        now = time.time()
        rows = await self._write(
            [
                (
                    "UPDATE games SET lease_owner = ?, lease_until = ? WHERE rowid IN"
                    " (SELECT rowid FROM games WHERE turn_deadline <= ?"
                    " AND (lease_until IS NULL OR lease_until < ?)"
                    " ORDER BY turn_watched DESC, turn_since LIMIT ?)"
                    " RETURNING table_id, number, turn_step",
                    (owner, now + ttl, now, now, limit),
                )
            ]
        )
        return [BotTurn(*row) for row in rows]

    async def waiting_bot_turns(self) -> int:
        now = time.time()
        row = await self._read(
            lambda db: db.execute(
                "SELECT COUNT(*) FROM games WHERE turn_deadline <= ?"
                " AND (lease_until IS NULL OR lease_until < ?)",
                (now, now),
            ).fetchone()
        )
        return int(row[0])

    async def claim_bot_turn(self, owner: str, turn: BotTurn, ttl: float) -> bool:
        now = time.time()
        rows = await self._write(
            [
                (
                    "UPDATE games SET lease_owner = ?, lease_until = ?"
                    " WHERE table_id = ? AND number = ? AND turn_deadline <= ? AND turn_step = ?"
                    " AND (lease_until IS NULL OR lease_until < ? OR lease_owner = ?)"
                    " RETURNING 1",
                    (owner, now + ttl, turn.table_id, turn.game, now, turn.step, now, owner),
                )
            ]
        )
        return bool(rows)

    async def renew_claim(self, owner: str, turn: BotTurn, ttl: float) -> bool:
        rows = await self._write(
            [
                (
                    "UPDATE games SET lease_until = ? WHERE table_id = ? AND number = ?"
                    " AND turn_deadline IS NOT NULL AND turn_step = ? AND lease_owner = ?"
                    " RETURNING 1",
                    (time.time() + ttl, turn.table_id, turn.game, turn.step, owner),
                )
            ]
        )
        return bool(rows)

    async def release_claim(self, owner: str, turn: BotTurn) -> None:
        await self._write(
            [
                (
                    "UPDATE games SET lease_owner = NULL, lease_until = NULL"
                    " WHERE table_id = ? AND number = ? AND turn_step = ? AND lease_owner = ?",
                    (turn.table_id, turn.game, turn.step, owner),
                )
            ]
        )

    # -- analyses --------------------------------------------------------------------------
    async def request_analysis(
        self, table_id: str, game: int, origin: str = "", queued_limit: int = 0
    ) -> AnalysisRecord:
        now = time.time()
        guard = None
        if queued_limit and origin:
            refusal = QuotaReached(f"{queued_limit} analyses of this address are queued")
            count = (queued_before(False), (table_id, game, origin))
            guard = ((f"SELECT ({count[0]}) < ?4", (*count[1], queued_limit)), refusal)
        rows = await self._write(
            [
                (
                    "INSERT INTO analyses (table_id, game, status, requested, origin)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, game) DO UPDATE SET"
                    " status = excluded.status, progress = 0, steps = '[]',"
                    " requested = excluded.requested, origin = excluded.origin,"
                    " lease_owner = NULL, lease_until = NULL WHERE analyses.status = ?",
                    (table_id, game, QUEUED, now, origin, FAILED),
                ),
                (f"SELECT {ANALYSIS_COLUMNS} FROM analyses WHERE table_id = ? AND game = ?",
                 (table_id, game)),
            ],
            guard=guard,
        )
        return analysis_from_row(rows[0])

    async def load_analysis(self, table_id: str, game: int) -> AnalysisRecord | None:
        row = await self._read(
            lambda db: db.execute(
                f"SELECT {ANALYSIS_COLUMNS} FROM analyses WHERE table_id = ? AND game = ?",
                (table_id, game),
            ).fetchone()
        )
        return None if row is None else analysis_from_row(row)

    async def claim_analysis(self, owner: str, ttl: float) -> AnalysisRecord | None:
        now = time.time()
        rows = await self._write(
            [
                (
                    "UPDATE analyses SET status = ?, lease_owner = ?, lease_until = ?,"
                    " started = ? WHERE rowid = (SELECT a.rowid FROM analyses a"
                    " WHERE a.status IN (?, ?) AND (a.lease_until IS NULL OR a.lease_until < ?)"
                    f" ORDER BY {CLAIM_ORDER} LIMIT 1) RETURNING {ANALYSIS_COLUMNS}",
                    (RUNNING, owner, now + ttl, now, QUEUED, RUNNING, now),
                )
            ]
        )
        return analysis_from_row(rows[0]) if rows else None

    async def save_analysis(self, owner: str, record: AnalysisRecord, ttl: float) -> bool:
        finished = record.status in (DONE, FAILED)
        rows = await self._write(
            [
                (
                    "UPDATE analyses SET status = ?, progress = ?, steps = ?, lease_until = ?,"
                    " lease_owner = CASE WHEN ? THEN NULL ELSE lease_owner END"
                    " WHERE table_id = ? AND game = ? AND lease_owner = ? RETURNING 1",
                    (
                        record.status,
                        record.progress,
                        json.dumps(list(record.steps)),
                        None if finished else time.time() + ttl,
                        int(finished),
                        record.table_id,
                        record.game,
                        owner,
                    ),
                )
            ]
        )
        return bool(rows)

    # -- presence --------------------------------------------------------------------------
    async def set_presence(self, server: str, counts: Sequence[SeatCount]) -> None:
        statements: list[Statement] = []
        for count in counts:
            if count.connections > 0:
                statements.append(
                    (
                        "INSERT INTO presence (table_id, seat, server, connections)"
                        " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, seat, server)"
                        " DO UPDATE SET connections = excluded.connections",
                        (count.table_id, count.seat, server, count.connections),
                    )
                )
            else:
                statements.append(
                    (
                        "DELETE FROM presence WHERE table_id = ? AND seat = ? AND server = ?",
                        (count.table_id, count.seat, server),
                    )
                )
        if statements:
            await self._write(statements)

    async def present_seats(self, table_id: str, alive: float) -> set[int]:
        since = time.time() - alive
        rows = await self._read(
            lambda db: db.execute(
                "SELECT DISTINCT p.seat FROM presence p JOIN servers s ON s.id = p.server"
                " WHERE p.table_id = ? AND p.connections > 0 AND s.heartbeat >= ?",
                (table_id, since),
            ).fetchall()
        )
        return {row[0] for row in rows}

    async def heartbeat(self, server: str, alive: float) -> Heartbeat:
        now = time.time()
        kept = await self._write(
            [("UPDATE servers SET heartbeat = ? WHERE id = ? RETURNING 1", (now, server))]
        )
        rows = await self._write(
            [
                ("INSERT OR IGNORE INTO servers (id, heartbeat) VALUES (?, ?)", (server, now)),
                (
                    "DELETE FROM presence WHERE server <> ? AND server NOT IN"
                    " (SELECT id FROM servers WHERE heartbeat >= ?) RETURNING table_id, seat",
                    (server, now - alive),
                ),
                ("DELETE FROM servers WHERE heartbeat < ? AND id <> ?", (now - alive, server)),
            ],
            result_of=1,
        )
        return Heartbeat(bool(kept), tuple(sorted({(row[0], row[1]) for row in rows})))

    # -- quotas and clean-up ----------------------------------------------------------------
    async def origin_counts(self, origin: str, within: float) -> tuple[int, int]:
        def query(db: sqlite3.Connection) -> tuple[int, int]:
            since = time.time() - within
            created = db.execute(
                "SELECT (SELECT COUNT(*) FROM tables WHERE origin = ? AND created >= ?)"
                " + (SELECT COUNT(*) FROM seats WHERE origin = ? AND joined >= ?)",
                (origin, since, origin, since),
            ).fetchone()[0]
            playing = db.execute(SELF_PLAYING, (origin,)).fetchone()[0]
            return int(created), int(playing)

        counts: tuple[int, int] = await self._read(query)
        return counts

    async def delete_abandoned(self, idle: float, limit: int) -> list[str]:
        before = time.time() - idle  # the file's only server: its clock is the database's
        rows = await self._read(
            lambda db: db.execute(ABANDONED, (before, before, limit)).fetchall()
        )
        ids = [row[0] for row in rows]
        statements: list[Statement] = []
        for table_id in ids:
            statements += [
                (f"DELETE FROM {name} WHERE table_id = ?", (table_id,))
                for name in ("actions", "presence", "analyses", "games", "seats")
            ]
            statements.append(("DELETE FROM tables WHERE id = ?", (table_id,)))
        if statements:
            await self._write(statements)
        return ids

    async def claim_job(self, name: str, owner: str, ttl: float) -> bool:
        now = time.time()
        rows = await self._write(
            [
                (
                    "INSERT INTO jobs (name, owner, until) VALUES (?, ?, ?)"
                    " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner,"
                    " until = excluded.until WHERE jobs.until < ? OR jobs.owner = excluded.owner"
                    " RETURNING 1",
                    (name, owner, now + ttl, now),
                )
            ]
        )
        return bool(rows)

    # -- life ------------------------------------------------------------------------------
    async def ping(self) -> None:
        await self._read(lambda db: db.execute("SELECT 1").fetchone())

    async def listen(self, changed: Callable[[Change], None], reset: Callable[[], None]) -> None:
        """One server per SQLite file: no other server changes its tables."""
        reset()
        await asyncio.Event().wait()

    async def close(self) -> None:
        """Commit what is queued, then close the connections."""
        await asyncio.to_thread(self.close_now)

    def close_now(self) -> None:
        """:meth:`close` from synchronous code."""
        if self._writer.is_alive():
            self._queue.put(None)
            self._writer.join()
        if self._reader is not self._db:
            with self._read_lock:
                self._reader.close()
        with self._write_lock:
            self._db.close()


#: The columns of an :class:`AnalysisRecord`, in its fields' order.
