"""Public profiles (docs/server.md, "Ratings", "Reputation"): an account's, and a bot level's,
so that a player who reads "hard ≈ 1,640" on the leaderboard can open the level's page too.

A bot level's profile has its ratings with their history, its rated games by player count and
its last rated games (with their replays); it has no reputation (a bot never leaves). It is
found by the level (``/api/bots/{level}``, the leaderboard's link) or by a bot seat's label
(``/api/players/Blue bot (hard)``: no account may have such a name).
"""

from __future__ import annotations

import re

from oriflamme.api import FAMILY_COLOURS

from .account_seats import seat_url
from .errors import ApiError
from .lobby import cards_text
from .player_protocol import GameOut, PlayedWon, PoolRating, Profile, RatingPointOut
from .rating_model import POOLS, account_player, bot_player
from .replay_links import replay_url
from .reputation import shown_reputation
from .storage import AccountRecord, Store
from .storage.rating_records import AccountGame
from .thinking import LEVELS

#: Points of a rating's history shown; finished games a profile lists.
HISTORY, RECENT = 200, 10
#: A bot seat's label as tables name it (``names.bot_label``), any case.
_LABEL = re.compile(rf"^(?:{'|'.join(FAMILY_COLOURS)}) bot \(([a-z]+)\)$", re.IGNORECASE)


def unknown_player() -> ApiError:
    return ApiError(404, "unknown_player", "no player has this name")


def level_of_label(name: str) -> str | None:
    """The bot level a bot seat's label names (``"Blue bot (hard)"`` → ``"hard"``), or None."""
    found = _LABEL.match(" ".join(name.split()))
    return found.group(1).lower() if found else None


def game_out(game: AccountGame, account_id: str | None = None, key: str | None = None) -> GameOut:
    """A game of a list; ``key``: the table's secret, for the seat's link of ``account_id``
    (given only to the account itself: a profile's games have no link)."""
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
        url=None
        if key is None or account_id is None
        else seat_url(key, game.table_id, game.seat, account_id),
        replay_url=replay_url(game.replay_key, game.table_id, game.game)
        if game.finished and game.replay_key
        else None,
        rank=game.rank,
        won=game.won,
        left=game.left,
    )


async def _ratings(store: Store, player: str) -> dict[str, PoolRating]:
    ratings = {}
    for row in await store.ratings([player]):
        history = await store.rating_history(player, row.pool, HISTORY)
        ratings[row.pool] = PoolRating(
            rating=row.rating, games=row.games, wins=row.wins, mu=row.mu, sigma=row.sigma,
            history=[
                RatingPointOut(rating=p.rating, at=p.at, table_id=p.table_id, game=p.game)
                for p in history
            ],
        )
    return {pool: ratings[pool] for pool in POOLS if pool in ratings}


def _by_players(counts: dict[int, tuple[int, int]]) -> dict[str, PlayedWon]:
    return {str(n): PlayedWon(played=played, won=won) for n, (played, won) in counts.items()}


async def account_profile(store: Store, account: AccountRecord) -> Profile:
    reputation = (await store.reputations([account.account_id])).get(account.account_id)
    recent, _ = await store.account_games(account.account_id, True, RECENT, 0)
    return Profile(
        name=account.name,
        bot=False,
        ratings=await _ratings(store, account_player(account.account_id)),
        reputation=shown_reputation(reputation),
        finished=0 if reputation is None else reputation.finished,
        left=0 if reputation is None else reputation.left,
        by_players=_by_players(await store.results_by_players(account.account_id)),
        recent=[game_out(g) for g in recent],
    )


async def bot_profile(store: Store, level: str) -> Profile:
    """The level's profile; ``404 unknown_player`` for a level that neither exists today nor
    was ever rated."""
    player = bot_player(level)
    ratings = await _ratings(store, player)
    if level not in LEVELS and not ratings:
        raise unknown_player()
    recent, finished = await store.bot_games(player, RECENT, 0)
    return Profile(
        name=level,
        bot=True,
        ratings=ratings,
        reputation=None,
        finished=finished,
        left=0,
        by_players=_by_players(await store.bot_results_by_players(player)),
        recent=[game_out(g) for g in recent],
    )
