"""``GET /healthz``: whether this server process can reach its database (for load balancers)."""

from __future__ import annotations

from fastapi import APIRouter

from .deps import ManagerDep, error_answers
from .protocol import Health


def health_router() -> APIRouter:
    """The health check's route."""
    router = APIRouter()

    @router.get(
        "/healthz",
        response_model=Health,
        responses=error_answers(503),
        summary="Whether this server can reach its database",
    )
    async def health(manager: ManagerDep) -> Health:
        """200 while this server process can reach its database, 503 otherwise (for load
        balancers)."""
        await manager.store.ping()
        return Health(status="ok", server=manager.server_id, bots_playing=manager.scheduler.busy)

    return router
