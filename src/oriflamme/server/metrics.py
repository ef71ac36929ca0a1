"""What a server process is doing, for Prometheus (``GET /metrics``, docs/server.md "Metrics").

The metrics are module-level, as ``prometheus_client`` wants them. With several worker
processes (``oriflamme serve --workers N``) each process writes its values to files in the
directory ``PROMETHEUS_MULTIPROC_DIR`` (set by ``serve`` before the workers start) and any
process answers a scrape with the sum of all; gauges count live processes only
(``livesum``), or the value last set by any (``mostrecent``) for facts of the whole database.

Recording is cheap (a lock and an addition; a memory-mapped write with workers): it happens on
the hot path of an action.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client import REGISTRY as DEFAULT_REGISTRY

from .addresses import Networks

#: The environment variable of ``prometheus_client``'s directory for several processes.
MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: Who may read ``/metrics`` besides loopback (``--metrics-from``): a list of networks.
METRICS_FROM_ENV = "ORIFLAMME_METRICS_FROM"
#: Addresses that may always read the metrics: this machine.
LOOPBACK = "127.0.0.0/8, ::1"

#: Latencies of actions, from a few milliseconds (one server, SQLite) to a slow database.
_LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Waits of bot decisions: from none (a free worker) to minutes (a flood of bot tables).
_WAIT_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)

ACTIONS = Counter(
    "oriflamme_actions_stored",
    "Actions stored by this server, by who played them (human, bot, stand_in)",
    ["source"],
)
ACTION_STORED = Histogram(
    "oriflamme_action_stored_seconds",
    "Time from an action's arrival (request or bot decision) to its storage",
    buckets=_LATENCY_BUCKETS,
)
ACTION_DELIVERED = Histogram(
    "oriflamme_action_delivered_seconds",
    "Time from an action's arrival to the view that shows it, sent on a socket of this server"
    " (one observation per socket)",
    buckets=_LATENCY_BUCKETS,
)
SOCKETS = Gauge(
    "oriflamme_websockets",
    "Open WebSockets, by role (seat, spectator)",
    ["role"],
    multiprocess_mode="livesum",
)
TABLES = Gauge(
    "oriflamme_tables_in_memory",
    "Tables held in memory (caches of the database)",
    multiprocess_mode="livesum",
)
BOTS_WAITING = Gauge(
    "oriflamme_bot_decisions_waiting",
    "Bot decisions that no server has claimed yet (the whole database, as last seen)",
    multiprocess_mode="mostrecent",
)
BOTS_PLAYING = Gauge(
    "oriflamme_bot_decisions_playing",
    "Bot decisions being thought about",
    multiprocess_mode="livesum",
)
BOT_WAIT = Histogram(
    "oriflamme_bot_decision_wait_seconds",
    "Time from the start of a bot's (or a stand-in's) decision to the start of its thinking",
    buckets=_WAIT_BUCKETS,
)
ANALYSES_QUEUED = Gauge(
    "oriflamme_analyses_queued",
    "Post-game analyses queued and not started (the whole database, as last seen)",
    multiprocess_mode="mostrecent",
)
ANALYSES_RUNNING = Gauge(
    "oriflamme_analyses_running",
    "Post-game analyses being run",
    multiprocess_mode="livesum",
)
HINTS = Gauge(
    "oriflamme_hints",
    "Hints asked for on this server, by state (queued, running)",
    ["state"],
    multiprocess_mode="livesum",
)
DB_CONNECTIONS = Gauge(
    "oriflamme_db_connections",
    "Database connections of this server's pool, by state (in_use, idle); SQLite: none",
    ["state"],
    multiprocess_mode="livesum",
)
DB_ERRORS = Counter(
    "oriflamme_db_errors",
    "Requests and jobs that found the database unavailable",
)
REJECTED = Counter(
    "oriflamme_rejected_requests",
    "Requests and messages refused, by reason (the error code: too_many_requests, too_large,"
    " bad_json, not_your_turn, ...)",
    ["reason"],
)

#: A seat's or a spectator's WebSocket (the ``role`` label of :data:`SOCKETS`).
SEAT, SPECTATOR = "seat", "spectator"
#: Sources of actions (the ``source`` label of :data:`ACTIONS`).
HUMAN, BOT, STAND_IN = "human", "bot", "stand_in"


def action_stored(source: str, arrived: float) -> None:
    """An action that arrived at ``arrived`` (``time.perf_counter()``) was stored now."""
    ACTIONS.labels(source).inc()
    ACTION_STORED.observe(time.perf_counter() - arrived)


def view_delivered(arrived: float) -> None:
    """A view showing the action that arrived at ``arrived`` was sent on a socket now."""
    ACTION_DELIVERED.observe(time.perf_counter() - arrived)


def rejected(reason: str) -> None:
    """A request or message was refused with the error code ``reason``."""
    REJECTED.labels(reason).inc()


def process_stopped(pid: int | None = None) -> None:
    """This process (or the worker process ``pid``, ended) stops: its live gauges leave the
    sum (with several processes)."""
    if os.environ.get(MULTIPROCESS_ENV):
        multiprocess.mark_process_dead(pid or os.getpid())  # type: ignore[no-untyped-call]


def allowed_networks(extra: str | Iterable[str] = "") -> Networks:
    """Who may read the metrics: loopback and ``extra`` (``--metrics-from``; by default the
    networks in $ORIFLAMME_METRICS_FROM)."""
    more = extra or os.environ.get(METRICS_FROM_ENV, "")
    items = [LOOPBACK] + ([more] if isinstance(more, str) else list(more))
    return Networks(", ".join(item for item in items if item))


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus's text format, and its content type: this process's, or the
    sum of every worker's when there are several."""
    if os.environ.get(MULTIPROCESS_ENV):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(DEFAULT_REGISTRY), CONTENT_TYPE_LATEST
