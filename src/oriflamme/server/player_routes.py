"""Players across tables (docs/server.md, "Ratings", "Reputation", "Seats of accounts"):

- ``GET /api/leaderboard?pool=…`` — a pool's ratings, best first, bot levels included;
- ``GET /api/players/{name}`` — a player's public profile: ratings with their history,
  reputation, games played and won by player count, recent finished games;
- ``GET /api/account/games`` — the signed-in player's games ("My games");
- ``POST /api/tables/{id}/claim`` — "Take this seat" (an invite link's seat, signed in);
- ``POST /api/tables/{id}/leave`` — "Leave the game" (the stand-in plays the seat);
- ``GET /leaderboard``, ``GET /players/{name}`` — their pages.
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
from .errors import ApiError, too_many_requests
from .lobby import cards_text
from .player_protocol import (
    ClaimResponse,
    GameOut,
    GamesPage,
    Leaderboard,
    LeaderboardEntry,
    PlayedWon,
    PoolRating,
    Profile,
    RatingPointOut,
    TokenRequest,
)
from .protocol import TableSummary
from .rating_model import POOLS, account_player
from .replay_links import replay_url
from .reputation import shown_reputation
from .storage.rating_records import AccountGame
from .throttle import BucketsByKey
from .views import summary

#: Games a player needs to appear on a leaderboard.
MIN_GAMES = 1
#: Entries or games per page, by default and at most; points of a rating's history shown.
PER_PAGE, PER_PAGE_MAX, HISTORY = 25, 100, 200
#: Finished games a profile lists.
RECENT = 10
#: The deepest page one may ask for (keeps offsets bounded).
PAGE_MAX = 10_000
NAME = PathParam(min_length=1, max_length=96, description="the player's name")

_ERRORS = error_answers(401, 403, 404, 409, 422, 429)


def game_out(game: AccountGame, account_id: str, key: str | None = None) -> GameOut:
    """A game of an account's list; ``key``: the table's secret, for the seat's link (given
    only to the account itself)."""
    return GameOut(
        table_id=game.table_id,
        game=game.game,
        seat=game.seat,
        players=list(game.names),
        cards=cards_text(game.config.get("cards", "base")),
        rated=game.rated,
        finished=game.finished,
        your_turn=game.your_turn,
        at=game.at,
        url=None if key is None else seat_url(key, game.table_id, game.seat, account_id),
        replay_url=replay_url(game.replay_key, game.table_id, game.game)
        if game.finished and game.replay_key
        else None,
        rank=game.rank,
        won=game.won,
        left=game.left,
    )


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
        count, the last finished games (with their replays). ``404 unknown_player`` if no
        account has this name."""
        store = manager.store
        account = await store.account_by_name(name)
        if account is None:
            raise ApiError(404, "unknown_player", "no player has this name")
        key = account_player(account.account_id)
        ratings = {}
        for row in await store.ratings([key]):
            history = await store.rating_history(key, row.pool, HISTORY)
            ratings[row.pool] = PoolRating(
                rating=row.rating, games=row.games, wins=row.wins, mu=row.mu, sigma=row.sigma,
                history=[
                    RatingPointOut(rating=p.rating, at=p.at, table_id=p.table_id, game=p.game)
                    for p in history
                ],
            )
        reputation = (await store.reputations([account.account_id])).get(account.account_id)
        by_players = await store.results_by_players(account.account_id)
        recent, _ = await store.account_games(account.account_id, True, RECENT, 0)
        return Profile(
            name=account.name,
            ratings={pool: ratings[pool] for pool in POOLS if pool in ratings},
            reputation=shown_reputation(reputation),
            finished=0 if reputation is None else reputation.finished,
            left=0 if reputation is None else reputation.left,
            by_players={
                str(n): PlayedWon(played=played, won=won)
                for n, (played, won) in by_players.items()
            },
            recent=[game_out(g, account.account_id) for g in recent],
        )

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

    return router

