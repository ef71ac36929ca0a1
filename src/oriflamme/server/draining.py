"""A server process asked to stop (SIGTERM, Ctrl-C) *drains* before it exits
(docs/server.md, "Rolling restarts"): it claims no new bot decision or analysis; its server
stops accepting connections, hands its WebSockets over a batch at a time (each closed with code
1012, "Service Restart", on which the pages reconnect at once, to any process), lets the
requests under way finish (``serve --shutdown-grace``); then the app stops: the bot decisions
under way are finished for a few seconds more, the others' claims given back. Meanwhile
``/healthz`` answers ``503 {"status": "draining"}``.

Why a batch at a time: closed all at once, the sockets of a process reach the process left as
one burst, and the last of them waits for the first views of all the others (with 100 tables,
most of the "switch wait" of docs/benchmarks.md). Closed at :data:`HANDOVER_RATE` a second, a
page reconnects while the pages still to go keep playing here.

uvicorn handles the stop signals; :func:`watch_stop` puts a hook in front of its handler (the
app starts inside uvicorn's signal capture), in a single process and in each worker alike. The
server's shutdown (``stopping.CleanStopServer``) runs the app's hand-over (:func:`at_shutdown`).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import Awaitable, Callable, Sequence
from types import FrameType
from typing import Any, Protocol

log = logging.getLogger("oriflamme.server")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: Sockets handed over a second (a batch every :data:`HANDOVER_STEP` seconds).
HANDOVER_RATE = 100
HANDOVER_STEP = 0.05
#: However many sockets there are, the last is handed over within this many seconds.
HANDOVER_LIMIT = 3.0


class Closable(Protocol):
    """A connection that can be told to go to another process."""

    def hand_over(self) -> None: ...


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


#: What the app of this process hands over when its server shuts down (:func:`hand_over_all`).
_handovers: list[Callable[[], Awaitable[int]]] = []


def at_shutdown(handover: Callable[[], Awaitable[int]]) -> Callable[[], None]:
    """Have ``handover`` run when this process's server shuts down, after it stopped accepting
    connections and before it closes those left (:func:`hand_over_all`); returns the function
    that takes it back (the app stopped)."""
    _handovers.append(handover)
    return lambda: _handovers.remove(handover) if handover in _handovers else None


async def hand_over_all() -> None:
    """Run the hand-overs registered (the server's shutdown calls this: ``stopping``)."""
    for handover in list(_handovers):
        try:
            await handover()
        except Exception:
            log.exception("draining: the hand-over of the connections failed")


async def hand_over(
    connections: Callable[[], Sequence[Closable]],
    *,
    rate: float = HANDOVER_RATE,
    step: float = HANDOVER_STEP,
    limit: float = HANDOVER_LIMIT,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> int:
    """Tell every connection to go elsewhere, ``rate`` a second (faster if there are so many
    that it would take more than ``limit`` seconds); ``connections()`` gives those still open.
    Returns how many were told."""
    waiting = list(connections())
    per_step = max(1, round(rate * step), -(-len(waiting) // max(1, round(limit / step))))
    told = 0
    while waiting:
        batch, waiting = waiting[:per_step], waiting[per_step:]
        for connection in batch:
            connection.hand_over()
        told += len(batch)
        if waiting:
            await sleep(step)
            # Those that left meanwhile are not told; none opened here is missed either (a
            # connection opened while draining is sent on at once by the socket's route).
            still = {id(c) for c in connections()}
            waiting = [c for c in waiting if id(c) in still]
    if told:
        log.info("draining: %d connection(s) handed over to other processes", told)
    return told
