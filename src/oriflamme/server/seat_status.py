"""Where a link stands: ``GET /api/tables/{id}/status``, what the front page's "My games" shows.

A browser keeps the links it holds (seats it created or joined, tables it watches) in its own
storage, and asks for each what its holder needs at a glance: whose turn it is (yours first),
the round, whether the table waits for players, is over or was closed. Cheaper than a view: no
observation, no log, no labels; the table is read as a view would read it (loaded from storage
once, then kept in memory), and answers only to a token of the table.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from . import display
from .protocol import ErrorBody, Lang
from .tables import HUMAN, Role


class SeatStatus(BaseModel):
    table_id: str
    role: str = Field(description='"seat", "spectator" or "creator": who the token designates')
    seat: int | None = Field(description="the token's seat, or null")
    name: str | None = Field(description="the seat's name, or null")
    players: list[str] = Field(description="every seat's name (an open seat's is empty)")
    game_number: int
    step: int
    round: int
    over: bool
    your_turn: bool = Field(description="the seat's player decides now (in a game under way)")
    waiting_for: str | None = Field(description="who decides now, or null")
    waiting_for_players: bool = Field(description="open seats: the game has not started")
    closed: bool
    handed_over: bool = Field(description="the seat was handed to a bot: the link watches")
    winners: list[str] = Field(description="the winners' names once the game is over")


def status_router() -> APIRouter:
    router = APIRouter()

    @router.get(
        "/api/tables/{table_id}/status",
        response_model=SeatStatus,
        responses={status: {"model": ErrorBody} for status in (401, 404, 422, 503)},
        summary="Where a seat (or a spectator's link) stands: for a list of one's games",
    )
    async def seat_status(
        request: Request,
        table_id: Annotated[
            str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="the table's id")
        ],
        token: Annotated[str, Query(max_length=64, description="a token of the table")],
        lang: Annotated[Lang | None, Query(description="default: the table's language")] = None,
    ) -> dict[str, Any]:
        """Whose turn it is, the round, the state of the table; ``401 bad_token`` for a token
        that is not the table's, ``404 unknown_table``."""
        manager = request.app.state.manager
        table = await manager.get(table_id)
        identity = await manager.identify(table, token)
        language = lang or table.lang
        game = table.game
        seat = identity.seat if identity.role is Role.SEAT else None
        stopped = table.waiting() or table.closed
        deciding = None if stopped else game.current_player
        result = game.result()
        names = [display.seat_name(record, language) for record in table.seats]
        return {
            "table_id": table.id,
            "role": identity.role.value,
            "seat": seat,
            "name": None if seat is None else names[seat],
            "players": names,
            "game_number": table.game_number,
            "step": len(game.history),
            "round": game.round,
            "over": game.is_over,
            "your_turn": seat is not None
            and deciding == seat
            and table.seats[seat].kind == HUMAN,
            "waiting_for": None if deciding is None else names[deciding],
            "waiting_for_players": table.waiting() and not table.closed,
            "closed": table.closed,
            "handed_over": table.handed_over(identity),
            "winners": [] if result is None else [names[seat] for seat in result.winners],
        }

    return router
