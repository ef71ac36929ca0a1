"""The ISMCTS bot and the named levels: legal, seeded, blind to hidden cards, and it finds clear
moves. Budgets are tiny: these tests check behaviour, the strength is measured by scripts."""

from __future__ import annotations

import json
import pickle
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest

from hidden_cards import placement_positions, rotated
from oriflamme.api import Action, ActionKind, CardType, Game, new_game
from oriflamme.bots import (
    Bot,
    BotSpecError,
    GreedyBot,
    IsmctsBot,
    RandomBot,
    bot_move,
    known_bots,
    make_bot,
    parallel,
    play_game,
)
from oriflamme.bots.evaluation import action_score, greedy_state_action
from oriflamme.bots.ismcts import IsmctsSettings, Worlds, best_placements, search_part
from oriflamme.bots.levels import LEVELS, NoisyHeuristicBot
from oriflamme.search import state_of
from scenarios import options, render, setup

CONFIGS = [
    {"players": 3, "cards": "base"},
    {"players": 3, "cards": "embrasement"},
    {"players": 2, "cards": "base", "variant": "two-families"},
]


class Recorder:
    """Wraps a bot and records the types of what the runner hands it."""

    def __init__(self, inner: IsmctsBot) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls = 0

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        # Plain data only: the observation survives a JSON round trip unchanged.
        assert json.loads(json.dumps(observation)) == observation
        assert all(isinstance(a, Action) for a in legal)
        self.calls += 1
        return self.inner.act(observation, legal)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['players']}p-{c['cards']}")
def test_ismcts_plays_legal_actions_to_the_end(config: dict[str, Any]) -> None:
    game = new_game(**config, seed=5)
    bots = {p: Recorder(IsmctsBot(seed=p, iterations=6)) for p in range(game.config.players)}
    result = play_game(game, bots)  # the runner raises BotError on an illegal answer
    assert game.is_over and result == game.result()
    assert sum(bot.calls for bot in bots.values()) == len(game.history)


@pytest.mark.parametrize(
    "spec", ["ismcts:5:rollout=random:horizon=end", "ismcts:5:rollout=greedy:horizon=round",
             "ismcts:5:reward=win", "ismcts:5:reward=margin:c=0",
             "ismcts:8:expand=greedy:normalize=on", "ismcts:8:opponents=greedy:normalize=on",
             "ismcts:8:opponents=greedy:noise=0.5:value=fitted"])
def test_every_rollout_and_reward_plays_legal_actions(spec: str) -> None:
    game = new_game(players=3, cards="embrasement", seed=8)
    result = play_game(game, {0: make_bot(spec, 1), 1: RandomBot(2), 2: RandomBot(3)})
    assert result is not None


def history(bot_seeds: Sequence[int]) -> list[Action]:
    game = new_game(players=3, seed=4)
    play_game(game, {p: IsmctsBot(seed=s, iterations=10) for p, s in enumerate(bot_seeds)})
    return game.history


@pytest.mark.parametrize(("horizon", "rounds"), [("round", 0), ("next", 1), ("end", 5)])
def test_the_rollout_stops_at_its_horizon(horizon: str, rounds: int) -> None:
    game = new_game(players=3, seed=6)
    bot = IsmctsBot(seed=1, iterations=1, horizon=horizon)
    start = game.round
    rewards = bot._play_out(game)
    assert len(rewards) == 3 and all(0.0 <= r <= 1.0 for r in rewards)
    if start + rounds >= 6:
        assert game.is_over
    else:
        # stopped at the first decision after the horizon: the next round's placement
        assert not game.is_over and game.round == start + rounds + 1
        assert game.decision() is not None and game.legal_actions()[0].kind == ActionKind.PLACE


def test_the_same_seed_and_iterations_give_the_same_game() -> None:
    assert history([1, 2, 3]) == history([1, 2, 3])
    assert any(history([1, 2, 3]) != history([s, s + 1, s + 2]) for s in (10, 20, 30))


def test_a_single_option_is_answered_without_search() -> None:
    bot = IsmctsBot(seed=0, iterations=50)
    only = Action.reveal(3)
    assert bot.act({}, [only]) == only  # not even the observation is read
    assert bot.last_search.iterations == 0
    game = new_game(players=3, seed=1)
    bot_move(game, bot)
    assert bot.last_search.iterations == 50


def test_a_time_budget_stops_the_search() -> None:
    """The search stops at its deadline, after one iteration at least: a budget that is over
    once the first iteration ends leaves it at one, whatever the iterations allowed. (How long
    a timed search takes on this machine: benchmarks/server/timings.py.)"""
    game = new_game(players=3, seed=1)
    both = IsmctsBot(seed=0, iterations=5000, seconds=1e-9)
    bot_move(game.copy(), both)
    assert both.last_search.iterations == 1
    timed = IsmctsBot(seed=0, iterations=None, seconds=1e-9)  # the deadline alone
    bot_move(game.copy(), timed)
    assert timed.last_search.iterations == 1
    observation, legal = game.observe(0), game.legal_actions()
    settings = both.settings()
    # A part of a root-parallel search gets the wall-clock deadline of the whole search.
    stats, done = search_part(settings, 5, observation, legal, 5000, time.time() - 60)
    assert done == 1 == sum(visits for visits, _ in stats.values())
    stats, done = search_part(settings, 5, observation, legal, 40, time.time() + 3600)
    assert done == 40 == sum(visits for visits, _ in stats.values())


# -- hidden information ---------------------------------------------------------------------------
def decide(game: Game) -> Action:
    return bot_move(game, IsmctsBot(seed=13, iterations=40))


def test_the_search_ignores_the_hidden_cards_of_opponents() -> None:
    """Reshuffling what red cannot see never changes red's choice: the bot gets only red's view.
    Reshuffling red's own hidden cards (which red knows) does change some choices, so the test
    would catch a bot whose choice depends on hidden cards."""
    own_changes = 0
    for game in placement_positions(6):
        others = rotated(game, {"blue", "green"})
        assert others.position() != game.position()
        assert others.observe(0) == game.observe(0)
        assert decide(others) == decide(game.copy())
        mine = rotated(game, {"red"})
        own_changes += decide(mine) != decide(game)
    assert own_changes > 0


def test_tokens_on_a_face_down_card_make_it_likely_a_guard_or_a_conspiracy() -> None:
    """Blue left its face-down card twice. Uniformly it is an Ambush or a Conspiracy 2 times in
    10 (base set); weighted by LEAVE_ODDS squared (Ambush 1, Conspiracy 0.81, each of the six
    Characters 0.09, Assassination and Royal Decree 0.25 each) it is (1 + 0.81) / 2.85 = 0.64."""
    game = setup([["blue:ambush+2"], ["green:lord*"]], phase="placement",
                 families={"red": {"hand": ["soldier", "spy"]}})
    observation = game.observe(0)
    card = game.card("blue:ambush")
    kept = {CardType.AMBUSH, CardType.CONSPIRACY}

    def share(infer: bool) -> float:
        worlds, rng = Worlds(observation, infer), random.Random(3)
        drawn = [state_of(worlds.draw(rng)).card_type[card] for _ in range(400)]
        return sum(t in kept for t in drawn) / len(drawn)

    assert Worlds(observation).evidence == [(card, 2)]
    assert Worlds(observation, infer=False).evidence == []
    assert 0.55 < share(True) < 0.72
    assert 0.14 < share(False) < 0.26


# -- clear moves ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_last_round_reveals_a_conspiracy_with_four_tokens(seed: int) -> None:
    """R-CONSP-1, R-END-1: revealing gains 2 x 4 = 8 (red 13 against blue 11: red wins); leaving
    it gains nothing, the token is lost at the end (red 5: blue wins)."""
    game = setup([["red:conspiracy+4"], ["blue:lord*"], ["green:heir*"]], round=6,
                 influence=[5, 10, 8])
    assert options(game) == {"reveal red:conspiracy", "leave red:conspiracy"}
    action = bot_move(game, IsmctsBot(seed=seed, iterations=30))
    assert render(game, action) == "reveal red:conspiracy"
    result = game.result()
    assert result is not None and result.winners == (0,)


@pytest.mark.parametrize("seed", range(4))
def test_a_soldier_eliminates_the_opponent_rather_than_its_own_lord(seed: int) -> None:
    """R-SOLDIER-1, R-LORD-1: eliminating Blue's Heir gives red 5+1 and the Lord then 1+1 (red
    8 against blue 7); eliminating red's own Lord leaves red at 6, behind blue's 7."""
    game = setup([["blue:heir*"], ["red:soldier*"], ["red:lord*"]], round=6, cursor=1,
                 influence=[5, 7, 6])
    assert options(game) == {"target blue:heir", "target red:lord"}
    action = bot_move(game, IsmctsBot(seed=seed, iterations=30))
    assert render(game, action) == "target blue:heir"


def wins_against_random(make: Callable[[int], Bot], games: int, first_seed: int) -> float:
    """The wins of ``make(g)`` in 3-player games against two random bots, seats rotated."""
    wins = 0.0
    for g in range(games):
        game = new_game(players=3, seed=first_seed + g)
        seat = g % 3
        bots: dict[int, Bot] = {p: RandomBot(g * 3 + p) for p in range(3)}
        bots[seat] = make(g)
        result = play_game(game, bots)
        assert result is not None
        wins += 1 / len(result.winners) if seat in result.winners else 0.0
    return wins


def test_ismcts_beats_random_bots() -> None:
    """A small search wins far more than its fair third against two random bots."""
    wins = wins_against_random(
        lambda g: IsmctsBot(seed=g, iterations=60, rollout="random", horizon="end"), 12, 100)
    assert wins >= 7


# -- specs and levels ----------------------------------------------------------------------------
def test_specs_set_the_options() -> None:
    bot = make_bot("ismcts:200", 1)
    assert isinstance(bot, IsmctsBot) and (bot.iterations, bot.seconds) == (200, None)
    bot = make_bot("ismcts:time=0.5", 1)
    assert isinstance(bot, IsmctsBot) and (bot.iterations, bot.seconds) == (None, 0.5)
    bot = make_bot("ismcts:iterations=30:time=2:rollout=random:horizon=end:c=1.5:reward=margin"
                   ":infer=off:candidates=5:opponents=greedy:expand=greedy:normalize=on", 1)
    assert isinstance(bot, IsmctsBot)
    assert (bot.iterations, bot.seconds, bot.rollout, bot.horizon, bot.exploration, bot.reward,
            bot.infer, bot.candidates, bot.opponents, bot.expand, bot.normalize) == (
        30, 2.0, "random", "end", 1.5, "margin", False, 5, "greedy", "greedy", True)
    bot = make_bot("ismcts", 1)
    assert isinstance(bot, IsmctsBot)
    assert (bot.iterations, bot.seconds, bot.rollout, bot.horizon, bot.reward, bot.infer,
            bot.expand, bot.normalize) == (1000, None, "greedy", "round", "win", True, "random",
                                           False)
    assert "ismcts" in known_bots()
    bot = make_bot("ismcts:opponents=greedy:noise=0.25:value=fitted", 1)
    assert isinstance(bot, IsmctsBot) and (bot.noise, bot.value) == (0.25, "fitted")
    assert (bot.settings()["noise"], bot.settings()["value"]) == (0.25, "fitted")


def test_the_settings_are_frozen_checked_and_travel_to_the_workers() -> None:
    bot = make_bot("ismcts:opponents=greedy:noise=0.25:value=fitted:c=1.5", 1)
    assert isinstance(bot, IsmctsBot)
    options = bot.options
    assert options == IsmctsSettings(exploration=1.5, opponents="greedy", noise=0.25,
                                     value="fitted")
    assert IsmctsSettings(**bot.settings()) == options
    assert pickle.loads(pickle.dumps(options)) == options  # as the worker processes get them
    with pytest.raises(AttributeError):  # frozen (FrozenInstanceError in the pure build)
        options.noise = 0.5  # type: ignore[misc]
    with pytest.raises(ValueError, match="unknown option 'gredy'"):
        IsmctsSettings(rollout="gredy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="noise must be a probability"):
        IsmctsBot(noise=2.0)


def test_candidates_limit_the_searched_placements_to_the_heuristic_best() -> None:
    """With ``candidates=K`` the search considers only the K placements the one-step heuristic
    rates best (from the bot's own knowledge), and answers one of them."""
    game = placement_positions(1)[0]
    legal = game.legal_actions()
    assert len(legal) > 3
    s = state_of(game)
    scores = sorted((action_score(s, 0, a) for a in legal), reverse=True)
    bot = make_bot("ismcts:30:candidates=3", 1)
    assert isinstance(bot, IsmctsBot)
    worlds = [Worlds(game.observe(0)).draw(random.Random(k)) for k in range(3)]
    for world in worlds:  # any world sampled from the observation ranks them alike
        best = best_placements(world, 0, legal, 3)
        assert len(best) == 3 and set(best) <= set(legal)
        assert sorted((action_score(s, 0, a) for a in best), reverse=True) == scores[:3]
    picks = {make_bot("ismcts:30:candidates=3", k).act(game.observe(0), legal) for k in range(5)}
    assert picks <= set(best_placements(worlds[0], 0, legal, 3))


def test_greedy_expansion_tries_the_heuristic_choice_first() -> None:
    """With ``expand=greedy`` a fresh node expands the one-step heuristic's choice first, so one
    iteration answers it; with random expansion one iteration answers any option."""
    game = placement_positions(3)[2]
    legal = game.legal_actions()
    world = Worlds(game.observe(0)).draw(random.Random(0))
    heuristic = {greedy_state_action(state_of(world), 0, random.Random(k))
                 for k in range(30)}  # its ties
    assert len(heuristic) < len(legal)
    observation = game.observe(0)
    greedy_first = {IsmctsBot(seed=k, iterations=1, expand="greedy").act(observation, legal)
                    for k in range(12)}
    assert greedy_first <= heuristic
    random_first = {IsmctsBot(seed=k, iterations=1).act(observation, legal) for k in range(12)}
    assert not random_first <= heuristic


@pytest.fixture
def serial_searches() -> Iterator[None]:
    """Within the test, root-parallel searches run their parts one after the other here."""
    parallel.disable_pool()
    yield
    parallel.enable_pool()


def test_root_parallel_search_shares_the_iterations_among_processes() -> None:
    """``workers=3``: three searches with their own seeds, two in other processes; their root
    statistics are summed, so the answer is the same as running the three parts here."""
    game = placement_positions(2)[1]
    legal = game.legal_actions()
    observation = game.observe(0)
    bot = make_bot("ismcts:iterations=301:workers=3", 7)
    assert isinstance(bot, IsmctsBot) and bot.workers == 3
    pick = bot.act(observation, legal)
    search = bot.last_search
    assert search.iterations == 301 == sum(search.visits.values())
    assert set(search.visits) <= set(legal) and pick == max(search.visits,
                                                            key=search.visits.__getitem__)
    one = make_bot("ismcts:iterations=301", 7)
    one.act(observation, legal)
    assert one.last_search.visits != search.visits  # not one search: three, with other seeds
    parallel.disable_pool()
    try:
        here = make_bot("ismcts:iterations=301:workers=3", 7)
        assert here.act(observation, legal) == pick
        assert isinstance(here, IsmctsBot) and here.last_search.visits == search.visits
    finally:
        parallel.enable_pool()


def test_a_broken_worker_pool_costs_time_not_the_answer() -> None:
    """If the worker processes die, the parts they should have run are run here: the same
    answer; the next decision starts a new pool."""
    game = placement_positions(2)[1]
    observation, legal = game.observe(0), game.legal_actions()
    parallel.disable_pool()
    try:
        serial = IsmctsBot(seed=3, iterations=90, workers=2)
        expected = serial.act(observation, legal), serial.last_search.visits
    finally:
        parallel.enable_pool()
    pool = parallel.shared_pool(1)
    assert pool is not None
    assert pool.submit(abs, -2).result() == 2  # the worker process is up
    for process in list(pool._processes.values()):  # type: ignore[attr-defined]
        process.kill()
        process.join()
    bot = IsmctsBot(seed=3, iterations=90, workers=2)
    assert (bot.act(observation, legal), bot.last_search.visits) == expected
    again = IsmctsBot(seed=3, iterations=90, workers=2)
    assert (again.act(observation, legal), again.last_search.visits) == expected
    assert parallel.shared_pool(1) is not pool


def test_root_parallel_search_keeps_to_its_time(serial_searches: None) -> None:
    """With a time budget each part stops at the same deadline; run here, the parts follow one
    another, each getting at least one iteration: with a budget over at once, one each."""
    game = placement_positions(1)[0]
    bot = IsmctsBot(seed=1, iterations=5000, seconds=1e-9, workers=2)
    bot.act(game.observe(0), game.legal_actions())
    assert bot.last_search.iterations == 2 == sum(bot.last_search.visits.values())


def test_the_seed_option_overrides_the_runner_seed() -> None:
    game = placement_positions(1)[0]
    legal = game.legal_actions()
    picks = {make_bot("ismcts:20:seed=4", s).act(game.observe(0), legal) for s in range(4)}
    assert len(picks) == 1
    picks = {make_bot("ismcts:20", s).act(game.observe(0), legal) for s in range(6)}
    assert len(picks) > 1


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:iterations=0", "iterations='0': must be at least 1"),
        ("ismcts:iterations=many", "iterations='many': expected a whole number"),
        ("ismcts:time=-1", "time='-1': must be a positive number"),
        ("ismcts:time=0", "time='0': must be a positive number"),
        ("ismcts:c=wide", "c='wide': expected a number"),
        ("ismcts:rollout=minimax", "rollout='minimax': choose from greedy, random"),
        ("ismcts:horizon=forever", "horizon='forever': choose from round, next, end"),
        ("ismcts:reward=points", "reward='points': choose from win, margin"),
        ("ismcts:infer=maybe", "infer='maybe': choose from on, off"),
        ("ismcts:seed=x", "seed='x': expected a whole number"),
        ("ismcts:candidates=-2", "candidates='-2': must be at least 0"),
        ("ismcts:opponents=smart", "opponents='smart': choose from tree, greedy"),
        ("ismcts:expand=best", "expand='best': choose from random, greedy"),
        ("ismcts:normalize=yes", "normalize='yes': choose from on, off"),
        ("ismcts:workers=0", "workers='0': must be at least 1"),
        ("ismcts:noise=2", "option noise must be a probability from 0 to 1, not 2.0"),
        ("ismcts:noise=some", "noise='some': expected a number"),
        ("ismcts:value=learned", "value='learned': choose from hand, fitted"),
        ("ismcts:iterations=3:workers=4", "workers=4: more workers than the 3 iterations"),
        ("ismcts:depth=3", "does not take option"),
        ("ismcts:200:iterations=3", "given twice"),
        ("ismcts:deep", "expected key=value"),
        ("hard:200", "takes no options"),
    ],
)
def test_bad_specs_give_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message.replace("(", r"\(")):
        make_bot(spec, 1)


def test_levels_resolve_to_the_documented_bots() -> None:
    assert set(LEVELS) == {"easy", "medium", "hard", "expert", "learned", "master"} <= set(
        known_bots())
    easy, medium = make_bot("easy", 1), make_bot("medium", 1)
    hard, expert = make_bot("hard", 1), make_bot("expert", 1)
    assert [b.name for b in (easy, medium, hard, expert)] == ["easy", "medium", "hard", "expert"]
    # docs/bots.md and docs/server.md: easy plays a random legal action "one time in three"
    assert isinstance(easy, NoisyHeuristicBot) and easy.noise == pytest.approx(1 / 3)
    assert isinstance(medium, GreedyBot)
    assert isinstance(hard, IsmctsBot) and isinstance(expert, IsmctsBot)
    assert (hard.iterations, hard.seconds, hard.opponents, hard.value) == (
        3000, 1.5, "greedy", "hand")
    assert (expert.iterations, expert.seconds, expert.opponents, expert.value) == (
        6000, 2.0, "greedy", "fitted")
    assert expert.iterations > hard.iterations


def test_easy_and_medium_play_legal_games() -> None:
    game = new_game(players=3, cards="embrasement", seed=2)
    result = play_game(game, {0: make_bot("easy", 1), 1: make_bot("medium", 2),
                              2: make_bot("easy", 3)})
    assert result is not None


def test_the_easy_level_mixes_random_moves_with_the_heuristic() -> None:
    game = placement_positions(1)[0]
    legal = game.legal_actions()
    observation = game.observe(0)
    calm = NoisyHeuristicBot(seed=1, noise=0.0)
    picks = [calm.act(observation, legal) for _ in range(20)]
    wild = NoisyHeuristicBot(seed=1, noise=1.0)
    assert len(set(picks)) <= 2  # the heuristic barely depends on the sampled world here
    assert len({wild.act(observation, legal) for _ in range(20)}) > 4
    with pytest.raises(ValueError, match="probability"):
        NoisyHeuristicBot(noise=1.5)


# -- opponents that may surprise, a fitted value ---------------------------------------------------
def root_visits(spec: str, game: Game) -> dict[Action, int]:
    bot = make_bot(spec, 7)
    assert isinstance(bot, IsmctsBot)
    bot.act(game.observe(0), tuple(game.legal_actions()))
    return dict(bot.last_search.visits)


def test_noise_makes_the_modelled_opponents_play_some_random_moves() -> None:
    """``noise=0`` is the plain heuristic opponent; with noise the opponents' replies inside
    the tree change, and so does where the search spends its iterations."""
    game = placement_positions(1)[0]
    plain = root_visits("ismcts:300:opponents=greedy", game)
    assert root_visits("ismcts:300:opponents=greedy:noise=0", game) == plain
    assert root_visits("ismcts:300:opponents=greedy:noise=1", game) != plain


def test_a_fitted_value_changes_the_search_only_where_it_has_weights(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``value=fitted`` asks :func:`fitted_state_values` at the end of each rollout: without
    weights it is the hand-set value, so the search is the same; with weights it differs."""
    from oriflamme.bots import value

    game = placement_positions(1)[0]
    hand = root_visits("ismcts:300:opponents=greedy", game)
    monkeypatch.setattr(value, "WEIGHTS", {})
    assert root_visits("ismcts:300:opponents=greedy:value=fitted", game) == hand
    # weights that ignore everything but the first to place: a different reward
    monkeypatch.setattr(value, "WEIGHTS", {r: (0.0,) * 7 + (1.0,) for r in range(2, 7)})
    assert root_visits("ismcts:300:opponents=greedy:value=fitted", game) != hand


def test_a_search_at_a_forced_decision_goes_on_past_it() -> None:
    """A decision with one option (a Soldier with one card to eliminate): the search's first
    iteration plays it, and the next decision is no longer the root's (it was, and an action
    of the root's list was looked for among the next player's: IndexError)."""
    from oriflamme.bots.advice import advise

    rng = random.Random(1)
    forced = 0
    for seed in range(40):
        game = new_game(players=2, variant="standard", seed=seed)
        while not game.is_over:
            legal = game.legal_actions()
            player = game.current_player
            assert player is not None
            if len(legal) == 1:
                forced += 1
                advice = advise(game.observe(player), legal, iterations=20)
                assert advice.best == legal[0]
            game.apply(rng.choice(legal))
    assert forced > 10
