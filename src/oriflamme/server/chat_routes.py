"""The table talk's HTTP routes (docs/server.md, "Chat"); the messages themselves travel over
the table's WebSocket:

- ``GET /api/tables/{id}/chat`` — a channel's history (and the seats the reader muted);
- ``POST /api/tables/{id}/chat/mutes`` — a seat mutes or unmutes another, for itself;
- ``POST /api/tables/{id}/chat/{number}/report`` — report a message to the admins;
- ``GET /api/tables/{id}/games/{n}/chat`` — the players' messages of a finished game, for its
  replay.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam

from .chat import check_may_read, message_json
from .chat_models import (
    GameChat,
    MuteRequest,
    Mutes,
    Reported,
    ReportRequest,
    clean_reason,
    reporter_key,
)
from .deps import ManagerDep, SignedInDep, TableDep, address_key, error_answers
from .errors import ApiError, too_many_requests
from .protocol import MAX_GAME, ChatHistory
from .replay_links import opens_replay
from .review import Review
from .storage import CHAT_OFF, PLAYERS
from .tables import Identity, Role
from .throttle import BucketsByKey

#: Mutes and reports an address may send: 2 a second, in bursts of 10.
POST_RATE, POST_BURST = 2.0, 10.0
#: The messages a replay shows at most.
REPLAY_MESSAGES = 1000
NUMBER = PathParam(ge=1, le=2**31 - 1, description="the message's number at its table")
GAME_NUMBER = PathParam(ge=1, le=MAX_GAME, description="the game's number at the table")


def chat_router() -> APIRouter:
    router = APIRouter()
    by_address = BucketsByKey(POST_RATE, POST_BURST)

    async def throttle(request: Request) -> None:
        if not by_address.take(address_key(request)):
            raise too_many_requests()

    Throttled = Depends(throttle)

    @router.get(
        "/api/tables/{table_id}/chat",
        response_model=ChatHistory,
        responses=error_answers(400, 401, 403, 404, 422, 503),
        summary="The last messages of a table's chat channel",
    )
    async def chat_history(
        table: TableDep,
        manager: ManagerDep,
        token: str = Query(min_length=1, max_length=128),
        channel: Literal["players", "spectators"] = "players",
        before: int | None = Query(default=None, ge=1, le=2**31 - 1),
    ) -> dict[str, Any]:
        """The last 200 messages of ``channel`` (before the message ``before``), oldest
        first, without those of the seats the reader muted: the players' channel for its
        players (and its spectators at a table whose chat is "open"), the spectators' for
        everyone at the table."""
        identity = await manager.identify(table, token)
        messages = await manager.chat.history(table, identity, channel, before)
        return {
            "channel": channel,
            "messages": [message_json(m) for m in messages],
            "muted": await manager.chat.mutes(identity, table),
        }

    @router.post(
        "/api/tables/{table_id}/chat/mutes",
        response_model=Mutes,
        responses=error_answers(400, 401, 403, 404, 422, 429, 503),
        dependencies=[Throttled],
        summary="Mute (or unmute) another seat's messages, for your seat only",
    )
    async def mute(table: TableDep, manager: ManagerDep, request: MuteRequest) -> dict[str, Any]:
        """Your seat stops (or starts again) receiving seat ``seat``'s messages, live and in
        the history; the others still see them."""
        identity = await manager.identify(table, request.token)
        muted = await manager.chat.mute(table, identity, request.seat, request.muted)
        return {"muted": muted}

    @router.post(
        "/api/tables/{table_id}/chat/{number}/report",
        status_code=201,
        response_model=Reported,
        responses=error_answers(400, 401, 403, 404, 409, 422, 429, 503),
        dependencies=[Throttled],
        summary="Report a message to the server's admins",
    )
    async def report(
        table: TableDep,
        manager: ManagerDep,
        number: Annotated[int, NUMBER],
        request: ReportRequest,
        http: Request,
        account: SignedInDep,
    ) -> dict[str, Any]:
        """Once per reporter (a signed-in account, else a seat, else the spectator's
        address) and message that the reporter may read."""
        identity = await manager.identify(table, request.token)
        reason = clean_reason(request.reason)
        message = await manager.store.chat_message(table.id, number)
        if message is None or not _readable(table, identity, message.channel):
            raise ApiError(404, "unknown_message", "this table has no such message")
        if message.deleted:
            raise ApiError(409, "message_deleted", "this message was already removed")
        reporter = reporter_key(identity, account, address_key(http))
        if not await manager.store.report_chat(table.id, number, reporter, reason):
            raise ApiError(409, "already_reported", "you already reported this message")
        return {"table_id": table.id, "number": number}

    @router.get(
        "/api/tables/{table_id}/games/{number}/chat",
        response_model=GameChat,
        responses=error_answers(401, 404, 409, 422, 503),
        summary="The players' messages of a finished game (its replay shows them)",
    )
    async def game_chat(
        table: TableDep,
        manager: ManagerDep,
        http: Request,
        number: Annotated[int, GAME_NUMBER],
        token: str = Query(min_length=1, max_length=128),
    ) -> dict[str, Any]:
        """What the players said during game ``number``, once it is over, to whoever may open
        its replay (the talk is public once the game is: no card is hidden any more). A seat
        that muted another does not get that seat's messages here either."""
        identity = Identity(Role.SPECTATOR)
        if not opens_replay(table.replay_key, table.id, number, token):
            identity = await manager.identify(table, token)
        review: Review = http.app.state.review
        await review.replays.finished(table, number)  # 404 unknown_game, 409 not_over
        muter = identity.seat if identity.role is Role.SEAT else None
        messages = [] if table.options.chat == CHAT_OFF else await manager.store.game_chat(
            table.id, number, PLAYERS, REPLAY_MESSAGES, muter
        )
        return {"game_number": number, "messages": [message_json(m) for m in messages]}

    return router


def _readable(table: Any, identity: Identity, channel: str) -> bool:
    try:
        check_may_read(table, identity, channel)
    except ApiError:
        return False
    return True
