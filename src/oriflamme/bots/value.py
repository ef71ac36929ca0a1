"""A position value fitted to the outcomes of self-play (``ismcts:value=fitted``).

:func:`~oriflamme.bots.evaluation.evaluate_state_all` turns hand-set projected scores into win
chances with a softmax. :func:`fitted_state_values` keeps that shape, a conditional logit over
the players, but weighs each part of the projected score, and a few facts the projection leaves
out, with weights fitted for each round by ``tools/fit_value.py`` (maximum likelihood on
positions from self-play games, held-out games to judge it; the weights and how they were made
are in :mod:`oriflamme.bots.value_weights`). The search bots stop their rollouts at the first
decision of a round, so the weights are fitted there, for rounds 2 to 6; anywhere else (or
for a round without weights) the hand-set value answers.

>>> from oriflamme.api import new_game
>>> from oriflamme.search import state_of
>>> s = state_of(new_game(players=3, seed=1))
>>> [round(v, 2) for v in fitted_state_values(s)]    # round 1: the hand-set value
[0.33, 0.33, 0.33]
>>> VALUE_FEATURES[:2]
('influence', 'face-up cards')
"""

from __future__ import annotations

from oriflamme.search import PLACEMENT, State

from .evaluation import SCORE_PARTS, controller, evaluate_state_all, score_parts, softmax
from .value_weights import WEIGHTS

#: The features of a player in a position: the parts of its projected score, the number of
#: face-down cards it controls on top of the Queue, and whether it places first this round.
VALUE_FEATURES = (*SCORE_PARTS, "face-down cards (count)", "first to place")


def value_features(state: State) -> list[list[float]]:
    """Each player's :data:`VALUE_FEATURES` in state ``state``."""
    n = state.config.players
    features = score_parts(state)
    hidden = [0.0] * n
    for st in state.queue:
        top = st[-1]
        if not state.face_up[top]:
            hidden[controller(state, top) % n] += 1.0
    for p, row in enumerate(features):
        row.append(hidden[p])
        row.append(1.0 if p == state.first_player else 0.0)
    return features


def fitted_state_values(state: State) -> list[float]:
    """Each player's share of victory by the fitted weights (at the first decision of rounds
    2 to 6; elsewhere the hand-set :func:`~oriflamme.bots.evaluation.evaluate_state_all`)."""
    weights = WEIGHTS.get(state.round)
    if weights is None or state.phase != PLACEMENT or state.placed:
        return evaluate_state_all(state)
    return softmax([sum(w * x for w, x in zip(weights, row, strict=True))
                    for row in value_features(state)])
