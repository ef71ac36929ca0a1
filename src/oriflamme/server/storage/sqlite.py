"""The SQLite :class:`~.base.Store`: one file, WAL journal, one writer thread (group commit).

An SQLite file serves one server process (the embedded default); several servers share a
PostgreSQL database instead (:mod:`.postgres`). The store's methods are written once for both
(:mod:`.sql_store`); this backend runs their plans: writes in the writer thread, awaited without
holding a thread, reads in a worker thread. The schema and its migrations are in
:mod:`.sqlite_schema`.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .base import Change, StoreConflict, StoreError
from .dialect import SQLITE, Statement
from .plans import Announce, Chain, Plan, Rows, Step, drive
from .sql_store import SqlStore
from .sqlite_schema import SCHEMA_VERSION as SCHEMA_VERSION  # re-exported
from .sqlite_schema import migrate

T = TypeVar("T")


@dataclass
class _Write:
    """A write to commit in the writer thread, in a savepoint of its own, and the future that
    reports its outcome: the plan's result (a plain list of statements: the rows of the last),
    or its failure."""

    plan: Plan[Any] | Sequence[Statement]
    done: Future[Any] = field(default_factory=Future)


def _run_step(db: sqlite3.Connection, step: Step) -> Rows:
    """One step of a plan: a statement's rows; a chain's statements in turn, up to the first
    that changes no row, then the last one's rows; nothing to announce (no other server shares
    the file)."""
    if isinstance(step, Announce):
        return []
    if isinstance(step, Chain):
        *linked, (last, params) = step.statements
        for sql, linked_params in linked:
            if db.execute(sql, linked_params).rowcount < 1:
                return []
        return db.execute(last, params).fetchall()
    return db.execute(step.sql, step.params).fetchall()


def _run_plan(db: sqlite3.Connection, plan: Plan[T] | Sequence[Statement]) -> Any:
    if isinstance(plan, Generator):
        return drive(plan, lambda step: _run_step(db, step))
    rows: Rows = []
    for statement in plan:
        rows = _run_step(db, statement)
    return rows


class SqliteStore(SqlStore):
    """:class:`~.base.Store` in one SQLite file (WAL journal, ``synchronous=FULL``).

    One writer thread commits every write queued so far in one transaction (group commit: under
    load many actions share one disk sync), each in its own savepoint so that a conflict fails
    only its own write. Reads use a second connection.
    """

    dialect = SQLITE

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

    def pool_use(self) -> tuple[int, int]:
        return 0, 0  # one connection, its own writer thread: no pool

    @staticmethod
    def _connect(path: str | Path) -> sqlite3.Connection:
        db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        return db

    # -- running plans ---------------------------------------------------------------------
    async def _run(self, plan: Plan[T], *, write: bool, atomic: bool) -> T:
        if write:
            job = _Write(plan)
            self._queue.put(job)
            result: T = await asyncio.wrap_future(job.done)
            return result
        return await asyncio.to_thread(self._read_now, plan, atomic)

    def _read_now(self, plan: Plan[T], snapshot: bool) -> T:
        with self._read_lock:
            if not snapshot:
                result: T = _run_plan(self._reader, plan)
                return result
            self._reader.execute("BEGIN")  # one snapshot of the file (WAL)
            try:
                result = _run_plan(self._reader, plan)
            finally:
                self._reader.execute("COMMIT")
            return result

    # -- the writer thread -----------------------------------------------------------------
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
        results: dict[int, Any] = {}
        with self._write_lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for i, write in enumerate(batch):
                    self._db.execute("SAVEPOINT one_write")
                    try:
                        results[i] = _run_plan(self._db, write.plan)
                    except Exception as exc:  # any failure (e.g. an integer too large for
                        # SQLite: OverflowError, or a quota reached) fails this write alone;
                        # the batch commits
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

    # -- life ------------------------------------------------------------------------------
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

