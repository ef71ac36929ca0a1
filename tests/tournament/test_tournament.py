"""Tournaments: seat rotation, reproducibility, card statistics, aggregation, intervals,
ratings, reports, the command line and the Ray backend.

The card-statistics scenarios were worked out by hand from the rulings (R-SPY-1, R-SOLDIER-1,
R-TRAP-2, R-HEIR-1, R-SHIFT-1, R-RES-1); the aggregation figures from hand-made games.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import math
import random
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations, pairwise
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from doctests import check_examples
from oriflamme import tournament
from oriflamme.api import Action, Game, Result, new_game
from oriflamme.bots import NO_OBSERVATION, Bot, RandomBot, make_bot, register_bot, unregister_bot
from oriflamme.bots.base import picks_by_position
from oriflamme.cli import main
from oriflamme.tournament import (
    GameRecord,
    Settings,
    build_results,
    charts,
    lineups,
    milliseconds,
    plan,
    play,
    report,
    schedule,
    stats,
    summarise,
    wilson_interval,
    worker,
    write_report,
)
from oriflamme.tournament.report import results_json
from oriflamme.tournament.stats import ranks, ratings, win_shares
from oriflamme.tournament.worker import (
    CardCounts,
    GameFailed,
    Outcome,
    Table,
    TimedBot,
    play_measured,
    play_one,
)
from scenarios import setup

FIRST = "tourney-first"
BROKEN = "tourney-broken"


class FirstBot:
    """Always the first legal action: deterministic whatever its seed."""

    name = FIRST

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return legal[0]


class BrokenBot:
    """Answers with an action that is never legal."""

    name = BROKEN

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return Action.parse("player 9")


def _first(seed: int, options: Mapping[str, str]) -> Bot:
    return FirstBot()


def _broken(seed: int, options: Mapping[str, str]) -> Bot:
    return BrokenBot()


@pytest.fixture(autouse=True, scope="module")
def _test_bots() -> Iterator[None]:
    """The two test bots exist while this module runs (workers are forked and inherit them)."""
    register_bot(FIRST, _first, "first legal action (tests)")
    register_bot(BROKEN, _broken, "illegal actions (tests)")
    yield
    unregister_bot(FIRST)
    unregister_bot(BROKEN)


# -- schedule ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bots", "players", "rotation"),
    [(1, 3, 1), (2, 3, 2), (3, 3, 3), (2, 5, 2), (4, 3, 12), (5, 2, 20), (5, 4, 20), (2, 2, 2)],
)
def test_every_bot_takes_every_seat_equally_often(bots: int, players: int, rotation: int) -> None:
    """Rotation length: B if B <= P, C(B, P)·P if B > P; each (bot, seat) equally often."""
    lineup_list = lineups(bots, players)
    assert len(lineup_list) == rotation
    assert all(len(lineup) == players for lineup in lineup_list)
    per_seat = Counter((bot, seat) for lineup in lineup_list for seat, bot in enumerate(lineup))
    assert per_seat == {(b, s): rotation // bots for b in range(bots) for s in range(players)}
    if bots > players:  # every pair of bots meets equally often, nobody plays twice in a game
        assert all(len(set(lineup)) == players for lineup in lineup_list)
        pairs = Counter(p for lineup in lineup_list for p in combinations(sorted(lineup), 2))
        assert len(pairs) == math.comb(bots, 2) and len(set(pairs.values())) == 1


def test_documented_lineups() -> None:
    assert lineups(1, 3) == [(0, 0, 0)]
    assert lineups(2, 3) == [(0, 1, 0), (1, 0, 1)]
    assert lineups(3, 3) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_plan_rounds_up_and_shares_deals_within_a_rotation() -> None:
    settings = Settings(bots=("random", FIRST), players=3, games=5, seed=3)
    laid_out = plan(settings)
    assert laid_out.games == 6
    assert [job.lineup for job in laid_out.jobs] == [(0, 1, 0), (1, 0, 1)] * 3
    assert laid_out.jobs[1].specs == (FIRST, "random", FIRST)
    deals = [job.seed for job in laid_out.jobs]
    assert deals[0] == deals[1] and deals[2] == deals[3] and len(set(deals)) == 3
    bot_seeds = [s for job in laid_out.jobs for s in job.bot_seeds]
    assert len(set(bot_seeds)) == len(bot_seeds)
    assert plan(Settings(bots=("random", FIRST), games=4, seed=4)).jobs[0].seed != deals[0]


def test_seeds_are_the_documented_hash_and_those_of_past_tournaments() -> None:
    """A past tournament replays from its seed: plan() derives the same seeds as always (it
    hashes their prefixes once and copies the hashes; these values come from before that)."""
    laid_out = plan(Settings(bots=("random", "random"), players=3, games=4, seed=42))
    assert [(job.seed, job.bot_seeds) for job in laid_out.jobs] == [
        (2968329086494989299, (1288797252909731198, 3161805438555658357, 5649461286495365420)),
        (2968329086494989299, (1780269075068881500, 4047325129320807066, 1338125562835772742)),
        (2428820517861228328, (7083149868301629290, 3252042527236382954, 7619154487136901770)),
        (2428820517861228328, (3457354709090070605, 7726232194256700924, 1724943876690498969)),
    ]
    digest = hashlib.blake2b(b"bot/42/3/2", digest_size=8).digest()
    assert schedule.derive_seed("bot", 42, 3, 2) == int.from_bytes(digest, "big") >> 1


@given(
    seed=st.integers(0, 2**63 - 1),
    bots=st.integers(1, 5),
    players=st.integers(2, 5),
    games=st.integers(1, 40),
)
def test_plan_seeds_are_derive_seed(seed: int, bots: int, players: int, games: int) -> None:
    """Every deal seed is derive_seed("deal", seed, i // L) and every bot seed
    derive_seed("bot", seed, i, seat), whatever the seed and the rotation."""
    settings = Settings(bots=("random",) * bots, players=players, games=games, seed=seed)
    laid_out = plan(settings)
    rotation = len(laid_out.lineups)
    for job in laid_out.jobs:
        assert job.seed == schedule.derive_seed("deal", seed, job.index // rotation)
        assert job.bot_seeds == tuple(
            schedule.derive_seed("bot", seed, job.index, seat) for seat in range(players)
        )


@pytest.mark.parametrize(
    ("bots", "games", "message"),
    [((), 1, "at least one"), (("random", ""), 1, "empty"), (("random",), 0, "--games")],
)
def test_bad_settings(bots: tuple[str, ...], games: int, message: str) -> None:
    with pytest.raises(tournament.SettingsError, match=message):
        plan(Settings(bots=bots, games=games))


# -- playing: reproducibility ------------------------------------------------------------------


def _without_timing(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    out = []
    for record in records:
        data = record.to_json()
        del data["decision_seconds"]
        out.append(data)
    return out


def test_same_seed_same_games_whatever_the_number_of_processes() -> None:
    settings = Settings(bots=("random", FIRST), players=3, cards="embrasement", games=8, seed=11)
    one = play(plan(settings), workers=1)
    two = play(plan(settings), workers=2)
    assert [r.index for r in two] == list(range(8))
    assert _without_timing(one) == _without_timing(two)
    other = play(plan(Settings(bots=("random", FIRST), cards="embrasement", games=8, seed=12)))
    assert _without_timing(other) != _without_timing(one)
    summary_one, summary_two = summarise(settings, one), summarise(settings, two)
    for row in summary_one["bots"] + summary_two["bots"]:
        del row["mean_decision_seconds"]
    assert summary_one == summary_two


def test_records_agree_with_the_games() -> None:
    """Decisions, scores and winners of each record are those of its game replayed."""
    settings = Settings(bots=("random",), players=4, cards="embrasement", games=3, seed=5)
    for record in play(plan(settings)):
        o = record.outcome
        assert sum(o.decisions) > 0 and len(o.seconds) == 4
        assert o.winners and all(o.scores[w] == max(o.scores) for w in o.winners)
        assert record.specs == ("random",) * 4


def test_a_broken_bot_fails_the_tournament_with_the_game_named() -> None:
    with pytest.raises(tournament.GameFailed, match=r"game 0 .*illegal action"):
        play(plan(Settings(bots=(BROKEN,), games=1)))


def test_a_table_plays_the_games_of_any_settings_as_play_one() -> None:
    """A Table prepares the set-up and bot makers of the settings it meets (once for all their
    games): interleaved jobs of two tournaments give the records each job gives alone."""
    first = plan(Settings(bots=("random", FIRST), players=3, cards="embrasement", games=4, seed=1))
    second = plan(Settings(bots=("random",), players=2, games=2, seed=2))
    jobs = [first.jobs[0], second.jobs[0], first.jobs[1], first.jobs[2], second.jobs[1]]
    table = Table()
    assert _without_timing([table.play(job) for job in jobs]) == _without_timing(
        [play_one(job) for job in jobs]
    )


@pytest.mark.parametrize(("bots", "players"), [(3, 3), (4, 2), (1, 4)])
def test_games_sharing_a_deal_are_those_of_fresh_deals(bots: int, players: int) -> None:
    """The games of a rotation share their deal, dealt once and copied for each: every game
    is the one a fresh deal of its seed gives (same history, scores and card counts)."""
    settings = Settings(bots=("random",) * bots, players=players, cards="embrasement", games=9)
    table = Table()
    for job in plan(settings).jobs:
        record = table.play(job)
        game = new_game(players, "embrasement", seed=job.seed)
        bots_of_job = [make_bot("random", seed) for seed in job.bot_seeds]
        fresh = play_measured(game, bots_of_job)
        assert (record.outcome.scores, record.outcome.winners) == (fresh.scores, fresh.winners)
        assert (record.outcome.decisions, record.outcome.cards) == (fresh.decisions, fresh.cards)


def test_a_job_that_cannot_be_set_up_fails_its_game() -> None:
    """An unknown bot or an impossible set-up in a job made by hand (plan() refuses both) fails
    that game, named, like a bot that breaks; the table then plays good jobs again."""
    good = plan(Settings(bots=("random",), games=1)).jobs[0]
    table = Table()
    for settings in (Settings(bots=("nobody",)), Settings(bots=("random",), players=9)):
        job = tournament.GameJob(settings, 5, 1, (0, 0, 0), (1, 2, 3))
        with pytest.raises(GameFailed, match=r"game 5 \(deal seed 1; seats .*\) failed: "):
            table.play(job)
        assert _without_timing([table.play(good)]) == _without_timing([play_one(good)])


# -- card statistics on hand-checked games ------------------------------------------------------

CARDS = (
    "archer",
    "soldier",
    "spy",
    "heir",
    "lord",
    "shapeshifter",
    "ambush",
    "trap",
    "queen",
    "assassination",
)


class ScriptBot:
    """Plays the next action of a script shared by every seat (it must be legal)."""

    name = "script"

    def __init__(self, script: list[Action]) -> None:
        self.script = script

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        action = self.script.pop(0)
        assert action in legal
        return action


def _play_script(game: Game, moves: Sequence[str]) -> Outcome:
    script = [
        Action.parse(" ".join(str(game.card(w)) if ":" in w else w for w in move.split()))
        for move in moves
    ]
    bots = [ScriptBot(script) for _ in range(game.config.players)]
    outcome = play_measured(game, bots)
    assert not script
    return outcome


def test_timed_bots_declare_what_the_bot_they_time_needs() -> None:
    """Issue #13: a tournament's random bots get no observation built either."""
    assert TimedBot(make_bot("random", 1)).needs_observation is False
    assert TimedBot(make_bot("greedy", 1)).needs_observation is True

    class Blind:
        name = "blind"
        needs_observation = False
        seen: ClassVar[list[Mapping[str, Any]]] = []

        def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
            self.seen.append(observation)
            return legal[0]

    outcome = play_measured(new_game(players=3, seed=4), [Blind(), Blind(), Blind()])
    assert len(Blind.seen) == sum(outcome.decisions) > 0
    assert all(obs is NO_OBSERVATION for obs in Blind.seen)


def test_timed_random_bots_pick_by_position_and_are_timed() -> None:
    """Issue #13: the random bot's ``pick`` reaches the runner through the timing wrapper
    (no list built), its decisions are counted and timed, and the games are those of the
    bot choosing from the list."""
    assert picks_by_position(TimedBot(make_bot("random", 1))) is not None
    assert picks_by_position(TimedBot(make_bot("greedy", 1))) is None

    class ListingRandom(RandomBot):
        pick = None  # type: ignore[assignment]

    picked, listed = new_game(players=4, seed=8), new_game(players=4, seed=8)
    by_pick = play_measured(picked, [make_bot("random", s) for s in range(4)])
    by_list = play_measured(listed, [ListingRandom(s) for s in range(4)])
    assert picked.history == listed.history and by_pick.scores == by_list.scores
    assert by_pick.decisions == by_list.decisions and sum(by_pick.decisions) == len(picked.history)
    assert all(seconds > 0 for seconds in by_pick.seconds)


def test_spy_and_trap_steals_credited_to_the_right_cards() -> None:
    """Round 6, Influence 1 each. Red reveals the Spy: +1 (its token, the Spy), steals 1 from
    Blue (the Spy). Blue's Soldier eliminates Green's face-down Trap: +1 (the Soldier), the
    Soldier is discarded and Green steals 3 from Blue, who has 1 (the Trap: 1). Red reveals
    the Heir: +2 (no other Heir). The covered Lord stays face down. Scores 5, 0, 2."""
    game = setup(
        [["red:spy+1"], ["blue:soldier*"], ["green:trap"], ["red:lord", "red:heir"]],
        cards=CARDS,
        round=6,
        influence=[1, 1, 1],
    )
    o = _play_script(game, ["reveal red:spy", "player 1", "target green:trap", "reveal red:heir"])
    assert o.scores == (5, 0, 2) and o.winners == (0,)
    assert o.decisions == (3, 1, 0)
    assert o.cards.influence == {"spy": 2, "soldier": 1, "trap": 1, "heir": 2}
    assert o.cards.revealed == {"spy": 1, "heir": 1}
    assert o.cards.eliminated == {"trap": 1}
    assert o.cards.hidden == {"lord": 1}


def test_a_shapeshifter_copying_a_spy_earns_the_steal() -> None:
    """Round 6, cursor on Red's face-up Shapeshifter: it copies Blue's Spy and steals 1 from
    Green (the Shapeshifter earns it); Green leaves its Lord face down (+1 token, lost)."""
    game = setup(
        [["blue:spy*"], ["red:shapeshifter*"], ["green:lord"]],
        cards=CARDS,
        round=6,
        cursor=1,
        influence=[1, 1, 1],
    )
    o = _play_script(game, ["target blue:spy", "player 2", "leave green:lord"])
    assert o.scores == (2, 1, 0)
    assert o.cards.influence == {"shapeshifter": 1}
    assert o.cards.revealed == {} and o.cards.eliminated == {}
    assert o.cards.hidden == {"lord": 1}


def test_card_counts_add_up_to_the_public_log() -> None:
    """Over whole games: every Influence gained or stolen is credited to a card type, every
    reveal and elimination counted, every face-down Queue card at the end counted."""
    settings = Settings(bots=("random",), players=3, cards="embrasement", games=4, seed=2)
    for job in plan(settings).jobs:
        game = new_game(3, "embrasement", seed=job.seed)
        o = play_measured(game, [make_bot("random", s) for s in job.bot_seeds])
        events = game.events(None)
        earned = sum(e["amount"] for e in events if e["kind"] in ("gained", "stole"))
        assert sum(o.cards.influence.values()) == earned
        assert "unknown" not in o.cards.influence
        assert sum(o.cards.revealed.values()) == sum(e["kind"] == "revealed" for e in events)
        assert sum(o.cards.eliminated.values()) == sum(e["kind"] == "eliminated" for e in events)
        down = [c for stack in game.observe(None)["queue"] for c in stack if not c["face_up"]]
        assert sum(o.cards.hidden.values()) == len(down)
        # By slug, in slug order, as the records' JSON lists them.
        for name, counts in o.cards.to_json().items():
            assert list(counts) == sorted(counts) and counts == getattr(o.cards, name), name


def test_card_counts_by_slug() -> None:
    """Counts kept by type index read by slug: zeros left out, slug order (Influence from no
    known source under ``unknown``, in its place), read-only, the same from CardCounts.of."""
    influence = [0] * len(worker.CardType)
    influence[worker.CardType.SPY] = 2
    influence[worker.CardType.ARCHER] = 1
    counts = CardCounts(influence_by_type=tuple(influence), unknown_influence=3)
    assert list(counts.influence.items()) == [("archer", 1), ("spy", 2), ("unknown", 3)]
    assert counts.revealed == counts.eliminated == counts.hidden == {}
    assert counts.to_json() == {
        "influence": {"archer": 1, "spy": 2, "unknown": 3},
        "revealed": {},
        "eliminated": {},
        "hidden": {},
    }
    assert list(counts.to_json()["influence"]) == ["archer", "spy", "unknown"]
    assert CardCounts.of(influence={"unknown": 3, "spy": 2, "archer": 1}) == counts
    with pytest.raises(TypeError):
        counts.influence["spy"] = 5  # type: ignore[index]
    assert CardCounts.of(hidden={"twin": 1}).hidden_by_type[worker.CardType.TWIN] == 1


# -- aggregation ---------------------------------------------------------------------------------


def _record(
    index: int,
    lineup: tuple[int, ...],
    scores: tuple[int, ...],
    queue_cards: tuple[int, ...],
    winners: tuple[int, ...],
    influence: dict[str, int] | None = None,
) -> GameRecord:
    cards = CardCounts.of(influence=influence)
    n = len(lineup)
    outcome = Outcome(scores, queue_cards, winners, (10,) * n, (0.5,) * n, cards)
    return GameRecord(index, 0, lineup, tuple("ab"[b] for b in lineup), outcome)


HAND_GAMES = [
    # a wins outright from seat 0.
    _record(0, (0, 1), (5, 3), (1, 1), (0,), {"soldier": 3, "spy": 1}),
    # b and a tie on score and Queue cards: half a win each.
    _record(1, (1, 0), (4, 4), (2, 2), (0, 1), {"soldier": 1}),
    # b wins on the tie-break (more Queue cards) from seat 0.
    _record(2, (1, 0), (6, 6), (3, 2), (0,), {"heir": 4}),
]


def test_bot_and_seat_figures_by_hand() -> None:
    settings = Settings(bots=("a", "b"), players=2, games=3)
    summary = summarise(settings, HAND_GAMES)
    a, b = summary["bots"]
    assert (a["seats"], a["wins"], a["mean_score"]) == (3, 1.5, 5.0)
    assert (b["seats"], b["wins"], b["mean_score"]) == (3, 1.5, 13 / 3)
    assert a["win_share"] == b["win_share"] == 0.5
    assert a["win_share_ci95"] == pytest.approx(list(wilson_interval(1.5, 3)))
    assert a["mean_decision_seconds"] == pytest.approx(0.05)
    seat0, seat1 = summary["seats"]
    assert (seat0["wins"], seat0["mean_score"]) == (2.5, 5.0)
    assert (seat1["wins"], seat1["mean_score"]) == (0.5, 13 / 3)
    assert summary["shared_victories"] == 1
    assert summary["mean_decisions_per_game"] == 20


def test_card_type_figures_by_hand() -> None:
    summary = summarise(Settings(bots=("a", "b"), players=2, games=3), HAND_GAMES)
    rows = {row["type"]: row for row in summary["card_types"]}
    assert list(rows) == [
        "archer",
        "soldier",
        "spy",
        "heir",
        "assassination",
        "royal_decree",
        "lord",
        "shapeshifter",
        "ambush",
        "conspiracy",
    ]
    assert rows["soldier"]["influence"] == 4
    assert rows["soldier"]["influence_per_game"] == pytest.approx(4 / 3)
    assert rows["heir"]["influence_per_game"] == pytest.approx(4 / 3)
    assert rows["spy"]["influence_per_game"] == pytest.approx(1 / 3)
    assert rows["lord"]["influence"] == 0 and rows["lord"]["revealed_per_game"] == 0
    assert rows["royal_decree"]["name"] == "Royal Decree"


def test_win_shares_are_the_results_shares() -> None:
    rng = random.Random(4)
    for index in range(300):
        n = rng.randint(2, 5)
        winners = tuple(sorted(rng.sample(range(n), rng.randint(1, n))))
        record = _record(index, (0,) * n, (3,) * n, (1,) * n, winners)
        expected = Result(record.outcome.scores, record.outcome.queue_cards, winners).shares()
        assert win_shares(record) == list(expected)


def test_ranks_follow_score_then_tie_break() -> None:
    assert ranks(HAND_GAMES[0]) == [1, 2]
    assert ranks(HAND_GAMES[1]) == [1, 1]
    assert ranks(HAND_GAMES[2]) == [1, 2]
    three = _record(3, (0, 1, 0), (5, 7, 5), (1, 0, 1), (1,))
    assert ranks(three) == [2, 1, 2]


def test_ratings_against_openskill() -> None:
    """One game a beats b: the ratings are openskill's Plackett-Luce update of that ranking."""
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    got = ratings(2, HAND_GAMES[:1])
    assert got[0]["mu"] == pytest.approx(expected[0][0].mu)
    assert got[1]["sigma"] == pytest.approx(expected[1][0].sigma)
    assert got[0]["ordinal"] == pytest.approx(expected[0][0].mu - 3 * expected[0][0].sigma)
    wins = [
        _record(
            i,
            (0, 1) if i % 2 else (1, 0),
            (5, 1) if i % 2 else (1, 5),
            (0, 0),
            (0,) if i % 2 else (1,),
        )
        for i in range(10)
    ]
    a, b = ratings(2, wins)
    assert a["mu"] > 25 > b["mu"] and a["ordinal"] > b["ordinal"]


def test_self_play_ratings_move_by_the_mean_of_the_seats() -> None:
    """A bot alone in both seats: its two seats' updates cancel, its μ stays."""
    game = _record(0, (0, 0), (5, 3), (0, 0), (0,))
    (rating,) = ratings(1, [game])
    assert rating["mu"] == pytest.approx(25.0)
    assert rating["sigma"] < 25 / 3


def test_wilson_interval() -> None:
    """Textbook values: 8/10 -> (0.4902, 0.9433); 0/10 -> (0, 0.2775); 5/10 symmetric."""
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    low, high = wilson_interval(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(1 - high)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)


# -- reports and the command line ----------------------------------------------------------------


def test_report_files(tmp_path: Path) -> None:
    settings = Settings(bots=("random", FIRST), players=2, games=4, seed=1)
    laid_out = plan(settings)
    records = play(laid_out)
    run = {"command": "test", "started": "now", "seconds": 1.0, "backend": "local", "jobs": 1}
    results = build_results(settings, laid_out, records, run)
    written = write_report(results, tmp_path)
    assert sorted(p.name for p in written) == sorted(
        [
            "results.json",
            "report.md",
            "win_share.svg",
            "rating.svg",
            "seats.svg",
            "card_influence.svg",
        ]
    )
    for path in written:
        if path.suffix == ".svg":
            _svg(path.read_text(encoding="utf-8"))
    data = json.loads((tmp_path / "results.json").read_text())
    assert data == json.loads(json.dumps(results))
    assert data["format"] == "oriflamme-tournament"
    assert len(data["records"]) == data["games"] == 4
    assert data["settings"]["rotation"] == [["random", FIRST], [FIRST, "random"]]
    report = (tmp_path / "report.md").read_text()
    assert "| `random` | 4 | 4 |" in report and "![Seats](seats.svg)" in report
    assert ".png" not in report


def test_cli_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    argv = [
        "tournament",
        "--bots",
        f"random,{FIRST}",
        "--players",
        "3",
        "--games",
        "3",
        "--jobs",
        "2",
        "--seed",
        "7",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "3 games rounded up to 4" in captured.err
    assert "tournament: 4/4 games (100%)" in captured.err
    assert "random" in captured.out and "report.md" in captured.out
    first = json.loads((out / "results.json").read_text())
    assert first["run"]["command"].startswith("oriflamme tournament --bots")
    assert main([*argv[:-1], str(tmp_path / "again"), "--jobs", "1", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["games"] == 4
    assert [r["scores"] for r in again["records"]] == [r["scores"] for r in first["records"]]
    assert (tmp_path / "again" / "report.md").exists()


def test_a_spec_listed_twice_is_two_entrants(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``random,FIRST,FIRST``: one bot against two copies of another, each rated on its own."""
    settings = Settings(bots=("random", FIRST, FIRST), games=3)
    assert settings.entrants == ("random", FIRST, f"{FIRST} #2")
    laid_out = plan(settings)
    for job in laid_out.jobs:
        assert sorted(job.lineup) == [0, 1, 2]  # three entrants, one seat each
        assert job.specs.count(FIRST) == 2
    argv = [
        "tournament",
        "--bots",
        f"random,{FIRST},{FIRST}",
        "--games",
        "3",
        "--jobs",
        "1",
        "--out",
        str(tmp_path / "run"),
        "--json",
    ]
    assert main(argv) == 0
    results = json.loads(capsys.readouterr().out)
    assert [b["bot"] for b in results["bots"]] == ["random", FIRST, f"{FIRST} #2"]
    assert sum(b["wins"] for b in results["bots"]) == pytest.approx(3)
    assert all(b["seats"] == 3 for b in results["bots"])


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--bots", "nobody"], "unknown bot 'nobody'"),
        (["--bots", "random:depth=3"], "does not take option"),
        (["--bots", "random", "--games", "0"], "--games must be at least 1"),
        (["--bots", "random", "--jobs", "0"], "--jobs must be at least 1"),
        (["--bots", "random", "--players", "7"], "--players: expected a whole number from 2 to 5"),
    ],
)
def test_cli_errors(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", "--games", "2", "--out", str(tmp_path / "x"), *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_unwritable_out_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    argv = ["tournament", "--bots", "random", "--games", "1", "--out", str(blocker / "sub")]
    assert main(argv) == 2
    assert "cannot create the output directory" in capsys.readouterr().err


def test_cli_broken_bot_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", BROKEN, "--games", "1", "--jobs", "1", "--out", str(tmp_path)]
    assert main(argv) == 1
    assert "illegal action" in capsys.readouterr().err


def test_cli_ray_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # importing ray now raises ImportError
    argv = [
        "tournament",
        "--bots",
        "random",
        "--games",
        "1",
        "--backend",
        "ray",
        "--out",
        str(tmp_path),
    ]
    assert main(argv) == 2
    assert "the ray backend needs Ray: pip install 'oriflamme[ray]'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "module", [schedule, stats, tournament, charts, report, worker], ids=lambda m: m.__name__
)
def test_doctests(module: ModuleType) -> None:
    check_examples(module)


# -- Ray -----------------------------------------------------------------------------------------


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="Ray is not installed (pip install 'oriflamme[ray]' to test the ray backend)",
)
def test_ray_backend_plays_the_same_games() -> None:
    import ray

    settings = Settings(bots=("random",), players=3, games=4, seed=9)
    ray.init(num_cpus=1, include_dashboard=False, logging_level=logging.WARNING)
    try:
        records = play(plan(settings), backend="ray", workers=1)
        # Ray's workers import oriflamme afresh: the test's own bot is unknown there.
        with pytest.raises(tournament.GameFailed, match=r"^game 0 .*unknown bot") as failure:
            play(plan(Settings(bots=(FIRST,), games=1)), backend="ray", workers=1)
    finally:
        ray.shutdown()
    assert "Traceback" not in str(failure.value)
    assert _without_timing(records) == _without_timing(play(plan(settings)))


# -- issue #19: the command line --------------------------------------------------------------
@given(trials=st.integers(1, 400), data=st.data())
def test_the_interval_always_contains_the_share(trials: int, data: st.DataObject) -> None:
    """#19.1: for 0 of 12 the lower bound came out 2.8e-17 above the share: negative error bars."""
    successes = data.draw(st.integers(0, trials) | st.sampled_from([0, trials]))
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_a_bot_that_never_wins_still_gets_its_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """#19.1: `--bots medium,random,random --players 3 --games 10` crashed in the charts."""
    out = tmp_path / "run"
    argv = [
        "tournament",
        "--bots",
        f"{FIRST},random,random",
        "--players",
        "3",
        "--games",
        "6",
        "--jobs",
        "1",
        "--seed",
        "10",  # a seed where one bot never wins (the first-action bot), checked below
        "--out",
        str(out),
        "--json",
    ]
    assert main(argv) == 0
    results = json.loads(capsys.readouterr().out)
    assert any(b["wins"] in (0, b["seats"]) for b in results["bots"])  # the edge case was met
    shares = _svg((out / "win_share.svg").read_text(encoding="utf-8"))
    assert len(_marks(shares, "bar")) == len(results["bots"])


def test_an_existing_report_is_not_overwritten_and_an_interrupted_run_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """#19.10: --out silently overwrote an earlier report; an interrupted run left an empty
    folder behind."""
    out = tmp_path / "run"
    argv = ["tournament", "--bots", "random", "--games", "1", "--jobs", "1", "--out", str(out)]
    assert main(argv) == 0
    first = (out / "results.json").read_text()
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "already holds files" in err and "--force" in err and err.count("\n") == 1
    assert (out / "results.json").read_text() == first
    assert main([*argv, "--force", "--seed", "9"]) == 0
    assert (out / "results.json").read_text() != first

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr("oriflamme.cli.tournament_run.play", interrupted)
    fresh = tmp_path / "fresh"
    assert main([*argv[:-1], str(fresh)]) == 130
    assert not fresh.exists()


def test_times_per_decision_are_plain_numbers() -> None:
    """#19.11: the ms/dec column printed 1.24e+03 for 1240."""
    assert milliseconds(1.24) == "1,240"
    assert milliseconds(0.0123) == "12.3"
    assert "e" not in milliseconds(0.0000004) and "e" not in milliseconds(123.0)


def test_the_command_line_offers_the_backends_of_the_package() -> None:
    """The parser spells the backends out (``oriflamme --help`` does not import the
    tournament package); they must be the package's."""
    from oriflamme.cli.tournament import BACKEND_CHOICES

    assert BACKEND_CHOICES == tournament.BACKENDS


# -- issue #13: SVG charts without a plotting library, results.json written faster -------------

SVG = "{http://www.w3.org/2000/svg}"
ODD = 'evil <&> "bot"'


def _svg(text: str) -> ET.Element:
    """A chart parsed: standalone SVG with its size."""
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    width, height = float(root.attrib["width"]), float(root.attrib["height"])
    assert root.attrib["viewBox"] == f"0 0 {width:g} {height:g}" and width > 0 and height > 0
    assert "nan" not in text and "inf" not in text
    return root


def _marks(root: ET.Element, kind: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == kind]


def _tip(mark: ET.Element) -> str:
    title = mark.find(f"{SVG}title")
    assert title is not None and title.text
    return title.text


def _texts(root: ET.Element, kind: str | None = None) -> list[str]:
    return [
        "".join(e.itertext())
        for e in root.iter(f"{SVG}text")
        if kind is None or e.get("class") == kind
    ]


def _path_ys(mark: ET.Element) -> list[float]:
    """The y of each point of an error bar's path (``Mx yVy2M...h..``)."""
    d = mark.attrib["d"]
    first, vertical = d[1:].split("V", 1)
    return [float(first.split()[1]), float(vertical.split("M", 1)[0])]


def _chart_results(
    bots: Sequence[tuple[str, float, float, float]],
    influence: Sequence[tuple[str, float]] = (("Heir", 6.2), ("Spy", 0.5), ("Lord", 3.0)),
    players: int = 3,
) -> dict[str, Any]:
    """What ``charts`` reads: bots as (name, win share, μ, σ), card types as (name, value)."""

    def interval(share: float) -> list[float]:
        return [max(0.0, share - 0.05), min(1.0, share + 0.07)]

    return {
        "settings": {"config": {"players": players}},
        "bots": [
            {
                "bot": name,
                "win_share": share,
                "win_share_ci95": interval(share),
                "rating": {"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma},
            }
            for name, share, mu, sigma in bots
        ],
        "seats": [
            {"seat": s, "win_share": 0.3 + 0.05 * s, "win_share_ci95": interval(0.3 + 0.05 * s)}
            for s in range(players)
        ],
        "card_types": [{"name": name, "influence_per_game": v} for name, v in influence],
    }


BOTS = [
    ("random", 0.1, 18.0, 2.0),
    ("ismcts:iterations=200 #2", 0.45, 31.5, 1.5),
    (ODD, 0.25, 25.0, 3.0),
    ("greedy", 0.2, -4.2, 2.5),
]


def _draw(tmp_path: Path, results: dict[str, Any]) -> dict[str, ET.Element]:
    paths = report.charts(results, tmp_path)
    assert sorted(p.name for p in paths) == sorted(report.CHARTS)
    return {p.name: _svg(p.read_text(encoding="utf-8")) for p in paths}


def test_the_win_share_chart_draws_the_shares_faithfully(tmp_path: Path) -> None:
    root = _draw(tmp_path, _chart_results(BOTS))["win_share.svg"]
    bars = sorted(_marks(root, "bar"), key=lambda e: float(e.attrib["x"]))
    assert len(bars) == len(BOTS)
    heights = [float(b.attrib["height"]) for b in bars]
    pixels = heights[1] / 0.45  # per unit of share, from the tallest bar
    for (name, share, _, _), bar, height in zip(BOTS, bars, heights, strict=True):
        assert height == pytest.approx(pixels * share, abs=0.02)
        low, high = max(0.0, share - 0.05), min(1.0, share + 0.07)
        assert _tip(bar) == f"{name}: {100 * share:.1f}% ({100 * low:.1f}% – {100 * high:.1f}%)"
    bottom = float(bars[0].attrib["y"]) + heights[0]
    errors = _marks(root, "error")
    assert len(errors) == len(BOTS)
    for (_, share, _, _), error in zip(BOTS, errors, strict=True):
        top, foot = sorted(_path_ys(error))
        assert (bottom - foot) / pixels == pytest.approx(max(0.0, share - 0.05), abs=1e-3)
        assert (bottom - top) / pixels == pytest.approx(share + 0.07, abs=1e-3)
    (even,) = _marks(root, "reference")
    assert even.attrib["y1"] == even.attrib["y2"]
    assert (bottom - float(even.attrib["y1"])) / pixels == pytest.approx(1 / 3, abs=1e-3)
    assert "even (33.3%)" in _texts(root) and _tip(even) == "even (33.3%)"
    assert _texts(root, "tick") == ["0%", "20%", "40%", "60%", "80%", "100%"]
    labels = ["".join(t.split()) for t in _texts(root, "category")]
    assert labels == ["".join(name.split()) for name, *_ in BOTS]
    text = (tmp_path / "win_share.svg").read_text(encoding="utf-8")
    assert ODD not in text and "evil &lt;&amp;&gt; &quot;bot&quot;" in text


def test_the_rating_chart_places_the_points_by_rating(tmp_path: Path) -> None:
    root = _draw(tmp_path, _chart_results(BOTS))["rating.svg"]
    points = _marks(root, "point")
    ordinals = _marks(root, "ordinal")
    assert len(points) == len(ordinals) == len(_marks(root, "error")) == len(BOTS)
    ys = [float(p.attrib["cy"]) for p in points]
    mus = [mu for _, _, mu, _ in BOTS]
    assert sorted(range(len(BOTS)), key=lambda i: ys[i]) == sorted(
        range(len(BOTS)), key=lambda i: -mus[i]
    )
    # The ticks are round, cover every value and place the points on their scale.
    grid = [float(g.attrib["y1"]) for g in _marks(root, "grid")]
    ticks = [float(t.replace("−", "-")) for t in _texts(root, "tick")]
    steps = {round(b - a, 9) for a, b in pairwise(ticks)}
    assert len(steps) == 1 and steps.pop() in (1, 2, 2.5, 5, 10, 20, 25, 50)
    assert ticks[0] <= min(mu - 3 * s for *_, mu, s in BOTS)
    assert ticks[-1] >= max(mu + s for *_, mu, s in BOTS)

    def y(v: float) -> float:
        return grid[0] + (grid[-1] - grid[0]) * (v - ticks[0]) / (ticks[-1] - ticks[0])

    for (name, _, mu, sigma), point, ordinal in zip(BOTS, points, ordinals, strict=True):
        assert float(point.attrib["cy"]) == pytest.approx(y(mu), abs=0.02)
        assert _tip(point) == f"{name}: μ ± σ = {mu:.2f} ± {sigma:.2f}"
        assert _tip(ordinal) == f"{name}: ordinal μ − 3σ = {mu - 3 * sigma:.2f}"
        assert ordinal.attrib["d"].startswith("M")
    for (_, _, mu, sigma), error in zip(BOTS, _marks(root, "error"), strict=True):
        assert sorted(_path_ys(error)) == pytest.approx(sorted([y(mu - sigma), y(mu + sigma)]),
                                                         abs=0.02)
    assert "μ ± σ" in _texts(root) and "ordinal μ − 3σ" in _texts(root)


def test_the_card_chart_has_one_bar_per_card_type_largest_on_top(tmp_path: Path) -> None:
    influence = [("Heir", 6.2), ("Spy", 0.5), ("Lord", 3.0), ("Royal Decree", 0.0)]
    root = _draw(tmp_path, _chart_results(BOTS, influence))["card_influence.svg"]
    bars = _marks(root, "bar")
    assert len(bars) == len(influence)
    top_down = sorted(bars, key=lambda b: float(b.attrib["y"]))
    expected = sorted(influence, key=lambda c: -c[1])
    assert [_tip(b) for b in top_down] == [f"{name}: {v:.2f}" for name, v in expected]
    widths = [float(b.attrib["width"]) for b in top_down]
    for (_, value), width in zip(expected, widths, strict=True):
        assert width == pytest.approx(widths[0] * value / 6.2, abs=0.02)
    labels = sorted(_marks(root, "category"), key=lambda t: float(t.attrib["y"]))
    assert [t.text for t in labels] == [name for name, _ in expected]


def test_charts_of_flat_negative_and_empty_figures(tmp_path: Path) -> None:
    """All ratings equal with σ = 0, shares 0 and 1, no Influence at all, a negative value."""
    flat = _chart_results(
        [("a", 0.0, 25.0, 0.0), ("b", 1.0, 25.0, 0.0)], [("Heir", 0.0), ("Spy", 0.0)], 2
    )
    drawn = _draw(tmp_path, flat)
    assert [float(b.attrib["width"]) for b in _marks(drawn["card_influence.svg"], "bar")] == [0, 0]
    heights = [float(b.attrib["height"]) for b in _marks(drawn["win_share.svg"], "bar")]
    assert heights[0] == 0 and heights[1] > 0
    ys = {p.attrib["cy"] for p in _marks(drawn["rating.svg"], "point")}
    assert len(ys) == 1 and len(_texts(drawn["rating.svg"], "tick")) >= 2
    negative = _chart_results(
        [("a", 0.5, -12.0, 4.0), ("b", 0.5, -3.0, 1.0)], [("Heir", -1.5), ("Spy", 2.0)], 2
    )
    drawn = _draw(tmp_path, negative)
    spy, heir = sorted(
        _marks(drawn["card_influence.svg"], "bar"), key=lambda b: float(b.attrib["y"])
    )
    assert _tip(spy) == "Spy: 2.00" and _tip(heir) == "Heir: -1.50"
    zero = float(spy.attrib["x"])  # Spy's bar starts at zero, Heir's ends there
    assert float(heir.attrib["x"]) + float(heir.attrib["width"]) == pytest.approx(zero)
    assert float(heir.attrib["width"]) == pytest.approx(float(spy.attrib["width"]) * 1.5 / 2)
    assert any(t.startswith("−") for t in _texts(drawn["rating.svg"], "tick"))


def test_long_and_many_bot_names_stay_readable(tmp_path: Path) -> None:
    """Wrapped on lines, or turned, never wider than the slot; the chart widens with the bots."""
    few = _draw(tmp_path, _chart_results(BOTS[:2]))["win_share.svg"]
    many_bots = [(f"ismcts:iterations={100 * i},c=0.{i} #{i}", 0.1, 20.0, 1.0) for i in range(9)]
    many = _draw(tmp_path, _chart_results(many_bots))["win_share.svg"]
    assert float(many.attrib["width"]) > float(few.attrib["width"]) + 300
    wrapped = next(e for e in few.iter(f"{SVG}text") if e.get("class") == "category"
                   and "iterations" in "".join(e.itertext()))
    assert [t.text for t in wrapped] == ["ismcts:", "iterations=200 #2"]
    assert all(1 <= len(list(t)) <= 3 for t in _marks(many, "category"))
    xs = [float(b.attrib["x"]) for b in _marks(many, "bar")]
    assert min(xs) > 0 and all(b > a for a, b in pairwise(xs))
    unbreakable = [("random", 0.3, 25.0, 1.0), ("x" * 30, 0.3, 25.0, 1.0)]
    turned = _marks(_draw(tmp_path, _chart_results(unbreakable))["rating.svg"], "category")
    assert [t.text for t in turned] == ["random", "x" * 30]
    assert all(t.attrib["transform"].startswith("rotate(-40 ") for t in turned)
    assert all(t.attrib["text-anchor"] == "end" for t in turned)


@given(low=st.floats(-1e6, 1e6), span=st.floats(0, 1e6), count=st.integers(2, 10))
def test_nice_ticks_cover_the_range_in_round_steps(low: float, span: float, count: int) -> None:
    high = low + span
    ticks = charts.nice_ticks(low, high, count)
    steps = [b - a for a, b in pairwise(ticks)]
    slack = 1e-6 * steps[0]  # floating-point noise, far below a pixel
    assert ticks[0] <= low + slack and ticks[-1] >= high - slack
    assert 3 <= len(ticks) <= 2 * count + 3
    assert max(steps) - min(steps) <= 1e-6 * steps[0] + 1e-14 * max(map(abs, ticks))
    mantissa = steps[0] / 10 ** math.floor(math.log10(steps[0]))
    assert any(mantissa == pytest.approx(m) for m in (1, 2, 2.5, 5, 10))


def test_escape_keeps_any_name_valid_xml() -> None:
    name = 'a<b>&"c"\x00\x1b é'
    root = ET.fromstring(f"<t>{charts.escape(name)}</t>")
    assert root.text == 'a<b>&"c"\ufffd\ufffd é'


@pytest.mark.parametrize(
    "records",
    [
        [],
        [{"index": 0, "bots": [ODD, "\n\\ \u2028 é"], "scores": [1, 2], "x": 1.5e-7}],
        [{"index": i, "cards": {"influence": {"spy": i}}, "winners": [], "n": None}
         for i in range(3)],
    ],
    ids=["none", "odd strings", "three"],
)
def test_results_json_is_json_with_one_line_per_record(records: list[dict[str, Any]]) -> None:
    results = {"format": "oriflamme-tournament", "settings": {"bots": [ODD, "b"]},
               "games": len(records), "records": records}
    text = results_json(results)
    assert json.loads(text) == results and text.endswith("}\n")
    lines = text.splitlines()
    assert text.startswith(json.dumps({k: v for k, v in results.items() if k != "records"},
                                      indent=1)[:-2] + ",\n")
    body = lines[lines.index(' "records": [') + 1 : -2] if records else []
    assert [json.loads(line.strip().rstrip(",")) for line in body] == records
    assert json.loads(results_json({"records": records})) == {"records": records}
    assert json.loads(results_json({"games": 0})) == {"games": 0}


def test_reports_do_not_import_matplotlib(tmp_path: Path) -> None:
    """Issue #13: importing matplotlib alone took 0.45 s; the report needs no plotting library.
    A fresh interpreter writes a whole report."""
    import subprocess

    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "import oriflamme.tournament.report as report\n"
        "from oriflamme.tournament import Settings, build_results, plan, play\n"
        "settings = Settings(bots=('random',), players=3, games=3, seed=1)\n"
        "laid_out = plan(settings)\n"
        "run = {'command': 't', 'started': 'now', 'seconds': 0.1, 'backend': 'local', 'jobs': 1}\n"
        "results = build_results(settings, laid_out, play(laid_out), run)\n"
        "written = report.write_report(results, Path(sys.argv[1]))\n"
        "print(len(written), sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                          text=True, check=True)
    assert done.stdout.split(maxsplit=1) == ["6", "[]\n"]
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".svg") == sorted(
        report.CHARTS
    )
