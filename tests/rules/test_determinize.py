"""World sampling (determinization): a sampled world never contradicts what the player knows.

Property test over random positions of every set-up: the sampled world's observation for that
player equals the real one (R-INFO-1), every card is in exactly one place with its family's
types, and the hidden cards really are dealt anew.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oriflamme.api import CHOOSABLE, CardType, Game, WorldSampler, new_game, sample_world
from oriflamme.rules import determinize

SETUPS = [
    {"players": 3, "cards": "base"},
    {"players": 4, "cards": "embrasement"},
    {"players": 5, "cards": "base", "edition": "first"},
    {"players": 2, "cards": "embrasement"},
    {"players": 2, "cards": "base", "variant": "standard"},
]


def where_each_card_is(game: Game) -> Counter[str]:
    """Card reference -> number of places it is in (from the complete position)."""
    pos = game.position()
    seen: Counter[str] = Counter()
    for stack in pos["queue"]:
        for ref in stack:
            seen[ref.split("*")[0].split("+")[0].split("@")[0]] += 1
    for colour, zones in pos["families"].items():
        for cards in zones.values():
            for name in cards:
                seen[f"{colour}:{name}"] += 1
    return seen


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    setup=st.sampled_from(SETUPS),
    mixed=st.booleans(),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 90),
    viewer_pick=st.integers(0, 4),
)
def test_sampled_world_agrees_with_the_players_knowledge(
    setup: dict[str, object], mixed: bool, seed: int, steps: int, viewer_pick: int
) -> None:
    rng = random.Random(seed)
    cards = rng.sample(CHOOSABLE, 10) if mixed else setup["cards"]
    game = new_game(**{**setup, "cards": cards}, seed=seed)  # type: ignore[arg-type]
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(game.random_action(rng))
    viewer = viewer_pick % game.config.players
    view = game.observe(viewer)
    sampler = WorldSampler(view)
    for k in range(3):
        rng = random.Random(seed * 7 + k)
        if k < 2:
            world = sampler.sample(rng)
        else:  # the two-step way: deal the hidden types, then build that deal's world
            deal = sampler.deal(rng)
            world = sampler.sample(rng, deal=deal)
            assert types_by_id(world) == {i: CardType(t).name.lower() for i, t in enumerate(deal)}
        assert world.observe(viewer) == view
        counts = where_each_card_is(world)
        assert counts == where_each_card_is(game)  # same cards, each in exactly one place
        assert set(counts.values()) == {1}
        assert world.legal_actions() == game.legal_actions() or world.current_player != viewer
        # the world plays on to the end without error
        world.playout(random.Random(k))
        assert world.is_over


def types_by_id(game: Game) -> dict[int, str]:
    """Card id -> its type's name, from the complete position."""
    return {i: ref.split(":")[1] for ref, i in game.position()["ids"].items()}


def test_hidden_cards_are_really_dealt_anew() -> None:
    """The sampler must not copy the true deal: over several worlds an opponent's hidden
    cards take other types (the test of agreement above could not fail otherwise)."""
    game = new_game(players=3, seed=11)
    view = game.observe(0)
    truth = game.position()["ids"]
    sampler = WorldSampler(view)
    differing = 0
    for k in range(10):
        world = sampler.sample(random.Random(k)).position()["ids"]
        assert {r: i for r, i in world.items() if r.startswith("red:")} == {
            r: i for r, i in truth.items() if r.startswith("red:")
        }
        differing += world != truth
    assert differing >= 9


def test_sample_world_from_a_game_or_an_observation() -> None:
    game = new_game(players=4, cards="embrasement", seed=5)
    rng = random.Random(3)
    for _ in range(30):
        game.apply(game.random_action(rng))
    assert sample_world(game, 2, rng).observe(2) == game.observe(2)
    assert sample_world(game.observe(1), 1, rng).observe(1) == game.observe(1)
    with pytest.raises(ValueError, match="player"):
        sample_world(game)
    with pytest.raises(ValueError, match="player 1's"):
        sample_world(game.observe(1), 2)
    with pytest.raises(ValueError, match="observation"):
        WorldSampler(game.observe(None))


COPIES = {
    "pickle": lambda sampler: pickle.loads(pickle.dumps(sampler)),
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
}


@pytest.mark.parametrize("how", COPIES)
def test_a_copied_sampler_samples_as_the_original(how: str) -> None:
    """Bots keep their sampler (ISMCTS): a pickled or copied one, taken mid-use, must go on
    exactly as the original, on the compiled build too (its class has no attribute dict)."""
    game = new_game(players=4, cards="embrasement", seed=8)
    rng = random.Random(2)
    for _ in range(25):
        game.apply(game.random_action(rng))
    sampler = WorldSampler(game.observe(1))
    for _ in range(3):
        sampler.sample(rng)
        sampler.deal(rng)
    twin = COPIES[how](sampler)
    assert type(twin) is WorldSampler and twin is not sampler
    twin_rng = random.Random()
    twin_rng.setstate(rng.getstate())
    for _ in range(3):
        types = sampler.deal(rng)
        assert twin.deal(twin_rng) == types
        world = sampler.sample(rng, log=True, deal=types)
        assert twin.sample(twin_rng, log=True, deal=types) == world
        world = sampler.sample(rng)
        assert twin.sample(twin_rng) == world
        assert world.observe(1) == game.observe(1)


@pytest.mark.parametrize("how", COPIES)
def test_the_engines_sampler_copies_too(how: str) -> None:
    """The compiled class under the public one: pickled or copied on its own (copy.copy of
    the public sampler shares it, so the test above does not reach it for that case)."""
    game = new_game(players=2, cards="embrasement", seed=3)
    sampler = determinize.WorldSampler(game.observe(0))
    twin = COPIES[how](sampler)
    assert type(twin) is determinize.WorldSampler
    for k in range(3):
        types = sampler.deal(random.Random(k))
        assert twin.deal(random.Random(k)) == types
        assert twin.sample(random.Random(k), types) == sampler.sample(random.Random(k), types)
