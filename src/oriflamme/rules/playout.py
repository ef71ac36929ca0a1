"""Fast random playouts for search and benchmarks.

:func:`random_action` draws uniformly from exactly the list :func:`legal_actions` would build,
without building it for placements (the largest lists); :func:`random_playout` plays to the
end. The caller passes the random generator: the rules keep no random state of their own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .actions import Action
from .engine import (
    PLACEMENTS,
    REVEAL_OR_LEAVE,
    apply_unchecked,
    current_player,
    frame_action,
    frame_options,
    legal_actions,
    pick_legal,
    place,
    placement_targets,
)
from .state import HAND, N_ZONES, OVER, REVEAL, State


def random_action(state: State, rng: random.Random) -> Action:
    """A uniformly random legal action (the game must not be over)."""
    r = rng.random()
    pending = state.pending
    if not pending:
        cfg = state.config
        p = (state.first_player + state.placed) % cfg.players  # placing_player, inlined
        if cfg.variant != "two-families":
            hand = state.zones[p * N_ZONES + HAND]
            targets = placement_targets(state, p)
            n = len(targets)
            i = int(r * len(hand) * n)
            return PLACEMENTS[hand[i // n]][targets[i % n] + 2]
        per_family = [(state.zones[f * N_ZONES + HAND], placement_targets(state, f))
                      for f in (p, p + 2)]
        i = int(r * sum(len(h) * len(t) for h, t in per_family))
        for hand, targets in per_family:
            n = len(targets)
            if i < len(hand) * n:
                return PLACEMENTS[hand[i // n]][targets[i % n] + 2]
            i -= len(hand) * n
        raise AssertionError("no placement available")
    frame = pending[-1]
    if frame[0] == REVEAL:  # the most frequent decision, spelled out (no option list)
        return REVEAL_OR_LEAVE[frame[1]][0 if r < 0.5 else 1]
    options = frame_options(state, frame)
    return frame_action(frame, options[int(r * len(options))])


def random_playout(state: State, rng: random.Random, history: list[Action] | None = None) -> int:
    """Play uniformly random legal actions until the end; return how many were played. The
    actions are appended to ``history`` if given (``Game.playout`` keeps them)."""
    n = 0
    draw = rng.random
    while state.phase != OVER:
        if not state.pending and state.config.variant != "two-families":
            # A placement (a third of the actions), inlined: random_action's draw, without
            # its call, apply_unchecked's and the Action's lookup when no history is kept.
            p = (state.first_player + state.placed) % state.config.players  # placing_player
            hand = state.zones[p * N_ZONES + HAND]
            targets = placement_targets(state, p)
            k = len(targets)
            i = int(draw() * len(hand) * k)
            card, to = hand[i // k], targets[i % k]
            if history is not None:
                history.append(PLACEMENTS[card][to + 2])
            place(state, card, to)
        else:
            action = random_action(state, rng)
            apply_unchecked(state, action)
            if history is not None:
                history.append(action)
        n += 1
    return n


def pick_playout(
    state: State, picks: Sequence[Callable[[int], int]], history: list[Action] | None = None
) -> int:
    """Play to the end, each decision taken by ``picks[player]``, which is given the number of
    legal options and returns the index of its choice (as :func:`pick_legal`); return how many
    actions were played, appended to ``history`` if given. An index out of range raises
    ``IndexError`` at that decision, which is left pending (what was played before stays)."""
    n = 0
    while state.phase != OVER:
        player = current_player(state)
        assert player is not None
        action = pick_legal(state, picks[player])
        apply_unchecked(state, action)
        if history is not None:
            history.append(action)
        n += 1
    return n


def check_random_action(state: State, rng: random.Random) -> Action:
    """:func:`random_action`, asserting it is legal (used by the tests)."""
    action = random_action(state, rng)
    assert action in legal_actions(state), action
    return action
