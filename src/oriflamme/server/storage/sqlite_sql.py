"""The SQL the SQLite store shares between its methods (see :mod:`.sqlite`): statement
builders, the quotas' queries, and the updates of a decision's deadline."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..names import name_key
from .base import AnalysisRecord, HandOverGrace, SeatRecord, Turn

#: One SQL statement and its parameters.
Statement = tuple[str, tuple[Any, ...]]

#: The columns of an :class:`AnalysisRecord`, in its fields' order.
ANALYSIS_COLUMNS = "table_id, game, status, progress, steps"


def analysis_from_row(row: Sequence[Any]) -> AnalysisRecord:
    return AnalysisRecord(row[0], row[1], row[2], row[3], tuple(json.loads(row[4])))


def seat_insert(table_id: str, seat: SeatRecord) -> Statement:
    return (
        "INSERT INTO seats (table_id, seat, kind, name, level, token_hash, name_key)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (table_id, seat.seat, seat.kind, seat.name, seat.level, seat.token_hash,
         name_key(seat.name)),
    )


#: The columns of a :class:`SeatRecord`, in its fields' order.
SEAT_COLUMNS = "seat, kind, name, level, token_hash, away_since, joined, arrived"


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
        # The soonest of the clock, the end of the seat's allowed absence and its no-show limit
        # (NULL if none applies).
        return TIMED_DEADLINE, (now, table_id, table_id, turn.seat, table_id, turn.seat)
    return "NULL", ()


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


#: A human decision's deadline: its clock from now (params: now, table) or its seat's limits
#: (params: table, seat, table, seat); NULL if none applies.
TIMED_DEADLINE = (
    f"(SELECT MIN(d) FROM (SELECT ? + clock AS d FROM tables WHERE id = ?"
    f" UNION ALL {seat_limits('?', '?')}))"
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
    " WHEN 'human' THEN (SELECT MIN(d) FROM (SELECT ? + clock AS d FROM tables"
    f" WHERE id = games.table_id UNION ALL {seat_limits('games.table_id', 'games.turn_seat')}))"
    " END"
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
#: A seat back (or come for the first time): its decision's deadline is its clock's again
#: (params: table, table, seat).
BACK_DEADLINE = (
    "UPDATE games SET turn_deadline = turn_since"
    " + (SELECT clock FROM tables WHERE id = games.table_id)"
    f" WHERE {LATEST} AND finished = 0 AND turn_bot = 0 AND turn_seat = ?"
    " AND turn_deadline IS NOT NULL"
)


def hand_over_update(
    table_id: str, seat: SeatRecord, grace: HandOverGrace, alive: float
) -> Statement:
    """Make the human seat ``seat.seat`` the bot ``seat`` if it may be handed over now: no server
    that beat in the last ``alive`` seconds holds a connection of it, and it was set at the
    table's creation, or has been away, or never came, for the table's limit (``grace``'s where
    the table sets none). Its token digest stays: the old link watches."""
    now = time.time()
    return (
        "UPDATE seats SET kind = ?, name = ?, level = ?, name_key = ?, away_since = NULL"
        " WHERE table_id = ? AND seat = ? AND kind = 'human' AND NOT EXISTS (SELECT 1"
        " FROM presence p JOIN servers v ON v.id = p.server WHERE p.table_id = seats.table_id"
        " AND p.seat = seats.seat AND p.connections > 0 AND v.heartbeat >= ?) AND (joined IS NULL"
        " OR (away_since IS NOT NULL AND away_since"
        " + COALESCE((SELECT absent_after FROM tables WHERE id = seats.table_id), ?) <= ?)"
        " OR (away_since IS NULL AND arrived IS NULL AND joined"
        " + COALESCE((SELECT no_show_after FROM tables WHERE id = seats.table_id), ?) <= ?))"
        " RETURNING seat",
        (
            seat.kind,
            seat.name,
            seat.level,
            name_key(seat.name),
            table_id,
            seat.seat,
            now - alive,
            grace.absent,
            now,
            grace.no_show,
            now,
        ),
    )

