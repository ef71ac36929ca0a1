"""Bots: the :class:`Bot` interface, the registry (:func:`make_bot`) and the runner."""

import importlib
from typing import TYPE_CHECKING, Any

from .base import (
    NO_OBSERVATION,
    Bot,
    BotEntry,
    BotFactory,
    BotSpecError,
    bot_maker,
    known_bots,
    make_bot,
    needs_observation,
    observer,
    register_bot,
    unregister_bot,
)
from .catalog import register_catalog
from .random_bot import RandomBot
from .runner import BotError, StepCallback, bot_move, play_game

if TYPE_CHECKING:
    from .greedy import GreedyBot
    from .halving import HalvingBot
    from .ismcts import IsmctsBot
    from .levels import NoisyHeuristicBot
    from .policy import PolicyBot as PolicyBot  # not in __all__: NumPy

# Every bot is registered; the search bots' modules (and NumPy, for the policy bot) are
# imported when one of them is first made or named (see oriflamme.bots.catalog).
register_catalog()

#: Classes exported by name but imported on first use.
_LAZY = {
    "GreedyBot": "greedy",
    "HalvingBot": "halving",
    "IsmctsBot": "ismcts",
    "NoisyHeuristicBot": "levels",
    "PolicyBot": "policy",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "NO_OBSERVATION",
    "Bot",
    "BotEntry",
    "BotError",
    "BotFactory",
    "BotSpecError",
    "GreedyBot",
    "HalvingBot",
    "IsmctsBot",
    "NoisyHeuristicBot",
    "RandomBot",
    "StepCallback",
    "bot_maker",
    "bot_move",
    "known_bots",
    "make_bot",
    "needs_observation",
    "observer",
    "play_game",
    "register_bot",
    "unregister_bot",
]
