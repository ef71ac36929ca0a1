"""What differs between the SQL of SQLite and PostgreSQL, and the builder that writes a statement
for either (:class:`Sql`): its placeholders, the database's clock, booleans, lists of values,
row locks.

Every statement of the store is written once (:mod:`.sql_store`) with a :class:`Sql` of the
backend's :class:`Dialect`:

- **Placeholders** are numbered (``?1`` in SQLite, ``$1`` in PostgreSQL), so that a statement
  may use a value more than once.
- **The database's clock** (:meth:`Sql.now`): PostgreSQL's own (``clock_timestamp()``), so that
  the claims, heartbeats and deadlines of every server use one clock (a server whose clock is
  wrong neither steals nor loses anything); SQLite's file serves one server, whose clock is the
  database's: its time is a parameter.
- **Booleans** are ``BOOLEAN`` columns in PostgreSQL and 0/1 integers in SQLite: a statement
  tests them with :meth:`Dialect.true` and :meth:`Dialect.false`, which keep the forms the
  partial indexes were declared with; Python booleans are parameters of either.
- **Lists of values** are one parameter (PostgreSQL: an array; SQLite: JSON text read by
  ``json_each``), so that a statement's text, and the plan the database caches for it, does not
  depend on how many values it gets.
- **Row locks** exist only where several servers write at once (PostgreSQL): ``FOR UPDATE``,
  ``SKIP LOCKED`` and advisory locks; SQLite's one writer needs none.
- **A chain of statements** (:class:`~.plans.Chain`, the hot path of an action and its turn)
  is one statement of data-modifying ``WITH`` parts in PostgreSQL (one round trip), statements
  run in turn in SQLite (which has no such parts): :meth:`Sql.after_previous` links them.
- **Column types** of the schema (:mod:`.schema_sql`): ``REAL``/``DOUBLE PRECISION``,
  ``INTEGER``/``BOOLEAN``, ``INTEGER``/``BIGINT``.

Upserts (``ON CONFLICT … DO UPDATE``), ``RETURNING``, ``UPDATE … FROM`` and row values are
written alike in both (SQLite 3.35 or later).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple


class Statement(NamedTuple):
    """One SQL statement and its parameters."""

    sql: str
    params: tuple[Any, ...]


#: How many placeholders each dialect writes in advance.
_MARKS = 128


class Dialect:
    """The SQL of one database (the base class: what both share)."""

    #: Whether several servers write at once: then rows are locked where order matters.
    locks = False
    #: Column types (the schema, :mod:`.schema_sql`): a float, a boolean and its false value,
    #: a 64-bit integer.
    real, boolean, false_value, big_integer = "", "", "", ""

    def __init__(self) -> None:
        #: The first placeholders, written once (a statement is written at each call).
        self.marks = tuple(self.placeholder(number) for number in range(_MARKS))

    def placeholder(self, number: int) -> str:
        raise NotImplementedError

    def clock(self) -> str | None:
        """The SQL of the database's clock (epoch seconds), or None: the server's is a
        parameter."""
        return None

    def true(self, column: str) -> str:
        """The condition that a boolean column is true."""
        raise NotImplementedError

    def false(self, column: str) -> str:
        """The condition that a boolean column is false."""
        raise NotImplementedError

    def json_field(self, column: str, field: str) -> str:
        """A top-level field of a JSON text column, as text."""
        raise NotImplementedError

    def among(self, sql: Sql, column: str, values: Sequence[Any]) -> str:
        """The condition that ``column`` is one of ``values`` (one parameter)."""
        raise NotImplementedError

    def rows(
        self, sql: Sql, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[Any]]
    ) -> str:
        """A query of ``rows`` with these columns (name, PostgreSQL type), as parameters."""
        raise NotImplementedError

    def skip_locked(self, of: str | None = None) -> str:
        """The suffix of a query that claims rows: the rows another transaction claims are
        passed over (``of``: the alias of the table whose rows are locked)."""
        return ""

    def for_update(self) -> str:
        """The suffix of a query that locks the rows it reads until the end of the write."""
        return ""

    def serialize(self, sql: Sql, key: str) -> str | None:
        """A statement after which the writes that name the same ``key`` wait for this one to
        end, or None where writes never overlap."""
        return None

    def link(self) -> str:
        """The end of a statement of a :class:`~.plans.Chain` that a later one depends on
        (empty where the chain's runner counts the rows it changed)."""
        return ""

    def after(self, part: int) -> str:
        """The condition, in a statement of a :class:`~.plans.Chain`, that its part number
        ``part`` returned a row (empty where a chain runs its statements in turn and stops at
        one that returns none)."""
        return ""


class SqliteDialect(Dialect):
    real, boolean, false_value, big_integer = "REAL", "INTEGER", "0", "INTEGER"

    def placeholder(self, number: int) -> str:
        return f"?{number}"

    def true(self, column: str) -> str:
        return f"{column} = 1"

    def false(self, column: str) -> str:
        return f"{column} = 0"

    def json_field(self, column: str, field: str) -> str:
        return f"CAST(json_extract({column}, '$.{field}') AS TEXT)"

    def among(self, sql: Sql, column: str, values: Sequence[Any]) -> str:
        return f"{column} IN (SELECT value FROM json_each({sql(json.dumps(list(values)))}))"

    def rows(
        self, sql: Sql, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[Any]]
    ) -> str:
        fields = ", ".join(
            f"json_extract(value, '$[{i}]') AS {name}" for i, (name, _) in enumerate(columns)
        )
        return f"SELECT {fields} FROM json_each({sql(json.dumps([list(row) for row in rows]))})"


class PostgresDialect(Dialect):
    locks = True
    real, boolean, false_value, big_integer = "DOUBLE PRECISION", "BOOLEAN", "FALSE", "BIGINT"

    def placeholder(self, number: int) -> str:
        return f"${number}"

    def clock(self) -> str:
        return "extract(epoch from clock_timestamp())"

    def true(self, column: str) -> str:
        return column

    def false(self, column: str) -> str:
        return f"NOT {column}"

    def json_field(self, column: str, field: str) -> str:
        return f"({column}::jsonb ->> '{field}')"

    def among(self, sql: Sql, column: str, values: Sequence[Any]) -> str:
        return f"{column} = ANY({sql(list(values))})"

    def rows(
        self, sql: Sql, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[Any]]
    ) -> str:
        arrays = ", ".join(
            f"{sql([row[i] for row in rows])}::{kind}[]" for i, (_, kind) in enumerate(columns)
        )
        names = ", ".join(name for name, _ in columns)
        return f"SELECT * FROM unnest({arrays}) AS u({names})"

    def skip_locked(self, of: str | None = None) -> str:
        return f" FOR UPDATE{'' if of is None else f' OF {of}'} SKIP LOCKED"

    def for_update(self) -> str:
        return " FOR UPDATE"

    def serialize(self, sql: Sql, key: str) -> str:
        return f"SELECT pg_advisory_xact_lock(hashtextextended({sql(key)}, 0))"

    def link(self) -> str:
        # The rows a later part tests (after): a data-modifying part has none without it.
        return " RETURNING 1"

    def after(self, part: int) -> str:
        # A chain is one statement whose parts see one snapshot: linked by their results.
        return f" AND EXISTS (SELECT 1 FROM {chain_part(part)})"


SQLITE, POSTGRES = SqliteDialect(), PostgresDialect()


class Sql:
    """The parameters of statements being written, and their placeholders.

    ``q(value)`` adds a parameter and returns its placeholder; :meth:`statement` takes the text
    written with them. The statements of one :class:`Sql` are numbered on: the statements of a
    :class:`~.plans.Chain` share theirs (PostgreSQL runs them as one).
    """

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self._marks = dialect.marks
        self.values: list[Any] = []
        self._now: str | None = None
        self.made = 0  #: statements taken so far

    def __call__(self, value: Any) -> str:
        values = self.values
        values.append(value)
        number = len(values)
        return self._marks[number] if number < _MARKS else self.dialect.placeholder(number)

    def now(self) -> str:
        """The database's clock (for SQLite, the server's time, read once per :class:`Sql`)."""
        if self._now is None:
            self._now = self.dialect.clock() or self(time.time())
        return self._now

    def ago(self, seconds: float) -> str:
        """The database's clock ``seconds`` ago."""
        return f"({self.now()} - {self(seconds)})"

    def among(self, column: str, values: Iterable[Any]) -> str:
        return self.dialect.among(self, column, list(values))

    def statement(self, sql: str) -> Statement:
        self.made += 1
        return Statement(sql, tuple(self.values))

    def after_previous(self) -> str:
        """The condition, in a statement of a :class:`~.plans.Chain`, that the statement before
        it (the last one taken) returned a row."""
        return self.dialect.after(self.made - 1)


def chain_part(index: int) -> str:
    """The name of a chain's statement in the one statement PostgreSQL runs."""
    return f"part{index}"
