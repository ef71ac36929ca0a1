"""Perft-style counts: how many distinct decision sequences of depth N a position has.

The shallow counts are derived by hand from the rules (the derivation is written out next to
each assertion); the deepest count of each position is a regression value, said so where pinned.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from oriflamme.api import CardType, Game, new_game

# A fixed 3-player Embrasement round 1 (seed 2): green's Apothecary resolves first with no
# reference card (no effect), red's Prince puts its Twin at the end (R-PRINCE-1), blue's
# Corruption takes the Twin (R-CORR-1), which then gains 1 for blue.
EMBRASEMENT_ROUND_1 = (
    "place 9 end",
    "place 20 end",
    "place 25 front",
    "reveal 25",
    "reveal 9",
    "twin 10 end",
    "reveal 20",
    "target 10",
)


def perft(game: Game, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` from ``game``."""
    legal = game.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = game.copy(log=False)
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def first_reveal_options(card: CardType, stacks: int) -> int:
    """Options of the decision after revealing ``card``, the first of ``stacks`` lone face-down
    stacks of round 1 (``stacks`` >= 3)."""
    if card is CardType.ARCHER:
        return 2  # the first stack (itself) or the last (R-ARCHER-1)
    if card in (CardType.SOLDIER, CardType.SPY):
        return 1  # its one neighbour; for the Spy, that card's player (R-SOLDIER-1, R-SPY-1)
    if card is CardType.ASSASSINATION:
        return stacks  # any top card, itself included (R-ASSASSIN-1)
    if card is CardType.ROYAL_DECREE:
        return stacks - 1  # any other top card (R-DECREE-1)
    # Heir, Lord, Conspiracy, Ambush gain without a choice; the Shapeshifter has no revealed
    # neighbour (R-SHIFT-1). The cursor then reaches the next face-down card: reveal or leave.
    assert card in (
        CardType.HEIR, CardType.LORD, CardType.SHAPESHIFTER, CardType.AMBUSH, CardType.CONSPIRACY
    )
    return 2


def round_one_model(hands: Sequence[Sequence[CardType]], order: Sequence[int]) -> int:
    """Sequences of depth ``len(order) + 2`` from a round-1 deal, counted without the engine.

    ``order`` lists who places, one card at a time. The first card goes into the empty Queue (one
    place), every later one at the front or the end (R-PLACE-1, round 1). Then the first stack's
    card is left (the next card is then revealed or left: 2) or revealed (its options).
    """
    stacks = len(order)

    def count(
        slot: int, remaining: tuple[tuple[CardType, ...], ...], first: CardType | None
    ) -> int:
        if slot == stacks:
            assert first is not None
            return 2 + first_reveal_options(first, stacks)
        player = order[slot]
        total = 0
        hand = remaining[player]
        for i, card in enumerate(hand):
            rest = list(remaining)
            rest[player] = hand[:i] + hand[i + 1 :]  # two families may both hold a type
            total += count(slot + 1, tuple(rest), card)  # alone, or at the front: resolves first
            if slot > 0:
                total += count(slot + 1, tuple(rest), first)  # at the end
        return total

    return count(0, tuple(tuple(h) for h in hands), None)


def hand_types(game: Game, player: int) -> list[CardType]:
    hand = game.observe(player)["families"]
    return [
        CardType.from_name(card["type"])
        for family in hand
        if family["player"] == player
        for card in family["hand"]
    ]


# -- a new 3-player base game ---------------------------------------------------------------------
@pytest.fixture
def base_3p() -> Game:
    return new_game(players=3, cards="base", seed=1)


def test_new_3p_game_shallow_counts_by_hand(base_3p: Game) -> None:
    assert [len(hand_types(base_3p, p)) for p in range(3)] == [7, 7, 7]
    # 1: red's 7 cards, one place in the empty Queue (R-PLACE-1, empty-Queue reading (c)).
    assert perft(base_3p, 1) == 7
    # 2: then blue's 7 cards, at the front or the end (round 1: no stacking).
    assert perft(base_3p, 2) == 7 * (7 * 2)
    # 3: then green's 7 cards, front or end.
    assert perft(base_3p, 3) == 7 * 14 * 14
    # 4: all placed, resolution: the first stack's face-down card, reveal or leave (R-RES-1).
    assert perft(base_3p, 4) == 7 * 14 * 14 * 2


def test_new_3p_game_depth_5_matches_a_model_of_the_rules(base_3p: Game) -> None:
    hands = [hand_types(base_3p, p) for p in range(3)]
    assert perft(base_3p, 5) == round_one_model(hands, order=(0, 1, 2))


def test_new_3p_game_depth_6_regression(base_3p: Game) -> None:
    # Regression value (computed by the engine, not derived by hand).
    assert perft(base_3p, 6) == 10605


# -- a 2-player game with two families each (R-2P-1) ----------------------------------------------
@pytest.fixture
def two_families() -> Game:
    return new_game(players=2, seed=1)


def test_two_families_shallow_counts_by_hand(two_families: Game) -> None:
    # Each player holds 3 cards of each of their two families and places twice per round,
    # alternating: red/green player, blue/yellow player, red/green, blue/yellow.
    assert [len(hand_types(two_families, p)) for p in range(2)] == [6, 6]
    assert perft(two_families, 1) == 6
    assert perft(two_families, 2) == 6 * (6 * 2)
    assert perft(two_families, 3) == 6 * 12 * (5 * 2)
    assert perft(two_families, 4) == 6 * 12 * 10 * (5 * 2)
    assert perft(two_families, 5) == 6 * 12 * 10 * 10 * 2


def test_two_families_depth_6_matches_a_model_of_the_rules(two_families: Game) -> None:
    hands = [hand_types(two_families, p) for p in range(2)]
    assert perft(two_families, 6) == round_one_model(hands, order=(0, 1, 0, 1))


def test_two_families_depth_7_regression(two_families: Game) -> None:
    # Regression value (computed by the engine, not derived by hand).
    assert perft(two_families, 7) == 70780


# -- a 3-player Embrasement game at the start of round 2 ------------------------------------------
@pytest.fixture
def embrasement_round_2() -> Game:
    game = new_game(players=3, cards="embrasement", seed=2)
    for action in EMBRASEMENT_ROUND_1:
        game.apply(action)
    return game


def test_embrasement_round_2_position(embrasement_round_2: Game) -> None:
    """The position the counts below are derived from."""
    position = embrasement_round_2.position()
    assert position["queue"] == [["green:apothecary*"], ["red:prince*"], ["red:twin*@blue"]]
    assert position["influence"] == [2, 2, 1]
    assert (position["round"], position["first_player"]) == (2, 1)
    assert [len(hand_types(embrasement_round_2, p)) for p in range(3)] == [6, 6, 6]


def test_embrasement_round_2_counts_by_hand(embrasement_round_2: Game) -> None:
    game = embrasement_round_2
    # 1: blue (first player of round 2) places one of 6 cards at the front, the end, or on the
    # Twin it controls through its Corruption token (R-PLACE-1, R-CORR-1).
    assert perft(game, 1) == 6 * 3
    # 2: green: front, end, or on its Apothecary (whatever blue did).
    assert perft(game, 2) == 18 * (6 * 3)
    # 3: red: front, end, or on its Prince (it no longer controls the Twin).
    assert perft(game, 3) == 18 * 18 * (6 * 3)
    # 4: resolution. If anyone placed at the front, or green covered its Apothecary, the first
    # stack's top is face down: reveal or leave (2). Otherwise (blue at the end or on the Twin:
    # 12, green at the end: 6, red at the end or on the Prince: 12) the revealed Apothecary acts
    # at once (R-RES-1): it may hit a card next to green's new card (R-APOTH-1): the card before
    # it, and red's card after it if red placed at the end (2 options) rather than on its Prince
    # (1 option).
    apothecary_acts = 12 * 6 * 12
    apothecary_options = 12 * 6 * (6 * 2 + 6 * 1)
    assert perft(game, 4) == (18 * 18 * 18 - apothecary_acts) * 2 + apothecary_options


def test_embrasement_round_2_depth_5_regression(embrasement_round_2: Game) -> None:
    # Regression value (computed by the engine, not derived by hand).
    assert perft(embrasement_round_2, 5) == 18396
