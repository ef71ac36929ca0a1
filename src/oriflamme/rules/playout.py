"""Fast random playouts for search and benchmarks.

:func:`random_action` draws uniformly from exactly the list :func:`legal_actions` would build,
without building it for placements (the largest lists); :func:`random_playout` plays to the
end. The caller passes the random generator: the rules keep no random state of their own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .abilities import (
    ABILITIES,
    ACTIVATE,
    CHOOSE,
    GAP,
    REVEAL,
    TWIN,
    activable,
    decree_gaps,
    twin_places,
)
from .actions import Action, ActionKind
from .cards import CardType
from .engine import (
    PLACEMENTS,
    REVEAL_OR_LEAVE,
    TARGETS,
    apply_unchecked,
    current_player,
    legal_actions,
    pick_legal,
    placement_targets,
)
from .state import HAND, N_ZONES, OVER, State

_new = tuple.__new__
_PLACE, _REVEAL, _LEAVE, _TARGET, _PLAYER, _MOVE, _TWIN, _GAIN, _SPEND = list(ActionKind)


def random_action(s: State, rng: random.Random) -> Action:
    """A uniformly random legal action (the game must not be over)."""
    r = rng.random()
    pending = s.pending
    if not pending:
        cfg = s.config
        p = (s.first_player + s.placed) % cfg.players  # placing_player, inlined
        if cfg.variant != "two-families":
            hand = s.zones[p * N_ZONES + HAND]
            targets = placement_targets(s, p)
            n = len(targets)
            i = int(r * len(hand) * n)
            return PLACEMENTS[hand[i // n]][targets[i % n] + 2]
        per_family = [(s.zones[f * N_ZONES + HAND], placement_targets(s, f)) for f in (p, p + 2)]
        i = int(r * sum(len(h) * len(t) for h, t in per_family))
        for hand, targets in per_family:
            n = len(targets)
            if i < len(hand) * n:
                return PLACEMENTS[hand[i // n]][targets[i % n] + 2]
            i -= len(hand) * n
        raise AssertionError("no placement available")
    kind, x, f, arg = pending[-1]
    if kind == REVEAL:
        return REVEAL_OR_LEAVE[x][0 if r < 0.5 else 1]
    if kind == CHOOSE:
        options = ABILITIES[arg].choices(s, x, f)
        c = options[int(r * len(options))]
        if arg == CardType.SPY:
            return _new(Action, (_PLAYER, -1, c))
        return TARGETS[c]
    if kind == GAP:
        gaps = decree_gaps(s, arg)
        return _new(Action, (_MOVE, arg, gaps[int(r * len(gaps))]))
    if kind == TWIN:
        places = twin_places(s, f)
        return _new(Action, (_TWIN, arg, places[int(r * len(places))]))
    if kind == ACTIVATE:
        chars = activable(s, f)
        return TARGETS[chars[int(r * len(chars))]]
    return _new(Action, (_GAIN if r < 0.5 else _SPEND, -1, -1))


def random_playout(s: State, rng: random.Random, history: list[Action] | None = None) -> int:
    """Play uniformly random legal actions until the end; return how many were played. The
    actions are appended to ``history`` if given (``Game.playout`` keeps them)."""
    n = 0
    while s.phase != OVER:
        action = random_action(s, rng)
        apply_unchecked(s, action)
        if history is not None:
            history.append(action)
        n += 1
    return n


def pick_playout(
    s: State, picks: Sequence[Callable[[int], int]], history: list[Action] | None = None
) -> int:
    """Play to the end, each decision taken by ``picks[player]``, which is given the number of
    legal options and returns the index of its choice (as :func:`pick_legal`); return how many
    actions were played, appended to ``history`` if given. An index out of range raises
    ``IndexError`` at that decision, which is left pending (what was played before stays)."""
    n = 0
    while s.phase != OVER:
        player = current_player(s)
        assert player is not None
        action = pick_legal(s, picks[player])
        apply_unchecked(s, action)
        if history is not None:
            history.append(action)
        n += 1
    return n


def check_random_action(s: State, rng: random.Random) -> Action:
    """:func:`random_action`, asserting it is legal (used by the tests)."""
    action = random_action(s, rng)
    assert action in legal_actions(s), action
    return action
