"""``GET /api/tables/{table_id}/chat``: a channel's history (docs/server.md, "Chat"); the
messages themselves travel over the table's WebSocket."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query

from .chat import message_json
from .deps import ManagerDep, TableDep, error_answers
from .protocol import ChatHistory


def chat_router() -> APIRouter:
    router = APIRouter()

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
        first: the players' channel for players only, the spectators' for everyone at the
        table."""
        identity = await manager.identify(table, token)
        messages = await manager.chat.history(table, identity, channel, before)
        return {"channel": channel, "messages": [message_json(m) for m in messages]}

    return router
