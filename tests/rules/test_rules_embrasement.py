"""Scenario tests of the Embrasement cards and Corruption (seed 000, RULINGS.md R-PRINCE-1 ..
R-CORR-3), with the Shapeshifter, Ambush and Trap interactions.

Every expectation was worked out by hand from the rulings; positions are given by value (see
``scenarios.py``). Families: red = player 0, blue = player 1, green = player 2. Where a test
needs base and Embrasement cards together it uses a mixed set of 10 types (R-SET-1).
"""

from __future__ import annotations

from typing import Any

import pytest

from oriflamme.api import Action, Game, new_game
from scenarios import act, decision, influence, options, queue_refs, setup, tokens, where

EMBRASEMENT = "embrasement"
#: Base attackers next to the Embrasement cards (R-SET-1).
WITH_SOLDIER = (
    "soldier", "shapeshifter", "ambush", "prince", "queen",
    "cutthroat", "apothecary", "felon", "trap", "corruption",
)
#: The Lord and the Schemer next to the Shapeshifter (R-SET-1).
WITH_SCHEMER = (
    "shapeshifter", "lord", "schemer", "prince", "queen",
    "cutthroat", "apothecary", "felon", "trap", "corruption",
)


def embrasement(queue: list[list[str]], **kwargs: Any) -> Game:
    """A 3-player Embrasement position (see :func:`scenarios.setup`)."""
    return setup(queue, cards=EMBRASEMENT, **kwargs)


def leave_face_down(game: Game) -> None:
    """Leave every face-down card the cursor reaches, until another decision or the round ends."""
    while (d := game.decision()) is not None and d.kind.slug == "reveal":
        game.apply(Action.leave(d.card))


def eliminated_order(game: Game) -> list[int]:
    """Ids of the eliminated cards, in the order of the log."""
    return [e["card"] for e in game.events() if e["kind"] == "eliminated"]


# -- Prince and Twin ----------------------------------------------------------------------------


def test_prince_reveal_offers_twin_at_ends_or_on_own_stacks_not_topped_by_a_prince() -> None:
    """R-PRINCE-1, R-PLACE-1, R-CORR-1: either end, or on a stack the family controls (face up
    or down, a corrupted card included) unless its top is a Prince; the tokens are gained on
    reveal, the +1 after the Twin is placed."""
    g = embrasement(
        [
            ["red:queen*"],
            ["blue:prince*@red"],
            ["red:felon*@blue"],
            ["red:prince+2"],
            ["red:apothecary", "red:schemer"],
            ["blue:cutthroat"],
        ],
        cursor=3,
        influence=[5, 5, 5],
    )
    act(g, "reveal red:prince")
    assert decision(g) == (0, "place_twin")
    assert influence(g) == [7, 5, 5]
    assert options(g) == {
        "twin red:twin front",
        "twin red:twin end",
        "twin red:twin on red:queen",
        "twin red:twin on red:schemer",
    }
    act(g, "twin red:twin front")
    assert influence(g) == [8, 5, 5]
    assert queue_refs(g)[0] == ["red:twin*"]
    assert where(g, "red:prince") == "queue 4"
    assert decision(g) == (0, "reveal")
    assert options(g) == {"reveal red:schemer", "leave red:schemer"}


def test_prince_revealed_in_round_one_places_twin_only_at_an_end() -> None:
    """R-PRINCE-1, R-PLACE-1: no stacking in round 1, even on a card of the family."""
    g = embrasement([["red:queen"], ["red:prince"], ["blue:felon"]], cursor=1, round=1)
    act(g, "reveal red:prince")
    assert options(g) == {"twin red:twin front", "twin red:twin end"}


def test_prince_later_activation_gains_one_and_keeps_twin_in_reserve() -> None:
    """R-PRINCE-1: a revealed Prince resolving again only gains 1."""
    g = embrasement([["red:prince*"], ["blue:felon"]])
    assert influence(g) == [2, 1, 1]
    assert where(g, "red:twin") == "reserve"
    assert decision(g) == (1, "reveal")


@pytest.mark.parametrize(
    ("queue", "cursor", "families"),
    [
        ([["red:prince+1"], ["blue:felon"]], 0, {"red": {"discarded": ["twin"]}}),
        ([["red:prince+1"], ["blue:felon"]], 0, {"red": {"eliminated": ["twin"]}}),
        ([["red:twin*"], ["red:prince+1"], ["blue:felon"]], 1, None),
    ],
    ids=["twin-discarded", "twin-eliminated", "twin-in-queue"],
)
def test_prince_without_twin_in_reserve_just_gains_one(
    queue: list[list[str]], cursor: int, families: dict[str, dict[str, Any]] | None
) -> None:
    """R-PRINCE-1: no Twin in reserve, no placement: tokens (1) then +1."""
    g = embrasement(queue, cursor=cursor, families=families)
    act(g, "reveal red:prince")
    assert influence(g) == [3, 1, 1]
    assert decision(g) == (1, "reveal")


@pytest.mark.parametrize(
    ("place", "red_gain"),
    [("front", 1), ("on red:queen", 1), ("end", 2), ("on red:schemer", 2)],
)
def test_twin_placed_later_than_cursor_resolves_this_round(place: str, red_gain: int) -> None:
    """R-RES-4, R-RES-3, R-TWIN-1: the Twin arrives face up with nothing; placed later than the
    cursor (at the end, or on a later stack) it gains 1 when the cursor reaches it; placed
    earlier (at the front, or on an earlier stack) it does not resolve this round."""
    g = embrasement(
        [["red:queen*"], ["red:prince"], ["red:schemer"], ["blue:felon"]],
        cursor=1,
        influence=[0, 0, 0],
    )
    act(g, "reveal red:prince")
    act(g, f"twin red:twin {place}")
    assert tokens(g, "red:twin") == 0
    leave_face_down(g)
    assert g.round == 3
    assert influence(g) == [red_gain, 0, 0]


def test_twin_gains_one() -> None:
    """R-TWIN-1."""
    g = embrasement([["red:twin*"], ["blue:felon"]])
    assert influence(g) == [2, 1, 1]


@pytest.mark.parametrize("seed", range(4))
def test_twin_is_dealt_to_the_reserve_never_to_hand_or_set_aside(seed: int) -> None:
    """R-TWIN-1, R-SETUP-1, R-SET-1: the Twin waits in reserve; 3 set aside, 7 in hand."""
    for cards in (EMBRASEMENT, WITH_SOLDIER):
        g = new_game(players=3, cards=cards, seed=seed)
        for zones in g.position()["families"].values():
            assert zones["reserve"] == ["twin"]
            assert len(zones["set_aside"]) == 3 and "twin" not in zones["set_aside"]
            assert len(zones["hand"]) == 7 and "twin" not in zones["hand"]


def test_eliminated_prince_discards_its_familys_uncovered_twin() -> None:
    """R-PRINCE-2, R-ELIM-1: the Prince's Twin is discarded (no Influence for it); another
    family's Twin stays."""
    g = setup(
        [["blue:twin*"], ["red:twin*"], ["red:prince*"], ["blue:soldier*"], ["green:felon"]],
        cards=WITH_SOLDIER,
        cursor=3,
    )
    assert options(g) == {"target red:prince", "target green:felon"}
    act(g, "target red:prince")
    assert where(g, "red:prince") == "eliminated"
    assert where(g, "red:twin") == "discarded"
    assert where(g, "blue:twin") == "queue 0"
    assert influence(g) == [1, 2, 1]
    assert decision(g) == (2, "reveal")


def test_eliminated_prince_leaves_a_covered_twin() -> None:
    """R-PRINCE-2: a covered Twin stays."""
    g = setup(
        [["red:twin*", "red:queen"], ["red:prince*"], ["blue:soldier*"], ["green:felon"]],
        cards=WITH_SOLDIER,
        cursor=2,
    )
    act(g, "target red:prince")
    assert where(g, "red:twin") == "queue 0 level 0"
    assert influence(g) == [1, 2, 1]


def test_eliminated_prince_leaves_twin_in_reserve() -> None:
    """R-PRINCE-2, R-ELIM-1: a Prince eliminated face down; its Twin in reserve stays there."""
    g = setup([["red:prince"], ["blue:soldier*"], ["green:felon"]], cards=WITH_SOLDIER, cursor=1)
    act(g, "target red:prince")
    assert where(g, "red:prince") == "eliminated"
    assert where(g, "red:twin") == "reserve"


def test_prince_on_its_twin_uncovers_it_before_the_link_is_read() -> None:
    """R-PRINCE-3: coveredness is judged once the Prince has left: the Twin under it is
    uncovered, so it is discarded."""
    g = setup(
        [["red:twin*", "red:prince*"], ["blue:soldier*"], ["green:felon"]],
        cards=WITH_SOLDIER,
        cursor=1,
    )
    act(g, "target red:prince")
    assert where(g, "red:twin") == "discarded"
    assert queue_refs(g) == [["blue:soldier*"], ["green:felon"]]


def test_eliminated_twin_discards_every_prince_its_family_controls() -> None:
    """R-PRINCE-2, R-CORR-1/2, seed 000: with two Princes (one by Corruption), the Twin's
    elimination discards both; the corrupted one goes to its owner's eliminated cards."""
    g = setup(
        [["blue:prince*@red"], ["red:twin*"], ["green:soldier*"], ["blue:felon"], ["red:prince*"]],
        cards=WITH_SOLDIER,
        cursor=2,
    )
    act(g, "target red:twin")
    assert where(g, "red:twin") == "eliminated"
    assert where(g, "red:prince") == "discarded"
    assert where(g, "blue:prince") == "eliminated"
    assert where(g, "blue:twin") == "reserve"
    assert queue_refs(g) == [["green:soldier*"], ["blue:felon"]]
    assert influence(g) == [1, 1, 2]


def test_one_of_two_princes_eliminated_keeps_the_other() -> None:
    """R-PRINCE-2, seed 000: 2 Princes and 1 Twin; one Prince eliminated discards the Twin,
    the second Prince stays."""
    g = setup(
        [["blue:prince*@red"], ["red:twin*"], ["red:prince*"], ["green:soldier*"], ["blue:felon"]],
        cards=WITH_SOLDIER,
        cursor=3,
    )
    act(g, "target red:prince")
    assert where(g, "red:twin") == "discarded"
    assert queue_refs(g)[0] == ["blue:prince*@red"]


def test_corrupted_prince_links_to_the_corrupters_twin() -> None:
    """R-PRINCE-2, R-CORR-1: the link follows the controlling family read before it left."""
    g = setup(
        [["red:twin*"], ["blue:twin*"], ["blue:prince*@red"], ["green:soldier*"], ["blue:felon"]],
        cards=WITH_SOLDIER,
        cursor=3,
    )
    act(g, "target blue:prince")
    assert where(g, "red:twin") == "discarded"
    assert where(g, "blue:twin") == "queue 0"
    assert where(g, "blue:prince") == "eliminated"



@pytest.mark.parametrize(
    ("target", "blue_twin_at"), [("red:prince", "eliminated"), ("blue:prince", "queue 0")]
)
def test_corrupted_twin_is_linked_to_the_corrupters_prince(target: str, blue_twin_at: str) -> None:
    """R-PRINCE-2, R-CORR-1/2: Blue's Twin corrupted by Red goes with Red's Prince (to Blue's
    eliminated cards), not with Blue's."""
    g = setup(
        [["blue:twin*@red"], ["blue:prince*"], ["green:soldier*"], ["red:prince*"], ["blue:felon"]],
        cards=WITH_SOLDIER,
        cursor=2,
    )
    assert options(g) == {"target blue:prince", "target red:prince"}
    act(g, f"target {target}")
    assert where(g, "blue:twin") == blue_twin_at


def test_cutthroat_on_twins_takes_every_opposing_twin_and_their_princes() -> None:
    """R-CUT-1, R-PRINCE-2: Twins are always revealed, so every opposing uncovered Twin goes,
    each taking its family's Princes; the Cutthroat's own Twin stays."""
    g = embrasement(
        [
            ["red:twin*"],
            ["red:cutthroat*"],
            ["blue:twin*"],
            ["green:prince*"],
            ["green:twin*"],
            ["blue:prince*"],
        ],
        cursor=1,
        influence=[0, 0, 0],
    )
    act(g, "target blue:twin")
    assert where(g, "green:twin") == "eliminated"
    assert where(g, "blue:prince") == "discarded"
    assert where(g, "green:prince") == "discarded"
    assert queue_refs(g) == [["red:twin*"], ["red:cutthroat*"]]
    assert influence(g) == [2, 0, 0]

# -- Queen --------------------------------------------------------------------------------------


def test_queen_gains_two() -> None:
    """R-QUEEN-1."""
    g = embrasement([["red:queen*"], ["blue:felon"]])
    assert influence(g) == [3, 1, 1]


@pytest.mark.parametrize(
    ("queen", "red_gain"),
    [
        ("blue:queen*", 2),
        ("blue:queen", 2),
        ("red:queen*", 1),
        ("red:queen*@blue", 2),
        ("blue:queen*@red", 1),
    ],
)
def test_eliminating_an_opponents_queen_gives_one_more(queen: str, red_gain: int) -> None:
    """R-QUEEN-1, R-ELIM-1, R-CORR-1: +1 more for an opponent's Queen (face down too; control
    decides), none for your own."""
    g = setup([[queen], ["red:soldier*"], ["green:felon"]], cards=WITH_SOLDIER, cursor=1)
    name = queen.split("*")[0]
    act(g, f"target {name}")
    assert influence(g)[0] == 1 + red_gain


# -- Cutthroat ----------------------------------------------------------------------------------


def test_cutthroat_single_elimination_gives_nothing() -> None:
    """R-CUT-1, seed 000: 1 Felon eliminated, no Influence."""
    g = embrasement([["blue:felon"], ["red:cutthroat*"], ["green:schemer"]], cursor=1)
    act(g, "target blue:felon")
    assert where(g, "blue:felon") == "eliminated"
    assert influence(g) == [1, 1, 1]


def test_cutthroat_two_felons_give_two() -> None:
    """R-CUT-1, seed 000: the face-down target turns out a Felon; the revealed opposing Felon
    goes too (+2); the Cutthroat's own revealed Felon stays."""
    g = embrasement(
        [["red:felon*"], ["blue:felon"], ["red:cutthroat*"], ["green:felon*"]],
        cursor=2,
        influence=[0, 0, 0],
    )
    act(g, "target blue:felon")
    assert where(g, "green:felon") == "eliminated"
    assert queue_refs(g) == [["red:felon*"], ["red:cutthroat*"]]
    assert influence(g) == [2, 0, 0]


def test_cutthroat_one_opposing_queen_gives_one() -> None:
    """R-CUT-1, R-QUEEN-1, seed 000: 1 opposing Queen → 1; a face-down Queen is not hit."""
    g = embrasement([["red:cutthroat*"], ["blue:queen*"], ["green:queen"]], influence=[0, 0, 0])
    act(g, "target blue:queen")
    assert influence(g) == [1, 0, 0]
    assert where(g, "green:queen") == "queue 1"


def test_cutthroat_two_opposing_queens_give_four() -> None:
    """R-CUT-1, R-QUEEN-1, seed 000: 2 opposing Queens → 2 + 2 Queen bonuses."""
    g = embrasement(
        [["blue:queen*"], ["red:cutthroat*"], ["green:queen*"]], cursor=1, influence=[0, 0, 0]
    )
    act(g, "target blue:queen")
    assert where(g, "green:queen") == "eliminated"
    assert influence(g) == [4, 0, 0]


def test_cutthroat_hitting_its_own_queen_takes_the_opposing_ones_too() -> None:
    """R-CUT-1, R-ABIL-1, R-QUEEN-1: own Queen then an opposing one: +2, +1 bonus (opponent's
    only)."""
    g = embrasement(
        [["red:queen*"], ["red:cutthroat*"], ["blue:queen*"]], cursor=1, influence=[0, 0, 0]
    )
    act(g, "target red:queen")
    assert where(g, "blue:queen") == "eliminated"
    assert influence(g) == [3, 0, 0]


def test_cutthroat_follow_up_takes_revealed_opposing_tops_in_resolution_order() -> None:
    """R-CUT-1, R-QUEUE-2, R-CORR-1: follow-ups hit revealed top cards of the same name
    controlled by an opponent, in resolution order; a covered Queen and one the Cutthroat's
    family controls stay."""
    g = setup(
        [
            ["green:queen*"],
            ["red:cutthroat*"],
            ["blue:queen"],
            ["red:queen*", "red:felon"],
            ["purple:queen*@red"],
            ["yellow:queen*"],
        ],
        players=5,
        cards=EMBRASEMENT,
        cursor=1,
        influence=[0] * 5,
    )
    act(g, "target blue:queen")
    assert eliminated_order(g) == [g.card(r) for r in ("blue:queen", "green:queen", "yellow:queen")]
    assert influence(g) == [6, 0, 0, 0, 0]
    assert queue_refs(g) == [
        ["red:cutthroat*"], ["red:queen*", "red:felon"], ["purple:queen*@red"]
    ]
    assert decision(g) == (0, "reveal")


def test_seed_000_resolution_example() -> None:
    """Seed 000's resolution example (R-RES-1, R-CUT-1, R-QUEEN-1, R-FELON-1): Red leaves; Blue
    reveals a Cutthroat (1 token), eliminates Red's Queen (2 tokens, lost): +1 token and the
    Queen bonus, no elimination +1; Green leaves; Blue's Felon costs Green 1."""
    g = embrasement(
        [
            ["red:schemer"],
            ["blue:cutthroat+1"],
            ["red:queen+2"],
            ["green:felon"],
            ["blue:felon*"],
        ],
        influence=[3, 3, 3],
    )
    act(g, "leave red:schemer")
    act(g, "reveal blue:cutthroat")
    assert influence(g) == [3, 4, 3]
    assert options(g) == {"target red:schemer", "target red:queen"}
    act(g, "target red:queen")
    assert influence(g) == [3, 5, 3]
    assert where(g, "red:queen") == "eliminated"
    act(g, "leave green:felon")
    assert influence(g) == [3, 5, 2]
    assert queue_refs(g) == [
        ["red:schemer+1"], ["blue:cutthroat*"], ["green:felon+1"], ["blue:felon*"]
    ]
    assert g.round == 3


# -- Apothecary ---------------------------------------------------------------------------------


def test_apothecary_targets_cards_next_to_a_reference() -> None:
    """R-APOTH-1, R-CORR-1: references are tops other than the Apothecary that its family
    controls (face down counts, a card it corrupted counts, its own card corrupted away does
    not); the targets are the tops next to a reference."""
    g = embrasement(
        [
            ["green:felon"],
            ["blue:queen*@red"],
            ["blue:schemer"],
            ["red:apothecary"],
            ["green:schemer"],
            ["red:queen*@green"],
            ["blue:felon"],
        ],
        cursor=3,
    )
    act(g, "reveal red:apothecary")
    assert options(g) == {"target green:felon", "target blue:schemer"}


def test_apothecary_may_eliminate_itself() -> None:
    """R-APOTH-1, R-ELIM-1: next to a face-down reference, the Apothecary may be the target."""
    g = embrasement([["red:felon"], ["red:apothecary*"], ["blue:schemer"]], cursor=1)
    assert options(g) == {"target red:apothecary"}
    act(g, "target red:apothecary")
    assert where(g, "red:apothecary") == "eliminated"
    assert influence(g) == [2, 1, 1]


def test_apothecary_without_reference_has_no_effect() -> None:
    """R-APOTH-1, R-ABIL-1: no other top card of the family, no effect."""
    g = embrasement([["blue:queen"], ["red:apothecary+1"], ["green:queen"]], cursor=1)
    act(g, "reveal red:apothecary")
    assert decision(g) == (2, "reveal")
    assert influence(g) == [2, 1, 1]
    assert len(queue_refs(g)) == 3


@pytest.mark.parametrize(
    ("start", "end"),
    [([5, 5, 5], [3, 8, 5]), ([1, 1, 1], [0, 3, 1])],
    ids=["plenty", "robbed-of-what-it-has"],
)
def test_opponents_apothecary_falls_into_a_trap(start: list[int], end: list[int]) -> None:
    """R-TRAP-2, R-APOTH-1, R-SCORE-1, seed 000 Trap example 1: the Apothecary's owner gains 1
    then is robbed of 3 (at most what it has); the Apothecary is discarded."""
    g = embrasement(
        [["blue:trap"], ["red:queen"], ["red:apothecary*"], ["green:felon"]],
        cursor=2,
        influence=start,
    )
    assert options(g) == {"target blue:trap", "target red:apothecary"}
    act(g, "target blue:trap")
    assert influence(g) == end
    assert where(g, "red:apothecary") == "discarded"
    assert where(g, "blue:trap") == "eliminated"


def test_own_apothecary_on_own_trap_gains_one_only() -> None:
    """R-TRAP-2, seed 000 Trap example 2: +1, the Apothecary stays."""
    g = embrasement(
        [["red:trap"], ["red:queen"], ["red:apothecary*"], ["green:felon"]],
        cursor=2,
        influence=[5, 5, 5],
    )
    act(g, "target red:trap")
    assert influence(g) == [6, 5, 5]
    assert where(g, "red:apothecary") == "queue 1"


# -- Felon --------------------------------------------------------------------------------------


def test_felon_costs_its_own_controller_too() -> None:
    """R-FELON-1: each adjacent top card costs its controller 1, the Felon's own included."""
    g = embrasement([["blue:queen"], ["blue:felon*"], ["red:schemer"]], cursor=1,
                    influence=[3, 3, 3])
    assert influence(g) == [2, 2, 3]


def test_felon_counts_stacks_once_follows_control_and_floors_at_zero() -> None:
    """R-FELON-1, R-QUEUE-2, R-CORR-1, R-SCORE-1: a stack counts once; a corrupted card costs
    its corrupter; nobody goes below 0."""
    g = embrasement(
        [["green:queen*@blue"], ["blue:felon*"], ["red:queen", "red:schemer"]],
        cursor=1,
        influence=[0, 3, 3],
    )
    assert influence(g) == [0, 2, 3]
    assert decision(g) == (0, "reveal")


# -- Schemer ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("queue", "red_gain", "schemer_at"),
    [
        ([["red:schemer*"], ["blue:felon"]], 2, "queue 0"),
        ([["red:schemer*"], ["blue:felon", "blue:queen"]], 0, "discarded"),
        ([["blue:felon", "blue:queen"], ["red:schemer*"], ["green:felon"]], 0, "discarded"),
        ([["blue:queen", "blue:felon"], ["green:felon"], ["red:schemer*"]], 2, "queue 2"),
        ([["red:queen", "red:schemer*"], ["blue:felon"]], 2, "queue 0"),
    ],
    ids=["alone", "stack-after", "stack-before", "stack-not-adjacent", "schemer-on-a-stack"],
)
def test_schemer_discarded_next_to_a_stack(
    queue: list[list[str]], red_gain: int, schemer_at: str
) -> None:
    """R-SCHEMER-1: an adjacent stack of two or more cards discards it (nothing gained);
    its own stack does not count; otherwise +2."""
    cursor = next(i for i, st in enumerate(queue) if st[-1] == "red:schemer*")
    g = embrasement(queue, cursor=cursor, influence=[0, 0, 0])
    assert influence(g)[0] == red_gain
    assert where(g, "red:schemer") == schemer_at


def test_schemer_revealed_next_to_a_stack_keeps_its_tokens() -> None:
    """R-RES-1, R-SCHEMER-1: the tokens are gained on reveal before the ability discards it."""
    g = embrasement([["red:schemer+2"], ["blue:felon", "blue:queen"]], influence=[0, 0, 0])
    act(g, "reveal red:schemer")
    assert influence(g) == [2, 0, 0]
    assert where(g, "red:schemer") == "discarded"


# -- Usurpation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("zone", ["set_aside", "discarded", "eliminated"])
def test_usurpation_replaces_an_opponents_lone_character(zone: str) -> None:
    """R-USURP-1/2, R-QUEEN-1, R-RES-4, R-RES-3: +1 and the Queen bonus; the family's Queen
    comes from its set-aside, discarded or eliminated cards, face up with no token, in the
    victim's place; earlier than the cursor, it does not resolve this round."""
    g = embrasement(
        [["blue:queen*"], ["red:usurpation"], ["green:felon"]],
        families={"red": {zone: ["queen"]}},
        cursor=1,
        influence=[0, 0, 0],
    )
    act(g, "reveal red:usurpation")
    assert options(g) == {"target blue:queen", "target green:felon"}
    act(g, "target blue:queen")
    assert queue_refs(g) == [["red:queen*"], ["green:felon"]]
    assert where(g, "blue:queen") == "eliminated"
    assert where(g, "red:usurpation") == "discarded"
    assert influence(g) == [2, 0, 0]
    assert decision(g) == (2, "reveal")


def test_usurpation_replacement_later_than_the_cursor_resolves() -> None:
    """R-USURP-1, R-RES-3/4, R-RES-2: placed later, the Queen slides under the cursor once the
    Usurpation is discarded and gains 2 this round."""
    g = embrasement(
        [["red:usurpation"], ["blue:queen*"], ["green:felon"]], influence=[0, 0, 0]
    )
    act(g, "reveal red:usurpation")
    act(g, "target blue:queen")
    assert queue_refs(g) == [["red:queen*"], ["green:felon"]]
    assert influence(g) == [4, 0, 0]
    assert decision(g) == (2, "reveal")


def test_usurpation_of_a_face_down_character_replaces_it() -> None:
    """R-USURP-2: a card eliminated face down is a Character by its name."""
    g = embrasement(
        [["blue:felon+2"], ["red:usurpation"], ["green:queen"]], cursor=1, influence=[0, 0, 0]
    )
    act(g, "reveal red:usurpation")
    act(g, "target blue:felon")
    assert queue_refs(g) == [["red:felon*"], ["green:queen"]]
    assert influence(g) == [1, 0, 0]


@pytest.mark.parametrize(
    ("target_stack", "target", "after", "red_gain", "red_queen_at"),
    [
        (["blue:schemer", "blue:queen*"], "blue:queen", ["blue:schemer"], 2, "set_aside"),
        (["red:queen*"], "red:queen", None, 1, "eliminated"),
        (["blue:corruption"], "blue:corruption", None, 1, "set_aside"),
    ],
    ids=["on-a-stack", "own-character", "intrigue"],
)
def test_usurpation_without_replacement(
    target_stack: list[str], target: str, after: list[str] | None, red_gain: int,
    red_queen_at: str,
) -> None:
    """R-USURP-1: no replacement when the victim was covering a card, was the family's own,
    or was an Intrigue; the Usurpation is still discarded."""
    g = embrasement(
        [target_stack, ["red:usurpation"], ["green:felon"]], cursor=1, influence=[0, 0, 0]
    )
    act(g, "reveal red:usurpation")
    act(g, f"target {target}")
    assert queue_refs(g) == ([after] if after else []) + [["green:felon"]]
    assert where(g, "red:corruption") == "set_aside"
    assert where(g, "red:queen") == red_queen_at
    assert where(g, "red:usurpation") == "discarded"
    assert influence(g) == [red_gain, 0, 0]


def test_usurpation_needs_the_card_in_its_pools() -> None:
    """R-USURP-1: a Queen in hand cannot replace."""
    g = embrasement(
        [["blue:queen*"], ["red:usurpation"], ["green:felon"]],
        families={"red": {"hand": ["queen"]}},
        cursor=1,
        influence=[0, 0, 0],
    )
    act(g, "reveal red:usurpation")
    act(g, "target blue:queen")
    assert queue_refs(g) == [["green:felon"]]
    assert where(g, "red:queen") == "hand"
    assert influence(g) == [2, 0, 0]


def test_usurpation_may_bring_back_the_card_it_just_eliminated() -> None:
    """R-USURP-1, R-CORR-2, R-QUEEN-1: its own Queen corrupted by Blue is an opponent's card;
    eliminated, it goes to Red's eliminated cards and comes back without the Corruption
    token."""
    g = embrasement(
        [["red:queen*@blue"], ["red:usurpation"], ["green:felon"]], cursor=1, influence=[0, 0, 0]
    )
    act(g, "reveal red:usurpation")
    act(g, "target red:queen")
    assert queue_refs(g) == [["red:queen*"], ["green:felon"]]
    assert influence(g) == [2, 0, 0]


def test_usurpation_of_a_prince_brings_no_twin() -> None:
    """R-USURP-1, R-PRINCE-1/2, R-RES-4: Blue's Twin is discarded; Red's Prince arrives face up
    later than the cursor and only gains 1; Red's Twin stays in reserve."""
    g = embrasement(
        [["blue:twin*"], ["red:usurpation"], ["blue:prince*"], ["green:felon"]],
        cursor=1,
        influence=[0, 0, 0],
    )
    act(g, "reveal red:usurpation")
    act(g, "target blue:prince")
    assert where(g, "blue:twin") == "discarded"
    assert where(g, "red:twin") == "reserve"
    assert queue_refs(g) == [["red:prince*"], ["green:felon"]]
    assert influence(g) == [2, 0, 0]
    assert decision(g) == (2, "reveal")


@pytest.mark.parametrize(
    ("zone", "replaced"),
    [("reserve", False), ("discarded", True), ("eliminated", True)],
)
def test_usurpation_takes_a_twin_only_from_discarded_or_eliminated(
    zone: str, replaced: bool
) -> None:
    """R-USURP-1, R-TWIN-1: the Twin in reserve is not a pool of the Usurpation."""
    g = embrasement(
        [["blue:twin*"], ["red:usurpation"], ["green:felon"]],
        families={"red": {zone: ["twin"]}},
        cursor=1,
        influence=[0, 0, 0],
    )
    act(g, "reveal red:usurpation")
    act(g, "target blue:twin")
    assert queue_refs(g) == ([["red:twin*"]] if replaced else []) + [["green:felon"]]
    assert influence(g) == [1, 0, 0]


def test_usurpation_on_a_revealed_queen_uncovers_it() -> None:
    """Seed 000 stack example, R-RES-2: once the Usurpation is discarded the Queen under it
    resolves at once (the replacement, earlier, does not)."""
    g = embrasement(
        [["blue:felon"], ["red:queen*", "red:usurpation"], ["green:schemer"]],
        cursor=1,
        influence=[0, 0, 0],
    )
    act(g, "reveal red:usurpation")
    act(g, "target blue:felon")
    assert queue_refs(g) == [["red:felon*"], ["red:queen*"], ["green:schemer"]]
    assert influence(g) == [3, 0, 0]
    assert decision(g) == (2, "reveal")


def test_usurpation_on_a_face_down_queen_offers_to_reveal_it() -> None:
    """Seed 000 stack example: a face-down Queen uncovered may be revealed or left."""
    g = embrasement(
        [["blue:felon"], ["red:queen", "red:usurpation"], ["green:schemer"]],
        cursor=1,
        influence=[0, 0, 0],
    )
    act(g, "reveal red:usurpation")
    act(g, "target blue:felon")
    assert options(g) == {"reveal red:queen", "leave red:queen"}
    assert influence(g) == [1, 0, 0]


# -- Machination --------------------------------------------------------------------------------


def test_machination_activates_revealed_top_characters_its_family_controls() -> None:
    """R-MACH-1, R-CORR-1, R-QUEUE-2: discarded first; tokens not gained on reveal; options are
    revealed top Characters the family controls (a corrupted one included; not face-down,
    covered or other families' cards)."""
    g = embrasement(
        [
            ["red:queen*"],
            ["red:felon"],
            ["red:machination+2"],
            ["blue:schemer*@red"],
            ["red:cutthroat*", "red:trap"],
            ["green:queen*"],
            ["red:twin*"],
        ],
        cursor=2,
        influence=[0, 0, 0],
    )
    act(g, "reveal red:machination")
    assert where(g, "red:machination") == "discarded"
    assert influence(g) == [0, 0, 0]
    assert decision(g) == (0, "activate")
    assert options(g) == {"target red:queen", "target blue:schemer", "target red:twin"}


def test_machination_gains_or_spends_token_by_token() -> None:
    """R-MACH-1: activate, then per held token gain it or spend it to activate again."""
    g = embrasement(
        [["red:queen*"], ["blue:felon"], ["red:machination+2"], ["green:felon"]],
        cursor=2,
        influence=[0, 0, 0],
    )
    act(g, "reveal red:machination")
    act(g, "target red:queen")
    assert influence(g) == [2, 0, 0]
    assert decision(g) == (0, "token")
    assert options(g) == {"gain", "spend"}
    act(g, "spend")
    assert options(g) == {"target red:queen"}
    act(g, "target red:queen")
    assert influence(g) == [4, 0, 0]
    act(g, "gain")
    assert influence(g) == [5, 0, 0]
    assert decision(g) == (2, "reveal")


def test_machination_on_a_revealed_character_makes_it_resolve_again() -> None:
    """R-MACH-1, R-RES-2: the Queen it uncovers is activated, then resolves again."""
    g = embrasement(
        [["red:queen*", "red:machination+1"], ["green:felon"]], influence=[0, 0, 0]
    )
    act(g, "reveal red:machination")
    assert options(g) == {"target red:queen"}
    act(g, "target red:queen")
    act(g, "gain")
    assert influence(g) == [5, 0, 0]
    assert decision(g) == (2, "reveal")


def test_machination_with_nothing_to_activate_gains_its_tokens() -> None:
    """R-MACH-1/2: no such Character, every token is gained without a decision."""
    g = embrasement([["red:machination+3"], ["blue:queen*"]], influence=[0, 0, 0])
    act(g, "reveal red:machination")
    assert influence(g) == [3, 2, 0]
    assert g.round == 3


def test_machination_stops_offering_spend_when_nothing_can_be_activated() -> None:
    """R-MACH-2: the Schemer activated discards itself; the held tokens are then gained."""
    g = embrasement(
        [["red:machination+2"], ["red:schemer*"], ["blue:queen", "blue:felon"]],
        influence=[0, 0, 0],
    )
    act(g, "reveal red:machination")
    act(g, "target red:schemer")
    assert where(g, "red:schemer") == "discarded"
    assert influence(g) == [2, 0, 0]
    assert decision(g) == (1, "reveal")


def test_machination_activating_a_prince_gains_one() -> None:
    """R-PRINCE-1, R-MACH-1: an activation by a Machination only gains 1, no Twin."""
    g = embrasement(
        [["red:prince*"], ["red:machination"], ["green:felon"]], cursor=1, influence=[0, 0, 0]
    )
    act(g, "reveal red:machination")
    act(g, "target red:prince")
    assert influence(g) == [1, 0, 0]
    assert where(g, "red:twin") == "reserve"
    assert decision(g) == (2, "reveal")


# -- Trap ---------------------------------------------------------------------------------------


def test_trap_revealed_by_its_owner() -> None:
    """R-TRAP-1: its tokens are discarded, +1, the Trap is discarded."""
    g = embrasement([["red:trap+3"], ["blue:felon"]], influence=[0, 0, 0])
    act(g, "reveal red:trap")
    assert influence(g) == [1, 0, 0]
    assert where(g, "red:trap") == "discarded"


@pytest.mark.parametrize("edition", ["revised", "first"])
def test_trap_eliminated_by_another_players_soldier(edition: str) -> None:
    """R-TRAP-2: +1 for the eliminator, the Soldier is discarded, 3 stolen (any edition)."""
    g = setup(
        [["blue:trap+1"], ["red:soldier*"], ["green:felon"]],
        cards=WITH_SOLDIER,
        cursor=1,
        influence=[5, 5, 5],
        edition=edition,
    )
    act(g, "target blue:trap")
    assert influence(g) == [3, 8, 5]
    assert where(g, "red:soldier") == "discarded"


@pytest.mark.parametrize("edition", ["revised", "first"])
def test_trap_eliminated_by_its_own_players_soldier(edition: str) -> None:
    """R-TRAP-2: the elimination's +1 only, the Soldier stays; `edition` does not apply."""
    g = setup(
        [["red:trap"], ["red:soldier*"], ["green:felon"]],
        cards=WITH_SOLDIER,
        cursor=1,
        influence=[5, 5, 5],
        edition=edition,
    )
    act(g, "target red:trap")
    assert influence(g) == [6, 5, 5]
    assert where(g, "red:soldier") == "queue 0"


# -- Corruption ---------------------------------------------------------------------------------


def test_corruption_options() -> None:
    """R-CORR-1/3: revealed top Characters, not on top of an opponent's stack of two or more
    (own stacks, own cards and already corrupted cards are fine); the new token replaces the
    old."""
    g = embrasement(
        [
            ["blue:queen*"],
            ["blue:felon", "blue:schemer*"],
            ["red:corruption"],
            ["red:felon", "red:schemer*"],
            ["green:felon"],
            ["green:queen*@blue"],
            ["red:queen*"],
        ],
        cursor=2,
    )
    act(g, "reveal red:corruption")
    assert decision(g) == (0, "corrupt")
    assert options(g) == {
        "target blue:queen", "target red:schemer", "target green:queen", "target red:queen"
    }
    act(g, "target green:queen")
    assert ["green:queen*@red"] in queue_refs(g)
    assert where(g, "red:corruption") == "discarded"


def test_corrupted_card_acts_for_the_corrupter() -> None:
    """R-CORR-1, R-RES-2: the corrupted Queen, sliding under the cursor, gains 2 for Red."""
    g = embrasement([["red:corruption"], ["blue:queen*"], ["green:felon"]], influence=[0, 0, 0])
    act(g, "reveal red:corruption")
    act(g, "target blue:queen")
    assert queue_refs(g) == [["blue:queen*@red"], ["green:felon"]]
    assert influence(g) == [2, 0, 0]


def test_corruption_without_target_has_no_effect() -> None:
    """R-CORR-1, R-ABIL-2: no revealed Character, no effect; Corruption is discarded."""
    g = embrasement([["red:corruption"], ["blue:felon"]])
    act(g, "reveal red:corruption")
    assert where(g, "red:corruption") == "discarded"
    assert decision(g) == (1, "reveal")


def test_corrupted_card_counts_for_the_lord() -> None:
    """R-CORR-1, R-LORD-1: the Lord counts a card its family corrupted, not its own card
    corrupted away."""
    g = setup(
        [["blue:queen*@red"], ["red:lord*"], ["red:queen*@blue"]],
        cards=WITH_SCHEMER,
        cursor=1,
        influence=[0, 0, 0],
    )
    assert influence(g) == [2, 2, 0]


def test_corrupted_card_can_be_stacked_on_by_the_corrupter() -> None:
    """R-CORR-1, R-PLACE-1: placing on a stack follows control."""
    g = embrasement(
        [["blue:queen*@red"], ["red:queen*@blue"]],
        families={"red": {"hand": ["felon"]}},
        phase="placement",
        round=3,
    )
    assert options(g) == {
        "place red:felon front", "place red:felon end", "place red:felon on blue:queen"
    }


def test_corrupted_card_counts_in_the_corrupters_tie_break() -> None:
    """R-CORR-1, R-END-1: equal Influence; Red controls 2 cards in the Queue, Blue 1."""
    g = embrasement(
        [["blue:queen*@red"], ["blue:felon"], ["red:felon"]],
        round=6,
        cursor=3,
        influence=[3, 3, 0],
    )
    result = g.result()
    assert result is not None
    assert result.queue_cards == (2, 1, 0)
    assert result.winners == (0,)


def test_corrupted_card_discarded_goes_to_owners_eliminated_cards() -> None:
    """R-CORR-2, R-SCHEMER-1: discarded, the corrupted Schemer goes to Blue's eliminated cards
    and the token is gone."""
    g = embrasement([["blue:schemer*@red"], ["green:felon", "green:queen"]], influence=[0, 0, 0])
    assert where(g, "blue:schemer") == "eliminated"
    assert all("@" not in ref for st in queue_refs(g) for ref in st)
    assert influence(g) == [0, 0, 0]


def test_corrupting_your_own_card_is_legal_and_it_leaves_as_eliminated() -> None:
    """R-CORR-3, R-CORR-2: no change of control, but the card then leaves as eliminated."""
    g = embrasement(
        [["red:corruption"], ["red:schemer*"], ["blue:felon", "blue:queen"]], influence=[0, 0, 0]
    )
    act(g, "reveal red:corruption")
    assert options(g) == {"target red:schemer"}
    act(g, "target red:schemer")
    assert where(g, "red:schemer") == "eliminated"
    assert influence(g) == [0, 0, 0]
    assert decision(g) == (1, "reveal")


# -- Shapeshifter copying Embrasement characters ------------------------------------------------


@pytest.mark.parametrize(
    ("model", "red_gain"),
    [("red:prince*", 1), ("blue:twin*", 1), ("blue:queen*", 2)],
)
def test_shapeshifter_copying_prince_twin_queen(model: str, red_gain: int) -> None:
    """R-SHIFT-1: Prince and Twin gain 1 (no Twin placed), Queen gains 2."""
    g = setup(
        [[model], ["red:shapeshifter*"], ["green:felon"]],
        cards=WITH_SOLDIER,
        cursor=1,
        influence=[0, 0, 0],
    )
    name = model.rstrip("*")
    assert options(g) == {f"target {name}"}
    act(g, f"target {name}")
    assert influence(g) == [red_gain, 0, 0]
    assert where(g, "red:twin") == "reserve"


def test_shapeshifter_copying_cutthroat() -> None:
    """R-SHIFT-1, R-CUT-1: from the Shapeshifter's place, it being the eliminator: a face-down
    Queen next to it, then the revealed opposing Queen: 2 cards + 2 Queen bonuses."""
    g = setup(
        [["blue:cutthroat*"], ["red:shapeshifter*"], ["green:queen"], ["blue:queen*"]],
        cards=WITH_SOLDIER,
        cursor=1,
        influence=[0, 0, 0],
    )
    act(g, "target blue:cutthroat")
    assert options(g) == {"target blue:cutthroat", "target green:queen"}
    act(g, "target green:queen")
    assert where(g, "blue:queen") == "eliminated"
    assert influence(g) == [4, 0, 0]
    assert [e["other"] for e in g.events() if e["kind"] == "eliminated"] == [
        g.card("red:shapeshifter")
    ] * 2


def test_shapeshifter_copying_apothecary_needs_a_reference_other_than_itself() -> None:
    """R-SHIFT-1, R-APOTH-1: the reference is the Apothecary, not the Shapeshifter, so the
    card beyond the Shapeshifter is out of reach."""
    g = setup(
        [["blue:felon"], ["red:apothecary*"], ["red:shapeshifter*"], ["green:felon"]],
        cards=WITH_SOLDIER,
        cursor=2,
        influence=[0, 0, 0],
    )
    act(g, "target red:apothecary")
    assert options(g) == {"target blue:felon", "target red:shapeshifter"}
    act(g, "target blue:felon")
    assert influence(g) == [1, 0, 0]


def test_shapeshifter_copying_felon_hits_its_own_neighbours() -> None:
    """R-SHIFT-1, R-FELON-1: the cards next to the Shapeshifter cost their controllers 1."""
    g = setup(
        [["blue:queen"], ["red:felon*"], ["red:shapeshifter*"], ["green:queen"]],
        cards=WITH_SOLDIER,
        cursor=2,
        influence=[3, 3, 3],
    )
    act(g, "target red:felon")
    assert influence(g) == [2, 3, 2]


@pytest.mark.parametrize(
    ("third", "red_gain", "shapeshifter_at"),
    [(["blue:felon", "blue:queen"], 0, "discarded"), (["blue:queen"], 2, "queue 1")],
    ids=["next-to-a-stack", "no-stack"],
)
def test_shapeshifter_copying_schemer(
    third: list[str], red_gain: int, shapeshifter_at: str
) -> None:
    """R-SHIFT-1, R-SCHEMER-1: the stacks next to the Shapeshifter decide; it is the
    Shapeshifter that is discarded."""
    g = setup(
        [["red:schemer*"], ["red:shapeshifter*"], third],
        cards=WITH_SCHEMER,
        cursor=1,
        influence=[0, 0, 0],
    )
    act(g, "target red:schemer")
    assert influence(g) == [red_gain, 0, 0]
    assert where(g, "red:shapeshifter") == shapeshifter_at
    assert where(g, "red:schemer") == "queue 0"


# -- Ambush and Trap against Cutthroat, Shapeshifter and Apothecary ------------------------------


def test_cutthroat_hitting_only_an_opposing_ambush() -> None:
    """R-AMBUSH-2, R-CUT-1: no +1 for the Cutthroat, +4 for the Ambush's owner, the Cutthroat
    and the Ambush (with its tokens) discarded."""
    g = setup(
        [["blue:ambush+2"], ["red:cutthroat*"], ["green:felon"]],
        cards=WITH_SOLDIER,
        cursor=1,
        influence=[0, 0, 0],
    )
    act(g, "target blue:ambush")
    assert influence(g) == [0, 4, 0]
    assert where(g, "red:cutthroat") == "discarded"
    assert where(g, "blue:ambush") == "discarded"
    assert queue_refs(g) == [["green:felon"]]


def test_cutthroat_hitting_only_an_opposing_trap() -> None:
    """R-TRAP-2, R-CUT-1: no +1, the Cutthroat is discarded, 3 stolen."""
    g = setup(
        [["blue:trap"], ["red:cutthroat*"], ["green:felon"]],
        cards=WITH_SOLDIER,
        cursor=1,
        influence=[5, 5, 5],
    )
    act(g, "target blue:trap")
    assert influence(g) == [2, 8, 5]
    assert where(g, "red:cutthroat") == "discarded"


@pytest.mark.parametrize(
    ("queue", "cursor", "actions", "end", "attacker", "attacker_at"),
    [
        (
            [["red:soldier*"], ["red:shapeshifter*"], ["blue:ambush"], ["green:felon"]],
            1,
            ["target red:soldier", "target blue:ambush"],
            [6, 9, 5],
            "red:shapeshifter",
            "discarded",
        ),
        (
            [["blue:cutthroat*"], ["red:shapeshifter*"], ["blue:ambush"], ["green:felon"]],
            1,
            ["target blue:cutthroat", "target blue:ambush"],
            [5, 9, 5],
            "red:shapeshifter",
            "discarded",
        ),
        (
            [["red:apothecary*"], ["red:shapeshifter*"], ["blue:trap"], ["red:queen"],
             ["green:felon"]],
            1,
            ["target red:apothecary", "target blue:trap"],
            [3, 8, 5],
            "red:shapeshifter",
            "discarded",
        ),
        (
            [["red:apothecary*"], ["blue:ambush"], ["red:queen"], ["green:felon"]],
            0,
            ["target blue:ambush"],
            [6, 9, 5],
            "red:apothecary",
            "discarded",
        ),
        (
            [["red:apothecary*"], ["red:ambush"], ["red:queen"], ["green:felon"]],
            0,
            ["target red:ambush"],
            [6, 5, 5],
            "red:apothecary",
            "queue 0",
        ),
        (
            [["red:soldier*@blue"], ["red:ambush"], ["green:felon"]],
            0,
            ["target red:ambush"],
            [9, 6, 5],
            "red:soldier",
            "eliminated",
        ),
    ],
    ids=[
        "shapeshifter-as-soldier-on-ambush",
        "shapeshifter-as-cutthroat-on-ambush",
        "shapeshifter-as-apothecary-on-trap",
        "apothecary-on-ambush",
        "own-apothecary-on-own-ambush",
        "corrupted-soldier-on-its-owners-ambush",
    ],
)
def test_ambush_and_trap_catch_the_attacking_card(
    queue: list[list[str]],
    cursor: int,
    actions: list[str],
    end: list[int],
    attacker: str,
    attacker_at: str,
) -> None:
    """R-AMBUSH-2/3, R-TRAP-2, R-SHIFT-1, R-APOTH-1, R-CUT-1, R-CORR-2: the card that eliminated
    (the copying Shapeshifter, the Apothecary) is discarded when the victim's player is
    another; the Cutthroat copy gets no +1; an own Ambush gives +1 only and the attacker stays;
    a Soldier corrupted by Blue attacks for Blue and, discarded, goes to its owner's eliminated
    cards. An eliminated Ambush is discarded whoever hit it; a Trap is eliminated."""
    g = setup(queue, cards=WITH_SOLDIER, cursor=cursor, influence=[5, 5, 5])
    for text in actions:
        act(g, text)
    assert influence(g) == end
    assert where(g, attacker) == attacker_at
    victim = actions[-1].removeprefix("target ")
    assert where(g, victim) == ("discarded" if victim.endswith(":ambush") else "eliminated")
