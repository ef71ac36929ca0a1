"""The lobby's queries, for both backends: which public tables are listed, in which order, and
how many one address has listed (its quota).

The order is fair to creators: each table is ranked among its creator's (its origin's) listed
tables, the newest first; the lobby lists every creator's newest table (rank 1), then every
creator's second newest, and so on, the newest first within a rank. A page ends at a place
``(rank, listed, id)`` and the next page starts after it (a cursor), so pages stay consistent
while tables come and go. A table created without an origin counts as a creator of its own.
"""

from __future__ import annotations

from .base import LobbyFilter, LobbyPlace
from .dialect import Sql, Statement

#: Columns of a lobby row, in order (the seats are read separately).
LOBBY_COLUMNS = (
    "id, config, clock, created, lang, hints, stand_in, absent_after, listed, place,"
    " no_show_after, rated, min_reputation, bank, increment"
)


def _listed(q: Sql, within: float) -> str:
    """The conditions of a table in the lobby: public, not closed, listed in the last ``within``
    seconds by the database's clock (an SQLite file's clock is its one server's), with an open
    seat."""
    d = q.dialect
    return (
        f"{d.true('t.public')} AND {d.false('t.closed')} AND t.listed > {q.ago(within)}"
        " AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = 'open')"
    )


def lobby_query(
    q: Sql,
    within: float,
    limit: int,
    only: LobbyFilter,
    after: LobbyPlace | None,
) -> Statement:
    """The query of one lobby page (columns: :data:`LOBBY_COLUMNS`)."""
    field = q.dialect.json_field
    where = [_listed(q, within)]
    if only.players is not None:
        where.append(f"{field('t.config', 'players')} = {q(str(only.players))}")
    if only.cards is not None:
        cards = f"COALESCE({field('t.config', 'cards')}, 'base')"
        if only.cards == "custom":
            where.append(f"{cards} NOT IN ('base', 'embrasement')")
        else:
            where.append(f"{cards} = {q(only.cards)}")
    if only.clock is not None:
        has = "(t.clock IS NOT NULL OR t.bank IS NOT NULL)"  # per decision, or a time bank
        where.append(has if only.clock else f"NOT {has}")
    if only.hints is not None:
        where.append(f"t.hints = {q(only.hints)}")
    page = ""
    if after is not None:
        rank, listed, table_id = q(after.rank), q(after.listed), q(after.table_id)
        page = (
            f"WHERE place > {rank} OR (place = {rank} AND (listed < {listed}"
            f" OR (listed = {listed} AND id > {table_id})))"
        )
    return q.statement(
        "WITH ranked AS (SELECT t.id, t.config, t.clock, t.created, t.lang, t.hints,"
        " t.stand_in, t.absent_after, t.listed, t.no_show_after, t.rated, t.min_reputation,"
        " t.bank, t.increment, ROW_NUMBER() OVER (PARTITION BY"
        " CASE WHEN t.origin = '' THEN t.id ELSE t.origin END"
        " ORDER BY t.listed DESC, t.id) AS place"
        f" FROM tables t WHERE {' AND '.join(where)})"
        f" SELECT {LOBBY_COLUMNS} FROM ranked {page}"
        f" ORDER BY place, listed DESC, id LIMIT {q(limit)}"
    )


def listed_count_query(q: Sql, origin: str, within: float) -> Statement:
    """How many tables of ``origin`` the lobby lists (one count, for its quota)."""
    return q.statement(
        f"SELECT COUNT(*) FROM tables t WHERE t.origin = {q(origin)} AND {_listed(q, within)}"
    )
