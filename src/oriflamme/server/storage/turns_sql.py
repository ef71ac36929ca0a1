"""The turn each game awaits and its deadline, in SQL for both backends (see :mod:`.dialect`):
the statements that set a turn, start a game once its seats are taken, and move a human's
deadline when their seat is away or back.

A game's ``turn_deadline`` is when a bot (or the stand-in of a late or absent human) may play
its decision: a bot's turn, at once; a timed human's, the soonest of their clock, the end of
their seat's allowed absence and its no-show limit; NULL when nobody may play for them.
"""

from __future__ import annotations

from .bank_sql import bank_limit
from .base import Turn
from .dialect import Sql


def turn_update(q: Sql, table_id: str, game: int | None, turn: Turn) -> str:
    """Set the turn of game ``game`` (None: the table's latest game) and its deadline; a claim
    ends with it."""
    table = q(table_id)
    if turn.bot:
        deadline = q.now()
    elif turn.timed and turn.seat is not None:
        deadline = timed_deadline(q, table, q(turn.seat))
    else:
        deadline = "NULL"
    which = q(game) if game is not None else latest(table)
    return (
        f"UPDATE games SET finished = {q(turn.over)}, turn_step = {q(turn.step)},"
        f" turn_seat = {q(turn.seat)}, turn_bot = {q(turn.bot)},"
        f" turn_watched = {q(turn.watched)}, turn_since = {q.now()}, turn_deadline = {deadline},"
        f" lease_owner = NULL, lease_until = NULL,"
        f" ended = {q.now() if turn.over else 'NULL'}"
        f" WHERE table_id = {table} AND number = {which}"
    )


def latest(table: str) -> str:
    """The number of a table's latest game."""
    return f"(SELECT MAX(number) FROM games WHERE table_id = {table})"


def timed_deadline(q: Sql, table: str, seat: str) -> str:
    """A human decision's deadline: the soonest of its clock from now (per decision, or what
    is left of its seat's time bank), the end of its seat's allowed absence and its no-show
    limit; NULL if none applies."""
    return (
        f"(SELECT MIN(d) FROM (SELECT {q.now()} + clock AS d FROM tables WHERE id = {table}"
        f" UNION ALL {bank_limit(q, table, seat, q.now())}"
        f" UNION ALL {seat_limits(table, seat)}) AS deadlines)"
    )


def seat_limits(table: str, seat: str) -> str:
    """Rows ``d`` of a human seat's limits: when its allowed absence ends (if away), and when
    its no-show limit does (if its player never came); NULL where none applies."""
    return (
        "SELECT s.away_since + t.absent_after AS d FROM seats s JOIN tables t"
        f" ON t.id = s.table_id WHERE s.table_id = {table} AND s.seat = {seat}"
        " AND s.kind = 'human' UNION ALL SELECT COALESCE(s.joined, t.created) + t.no_show_after"
        f" FROM seats s JOIN tables t ON t.id = s.table_id WHERE s.table_id = {table}"
        f" AND s.seat = {seat} AND s.kind = 'human' AND s.arrived IS NULL"
    )


def start_if_full(q: Sql, table_id: str) -> str:
    """Start the latest game of a table once no seat is open: its turn, stored while it waited
    for players, becomes a bot's or a timed human's."""
    d, table, now = q.dialect, q(table_id), q.now()
    return (
        f"UPDATE games SET turn_since = {now}, lease_owner = NULL, lease_until = NULL,"
        " turn_bot = (SELECT kind = 'bot' FROM seats WHERE table_id = games.table_id"
        " AND seat = games.turn_seat),"
        " turn_deadline = CASE (SELECT kind FROM seats WHERE table_id = games.table_id"
        f" AND seat = games.turn_seat) WHEN 'bot' THEN {now}"
        f" WHEN 'human' THEN {timed_deadline(q, 'games.table_id', 'games.turn_seat')} END"
        f" WHERE table_id = {table} AND number = {latest(table)} AND {d.false('finished')}"
        f" AND turn_seat IS NOT NULL AND NOT EXISTS (SELECT 1 FROM seats"
        f" WHERE table_id = {table} AND kind = 'open')"
    )


def away_deadline(q: Sql, table_id: str) -> str:
    """The decision of a table's latest game, if its human seat is away: the sooner of its
    deadline and the end of the seat's allowed absence."""
    d, table = q.dialect, q(table_id)
    return (
        "UPDATE games SET turn_deadline = (SELECT MIN(d) FROM (SELECT games.turn_deadline AS d"
        " UNION ALL SELECT s.away_since + t.absent_after FROM seats s JOIN tables t"
        " ON t.id = s.table_id WHERE s.table_id = games.table_id AND s.seat = games.turn_seat"
        " AND s.kind = 'human') AS deadlines)"
        f" WHERE table_id = {table} AND number = {latest(table)} AND {d.false('finished')}"
        f" AND {d.false('turn_bot')} AND turn_seat IS NOT NULL AND NOT EXISTS"
        " (SELECT 1 FROM seats WHERE table_id = games.table_id AND kind = 'open')"
    )


def back_deadline(q: Sql, table_id: str, seat: int) -> str:
    """A seat back (or come for the first time): its decision's deadline is its clock's
    again (per decision, or its bank's)."""
    d, table = q.dialect, q(table_id)
    return (
        "UPDATE games SET turn_deadline = (SELECT MIN(d) FROM (SELECT games.turn_since + clock"
        " AS d FROM tables WHERE id = games.table_id UNION ALL"
        f" {bank_limit(q, 'games.table_id', 'games.turn_seat', 'games.turn_since')})"
        " AS deadlines)"
        f" WHERE table_id = {table} AND number = {latest(table)} AND {d.false('finished')}"
        f" AND {d.false('turn_bot')} AND turn_seat = {q(seat)} AND turn_deadline IS NOT NULL"
    )
