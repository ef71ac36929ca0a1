"""When a human seat is played for by its stand-in, and when its creator may hand it to a bot.

Two rules, each with its own limit (docs/server.md, "Open tables, clocks and absent players"):

- **Away**: a player who connected and left (on every server) keeps their decisions for the
  table's ``absent_after``; then the stand-in plays them.
- **No-show**: a player who never connected (a stranger who took an open seat and vanished, or a
  creator who set up a table and left) keeps them for the table's ``no_show_after``, counted
  from when the seat was taken. Every table strangers can join has a turn clock or such a
  limit (by default :data:`NO_SHOW_DEFAULT`), so that no ghost stalls it.

The creator may hand a seat set at the table's creation to a bot whenever nobody is connected
to it (the creator was given its link); a seat someone joined only once away or never come for
the table's limit (:data:`HAND_OVER_GRACE` where the table has none). Storage applies the same
rules to its deadlines (``storage.*_sql``) and to the hand-over itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .storage import HandOverGrace, SeatRecord

if TYPE_CHECKING:
    from .tables import Table

HUMAN = "human"
#: Why the stand-in plays a decision: the turn clock ran out, the player has been away too long,
#: or never came (``sources`` stores it with the move).
CLOCK, AWAY, NO_SHOW = "clock", "away", "no_show"
#: Seconds a seat whose player never connected keeps its decisions, at tables strangers can
#: join that set neither a clock nor a limit of their own.
NO_SHOW_DEFAULT = 300.0
#: Seconds a joined player must have been away, or never come, before their seat may be handed
#: to a bot, at tables without such a limit (absent_after or no_show_after null).
HAND_OVER_GRACE = HandOverGrace(absent=120.0, no_show=NO_SHOW_DEFAULT)


def taken_at(table: Table, record: SeatRecord) -> float:
    """When the seat was taken: joined, or set at the table's creation."""
    return record.joined if record.joined is not None else table.created


def away(table: Table, seat: int, now: float) -> bool:
    """Whether a human seat has been away so long that its stand-in plays for it."""
    record = table.seats[seat]
    limit = table.options.absent_after
    if record.kind != HUMAN or record.away_since is None or limit is None:
        return False
    # As stored, not as connected here: once the view says "back", the database has cleared
    # the absence and no stand-in's action can be stored any more.
    return now >= record.away_since + limit


def no_show(table: Table, seat: int, now: float) -> bool:
    """Whether a human seat whose player never came has reached the table's no-show limit."""
    record = table.seats[seat]
    limit = table.options.no_show_after
    if record.kind != HUMAN or record.arrived is not None or limit is None:
        return False
    return now >= taken_at(table, record) + limit


def stood_in(table: Table, seat: int, now: float) -> bool:
    """Whether the seat's stand-in plays its decisions now (away, or never came)."""
    return away(table, seat, now) or no_show(table, seat, now)


def _hand_over_from(table: Table, record: SeatRecord) -> float | None:
    """From when a joined human seat may be handed over (while nobody is connected to it)."""
    if record.away_since is not None:
        limit = table.options.absent_after
        return record.away_since + (HAND_OVER_GRACE.absent if limit is None else limit)
    if record.arrived is None and record.joined is not None:
        limit = table.options.no_show_after
        return record.joined + (HAND_OVER_GRACE.no_show if limit is None else limit)
    return None  # connected, or left a moment ago and not marked away yet


def replaceable(table: Table, seat: int, now: float) -> bool:
    """Whether the creator may hand this human seat to a bot now (``"expect": "away"``)."""
    record = table.seats[seat]
    if record.kind != HUMAN or table.connected(seat):
        return False
    if record.joined is None:
        return True  # set at the creation: the creator holds its link anyway
    start = _hand_over_from(table, record)
    return start is not None and now >= start


def next_change(table: Table, now: float) -> float | None:
    """The soonest moment after ``now`` when a seat becomes away, a no-show or replaceable
    (views show those): when to tell the table's connections."""
    moments = []
    for record in table.seats:
        if record.kind != HUMAN:
            continue
        if record.away_since is not None and table.options.absent_after is not None:
            moments.append(record.away_since + table.options.absent_after)
        if record.arrived is None and table.options.no_show_after is not None:
            moments.append(taken_at(table, record) + table.options.no_show_after)
        if record.joined is not None and (start := _hand_over_from(table, record)) is not None:
            moments.append(start)
    future = [moment for moment in moments if moment > now]
    return min(future) if future else None


def deadline(table: Table) -> tuple[float, str] | None:
    """When the stand-in may play the current decision (epoch seconds), and why: the soonest of
    the turn clock (per decision, or the seat's time bank), the end of the deciding player's
    allowed absence (if away) and their no-show limit (if they never came), as storage computes
    it (``storage.*_sql``); None when no human decides in a game under way, or no limit
    applies."""
    seat = table.game.current_player
    if seat is None or table.waiting() or table.closed:
        return None
    record = table.seats[seat]
    if record.kind != HUMAN:
        return None
    options = table.options
    limits = []
    if options.clock is not None:
        limits.append((table.decision_since + options.clock, CLOCK))
    if options.bank is not None:  # a time bank: what the seat had left when it began
        left = options.bank if record.bank_left is None else record.bank_left
        limits.append((table.decision_since + left, CLOCK))
    if record.away_since is not None and options.absent_after is not None:
        limits.append((record.away_since + options.absent_after, AWAY))
    if record.arrived is None and options.no_show_after is not None:
        limits.append((taken_at(table, record) + options.no_show_after, NO_SHOW))
    return min(limits) if limits else None
