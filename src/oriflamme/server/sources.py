"""Who played each action of a game: the player, their bot seat, or the stand-in (and why).

A stored fact (docs/server.md, "Who played each move"): every action is stored with its source
(``actions.source``), announced with it to every server (``storage.Change.source``) and kept by
each table for its current game (``Table.sources``). The views list the stand-in's moves
(``stand_ins``: whose, why, and the log lines each wrote), so that the log marks them and a
returning player sees what was played for them; the replay's frames say who played each step
(``by``, ``reason``).

A source is ``"player"``, ``"bot"`` or ``"stand_in:<reason>"``, the reason being ``clock`` (the
turn clock ran out), ``away`` (the player left for longer than the table allows) or ``no_show``
(the player never came within the table's limit). Actions stored before storage version 8, or
replayed from a saved game, have none (None: unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import absence
from .absence import AWAY, CLOCK, NO_SHOW

if TYPE_CHECKING:
    from .tables import Table

PLAYER, BOT, STAND_IN = "player", "bot", "stand_in"
#: Why the stand-in played: the clock ran out, the player was away, or never came.
REASONS = (CLOCK, AWAY, NO_SHOW)


def stand_in(reason: str) -> str:
    """The source of a stand-in's action made for ``reason``."""
    return f"{STAND_IN}:{reason}"


def parse(source: str | None) -> tuple[str | None, str | None]:
    """``(by, reason)`` of a stored source: ``("stand_in", "clock")``, ``("player", None)``, or
    ``(None, None)`` when unknown."""
    if not source:
        return None, None
    by, _, reason = source.partition(":")
    return by, reason or None


def stand_in_reason(table: Table, seat: int, now: float) -> str:
    """Why the stand-in plays ``seat``'s decision now: the player is away, never came, or (if
    neither) the clock ran out."""
    if absence.away(table, seat, now):
        return AWAY
    if absence.no_show(table, seat, now):
        return NO_SHOW
    return CLOCK


def stand_in_moves(table: Table, log_size: int, shown: int) -> list[dict[str, Any]]:
    """The stand-in's moves of the table's current game, for a view whose log shows the last
    ``shown`` of its ``log_size`` lines: each with its step, the seat played for, why, and the
    indices (in the view's log) of the lines it wrote."""
    first = log_size - shown
    moves = []
    for step, source in enumerate(table.sources):
        by, reason = parse(source)
        if by != STAND_IN:
            continue
        seat, start, end = table.move_at(step)
        moves.append(
            {
                "step": step,
                "seat": seat,
                "reason": reason,
                "log": [line - first for line in range(max(start, first), end)],
            }
        )
    return moves
