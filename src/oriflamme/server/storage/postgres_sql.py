"""The SQL the PostgreSQL store shares between its methods (see :mod:`.postgres`): statement
builders and the updates of a decision's deadline. Times come from the database's own clock
(:data:`NOW`), so that every server's claims and heartbeats use one clock."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..names import name_key
from .base import AnalysisRecord, SeatRecord, Turn

#: One SQL statement and its parameters.
Statement = tuple[str, tuple[Any, ...]]
#: The database's clock, in seconds (claims and heartbeats of every server use this one clock).
NOW = "extract(epoch from clock_timestamp())"


@dataclass(frozen=True, slots=True)
class Guard:
    """A quota checked inside a write's transaction: under an advisory lock named ``key`` (the
    same for every write that counts the same thing, on any server), ``count`` must be below
    ``limit``, else the write fails with ``refusal`` and nothing is written."""

    key: str
    count: str
    params: Sequence[Any]
    limit: int
    refusal: Exception

    async def check(self, db: Any) -> None:
        await db.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", self.key)
        if await db.fetchval(self.count, *self.params) >= self.limit:
            raise self.refusal


#: The columns of an :class:`AnalysisRecord`, in its fields' order.
ANALYSIS_COLUMNS = "table_id, game, status, progress, steps"


def analysis_from_row(row: Any) -> AnalysisRecord:
    return AnalysisRecord(
        row["table_id"],
        row["game"],
        row["status"],
        row["progress"],
        tuple(json.loads(row["steps"])),
    )


def seat_insert(table_id: str, seat: SeatRecord) -> Statement:
    return (
        "INSERT INTO seats (table_id, seat, kind, name, level, token_hash, name_key)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7)",
        (table_id, seat.seat, seat.kind, seat.name, seat.level, seat.token_hash,
         name_key(seat.name)),
    )


#: The columns of a :class:`SeatRecord`, in its fields' order.
SEAT_COLUMNS = "seat, kind, name, level, token_hash, away_since, joined, arrived"


def turn_update(table_id: str, game: int | None, turn: Turn, first: int = 1) -> Statement:
    """Set the turn of game ``game`` (None: the table's latest game) and its deadline (when a
    bot or a stand-in may play it); a claim ends with it. Parameters are numbered from
    ``first`` (the statement may be part of a larger one)."""
    params: list[Any] = []

    def arg(value: Any) -> str:
        params.append(value)
        return f"${first + len(params) - 1}"

    table = arg(table_id)
    if turn.bot:
        deadline = NOW
    elif turn.timed and turn.seat is not None:
        deadline = timed_deadline(table, arg(turn.seat))
    else:
        deadline = "NULL"
    latest = f"(SELECT MAX(number) FROM games WHERE table_id = {table})"
    which = arg(game) if game is not None else latest
    return (
        f"UPDATE games SET finished = {arg(turn.over)}, turn_step = {arg(turn.step)},"
        f" turn_seat = {arg(turn.seat)}, turn_bot = {arg(turn.bot)},"
        f" turn_watched = {arg(turn.watched)}, turn_since = {NOW}, turn_deadline = {deadline},"
        f" lease_owner = NULL, lease_until = NULL WHERE table_id = {table} AND number = {which}",
        tuple(params),
    )


def timed_deadline(table: str, seat: str) -> str:
    """A human decision's deadline: the soonest of its clock from now, the end of its seat's
    allowed absence and its no-show limit; NULL if none applies."""
    return (
        f"(SELECT MIN(d) FROM (SELECT {NOW} + clock AS d FROM tables WHERE id = {table}"
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


#: The latest game of table $1.
LATEST = "table_id = $1 AND number = (SELECT MAX(number) FROM games WHERE table_id = $1)"
#: Start the latest game of table $1 once no seat is open: its turn, stored while it waited for
#: players, becomes a bot's or a timed human's.
START_IF_FULL = (
    f"UPDATE games SET turn_since = {NOW}, lease_owner = NULL, lease_until = NULL,"
    " turn_bot = (SELECT kind = 'bot' FROM seats WHERE table_id = games.table_id"
    " AND seat = games.turn_seat),"
    " turn_deadline = CASE (SELECT kind FROM seats WHERE table_id = games.table_id"
    f" AND seat = games.turn_seat) WHEN 'bot' THEN {NOW}"
    f" WHEN 'human' THEN {timed_deadline('games.table_id', 'games.turn_seat')} END"
    f" WHERE {LATEST} AND NOT finished AND turn_seat IS NOT NULL"
    " AND NOT EXISTS (SELECT 1 FROM seats WHERE table_id = $1 AND kind = 'open')"
)
#: The decision of the latest game of table $1, if its human seat is away: the sooner of its
#: deadline and the end of the seat's allowed absence.
AWAY_DEADLINE = (
    "UPDATE games SET turn_deadline = (SELECT MIN(d) FROM (SELECT games.turn_deadline AS d"
    " UNION ALL SELECT s.away_since + t.absent_after FROM seats s JOIN tables t"
    " ON t.id = s.table_id WHERE s.table_id = games.table_id AND s.seat = games.turn_seat"
    " AND s.kind = 'human') AS deadlines)"
    f" WHERE {LATEST} AND NOT finished AND NOT turn_bot AND turn_seat IS NOT NULL"
    " AND NOT EXISTS (SELECT 1 FROM seats WHERE table_id = $1 AND kind = 'open')"
)
#: Seat $2 of table $1 is back (or came for the first time): its decision's deadline is its
#: clock's again.
BACK_DEADLINE = (
    "UPDATE games SET turn_deadline = turn_since"
    " + (SELECT clock FROM tables WHERE id = games.table_id)"
    f" WHERE {LATEST} AND NOT finished AND NOT turn_bot AND turn_seat = $2"
    " AND turn_deadline IS NOT NULL"
)


def action_insert(
    table_id: str, game: int, index: int, action: Mapping[str, Any]
) -> Statement:
    return (
        "INSERT INTO actions (table_id, game, idx, action) VALUES ($1, $2, $3, $4)",
        (table_id, game, index, json.dumps(action)),
    )


#: Make the human seat $2 of table $1 the bot ($3 kind, $4 name, $5 level, $6 name key) if it
#: may be handed over now: no server that beat in the last $7 seconds holds a connection of it,
#: and it was set at the table's creation, or has been away, or never came, for the table's
#: limit (else $8 seconds away, $9 seconds never come). Its token digest stays: the old link
#: watches.
HAND_OVER = (
    "UPDATE seats SET kind = $3, name = $4, level = $5, name_key = $6, away_since = NULL"
    " WHERE table_id = $1 AND seat = $2 AND kind = 'human' AND NOT EXISTS (SELECT 1"
    " FROM presence p JOIN servers v ON v.id = p.server WHERE p.table_id = seats.table_id"
    f" AND p.seat = seats.seat AND p.connections > 0 AND v.heartbeat >= {NOW} - $7)"
    " AND (joined IS NULL OR (away_since IS NOT NULL AND away_since"
    f" + COALESCE((SELECT absent_after FROM tables WHERE id = $1), $8) <= {NOW})"
    " OR (away_since IS NULL AND arrived IS NULL AND joined"
    f" + COALESCE((SELECT no_show_after FROM tables WHERE id = $1), $9) <= {NOW}))"
    " RETURNING seat"
)
