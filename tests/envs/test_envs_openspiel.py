"""The OpenSpiel game ``python_oriflamme``: OpenSpiel's own consistency test on every set-up,
an explicit deal equal to the engine's, win-share returns, information states blind to hidden
cards, and OpenSpiel's ISMCTS bot playing whole games against this package's bots."""

from __future__ import annotations

import doctest
import pickle
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from doctests import check_examples  # noqa: E402
from oriflamme.api import END, FRONT, ActionKind, Game, GameConfig  # noqa: E402
from oriflamme.bots import make_bot  # noqa: E402
from oriflamme.encoding import ActionCodec, Layout  # noqa: E402
from oriflamme.envs import openspiel  # noqa: E402
from oriflamme.envs.openspiel import BotPlayer, OriflammeState  # noqa: E402
from scenarios import (  # noqa: E402
    OWN_AMBUSH_BY_EDITION,
    OWN_AMBUSH_MOVES,
    SHARED_VICTORY,
    assert_own_ambush_outcome,
)

SETUPS: list[dict[str, Any]] = [
    {"players": p, "cards": c} for p in (3, 4, 5) for c in ("base", "embrasement")
] + [
    {"players": 2, "cards": "base"},
    {"players": 2, "cards": "embrasement"},
    {"players": 2, "cards": "base", "variant": "standard"},
]


def ids(setup: dict[str, Any]) -> str:
    return "-".join(str(v) for v in setup.values())


def load(**params: Any) -> Any:
    return pyspiel.load_game("python_oriflamme", params)


def engine_deal(config: GameConfig, seed: int) -> list[int]:
    """The chance outcomes that deal what ``Game.new(config, seed)`` deals."""
    refs = Game.new(config, seed).position()["ids"]
    slug_of = {cid: ref.split(":")[1] for ref, cid in refs.items()}
    slugs = [t.slug for t in config.card_types]
    size = config.family_size
    return [slugs.index(slug_of[f * size + k])
            for f in range(config.families) for k in range(len(slugs) - 1)]


def dealt_state(game: Any, rng: random.Random) -> Any:
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    return state


def play_random(state: Any, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


ROOT = Path(__file__).resolve().parents[2]


def test_module_examples() -> None:
    check_examples(openspiel)


def test_rl_doc_examples() -> None:
    pytest.importorskip("pettingzoo")
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(str(ROOT / "docs" / "rl.md"), module_relative=False,
                              optionflags=flags)
    assert result.attempted > 10
    assert result.failed == 0


def test_game_type_and_sizes() -> None:
    game = pyspiel.load_game("python_oriflamme(players=2,variant=two-families,cards=embrasement)")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.num_players() == 2
    assert game.num_distinct_actions() == 1153  # see test_envs_encoding for the arithmetic
    assert game.max_chance_outcomes() == 10
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.observation_tensor_size() == 1519
    assert game.information_state_tensor_size() == 1519 + 44 * (6 + 3)
    custom = load(cards="+".join(["heir", "lord", "spy", "archer", "soldier", "queen",
                                  "prince", "trap", "felon", "schemer"]))
    assert custom.num_distinct_actions() == ActionCodec(Layout.of(GameConfig(
        cards="heir,lord,spy,archer,soldier,queen,prince,trap,felon,schemer"))).size
    with pytest.raises(ValueError, match="players must be 2 to 5"):
        load(players=6)
    with pytest.raises(ValueError, match="two-families variant is for 2 players"):
        load(players=3, variant="two-families")


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_openspiel_random_simulation(setup: dict[str, Any]) -> None:
    """OpenSpiel's checks: legal actions sorted and in range, clones and serialized states
    equal, returns within bounds and summing to 1, game length within the bound."""
    pyspiel.random_sim_test(load(**setup), num_sims=1, serialize=True, verbose=False)


FIRST_EDITION = "python_oriflamme(players=3,cards=base,edition=first)"


def test_first_edition_passes_the_random_simulation_and_round_trips() -> None:
    """R-EDITION-1: the ``edition`` parameter is parsed, kept in the game's parameters and its
    string, and survives loading the game again from that string."""
    game = pyspiel.load_game(FIRST_EDITION)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    params = game.get_parameters()
    assert params == {"players": 3, "cards": "base", "variant": "auto", "edition": "first",
                      "first_player": 0}
    assert str(game) == ("python_oriflamme(cards=base,edition=first,first_player=0,players=3,"
                         "variant=auto)")
    again = pyspiel.load_game(str(game))
    assert again.get_parameters() == params
    assert again.setup.config == game.setup.config == GameConfig(players=3, edition="first")
    assert load(players=3).get_parameters()["edition"] == "revised"
    with pytest.raises(ValueError, match="edition must be one of revised, first"):
        load(players=3, edition="second")


def test_every_state_of_a_first_edition_game_plays_the_first_edition() -> None:
    """The dealt game and every copy of a state (clone, serialized, pickled, resampled) have
    the game's edition; ``state_at`` takes only a position of that edition."""
    game = pyspiel.load_game(FIRST_EDITION)
    assert game.new_initial_state().oriflamme_game() is None  # dealing
    rng = random.Random(10)
    state = dealt_state(game, rng)
    play_random(state, rng, 20)
    _, deserialized = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    copies = [state, state.clone(), deserialized, pickle.loads(pickle.dumps(state)),
              state.resample_from_infostate(1, sampler), game.state_at(state.oriflamme_game())]
    assert [c.oriflamme_game().config.edition for c in copies] == ["first"] * len(copies)
    revised = load(players=3)
    with pytest.raises(ValueError, match="not a game of this set-up"):
        revised.state_at(state.oriflamme_game())
    with pytest.raises(ValueError, match="not a game of this set-up"):
        game.state_at(Game.from_position(TIE))  # a revised-edition position


#: A deal (chance outcomes: indices in the base set) giving each family's ids +0..+8 the Spy,
#: Heir, Assassination (set aside), Archer, Soldier, Royal Decree, Lord, Shapeshifter, Ambush.
SOLDIER_AND_AMBUSH_IN_HAND = [2, 3, 4, 0, 1, 5, 6, 7, 8] * 3


def act(state: Any, pattern: str) -> None:
    """Apply the first legal action of the player to act whose string matches ``pattern``."""
    player = state.current_player()
    matches = [a for a in state.legal_actions()
               if re.match(pattern, state.action_to_string(player, a))]
    assert matches, (pattern, [state.action_to_string(player, a) for a in state.legal_actions()])
    state.apply_action(matches[0])


@pytest.mark.parametrize(("edition", "red", "soldier_stays"), OWN_AMBUSH_BY_EDITION)
def test_the_edition_decides_what_eliminating_ones_own_ambush_does(
    edition: str, red: int, soldier_stays: bool
) -> None:
    """R-AMBUSH-3, R-EDITION-1 through the adapter (``scenarios.OWN_AMBUSH_MOVES``)."""
    state = load(players=3, edition=edition).new_initial_state()
    for outcome in SOLDIER_AND_AMBUSH_IN_HAND:
        state.apply_action(outcome)
    for pattern in OWN_AMBUSH_MOVES:
        act(state, pattern)
    position = state.oriflamme_game().position()
    assert_own_ambush_outcome(position, red, soldier_stays)
    assert position["queue"][-4:-2] == [["blue:archer+1"], ["green:archer+1"]]  # left once


@pytest.mark.parametrize("setup", SETUPS[::2], ids=ids)
def test_the_explicit_deal_is_the_engines_deal(setup: dict[str, Any]) -> None:
    game = load(**setup)
    config = GameConfig(**setup)
    for seed in range(3):
        state = game.new_initial_state()
        outcomes = engine_deal(config, seed)
        for i, outcome in enumerate(outcomes):
            chances = state.chance_outcomes()
            assert len(chances) == 10 - i % 9  # uniform over the types not dealt yet
            assert sum(p for _, p in chances) == pytest.approx(1.0)
            assert len({p for _, p in chances}) == 1
            state.apply_action(outcome)
        assert not state.is_chance_node()
        assert state.oriflamme_game() == Game.new(config, seed, log=False)
        assert state.current_player() == 0


TIE = SHARED_VICTORY


def test_returns_are_win_shares_at_the_end_only() -> None:
    game = load(players=3)
    state = game.state_at(Game.from_position(TIE))
    assert state.returns() == [0.0, 0.0, 0.0]
    leave = [a for a in state.legal_actions() if state.action_to_string(0, a).startswith("Leave")]
    state.apply_action(leave[0])
    assert state.is_terminal()
    assert state.returns() == [0.5, 0.5, 0.0]
    rng = random.Random(2)
    for _ in range(3):
        state = dealt_state(game, rng)
        play_random(state, rng, 10_000)
        result = state.oriflamme_game().result()
        expected = [1 / len(result.winners) if p in result.winners else 0.0 for p in range(3)]
        assert state.returns() == pytest.approx(expected)
    with pytest.raises(ValueError, match="not a game of this set-up"):
        load(players=4).state_at(Game.from_position(TIE))


def test_action_strings_are_readable() -> None:
    game = load(players=3)
    state = game.new_initial_state()
    text = state.action_to_string(pyspiel.PlayerId.CHANCE, 0)
    assert text == "Deal red card #0: Archer"
    state = dealt_state(game, random.Random(1))
    real = state.oriflamme_game()
    action = real.legal_actions()[0]
    index = ActionCodec(Layout.of(real.config)).encode(action, 0)
    assert state.action_to_string(0, index) == f"{real.label(action, viewer=0)} ({action})"
    assert state.action_to_string(0, index).startswith("Place ")
    spend = game.num_distinct_actions() - 1  # not legal now: described, not labelled
    assert state.action_to_string(0, spend) == "spend"


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_information_states_are_blind_to_hidden_cards(setup: dict[str, Any]) -> None:
    """A state resampled from player p's information state looks the same to p (strings,
    tensors, legal actions) while the hidden cards, and another player's view, differ."""
    game = load(**setup)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hidden_differs = other_differs = 0
    for moves in (0, 7, 25, 60):
        state = dealt_state(game, rng)
        play_random(state, rng, moves)
        for p in range(game.num_players()):
            world = state.resample_from_infostate(p, sampler)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.observation_string(p) == state.observation_string(p)
            assert np.array_equal(world.information_state_tensor(p),
                                  state.information_state_tensor(p))
            assert np.array_equal(world.observation_tensor(p), state.observation_tensor(p))
            info.set_from(state, p)
            mine = info.tensor.copy()
            info.set_from(world, p)
            assert np.array_equal(info.tensor, mine)
            if state.current_player() == p:
                assert world.legal_actions() == state.legal_actions()
            hidden_differs += str(world) != str(state)
            q = (p + 1) % game.num_players()
            other_differs += world.observation_string(q) != state.observation_string(q)
    assert hidden_differs > 0 and other_differs > 0


def test_a_player_does_not_know_the_order_of_their_own_pile() -> None:
    """Two-families: deals that differ only in the order of red's pile (ids 6-9, drawn in
    that order, R-2P-1) look the same to red, during the deal and after."""
    game = load(players=2)
    outcomes = engine_deal(GameConfig(players=2), 0)
    swapped = outcomes[:]
    swapped[6], swapped[7] = swapped[7], swapped[6]
    states = [game.new_initial_state(), game.new_initial_state()]
    for i in range(len(outcomes)):
        for state, deal in zip(states, (outcomes, swapped), strict=True):
            state.apply_action(deal[i])
        a, b = states
        assert a.information_state_string(0) == b.information_state_string(0)
        assert np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
    assert str(states[0]) != str(states[1])
    assert states[0].information_state_string(1) == states[1].information_state_string(1)


def test_resampling_during_the_deal_keeps_the_players_own_cards() -> None:
    game = load(players=3)
    rng = random.Random(8)
    state = game.new_initial_state()
    for _ in range(22):  # red and blue dealt, green partly
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for p in range(3):
        world = state.resample_from_infostate(p, sampler)
        assert world.is_chance_node()
        assert world.information_state_string(p) == state.information_state_string(p)
    assert "0:" in state.information_state_string(0)  # red sees its own dealt cards
    assert state.information_state_string(0) != state.information_state_string(1)


def test_serialized_and_cloned_states_continue_identically() -> None:
    game = load(players=3, cards="embrasement")
    rng = random.Random(3)
    state = dealt_state(game, rng)
    play_random(state, rng, 30)
    text = pyspiel.serialize_game_and_state(game, state)
    _, copy = pyspiel.deserialize_game_and_state(text)
    pickled = pickle.loads(pickle.dumps(state))
    clone = state.clone()
    for other in (copy, pickled, clone):
        assert str(other) == str(state)
        assert other.legal_actions() == state.legal_actions()
        assert other.information_state_string(1) == state.information_state_string(1)
    action = state.legal_actions()[-1]
    clone.apply_action(action)
    assert str(clone) != str(state)  # the clone is independent
    state.apply_action(action)
    assert str(clone) == str(state)


def test_information_state_tensor_records_placements() -> None:
    game = load(players=3)
    state = dealt_state(game, random.Random(5))
    size = game.observation_tensor_size()
    real = state.oriflamme_game()
    card = real.legal_actions()[0].card  # "place <card> end" (the Queue is empty)
    state.apply_action(state.legal_actions()[0])
    layout = Layout.of(real.config)
    for viewer in range(3):
        rows = np.asarray(state.information_state_tensor(viewer))[size:].reshape(-1, 9)
        row = rows[layout.relative_card(card, viewer)]
        assert row.tolist() == [1, 0, 0, 0, 0, 0, 1, 0, 0]  # round 1, at the end
        assert rows.sum() == 2


def test_public_observer_shows_no_private_card() -> None:
    game = load(players=3)
    state = dealt_state(game, random.Random(6))
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    private = state.observation_string(0)
    hand = state.oriflamme_game().observe(0)["families"][0]["hand"]
    assert all(f"{e['id']}:{e['type']}" in private for e in hand)
    text = public.string_from(state, 0)
    assert not any(f"{e['id']}:{e['type']}" in text for e in hand)
    assert text == public.string_from(state, 1)
    with pytest.raises(ValueError, match="own view or the public view"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


@pytest.mark.parametrize(("setup", "ours"), [
    ({"players": 3}, ["random", "greedy"]),
    ({"players": 2, "cards": "embrasement"}, ["random"]),
])
def test_openspiel_ismcts_plays_whole_games_against_our_bots(
    setup: dict[str, Any], ours: list[str]
) -> None:
    game = load(**setup)
    rng = np.random.RandomState(7)
    search = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                              max_simulations=8, random_state=rng)
    bots = [search] + [BotPlayer(make_bot(spec, seed=i), i + 1) for i, spec in enumerate(ours)]
    state = game.new_initial_state()
    decisions = [0] * len(bots)
    while not state.is_terminal():  # OpenSpiel's evaluate_bots needs restart_at, which
        if state.is_chance_node():  # the ISMCTS bot lacks
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions[player] += 1
    assert min(decisions) >= 6  # every seat took part: at least one placement per round
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0)
    assert all(r in (0.0, 1.0, 0.5, 1 / 3) for r in returns)


def test_bot_player_acts_only_for_its_seat() -> None:
    game = load(players=3)
    state: OriflammeState = dealt_state(game, random.Random(9))
    player = BotPlayer(make_bot("random", seed=1), 1)
    with pytest.raises(ValueError, match="not player 1's decision"):
        player.step(state)
    index = BotPlayer(make_bot("random", seed=1), 0).step(state)
    assert index in state.legal_actions()


def reference_info_tensor(state: OriflammeState, player: int) -> np.ndarray:
    """The information-state tensor as first defined: the encoder of the player's observation
    (``Game.observe``), then a row per card of each placement in the public moves."""
    setup = state.setup
    game = state.oriflamme_game()
    assert game is not None
    observation = setup.encoder.encode(game.observe(player))
    rows = np.zeros((setup.layout.cards, 9), dtype=np.float32)
    for round_no, move in state.track.moves:
        if move.kind is ActionKind.PLACE:
            row = rows[setup.layout.relative_card(move.card, player)]
            row[round_no - 1] = 1.0
            row[6 + {FRONT: 1, END: 0}.get(move.to, 2)] = 1.0
    return np.concatenate([observation, rows.ravel()])


@pytest.mark.parametrize("setup", SETUPS[::2], ids=ids)
def test_tensors_equal_the_observation_encoding(setup: dict[str, Any]) -> None:
    """The fast tensors (read from the raw state) equal the encoding of the player's
    observation, for every player at every step, through pyspiel and the Python observers,
    the public observer included; a resampled or copied state keeps its placements."""
    game = load(**setup)
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(12)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = dealt_state(game, rng)
    size = game.observation_tensor_size()
    steps = 0
    while not state.is_terminal():
        real = state.oriflamme_game()
        for p in range(game.num_players()):
            expected = reference_info_tensor(state, p)
            assert np.array_equal(np.asarray(state.information_state_tensor(p)), expected)
            assert np.array_equal(np.asarray(state.observation_tensor(p)), expected[:size])
            info.set_from(state, p)
            assert np.array_equal(info.tensor, expected)
            public.set_from(state, p)
            assert np.array_equal(public.tensor, state.setup.encoder.encode(
                real.observe(None), perspective=p))
        if steps % 15 == 0:
            p = state.current_player()
            for other in (state.resample_from_infostate(p, sampler), state.clone()):
                assert np.array_equal(np.asarray(other.information_state_tensor(p)),
                                      reference_info_tensor(other, p))
        play_random(state, rng, 1)
        steps += 1
    assert steps > 20  # whole games: 2 players with a family each take the fewest


def test_a_pickled_game_is_the_same_game() -> None:
    game = load(players=4, cards="embrasement", edition="first")
    copy = pickle.loads(pickle.dumps(game))
    assert str(copy) == str(game)
    assert copy.get_parameters() == game.get_parameters()
    state, other = dealt_state(game, random.Random(4)), dealt_state(copy, random.Random(4))
    play_random(state, random.Random(5), 20)
    play_random(other, random.Random(5), 20)
    assert other.setup.config == state.setup.config
    assert str(other) == str(state)
