"""Handing a seat to a bot: what the creator expects of the seat, and why a hand-over is refused.

The creator names what they expect (``"open"``: a seat nobody took yet; ``"away"``: a human
nobody is connected to), so that a request sent from an old view never replaces someone: an
open seat that a stranger has just joined is theirs (``409 seat_taken``), a connected player or
one who joined and has not been away (or never came) for the table's limit keeps their seat
(``409 seat_active``). Storage makes the same checks in the write itself (``Store.fill_seat``,
``Store.hand_over``), so that two servers cannot both decide.
"""

from __future__ import annotations

from typing import Literal

from . import absence
from .errors import ApiError
from .tables import BOT, OPEN, Table

Expect = Literal["open", "away"]


def refusal(table: Table, seat: int, expect: str, now: float) -> ApiError | None:
    """Why the seat may not be handed over as ``expect`` says (None: it may)."""
    kind = table.seats[seat].kind
    if kind == BOT:
        return ApiError(409, "already_bot", "this seat is already played by a bot")
    if expect == "open":
        if kind != OPEN:
            return ApiError(409, "seat_taken", "someone took this seat: it is not open any more")
        return None
    if kind == OPEN:
        return ApiError(
            409, "seat_open", 'this seat is open, nobody plays it: use "expect": "open"'
        )
    if table.connected(seat):
        return ApiError(409, "seat_active", "this player is connected: the seat stays theirs")
    if not absence.replaceable(table, seat, now):
        return ApiError(
            409,
            "seat_active",
            "this player joined the table and may come back: their seat can be handed over once"
            " they have been away, or never came, for the table's limit",
        )
    return None
