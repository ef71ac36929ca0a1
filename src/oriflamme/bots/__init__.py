"""Bots: the :class:`Bot` interface, the registry (:func:`make_bot`) and the runner."""

from .base import (
    NO_OBSERVATION,
    Bot,
    BotEntry,
    BotFactory,
    BotSpecError,
    known_bots,
    make_bot,
    needs_observation,
    register_bot,
    unregister_bot,
)
from .greedy import GreedyBot
from .halving import HalvingBot
from .ismcts import IsmctsBot
from .levels import NoisyHeuristicBot
from .policy import PolicyBot as PolicyBot
from .random_bot import RandomBot
from .runner import BotError, StepCallback, bot_move, play_game

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
    "bot_move",
    "known_bots",
    "make_bot",
    "needs_observation",
    "play_game",
    "register_bot",
    "unregister_bot",
]
