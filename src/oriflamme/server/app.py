"""The FastAPI application (see docs/server.md): its lifespan (the store, the table manager and
the review service started and stopped with it), middleware and error handlers; the routes are
the routers of ``pages``, ``table_routes``, ``review``, ``lobby``, ``seat_status``, ``lessons``,
``health``, ``metrics_routes`` and ``accounts``; the CSRF rule is ``accounts.csrf``'s
middleware."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from oriflamme import __version__

from . import log_context, metrics
from .accounts.csrf import CsrfGuard
from .accounts.current import posts_limited
from .accounts.passkey_routes import passkeys_router
from .accounts.passwords import warm_up
from .accounts.routes import accounts_router
from .chat_admin_routes import chat_admin_router
from .chat_routes import chat_router
from .deps import STATIC_DIR
from .draining import at_shutdown, hand_over, watch_stop
from .errors import ApiError, QuietLog, unavailable
from .health import health_router
from .lessons.routes import lessons_router
from .limits import BODY_TIMEOUT, MAX_SAVE_BODY, BodyLimit, SecurityHeaders
from .lobby import lobby_router
from .manager import TableManager
from .metrics_routes import metrics_router
from .pages import pages_router
from .player_routes import player_router
from .process_gauges import ProcessGauges
from .push.routes import push_router
from .push.sender import PushSettings
from .push.service import PushService
from .quotas import Quotas
from .request_ids import RequestIds
from .review import Review
from .review_routes import review_router
from .seat_status import status_router
from .storage import Store, StoreUnavailable, open_store
from .table_routes import tables_router
from .tables import BOT, HUMAN, OPEN

log = logging.getLogger("oriflamme.server")
quiet = QuietLog(log)

#: Garbage collector thresholds of a running server: a full collection scans every game, so it
#: must be rare (docs/benchmarks.md, "Server load").
GC_THRESHOLDS = (20_000, 20, 100)
#: Answers at least this long (bytes) are compressed (gzip) for clients that accept it: JSON
#: (replay frames, views) and the client's static files (docs/server.md, "Compression").
COMPRESS_FROM = 1024
SEAT_KINDS = (HUMAN, BOT, OPEN)


def _error_response(error: ApiError) -> JSONResponse:
    metrics.rejected(error.code)
    headers = None if error.retry_after is None else {"Retry-After": str(error.retry_after)}
    return JSONResponse(error.body(), status_code=error.status, headers=headers)


@contextmanager
def _tuned_gc() -> Iterator[None]:
    """Rare collections, and the objects of the start-up frozen out of them, while serving."""
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def _validation_message(exc: RequestValidationError) -> str:
    first = exc.errors()[0] if exc.errors() else {}
    parts = [part for part in first.get("loc", ()) if part != "body"]
    # A seat's kind names the member of the union it was checked as: "seats.1.name", not
    # "seats.1.human.name".
    parts = [
        part for i, part in enumerate(parts)
        if not (part in SEAT_KINDS and i > 0 and isinstance(parts[i - 1], int))
    ]
    where = ".".join(str(part) for part in parts)
    text = str(first.get("msg", "invalid request")).removeprefix("Value error, ")
    return f"{where}: {text}"[:300] if where else text[:300]


def create_app(
    store: Store | str,
    bot_delay: float = 0.8,
    *,
    rate: float = 20.0,
    burst: float = 20.0,
    static_dir: Path = STATIC_DIR,
    tune_gc: bool = True,
    quotas: Quotas | None = None,
    api_docs: bool = False,
    body_timeout: float = BODY_TIMEOUT,
    access_log: bool = False,
) -> FastAPI:
    """The server's app over ``store`` (a store, or its address: ``postgresql://…`` or an
    SQLite path, opened when the app starts and closed when it stops): bots pause ``bot_delay``
    seconds; each IP (HTTP actions) and each WebSocket may send ``rate`` messages a second
    (bursts of ``burst``); ``quotas`` bound what one address may create; a request's body must
    arrive within ``body_timeout`` seconds (0: no deadline). With ``tune_gc`` the
    garbage collector runs rarely while the app serves (the process's settings are restored
    when it stops). Every request gets an id (``request_ids``); with ``access_log`` each is
    logged once answered (JSON logs). ``api_docs`` serves Swagger UI at ``/docs`` (its scripts
    come from a CDN, on this origin: off by default); the OpenAPI schema is always at
    ``/openapi.json``."""
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened = await open_store(store) if isinstance(store, str) else store
        manager = app.state.manager = TableManager(opened, bot_delay, quotas=quotas)
        review = app.state.review = Review(manager, rate, burst)
        push = app.state.push = PushService(opened, manager, PushSettings.from_environment())
        gauges = ProcessGauges(manager, review)
        app.state.draining = False
        loop = asyncio.get_running_loop()

        def stop_taking_work() -> None:
            manager.drain()
            review.drain()

        def drain() -> None:  # in a signal handler: the loop does the rest
            if not app.state.draining:
                log.info("stopping: draining this server process")
                loop.call_soon_threadsafe(stop_taking_work)
            app.state.draining = True

        unwatch = watch_stop(drain)
        # The server, as it shuts down, hands the sockets over a batch at a time (``draining``).
        forget_handover = at_shutdown(lambda: hand_over(manager.connections))
        try:
            await warm_up()
            await manager.start()
            review.start()
            await push.start()
            gauges.start()
            if tune_gc:
                with _tuned_gc():
                    yield
            else:
                yield
        finally:
            try:
                unwatch()
                forget_handover()
                await push.stop()
                await review.stop()
                await manager.stop()
                await gauges.stop()
                if isinstance(store, str):
                    await opened.close()
            finally:
                metrics.process_stopped()  # its live gauges leave the sum, whatever failed

    app = FastAPI(
        title="Oriflamme server",
        version=__version__,
        description="Play Oriflamme online: tables, seats, views and actions (docs/server.md).",
        lifespan=lifespan,
        docs_url="/docs" if api_docs else None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url="/docs/oauth2-redirect" if api_docs else None,
    )
    app.add_middleware(CsrfGuard)
    app.add_middleware(BodyLimit, larger={"/api/tables": MAX_SAVE_BODY}, timeout=body_timeout)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=COMPRESS_FROM, compresslevel=6)
    app.add_middleware(RequestIds, access_log=access_log)  # outermost: ids for every answer

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error_response(ApiError(422, "invalid_request", _validation_message(exc)))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error_response(ApiError(exc.status_code, code, str(exc.detail)[:200]))

    @app.exception_handler(StoreUnavailable)
    async def database_unavailable(request: Request, exc: StoreUnavailable) -> JSONResponse:
        # Every request fails alike while the database is away: one line per 10 s says so.
        metrics.DB_ERRORS.inc()
        quiet.warning("database", "request %s %s answered 503 (request %s): %s",
                      request.method, request.url.path, log_context.REQUEST_ID.get(), exc)
        return _error_response(unavailable())

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        quiet.error(request.url.path, "request %s %s failed (request %s)", request.method,
                    request.url.path, log_context.REQUEST_ID.get(), exc=exc)
        answer = _error_response(ApiError(500, "internal_error", "the server failed"))
        # Answered outside the middleware that stamps the others: stamp it here.
        answer.headers["x-request-id"] = log_context.REQUEST_ID.get() or ""
        return answer

    app.mount("/static", StaticFiles(directory=static_dir, check_dir=False), name="static")
    app.include_router(pages_router(static_dir))
    app.include_router(review_router(static_dir))
    app.include_router(lobby_router())
    app.include_router(player_router(static_dir, rate, burst))
    app.include_router(status_router())
    app.include_router(lessons_router(static_dir, rate, burst))
    app.include_router(tables_router(rate, burst))
    app.include_router(health_router())
    app.include_router(chat_router())
    app.include_router(chat_admin_router())
    app.include_router(push_router(static_dir, rate, burst))
    app.include_router(metrics_router())
    account_posts = posts_limited(rate, burst)
    app.include_router(accounts_router(account_posts))
    app.include_router(passkeys_router(account_posts))

    return app
