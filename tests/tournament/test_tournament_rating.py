"""Our Plackett-Luce ratings (oriflamme.tournament.rating) against openskill's and the formulas.

openskill is the reference: ``PlackettLuce()`` with its default parameters, which the
tournament used before it had its own implementation (it stays in the test extras).
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from itertools import product

import pytest
from openskill.models import PlackettLuce

from doctests import check_examples
from oriflamme.tournament import GameRecord, Settings, plan, rating
from oriflamme.tournament.rating import BETA, KAPPA, MU, SIGMA, TAU, Rating, rate, update
from oriflamme.tournament.stats import ranks, ratings
from oriflamme.tournament.worker import CardCounts, Outcome, play_one

MODEL = PlackettLuce()


def _close(got: float, expected: float) -> bool:
    return math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12)


def _openskill_rate(players: Sequence[Rating], places: Sequence[float]) -> list[Rating]:
    teams = [[MODEL.rating(mu=p.mu, sigma=p.sigma)] for p in players]
    rated = MODEL.rate(teams, ranks=[float(r) for r in places])
    return [Rating(team[0].mu, team[0].sigma) for team in rated]


def _assert_same(got: Sequence[Rating], expected: Sequence[Rating], context: object) -> None:
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert _close(g.mu, e.mu) and _close(g.sigma, e.sigma), (context, got, expected)


def _openskill_ratings(n_bots: int, records: Sequence[GameRecord]) -> list[dict[str, float]]:
    """``stats.ratings`` as it was written with openskill (before rating.py)."""
    model = PlackettLuce()
    current = [model.rating() for _ in range(n_bots)]
    for record in sorted(records, key=lambda r: r.index):
        teams = [[model.rating(mu=current[b].mu, sigma=current[b].sigma)] for b in record.lineup]
        rated = model.rate(teams, ranks=[float(r) for r in ranks(record)])
        for bot in set(record.lineup):
            seats = [s for s, b in enumerate(record.lineup) if b == bot]
            mu = current[bot].mu + sum(rated[s][0].mu - current[bot].mu for s in seats) / len(seats)
            sigma = sum(rated[s][0].sigma for s in seats) / len(seats)
            current[bot] = model.rating(mu=mu, sigma=sigma)
    return [{"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for r in current]


def _assert_same_ratings(got: list[dict[str, float]], expected: list[dict[str, float]]) -> None:
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert g.keys() == e.keys() == {"mu", "sigma", "ordinal"}
        assert all(_close(g[key], e[key]) for key in g), (got, expected)


def _record(
    index: int, lineup: tuple[int, ...], scores: tuple[int, ...], queue: tuple[int, ...]
) -> GameRecord:
    keys = list(zip(scores, queue, strict=True))
    winners = tuple(s for s, key in enumerate(keys) if key == max(keys))
    n = len(lineup)
    outcome = Outcome(scores, queue, winners, (1,) * n, (0.0,) * n, CardCounts())
    return GameRecord(index, 0, lineup, ("x",) * n, outcome)


def _random_records(
    rng: random.Random, n_bots: int, games: int, seats: tuple[int, int], repeats: bool
) -> list[GameRecord]:
    """Games of 2 to 5 seats with many ties (small scores) and, if ``repeats``, bots holding
    several seats; given in shuffled order (ratings follow the game index)."""
    records = []
    for index in range(games):
        k = rng.randint(*seats)
        if repeats:
            lineup = tuple(rng.randrange(n_bots) for _ in range(k))
        else:
            lineup = tuple(rng.sample(range(n_bots), k))
        scores = tuple(rng.randint(0, 3) for _ in range(k))
        queue = tuple(rng.randint(0, 1) for _ in range(k))
        records.append(_record(index, lineup, scores, queue))
    rng.shuffle(records)
    return records


# -- the defaults are openskill's ----------------------------------------------------------------


def test_parameters_are_openskills_defaults() -> None:
    openskill = (MODEL.mu, MODEL.sigma, MODEL.beta, MODEL.kappa, MODEL.tau)
    assert openskill == (MU, SIGMA, BETA, KAPPA, TAU)
    assert MODEL.limit_sigma is False and MODEL.balance is False
    fresh = MODEL.rating()
    assert (Rating().mu, Rating().sigma) == (fresh.mu, fresh.sigma)
    assert Rating(30.0, 2.0).ordinal == pytest.approx(MODEL.rating(30.0, 2.0).ordinal())


def test_rating_is_a_small_frozen_value() -> None:
    r = Rating(26.0, 3.0)
    assert r.ordinal == 17.0 and r == Rating(26.0, 3.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.mu = 1.0  # type: ignore[misc]
    assert not hasattr(r, "__dict__")


# -- one update, by hand -------------------------------------------------------------------------


def test_two_players_by_hand() -> None:
    """Equal players, one beats the other: both strengths are equal, so p = 1/2 at the first
    level (and 1 at the loser's own level)."""
    v = SIGMA**2 + TAU**2
    c = math.sqrt(2 * v + 2 * BETA**2)
    omega = v / c * (1 - 1 / 2)
    delta = math.sqrt(v) / c * v / c**2 * (1 / 2 * (1 - 1 / 2))
    sigma = math.sqrt(v * (1 - delta))
    winner, loser = rate([Rating(), Rating()], [1, 2])
    assert winner.mu == pytest.approx(MU + omega, rel=1e-14)
    assert loser.mu == pytest.approx(MU - omega, rel=1e-14)  # (1 - 1/2 - 1): -omega
    assert winner.sigma == pytest.approx(sigma, rel=1e-14)
    assert loser.sigma == pytest.approx(sigma, rel=1e-14)
    # The same figures written out (openskill 6.2.0 gives them too).
    assert winner.mu == pytest.approx(27.635389493140497, rel=1e-12)
    assert winner.sigma == pytest.approx(8.065901413543683, rel=1e-12)


def test_three_players_with_a_tie_by_hand() -> None:
    """Unequal players; seats 0 and 2 tie for first place, seat 1 is last.

    Levels: first place {0, 2} (a = 2) with S_1 = e0 + e1 + e2, last place {1} with S_2 = e1.
    """
    players = [Rating(27.0, 5.0), Rating(24.0, 7.0), Rating(20.0, 3.0)]
    v = [p.sigma**2 + TAU**2 for p in players]
    c = math.sqrt(sum(v) + 3 * BETA**2)
    e = [math.exp(p.mu / c) for p in players]
    s1, s2 = sum(e), e[1]
    p01, p21, p11, p12 = e[0] / s1, e[2] / s1, e[1] / s1, e[1] / s2
    assert p12 == 1.0
    omega = [
        v[0] / c * (1 / 2 - p01),
        v[1] / c * (1 - p11 - p12),
        v[2] / c * (1 / 2 - p21),
    ]
    sums = [p01 * (1 - p01), p11 * (1 - p11) + p12 * (1 - p12), p21 * (1 - p21)]
    delta = [math.sqrt(v[i]) / c * v[i] / c**2 * sums[i] for i in range(3)]
    got = rate(players, [1, 2, 1])
    for i in range(3):
        assert got[i].mu == pytest.approx(players[i].mu + omega[i], rel=1e-13)
        assert got[i].sigma == pytest.approx(math.sqrt(v[i] * (1 - delta[i])), rel=1e-13)
    assert got[1].mu < players[1].mu and got[2].mu > players[2].mu
    _assert_same(got, _openskill_rate(players, [1, 2, 1]), "by hand")


def test_only_the_order_of_the_ranks_counts() -> None:
    players = [Rating(27.0, 5.0), Rating(24.0, 7.0), Rating(20.0, 3.0), Rating(30.0, 1.0)]
    assert rate(players, [1, 3, 1, 2]) == rate(players, [0.5, 9, 0.5, 4])
    assert rate(players, [1, 3, 1, 2]) != rate(players, [1, 3, 2, 2])


def test_bad_games() -> None:
    with pytest.raises(ValueError, match="2 players but 3 ranks"):
        rate([Rating(), Rating()], [1, 2, 3])
    with pytest.raises(ValueError, match="at least two"):
        rate([Rating()], [1])


# -- one update, against openskill ---------------------------------------------------------------


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_every_tie_shape_against_openskill(k: int) -> None:
    """Every assignment of ranks 1..k to k seats (all orders, all tie shapes, gaps in the
    ranks), with random priors."""
    rng = random.Random(k)
    for places in product(range(1, k + 1), repeat=k):
        players = [Rating(rng.uniform(0, 50), rng.uniform(0.5, 9)) for _ in range(k)]
        _assert_same(rate(players, places), _openskill_rate(players, places), places)


def test_extreme_priors_against_openskill() -> None:
    """Far apart skills, tiny and huge sigmas, a player in several seats."""
    rng = random.Random(2)
    for _ in range(2000):
        k = rng.randint(2, 5)
        pool = [
            Rating(rng.uniform(-100, 200), math.exp(rng.uniform(math.log(1e-3), math.log(100))))
            for _ in range(rng.randint(1, k))
        ]
        players = [rng.choice(pool) for _ in range(k)]
        places = [rng.randint(1, k) for _ in range(k)]
        _assert_same(rate(players, places), _openskill_rate(players, places), (players, places))


def test_sigma_may_grow() -> None:
    """tau is added before the update and the result is not capped (limit_sigma off): a
    nearly certain rating comes out less certain."""
    players = [Rating(25.0, 0.01), Rating(25.0, 0.01), Rating(25.0, 0.01)]
    got = rate(players, [1, 2, 2])
    assert all(r.sigma > 0.01 for r in got)
    _assert_same(got, _openskill_rate(players, [1, 2, 2]), "limit_sigma")


def test_the_variance_factor_is_floored_at_kappa() -> None:
    """A last player whose sigma dominates c, beaten at 7 levels where its share e_i / S_r runs
    0.2, 0.3, ..., 0.8: Delta = (sigma_i / c)³ · sum p (1 - p) > 1, so the factor is kappa."""
    shares = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    sigmas = [0.5] * 7 + [1e4]
    c = math.sqrt(sum(s * s + TAU**2 + BETA**2 for s in sigmas))
    below = [1 / p for p in shares] + [1.0]  # S_r with e_last = exp(0) = 1
    players = [Rating(c * math.log(below[r] - below[r + 1]), 0.5) for r in range(7)]
    players.append(Rating(0.0, 1e4))
    places = list(range(1, 9))
    got = rate(players, places)
    v = 1e8 + TAU**2
    assert got[7].sigma == pytest.approx(math.sqrt(v * KAPPA), rel=1e-12)
    _assert_same(got, _openskill_rate(players, places), "kappa")


# -- the same numbers to the last bit as before ``update`` ---------------------------------------


def _rate_as_written_first(players: Sequence[Rating], ranks: Sequence[float]) -> list[Rating]:
    """``rate`` as it was before ``update`` (verbatim): the ratings of
    past tournaments must come out the same to the last bit."""
    k = len(players)
    variances = [p.sigma * p.sigma + TAU * TAU for p in players]
    c = math.sqrt(sum(variances) + k * (BETA * BETA))
    strengths = [math.exp(p.mu / c) for p in players]
    levels = sorted(set(ranks))
    level_of = {r: n for n, r in enumerate(levels)}
    level_strength = [0.0] * len(levels)
    tied = [0] * len(levels)
    for r, e in zip(ranks, strengths, strict=True):
        n = level_of[r]
        level_strength[n] += e
        tied[n] += 1
    below = 0.0
    sums = []
    for strength in reversed(level_strength):
        below += strength
        sums.append(below)
    inv, inv_sq = [], []
    acc = acc_sq = 0.0
    for s in reversed(sums):
        acc += 1.0 / s
        acc_sq += 1.0 / (s * s)
        inv.append(acc)
        inv_sq.append(acc_sq)
    rated = []
    for p, r, v, e in zip(players, ranks, variances, strengths, strict=True):
        n = level_of[r]
        share = e * inv[n]
        omega = v / c * (1.0 / tied[n] - share)
        delta = math.sqrt(v) / c * v / (c * c) * (share - e * e * inv_sq[n])
        rated.append(Rating(p.mu + omega, math.sqrt(v * max(1.0 - delta, KAPPA))))
    return rated


@pytest.mark.parametrize("ties", [False, True], ids=["untied", "ties"])
def test_rate_and_update_give_the_first_numbers_to_the_bit(ties: bool) -> None:
    """``update`` works on bare numbers: with or without ties it gives exactly the numbers of
    the first implementation, with extreme priors."""
    rng = random.Random(21 + ties)
    for _ in range(5000):
        k = rng.randint(2, 6)
        mus = [rng.choice([MU, rng.uniform(-60, 120)]) for _ in range(k)]
        players = [Rating(mu, rng.choice([SIGMA, rng.uniform(0.01, 40)])) for mu in mus]
        if ties:
            places: list[float] = [rng.randint(1, max(1, k - 2)) for _ in range(k)]
        else:
            places = [float(p) for p in rng.sample(range(-5, 50), k)]
        expected = _rate_as_written_first(players, places)
        assert rate(players, places) == expected
        mus, sigmas = update([p.mu for p in players], [p.sigma for p in players], places)
        assert [Rating(m, s) for m, s in zip(mus, sigmas, strict=True)] == expected


def test_ratings_are_those_of_the_first_loop_to_the_bit() -> None:
    """``stats.ratings`` keeps bare numbers and ranks from 0: the ratings are exactly those of
    its first loop, which rated Rating objects with ``ranks`` (bots holding several seats
    included)."""
    rng = random.Random(9)
    records = _random_records(rng, 5, 2000, (2, 5), True)
    current = [Rating()] * 5
    for record in sorted(records, key=lambda r: r.index):
        lineup = record.lineup
        rated = _rate_as_written_first([current[b] for b in lineup], ranks(record))
        if len(set(lineup)) == len(lineup):
            for bot, new in zip(lineup, rated, strict=True):
                current[bot] = new
            continue
        for bot in dict.fromkeys(lineup):
            seats = [s for s, b in enumerate(lineup) if b == bot]
            old = current[bot]
            mu = old.mu + sum(rated[s].mu - old.mu for s in seats) / len(seats)
            current[bot] = Rating(mu, sum(rated[s].sigma for s in seats) / len(seats))
    assert ratings(5, records) == [
        {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal} for r in current
    ]


# -- sequences of games --------------------------------------------------------------------------


@pytest.mark.parametrize("repeats", [False, True], ids=["distinct", "repeated seats"])
def test_thousands_of_games_against_openskill(repeats: bool) -> None:
    """``ratings`` over 3000 random games (2 to 5 seats, many ties) equals the openskill-based
    computation, with sigmas shrunk to a fifth of the prior's."""
    rng = random.Random(7 + repeats)
    records = _random_records(rng, 6, 3000, (2, 5), repeats)
    got = ratings(6, records)
    _assert_same_ratings(got, _openskill_ratings(6, records))
    assert all(r["sigma"] < 2 for r in got)  # from 25/3; tau keeps it near 1.6
    assert len({round(r["mu"], 6) for r in got}) == 6


def test_a_game_sequence_update_by_update() -> None:
    """Our state and openskill's after every one of 2000 updates, both fed their own results."""
    rng = random.Random(3)
    ours = [Rating() for _ in range(5)]
    theirs = [MODEL.rating() for _ in range(5)]
    for game in range(2000):
        k = rng.randint(2, 5)
        seats = rng.sample(range(5), k)
        places = [float(rng.randint(1, 3)) for _ in range(k)]
        for seat, new in zip(seats, rate([ours[p] for p in seats], places), strict=True):
            ours[seat] = new
        rated = MODEL.rate([[theirs[p]] for p in seats], ranks=places)
        for seat, team in zip(seats, rated, strict=True):
            theirs[seat] = team[0]
        _assert_same(ours, [Rating(t.mu, t.sigma) for t in theirs], game)
    assert max(r.sigma for r in ours) < 2


@pytest.mark.parametrize(
    ("bots", "players"), [(("random", "random"), 3), (("random",) * 4, 3), (("random",), 5)]
)
def test_a_real_tournament_against_openskill(bots: tuple[str, ...], players: int) -> None:
    """Random bots: two sharing three seats, four in every trio, one alone in five seats."""
    settings = Settings(bots=bots, players=players, cards="embrasement", games=24, seed=3)
    records = [play_one(job) for job in plan(settings).jobs]
    got = ratings(len(bots), records)
    _assert_same_ratings(got, _openskill_ratings(len(bots), records))
    if len(bots) > 1:
        assert len({r["mu"] for r in got}) > 1


def test_ranks_count_the_seats_strictly_ahead() -> None:
    rng = random.Random(5)
    for record in _random_records(rng, 4, 500, (2, 5), True):
        o = record.outcome
        keys = list(zip(o.scores, o.queue_cards, strict=True))
        assert ranks(record) == [1 + sum(other > key for other in keys) for key in keys]


def test_doctests() -> None:
    check_examples(rating)
