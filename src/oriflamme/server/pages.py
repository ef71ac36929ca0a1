"""The web client's pages and the card texts they show (docs/server.md).

- ``GET /`` — the lobby page; ``GET /t/{id}`` — a table's page (its token in the query);
- ``GET /account`` — the signed-in player's account page;
- ``GET /api/cards`` — every card type's name, kind and texts, for hover help.

The static files (``/static``) are mounted by ``app``; the replay page is a review route, the
learning pages are the lessons' routes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter
from fastapi.responses import FileResponse

from oriflamme.api import CARD_TEXTS, CardType, kind_name

from .deps import STATIC_DIR, TABLE_ID, page
from .protocol import CardInfo, Lang


def pages_router(static_dir: Path = STATIC_DIR) -> APIRouter:
    """The routes of the pages served from ``static_dir``, and of the card texts."""
    router = APIRouter()

    @router.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page(static_dir, "index.html")

    @router.get("/account", include_in_schema=False)
    async def account_page() -> FileResponse:
        return page(static_dir, "account.html")

    @router.get("/t/{table_id}", include_in_schema=False)
    async def game_page(table_id: Annotated[str, TABLE_ID]) -> FileResponse:
        return page(static_dir, "game.html")

    @router.get("/api/cards", response_model=dict[str, CardInfo], summary="Every card type")
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

    return router
