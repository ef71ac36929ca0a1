"""Aggregating tournament games: per bot, per seat, per card type, and ratings.

Shares of wins count a shared victory as 1/k win for each of its k co-winners. A bot's figures
are per *seat played* (a bot holding two seats of a game counts two seat-games), so with P
players evenly matched bots all have a win share near 1/P. Confidence intervals are Wilson score
intervals at 95% on the win share (shared wins enter as fractions; seats of one game are
treated as independent, which they are not quite when a bot holds several of them).

Ratings use the Plackett-Luce model of Weng and Lin as openskill computes it with its default
parameters (:mod:`.rating`), one update per game in game order, each seat a player ranked by the
game's result: score first, then the tie-break (cards controlled in the Queue, R-END-1); seats
equal on both are tied. A bot holding several seats of a game is rated once per seat from its
rating before the game, and moves by the mean of those updates (its sigma becomes the mean of
the seats' new sigmas).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from oriflamme.api import CardType, card_name

from .rating import MU, SIGMA, Rating, update
from .schedule import Settings
from .worker import UNKNOWN, GameRecord

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``successes / trials`` ((0, 1) if none).

    The interval always contains the proportion itself: at 0 or 1 the rounding of the formula
    could leave its bound a hair beyond it (2.8e-17 for 0 of 12), which drew negative error bars.

    >>> [round(x, 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    >>> wilson_interval(0, 12)[0], wilson_interval(12, 12)[1]
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def win_shares(record: GameRecord) -> list[float]:
    """Each seat's share of the win: 1/k for each of k winners, 0 for the others (the values
    of ``Result.shares``, the one definition, without making a ``Result`` per game)."""
    o = record.outcome
    shares = [0.0] * len(o.scores)
    part = 1 / len(o.winners)
    for seat in o.winners:
        shares[seat] = part
    return shares


def ranks(record: GameRecord) -> list[int]:
    """Each seat's place (1 = best) by score then tie-break; equal seats share a place."""
    o = record.outcome
    keys = list(zip(o.scores, o.queue_cards, strict=True))
    best_first = sorted(keys, reverse=True)
    # 1 + the number of seats strictly ahead = 1 + the first position of the key, best first.
    return [1 + best_first.index(key) for key in keys]


_by_index = attrgetter("index")


def ratings(n_bots: int, records: Sequence[GameRecord]) -> list[dict[str, float]]:
    """Plackett-Luce ratings of the bots (mu, sigma, ordinal = mu - 3 sigma), in list order."""
    mus, sigmas = [MU] * n_bots, [SIGMA] * n_bots
    distinct: dict[tuple[int, ...], bool] = {}  # by lineup: no bot holds two of its seats
    for record in sorted(records, key=_by_index):
        lineup, o = record.lineup, record.outcome
        # The places of ranks() less one: the update reads only their order.
        keys = list(zip(o.scores, o.queue_cards, strict=True))
        places = list(map(sorted(keys, reverse=True).index, keys))
        new_mus, new_sigmas = update([mus[b] for b in lineup], [sigmas[b] for b in lineup], places)
        if (one_seat := distinct.get(lineup)) is None:
            one_seat = distinct[lineup] = len(set(lineup)) == len(lineup)
        if one_seat:
            for bot, mu, sigma in zip(lineup, new_mus, new_sigmas, strict=True):
                mus[bot], sigmas[bot] = mu, sigma
            continue
        seats_of: dict[int, list[int]] = {}
        for seat, bot in enumerate(lineup):
            seats_of.setdefault(bot, []).append(seat)
        for bot, seats in seats_of.items():
            old = mus[bot]
            mus[bot] = old + sum(new_mus[s] - old for s in seats) / len(seats)
            sigmas[bot] = sum(new_sigmas[s] for s in seats) / len(seats)
    rated = [Rating(mu, sigma) for mu, sigma in zip(mus, sigmas, strict=True)]
    return [{"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal} for r in rated]


def bot_rows(settings: Settings, records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Per bot: games and seats played, wins, win share with its interval, mean score, mean
    time per decision and rating."""
    n = len(settings.bots)
    games, seats, decisions = [0] * n, [0] * n, [0] * n
    wins, points, seconds = [0.0] * n, [0.0] * n, [0.0] * n
    for record in records:
        o, lineup = record.outcome, record.lineup
        for bot in set(lineup):
            games[bot] += 1
        for seat, bot in enumerate(lineup):
            seats[bot] += 1
            points[bot] += o.scores[seat]
            decisions[bot] += o.decisions[seat]
            seconds[bot] += o.seconds[seat]
        # Only the winners' shares: adding the others' 0.0 would change no sum.
        part = 1 / len(o.winners)
        for seat in o.winners:
            wins[lineup[seat]] += part
    rows = []
    for bot, rating in enumerate(ratings(n, records)):
        low, high = wilson_interval(wins[bot], seats[bot])
        rows.append(
            {
                "bot": settings.entrants[bot],
                "games": games[bot],
                "seats": seats[bot],
                "wins": wins[bot],
                "win_share": wins[bot] / seats[bot] if seats[bot] else 0.0,
                "win_share_ci95": [low, high],
                "mean_score": points[bot] / seats[bot] if seats[bot] else 0.0,
                "decisions": decisions[bot],
                "mean_decision_seconds": seconds[bot] / decisions[bot] if decisions[bot] else 0.0,
                "rating": rating,
            }
        )
    return rows


def seat_rows(settings: Settings, records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Per seat (0 places first in round 1): win share with its interval and mean score."""
    n = len(records)
    shares = [win_shares(r) for r in records]
    rows = []
    for seat in range(settings.players):
        wins = sum(s[seat] for s in shares)
        points = sum(r.outcome.scores[seat] for r in records)
        low, high = wilson_interval(wins, n)
        rows.append(
            {
                "seat": seat,
                "games": n,
                "wins": wins,
                "win_share": wins / n if n else 0.0,
                "win_share_ci95": [low, high],
                "mean_score": points / n if n else 0.0,
            }
        )
    return rows


def card_rows(settings: Settings, records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Per card type in play: Influence earned and cards revealed, eliminated and left face
    down at the end, as totals and per game."""
    config = settings.config()
    types = list(config.card_types)
    if config.has_twin:
        types.append(CardType.TWIN)
    counts = [r.outcome.cards for r in records]
    # The totals by type index: the records' tuples added up column by column.
    totals: dict[str, list[int]] = {}
    for name in ("influence", "revealed", "eliminated", "hidden"):
        tuples = map(attrgetter(f"{name}_by_type"), counts)
        totals[name] = [sum(column) for column in zip(*tuples, strict=True)] or [0] * len(CardType)
    unknown = sum(c.unknown_influence for c in counts)
    n = max(len(records), 1)
    rows = []
    for t in types:
        row: dict[str, Any] = {"type": t.slug, "name": card_name(t)}
        for name, by_type in totals.items():
            row[name] = by_type[t]
            row[f"{name}_per_game"] = by_type[t] / n
        rows.append(row)
    if unknown:
        row = {"type": UNKNOWN, "name": "(unknown source)"}
        for name in totals:
            row[name] = unknown if name == "influence" else 0
            row[f"{name}_per_game"] = row[name] / n
        rows.append(row)
    return rows


def summarise(settings: Settings, records: Sequence[GameRecord]) -> dict[str, Any]:
    """Every figure of the tournament (see the module docstring); JSON-ready."""
    n = len(records)
    return {
        "games": n,
        "shared_victories": sum(len(r.outcome.winners) > 1 for r in records),
        "mean_decisions_per_game": sum(sum(r.outcome.decisions) for r in records) / max(n, 1),
        "bots": bot_rows(settings, records),
        "seats": seat_rows(settings, records),
        "card_types": card_rows(settings, records),
    }
