"""How long a decision waits, with its player connected nowhere, before their push."""

from __future__ import annotations

#: A per-decision clock at least this long (seconds) is a day clock: its decisions are pushed
#: at once.
DAY_CLOCK_FROM = 3600.0
#: The default wait of other decisions before their push (seconds).
DEFAULT_AFTER = 60.0


def is_day_clock(clock: float | None, bank: float | None) -> bool:
    """Whether a table plays over days: its per-decision clock is an hour or more.

    Stands in for the clocks' own ``is_day_clock`` (time banks, issue #29 section 2): this is
    the one place that decides it for pushes."""
    return clock is not None and clock >= DAY_CLOCK_FROM


def push_after(clock: float | None, bank: float | None, after: float = DEFAULT_AFTER) -> float:
    """Seconds a decision of a table with this clock waits, nobody connected, before its push:
    none for a day clock, ``after`` otherwise (untimed tables too)."""
    return 0.0 if is_day_clock(clock, bank) else after
