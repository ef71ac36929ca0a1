"""The routes of reviewing and learning (docs/server.md), over the :class:`review.Review` service:

- ``GET /api/tables/{id}/games/{n}/replay`` — the replay record of a finished game;
- ``GET /api/tables/{id}/games/{n}/frames`` — what the replay page shows at each step;
- ``POST`` / ``GET /api/tables/{id}/games/{n}/analysis`` — ask for / read its analysis;
- ``GET /api/tables/{id}/hint`` — a strong player's move for the seat's current decision, at
  tables created with ``hints``;
- ``GET /t/{id}/replay`` — the replay page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from oriflamme.api import Action

from . import display
from .addresses import client_key, origin_digest
from .analysis import steps_for, worst_moves
from .deps import STATIC_DIR, TABLE_ID, TableDep, error_answers, page
from .errors import ApiError, too_many_requests
from .protocol import MAX_GAME, Lang
from .replay_links import opens_replay, replay_url
from .replays import EVERYTHING
from .review import Review
from .storage import AnalysisRecord, QuotaReached
from .tables import HUMAN, Identity, Role, Table
from .views import seat_infos

GAME_NUMBER = PathParam(ge=1, le=MAX_GAME, description="the game's number at the table (1, 2, …)")
TOKEN = Query(
    max_length=64,
    description="the game's replay token, or a seat, spectator or creator token of the table",
)
_ERRORS = error_answers(401, 403, 404, 409, 422, 429, 503)


# -- responses --------------------------------------------------------------------------------
class AnalysisStep(BaseModel):
    step: int = Field(description="the index of the action in the game")
    player: int
    round: int
    played: dict[str, Any] = Field(description="the action played (JSON)")
    best: dict[str, Any] = Field(description="the action the hard bot prefers")
    win: list[float] = Field(description="each player's chance to win after the best move")
    played_win: list[float] | None = Field(description="… after the move played")
    loss: float = Field(description="the deciding player's chance lost by the move played")
    played_label: str
    best_label: str


class Analysis(BaseModel):
    status: Literal["none", "queued", "running", "done", "failed"]
    progress: float = Field(ge=0, le=1)
    steps: list[AnalysisStep]
    worst: list[int] = Field(description="the steps of each human's 3 costliest moves")


class Hint(BaseModel):
    action: dict[str, Any] = Field(description="the suggested action (as in the view's legal)")
    label: str
    win: list[float] = Field(description="each player's chance to win after it")
    step: int = Field(description="the step of the decision it answers")


class Frames(BaseModel):
    table_id: str
    game_number: int
    replay_url: str = Field(description="this replay's page with the game's replay token")
    view: int | Literal["all"]
    you: int | None = Field(description="the seat of the token, or null")
    lang: str
    seats: list[dict[str, Any]]
    frames: list[dict[str, Any]] = Field(
        description="frame i: observation, prompt, cards, log (lines added), actor, by, reason"
    )


def _review(request: Request) -> Review:
    review: Review = request.app.state.review
    return review


ReviewDep = Annotated[Review, Depends(_review)]


def _host(request: Request) -> str:
    return request.client.host if request.client else "?"


def _throttle(review: Review, request: Request) -> None:
    if not review.by_ip.take(client_key(_host(request))):
        raise too_many_requests()


async def _reviewer(review: Review, table: Table, token: str, number: int) -> Identity:
    """Who may review game ``number`` with ``token``: its replay token is a spectator of that
    game; any token of the table is who it designates; else ``401 bad_token``."""
    if opens_replay(table.replay_key, table.id, number, token):
        return Identity(Role.SPECTATOR)
    identity: Identity = await review.manager.identify(table, token)
    return identity


def _parse_view(
    text: str | None, table: Table, identity: Identity
) -> tuple[int | None, int | None]:
    """(the seat of the token, the seat whose view is asked for or None for everything)."""
    you = identity.seat if identity.role is Role.SEAT else None
    if text is None:
        return you, you
    if text == EVERYTHING:
        return you, None
    if text.isascii() and text.isdigit() and int(text) < len(table.seats):
        return you, int(text)
    raise ApiError(
        422, "invalid_request", f"view: 'all' or a seat from 0 to {len(table.seats) - 1}"
    )


def _analysis_answer(record: AnalysisRecord | None, lang: str) -> dict[str, Any]:
    if record is None:
        return {"status": "none", "progress": 0.0, "steps": [], "worst": []}
    steps = steps_for(record, lang)
    return {
        "status": record.status,
        "progress": round(record.progress, 4),
        "steps": steps,
        "worst": worst_moves(steps),
    }


def review_router(static_dir: Path = STATIC_DIR) -> APIRouter:
    """The routes of the review features."""
    router = APIRouter()

    @router.get("/t/{table_id}/replay", include_in_schema=False)
    async def replay_page(table_id: Annotated[str, TABLE_ID]) -> FileResponse:
        return page(static_dir, "replay.html")

    @router.get(
        "/api/tables/{table_id}/games/{number}/replay",
        responses=_ERRORS,
        summary="The replay record of a finished game",
    )
    async def get_replay(
        table: TableDep,
        review: ReviewDep,
        number: Annotated[int, GAME_NUMBER],
        token: Annotated[str, TOKEN],
    ) -> dict[str, Any]:
        """The ``oriflamme-replay`` record (docs/formats.md) of game ``number``, once it is
        over (``409 not_over`` before). A game set up from a position carries it as ``start``."""
        await _reviewer(review, table, token, number)
        return (await review.replays.finished(table, number)).record

    @router.get(
        "/api/tables/{table_id}/games/{number}/frames",
        response_model=Frames,
        responses=_ERRORS,
        summary="Every step of a finished game, as one seat saw it or everything",
    )
    async def get_frames(
        table: TableDep,
        review: ReviewDep,
        number: Annotated[int, GAME_NUMBER],
        token: Annotated[str, TOKEN],
        view: Annotated[str | None, Query(max_length=8, description="'all' or a seat")] = None,
        lang: Annotated[Lang | None, Query(description="default: the table's")] = None,
    ) -> dict[str, Any]:
        """Frame ``i`` is the game after its first ``i`` actions. ``view``: a seat (what it
        saw, default the token's seat) or ``all`` (every card shown; the spectators' default)."""
        you, seat = _parse_view(view, table, await _reviewer(review, table, token, number))
        finished = await review.replays.finished(table, number)
        language = lang or table.lang
        names = display.sentence_names(table, language)
        frames = await review.replays.frames(finished, seat, language, names)
        return {
            "table_id": table.id,
            "game_number": number,
            "replay_url": replay_url(table.replay_key, table.id, number),
            "view": EVERYTHING if seat is None else seat,
            "you": you,
            "lang": language,
            "seats": seat_infos(table, language),
            "frames": frames,
        }

    @router.post(
        "/api/tables/{table_id}/games/{number}/analysis",
        status_code=202,
        response_model=Analysis,
        responses=_ERRORS,
        summary="Ask for the analysis of a finished game",
    )
    async def start_analysis(
        request: Request,
        table: TableDep,
        review: ReviewDep,
        number: Annotated[int, GAME_NUMBER],
        token: Annotated[str, TOKEN],
        lang: Annotated[Lang | None, Query()] = None,
    ) -> dict[str, Any]:
        """Queue the analysis (computed once, in the background; asking again changes
        nothing, except for a failed one, which is tried again). Answers its state."""
        await _reviewer(review, table, token, number)
        _throttle(review, request)
        await review.replays.finished(table, number)
        if not any(s.kind == HUMAN for s in table.seats):
            raise ApiError(409, "no_humans", "no human played at this table: nothing to analyse")
        limit = review.manager.quotas.queued_analyses
        try:
            record = await review.manager.store.request_analysis(
                table.id, number, origin_digest(_host(request)), limit
            )
        except QuotaReached:
            raise ApiError(
                429,
                "too_many_analyses",
                f"at most {limit} analyses of one address wait or run at once: ask again once"
                " one is done",
            ) from None
        review.analyses.wake()
        return _analysis_answer(record, lang or table.lang)

    @router.get(
        "/api/tables/{table_id}/games/{number}/analysis",
        response_model=Analysis,
        responses=_ERRORS,
        summary="The analysis of a finished game: its state, progress and steps",
    )
    async def get_analysis(
        table: TableDep,
        review: ReviewDep,
        number: Annotated[int, GAME_NUMBER],
        token: Annotated[str, TOKEN],
        lang: Annotated[Lang | None, Query()] = None,
    ) -> dict[str, Any]:
        """``status`` ``none`` until someone asks for it; the steps done so far while it runs."""
        await _reviewer(review, table, token, number)
        await review.replays.finished(table, number)
        record = await review.manager.store.load_analysis(table.id, number)
        return _analysis_answer(record, lang or table.lang)

    @router.get(
        "/api/tables/{table_id}/hint",
        response_model=Hint,
        responses=_ERRORS,
        summary="What a strong player would do now (tables created with hints)",
    )
    async def get_hint(
        request: Request,
        table: TableDep,
        review: ReviewDep,
        token: Annotated[str, Query(max_length=64, description="your seat's token")],
        lang: Annotated[Lang | None, Query()] = None,
    ) -> dict[str, Any]:
        """The ``hard`` bot's move for your current decision, from your observation only
        (never played for you). ``403 hints_off`` at a table created without hints."""
        identity = await review.manager.identify(table, token)
        if not table.hints:
            raise ApiError(403, "hints_off", "this table was created without hints")
        seat = table.view_seat(identity)
        if seat is None:
            raise ApiError(403, "not_a_player", "only a human seat's link can ask for a hint")
        game = table.game
        if game.is_over:
            raise ApiError(409, "game_over", "the game is over")
        if game.current_player != seat:
            raise ApiError(403, "not_your_turn", "it is not your turn")
        _throttle(review, request)
        step = len(game.history)
        found = await review.hint(table, seat, client_key(_host(request)))
        action = Action.from_json(found["action"])
        return {
            "action": found["action"],
            "label": game.label(
                action, viewer=seat, lang=lang or table.lang,
                names=display.sentence_names(table, lang or table.lang),
            ),
            "win": [round(w, 4) for w in found["win"]],
            "step": step,
        }

    return router

