"""The registered bots that are built from other modules, registered without importing them.

``import oriflamme.bots`` registers every bot (``known_bots()`` lists them, ``--help`` shows
them), but the search bots' modules (ISMCTS, sequential halving, the greedy look-ahead, the
levels) are imported only when one of them is first made: commands that do not use them
(``oriflamme simulate`` with random bots, ``replay``, ``--help``) start faster. Their names,
descriptions, options and defaults live here, once; each module reads its defaults from here.

>>> import sys
>>> from oriflamme.bots import make_bot
>>> make_bot("hard", seed=1).name
'hard'
>>> "oriflamme.bots.ismcts" in sys.modules
True
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from .base import Bot, BotFactory, register_bot

#: ISMCTS iterations per decision when a spec gives no budget.
DEFAULT_ITERATIONS = 1000
#: The options of an ``ismcts`` spec; a bare number is the first (``ismcts:500``).
ISMCTS_OPTIONS = (
    "iterations", "time", "rollout", "horizon", "c", "reward", "infer", "candidates",
    "opponents", "expand", "normalize", "workers", "noise", "value", "seed",
)
#: Sequential halving's rollouts per decision when a spec gives no budget.
DEFAULT_ROLLOUTS = 1000
#: The options of a ``halving`` spec.
HALVING_OPTIONS = ("iterations", "time", "horizon", "infer", "seed")
#: Worlds sampled by the greedy bot unless told.
WORLDS = 4

#: Level name -> (the spec of the bot it plays, or None for the noisy heuristic bot of
#: :mod:`oriflamme.bots.levels`; a one-line description).
LEVELS: dict[str, tuple[str | None, str]] = {
    "easy": (None, "one-step heuristic, a random move one time in three"),
    "medium": ("greedy", "heuristics with a one-round look-ahead"),
    "hard": (
        "ismcts:iterations=3000:time=1.5:opponents=greedy",
        "ISMCTS, 3000 iterations (at most 1.5 s)",
    ),
    "expert": (
        "ismcts:iterations=6000:time=2:opponents=greedy:value=fitted",
        "ISMCTS with the fitted value, 6000 iterations (at most 2 s)",
    ),
    "learned": ("network", "the learned network alone (shipped weights; under 5 ms)"),
    "master": (
        "guided:iterations=6000:time=1:opponents=auto",
        "ISMCTS guided by the learned network, its opponents played by the learned policy"
        " where one ships, 6000 iterations (at most 1 s)",
    ),
}
#: The options of a ``network`` spec.
NETWORK_OPTIONS = ("weights", "temperature", "choose", "worlds", "reply")
#: The options of a ``guided`` spec; a bare number is the first (``guided:500``).
GUIDED_OPTIONS = ("iterations", "time", "c", "temperature", "prior", "leaf", "value", "infer",
                  "noise", "opponents", "policy", "weights", "seed")


def _lazy(module: str, function: str, *args: str) -> BotFactory:
    """A factory that imports ``oriflamme.bots.<module>`` on first use and calls ``function``
    with ``args``, the seed and the spec's options."""

    def factory(seed: int, options: Mapping[str, str]) -> Bot:
        make = getattr(importlib.import_module(f"oriflamme.bots.{module}"), function)
        bot: Bot = make(*args, seed, options)
        return bot

    return factory


def register_catalog() -> None:
    """Register the bots above (``oriflamme.bots`` does it once, on import)."""
    register_bot("greedy", _lazy("greedy", "greedy_from_options"),
                 "heuristics with a one-round look-ahead on sampled worlds", options=("worlds",))
    register_bot(
        "halving",
        _lazy("halving", "halving_from_options"),
        f"sequential halving over paired sampled worlds ({DEFAULT_ROLLOUTS} rollouts unless"
        " told)",
        options=HALVING_OPTIONS,
    )
    register_bot(
        "ismcts",
        _lazy("ismcts", "ismcts_from_options"),
        f"information-set Monte Carlo tree search ({DEFAULT_ITERATIONS} iterations unless told)",
        options=ISMCTS_OPTIONS,
    )
    for level, (_, description) in LEVELS.items():
        register_bot(level, _lazy("levels", "level_from_options", level),
                     f"level: {description}")
    register_bot("network", _lazy("learned", "network_from_options"),
                 "the learned network alone: the action whose outcome it values most"
                 " (weights shipped for the set-up unless weights=FILE)", options=NETWORK_OPTIONS)
    register_bot("guided", _lazy("guided", "guided_from_options"),
                 "ISMCTS guided by the learned network: its prior in the tree, its win shares"
                 " at the leaves (weights shipped for the set-up unless weights=FILE)",
                 options=GUIDED_OPTIONS)
    register_bot("policy", _lazy("policy", "make_policy"),
                 "a trained policy network (NumPy weights saved by examples/train_policy.py)",
                 options=("path", "sample"))
