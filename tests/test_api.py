"""The public API contract (:mod:`oriflamme.api`): set-up, actions, errors, views, results,
and the doctests of the API and the rules modules."""

from __future__ import annotations

import importlib
import pkgutil
import random
from types import ModuleType
from typing import Any

import pytest

import oriflamme.rules
from doctests import check_examples, source_examples
from oriflamme import api
from oriflamme.api import (
    CHOOSABLE,
    EMBRASEMENT_SET,
    Action,
    ActionError,
    CardType,
    ConfigError,
    Game,
    GameConfig,
    IllegalAction,
    new_game,
)

COLOURS = ("red", "blue", "green", "yellow", "purple")


# -- new_game -------------------------------------------------------------------------------------
def test_defaults() -> None:
    game = new_game()
    config = game.config
    assert (config.players, config.variant, config.edition, config.first_player) == (
        3, "standard", "revised", 0
    )
    assert config.card_set_name() == "base"
    assert game.seed == 0 and game.round == 1 and game.history == []
    assert new_game(players=2).config.variant == "two-families"  # R-2P-1 by default


@pytest.mark.parametrize(
    "cards",
    [
        "embrasement",
        "Ablaze",
        ",".join(t.slug for t in EMBRASEMENT_SET),
        list(EMBRASEMENT_SET),
        [t.slug for t in EMBRASEMENT_SET],
        ["Prince", "Reine", "Coupe-jarret", "Apothicaire", "Félon", "Intrigante",
         "Impersonation", "Plot", "Guet-apens", "Bribery"],
    ],
)
def test_card_set_spellings(cards: Any) -> None:
    assert new_game(cards=cards).config.card_types == EMBRASEMENT_SET


def hand_sizes(game: Game) -> list[tuple[int, int, int, int]]:
    return [
        (f["hand_size"], f["set_aside_size"], f["pile_size"], len(f["reserve"]))
        for f in game.observe(None)["families"]
    ]


def test_the_deal() -> None:
    # R-SETUP-1: 3 set aside, 7 in hand; the Twin waits in reserve with a Prince.
    assert hand_sizes(new_game(players=4)) == [(7, 3, 0, 0)] * 4
    assert hand_sizes(new_game(players=5, cards="embrasement")) == [(7, 3, 0, 1)] * 5
    # R-2P-1: four families; 3 aside, 3 in hand and 4 in the draw pile for each.
    assert hand_sizes(new_game(players=2)) == [(3, 3, 4, 0)] * 4
    # R-2P-3: two players with one family each.
    assert hand_sizes(new_game(players=2, variant="standard")) == [(7, 3, 0, 0)] * 2


def test_mixed_set_with_a_prince_brings_its_twin() -> None:
    cards = [CardType.PRINCE, *[t for t in CHOOSABLE if t is not CardType.PRINCE][:9]]
    game = new_game(cards=cards)
    assert game.config.card_set_name() == "mixed"
    assert [c["type"] for c in game.observe(None)["families"][0]["reserve"]] == ["twin"]


def test_seed_and_random_first_player() -> None:
    assert new_game(seed=4).position() == new_game(seed=4).position()
    deals = {str(new_game(seed=s).observe(0)["families"][0]["hand"]) for s in range(5)}
    assert len(deals) > 1
    firsts = [new_game(players=4, first_player=None, seed=s).current_player for s in range(30)]
    assert set(firsts) == {0, 1, 2, 3}
    assert firsts == [new_game(players=4, first_player=None, seed=s).current_player
                      for s in range(30)]
    assert new_game(first_player=2).current_player == 2


def test_log_option() -> None:
    quiet, loud = new_game(log=False), new_game(log=True)
    for game in (quiet, loud):
        game.apply(game.legal_actions()[0])
    assert quiet.events() == []
    assert [e["kind"] for e in loud.events()] == ["placed"]


CONFIG_ERRORS: list[tuple[dict[str, Any], str]] = [
    ({"players": 1}, r"players must be 2 to 5, not 1"),
    ({"players": 6}, r"players must be 2 to 5, not 6"),
    ({"cards": [*CHOOSABLE[:9], "dragon"]}, r"unknown card type 'dragon'"),
    ({"cards": "fancy"}, r"unknown card type 'fancy'"),
    ({"cards": CHOOSABLE[:9]}, r"a family is 10 distinct card types \(R-SET-1\), got 9"),
    ({"cards": [*CHOOSABLE[:9], "twin"]}, r"Twin is not chosen.*Prince \(R-SET-1\)"),
    ({"cards": [*CHOOSABLE[:9], "archer"]}, r"card type archer is listed twice"),
    ({"players": 3, "variant": "two-families"}, r"two-families variant is for 2 players"),
    ({"variant": "solo"}, r"variant must be one of standard, two-families, not 'solo'"),
    ({"edition": "third"}, r"edition must be one of revised, first, not 'third'"),
    ({"first_player": 3}, r"first_player must be 0 to 2 or None, not 3"),
    ({"first_player": -1}, r"first_player must be 0 to 2 or None, not -1"),
    ({"players": 2, "first_player": 2}, r"first_player must be 0 to 1 or None, not 2"),
]


@pytest.mark.parametrize(("kwargs", "message"), CONFIG_ERRORS)
def test_config_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        new_game(**kwargs)


CONFIG_JSON_ERRORS: list[tuple[dict[str, Any], str]] = [
    ({"players": "3"}, r"players must be 2 to 5, not '3'"),
    ({"players": 3.0}, r"players must be 2 to 5, not 3.0"),
    ({"players": True}, r"players must be 2 to 5, not True"),
    ({"players": 7, "variant": 5}, r"players must be 2 to 5, not 7"),
    ({"variant": 5}, r"variant must be one of standard, two-families, not 5"),
    ({"variant": "x", "edition": 3}, r"variant must be one of standard, two-families, not 'x'"),
    ({"edition": ["revised"]}, r"edition must be one of revised, first, not \['revised'\]"),
    ({"first_player": "a"}, r"first_player must be 0 to 2 or None, not a"),
    ({"cards": 5}, r"cards must be 'base', 'embrasement' or a list of 10 card names"),
]


@pytest.mark.parametrize(("data", "message"), CONFIG_JSON_ERRORS)
def test_config_from_json_of_any_type(data: dict[str, Any], message: str) -> None:
    """A configuration read from JSON is refused with ConfigError whatever the types of its
    values, on the compiled build too (whose constructor checks types: issue #13)."""
    with pytest.raises(ConfigError, match=message):
        GameConfig.from_dict(data)


# -- applying actions -----------------------------------------------------------------------------
def test_action_forms_are_equivalent() -> None:
    games = [new_game(seed=3) for _ in range(4)]
    action = games[0].legal_actions()[2]
    games[0].apply(action)
    games[1].apply(str(action))
    games[2].apply(action.to_json())
    games[3].apply(f"PLACE #{action.card} END")  # any case, '#' before an id
    assert games[0] == games[1] == games[2] == games[3]
    assert all(g.history == [action] for g in games)


def snapshot(game: Game) -> dict[str, Any]:
    return {"save": game.save(), "legal": game.legal_actions()}


@pytest.mark.parametrize(
    "action",
    ["place 3 on 5", "place 99 end", "reveal 3", "spend", Action.player(1),
     {"kind": "target", "card": 4}],
)
def test_illegal_actions_change_nothing(action: Any) -> None:
    game = new_game(seed=0)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="is not legal now; player 0 must decide place"):
        game.apply(action)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("place x end", r"malformed action 'place x end'"),
        ("fly 3", r"unknown action kind 'fly'"),
        ("", r"empty action"),
        ({"kind": "place", "card": 3}, r"a 'place' action takes card, to; got \['card'\]"),
        ({"kind": "place", "card": -1, "to": "end"}, r"card must be a non-negative integer"),
        ({"kind": "gain", "card": 1}, r"a 'gain' action takes no other field"),
        (42, r"an action is an Action, its notation or its JSON form, not 42"),
    ],
)
def test_malformed_actions_change_nothing(action: Any, message: str) -> None:
    game = new_game(seed=0)
    before = snapshot(game)
    with pytest.raises(ActionError, match=message) as caught:
        game.apply(action)
    assert not isinstance(caught.value, IllegalAction)
    assert snapshot(game) == before


def test_no_action_once_over() -> None:
    game = new_game(seed=5)
    game.playout(random.Random(5))
    assert game.is_over and game.decision() is None and game.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply("gain")


# -- auto -----------------------------------------------------------------------------------------
def spy_lord_soldier(spy: str) -> Game:
    """Round 2: red's Spy, blue's revealed Lord, green's revealed Soldier, cursor on the Spy."""
    return Game.from_position({
        "config": {"players": 3},
        "round": 2,
        "phase": "resolution",
        "cursor": 0,
        "queue": [[spy], ["blue:lord*"], ["green:soldier*"]],
        "families": {c: {"rest": "hand"} for c in COLOURS[:3]},
    })


def test_auto_applies_single_option_decisions_only() -> None:
    game = spy_lord_soldier("red:spy*")
    lord = game.card("blue:lord")
    # The Spy's one option is blue, the Soldier's one target the Lord (R-SPY-1, R-SOLDIER-1).
    assert game.auto() == 2
    assert game.history == [Action.player(1), Action.target(lord)]
    # Red steals 1 from blue, the Lord gains 1, green's Soldier eliminates it (+1).
    assert game.observe(None)["influence"] == [2, 1, 2]
    decision = game.decision()
    assert decision is not None and (game.round, decision.kind.slug) == (3, "place")
    assert len(game.legal_actions()) > 1
    assert game.auto() == 0


def test_auto_leaves_a_real_choice_alone() -> None:
    game = new_game(seed=1)
    before = game.save()
    assert game.auto() == 0
    assert game.save() == before


def test_apply_with_auto() -> None:
    game = spy_lord_soldier("red:spy")
    spy = game.card("red:spy")
    game.apply(f"reveal {spy}", auto=True)
    assert game.history == [Action.reveal(spy), Action.player(1),
                            Action.target(game.card("blue:lord"))]


# -- cards, players, views ------------------------------------------------------------------------
def test_card_lookup() -> None:
    game = new_game(cards="embrasement", seed=2)
    ids = game.position()["ids"]
    for ref in ("red:queen", "blue:felon", "green:twin"):
        assert game.card(ref) == ids[ref]
    assert game.card("RED:Reine") == ids["red:queen"]  # any case, French names too
    hand = game.observe(0)["families"][0]["hand"]
    assert {game.card(f"red:{c['type']}") for c in hand} == {c["id"] for c in hand}
    # Unknown colour, colour not in a 3-player game, type not in the set, no colour, no type.
    for ref in ("pink:queen", "yellow:queen", "red:soldier", "queen", "red:"):
        with pytest.raises(ValueError, match="no card"):  # documented: every error a ValueError
            game.card(ref)
    assert new_game().card("blue:soldier") >= 0


def test_current_player() -> None:
    game = new_game(players=3, first_player=2)
    order = []
    for _ in range(3):
        order.append(game.current_player)
        game.apply(game.legal_actions()[0])
    assert order == [2, 0, 1]  # clockwise from the first player (R-PLACE-2)
    decision = game.decision()
    assert decision is not None and game.current_player == decision.player
    game.playout(random.Random(1))
    assert game.current_player is None


@pytest.mark.parametrize(("players", "viewer"), [(3, 3), (3, -1), (2, 2), (2, 3)])
def test_observe_rejects_an_invalid_viewer(players: int, viewer: int) -> None:
    game = new_game(players=players)
    with pytest.raises(ValueError, match="viewer must be a player"):
        game.observe(viewer)


def test_observe_shows_only_the_viewers_hand() -> None:
    game = new_game(players=2)  # player 1 plays blue and yellow
    families = game.observe(1)["families"]
    assert [("hand" in f) for f in families] == [False, True, False, True]
    assert all("hand" not in f for f in game.observe(None)["families"])


# -- results (R-END-1) ----------------------------------------------------------------------------
def over(queue: list[list[str]], influence: list[int], players: int = 3) -> Game:
    return Game.from_position({
        "config": {"players": players},
        "round": 6,
        "phase": "over",
        "influence": influence,
        "queue": queue,
        "families": {c: {"rest": "set_aside"} for c in COLOURS[: 4 if players == 2 else 3]},
    })


def test_result_tie_broken_by_controlled_cards() -> None:
    # Red controls its Soldier and, through its Corruption token, blue's Lord (R-CORR-1).
    game = over([["red:soldier*"], ["blue:spy*"], ["blue:lord*@red"]], [3, 3, 1])
    result = game.result()
    assert result is not None
    assert result.scores == (3, 3, 1) and result.queue_cards == (2, 1, 0)
    assert result.winners == (0,)


def test_result_counts_covered_cards() -> None:
    game = over([["red:soldier*", "red:spy"], ["blue:lord*"]], [3, 3, 0])
    result = game.result()
    assert result is not None and result.queue_cards == (2, 1, 0) and result.winners == (0,)


def test_result_shared_tie() -> None:
    game = over([["red:soldier*"], ["blue:spy*"]], [4, 4, 1])
    result = game.result()
    assert result is not None and result.winners == (0, 1)


def test_result_two_families_count_for_their_player() -> None:
    game = over([["red:soldier*"], ["green:spy*"], ["blue:lord*"]], [3, 3], players=2)
    result = game.result()
    assert result is not None and result.queue_cards == (2, 1) and result.winners == (0,)


def expected_winners(game: Game) -> tuple[int, ...]:
    """Most Influence, then most cards controlled in the Queue (covered included)."""
    position = game.position()
    players = game.config.players
    counts = [0] * players
    for stack in position["queue"]:
        for ref in stack:
            colour = ref.partition("@")[2] or ref.partition(":")[0]
            counts[COLOURS.index(colour) % players] += 1
    key = [(position["influence"][p], counts[p]) for p in range(players)]
    return tuple(p for p in range(players) if key[p] == max(key))


@pytest.mark.parametrize("seed", range(12))
def test_result_only_at_the_end_and_consistent(seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(players=2 + seed % 4, cards="embrasement" if seed % 2 else "base", seed=seed)
    while not game.is_over:
        assert game.result() is None
        game.apply(game.random_action(rng))
    result = game.result()
    assert result is not None
    assert list(result.scores) == game.observe(None)["influence"]
    assert result.winners == expected_winners(game)


@pytest.mark.parametrize("seed", range(10))
def test_pick_action_is_the_legal_action_at_that_index(seed: int) -> None:
    """Issue #13: ``pick_action`` (the random bot's path, no list of placements) hands out
    exactly ``legal_actions()[i]`` for every index, and refuses the others; every set-up,
    two families included, the current player agreeing with the decision."""
    rng = random.Random(seed)
    variant = ("two-families", "standard", None)[seed % 3] if seed % 5 < 2 else None
    players = 2 if variant else 2 + seed % 4
    game = new_game(players=players, cards="embrasement" if seed % 2 else "base",
                    variant=variant, seed=seed)
    while not game.is_over:
        d = game.decision()
        assert d is not None and game.current_player == d.player
        legal = game.legal_actions()
        assert [game.pick_action(lambda n, i=i: i) for i in range(len(legal))] == legal
        for bad in (-1, len(legal)):
            asked: list[int] = []

            def pick(n: int, bad: int = bad, asked: list[int] = asked) -> int:
                asked.append(n)
                return bad

            with pytest.raises(IndexError, match=f"no legal action {bad}: there are {len(legal)}"):
                game.pick_action(pick)
            assert asked == [len(legal)]
        game.apply(legal[rng.randrange(len(legal))])
    assert game.current_player is None
    with pytest.raises(IndexError, match="there are 0"):
        game.pick_action(lambda n: 0)


@pytest.mark.parametrize("seed", range(8))
def test_random_action_is_the_legal_action_its_draw_points_at(seed: int) -> None:
    """``random_action`` draws one number ``r`` in [0, 1) per decision and hands out
    ``legal_actions()[int(r * len(legal))]`` without building the list: uniform over exactly
    the legal actions, every kind of decision and set-up."""
    variant = "two-families" if seed % 4 == 3 else None
    players = 2 if variant else 3 + seed % 3
    game = new_game(players=players, cards="embrasement" if seed % 2 else "base",
                    variant=variant, seed=seed)
    rng, twin = random.Random(seed), random.Random(seed)
    kinds: set[str] = set()
    while not game.is_over:
        d = game.decision()
        assert d is not None
        kinds.add(d.kind.slug)
        legal = game.legal_actions()
        action = game.random_action(rng)
        assert action == legal[int(twin.random() * len(legal))]
        game.apply(action)
    assert {"place", "reveal"} <= kinds


@pytest.mark.parametrize("seed", range(8))
def test_playout_plays_the_random_actions_one_by_one(seed: int) -> None:
    """``playout`` (whose loop places cards without calling ``random_action``) plays exactly
    the game that ``random_action`` and ``apply`` play from the same generator: the same
    actions, events and end, in every set-up; with or without the event log."""
    variant = "two-families" if seed % 4 == 3 else None
    players = 2 if variant else 3 + seed % 3
    for log in (True, False):
        config = GameConfig(players=players, cards="embrasement" if seed % 2 else "base",
                            variant=variant)
        fast, slow = Game.new(config, seed, log=log), Game.new(config, seed, log=log)
        rng, twin = random.Random(seed), random.Random(seed)
        played = fast.playout(rng)
        while not slow.is_over:
            slow.apply(slow.random_action(twin))
        assert fast.history == slow.history and played == len(slow.history)
        assert fast == slow and fast.result() == slow.result()
        assert fast.events() == slow.events()
        assert rng.random() == twin.random()  # the same number of draws


@pytest.mark.parametrize("setup", [
    {"players": 3},
    {"players": 2, "cards": "embrasement"},
    {"players": 2, "variant": "standard", "first_player": None},
    {"players": 4, "edition": "first",
     "cards": "soldier,spy,heir,lord,prince,queen,trap,felon,schemer,archer"},
], ids=str)
def test_configurations_and_games_survive_pickling(setup: dict[str, Any]) -> None:
    """Process pools (``simulate --jobs``, tournaments, parallel search) pickle set-ups and
    games; on the compiled build too (its frozen classes cannot be rebuilt field by field)."""
    import pickle

    config = GameConfig(**setup)
    assert pickle.loads(pickle.dumps(config)) == config
    game = Game.new(config, 4)
    rng = random.Random(4)
    for _ in range(12):
        game.apply(game.random_action(rng))
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again.history == game.history and again.config == config
    assert again.observe(1) == game.observe(1)


# -- doctests -------------------------------------------------------------------------------------
def rules_modules() -> list[ModuleType]:
    """The API and the rules modules whose docstrings show examples (tests/test_docs.py runs
    those of every other module)."""
    names = [m.name for m in pkgutil.iter_modules(oriflamme.rules.__path__)]
    modules = [api, *(importlib.import_module(f"oriflamme.rules.{n}") for n in sorted(names))]
    return [module for module in modules if source_examples(module)]


@pytest.mark.parametrize("module", rules_modules(), ids=lambda m: m.__name__)
def test_doctests(module: ModuleType) -> None:
    check_examples(module)
