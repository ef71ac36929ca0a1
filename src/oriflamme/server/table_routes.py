"""The tables' JSON API and WebSocket (docs/server.md): create a table, take or hand over a
seat, close it, read a view, act, start the next game, follow it live.

- ``POST /api/tables`` — a new table and its first game;
- ``POST /api/tables/{id}/join``, ``/close``, ``/seats/{n}/bot``, ``/actions``, ``/rematch``;
- ``GET /api/tables/{id}`` — its summary (public); ``GET /api/tables/{id}/view`` — a view;
- ``WS /ws/{id}`` — the views of a seat or spectator, pushed on every change.

The routes only translate: the table manager checks and does everything.
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, WebSocket
from fastapi.responses import Response

from oriflamme.api import ConfigError, GameConfig

from . import players, thinking
from .deps import (
    ManagerDep,
    SignedInDep,
    TableDep,
    address_key,
    error_answers,
    manager_of,
    origin_of,
)
from .errors import ApiError, too_many_requests
from .protocol import (
    ActRequest,
    BotRequest,
    BotSeatIn,
    CloseRequest,
    CreateTableRequest,
    CreateTableResponse,
    JoinRequest,
    JoinResponse,
    Lang,
    OpenSeatIn,
    RematchRequest,
    SeatCreated,
    TableSummary,
    View,
)
from .tables import (
    BOT,
    HUMAN,
    OPEN,
    SEED_BOUND,
    GameSetup,
    SeatSpec,
    TableOptions,
    setup_from_record,
)
from .throttle import BucketsByKey, TokenBucket
from .time_bank import clock_options, is_day_setting
from .views import summary, view_for
from .ws import serve_socket

_ERRORS = error_answers(400, 401, 403, 404, 409, 413, 422, 429)


def _json(text: str) -> Response:
    """An answer already encoded (views are encoded once and shared)."""
    return Response(text, media_type="application/json")


def tables_router(rate: float = 20.0, burst: float = 20.0) -> APIRouter:
    """The routes of the tables: each address (HTTP actions) and each WebSocket may send
    ``rate`` messages a second, in bursts of ``burst``."""
    router = APIRouter()
    by_ip = BucketsByKey(rate, burst)

    async def throttle(request: Request) -> None:
        """Refuse HTTP actions beyond the rate allowed to one IP address."""
        if not by_ip.take(address_key(request)):
            raise too_many_requests()

    Throttled = Depends(throttle)

    @router.post(
        "/api/tables",
        status_code=201,
        response_model=CreateTableResponse,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Create a table and its first game",
    )
    async def create_table(
        request: CreateTableRequest, http: Request, manager: ManagerDep, account: SignedInDep
    ) -> CreateTableResponse:
        """One private link per human seat, a spectator link and a creator token (shown once).

        With ``save``, the game goes on from that save, position or replay. A signed-in
        creator may own a seat (``{"kind": "human", "account": true}``) and create a rated
        table (``rated``; refusals: ``rated_custom_deal``, ``rated_hints``,
        ``rated_needs_accounts``, ``rated_variant``, ``rated_cards``)."""
        players.check_creation(request, account)
        players.check_account_name(request, account)
        specs = []
        for seat in request.seats:
            if isinstance(seat, BotSeatIn):
                if not thinking.level_available(seat.level):
                    raise ApiError(422, "unknown_level", f"bot level {seat.level} is not available")
                specs.append(SeatSpec(BOT, seat.name, seat.level))
            elif isinstance(seat, OpenSeatIn):
                specs.append(SeatSpec(OPEN))
            elif seat.account and account is not None:
                specs.append(SeatSpec(HUMAN, account.name, account_id=account.account_id))
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
        clock = clock_options(request.clock)
        absent = None if request.absent_after is None else float(request.absent_after)
        if "absent_after" not in request.model_fields_set and is_day_setting(**clock):
            absent = None  # players of games over days come and go: their clock is what counts
        options = TableOptions(
            public=request.public,
            **clock,
            absent_after=absent,
            stand_in=request.stand_in,
            no_show_after=request.no_show_limit(),
            rated=request.rated,
            min_reputation=request.min_reputation,
            chat=request.chat,
        )
        new = await manager.create(
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

    @router.post(
        "/api/tables/{table_id}/join",
        status_code=201,
        response_model=JoinResponse,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Take an open seat",
    )
    async def join(
        table: TableDep,
        request: JoinRequest,
        http: Request,
        manager: ManagerDep,
        account: SignedInDep,
    ) -> JoinResponse:
        """Take the open seat ``seat`` (or the first open one) under ``name``. The seat's
        private token and link are given once. ``409 seat_taken`` if someone was first.

        A signed-in player joins under their account's name and owns the seat; a rated table
        or one asking for a reputation is for signed-in players (``401 signed_out``), an
        account takes one seat of a table (``409 already_seated``) and needs the table's
        minimum reputation (``409 reputation_too_low``)."""
        await players.check_join(manager.store, table, account)
        if account is not None:
            name = account.name
        elif request.name is not None:
            name = request.name
        else:
            raise ApiError(422, "name_required", "name: say the name you play under")
        seat, token = await manager.join(
            table, name, request.seat, origin_of(http),
            account_id=None if account is None else account.account_id,
        )
        return JoinResponse(
            table_id=table.id,
            seat=seat,
            name=name,
            token=token,
            url=f"/t/{table.id}?seat={token}",
        )

    @router.post(
        "/api/tables/{table_id}/close",
        response_model=TableSummary,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Close a table whose seats are not all taken (creator only)",
    )
    async def close(table: TableDep, request: CloseRequest, manager: ManagerDep) -> TableSummary:
        """It leaves the lobby and nobody plays at it; ``409 already_started`` once every
        seat is taken."""
        await manager.close(table, request.creator_token)
        return TableSummary.model_validate(summary(table))

    @router.get(
        "/api/tables/{table_id}/view",
        response_model=View,
        responses=_ERRORS,
        summary="The current view of a seat or spectator",
    )
    async def get_view(
        table: TableDep,
        manager: ManagerDep,
        token: Annotated[str, Query(max_length=64, description="a seat or spectator token")],
        lang: Annotated[Lang | None, Query(description="default: the table's language")] = None,
    ) -> Response:
        """The view the token's holder may see (a seat's own, or the public one)."""
        identity = await manager.identify(table, token)
        return _json(view_for(table, identity, lang or table.lang))

    @router.post(
        "/api/tables/{table_id}/actions",
        response_model=View,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Play an action for your seat",
    )
    async def act(table: TableDep, request: ActRequest, manager: ManagerDep) -> Response:
        """Apply the action if it is legal now; answer with the seat's new view."""
        identity = await manager.identify(table, request.token)
        await manager.act(table, identity, request.action, request.step, request.game_number)
        return _json(view_for(table, identity, table.lang))

    @router.post(
        "/api/tables/{table_id}/seats/{seat}/bot",
        response_model=TableSummary,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Hand an open seat, or a human nobody is connected to, to a bot (creator only)",
    )
    async def hand_to_bot(
        table: TableDep, seat: int, request: BotRequest, manager: ManagerDep
    ) -> TableSummary:
        """``expect`` says what the seat must be: ``open`` (``409 seat_taken`` once someone
        joined it) or ``away`` (``409 seat_active`` while its player is connected, or, for a
        seat someone joined, until away or never come for the table's limit). The seat's old
        link then only watches (the public view, ``handed_over``). An open seat taken by a bot
        is no longer open (the game starts once none is)."""
        await manager.hand_to_bot(table, request.creator_token, seat, request.level, request.expect)
        return TableSummary.model_validate(summary(table))

    @router.post(
        "/api/tables/{table_id}/rematch",
        response_model=View,
        responses=_ERRORS,
        dependencies=[Throttled],
        summary="Start the next game at the table",
    )
    async def rematch(table: TableDep, request: RematchRequest, manager: ManagerDep) -> Response:
        """Once the game is over: same seats and links, a new deal. Answers with the view."""
        await manager.rematch(table, request.token, request.game_number)
        identity = await manager.identify(table, request.token)
        return _json(view_for(table, identity, table.lang))

    @router.get(
        "/api/tables/{table_id}",
        response_model=TableSummary,
        responses=_ERRORS,
        summary="The table's seats and game progress (public)",
    )
    async def get_summary(table: TableDep) -> TableSummary:
        return TableSummary.model_validate(summary(table))

    @router.websocket("/ws/{table_id}")
    async def socket(
        websocket: WebSocket, table_id: str, token: str = "", lang: str | None = None
    ) -> None:
        await serve_socket(
            websocket, manager_of(websocket), table_id, token[:64], lang, TokenBucket(rate, burst)
        )

    return router


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
