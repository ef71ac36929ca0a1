"""An account's data, as one JSON document (``GET /api/account/export``): its profile, its
sessions, passkeys and push subscriptions (without secrets), its ratings, and the finished
games of its seats as ``oriflamme-replay`` records (the same records as the replay API's; a
game under way is left out: its record would show the hidden deal)."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from oriflamme.api import ConfigError, GameConfig

from ..manager import TableManager
from ..rating_model import account_player
from ..replays import replay_record
from ..storage import AccountRecord

#: The most rating changes an export lists per pool (all, in practice).
HISTORY_ALL = 1_000_000
EXPORT_FORMAT = "oriflamme-account"
EXPORT_VERSION = 1


async def account_export(manager: TableManager, account: AccountRecord) -> dict[str, Any]:
    store = manager.store
    sessions = await store.account_sessions(account.account_id)
    passkeys = await store.account_passkeys(account.account_id)
    pushes = await store.push_subscriptions(account.account_id)
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported": time.time(),
        "profile": {
            "id": account.account_id,
            "name": account.name,
            "created": account.created,
            "admin": account.admin,
            "suspended": account.suspended,
        },
        "sessions": [
            {"created": s.created, "seen": s.seen, "expires": s.expires, "agent": s.agent}
            for s in sessions
        ],
        "passkeys": [
            {"label": p.label, "created": p.created, "used": p.used} for p in passkeys
        ],
        # Which push service and browser: the endpoint itself lets anyone push to it.
        "push_subscriptions": [
            {"service": urlsplit(s.endpoint).hostname, "agent": s.agent} for s in pushes
        ],
        "ratings": await _ratings(manager, account.account_id),
        "games": await _games(manager, account.account_id),
    }


async def _ratings(manager: TableManager, account_id: str) -> dict[str, Any]:
    """The account's rating in each pool it played, with every game's change."""
    store = manager.store
    key = account_player(account_id)
    ratings: dict[str, Any] = {}
    for row in await store.ratings([key]):
        history = await store.rating_history(key, row.pool, HISTORY_ALL)
        ratings[row.pool] = {
            "rating": row.rating, "mu": row.mu, "sigma": row.sigma, "games": row.games,
            "wins": row.wins,
            "history": [
                {"table": p.table_id, "game": p.game, "at": p.at, "rating": p.rating,
                 "mu": p.mu, "sigma": p.sigma}
                for p in history
            ],
        }
    return ratings


async def _games(manager: TableManager, account_id: str) -> list[dict[str, Any]]:
    store = manager.store
    games: list[dict[str, Any]] = []
    for table_id, seat in await store.account_seats(account_id):
        loaded = await store.load_table(table_id)
        if loaded is None:
            continue
        table, latest = loaded
        try:
            config = GameConfig.from_dict(table.config)
        except ConfigError:
            continue
        names = [s.name for s in sorted(table.seats, key=lambda s: s.seat)]
        for number in range(1, latest.number + 1):
            found = await store.load_game(table_id, number)
            if found is None or not found[1]:
                continue
            games.append({
                "table": table_id,
                "game": number,
                "seat": seat,
                "players": names,
                "record": replay_record(config, found[0]),
            })
    return games
