"""How long a decision waits, with its player connected nowhere, before their push."""

from __future__ import annotations

from ..time_bank import is_day_setting

#: The default wait of other decisions before their push (seconds).
DEFAULT_AFTER = 60.0


def push_after(
    clock: float | None,
    bank: float | None,
    increment: float | None = None,
    after: float = DEFAULT_AFTER,
) -> float:
    """Seconds a decision of a table with this clock (seconds per decision, or a time bank and
    its increment) waits, nobody connected, before its push: none for a day clock
    (:func:`~oriflamme.server.time_bank.is_day_setting`), ``after`` otherwise (untimed tables
    too)."""
    return 0.0 if is_day_setting(clock, bank, increment) else after
