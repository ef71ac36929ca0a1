"""Hints at learning tables: what a strong player would do, computed fairly and never at the
bots' expense.

- **Never on a bot worker.** Each server process computes its hints in one worker process of its
  own, at a lower priority than the bots' workers (like the analyses'): a bot decision at any
  table waits for no hint, and when the cores are busy the operating system gives the bots'
  searches the larger share (their time caps hold; docs/server.md, "Bots under load").
- **One at a time, in turn by address.** Hints wait in one queue per address (an IPv6 /64 as
  one); the desk takes the first hint of each address in turn, so an address asking many cannot
  hold the others back. An address may have :data:`PER_ADDRESS` hints waiting (then ``429
  too_many_hints``), the desk :data:`WAITING_MAX` in all (then ``503 busy`` at once).
- **Think less, not later.** While other hints wait, a hint thinks with a share of its budget
  that shrinks as the queue grows (:func:`budget`), so that the queue empties within the time a
  client waits (:data:`HINT_TIMEOUT`); a hint still waiting at its deadline fails (``503
  busy``).

The hint is the adviser's search (:mod:`oriflamme.bots.advice`: ``master`` where it is measured
stronger than ``expert``, 3 players with the base cards; ``hard`` elsewhere) from the asking
seat's observation only. The worker loads ``master``'s networks (:func:`warm`)
:data:`WARM_DELAY` after the desk starts, or at once when a hint comes first (that hint waits
for it): a fresh worker's first ``master`` opinion, NumPy and the networks loaded on a busy
machine, could miss a hint's deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from oriflamme.api import Action, Observation
from oriflamme.bots.advice import advise, warm_up

from . import thinking
from .analysis import budget_iterations, lower_priority
from .errors import ApiError
from .tasks import spawn

log = logging.getLogger("oriflamme.server")

#: The hint's budget: the ``hard`` level's iterations, capped to answer within 2 s (the
#: adviser's, whichever level it is).
HINT_ITERATIONS, HINT_SECONDS = 3000, 1.2
#: Seconds a hint may wait for its turn and think before the request fails (503 ``busy``).
HINT_TIMEOUT = 10.0
#: Hints one address may have waiting at once.
PER_ADDRESS = 2
#: Hints waiting at most: what the worker answers within :data:`HINT_TIMEOUT` at the smallest
#: budget (:data:`SHORTEST` each, with room to spare).
WAITING_MAX = 32
#: The least a hint thinks (seconds), however many wait.
SHORTEST = 0.1
#: Seconds the hint worker may take to start and load the adviser's networks (:func:`warm`).
WARM_TIMEOUT = 60.0
#: Seconds after the desk starts before its worker warms up, unless a hint comes first: the
#: server's own start comes first, and a server stopped sooner (a short-lived test app, a
#: restart) never starts a worker it does not use.
WARM_DELAY = 5.0


def budget(iterations: int, waiting: int) -> tuple[int, float]:
    """A hint's budget (iterations, seconds) while ``waiting`` others wait for their turn: the
    whole budget alone, then a share that shrinks as the queue grows (half with one waiting, a
    quarter with three…), never under :data:`SHORTEST`: think less, not later."""
    share = 1.0 / (1 + waiting)
    return max(50, int(iterations * share)), max(SHORTEST, HINT_SECONDS * share)


def think(
    observation: Observation, legal: Sequence[Action], iterations: int, seconds: float
) -> dict[str, Any]:
    """The hint (runs in the hint worker, below the bots' priority): the adviser's move and
    everyone's chance to win after it."""
    lower_priority()
    advice = advise(observation, legal, iterations, seconds)
    return {"action": advice.best.to_json(), "win": list(advice.win)}


def warm() -> list[str]:
    """Runs in the hint worker before its first hint (below the bots' priority): what
    ``master``'s advice needs is loaded before the first opinion. Returns the set-ups
    warmed."""
    lower_priority()
    return warm_up()


def busy() -> ApiError:
    return ApiError(503, "busy", "the hint could not be computed now: try again")


def _retrieved(answer: asyncio.Future[dict[str, Any]]) -> None:
    """Nobody may be waiting for a failed hint any more (its client left): not an error."""
    if not answer.cancelled():
        answer.exception()


def _expire(answer: asyncio.Future[dict[str, Any]]) -> None:
    """A hint not answered by its deadline fails (it is dropped when its turn comes)."""
    if not answer.done():
        answer.set_exception(busy())


@dataclass(eq=False)
class _Hint:
    observation: Observation
    legal: tuple[Action, ...]
    deadline: float
    answer: asyncio.Future[dict[str, Any]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class HintDesk:
    """This server's hints: queued by address, answered one at a time in a worker of their
    own."""

    def __init__(self, pool: thinking.BotPool | None = None) -> None:
        self._pool = pool or thinking.BotPool(workers=1, timeout=HINT_TIMEOUT)
        #: The waiting hints of each address, the address whose turn is next first.
        self._waiting: OrderedDict[str, deque[_Hint]] = OrderedDict()
        self._count = 0
        #: Hints being thought about now (0 or 1).
        self.running = 0
        #: The set-ups whose adviser the worker has loaded (:func:`warm`), once it has.
        self.warmed: list[str] | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = spawn(self._serve(), "hints")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        # Its worker is stopped and awaited, not left to finish: a warm-up or a hint under way
        # would otherwise hold up the process's exit (a SIGTERM waited for it).
        await self._pool.close()
        for queue in self._waiting.values():
            for hint in queue:
                if not hint.answer.done():
                    hint.answer.set_exception(busy())

    @property
    def waiting(self) -> int:
        """Hints waiting for their turn."""
        return self._count

    def ask(
        self, address: str, observation: Observation, legal: Sequence[Action]
    ) -> asyncio.Future[dict[str, Any]]:
        """Queue a hint for ``address``; its answer (``{"action", "win"}``), or ``busy()``
        once it could not be answered within :data:`HINT_TIMEOUT`."""
        queue = self._waiting.get(address)
        if queue is not None and len(queue) >= PER_ADDRESS:
            raise ApiError(
                429,
                "too_many_hints",
                f"at most {PER_ADDRESS} hints of one address wait at once: try again in a moment",
            )
        if self._count >= WAITING_MAX:
            raise busy()
        hint = _Hint(observation, tuple(legal), time.monotonic() + HINT_TIMEOUT)
        asyncio.get_running_loop().call_later(HINT_TIMEOUT, _expire, hint.answer)
        hint.answer.add_done_callback(_retrieved)
        if queue is None:
            queue = self._waiting[address] = deque()
        queue.append(hint)
        self._count += 1
        self._wake.set()
        return hint.answer

    def _next(self) -> _Hint:
        """The first hint of the address whose turn it is; that address goes to the back."""
        address, queue = next(iter(self._waiting.items()))
        hint = queue.popleft()
        self._count -= 1
        del self._waiting[address]
        if queue:
            self._waiting[address] = queue
        return hint

    async def _warm(self) -> None:
        try:
            warmed = await self._pool.run(warm, timeout=WARM_TIMEOUT)
        except Exception as exc:  # the hints still work, the first one more slowly
            log.warning("the hint worker did not load the adviser's networks (%r)", exc)
        else:
            self.warmed = warmed

    async def _serve(self) -> None:
        # Warm up in the worker WARM_DELAY after the start, or at once for an earlier hint
        # (which waits for it).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), WARM_DELAY)
        await self._warm()
        while True:
            if not self._count:
                self._wake.clear()
                await self._wake.wait()
                continue
            hint = self._next()
            left = hint.deadline - time.monotonic()
            if hint.answer.done():
                continue
            if left <= 0:
                hint.answer.set_exception(busy())
                continue
            iterations, seconds = budget(budget_iterations(HINT_ITERATIONS), self._count)
            self.running = 1
            try:
                found = await self._pool.run(
                    think, hint.observation, hint.legal, iterations, seconds, timeout=left
                )
            except Exception as exc:
                if not isinstance(exc, TimeoutError):
                    log.warning("a hint failed (%r)", exc)
                if not hint.answer.done():
                    hint.answer.set_exception(busy())
            else:
                if not hint.answer.done():
                    hint.answer.set_result(found)
            finally:
                self.running = 0
