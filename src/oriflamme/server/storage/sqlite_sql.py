"""The SQL the SQLite store shares between its methods (see :mod:`.sqlite`): statement
builders, the quotas' queries, and the updates of a decision's deadline."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from .base import AnalysisRecord, SeatRecord, Turn

#: One SQL statement and its parameters.
Statement = tuple[str, tuple[Any, ...]]

#: The columns of an :class:`AnalysisRecord`, in its fields' order.
ANALYSIS_COLUMNS = "table_id, game, status, progress, steps"


def analysis_from_row(row: Sequence[Any]) -> AnalysisRecord:
    return AnalysisRecord(row[0], row[1], row[2], row[3], tuple(json.loads(row[4])))


def seat_insert(table_id: str, seat: SeatRecord) -> Statement:
    return (
        "INSERT INTO seats (table_id, seat, kind, name, level, token_hash)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, seat.seat, seat.kind, seat.name, seat.level, seat.token_hash),
    )


def action_insert(table_id: str, game: int, index: int, action: Mapping[str, Any]) -> Statement:
    return (
        "INSERT INTO actions (table_id, game, idx, action) VALUES (?, ?, ?, ?)",
        (table_id, game, index, json.dumps(action)),
    )


#: The unfinished tables of an origin where no human plays.
SELF_PLAYING = (
    "SELECT COUNT(*) FROM tables t WHERE t.origin = ?"
    " AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id"
    " AND s.kind IN ('human', 'open'))"
    " AND EXISTS (SELECT 1 FROM games g WHERE g.table_id = t.id AND g.finished = 0)"
)
#: Tables created before a time whose games have not moved since then either.
ABANDONED = (
    "SELECT t.id FROM tables t WHERE t.created < ? AND NOT EXISTS"
    " (SELECT 1 FROM games g WHERE g.table_id = t.id AND g.turn_since >= ?) LIMIT ?"
)


def deadline_update(table_id: str, turn: Turn, now: float) -> Statement:
    """The SQL and parameters of a turn's deadline: when a bot (or a stand-in) may play it."""
    if turn.bot:
        return "?", (now,)
    if turn.timed and turn.seat is not None:
        # The sooner of the clock and the end of the seat's allowed absence (no such limit: NULL)
        return TIMED_DEADLINE, (now, table_id, table_id, turn.seat)
    return "NULL", ()


#: A human decision's deadline: its clock from now (params: now, table) or its seat's absence
#: ending (params: table, seat); NULL if neither applies.
TIMED_DEADLINE = (
    "(SELECT MIN(d) FROM (SELECT ? + clock AS d FROM tables WHERE id = ?"
    " UNION ALL SELECT s.away_since + t.absent_after FROM seats s JOIN tables t"
    " ON t.id = s.table_id WHERE s.table_id = ? AND s.seat = ? AND s.kind = 'human'))"
)


def turn_update(table_id: str, turn: Turn, where: str, where_params: tuple[Any, ...]) -> Statement:
    now = time.time()
    deadline, deadline_params = deadline_update(table_id, turn, now)
    return (
        "UPDATE games SET finished = ?, turn_step = ?, turn_seat = ?, turn_bot = ?,"
        f" turn_watched = ?, turn_since = ?, turn_deadline = {deadline},"
        f" lease_owner = NULL, lease_until = NULL WHERE {where}",
        (
            int(turn.over),
            turn.step,
            turn.seat,
            int(turn.bot),
            int(turn.watched),
            now,
            *deadline_params,
            *where_params,
        ),
    )


def set_turn_statement(table_id: str, game: int, turn: Turn) -> Statement:
    return turn_update(table_id, turn, "table_id = ? AND number = ?", (table_id, game))


def set_latest_turn_statement(table_id: str, turn: Turn) -> Statement:
    return turn_update(
        table_id,
        turn,
        "table_id = ? AND number = (SELECT MAX(number) FROM games WHERE table_id = ?)",
        (table_id, table_id),
    )


#: The latest game of a table (params: table, table).
LATEST = "table_id = ? AND number = (SELECT MAX(number) FROM games WHERE table_id = ?)"
#: Start the latest game of a table once no seat is open (params: now ×3, table ×3):
#: its turn, stored while it waited for players, becomes a bot's or a timed human's.
START_IF_FULL = (
    "UPDATE games SET turn_since = ?, lease_owner = NULL, lease_until = NULL,"
    " turn_bot = (SELECT kind = 'bot' FROM seats WHERE table_id = games.table_id"
    " AND seat = games.turn_seat),"
    " turn_deadline = CASE (SELECT kind FROM seats WHERE table_id = games.table_id"
    " AND seat = games.turn_seat) WHEN 'bot' THEN ?"
    " WHEN 'human' THEN ? + (SELECT clock FROM tables WHERE id = games.table_id) END"
    f" WHERE {LATEST} AND finished = 0 AND turn_seat IS NOT NULL"
    " AND NOT EXISTS (SELECT 1 FROM seats WHERE table_id = ? AND kind = 'open')"
)
#: The decision of the latest game, if its human seat is away: the sooner of its deadline and
#: the end of the seat's allowed absence (params: table, table).
AWAY_DEADLINE = (
    "UPDATE games SET turn_deadline = (SELECT MIN(d) FROM (SELECT games.turn_deadline AS d"
    " UNION ALL SELECT s.away_since + t.absent_after FROM seats s JOIN tables t"
    " ON t.id = s.table_id WHERE s.table_id = games.table_id AND s.seat = games.turn_seat"
    " AND s.kind = 'human'))"
    f" WHERE {LATEST} AND finished = 0 AND turn_bot = 0 AND turn_seat IS NOT NULL"
    " AND NOT EXISTS (SELECT 1 FROM seats WHERE table_id = games.table_id AND kind = 'open')"
)
#: A seat back: its decision's deadline is its clock's again (params: table, table, seat).
BACK_DEADLINE = (
    "UPDATE games SET turn_deadline = turn_since"
    " + (SELECT clock FROM tables WHERE id = games.table_id)"
    f" WHERE {LATEST} AND finished = 0 AND turn_bot = 0 AND turn_seat = ?"
    " AND turn_deadline IS NOT NULL"
)
