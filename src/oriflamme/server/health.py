"""``GET /healthz``: whether this server process can reach its database and is not stopping
(for load balancers)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

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
    async def health(request: Request, manager: ManagerDep) -> Health | JSONResponse:
        """200 while this server process can reach its database, 503 otherwise (for load
        balancers); 503 ``{"status": "draining"}`` once it was asked to stop."""
        if getattr(request.app.state, "draining", False):
            draining = Health(
                status="draining", server=manager.server_id, bots_playing=manager.scheduler.busy
            )
            return JSONResponse(draining.model_dump(), status_code=503)
        await manager.store.ping()
        return Health(status="ok", server=manager.server_id, bots_playing=manager.scheduler.busy)

    return router
