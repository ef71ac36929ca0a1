"""Time banks (Fischer clocks): each seat has a bank of seconds that shrinks while it decides
and gains the table's increment after each of its decisions; when the bank of the deciding
seat runs out, the stand-in plays (docs/server.md, "Clocks and time banks").

Storage is the authority (``storage.bank_sql``): ``seats.bank_left`` holds a seat's seconds
left at the start of its current decision (or after its last one; NULL: the full bank), and
the deadline of a decision is ``games.turn_since`` plus that. This module reads a table's copy
of that state for views, decides what a stand-in's move means (a run-out), and names the
presets.

A seat whose bank ran out counts as away until its player acts again (or comes back): its
away time starts then, so the stand-in keeps playing for it after the table's allowed absence.
Each such run-out is counted (``seats.ran_out``); at a rated table a seat that ran out
:data:`RUN_OUTS_LEAVE` times in a game counts as having left it (``rating_outcome``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from . import sources
from .absence import CLOCK, HUMAN
from .storage import BankCharged, BankMove

if TYPE_CHECKING:
    from .tables import Table

DAY = 86400.0
#: Clocks of at least this many seconds (per decision, bank or increment) are "day clocks":
#: games played over hours or days, whose players are told of their turn at once.
DAY_CLOCK_FROM = 3600.0
#: Run-outs in one game after which a seat at a rated table counts as having left it.
RUN_OUTS_LEAVE = 3


@dataclass(frozen=True, slots=True)
class Bank:
    """A table's time bank: seconds each seat starts with, seconds added after each decision."""

    bank: float
    increment: float


#: Named presets. "daily": the turn-based games of BGA (about a day per decision): a bank of
#: 3 days and 1 day more after each decision.
PRESETS = {"daily": Bank(3 * DAY, DAY)}


class ClockRequest(Protocol):
    """A clock asked for at a table's creation (``protocol.ClockIn``: one kind is set)."""

    @property
    def per_decision(self) -> int | None: ...
    @property
    def bank(self) -> float | None: ...
    @property
    def increment(self) -> float | None: ...
    @property
    def preset(self) -> str | None: ...


def clock_options(choice: ClockRequest | None) -> dict[str, float | None]:
    """The ``TableOptions`` fields of the clock asked for at a table's creation."""
    if choice is None or choice.per_decision is not None:
        return {"clock": None if choice is None else float(choice.per_decision or 0)}
    preset = PRESETS[choice.preset] if choice.preset is not None else None
    bank = preset.bank if preset is not None else float(choice.bank or 0)
    increment = preset.increment if preset is not None else float(choice.increment or 0)
    return {"clock": None, "bank": bank, "increment": increment}


def preset_name(bank: float | None, increment: float | None) -> str | None:
    """The name of the preset with this bank and increment, if any."""
    for name, preset in PRESETS.items():
        if (bank, increment) == (preset.bank, preset.increment):
            return name
    return None


def is_day_clock(table: Table) -> bool:
    """Whether the table is played over days (the daily preset, or a per-decision time, bank or
    increment of an hour or more): its players are told of their turn at once."""
    options = table.options
    return is_day_setting(options.clock, options.bank, options.increment)


def is_day_setting(
    clock: float | None = None, bank: float | None = None, increment: float | None = None
) -> bool:
    """Whether a clock of these settings (seconds per decision, or a bank and its increment)
    is a day clock (:func:`is_day_clock`)."""
    return max(clock or 0.0, bank or 0.0, increment or 0.0) >= DAY_CLOCK_FROM


def has_bank(table: Table) -> bool:
    return table.options.bank is not None


def bank_left(table: Table, seat: int) -> float | None:
    """Seconds the seat's bank held at the start of its current decision (or after its last
    one); None at tables without a bank or for bot seats."""
    bank = table.options.bank
    record = table.seats[seat]
    if bank is None or record.kind != HUMAN:
        return None
    return bank if record.bank_left is None else record.bank_left


def run_out(table: Table, seat: int, source: str) -> bool:
    """Whether the stand-in's move ``source`` for ``seat`` is a new run-out of its bank: played
    because the clock ran out, while the seat's previous decision in this game was its
    player's own (the stand-in playing on for a seat already out is the same run-out)."""
    if not has_bank(table) or sources.parse(source) != (sources.STAND_IN, CLOCK):
        return False
    return _last_decision(table, seat)[0] != sources.STAND_IN


def _last_decision(table: Table, seat: int) -> tuple[str | None, str | None]:
    """Who made the seat's last decision in the current game, and why (``sources.parse``);
    ``(None, None)`` if it made none yet."""
    for step in range(len(table.game.history) - 1, -1, -1):
        if table.move_at(step)[0] == seat:
            return sources.parse(table.sources[step])
    return None, None


def bank_move(table: Table, source: str) -> BankMove | None:
    """What storage charges for the current decision, played by ``source``: the deciding
    human seat's bank at a table with one (whether a new run-out too); None otherwise."""
    seat = table.game.current_player
    if seat is None or bank_left(table, seat) is None:
        return None
    return BankMove(seat, run_out(table, seat, source))


def charged(table: Table, seat: int, bank: BankCharged) -> None:
    """Take the seat's bank as storage left it after its decision (into this server's copy;
    the other servers read the seats again)."""
    record = table.seats[seat]
    table.seats[seat] = replace(
        record, bank_left=bank.bank_left, ran_out=bank.ran_out, away_since=bank.away_since
    )


def out_of_time(table: Table, seat: int) -> bool:
    """Whether the seat ran out of time and its player has not acted (nor come back) since:
    it counts as away (the stand-in's last move for it was for the clock, and storage has kept
    it away since)."""
    if not has_bank(table) or table.seats[seat].away_since is None:
        return False
    return _last_decision(table, seat) == (sources.STAND_IN, CLOCK)


def counts_as_left(table: Table, seat: int, extra: int = 0) -> bool:
    """Whether the seat ran out of time so often (``extra`` run-outs not yet stored) that, at a
    rated table, it counts as having left the game."""
    return table.rated and table.seats[seat].ran_out + extra >= RUN_OUTS_LEAVE


def clock_info(table: Table, deadline: float | None) -> dict[str, Any] | None:
    """The table's clock for views (``ClockView``): its kind, its setting and ``deadline``."""
    options = table.options
    if options.clock is None and options.bank is None:
        return None
    return {
        "kind": "bank" if options.bank is not None else "per_decision",
        "per_decision": options.clock,
        "bank": options.bank,
        "increment": options.increment,
        "preset": preset_name(options.bank, options.increment),
        "deadline": deadline,
    }
