"""Time banks in SQL, for both backends (see :mod:`.dialect` and ``server.time_bank``): the
deadline a seat's bank gives its decision, and the statement that charges a decision's time to
its seat's bank and credits the table's increment.

``seats.bank_left`` is the seat's seconds left at the start of its current decision (or after
its last one); NULL stands for the table's full bank (``tables.bank``), so that seats need no
setting up when a table or a game starts.
"""

from __future__ import annotations

from .base import BankMove
from .dialect import Sql


def bank_limit(q: Sql, table: str, seat: str, since: str) -> str:
    """Rows ``d`` of a human seat's bank deadline for a decision begun at ``since``: none at
    tables without a bank."""
    return (
        f"SELECT {since} + COALESCE(s.bank_left, t.bank) AS d FROM seats s JOIN tables t"
        f" ON t.id = s.table_id WHERE s.table_id = {table} AND s.seat = {seat}"
        " AND s.kind = 'human' AND t.bank IS NOT NULL"
    )


def bank_update(q: Sql, table_id: str, game: int, move: BankMove) -> str:
    """Charge the seat of ``move`` the time since the current decision of game ``game`` began
    (never below 0) and credit it the increment; a new run-out is counted and makes the seat
    away (if it was not). Returns the seat's new bank. Run it before the turn moves on (it
    reads ``turn_since``)."""
    table, now = q(table_id), q.now()
    spent = (
        f"({now} - (SELECT turn_since FROM games WHERE table_id = {table}"
        f" AND number = {q(game)}))"
    )
    left = f"(COALESCE(bank_left, (SELECT bank FROM tables WHERE id = {table})) - {spent})"
    increment = f"COALESCE((SELECT increment FROM tables WHERE id = {table}), 0)"
    out = (
        f", ran_out = ran_out + 1, away_since = COALESCE(away_since, {now})"
        if move.ran_out
        else ""
    )
    return (
        f"UPDATE seats SET bank_left = CASE WHEN {left} > 0 THEN {left} ELSE 0 END"
        f" + {increment}{out} WHERE table_id = {table} AND seat = {q(move.seat)}"
        " AND kind = 'human' RETURNING bank_left, ran_out, away_since"
    )


def reset_banks(q: Sql, table_id: str) -> str:
    """A new game: every seat's bank is full again and its run-outs forgotten."""
    return f"UPDATE seats SET bank_left = NULL, ran_out = 0 WHERE table_id = {q(table_id)}"
