"""The lobby's queries, for both backends: which public tables are listed, in which order, and
how many one address has listed (its quota).

The order is fair to creators: each table is ranked among its creator's (its origin's) listed
tables, the newest first; the lobby lists every creator's newest table (rank 1), then every
creator's second newest, and so on, the newest first within a rank. A page ends at a place
``(rank, listed, id)`` and the next page starts after it (a cursor), so pages stay consistent
while tables come and go. A table created without an origin counts as a creator of its own.
"""

from __future__ import annotations

import time
from typing import Any

from .base import LobbyFilter, LobbyPlace
from .postgres_sql import NOW

#: Columns of a lobby row, in order (the seats are read separately).
LOBBY_COLUMNS = (
    "id, config, clock, created, lang, hints, stand_in, absent_after, listed, place,"
    " no_show_after"
)


class _Params:
    """Query parameters and their numbered placeholders (``?n`` in SQLite, ``$n`` in
    PostgreSQL), which a query may use more than once."""

    def __init__(self, postgres: bool) -> None:
        self.postgres = postgres
        self.values: list[Any] = []

    def __call__(self, value: Any) -> str:
        self.values.append(value)
        return f"${len(self.values)}" if self.postgres else f"?{len(self.values)}"


def _config_field(postgres: bool, name: str) -> str:
    """A top-level field of the configuration (stored as JSON text), as text."""
    if postgres:
        return f"(t.config::jsonb ->> '{name}')"
    return f"CAST(json_extract(t.config, '$.{name}') AS TEXT)"


def _listed(postgres: bool, p: _Params, within: float) -> str:
    """The conditions of a table in the lobby: public, not closed, listed in the last ``within``
    seconds by the database's clock (an SQLite file's clock is its one server's), with an open
    seat."""
    if postgres:
        public, closed, since = "t.public", "NOT t.closed", f"{NOW} - {p(within)}"
    else:
        public, closed, since = "t.public = 1", "t.closed = 0", p(time.time() - within)
    return (
        f"{public} AND {closed} AND t.listed > {since} AND EXISTS"
        " (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = 'open')"
    )


def lobby_query(
    postgres: bool,
    within: float,
    limit: int,
    only: LobbyFilter,
    after: LobbyPlace | None,
) -> tuple[str, list[Any]]:
    """The query of one lobby page and its parameters (columns: :data:`LOBBY_COLUMNS`)."""
    p = _Params(postgres)
    where = [_listed(postgres, p, within)]
    if only.players is not None:
        where.append(f"{_config_field(postgres, 'players')} = {p(str(only.players))}")
    if only.cards is not None:
        cards = f"COALESCE({_config_field(postgres, 'cards')}, 'base')"
        if only.cards == "custom":
            where.append(f"{cards} NOT IN ('base', 'embrasement')")
        else:
            where.append(f"{cards} = {p(only.cards)}")
    if only.clock is not None:
        where.append("t.clock IS NOT NULL" if only.clock else "t.clock IS NULL")
    if only.hints is not None:
        where.append(f"t.hints = {p(only.hints if postgres else int(only.hints))}")
    page = ""
    if after is not None:
        rank, listed, table_id = p(after.rank), p(after.listed), p(after.table_id)
        page = (
            f"WHERE place > {rank} OR (place = {rank} AND (listed < {listed}"
            f" OR (listed = {listed} AND id > {table_id})))"
        )
    sql = (
        "WITH ranked AS (SELECT t.id, t.config, t.clock, t.created, t.lang, t.hints,"
        " t.stand_in, t.absent_after, t.listed, t.no_show_after, ROW_NUMBER() OVER (PARTITION BY"
        " CASE WHEN t.origin = '' THEN t.id ELSE t.origin END"
        " ORDER BY t.listed DESC, t.id) AS place"
        f" FROM tables t WHERE {' AND '.join(where)})"
        f" SELECT {LOBBY_COLUMNS} FROM ranked {page}"
        f" ORDER BY place, listed DESC, id LIMIT {p(limit)}"
    )
    return sql, p.values


def listed_count_query(postgres: bool, origin: str, within: float) -> tuple[str, list[Any]]:
    """How many tables of ``origin`` the lobby lists (one count, for its quota)."""
    p = _Params(postgres)
    sql = (
        f"SELECT COUNT(*) FROM tables t WHERE t.origin = {p(origin)} AND"
        f" {_listed(postgres, p, within)}"
    )
    return sql, p.values
