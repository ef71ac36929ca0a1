"""``oriflamme ratings rebuild``: every rating recomputed from the stored results of rated
games, in the order they were rated, compared with the stored ratings and (unless only
checking) written back. The update is a pure function of the ratings before a game and its
ranks (:func:`~.rating_model.rate`), so a store whose ratings were updated game after game
gives back exactly the same figures: any difference is reported."""

from __future__ import annotations

from dataclasses import dataclass, field

from .rating_model import Belief, rate
from .storage import Store


@dataclass(frozen=True, slots=True)
class Difference:
    player: str
    pool: str
    stored: tuple[float, float, int, int] | None
    rebuilt: tuple[float, float, int, int] | None


@dataclass(slots=True)
class Rebuilt:
    """What a rebuild found: the results replayed, the ratings recomputed, and where they
    differ from the stored ones (exactly, float for float)."""

    results: int = 0
    ratings: dict[tuple[str, str], tuple[Belief, int, int]] = field(default_factory=dict)
    differences: list[Difference] = field(default_factory=list)


async def rebuild(store: Store, write: bool = True) -> Rebuilt:
    """Recompute every rating from the stored results; write them back if ``write`` and any
    differs."""
    results = await store.rating_results()
    out = Rebuilt(results=len(results))
    history: list[tuple[str, str, int, Belief]] = []
    for stored in results:
        game = stored.game
        pool = game.pool or ""
        before = {
            player: out.ratings[(player, pool)][0]
            for player in game.players
            if (player, pool) in out.ratings
        }
        winners = {s.player for s in game.seats if s.won}
        for player, belief in rate(before, game).items():
            _, games, wins = out.ratings.get((player, pool), (Belief(), 0, 0))
            out.ratings[(player, pool)] = (belief, games + 1, wins + (player in winners))
            history.append((player, pool, stored.seq, belief))
    players = sorted({player for player, _ in out.ratings})
    stored_rows = await store.ratings(players) if players else []
    stored_by_key = {
        (r.player, r.pool): (r.mu, r.sigma, r.games, r.wins) for r in stored_rows
    }
    for key in sorted(set(stored_by_key) | set(out.ratings)):
        again = out.ratings.get(key)
        figures = None if again is None else (again[0].mu, again[0].sigma, again[1], again[2])
        if figures != stored_by_key.get(key):
            out.differences.append(Difference(key[0], key[1], stored_by_key.get(key), figures))
    if write and out.differences:
        await store.replace_ratings(out.ratings, history)
    return out
