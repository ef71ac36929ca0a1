"""The greedy bot and the shared evaluation: legality, determinism, information, play quality.

Scenario positions are given by value (see ``scenarios.py``); the expected moves were chosen by
hand from the rulings cited. Families: red = player 0, blue = player 1, green = player 2.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from doctests import check_examples
from oriflamme.api import Action, Game, WorldSampler, new_game
from oriflamme.bots import (
    BotSpecError,
    GreedyBot,
    RandomBot,
    evaluation,
    greedy,
    known_bots,
    make_bot,
    play_game,
)
from oriflamme.bots.evaluation import (
    evaluate_state,
    greedy_state_action,
    play_heuristic_state,
    projected_state_scores,
)
from oriflamme.search import state_of
from scenarios import decision, render, setup

SETUPS = [
    {"players": 3, "cards": "base"},
    {"players": 3, "cards": "embrasement", "edition": "first"},
    {"players": 4, "cards": "embrasement"},
    {"players": 5, "cards": "base"},
    {"players": 2, "cards": "base", "variant": "two-families"},
    {"players": 2, "cards": "embrasement", "variant": "standard"},
    {"players": 3, "cards": "soldier,archer,spy,heir,queen,cutthroat,trap,machination,"
                            "corruption,prince"},
]


class RecordingBot:
    """Wraps a bot and records the arguments it was given and its answers."""

    def __init__(self, inner: GreedyBot) -> None:
        self.name = inner.name
        self.inner = inner
        self.calls: list[tuple[Mapping[str, Any], Sequence[Action], Action]] = []

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        action = self.inner.act(observation, legal)
        self.calls.append((observation, legal, action))
        return action


def bot_choices(game: Game, seeds: range = range(4)) -> set[str]:
    """What greedy bots with these seeds answer to the pending decision, from the observation
    of the player deciding (the bot never holds the game)."""
    d = game.decision()
    assert d is not None
    legal = tuple(game.legal_actions())
    return {render(game, GreedyBot(seed).act(game.observe(d.player), legal)) for seed in seeds}


# -- contract -----------------------------------------------------------------------------------
@pytest.mark.parametrize("config", SETUPS, ids=lambda c: f"{c['players']}p-{c['cards'][:11]}")
def test_greedy_bots_play_only_legal_actions_to_the_end(config: dict[str, Any]) -> None:
    game = new_game(**config, seed=5)
    bots = {p: RecordingBot(GreedyBot(p)) for p in range(game.config.players)}
    result = play_game(game, bots)  # the runner raises BotError on an illegal answer
    assert result is not None and game.is_over
    calls = [call for bot in bots.values() for call in bot.calls]
    assert len(calls) == len(game.history)
    for observation, legal, action in calls:
        assert action in legal
        json.dumps(observation)  # plain data: the bot is never handed the game


def test_the_same_seed_gives_the_same_game() -> None:
    def history(bot_seed: int) -> list[Action]:
        game = new_game(players=3, cards="embrasement", seed=9)
        play_game(game, {p: GreedyBot(bot_seed + p) for p in range(3)})
        return game.history

    assert history(1) == history(1)
    assert any(history(1) != history(s) for s in (10, 20, 30))


def test_act_works_from_an_observation_and_leaves_it_untouched() -> None:
    game = setup([["red:soldier"], ["blue:heir*"], ["green:lord"]], cursor=0)
    observation = game.observe(0)
    before = copy.deepcopy(observation)
    action = GreedyBot(3).act(observation, tuple(game.legal_actions()))
    assert action in game.legal_actions()
    assert observation == before


def _swap_types(position: dict[str, Any], colour: str, a: str, b: str) -> dict[str, Any]:
    """The position with two cards of one family exchanged: same ids where they were, so a
    player who sees neither card cannot tell the two positions apart."""
    out = copy.deepcopy(position)
    ids = out["ids"]
    ref_a, ref_b = f"{colour}:{a}", f"{colour}:{b}"
    ids[ref_a], ids[ref_b] = ids[ref_b], ids[ref_a]
    swap = {ref_a: ref_b, ref_b: ref_a, a: b, b: a}

    def swapped(text: str) -> str:
        for old, new in swap.items():
            if text == old or text.startswith(old + "+") or text.startswith(old + "*"):
                return new + text[len(old):]
        return text

    out["queue"] = [[swapped(ref) for ref in stack] for stack in out["queue"]]
    out["families"][colour] = {
        zone: [swapped(name) for name in names] if isinstance(names, list) else names
        for zone, names in out["families"][colour].items()
    }
    return out


def test_hidden_cards_of_others_do_not_change_the_choice() -> None:
    """Blue's face-down card is a Heir in one game and an Ambush in the other: red sees the same
    observation, so a bot with the same seed must answer the same (R-INFO-1)."""
    heir = setup([["blue:heir+1"], ["red:soldier*"], ["green:lord*"]], cursor=1,
                 families={"blue": {"hand": ["spy", "lord"]}})
    ambush = Game.from_position(_swap_types(heir.position(), "blue", "heir", "ambush"))
    assert ambush.card("blue:ambush") == heir.card("blue:heir")
    assert ambush.observe(0) == heir.observe(0)
    assert ambush.observe(1) != heir.observe(1)
    for seed in range(3):
        legal = tuple(heir.legal_actions())
        assert GreedyBot(seed).act(heir.observe(0), legal) == GreedyBot(seed).act(
            ambush.observe(0), legal)


def test_doctests() -> None:
    for module in (evaluation, greedy):
        check_examples(module)


def test_registry_builds_the_greedy_bot() -> None:
    assert "greedy" in known_bots()
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert make_bot("greedy:worlds=2", 1).name == "greedy"
    with pytest.raises(BotSpecError, match="worlds"):
        make_bot("greedy:worlds=0", 1)
    with pytest.raises(BotSpecError, match="does not take"):
        make_bot("greedy:depth=2", 1)


# -- scenarios: the obvious move ----------------------------------------------------------------
def test_soldier_eliminates_the_opponent_card_not_its_own() -> None:
    """R-SOLDIER-1, R-ABIL-1: both neighbours are options; hitting the own Lord loses a card."""
    g = setup([["red:lord*"], ["red:soldier*"], ["blue:heir*"]], cursor=1)
    assert decision(g) == (0, "eliminate")
    assert bot_choices(g) == {"target blue:heir"}


def test_archer_shoots_the_opponent_at_the_other_end_not_itself() -> None:
    """R-ARCHER-1: the Archer last in the Queue may hit itself or the first card."""
    g = setup([["blue:heir*"], ["green:spy*"], ["red:archer*"]], cursor=2)
    assert decision(g) == (0, "eliminate")
    assert bot_choices(g) == {"target blue:heir"}


def test_conspiracy_with_three_tokens_is_revealed_before_a_soldier_takes_it() -> None:
    """R-CONSP-1: revealed, 3 tokens give 6; left, blue's Soldier (its only neighbour, acting
    next) must eliminate it and the tokens are lost (R-ELIM-1)."""
    g = setup([["red:conspiracy+3"], ["blue:soldier*"]], cursor=0, round=4)
    assert bot_choices(g) == {"reveal red:conspiracy"}


def test_conspiracy_is_revealed_in_the_last_round() -> None:
    """R-END-1: tokens still on cards are lost at the end; revealing now gives 2 x 2."""
    g = setup([["red:conspiracy+2"], ["blue:heir*"]], cursor=0, round=6)
    assert bot_choices(g) == {"reveal red:conspiracy"}


def test_ambush_stays_face_down_next_to_an_enemy_soldier() -> None:
    """R-AMBUSH-2: blue's Soldier must eliminate it: red gains 4 and the Soldier is discarded;
    revealing would give 1 (R-AMBUSH-1)."""
    g = setup([["red:ambush+1"], ["blue:soldier*"]], cursor=0, round=3)
    assert bot_choices(g) == {"leave red:ambush"}


def test_a_lone_heir_is_revealed() -> None:
    """R-HEIR-1: no other revealed Heir, so revealing gains 2 now and at each later round."""
    g = setup([["red:heir"], ["blue:lord*"]], cursor=0, round=2)
    assert bot_choices(g) == {"reveal red:heir"}


@pytest.mark.parametrize(("influence", "victim"), [([1, 2, 5], 2), ([1, 4, 2], 1)])
def test_spy_steals_from_the_richer_adjacent_opponent(influence: list[int], victim: int) -> None:
    """R-SPY-1: the options are the players controlling a neighbour; both hold a revealed Lord,
    so the richer one is the one to slow down."""
    g = setup([["blue:lord*"], ["red:spy*"], ["green:lord*"]], cursor=1, influence=influence,
              rest="hand")
    assert decision(g) == (0, "steal")
    assert bot_choices(g) == {f"player {victim}"}


def test_soldier_is_placed_next_to_an_opponent() -> None:
    """R-PLACE-1, R-SOLDIER-1, R-ABIL-1: red places last. At the front the Soldier hits blue's
    Heir; at the end its only neighbour is red's own Lord, which it would have to eliminate; on
    the Lord it would cover it."""
    g = setup([["blue:heir*"], ["green:spy*"], ["red:lord*"]], phase="placement", round=3,
              first_player=1, placed=2, rest="hand",
              families={"red": {"hand": ["soldier"], "rest": "set_aside"}})
    assert decision(g) == (0, "place")
    assert bot_choices(g) == {"place red:soldier front"}


def test_heir_is_not_placed_next_to_a_revealed_enemy_soldier() -> None:
    """R-SOLDIER-1: red places last; at the front the revealed Heir would be the best target of
    blue's Soldier, acting right after it; at the end it is out of its reach."""
    g = setup([["blue:soldier*"], ["green:spy*"], ["blue:lord"]], phase="placement", round=3,
              first_player=1, placed=2, rest="hand",
              families={"red": {"hand": ["heir"], "rest": "set_aside"}})
    assert decision(g) == (0, "place")
    assert bot_choices(g) == {"place red:heir end"}


# -- the evaluation and the one-step policy -----------------------------------------------------
def _midgame_positions(config: dict[str, Any], count: int) -> list[Game]:
    """Positions reached by random play from a few deals (the game not over)."""
    rng = random.Random(4)
    out = []
    for seed in range(count):
        game = new_game(**config, seed=seed)
        for _ in range(rng.randrange(5, 45)):
            if game.is_over:
                break
            game.apply(game.random_action(rng))
        if not game.is_over:
            out.append(game)
    return out


@pytest.mark.parametrize("config", SETUPS[:5], ids=lambda c: f"{c['players']}p-{c['cards']}")
def test_the_raw_state_rollout_plays_the_games_rollout(config: dict[str, Any]) -> None:
    """The searches' rollout on a world's raw state (``play_heuristic_state``, through
    ``oriflamme.search.apply_unchecked``) plays exactly the moves the one-step policy plays
    through the Game, to the same position; only the Game's history does not list them."""

    def play_heuristic(game: Game, last_round: int, rng: random.Random) -> None:
        while (d := game.decision()) is not None and game.round <= last_round:
            game.apply(greedy_state_action(state_of(game), d.player, rng), check=False)

    for game in _midgame_positions(config, 6):
        for last in (game.round, game.round + 1, 6):
            through_game, raw = game.copy(), game.copy()
            play_heuristic(through_game, last, random.Random(last))
            play_heuristic_state(state_of(raw), last, random.Random(last))
            assert state_of(raw) == state_of(through_game)
            assert len(raw.history) == len(game.history) <= len(through_game.history)


@pytest.mark.parametrize("config", SETUPS[:5], ids=lambda c: f"{c['players']}p-{c['cards']}")
def test_evaluation_is_a_share_of_victory(config: dict[str, Any]) -> None:
    for game in _midgame_positions(config, 12):
        n = game.config.players
        values = [evaluate_state(state_of(game), p) for p in range(n)]
        assert all(0.0 <= v <= 1.0 for v in values)
        assert sum(values) == pytest.approx(1.0)
        assert len(projected_state_scores(state_of(game))) == n
    game = new_game(**config, seed=1)
    game.playout(random.Random(1))
    result = game.result()
    assert result is not None
    for p in range(game.config.players):
        share = 1 / len(result.winners) if p in result.winners else 0.0
        assert evaluate_state(state_of(game), p) == share


def test_evaluation_prefers_more_influence_and_fewer_threats() -> None:
    base = setup([["red:heir*"], ["blue:lord*"], ["green:spy*"]], phase="placement", round=3)
    richer = setup([["red:heir*"], ["blue:lord*"], ["green:spy*"]], phase="placement", round=3,
                   influence=[4, 1, 1])
    threatened = setup([["red:heir*"], ["blue:soldier*"], ["green:spy*"]], phase="placement",
                       round=3)
    assert evaluate_state(state_of(richer), 0) > evaluate_state(state_of(base), 0)
    assert evaluate_state(state_of(threatened), 0) < evaluate_state(state_of(base), 0)
    # At the deal everyone is equal.
    assert evaluate_state(state_of(new_game(players=4, seed=3)), 2) == pytest.approx(0.25)


@pytest.mark.parametrize("config", SETUPS, ids=lambda c: f"{c['players']}p-{c['cards'][:11]}")
def test_greedy_action_is_legal_and_uses_only_what_the_player_knows(
    config: dict[str, Any],
) -> None:
    """Two worlds drawn from the decider's observation differ only in what they cannot see: the
    policy must answer the same in both (with the same generator)."""
    for game in _midgame_positions(config, 10):
        d = game.decision()
        assert d is not None
        action = greedy_state_action(state_of(game), d.player, random.Random(0))
        assert action in game.legal_actions()
        sampler = WorldSampler(game.observe(d.player))
        answers = {greedy_state_action(state_of(sampler.sample(random.Random(k))), d.player,
                                       random.Random(0))
                   for k in range(3)}
        assert answers == {action}


# -- strength smoke test ------------------------------------------------------------------------
def test_greedy_outscores_random_bots() -> None:
    """30 three-player games, greedy in each seat in turn: its mean score beats the random
    bots' and it wins most games (measured: about 93% of wins; chance is 33%)."""
    greedy_scores: list[int] = []
    random_scores: list[int] = []
    wins = 0
    for g in range(30):
        seat = g % 3
        bots = {p: RandomBot(100 * g + p) for p in range(3)}
        game = new_game(players=3, seed=1000 + g)
        result = play_game(game, {**bots, seat: GreedyBot(g)})
        assert result is not None
        greedy_scores.append(result.scores[seat])
        random_scores += [result.scores[p] for p in range(3) if p != seat]
        wins += seat in result.winners
    assert sum(greedy_scores) / 30 > sum(random_scores) / 60 + 2
    assert wins >= 18
