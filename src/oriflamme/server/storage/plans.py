"""How a store method is written once for both backends: as a *plan*, a generator that yields
the steps to run (statements, a chain of statements, an announcement) and receives each one's
rows, so that its logic ("then this, if that found a row") runs inside one transaction on
either backend. The backends only drive plans (:class:`SqlRunner`): SQLite's writer thread in
its batch of writes, PostgreSQL in a transaction on a pooled connection, where announcements
are notifications sent when the transaction commits.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from typing import Any, NamedTuple, TypeAlias, TypeVar

from .base import Change
from .dialect import Dialect, Sql, Statement

T = TypeVar("T")

#: The rows a step returned (tuples in SQLite, records in PostgreSQL: read them by position).
Rows: TypeAlias = list[Any]


class Chain(NamedTuple):
    """Statements made by one :class:`~.dialect.Sql`, each run only if the one before changed
    a row (each says so with :meth:`~.dialect.Sql.after_previous`; all but the last end with
    :meth:`~.dialect.Dialect.link`, the last with ``RETURNING``); none reads what an earlier
    one wrote. Its rows are the last statement's, or none if one changed none; ``announce``
    is announced if the last returned rows. PostgreSQL runs it as one statement (one round
    trip, no transaction around it); SQLite in turn, stopping at one that changed no row (an
    ``INSERT … RETURNING`` would cost it more)."""

    statements: tuple[Statement, ...]
    announce: Change | None = None


class Announce(NamedTuple):
    """Tell every server that these tables changed, once (and if) the write commits."""

    changes: tuple[Change, ...]


Step: TypeAlias = Statement | Chain | Announce
Plan: TypeAlias = Generator[Step, Rows, T]


def single(step: Statement | Chain) -> Plan[Rows]:
    """The plan of one step: its rows."""
    rows = yield step
    return rows


def quota(
    dialect: Dialect, key: str, count: Statement, limit: int, refusal: Exception
) -> Plan[None]:
    """Refuse a write (raise ``refusal``, nothing is written) if ``count`` is not below
    ``limit``; the writes that count the same thing (``key``) on any server wait for one
    another, so that together they cannot exceed it."""
    q = Sql(dialect)
    lock = dialect.serialize(q, key)
    if lock is not None:
        yield q.statement(lock)
    rows = yield count
    if rows[0][0] >= limit:
        raise refusal


def drive(plan: Plan[T], run: Callable[[Step], Rows]) -> T:
    """Run ``plan``, each step with ``run``; its result."""
    try:
        step = next(plan)
        while True:
            step = plan.send(run(step))
    except StopIteration as stop:
        result: T = stop.value
        return result
    finally:
        plan.close()


async def drive_async(plan: Plan[T], run: Callable[[Step], Awaitable[Rows]]) -> T:
    """:func:`drive` with a coroutine for each step."""
    try:
        step = next(plan)
        while True:
            step = plan.send(await run(step))
    except StopIteration as stop:
        result: T = stop.value
        return result
    finally:
        plan.close()


class SqlRunner:
    """What a backend gives the SQL store (:mod:`.sql_store`): its dialect, and plans run."""

    dialect: Dialect

    async def _run(self, plan: Plan[T], *, write: bool, atomic: bool) -> T:
        """Run ``plan``: a ``write`` (committed before it returns; on a conflict of keys,
        :class:`~.base.StoreConflict`), or a read; ``atomic``: in one transaction (for a read,
        one snapshot), else each statement on its own (a write of one statement or chain)."""
        raise NotImplementedError

    async def _write(self, plan: Plan[T]) -> T:
        return await self._run(plan, write=True, atomic=True)

    async def _write_one(self, step: Statement | Chain) -> Rows:
        return await self._run(single(step), write=True, atomic=False)

    async def _read(self, plan: Plan[T], *, snapshot: bool = False) -> T:
        return await self._run(plan, write=False, atomic=snapshot)

    async def _read_one(self, statement: Statement) -> Rows:
        return await self._run(single(statement), write=False, atomic=False)
