"""``GET /metrics``: the server's metrics in Prometheus's text format (docs/server.md,
"Metrics"), for loopback and the networks of ``--metrics-from`` only: anyone else is told
there is no such page."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from . import metrics, process_gauges
from .deps import ManagerDep
from .errors import ApiError
from .manager import TableManager
from .review import Review
from .storage import StoreUnavailable


async def sample(manager: TableManager, review: Review) -> None:
    """Set the gauges read at a scrape: what waits in the whole database (left as last seen
    while the database is away), and what this process holds (every process writes its own
    every second too: ``process_gauges``)."""
    process_gauges.write(manager, review)
    try:
        metrics.BOTS_WAITING.set(await manager.store.waiting_bot_turns())
        metrics.ANALYSES_QUEUED.set(await manager.store.queued_analyses())
    except StoreUnavailable:
        metrics.DB_ERRORS.inc()


def metrics_router() -> APIRouter:
    """The metrics' route; who may read them is read from the environment once."""
    router = APIRouter()
    allowed = metrics.allowed_networks()

    @router.get("/metrics", include_in_schema=False)
    async def read_metrics(request: Request, manager: ManagerDep) -> Response:
        client = request.client.host if request.client else ""
        if client not in allowed:
            raise ApiError(404, "not_found", "Not Found")
        await sample(manager, request.app.state.review)
        body, content_type = metrics.exposition()
        return Response(body, media_type=content_type)

    return router
