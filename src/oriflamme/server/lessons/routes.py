"""The learning pages and their JSON API (docs/server.md, "Learning to play").

- ``GET /learn`` — the guided games; ``GET /rules`` — the rules page;
- ``GET /api/lessons`` — the lessons offered;
- ``GET /api/lessons/{id}/steps/{n}`` — beat ``n`` of a lesson: its explanation, the move it
  expects and the learner's view of the game at that point;
- ``POST /api/lessons/{id}/steps/{n}/explore`` — the learner's own moves from beat ``n``, off
  the lesson, answered by bots.

Nothing is stored: a lesson is replayed from its script (kept in memory once played), and the
learner's progress is kept by the browser. So every server process answers the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from oriflamme.api import LANGS, Action, ActionError, Game

from ..errors import ApiError, too_many_requests
from ..limits import PAGE_POLICY
from ..protocol import ErrorBody, Lang
from ..throttle import BucketsByKey
from . import LESSONS
from .explore import MAX_MOVES, Explorations
from .script import REGIONS, Lesson, beat_games, focus_cards, parse_move
from .views import learner_view

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"
LESSON_ID = PathParam(pattern=r"^[a-z0-9_-]{1,32}$", description="the lesson's id")
STEP = PathParam(ge=0, le=10_000, description="the beat of the lesson, from 0")
_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 404, 409, 422, 429)
}


class LessonInfo(BaseModel):
    id: str
    title: str
    summary: str
    steps: int = Field(description="the number of beats")


class Focus(BaseModel):
    regions: list[str] = Field(description="parts of the board to point at")
    cards: list[int] = Field(description="cards to point at, by id")


class LessonStep(BaseModel):
    lesson: str
    step: int
    steps: int
    title: str
    text: list[str] = Field(description="the explanation, one paragraph per entry")
    expect: dict[str, Any] | None = Field(
        description="the move this beat waits for (one of view.legal), or null: read and go on"
    )
    expect_label: str | None
    stray: str | None = Field(description="why another move is not the lesson's")
    focus: Focus
    view: dict[str, Any] = Field(description="the learner's view (the game page's view)")
    real_game: dict[str, Any] = Field(description="the settings of a real game to offer after it")


class ExploreRequest(BaseModel):
    moves: list[dict[str, Any]] = Field(
        min_length=1, max_length=MAX_MOVES, description="the learner's moves, in order (JSON)"
    )
    lang: Lang = "en"


class Explored(BaseModel):
    lesson: str
    step: int
    moves: int = Field(description="the learner's moves played")
    view: dict[str, Any]


class Lessons:
    """Each lesson's beats played once, and the explorations off them."""

    def __init__(self, rate: float, burst: float) -> None:
        self._games: dict[str, list[Game]] = {}
        self.explorations = Explorations()
        self.by_ip = BucketsByKey(rate, burst)

    def lesson(self, lesson_id: str) -> Lesson:
        lesson = LESSONS.get(lesson_id)
        if lesson is None:
            raise ApiError(404, "unknown_lesson", "no lesson with this id")
        return lesson

    def game(self, lesson: Lesson, step: int) -> Game:
        """The game as beat ``step`` shows it (shared: never changed)."""
        games = self._games.get(lesson.id)
        if games is None:
            games = self._games[lesson.id] = beat_games(lesson)
        if step >= len(games):
            last = len(games) - 1
            raise ApiError(404, "unknown_step", f"the lesson's steps go from 0 to {last}")
        return games[step]


def preferred_lang(accept: str | None) -> str:
    """The first of English and French in an ``Accept-Language`` header (English if neither)."""
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"


def _paragraphs(text: str) -> list[str]:
    return [part.strip() for part in text.split("\n\n") if part.strip()]


def step_answer(lessons: Lessons, lesson: Lesson, step: int, lang: str) -> dict[str, Any]:
    game = lessons.game(lesson, step)
    beat = lesson.beats[step]
    expected = None if beat.expect is None else parse_move(game, beat.expect)
    legal = game.legal_actions() if expected is not None else []
    return {
        "lesson": lesson.id,
        "step": step,
        "steps": len(lesson.beats),
        "title": beat.title(lang),
        "text": _paragraphs(beat.text(lang)),
        "expect": None if expected is None else expected.to_json(),
        "expect_label": None if expected is None else game.label(expected, lang, lesson.seat),
        "stray": None if beat.stray is None else beat.stray(lang),
        "focus": {
            "regions": [name for name in beat.focus if name in REGIONS],
            "cards": focus_cards(game, beat.focus),
        },
        "view": learner_view(lesson, game, lang, legal),
        "real_game": dict(lesson.real_game),
    }


def _moves(data: Sequence[dict[str, Any]]) -> list[Action]:
    moves = []
    for index, move in enumerate(data):
        try:
            moves.append(Action.from_json(move))
        except ActionError as exc:
            raise ApiError(400, "malformed_action", f"moves[{index}]: {exc}"[:300]) from None
    return moves


def lessons_router(
    static_dir: Path = STATIC_DIR, rate: float = 20.0, burst: float = 20.0
) -> APIRouter:
    """The routes of the learning pages; explorations are limited to ``rate`` a second per
    address (bursts of ``burst``), like the other POSTs."""
    router = APIRouter()
    lessons = Lessons(rate, burst)

    def page(name: str) -> FileResponse:
        path = static_dir / name
        if not path.is_file():
            raise ApiError(404, "not_found", "this page is not installed")
        headers = {"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_POLICY}
        return FileResponse(path, headers=headers)

    @router.get("/learn", include_in_schema=False)
    async def learn_page() -> FileResponse:
        return page("learn.html")

    @router.get("/rules", include_in_schema=False)
    async def rules_page(request: Request, lang: str | None = None) -> FileResponse:
        """One page per language: ``lang`` if given, else the browser's preferred one."""
        chosen = lang if lang in LANGS else preferred_lang(request.headers.get("accept-language"))
        response = page(f"rules-{chosen}.html")
        response.headers["Content-Language"] = chosen
        response.headers["Vary"] = "Accept-Language"
        return response

    @router.get("/api/lessons", response_model=list[LessonInfo], summary="The guided games")
    async def list_lessons(lang: Lang = "en") -> list[dict[str, Any]]:
        """Each lesson's id, title, summary and number of beats, in the order offered."""
        return [
            {
                "id": lesson.id,
                "title": lesson.title(lang),
                "summary": lesson.summary(lang),
                "steps": len(lesson.beats),
            }
            for lesson in LESSONS.values()
        ]

    @router.get(
        "/api/lessons/{lesson_id}/steps/{step}",
        response_model=LessonStep,
        responses=_ERRORS,
        summary="One beat of a lesson and the learner's view of its game",
    )
    async def get_step(
        lesson_id: Annotated[str, LESSON_ID],
        step: Annotated[int, STEP],
        lang: Annotated[Lang, Query(description="the language of the texts")] = "en",
    ) -> dict[str, Any]:
        """The beat's explanation, the move it waits for (``expect``, null if the learner only
        reads on) and the learner's view of the game there: the bots' moves of the beat are
        played, the learner's is not yet. ``404 unknown_lesson`` / ``unknown_step``."""
        return step_answer(lessons, lessons.lesson(lesson_id), step, lang)

    @router.post(
        "/api/lessons/{lesson_id}/steps/{step}/explore",
        response_model=Explored,
        responses=_ERRORS,
        summary="Play your own moves from a beat, off the lesson",
    )
    async def explore(
        request: Request,
        lesson_id: Annotated[str, LESSON_ID],
        step: Annotated[int, STEP],
        body: ExploreRequest,
    ) -> dict[str, Any]:
        """From beat ``step``'s game, play the learner's ``moves`` in order, the other seats
        answering each (``easy`` bots, seeded: the same moves give the same game). Answers the
        learner's view after them. ``400 illegal_action`` names the first move that is not
        legal when it comes; ``409 game_over`` for a move after the end, ``409
        not_your_turn`` at a beat that asks for no move."""
        if not lessons.by_ip.take(request.client.host if request.client else "?"):
            raise too_many_requests()
        lesson = lessons.lesson(lesson_id)
        start = lessons.game(lesson, step)
        moves = _moves(body.moves)
        game = await asyncio.to_thread(lessons.explorations.game, lesson, step, start, moves)
        return {
            "lesson": lesson.id,
            "step": step,
            "moves": len(moves),
            "view": learner_view(lesson, game, body.lang, None),
        }

    return router
