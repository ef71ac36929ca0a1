"""Bots: the :class:`Bot` interface, the registry (:func:`make_bot`) and the runner."""

from collections.abc import Mapping
from typing import Any

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
from .random_bot import RandomBot
from .runner import BotError, StepCallback, bot_move, play_game


def _make_policy(seed: int, options: Mapping[str, str]) -> Bot:
    # The policy bot needs NumPy: imported when one is made, not by every command at start-up.
    from .policy import make_policy

    return make_policy(seed, options)


register_bot("policy", _make_policy,
             "a trained policy network (NumPy weights saved by examples/train_policy.py)",
             options=("path", "sample"))


def __getattr__(name: str) -> Any:
    if name == "PolicyBot":  # imported on first use (NumPy)
        from .policy import PolicyBot

        return PolicyBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
