"""The thinking pool: the worker processes that think for bot seats, and their levels, names
and decision seeds.

A bot gets only its seat's observation and the legal actions (the runner's contract). It thinks
in a small pool of worker processes, so that a long search holds neither the event loop nor the
GIL of the server; the worker builds the bot from its level and a seed derived from the game's
seed, the seat and the number of actions so far, so a game's play can be reproduced (up to the
time caps of the search levels). Its answer is applied by the table manager through the same
path as a human's. This module imports only the rules and the bots: the workers load nothing
else.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from oriflamme.api import Action, Observation
from oriflamme.bots import known_bots, make_bot
from oriflamme.bots.levels import LEVELS as BOT_LEVELS

from .lifeline import end_with
from .names import bot_label

log = logging.getLogger("oriflamme.server")
T = TypeVar("T")

#: The bot levels a table may choose, from weakest to strongest (each is a registered bot).
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "random")
#: Worker processes thinking for bots (the search levels use one core each while they think).
WORKERS = max(1, min(2, os.cpu_count() or 1))
#: How much nicer than the server the workers are: the event loop comes first.
WORKER_NICENESS = 10
#: Seconds a decision may take, waiting for a worker included, before a random move is played.
THINK_TIMEOUT = 30.0


def level_available(level: str) -> bool:
    """Whether ``level`` is a known level whose bot is registered."""
    return level in LEVELS and level in known_bots()


def bot_name(level: str, seat: int) -> str:
    """The default name of a bot seat, distinct at a table: its colour and level."""
    return bot_label(level, seat)


def decision_seed(game_seed: int, seat: int, step: int) -> int:
    """The seed of one bot decision: the same game, seat and step give the same seed."""
    digest = hashlib.blake2b(f"{game_seed}:{seat}:{step}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


#: How much of its budget a search level gets when the bots are overloaded.
HURRY = 0.25


def hurried(level: str) -> str:
    """The bot spec of ``level`` with a :data:`HURRY` share of its search budget (iterations and
    time cap), for when bot decisions wait because there are more than the workers can take: a
    smaller search, never a random move. A level without a search is itself."""
    spec = BOT_LEVELS[level][0] if level in BOT_LEVELS else None
    if spec is None or not spec.startswith("ismcts"):
        return level
    parts = []
    for part in spec.split(":"):
        key, _, value = part.partition("=")
        if key == "iterations":
            part = f"iterations={max(50, int(int(value) * HURRY))}"
        elif key == "time":
            part = f"time={float(value) * HURRY:g}"
        parts.append(part)
    return ":".join(parts)


def decide(
    level: str,
    seed: int,
    observation: Observation,
    legal: Sequence[Action],
    hurry: bool = False,
) -> Action:
    """The action of the ``level`` bot built from ``seed`` (runs in a worker process), with a
    smaller budget if ``hurry``.

    Raises if the bot fails or answers an action that is not legal.
    """
    action = make_bot(hurried(level) if hurry else level, seed=seed).act(observation, legal)
    if not isinstance(action, Action) or action not in legal:
        raise ValueError(f"bot {level!r} answered {action!r}, not a legal action")
    return action


def _start_worker(server: int) -> None:
    """Run a worker at a lower priority than the server (where the OS allows it), and end it if
    the server (process ``server``) dies without stopping it, even while the worker started: a
    worker never outlives its server."""
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    end_with(server)


def _spawned_pool(workers: int) -> Executor:
    # Spawned, not forked: the server has threads (SQLite, the event loop's helpers).
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
    )


class BotPool:
    """Worker processes that think for the bot seats, started at the first bot decision."""

    def __init__(self, workers: int = WORKERS, timeout: float = THINK_TIMEOUT) -> None:
        self._workers = workers
        self._timeout = timeout
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = _spawned_pool(self._workers)
        return self._executor

    async def think(
        self,
        level: str,
        seed: int,
        observation: Observation,
        legal: Sequence[Action],
        delay: float,
        hurry: bool = False,
    ) -> Action:
        """The bot's action, no sooner than ``delay`` seconds after the call.

        A bot that fails, answers an illegal action or takes too long is logged, and a random
        legal action (drawn from ``seed``) is played for it.
        """
        start = time.monotonic()
        options = tuple(legal)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(
                self._pool(), decide, level, seed, observation, options, hurry
            )
            action = await asyncio.wait_for(future, self._timeout)
        except Exception as exc:
            if isinstance(exc, BrokenProcessPool):
                self.shutdown()  # a worker died: the next decision starts a new pool
            log.error("bot %r failed (%r); playing a random legal action instead", level, exc)
            action = random.Random(seed).choice(options)
        remaining = delay - (time.monotonic() - start)
        if remaining > 0:
            await asyncio.sleep(remaining)
        return action

    async def run(self, function: Callable[..., T], *args: Any, timeout: float) -> T:
        """``function(*args)`` in a worker (a module-level function: it is pickled), within
        ``timeout`` seconds; a worker that died takes the pool down, and the next call starts
        a new one. Used by the advice of the review pages (``server.review``)."""
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(
                loop.run_in_executor(self._pool(), function, *args), timeout
            )
        except BrokenProcessPool:
            self.shutdown()
            raise

    def shutdown(self) -> None:
        """Stop the workers; a decision under way finishes in its worker, unused."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    async def close(self) -> None:
        """Stop the workers at once (a decision under way is dropped) and wait until they have
        ended and the pool has let go of what it holds (its queues' semaphores): nothing of it
        outlives the server, whichever way its process then exits."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # No public handle on the workers before Python 3.14 (terminate_workers).
        workers = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        await asyncio.to_thread(executor.shutdown, wait=True)
        del executor, workers  # (each worker holds the pool's queues)
        gc.collect()  # the queues' semaphores are released when collected
