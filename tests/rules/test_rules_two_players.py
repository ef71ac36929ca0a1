"""Scenario tests of the 2-player games: the official two-families variant (seed 003, R-2P-1,
R-2P-2) and two players with one family each (seed 001, R-2P-3).

Every expectation was worked out by hand from the rulings. In the variant player 0 plays red
and green, player 1 blue and yellow; Influence belongs to players.
"""

from __future__ import annotations

from typing import Any

import pytest

from oriflamme.api import Action, Game, new_game
from scenarios import act, decision, influence, options, queue_refs, setup, where

#: Base attackers next to the Embrasement cards (R-SET-1).
WITH_SOLDIER = (
    "soldier", "shapeshifter", "ambush", "prince", "queen",
    "cutthroat", "usurpation", "felon", "trap", "corruption",
)


def two_families(queue: list[list[str]], **kwargs: Any) -> Game:
    """A position of the two-families variant (see :func:`scenarios.setup`)."""
    return setup(queue, players=2, **kwargs)


def play_leaving_everything(game: Game) -> list[dict[str, Any]]:
    """Play to the end, leaving every card face down and placing at the end of the Queue
    (the alphabetically first such placement). For each round, record who placed in turn and,
    before the first placement, each player's hand size and each family's pile size."""
    rounds: list[dict[str, Any]] = []
    while (d := game.decision()) is not None:
        if d.kind.slug == "reveal":
            game.apply(Action.leave(d.card))
            continue
        assert d.kind.slug == "place"
        position = game.position()
        if position["placed"] == 0:
            zones = position["families"]
            rounds.append({
                "placers": [],
                "hands": [
                    sum(len(zones[colour].get("hand", [])) for colour in colours_of(game, p))
                    for p in range(game.config.players)
                ],
                "piles": {colour: len(z.get("pile", [])) for colour, z in zones.items()},
            })
        rounds[-1]["placers"].append(d.player)
        act(game, min(o for o in options(game) if o.endswith(" end")))
    return rounds


def colours_of(game: Game, player: int) -> list[str]:
    colours = list(game.position()["families"])
    return [colours[f] for f in game.config.player_families(player)]


def hand_sizes(game: Game) -> list[int]:
    zones = game.position()["families"]
    return [
        sum(len(zones[colour].get("hand", [])) for colour in colours_of(game, p))
        for p in range(game.config.players)
    ]


# -- R-2P-1: set-up, placement, drawing ----------------------------------------------------------


@pytest.mark.parametrize("cards", ["base", "embrasement"])
@pytest.mark.parametrize("seed", range(3))
def test_two_families_setup(cards: str, seed: int) -> None:
    """R-2P-1, R-SETUP-1: 4 families; per family 3 set aside, 3 in hand, 4 in the pile (8 per
    player); the Twin in reserve; 1 Influence each."""
    g = new_game(players=2, cards=cards, seed=seed)
    assert g.config.variant == "two-families"
    assert g.config.player_families(0) == (0, 2) and g.config.player_families(1) == (1, 3)
    families = g.position()["families"]
    assert list(families) == ["red", "blue", "green", "yellow"]
    for zones in families.values():
        assert len(zones["set_aside"]) == 3
        assert len(zones["hand"]) == 3
        assert len(zones["pile"]) == 4
        assert zones.get("reserve", []) == (["twin"] if cards == "embrasement" else [])
    assert influence(g) == [1, 1]


@pytest.mark.parametrize("seed", range(2))
def test_two_families_rounds_place_twice_and_draw_two(seed: int) -> None:
    """R-2P-1, R-PLACE-2: placements first/second/first/second, the first player passing each
    round; after each resolution each player draws 2, one per family (the pile alternates),
    while the pile lasts; 2 cards stay in hand."""
    g = new_game(players=2, cards="base", seed=seed)
    rounds = play_leaving_everything(g)
    assert [r["placers"] for r in rounds] == [[0, 1, 0, 1], [1, 0, 1, 0]] * 3
    assert [r["hands"] for r in rounds] == [[6, 6]] * 5 + [[4, 4]]
    for r, pile in zip(rounds, (4, 3, 2, 1, 0, 0), strict=True):
        assert set(r["piles"].values()) == {pile}
    assert g.is_over
    assert hand_sizes(g) == [2, 2]
    assert sum(len(st) for st in queue_refs(g)) == 24


def test_two_families_placement_never_mixes_families() -> None:
    """R-2P-1, R-PLACE-1: each card goes at an end or on a stack its own family controls; the
    player's second placement comes after the opponent's first."""
    g = two_families(
        [["red:soldier"], ["green:spy*"], ["blue:lord"], ["yellow:heir"]],
        families={
            "red": {"hand": ["archer"]},
            "green": {"hand": ["assassination"]},
            "blue": {"hand": ["archer"]},
        },
        phase="placement",
    )
    assert decision(g) == (0, "place")
    assert options(g) == {
        "place red:archer front", "place red:archer end", "place red:archer on red:soldier",
        "place green:assassination front", "place green:assassination end",
        "place green:assassination on green:spy",
    }
    act(g, "place red:archer on red:soldier")
    assert decision(g) == (1, "place")
    assert options(g) == {
        "place blue:archer front", "place blue:archer end", "place blue:archer on blue:lord"
    }
    act(g, "place blue:archer end")
    assert decision(g) == (0, "place")
    assert options(g) == {
        "place green:assassination front", "place green:assassination end",
        "place green:assassination on green:spy",
    }


def test_two_families_stacking_follows_corruption() -> None:
    """R-2P-1, R-2P-2, R-CORR-1: Red's Queen corrupted by Green is Green's to stack on, not
    Red's, though one player plays both."""
    g = two_families(
        [["red:queen*@green"]],
        cards="embrasement",
        families={"red": {"hand": ["felon"]}, "green": {"hand": ["schemer"]}},
        phase="placement",
        round=3,
    )
    assert options(g) == {
        "place red:felon front", "place red:felon end",
        "place green:schemer front", "place green:schemer end",
        "place green:schemer on red:queen",
    }


# -- R-2P-2: a player's two families are opponents ------------------------------------------------


@pytest.mark.parametrize(("neighbour", "gain"), [("green:spy", 1), ("red:spy", 2)])
def test_lord_gets_no_bonus_next_to_the_other_family(neighbour: str, gain: int) -> None:
    """R-2P-2, R-LORD-1, seed 003: the red Lord next to a green card gains only 1."""
    g = two_families([[neighbour], ["red:lord*"], ["blue:heir"]], cursor=1, influence=[0, 0])
    assert influence(g) == [gain, 0]
    assert decision(g) == (1, "reveal")


@pytest.mark.parametrize(
    ("right", "players"),
    [("blue:lord", {"player 0", "player 1"}), ("green:lord", {"player 0"})],
)
def test_spy_choosing_its_own_player_takes_nothing(right: str, players: set[str]) -> None:
    """R-2P-2, R-SPY-1/2: a green neighbour means player 0, the Spy's own player: no effect."""
    g = two_families([["green:heir"], ["red:spy*"], [right]], cursor=1, influence=[3, 3])
    assert options(g) == players
    act(g, "player 0")
    assert influence(g) == [3, 3]


@pytest.mark.parametrize(
    ("left", "right", "end"),
    [("red:queen", "green:schemer", [1, 3]), ("blue:queen", "yellow:queen", [3, 1])],
)
def test_felon_costs_one_per_adjacent_card_of_either_family(
    left: str, right: str, end: list[int]
) -> None:
    """R-2P-2, R-FELON-1: a player pays for each neighbouring card of either of their families."""
    g = two_families(
        [[left], ["green:felon*"], [right]], cards="embrasement", cursor=1, influence=[3, 3]
    )
    assert influence(g) == end


@pytest.mark.parametrize(
    ("victim", "end", "soldier_at"),
    [("green:ambush", [1, 0], "queue 0"), ("blue:ambush", [1, 4], "discarded")],
)
def test_ambush_fires_only_against_the_other_player(
    victim: str, end: list[int], soldier_at: str
) -> None:
    """R-2P-2, R-AMBUSH-2/3, seed 003: a red Soldier eliminating the green Ambush gets the +1
    only and stays; against Blue's Ambush the usual clause applies. Either way the Ambush goes
    to its own family's discarded cards."""
    g = two_families([[victim], ["red:soldier*"], ["yellow:heir"]], cursor=1, influence=[0, 0])
    act(g, f"target {victim}")
    assert influence(g) == end
    assert where(g, "red:soldier") == soldier_at
    assert where(g, victim) == "discarded"


@pytest.mark.parametrize(
    ("victim", "attacker", "end", "attacker_at"),
    [
        ("green:ambush", "red:soldier", [1, 0], "queue 0"),
        ("red:ambush", "red:soldier", [2, 0], "discarded"),
    ],
)
def test_first_edition_ambush_bonus_needs_the_same_family(
    victim: str, attacker: str, end: list[int], attacker_at: str
) -> None:
    """R-AMBUSH-3 (edition=first), R-2P-2, seed 003 (docs/rules.md reading d): between a
    player's two families only the +1; the same family's own card gets +2 and is discarded."""
    g = two_families(
        [[victim], [f"{attacker}*"], ["yellow:heir"]], cursor=1, influence=[0, 0],
        edition="first",
    )
    act(g, f"target {victim}")
    assert influence(g) == end
    assert where(g, attacker) == attacker_at
    assert where(g, victim) == "discarded"


@pytest.mark.parametrize(
    ("victim", "end", "soldier_at"),
    [("green:trap", [6, 5], "queue 0"), ("blue:trap", [3, 8], "discarded")],
)
def test_trap_fires_only_against_the_other_player(
    victim: str, end: list[int], soldier_at: str
) -> None:
    """R-2P-2, R-TRAP-2: like the Ambush, the Trap clause needs another player."""
    g = two_families(
        [[victim], ["red:soldier*"], ["yellow:queen"]],
        cards=WITH_SOLDIER,
        cursor=1,
        influence=[5, 5],
    )
    act(g, f"target {victim}")
    assert influence(g) == end
    assert where(g, "red:soldier") == soldier_at


def test_queen_bonus_between_a_players_own_families() -> None:
    """R-2P-2, R-QUEEN-1: the green Queen is an opponent's Queen for the red Soldier."""
    g = two_families(
        [["green:queen*"], ["red:soldier*"], ["blue:felon"]],
        cards=WITH_SOLDIER,
        cursor=1,
        influence=[0, 0],
    )
    act(g, "target green:queen")
    assert influence(g) == [2, 0]


def test_cutthroat_follow_up_hits_the_players_other_family() -> None:
    """R-2P-2, R-CUT-1, R-QUEEN-1: the revealed green Queen is an opposing card of the same
    name: 2 cards + 2 Queen bonuses for player 0."""
    g = two_families(
        [["green:queen*"], ["blue:felon"], ["red:cutthroat*"], ["blue:queen*"]],
        cards="embrasement",
        cursor=2,
        influence=[0, 0],
    )
    act(g, "target blue:queen")
    assert where(g, "green:queen") == "eliminated"
    assert influence(g) == [4, 0]


@pytest.mark.parametrize(
    ("red_queen", "after"),
    [("set_aside", [["red:queen*"], ["blue:felon"]]), ("hand", [["blue:felon"]])],
)
def test_usurpation_takes_only_from_its_own_familys_pools(
    red_queen: str, after: list[list[str]]
) -> None:
    """R-2P-2, R-USURP-1: the green Queen is an opponent's Character; the replacement is Red's
    Queen, never the green one just eliminated (same player, other family)."""
    g = two_families(
        [["green:queen*"], ["red:usurpation"], ["blue:felon"]],
        cards="embrasement",
        families={"red": {red_queen: ["queen"]}},
        cursor=1,
        influence=[0, 0],
    )
    act(g, "reveal red:usurpation")
    act(g, "target green:queen")
    assert queue_refs(g) == after
    assert where(g, "green:queen") == "eliminated"
    assert influence(g) == [2, 0]


def test_each_family_places_its_own_twin_on_its_own_stacks() -> None:
    """R-2P-2, R-PRINCE-1: the red Prince places the red Twin, never on a green stack."""
    g = two_families(
        [["green:queen*"], ["red:queen*"], ["red:prince"], ["blue:felon"]],
        cards="embrasement",
        cursor=2,
    )
    act(g, "reveal red:prince")
    assert options(g) == {"twin red:twin front", "twin red:twin end", "twin red:twin on red:queen"}
    assert where(g, "green:twin") == "reserve"


def test_eliminated_prince_discards_only_its_own_familys_twin() -> None:
    """R-2P-2, R-PRINCE-2: the green Twin is not linked to the red Prince."""
    g = two_families(
        [["green:twin*"], ["red:twin*"], ["red:prince*"], ["blue:soldier*"], ["yellow:felon"]],
        cards=WITH_SOLDIER,
        cursor=3,
    )
    act(g, "target red:prince")
    assert where(g, "red:twin") == "discarded"
    assert where(g, "green:twin") == "queue 0"


def test_each_family_has_its_own_corruption_token() -> None:
    """R-2P-2, R-CORR-1: Green's token on a red card makes it Green's; a red card on top of a
    red stack of two is an opponent's stack for Green."""
    g = two_families(
        [["green:corruption"], ["red:queen*"], ["red:felon", "red:schemer*"], ["blue:felon"]],
        cards="embrasement",
        influence=[0, 0],
    )
    act(g, "reveal green:corruption")
    assert options(g) == {"target red:queen"}
    act(g, "target red:queen")
    assert queue_refs(g)[0] == ["red:queen*@green"]
    assert where(g, "green:corruption") == "discarded"
    assert where(g, "red:corruption") == "set_aside"


# -- R-2P-3: two players with one family each -----------------------------------------------------


def test_two_players_one_family_each_setup() -> None:
    """R-2P-3, R-SETUP-1: 2 families of 7 cards in hand and 3 set aside; no pile."""
    g = new_game(players=2, variant="standard", seed=5)
    assert g.config.families == 2
    families = g.position()["families"]
    assert list(families) == ["red", "blue"]
    for zones in families.values():
        assert len(zones["hand"]) == 7
        assert len(zones["set_aside"]) == 3
        assert "pile" not in zones


def test_two_players_one_family_each_play_as_the_standard_game() -> None:
    """R-2P-3, R-PLACE-2, R-END-1: one placement each per round, no draw, 1 card left."""
    g = new_game(players=2, variant="standard", cards="embrasement", seed=1)
    rounds = play_leaving_everything(g)
    assert [r["placers"] for r in rounds] == [[0, 1], [1, 0]] * 3
    assert [r["hands"] for r in rounds] == [[7 - k, 7 - k] for k in range(6)]
    assert g.is_over
    assert hand_sizes(g) == [1, 1]


def test_two_players_one_family_each_ambush_fires_against_the_other() -> None:
    """R-2P-3, R-AMBUSH-2: the other player's family is an ordinary opponent."""
    g = setup(
        [["blue:ambush"], ["red:soldier*"], ["blue:heir"]],
        players=2,
        variant="standard",
        cursor=1,
        influence=[0, 0],
    )
    act(g, "target blue:ambush")
    assert influence(g) == [1, 4]
    assert where(g, "red:soldier") == "discarded"
