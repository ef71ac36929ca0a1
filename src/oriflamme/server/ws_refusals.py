"""Log lines of refused WebSocket messages and connections (docs/server.md, "Logs"): one line
at INFO with the refusal's code and the request id the client received, and the table and seat
(never a token nor what the message said), so that a player's report leads to it.

A client can send many messages a second, each refused: each connection logs a burst of
:data:`BURST` lines, then :data:`RATE` a second; the refusals left out are counted in the next
line logged."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from . import log_context
from .throttle import TokenBucket

log = logging.getLogger("oriflamme.ws")

RATE = 1.0  #: refusal lines a second, on average, once a connection's burst is spent
BURST = 10.0  #: refusal lines a connection may log at once


class RefusalLog:
    """The refusal lines of one connection (or of all the connections refused at opening)."""

    __slots__ = ("_bucket", "_skipped")

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._bucket = TokenBucket(RATE, BURST, clock)
        self._skipped = 0

    def refused(self, code: str, what: str = "message") -> None:
        """The ``what`` being handled (``message`` or ``connection``) was refused with
        ``code``."""
        if not self._bucket.take():
            self._skipped += 1
            return
        skipped, self._skipped = self._skipped, 0
        seat = log_context.SEAT.get()  # none for a spectator
        log.info(
            "refused a %s: %s (table %s, seat %s, request %s)%s",
            what, code, log_context.TABLE.get() or "-", "-" if seat is None else seat,
            log_context.REQUEST_ID.get() or "-",
            f" ({skipped} more refusals not logged)" if skipped else "",
            extra={"event": "refusal", "code": code},
        )
