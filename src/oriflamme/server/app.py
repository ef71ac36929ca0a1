"""The FastAPI application: pages, the JSON API, the WebSocket (see docs/server.md)."""

from __future__ import annotations

import gc
import logging
import secrets
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from oriflamme import __version__
from oriflamme.api import (
    CARD_TEXTS,
    CardType,
    ConfigError,
    GameConfig,
    kind_name,
)

from . import thinking
from .addresses import client_key, origin_digest
from .errors import ApiError, QuietLog, too_many_requests, unavailable
from .lessons.routes import lessons_router
from .limits import BODY_TIMEOUT, MAX_SAVE_BODY, PAGE_POLICY, BodyLimit, SecurityHeaders
from .lobby import lobby_router
from .manager import Quotas, TableManager
from .protocol import (
    ActRequest,
    BotRequest,
    BotSeatIn,
    CardInfo,
    CloseRequest,
    CreateTableRequest,
    CreateTableResponse,
    ErrorBody,
    Health,
    JoinRequest,
    JoinResponse,
    Lang,
    OpenSeatIn,
    RematchRequest,
    SeatCreated,
    TableSummary,
    View,
)
from .review import Review, review_router
from .seat_status import status_router
from .storage import Store, StoreUnavailable, open_store
from .tables import (
    BOT,
    HUMAN,
    OPEN,
    SEED_BOUND,
    GameSetup,
    SeatSpec,
    Table,
    TableOptions,
    setup_from_record,
)
from .throttle import BucketsByKey, TokenBucket
from .views import summary, view_for
from .ws import serve_socket

log = logging.getLogger("oriflamme.server")
quiet = QuietLog(log)

STATIC_DIR = Path(__file__).parent / "static"
TABLE_ID = PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="the table's id")
_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 403, 404, 409, 413, 422, 429)
}
#: Garbage collector thresholds of a running server: a full collection scans every game, so it
#: must be rare (docs/benchmarks.md, "Server load").
GC_THRESHOLDS = (20_000, 20, 100)
#: Answers at least this long (bytes) are compressed (gzip) for clients that accept it: JSON
#: (replay frames, views) and the client's static files (docs/server.md, "Compression").
COMPRESS_FROM = 1024
SEAT_KINDS = (HUMAN, BOT, OPEN)


async def _table_of(request: Request, table_id: Annotated[str, TABLE_ID]) -> Table:
    manager: TableManager = request.app.state.manager
    return await manager.get(table_id)


TableDep = Annotated[Table, Depends(_table_of)]


def _error_response(error: ApiError) -> JSONResponse:
    return JSONResponse(error.body(), status_code=error.status)


def _json(text: str) -> Response:
    """An answer already encoded (views are encoded once and shared)."""
    return Response(text, media_type="application/json")


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
) -> FastAPI:
    """The server's app over ``store`` (a store, or its address: ``postgresql://…`` or an
    SQLite path, opened when the app starts and closed when it stops): bots pause ``bot_delay``
    seconds; each IP (HTTP actions) and each WebSocket may send ``rate`` messages a second
    (bursts of ``burst``); ``quotas`` bound what one address may create; a request's body must
    arrive within ``body_timeout`` seconds (0: no deadline). With ``tune_gc`` the
    garbage collector runs rarely while the app serves (the process's settings are restored
    when it stops). ``api_docs`` serves Swagger UI at ``/docs`` (its scripts come from a CDN,
    on this origin: off by default); the OpenAPI schema is always at ``/openapi.json``."""
    by_ip = BucketsByKey(rate, burst)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened = await open_store(store) if isinstance(store, str) else store
        manager = app.state.manager = TableManager(opened, bot_delay, quotas=quotas)
        review = app.state.review = Review(manager, rate, burst)
        try:
            await manager.start()
            review.start()
            if tune_gc:
                with _tuned_gc():
                    yield
            else:
                yield
        finally:
            await review.stop()
            await manager.stop()
            if isinstance(store, str):
                await opened.close()

    app = FastAPI(
        title="Oriflamme server",
        version=__version__,
        description="Play Oriflamme online: tables, seats, views and actions (docs/server.md).",
        lifespan=lifespan,
        docs_url="/docs" if api_docs else None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url="/docs/oauth2-redirect" if api_docs else None,
    )
    app.add_middleware(BodyLimit, larger={"/api/tables": MAX_SAVE_BODY}, timeout=body_timeout)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=COMPRESS_FROM, compresslevel=6)

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
        quiet.warning("database", "request %s %s answered 503: %s", request.method,
                      request.url.path, exc)
        return _error_response(unavailable())

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        quiet.error(request.url.path, "request %s %s failed", request.method, request.url.path,
                    exc=exc)
        return _error_response(ApiError(500, "internal_error", "the server failed"))

    async def throttle(request: Request) -> None:
        """Refuse HTTP actions beyond the rate allowed to one IP address."""
        if not by_ip.take(client_key(request.client.host if request.client else "?")):
            raise too_many_requests()

    Throttled = Depends(throttle)

    # -- pages -----------------------------------------------------------------------------
    def page(name: str) -> FileResponse:
        path = static_dir / name
        if not path.is_file():
            raise ApiError(404, "not_found", "this page is not installed")
        headers = {"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_POLICY}
        return FileResponse(path, headers=headers)

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def game_page(table_id: Annotated[str, TABLE_ID]) -> FileResponse:
        return page("game.html")

    app.mount("/static", StaticFiles(directory=static_dir, check_dir=False), name="static")
    app.include_router(review_router(static_dir))
    app.include_router(lobby_router())
    app.include_router(status_router())
    app.include_router(lessons_router(static_dir, rate, burst))

    # -- API -------------------------------------------------------------------------------
    @app.post(
        "/api/tables",
        status_code=201,
        response_model=CreateTableResponse,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Create a table and its first game",
    )
    async def create_table(request: CreateTableRequest, http: Request) -> CreateTableResponse:
        """One private link per human seat, a spectator link and a creator token (shown once).

        With ``save``, the game goes on from that save, position or replay."""
        specs = []
        for seat in request.seats:
            if isinstance(seat, BotSeatIn):
                if not thinking.level_available(seat.level):
                    raise ApiError(422, "unknown_level", f"bot level {seat.level} is not available")
                specs.append(SeatSpec(BOT, seat.name, seat.level))
            elif isinstance(seat, OpenSeatIn):
                specs.append(SeatSpec(OPEN))
            else:
                specs.append(SeatSpec(HUMAN, seat.name))
        if not thinking.level_available(request.stand_in):
            raise ApiError(422, "unknown_level", f"bot level {request.stand_in} is not available")
        if request.save is not None:
            setup = setup_from_record(request.save, request.players)
        else:
            setup = GameSetup(
                _config(request), _seed(request.seed), custom_deal=request.custom_deal
            )
        options = TableOptions(
            public=request.public,
            clock=None if request.clock is None else float(request.clock.per_decision),
            absent_after=None if request.absent_after is None else float(request.absent_after),
            stand_in=request.stand_in,
            no_show_after=request.no_show_limit(),
        )
        new = await _manager(app).create(
            setup, request.lang, specs, origin_of(http), options, hints=request.hints
        )
        base = f"/t/{new.table.id}"
        return CreateTableResponse(
            table_id=new.table.id,
            creator_token=new.creator_token,
            spectator_token=new.spectator_token,
            spectator_url=f"{base}?watch={new.spectator_token}",
            seats=[
                SeatCreated(
                    seat=s.seat,
                    kind=s.kind,
                    name=s.name,
                    level=s.level,
                    token=new.seat_tokens.get(s.seat),
                    url=f"{base}?seat={new.seat_tokens[s.seat]}" if s.kind == HUMAN else None,
                )
                for s in new.table.seats
            ],
        )

    @app.post(
        "/api/tables/{table_id}/join",
        status_code=201,
        response_model=JoinResponse,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Take an open seat",
    )
    async def join(table: TableDep, request: JoinRequest, http: Request) -> JoinResponse:
        """Take the open seat ``seat`` (or the first open one) under ``name``. The seat's
        private token and link are given once. ``409 seat_taken`` if someone was first."""
        seat, token = await _manager(app).join(
            table, request.name, request.seat, origin_of(http)
        )
        return JoinResponse(
            table_id=table.id,
            seat=seat,
            name=request.name,
            token=token,
            url=f"/t/{table.id}?seat={token}",
        )

    @app.post(
        "/api/tables/{table_id}/close",
        response_model=TableSummary,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Close a table whose seats are not all taken (creator only)",
    )
    async def close(table: TableDep, request: CloseRequest) -> TableSummary:
        """It leaves the lobby and nobody plays at it; ``409 already_started`` once every
        seat is taken."""
        await _manager(app).close(table, request.creator_token)
        return TableSummary.model_validate(summary(table))

    @app.get(
        "/api/tables/{table_id}/view",
        response_model=View,
        responses=_ERRORS,
        summary="The current view of a seat or spectator",
    )
    async def get_view(
        table: TableDep,
        token: Annotated[str, Query(max_length=64, description="a seat or spectator token")],
        lang: Annotated[Lang | None, Query(description="default: the table's language")] = None,
    ) -> Response:
        """The view the token's holder may see (a seat's own, or the public one)."""
        identity = await _manager(app).identify(table, token)
        return _json(view_for(table, identity, lang or table.lang))

    @app.post(
        "/api/tables/{table_id}/actions",
        response_model=View,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Play an action for your seat",
    )
    async def act(table: TableDep, request: ActRequest) -> Response:
        """Apply the action if it is legal now; answer with the seat's new view."""
        identity = await _manager(app).identify(table, request.token)
        await _manager(app).act(
            table, identity, request.action, request.step, request.game_number
        )
        return _json(view_for(table, identity, table.lang))

    @app.post(
        "/api/tables/{table_id}/seats/{seat}/bot",
        response_model=TableSummary,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Hand an open seat, or a human nobody is connected to, to a bot (creator only)",
    )
    async def hand_to_bot(table: TableDep, seat: int, request: BotRequest) -> TableSummary:
        """``expect`` says what the seat must be: ``open`` (``409 seat_taken`` once someone
        joined it) or ``away`` (``409 seat_active`` while its player is connected, or, for a
        seat someone joined, until away or never come for the table's limit). The seat's old
        link then only watches (the public view, ``handed_over``). An open seat taken by a bot
        is no longer open (the game starts once none is)."""
        await _manager(app).hand_to_bot(
            table, request.creator_token, seat, request.level, request.expect
        )
        return TableSummary.model_validate(summary(table))

    @app.post(
        "/api/tables/{table_id}/rematch",
        response_model=View,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Start the next game at the table",
    )
    async def rematch(table: TableDep, request: RematchRequest) -> Response:
        """Once the game is over: same seats and links, a new deal. Answers with the view."""
        await _manager(app).rematch(table, request.token, request.game_number)
        identity = await _manager(app).identify(table, request.token)
        return _json(view_for(table, identity, table.lang))

    @app.get(
        "/api/tables/{table_id}",
        response_model=TableSummary,
        responses=_ERRORS,
        summary="The table's seats and game progress (public)",
    )
    async def get_summary(table: TableDep) -> TableSummary:
        return TableSummary.model_validate(summary(table))

    @app.get("/api/cards", response_model=dict[str, CardInfo], summary="Every card type")
    async def cards(lang: Lang = "en") -> dict[str, CardInfo]:
        """Name, kind, ability text and notes of every card type, for hover help."""
        return {
            t.slug: CardInfo(
                name=CARD_TEXTS[t].name(lang),
                kind=kind_name(t, lang),
                text=CARD_TEXTS[t].text(lang),
                notes=CARD_TEXTS[t].notes(lang),
            )
            for t in CardType
        }

    @app.websocket("/ws/{table_id}")
    async def socket(
        websocket: WebSocket, table_id: str, token: str = "", lang: str | None = None
    ) -> None:
        await serve_socket(
            websocket, _manager(app), table_id, token[:64], lang, TokenBucket(rate, burst)
        )

    @app.get(
        "/healthz",
        response_model=Health,
        responses={503: {"model": ErrorBody}},
        summary="Whether this server can reach its database",
    )
    async def health() -> Health:
        """200 while this server process can reach its database, 503 otherwise (for load
        balancers)."""
        manager = _manager(app)
        await manager.store.ping()
        return Health(status="ok", server=manager.server_id, bots_playing=manager.scheduler.busy)

    return app


def origin_of(request: Request) -> str:
    """A digest of the client's address, an IPv6 client's /64 (per-address quotas keep no
    address in clear)."""
    return origin_digest(request.client.host if request.client else "?")


def _manager(app: FastAPI) -> TableManager:
    manager: TableManager = app.state.manager
    return manager


def _config(request: CreateTableRequest) -> GameConfig:
    """The configuration a request asks for; 422 ``invalid_config`` if impossible."""
    try:
        return GameConfig(
            players=request.players,
            cards=request.cards if isinstance(request.cards, str) else ",".join(request.cards),
            variant=request.variant,
            edition=request.edition,
            first_player=request.first_player,
        )
    except ConfigError as exc:
        raise ApiError(422, "invalid_config", str(exc)[:300]) from None


def _seed(seed: int | None) -> int:
    return secrets.randbelow(SEED_BOUND) if seed is None else seed
