"""``Game.from_deal``: starting the game of a given deal without the position format. The game
it builds is the engine's own deal (``new_game``) and the game of the equivalent position; a
bad deal is refused with a clear message before anything is built."""

from __future__ import annotations

import random
from typing import Any

import pytest

from oriflamme.api import FAMILY_COLOURS, CardType, Game, GameConfig, new_game
from oriflamme.rules import engine
from oriflamme.search import state_of

SETUPS: list[dict[str, Any]] = [
    {"players": p, "cards": c} for p in (3, 4, 5) for c in ("base", "embrasement")
] + [
    {"players": 2, "cards": "base"},
    {"players": 2, "cards": "embrasement"},
    {"players": 2, "cards": "base", "variant": "standard"},
    {"players": 3, "cards": "soldier,spy,heir,lord,prince,queen,trap,felon,schemer,archer",
     "edition": "first"},
]


def ids(setup: dict[str, Any]) -> str:
    return "-".join(str(v) for v in setup.values())[:40]


def equivalent_position(config: GameConfig, types: list[int], first_player: int) -> dict[str, Any]:
    """The position of the deal ``types``, written out card by card with its ids."""
    size = config.family_size
    families: dict[str, dict[str, list[str]]] = {}
    refs: dict[str, int] = {}
    for f in range(config.families):
        colour = FAMILY_COLOURS[f]
        slugs = [CardType(t).slug for t in types[f * size:(f + 1) * size]]
        for k, slug in enumerate(slugs):
            refs[f"{colour}:{slug}"] = f * size + k
        zones = {"set_aside": slugs[:3]}
        if config.two_families:
            zones.update(hand=slugs[3:6], pile=slugs[6:10])
        else:
            zones["hand"] = slugs[3:10]
        if config.has_twin:
            zones["reserve"] = slugs[10:]
        families[colour] = zones
    return {"config": config.to_dict(), "first_player": first_player, "families": families,
            "ids": refs}


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_the_dealt_game_is_the_engines_deal_and_the_positions(setup: dict[str, Any]) -> None:
    config = GameConfig(**setup)
    for seed in range(4):
        dealt = Game.new(config, seed)
        types = list(state_of(dealt).card_type)
        game = Game.from_deal(config, types)
        assert game == dealt
        assert game.position() == dealt.position()
        assert game.seed is None and game.history == [] and game.events() == []
        assert game == Game.from_position(equivalent_position(config, types, 0))
        quiet = Game.from_deal(config, types, log=False)
        assert quiet == Game.new(config, seed, log=False) == dealt.copy(log=False)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        assert game.playout(rng_a) == dealt.playout(rng_b)  # and it plays the same
        assert game == dealt


def test_a_deal_of_any_order_and_seat() -> None:
    """Types in any order per family (not only a shuffle's), any first player; names, values
    and CardTypes are the same deal."""
    config = GameConfig(players=3, first_player=None)
    rng = random.Random(4)
    types: list[CardType] = []
    for _ in range(3):
        family = list(config.card_types)
        rng.shuffle(family)
        types += family
    game = Game.from_deal(config, types, first_player=2)
    assert game.current_player == 2
    assert game == Game.from_position(equivalent_position(config, [int(t) for t in types], 2))
    assert Game.from_deal(config, [t.slug for t in types], first_player=2) == game
    assert Game.from_deal(config, [int(t) for t in types], first_player=2) == game
    names = [t.name.title().replace("_", " ") for t in types]  # "Royal Decree"
    assert Game.from_deal(config, names, first_player=2) == game
    drawn = new_game(players=3, first_player=None, seed=9)  # a first player from the seed
    d = drawn.decision()
    assert d is not None
    assert Game.from_deal(drawn.config, state_of(drawn).card_type, first_player=d.player) == drawn


def test_two_families_piles_are_drawn_in_id_order() -> None:
    config = GameConfig(players=2)
    base = list(range(10))  # archer .. conspiracy, the base set in CardType order
    game = Game.from_deal(config, base * 4)
    position = game.position()
    assert position["families"]["red"]["hand"] == ["heir", "assassination", "royal_decree"]
    rng = random.Random(0)
    while game.round == 1:
        game.apply(game.random_action(rng))
    hand = game.observe(0)["families"][0]["hand"]
    assert hand[-1] == {"id": 6, "family": 0, "type": "lord"}  # id 6 is drawn first


def _refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make building a state fail the test: a refused deal must not get that far."""
    def fail(*args: Any) -> None:
        raise AssertionError("a state was built from a bad deal")
    monkeypatch.setattr(engine, "_set_up", fail)


BASE = list(range(10))
EMBRASEMENT = [int(t) for t in GameConfig(cards="embrasement").card_types]


@pytest.mark.parametrize(("config", "types", "first", "message"), [
    (GameConfig(players=3), BASE * 2, None,
     r"a deal gives the type of each of the 30 cards \(3 families of 10\), not 20"),
    (GameConfig(players=3), BASE * 3 + [0], None, r"each of the 30 cards .*, not 31"),
    (GameConfig(players=3), [*BASE, 1, 1, *BASE[2:], *BASE], None,
     r"family 1 \(blue, ids 10-19\): ids \+0..9 must hold each of the set-up's 10 card types"
     r" once \(missing archer; more than once soldier\)"),
    (GameConfig(players=3), BASE * 2 + [*BASE[:9], int(CardType.QUEEN)], None,
     r"family 2 \(green, ids 20-29\): .* \(missing conspiracy; not in the set-up queen\)"),
    (GameConfig(players=3), BASE[:9] + [int(CardType.TWIN)] + BASE * 2, None,
     r"family 0 \(red, ids 0-9\): .*not in the set-up twin"),
    (GameConfig(players=3, cards="embrasement"), [*EMBRASEMENT, 11] * 2 + [*EMBRASEMENT, 0],
     None, r"family 2 \(green, ids 22-32\): the Twin comes with the Prince as the last card"
           r" \(\+10\), not archer"),
    (GameConfig(players=3, cards="embrasement"), EMBRASEMENT * 3, None,
     r"each of the 33 cards \(3 families of 11\), not 30"),
    (GameConfig(players=3), BASE * 3, 3, r"first_player must be 0 to 2, not 3"),
    (GameConfig(players=3), BASE * 3, True, r"first_player must be 0 to 2, not True"),
    (GameConfig(players=3, first_player=None), BASE * 3, None,
     r"draws the first player from a seed: give first_player"),
    (GameConfig(players=3), BASE * 2 + ["archer", "dragon"] + BASE[2:], None,
     r"unknown card type 'dragon'"),
    (GameConfig(players=3), BASE * 2 + [0, 1.0] + BASE[2:], None, r"not a card type: 1.0"),
    (GameConfig(players=3), BASE * 2 + [0, 21] + BASE[2:], None, r"not a card type: 21"),
    (GameConfig(players=3), BASE * 2 + [0, False] + BASE[2:], None, r"not a card type: False"),
    ({"players": 3}, BASE * 3, None, r"config must be a GameConfig, not dict"),
])
def test_bad_deals_are_refused_before_anything_is_built(
    monkeypatch: pytest.MonkeyPatch, config: Any, types: list[Any], first: Any, message: str,
) -> None:
    given = list(types)
    _refused(monkeypatch)
    with pytest.raises(ValueError, match=message):
        Game.from_deal(config, types, first_player=first)
    assert types == given  # the caller's list is left alone


def test_the_rules_function_checks_its_types_too(monkeypatch: pytest.MonkeyPatch) -> None:
    _refused(monkeypatch)
    config = GameConfig(players=3)
    named: Any = ["archer", *BASE[1:], *BASE, *BASE]  # not integers: refused
    with pytest.raises(ValueError, match=r"family 0 \(red, ids 0-9\): card types are integers"):
        engine.state_from_deal(config, named, 0)
    with pytest.raises(ValueError, match="card types are integers"):
        engine.state_from_deal(config, [True, *BASE[1:], *BASE, *BASE], 0)


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_a_seed_deals_what_random_shuffle_deals(setup: dict[str, Any]) -> None:
    """The deal shuffles each family's cards in turn with ``random.Random(seed)``; the engine
    spells the shuffle out for speed (issue #13), drawing exactly what ``random.shuffle``
    draws, so every seed keeps its deal, and the first player (when random) comes after."""
    config = GameConfig(**setup, first_player=None)
    for seed in range(150):
        rng = random.Random(seed)
        expected: list[int] = []
        for _ in range(config.families):
            deck = [int(t) for t in config.card_types]
            rng.shuffle(deck)
            expected += deck + ([int(CardType.TWIN)] if config.has_twin else [])
        dealt = state_of(Game.new(config, seed, log=False))
        assert list(dealt.card_type) == expected
        assert dealt.first_player == rng.randrange(config.players)
