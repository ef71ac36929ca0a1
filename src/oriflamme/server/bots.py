"""Bot seats on the server: build a seat's bot and let it think in a worker thread.

A bot gets only its seat's observation and the legal actions (the runner's contract). Its answer
is applied by the table manager through the same path as a human's.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from oriflamme.api import Action
from oriflamme.bots import Bot, known_bots, make_bot

log = logging.getLogger("oriflamme.server")

#: The bot levels a table may choose, from weakest to strongest (each is a registered bot).
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "random")


def level_available(level: str) -> bool:
    """Whether ``level`` is a known level whose bot is registered."""
    return level in LEVELS and level in known_bots()


def seat_bot(level: str, game_seed: int, seat: int) -> Bot:
    """The bot of one seat for one game (its seed follows from the game's)."""
    return make_bot(level, seed=(game_seed * 8 + seat) % 2**63)


def _choose(bot: Bot, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """The bot's action; a failing or illegal answer is logged and replaced by a random one."""
    try:
        action = bot.act(observation, legal)
        if isinstance(action, Action) and action in legal:
            return action
        log.error("bot %r answered %r, not a legal action", bot.name, action)
    except Exception:
        log.exception("bot %r failed; playing a random legal action instead", bot.name)
    return random.choice(list(legal))


async def think(
    bot: Bot, observation: Mapping[str, Any], legal: Sequence[Action], delay: float
) -> Action:
    """Ask ``bot`` in a worker thread; return no sooner than ``delay`` seconds after the call."""
    start = time.monotonic()
    action = await asyncio.to_thread(_choose, bot, observation, tuple(legal))
    remaining = delay - (time.monotonic() - start)
    if remaining > 0:
        await asyncio.sleep(remaining)
    return action
