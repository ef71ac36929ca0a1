"""A server process asked to stop (SIGTERM, Ctrl-C) *drains* before it exits
(docs/server.md, "Rolling restarts"): uvicorn stops accepting connections, closes the
WebSockets with code 1012 ("Service Restart", on which the pages reconnect at once, to any
process), lets the requests under way finish (``serve --shutdown-grace``); then the app stops:
the bot decisions under way are finished for a few seconds more, the others' claims given
back. Meanwhile ``/healthz`` answers ``503 {"status": "draining"}``.

uvicorn handles the stop signals; :func:`watch_stop` puts a hook in front of its handler (the
app starts inside uvicorn's signal capture), in a single process and in each worker alike.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

log = logging.getLogger("oriflamme.server")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def watch_stop(on_stop: Callable[[], None]) -> Callable[[], None]:
    """Call ``on_stop`` when a stop signal arrives, then the handler it replaces; returns the
    function that puts the replaced handlers back. Signals reach the main thread only: from
    another thread (an app run by a test client) nothing is watched."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous: dict[int, Any] = {}

    def handle(sig: int, frame: FrameType | None) -> None:
        on_stop()
        before = previous.get(sig)
        if callable(before):
            before(sig, frame)
        else:  # nobody handled it before (no uvicorn around): what it did, it does
            signal.signal(sig, before if before is not None else signal.SIG_DFL)
            signal.raise_signal(sig)

    for sig in STOP_SIGNALS:
        previous[sig] = signal.signal(sig, handle)

    def restore() -> None:
        for sig, handler in previous.items():
            if signal.getsignal(sig) is handle:
                signal.signal(sig, handler)

    return restore
