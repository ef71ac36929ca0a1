"""Who places next: ``placing_player`` is the rule ((first player + placements made) modulo the
players, R-PLACE-1); the engine's hot paths spell the formula out where a call would cost
(``current_player``, ``legal_actions``, ``pick_legal``, ``random_action``, ``random_playout``,
the round's end draws of the two-families variant, and the encoder's fast path). Each copy is
checked against ``placing_player`` here, at every placement of real games in every set-up;
the encoder's is checked by tests/envs/test_envs_encoding.py (its fast path equals the encoding of
the observation, whose decision comes from ``placing_player``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from oriflamme.api import Game, new_game
from oriflamme.rules.engine import (
    apply_unchecked,
    current_player,
    legal_actions,
    pick_legal,
    placing_player,
)
from oriflamme.rules.events import EventKind
from oriflamme.rules.playout import random_action, random_playout
from oriflamme.rules.state import PLACEMENT
from oriflamme.search import state_of

SETUPS: list[dict[str, Any]] = [
    {"players": 2, "cards": "base"},
    {"players": 2, "cards": "embrasement", "variant": "standard"},
    {"players": 3, "cards": "base", "first_player": None},
    {"players": 4, "cards": "embrasement", "first_player": 2},
    {"players": 5, "cards": "base", "first_player": None},
]


def _owner(game: Game, card: int) -> int:
    return state_of(game).card_family[card] % game.config.players


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s['players']}p-{s['cards']}")
def test_every_copy_of_the_next_placer_agrees_with_placing_player(setup: dict[str, Any]) -> None:
    placements = 0
    for seed in range(3):
        game = new_game(seed=seed, **setup)
        rng = random.Random(seed)
        s = state_of(game)
        while not game.is_over:
            if s.phase == PLACEMENT and not s.pending:
                placer = placing_player(s)
                decision = game.decision()
                assert decision is not None and current_player(s) == placer == decision.player
                legal = legal_actions(s)
                assert {_owner(game, a.card) for a in legal} == {placer}
                assert [pick_legal(s, lambda n, i=i: i) for i in range(len(legal))] == legal
                assert _owner(game, random_action(s, random.Random(placements)).card) == placer
                placements += 1
            game.apply(game.random_action(rng))
    assert placements >= 3 * 6 * setup["players"]  # every placement of the three games


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s['players']}p-{s['cards']}")
def test_the_inlined_playout_plays_random_action_s_moves(setup: dict[str, Any]) -> None:
    """``random_playout`` places with the formula inlined; ``random_action`` (checked above)
    draws the same move from the same numbers: the two games must be move for move the same."""
    for seed in range(4):
        inlined, stepped = new_game(seed=seed, **setup), new_game(seed=seed, **setup)
        played: list[Any] = []
        random_playout(state_of(inlined), random.Random(seed), played)
        rng, s, steps = random.Random(seed), state_of(stepped), []
        while current_player(s) is not None:
            action = random_action(s, rng)
            apply_unchecked(s, action)
            steps.append(action)
        assert played == steps
        assert state_of(inlined) == s


def test_the_two_families_draw_in_the_order_of_placement() -> None:
    """At a round's end in the two-families variant the players draw in the placing order of
    the round that ended, as ``placing_player`` gives it."""
    for seed in range(6):
        game = new_game(players=2, seed=seed)
        s = state_of(game)
        rng = random.Random(seed)
        order: list[int] = []
        checked = 0
        while not game.is_over:
            if s.phase == PLACEMENT and s.placed == 0 and not s.pending:
                saved = s.placed
                order = []
                for k in range(game.config.players):
                    s.placed = k
                    order.append(placing_player(s))
                s.placed = saved
            seen = len(s.log or [])
            game.apply(game.random_action(rng))
            drew = [e.player for e in (s.log or [])[seen:] if e.kind == EventKind.DREW]
            if drew:
                assert drew == [p for p in order if p in drew]
                checked += 1
        assert checked >= 3
