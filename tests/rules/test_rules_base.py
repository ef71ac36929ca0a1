"""Scenario tests of the ten base cards (seed 004, RULINGS.md R-ARCHER-1 .. R-CONSP-1).

Every expectation below was worked out by hand from the rulings; positions are given by value
(see ``scenarios.py``). Families: red = player 0, blue = player 1, green = player 2.
"""

from __future__ import annotations

from scenarios import act, decision, face_up, influence, options, queue_refs, setup, tokens, where

# -- Archer -------------------------------------------------------------------------------------


def test_archer_targets_first_or_last_top_card() -> None:
    """R-ARCHER-1, R-QUEUE-2: only the tops of the first and last stacks; an uncovered card
    later than the cursor resolves this round (R-RES-3)."""
    g = setup([["blue:spy"], ["red:archer"], ["green:lord", "green:heir*"]], cursor=1)
    assert options(g) == {"reveal red:archer", "leave red:archer"}
    act(g, "reveal red:archer")
    assert decision(g) == (0, "eliminate")
    assert options(g) == {"target blue:spy", "target green:heir"}
    act(g, "target green:heir")
    assert influence(g) == [2, 1, 1]
    assert where(g, "green:heir") == "eliminated"
    assert queue_refs(g) == [["blue:spy"], ["red:archer*"], ["green:lord"]]
    assert decision(g) == (2, "reveal")
    assert options(g) == {"reveal green:lord", "leave green:lord"}


def test_archer_may_eliminate_itself() -> None:
    """R-ARCHER-1: the Archer as last card may target itself; its tokens are gained first
    (R-RES-1) and the elimination still gives +1 (R-ELIM-1)."""
    g = setup([["blue:spy"], ["red:archer+2"]], cursor=1, rest="hand")
    act(g, "reveal red:archer")
    assert influence(g) == [3, 1, 1]
    assert options(g) == {"target blue:spy", "target red:archer"}
    act(g, "target red:archer")
    assert influence(g) == [4, 1, 1]
    assert where(g, "red:archer") == "eliminated"
    assert queue_refs(g) == [["blue:spy"]]
    assert g.round == 3 and decision(g) == (1, "place")


def test_archer_alone_must_eliminate_itself() -> None:
    """R-ARCHER-1, R-ABIL-1: alone in the Queue, first and last is the Archer itself."""
    g = setup([["red:archer*"]])
    assert decision(g) == (0, "eliminate")
    assert options(g) == {"target red:archer"}


# -- Soldier ------------------------------------------------------------------------------------


def test_soldier_eliminates_an_adjacent_top_card() -> None:
    """R-SOLDIER-1, R-QUEUE-2, R-ELIM-1: adjacent tops only (a stack counts once); a face-down
    victim is turned face up and its tokens are lost; the removal earlier than the cursor shifts
    it back, so the next stack still resolves (R-RES-3)."""
    g = setup(
        [["blue:spy+2"], ["red:soldier"], ["green:lord", "green:heir*"], ["blue:archer"]],
        cursor=1,
    )
    act(g, "reveal red:soldier")
    assert options(g) == {"target blue:spy", "target green:heir"}
    act(g, "target blue:spy")
    assert where(g, "blue:spy") == "eliminated"
    assert face_up(g, "blue:spy") and tokens(g, "blue:spy") == 0
    # Red +1 for the elimination; then green's Heir resolved (+2); then Blue's Archer.
    assert influence(g) == [2, 1, 3]
    assert decision(g) == (1, "reveal")
    assert options(g) == {"reveal blue:archer", "leave blue:archer"}


def test_soldier_may_be_forced_to_hit_its_own_family() -> None:
    """R-SOLDIER-1, R-ABIL-1: mandatory even when the only adjacent card is one's own."""
    g = setup([["red:lord"], ["red:soldier*"]], cursor=1)
    assert decision(g) == (0, "eliminate")
    assert options(g) == {"target red:lord"}
    act(g, "target red:lord")
    assert influence(g) == [2, 1, 1]
    assert where(g, "red:lord") == "eliminated"


def test_soldier_without_adjacent_card_has_no_effect() -> None:
    """R-SOLDIER-1, R-ABIL-1: no legal target, no effect; the Soldier stays revealed."""
    g = setup([["red:soldier"]], rest="hand")
    act(g, "reveal red:soldier")
    assert influence(g) == [1, 1, 1]
    assert queue_refs(g) == [["red:soldier*"]]
    assert g.round == 3 and decision(g) == (1, "place")


# -- Spy ----------------------------------------------------------------------------------------


def test_spy_steals_from_a_player_with_an_adjacent_card() -> None:
    """R-SPY-1: the Influence comes from the player, not from the tokens on the card."""
    g = setup(
        [["blue:lord+3"], ["red:spy"], ["green:archer"]],
        cursor=1,
        influence=[1, 2, 0],
    )
    act(g, "reveal red:spy")
    assert decision(g) == (0, "steal")
    assert options(g) == {"player 1", "player 2"}
    act(g, "player 1")
    assert influence(g) == [2, 1, 0]
    assert tokens(g, "blue:lord") == 3
    assert decision(g) == (2, "reveal")


def test_spy_stealing_from_an_empty_player_takes_nothing() -> None:
    """R-SPY-1, R-SCORE-1: a thief gains exactly what the victim lost (here 0)."""
    g = setup([["red:spy*"], ["green:archer"]], influence=[1, 2, 0])
    assert options(g) == {"player 2"}
    act(g, "player 2")
    assert influence(g) == [1, 2, 0]


def test_spy_offers_its_own_controller_even_as_only_option() -> None:
    """R-SPY-2: the own controller is an option (no effect), even when it is the only one."""
    g = setup([["red:lord"], ["red:spy*"]], cursor=1)
    assert decision(g) == (0, "steal")
    assert options(g) == {"player 0"}
    act(g, "player 0")
    assert influence(g) == [1, 1, 1]


def test_spy_offers_self_among_other_players() -> None:
    """R-SPY-2: both neighbours' controllers, the Spy's own included."""
    g = setup([["red:lord"], ["red:spy*"], ["blue:lord"]], cursor=1)
    assert options(g) == {"player 0", "player 1"}


def test_spy_without_adjacent_card_has_no_effect() -> None:
    """R-SPY-1: no adjacent card, no effect."""
    g = setup([["red:spy*"]], rest="hand")
    assert influence(g) == [1, 1, 1]
    assert g.round == 3 and decision(g) == (1, "place")


# -- Heir ---------------------------------------------------------------------------------------


def test_heir_gains_2_when_no_other_heir_is_revealed() -> None:
    """R-HEIR-1, R-RES-1: tokens first (+1), then +2; a face-down Heir does not count."""
    g = setup([["blue:heir"], ["red:heir+1"]], cursor=1)
    act(g, "reveal red:heir")
    assert influence(g) == [4, 1, 1]


def test_heir_blocked_by_another_revealed_uncovered_heir() -> None:
    """R-HEIR-1: once two Heirs are revealed and uncovered, neither gains."""
    g = setup([["red:heir+1"], ["blue:heir*"]], cursor=0)
    act(g, "reveal red:heir")
    # Red gains its token only; then Blue's Heir applies and is blocked by Red's.
    assert influence(g) == [2, 1, 1]


def test_heir_not_blocked_by_a_covered_heir() -> None:
    """R-HEIR-1, R-QUEUE-2: a covered Heir is not in play."""
    g = setup([["blue:heir*", "blue:lord"], ["red:heir"]], cursor=1)
    act(g, "reveal red:heir")
    assert influence(g) == [3, 1, 1]


# -- Assassination ------------------------------------------------------------------------------


def test_assassination_eliminates_any_top_card_then_is_discarded() -> None:
    """R-ASSASSIN-1, R-QUEUE-2, R-ELIM-2: any top card (itself included); the Assassination goes
    to the discarded pile; the earlier removal shifts the cursor back and the next stack slides
    in (R-RES-2/3)."""
    g = setup(
        [["blue:spy+1"], ["green:lord", "green:heir*"], ["red:assassination"], ["blue:archer"]],
        cursor=2,
    )
    act(g, "reveal red:assassination")
    assert decision(g) == (0, "eliminate")
    assert options(g) == {
        "target blue:spy",
        "target green:heir",
        "target red:assassination",
        "target blue:archer",
    }
    act(g, "target blue:spy")
    assert influence(g) == [2, 1, 1]
    assert where(g, "blue:spy") == "eliminated"
    assert where(g, "red:assassination") == "discarded"
    assert queue_refs(g) == [["green:lord", "green:heir*"], ["blue:archer"]]
    assert decision(g) == (1, "reveal")
    assert options(g) == {"reveal blue:archer", "leave blue:archer"}


def test_assassination_may_eliminate_itself() -> None:
    """R-ASSASSIN-1, R-ELIM-1: targeting itself is an elimination (+1)."""
    g = setup([["red:assassination"], ["blue:lord"]])
    act(g, "reveal red:assassination")
    act(g, "target red:assassination")
    assert influence(g) == [2, 1, 1]
    assert where(g, "red:assassination") == "eliminated"
    assert decision(g) == (1, "reveal")


def test_assassination_uncovering_an_earlier_card_does_not_resolve_it() -> None:
    """R-ASSASSIN-1, R-RES-3: a card uncovered earlier than the cursor waits for next round."""
    g = setup(
        [["green:lord", "green:heir*"], ["red:assassination"], ["blue:archer"]],
        cursor=1,
    )
    act(g, "reveal red:assassination")
    act(g, "target green:heir")
    assert queue_refs(g) == [["green:lord"], ["blue:archer"]]
    assert decision(g) == (1, "reveal")
    assert options(g) == {"reveal blue:archer", "leave blue:archer"}


def test_assassination_uncovering_a_later_card_resolves_it() -> None:
    """R-ASSASSIN-1, R-RES-3: a card uncovered later than the cursor resolves this round."""
    g = setup(
        [["red:assassination"], ["blue:archer"], ["green:lord", "green:heir*"]],
        rest="hand",
    )
    act(g, "reveal red:assassination")
    act(g, "target green:heir")
    act(g, "leave blue:archer")
    assert decision(g) == (2, "reveal")
    assert options(g) == {"reveal green:lord", "leave green:lord"}


# -- Royal Decree -------------------------------------------------------------------------------


def test_royal_decree_options_exclude_moves_that_change_nothing() -> None:
    """R-DECREE-1: any top card but the Decree; never the two gaps beside a lone card's stack."""
    g = setup([["red:royal_decree"], ["blue:spy"], ["green:lord", "green:heir"]])
    act(g, "reveal red:royal_decree")
    assert decision(g) == (0, "move_card")
    assert options(g) == {"target blue:spy", "target green:heir"}
    probe = g.copy()
    act(probe, "target blue:spy")
    assert decision(probe) == (0, "move_to")
    assert options(probe) == {"move blue:spy gap 0", "move blue:spy gap 3"}
    # Taking the top of a stack away always changes the Queue: every gap is an option.
    act(g, "target green:heir")
    assert options(g) == {f"move green:heir gap {n}" for n in range(4)}


def test_royal_decree_moved_card_keeps_face_and_tokens_and_uncovers() -> None:
    """R-DECREE-1, R-ELIM-3, R-RES-3: the moved card keeps its tokens; nobody gains; the card it
    uncovered (later than the cursor) resolves this round, with its own tokens."""
    g = setup([["red:royal_decree"], ["blue:lord+2", "blue:spy+1"], ["green:archer"]])
    act(g, "reveal red:royal_decree")
    act(g, "target blue:spy")
    act(g, "move blue:spy gap 0")
    assert queue_refs(g) == [["blue:spy+1"], ["blue:lord+2"], ["green:archer"]]
    assert influence(g) == [1, 1, 1]
    assert where(g, "red:royal_decree") == "discarded"
    assert decision(g) == (1, "reveal")
    assert options(g) == {"reveal blue:lord", "leave blue:lord"}
    act(g, "reveal blue:lord")
    assert influence(g) == [1, 5, 1]  # 2 tokens, then Lord: 1 + 1 for Blue's Spy adjacent


def test_royal_decree_makes_a_card_resolve_twice() -> None:
    """R-DECREE-1, R-RES-3: a card moved later than the cursor resolves again this round."""
    g = setup([["red:lord*"], ["red:royal_decree"], ["blue:spy"]], cursor=1, rest="hand")
    act(g, "reveal red:royal_decree")
    act(g, "target red:lord")
    assert options(g) == {"move red:lord gap 2", "move red:lord gap 3"}
    act(g, "move red:lord gap 3")
    assert decision(g) == (1, "reveal")
    act(g, "leave blue:spy")
    # The Lord resolved again: 1, no adjacent red card.
    assert influence(g) == [2, 1, 1]
    assert queue_refs(g) == [["blue:spy+1"], ["red:lord*"]]
    assert g.round == 3


def test_royal_decree_taking_the_top_of_an_earlier_stack() -> None:
    """R-DECREE-1, R-RES-3: the top of an earlier stack moved to the end resolves again; the
    card it uncovered, earlier than the cursor, does not resolve this round."""
    g = setup([["red:heir", "red:lord*"], ["red:royal_decree"], ["blue:spy"]], cursor=1)
    act(g, "reveal red:royal_decree")
    act(g, "target red:lord")
    act(g, "move red:lord gap 3")
    assert queue_refs(g) == [["red:heir"], ["blue:spy"], ["red:lord*"]]
    assert decision(g) == (1, "reveal")
    act(g, "leave blue:spy")
    assert influence(g) == [2, 1, 1]  # the Lord again: 1, its neighbour is Blue's


def test_royal_decree_prevents_a_resolution() -> None:
    """R-DECREE-1, R-RES-3: a card moved earlier than the cursor does not resolve this round."""
    g = setup([["red:royal_decree"], ["blue:soldier*"], ["green:lord"]], rest="hand")
    act(g, "reveal red:royal_decree")
    act(g, "target blue:soldier")
    act(g, "move blue:soldier gap 0")
    assert queue_refs(g) == [["blue:soldier*"], ["green:lord"]]
    assert decision(g) == (2, "reveal")
    act(g, "leave green:lord")
    assert influence(g) == [1, 1, 1]
    assert g.round == 3 and decision(g) == (1, "place")


def test_royal_decree_move_triggers_nothing() -> None:
    """R-ELIM-3: moving an Ambush is not an elimination."""
    g = setup([["red:royal_decree"], ["blue:ambush+1"], ["green:lord"]])
    act(g, "reveal red:royal_decree")
    act(g, "target blue:ambush")
    act(g, "move blue:ambush gap 3")
    assert queue_refs(g) == [["green:lord"], ["blue:ambush+1"]]
    assert influence(g) == [1, 1, 1]


def test_royal_decree_alone_is_discarded_without_effect() -> None:
    """R-DECREE-1, R-ABIL-2: no other card, no effect, still discarded."""
    g = setup([["red:royal_decree"]], rest="hand")
    act(g, "reveal red:royal_decree")
    assert queue_refs(g) == []
    assert where(g, "red:royal_decree") == "discarded"
    assert decision(g) == (1, "place")


# -- Lord ---------------------------------------------------------------------------------------


def test_lord_counts_adjacent_stacks_of_its_family() -> None:
    """R-LORD-1: 1 + 1 per adjacent stack topped by its family (face down counts, a stack counts
    once); an opponent's neighbour adds nothing."""
    g = setup([["blue:soldier"], ["red:heir", "red:spy"], ["red:lord"], ["red:archer"]], cursor=2)
    act(g, "reveal red:lord")
    assert influence(g) == [4, 1, 1]
    g = setup([["red:spy"], ["red:lord"], ["blue:archer"]], cursor=1)
    act(g, "reveal red:lord")
    assert influence(g) == [3, 1, 1]


def test_lord_first_edition_counts_covered_cards() -> None:
    """R-LORD-1, R-EDITION-1: with edition=first, every card of the family in each adjacent
    stack counts, covered ones included."""
    g = setup(
        [["blue:soldier"], ["red:heir", "red:spy"], ["red:lord"], ["red:archer"]],
        cursor=2,
        edition="first",
    )
    act(g, "reveal red:lord")
    assert influence(g) == [5, 1, 1]


# -- Shapeshifter -------------------------------------------------------------------------------


def test_shapeshifter_copies_an_archer() -> None:
    """R-SHIFT-1, R-ARCHER-1: only adjacent revealed Characters; the copy targets the Queue's
    ends and the Shapeshifter's controller is the eliminator."""
    g = setup([["blue:spy"], ["red:shapeshifter"], ["green:archer*"], ["blue:lord"]], cursor=1)
    act(g, "reveal red:shapeshifter")
    assert decision(g) == (0, "copy")
    assert options(g) == {"target green:archer"}
    act(g, "target green:archer")
    assert decision(g) == (0, "eliminate")
    assert options(g) == {"target blue:spy", "target blue:lord"}
    act(g, "target blue:lord")
    assert influence(g) == [2, 1, 1]
    assert where(g, "blue:lord") == "eliminated"
    # Green's Archer resolves next, itself now last.
    assert decision(g) == (2, "eliminate")
    assert options(g) == {"target blue:spy", "target green:archer"}


def test_shapeshifter_copies_a_soldier_from_its_own_place() -> None:
    """R-SHIFT-1, R-SOLDIER-1: adjacent to the Shapeshifter, which may hit the model."""
    g = setup([["blue:spy"], ["red:shapeshifter*"], ["green:soldier*"]], cursor=1)
    assert options(g) == {"target green:soldier"}
    act(g, "target green:soldier")
    assert options(g) == {"target blue:spy", "target green:soldier"}
    act(g, "target blue:spy")
    assert influence(g) == [2, 1, 1]
    assert decision(g) == (2, "eliminate")
    assert options(g) == {"target red:shapeshifter"}


def test_shapeshifter_copies_a_spy() -> None:
    """R-SHIFT-1, R-SPY-1: the players controlling cards adjacent to the Shapeshifter."""
    g = setup([["blue:lord"], ["red:shapeshifter*"], ["green:spy*"]], cursor=1)
    act(g, "target green:spy")
    assert decision(g) == (0, "steal")
    assert options(g) == {"player 1", "player 2"}
    act(g, "player 1")
    assert influence(g) == [2, 0, 1]


def test_shapeshifter_copies_a_lord_for_its_own_family() -> None:
    """R-SHIFT-1, R-LORD-1: 1 + Red's card beside the Shapeshifter; the Blue Lord adds none."""
    g = setup([["red:heir"], ["red:shapeshifter*"], ["blue:lord*"]], cursor=1)
    act(g, "target blue:lord")
    # Red 1 + 2; then the Blue Lord resolves for Blue: 1, its only neighbour being Red's.
    assert influence(g) == [3, 2, 1]


def test_shapeshifter_copying_an_heir_keeps_its_name() -> None:
    """R-SHIFT-1, R-HEIR-1: the revealed Heir it copies does not block it (name Shapeshifter)."""
    g = setup([["blue:heir*"], ["red:shapeshifter*"], ["green:lord"]], cursor=1)
    act(g, "target blue:heir")
    assert influence(g) == [3, 1, 1]
    assert decision(g) == (2, "reveal")


def test_shapeshifter_copying_an_heir_blocked_by_another_shapeshifter() -> None:
    """R-SHIFT-1, R-HEIR-1: another revealed uncovered Shapeshifter blocks the copied Heir;
    copying a Shapeshifter has no effect."""
    g = setup(
        [["blue:heir*"], ["red:shapeshifter*"], ["green:shapeshifter*"]],
        cursor=1,
        rest="hand",
    )
    assert options(g) == {"target blue:heir", "target green:shapeshifter"}
    act(g, "target blue:heir")
    assert influence(g) == [1, 1, 1]
    assert decision(g) == (2, "copy")
    assert options(g) == {"target red:shapeshifter"}
    act(g, "target red:shapeshifter")
    assert influence(g) == [1, 1, 1]
    assert g.round == 3 and decision(g) == (1, "place")


def test_shapeshifter_copying_a_shapeshifter_has_no_effect() -> None:
    """R-SHIFT-1: legal, no effect; resolution goes on."""
    g = setup([["blue:shapeshifter*"], ["red:shapeshifter*"], ["green:lord"]], cursor=1)
    assert options(g) == {"target blue:shapeshifter"}
    act(g, "target blue:shapeshifter")
    assert influence(g) == [1, 1, 1]
    assert decision(g) == (2, "reveal")


def test_shapeshifter_without_adjacent_revealed_character_has_no_effect() -> None:
    """R-SHIFT-1, R-QUEUE-2: face-down and covered characters cannot be copied."""
    g = setup(
        [["blue:lord"], ["red:shapeshifter"], ["green:heir*", "green:spy"]],
        cursor=1,
    )
    act(g, "reveal red:shapeshifter")
    assert influence(g) == [1, 1, 1]
    assert decision(g) == (2, "reveal")
    assert options(g) == {"reveal green:spy", "leave green:spy"}


# -- Ambush -------------------------------------------------------------------------------------


def test_ambush_revealed_by_its_owner() -> None:
    """R-AMBUSH-1: its tokens are discarded (not gained), +1, then it is discarded."""
    g = setup([["red:ambush+2"], ["blue:lord"]])
    act(g, "reveal red:ambush")
    assert influence(g) == [2, 1, 1]
    assert where(g, "red:ambush") == "discarded"
    assert decision(g) == (1, "reveal")


def test_ambush_example_1_opponent_soldier() -> None:
    """R-AMBUSH-2 (seed 004, example 1): the Soldier's owner gains 1, the Ambush's owner 4, the
    Soldier is discarded; the next stack slides in under the cursor (R-RES-2)."""
    g = setup([["red:ambush+1"], ["blue:soldier"], ["green:lord"]], cursor=1)
    act(g, "reveal blue:soldier")
    assert options(g) == {"target red:ambush", "target green:lord"}
    act(g, "target red:ambush")
    assert influence(g) == [5, 2, 1]
    assert where(g, "blue:soldier") == "discarded"
    assert where(g, "red:ambush") == "discarded"
    assert face_up(g, "red:ambush") and tokens(g, "red:ambush") == 0
    assert queue_refs(g) == [["green:lord"]]
    assert decision(g) == (2, "reveal")


def test_ambush_example_2_own_archer() -> None:
    """R-AMBUSH-3 (seed 004, example 2): own Archer: the elimination's +1 only, the Archer stays;
    "The Ambush is discarded": it goes to its owner's discarded cards (R-ELIM-2)."""
    g = setup([["red:ambush"], ["blue:lord"], ["red:archer"]], cursor=2)
    act(g, "reveal red:archer")
    act(g, "target red:ambush")
    assert influence(g) == [2, 1, 1]
    assert where(g, "red:ambush") == "discarded"
    assert queue_refs(g) == [["blue:lord"], ["red:archer*"]]


def test_ambush_own_archer_first_edition() -> None:
    """R-AMBUSH-3, R-EDITION-1: with edition=first, +1 more and the attacker is discarded; the
    Ambush is discarded too (seed 003: "Les deux cartes sont défaussées")."""
    g = setup([["red:ambush"], ["blue:lord"], ["red:archer"]], cursor=2, edition="first")
    act(g, "reveal red:archer")
    act(g, "target red:ambush")
    assert influence(g) == [3, 1, 1]
    assert where(g, "red:archer") == "discarded"
    assert where(g, "red:ambush") == "discarded"
    assert queue_refs(g) == [["blue:lord"]]


def test_ambush_discards_a_copying_shapeshifter() -> None:
    """R-AMBUSH-2, R-SHIFT-1: the attacking card is the Shapeshifter; the card it uncovers at
    the cursor resolves next (R-RES-2)."""
    g = setup(
        [["blue:ambush"], ["red:lord*", "red:shapeshifter*"], ["green:soldier*"]],
        cursor=1,
    )
    act(g, "target green:soldier")
    act(g, "target blue:ambush")
    assert where(g, "red:shapeshifter") == "discarded"
    assert where(g, "blue:ambush") == "discarded"
    # Red +1 (elimination), Blue +4; then the uncovered Red Lord resolves: 1, no red neighbour.
    assert influence(g) == [3, 5, 1]
    assert queue_refs(g) == [["red:lord*"], ["green:soldier*"]]
    assert decision(g) == (2, "eliminate")


def test_ambush_eliminated_by_an_opponent_assassination() -> None:
    """R-AMBUSH-2: an Assassination is the attacker too; its owner still gets the +1."""
    g = setup([["red:ambush+3"], ["blue:assassination"], ["green:lord"]], cursor=1)
    act(g, "reveal blue:assassination")
    act(g, "target red:ambush")
    assert influence(g) == [5, 2, 1]
    assert where(g, "blue:assassination") == "discarded"
    assert where(g, "red:ambush") == "discarded"
    assert decision(g) == (2, "reveal")


# -- Conspiracy ---------------------------------------------------------------------------------


def test_conspiracy_with_3_tokens_gives_6() -> None:
    """R-CONSP-1 (seed 004 example): twice the tokens, not the tokens plus twice; discarded."""
    g = setup([["red:conspiracy+3"], ["blue:lord"]])
    act(g, "reveal red:conspiracy")
    assert influence(g) == [7, 1, 1]
    assert where(g, "red:conspiracy") == "discarded"
    assert decision(g) == (1, "reveal")


def test_conspiracy_without_tokens_gives_nothing() -> None:
    """R-CONSP-1: no token, nothing gained; still discarded."""
    g = setup([["red:conspiracy"], ["blue:lord"]])
    act(g, "reveal red:conspiracy")
    assert influence(g) == [1, 1, 1]
    assert where(g, "red:conspiracy") == "discarded"
