"""The low-level public surface for search code (bots, RL adapters) working on its own games.

A search bot samples full worlds from its observation (:class:`oriflamme.api.WorldSampler`)
and plays thousands of moves in them; building JSON observations there would be far too slow.
This module gives read access to such a game's raw :class:`State` and the few rules helpers
heuristics and fast encoders need (the zone and phase numbering, the pending frames' names,
the current :func:`decision`). It is public and stable like :mod:`oriflamme.api`; treat the state as
read-only (change it only through ``Game.apply``), except in a world the search made for itself
(a sample): there :func:`apply_unchecked` plays a legal action on the raw state, without the
Game's bookkeeping (its history then no longer lists that move: never save or replay such a
world). A bot never holds the real game: the runner and the server hand it an observation
only, so nothing here can reach hidden information.

>>> from oriflamme.api import new_game
>>> game = new_game(players=3, seed=1)
>>> s = state_of(game)
>>> s.phase == PLACEMENT, len(s.zone(0, HAND))
(True, 7)
"""

from __future__ import annotations

from .api import Game
from .rules.abilities import adjacent_tops
from .rules.actions import (
    KIND_GAIN,
    KIND_LEAVE,
    KIND_MOVE,
    KIND_PLACE,
    KIND_PLAYER,
    KIND_REVEAL,
    KIND_SPEND,
    KIND_TARGET,
    KIND_TWIN,
)
from .rules.cards import IS_CHARACTER
from .rules.draws import randbelow
from .rules.engine import apply_unchecked, current_player, decision, legal_actions, result
from .rules.observe import FRAME_NAMES
from .rules.state import (
    CHOOSE,
    DISCARDED,
    ELIMINATED,
    HAND,
    N_ZONES,
    OVER,
    PHASE_NAMES,
    PILE,
    PLACEMENT,
    RESERVE,
    RESOLUTION,
    SET_ASIDE,
    TOKENS,
    State,
)

__all__ = [
    "CHOOSE",
    "DISCARDED",
    "ELIMINATED",
    "FRAME_NAMES",
    "HAND",
    "IS_CHARACTER",
    "KIND_GAIN",
    "KIND_LEAVE",
    "KIND_MOVE",
    "KIND_PLACE",
    "KIND_PLAYER",
    "KIND_REVEAL",
    "KIND_SPEND",
    "KIND_TARGET",
    "KIND_TWIN",
    "N_ZONES",
    "OVER",
    "PHASE_NAMES",
    "PILE",
    "PLACEMENT",
    "RESERVE",
    "RESOLUTION",
    "SET_ASIDE",
    "TOKENS",
    "State",
    "adjacent_tops",
    "apply_unchecked",
    "current_player",
    "decision",
    "legal_actions",
    "randbelow",
    "result",
    "state_of",
]


def state_of(game: Game) -> State:
    """The raw state of ``game`` (read-only; see the module docstring)."""
    return game._state
