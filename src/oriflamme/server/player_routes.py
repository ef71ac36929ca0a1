"""Players across tables (docs/server.md, "Ratings", "Reputation", "Seats of accounts"):

- ``GET /api/leaderboard?pool=…`` — a pool's ratings, best first, bot levels included;
- ``GET /api/players/{name}`` — a player's public profile: ratings with their history,
  reputation, games played and won by player count, recent finished games;
- ``GET /api/bots/{level}`` — a bot level's profile (its rated games), :mod:`.player_profiles`;
- ``GET /api/account/games`` — the signed-in player's games ("My games");
- ``POST /api/tables/{id}/claim`` — "Take this seat" (an invite link's seat, signed in);
- ``POST /api/tables/{id}/leave`` — "Leave the game" (the stand-in plays the seat);
- ``GET /leaderboard``, ``GET /players/{name}``, ``GET /bots/{level}`` — their pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse

from . import players
from .account_seats import seat_url
from .deps import (
    STATIC_DIR,
    AccountDep,
    ManagerDep,
    TableDep,
    address_key,
    error_answers,
    page,
)
from .errors import too_many_requests
from .player_profiles import (
    account_profile,
    bot_profile,
    game_out,
    level_of_label,
    unknown_player,
)
from .player_protocol import (
    ClaimResponse,
    GamesPage,
    Leaderboard,
    LeaderboardEntry,
    Profile,
    TokenRequest,
)
from .protocol import TableSummary
from .throttle import BucketsByKey
from .views import summary

#: Games a player needs to appear on a leaderboard.
MIN_GAMES = 1
#: Entries or games per page, by default and at most.
PER_PAGE, PER_PAGE_MAX = 25, 100
#: The deepest page one may ask for (keeps offsets bounded).
PAGE_MAX = 10_000
NAME = PathParam(min_length=1, max_length=96, description="the player's name")
LEVEL = PathParam(min_length=1, max_length=32, description="a bot level (as the leaderboard)")

_ERRORS = error_answers(401, 403, 404, 409, 422, 429)


def player_router(
    static_dir: Path = STATIC_DIR, rate: float = 20.0, burst: float = 20.0
) -> APIRouter:
    """The routes of players across tables; each address may send ``rate`` POSTs a second
    (bursts of ``burst``), like the tables' routes."""
    router = APIRouter()
    by_ip = BucketsByKey(rate, burst)

    async def throttle(request: Request) -> None:
        if not by_ip.take(address_key(request)):
            raise too_many_requests()

    Throttled = Depends(throttle)

    @router.get(
        "/api/leaderboard",
        response_model=Leaderboard,
        responses=_ERRORS,
        summary="A pool's ratings, best first",
    )
    async def leaderboard(
        manager: ManagerDep,
        pool: Annotated[
            Literal["2p", "3-5p"],
            Query(description='"2p" (two players, two families) or "3-5p" (three to five)'),
        ] = "3-5p",
        page_number: Annotated[int, Query(alias="page", ge=1, le=PAGE_MAX)] = 1,
        per_page: Annotated[int, Query(ge=1, le=PER_PAGE_MAX)] = PER_PAGE,
    ) -> Leaderboard:
        """The players with at least ``min_games`` rated games in the pool, and the bot levels
        that played rated games (``bot``), by displayed rating."""
        offset = (page_number - 1) * per_page
        rows, total = await manager.store.leaderboard(pool, MIN_GAMES, per_page, offset)
        return Leaderboard(
            pool=pool,
            entries=[
                LeaderboardEntry(
                    rank=offset + i + 1, name=r.name, rating=r.rating, games=r.games,
                    wins=r.wins, bot=r.bot,
                )
                for i, r in enumerate(rows)
            ],
            total=total,
            page=page_number,
            per_page=per_page,
            min_games=MIN_GAMES,
        )

    @router.get(
        "/api/players/{name}",
        response_model=Profile,
        responses=_ERRORS,
        summary="A player's public profile",
    )
    async def profile(manager: ManagerDep, name: Annotated[str, NAME]) -> Profile:
        """Ratings per pool with their history, reputation, games played and won by player
        count, the last finished games (with their replays). A bot seat's label (``Blue bot
        (hard)``) gives its level's profile (as ``/api/bots/{level}``). ``404
        unknown_player`` if no account has this name."""
        account = await manager.store.account_by_name(name)
        if account is not None:
            return await account_profile(manager.store, account)
        level = level_of_label(name)
        if level is None:
            raise unknown_player()
        return await bot_profile(manager.store, level)

    @router.get(
        "/api/bots/{level}",
        response_model=Profile,
        responses=_ERRORS,
        summary="A bot level's public profile",
    )
    async def bot_level_profile(manager: ManagerDep, level: Annotated[str, LEVEL]) -> Profile:
        """The level's ratings with their history, its rated games by player count and its
        last rated games (with their replays); no reputation (a bot never leaves). ``404
        unknown_player`` for a level that does not exist and was never rated."""
        return await bot_profile(manager.store, level)

    @router.get(
        "/api/account/games",
        response_model=GamesPage,
        responses=_ERRORS,
        summary='The signed-in player\'s games ("My games")',
    )
    async def my_games(
        manager: ManagerDep,
        account: AccountDep,
        status: Annotated[
            Literal["ongoing", "finished"],
            Query(description="ongoing (yours to play first) or finished (latest first)"),
        ] = "ongoing",
        page_number: Annotated[int, Query(alias="page", ge=1, le=PAGE_MAX)] = 1,
        per_page: Annotated[int, Query(ge=1, le=PER_PAGE_MAX)] = PER_PAGE,
    ) -> GamesPage:
        """Ongoing games of the account's seats, those waiting for you first, each with the
        seat's link for your account; finished ones with your result and the replay.
        ``401 signed_out`` for a guest."""
        store = manager.store
        finished = status == "finished"
        offset = (page_number - 1) * per_page
        games, total = await store.account_games(account.account_id, finished, per_page, offset)
        return GamesPage(
            games=[
                game_out(g, account.account_id, None if finished else g.replay_key)
                for g in games
            ],
            total=total,
            page=page_number,
            per_page=per_page,
        )

    @router.post(
        "/api/tables/{table_id}/claim",
        response_model=ClaimResponse,
        responses=_ERRORS,
        summary="Take this seat: the invite link's seat becomes your account's",
        dependencies=[Throttled],
    )
    async def claim(
        table: TableDep, request: TokenRequest, manager: ManagerDep, account: AccountDep
    ) -> ClaimResponse:
        """The human seat the token opens, owned by nobody, becomes the signed-in player's,
        under the account's name; the token keeps working. ``409 seat_owned``,
        ``already_seated``, ``name_taken``, ``seat_is_bot``."""
        identity = await manager.identify(table, request.token)
        seat = await players.claim(manager, table, identity, account)
        return ClaimResponse(
            table_id=table.id,
            seat=seat,
            name=table.seats[seat].name,
            url=seat_url(table.replay_key, table.id, seat, account.account_id),
        )

    @router.post(
        "/api/tables/{table_id}/leave",
        response_model=TableSummary,
        responses=_ERRORS,
        summary="Leave the game: the stand-in plays your seat from now on",
        dependencies=[Throttled],
    )
    async def leave(table: TableDep, request: TokenRequest, manager: ManagerDep) -> TableSummary:
        """The seat the token opens is handed to the table's stand-in for the rest of the
        table; its player ranks last in this game, and it counts against their reputation.
        ``409 not_started``, ``game_over``, ``seat_is_bot``."""
        identity = await manager.identify(table, request.token)
        await players.leave(manager, table, identity)
        return TableSummary.model_validate(summary(table))

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return page(static_dir, "leaderboard.html")

    @router.get("/players/{name}", include_in_schema=False)
    async def profile_page(name: Annotated[str, NAME]) -> FileResponse:
        return page(static_dir, "player.html")

    @router.get("/bots/{level}", include_in_schema=False)
    async def bot_page(level: Annotated[str, LEVEL]) -> FileResponse:
        return page(static_dir, "player.html")

    return router

