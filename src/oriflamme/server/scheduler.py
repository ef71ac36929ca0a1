"""Bot decisions, each played by exactly one server, fairly.

Storage records, for every game, whose decision it awaits. A server *claims* a bot's decision
for :data:`LEASE` seconds before thinking, and renews the claim while its bot thinks; the action
it then stores ends the claim. A server claims only as many decisions as it has bot workers:
those of tables a human follows first, then the longest waiting first (every table gets its
turn, none waits behind another's queue). When more decisions wait than the servers take, the
search levels think with a quarter of their budget (``thinking.hurried``) rather than later. Every
server looks for unclaimed decisions every :data:`SCAN` seconds: a decision whose server died
(its claim expired) is taken over within a few seconds. Even a claim lost by a stalled server
cannot make a bot move twice: only one action can be stored at one step.

A decision whose action cannot be stored because the database is away gives its claim up as
soon as the database is back (the next scan plays it). A decision that fails unexpectedly is
logged and left claimed for a growing pause
(:data:`BACKOFF`), then tried again (by this server or another). A claimed decision that storage
recorded wrongly (a game migrated from an older database) is corrected and, if a bot must play,
played.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Protocol

from oriflamme.api import Action

from . import metrics, thinking
from .errors import ApiError, QuietLog
from .storage import BotTurn, Store, StoreUnavailable
from .tables import BOT, Table
from .tasks import spawn

log = logging.getLogger("oriflamme.server")
quiet = QuietLog(log)

#: Seconds a claim lasts unless renewed.
LEASE = 6.0
#: Seconds between renewals of a claim while its bot thinks.
RENEW = 2.0
#: Seconds between looks for unclaimed bot decisions.
SCAN = 1.0
#: Seconds a stopping server lets the bot decisions under way finish (then hands them over).
FINISH = 2.0
#: Pauses (seconds) before a failed decision is tried again: 5 s, then doubling up to 2 min.
BACKOFF = (5.0, 120.0)


class ClaimLost(Exception):
    """Another server took this bot decision over (this one was too slow to renew its claim)."""


def _key(turn: BotTurn) -> tuple[str, int, int]:
    return turn.table_id, turn.game, turn.step


class TableAccess(Protocol):
    """What the scheduler needs of the tables of its server (the ``TableManager``): named here
    so that the scheduler does not import the manager that starts it."""

    async def get(self, table_id: str) -> Table:
        """The table (loaded from storage if needed)."""

    async def refresh(self, table: Table) -> None:
        """Bring the table up to storage."""

    async def apply_bot(
        self,
        table: Table,
        seat: int,
        action: Action,
        step: int,
        game_number: int,
        stand_in: bool = False,
    ) -> None:
        """Store and apply a bot's (or a stand-in's) action at that step of that game."""


class BotScheduler:
    """Claims bot decisions for this server and plays them in its bot pool."""

    def __init__(
        self,
        manager: TableAccess,
        store: Store,
        pool: thinking.BotPool,
        owner: str,
        delay: float,
        capacity: int = thinking.WORKERS,
    ) -> None:
        self._manager = manager
        self._store = store
        self._pool = pool
        self._owner = owner
        self._delay = delay
        self._capacity = capacity
        self._playing: dict[tuple[str, int, int], asyncio.Task[Any]] = {}
        self._failures: dict[tuple[str, int, int], int] = {}
        #: Claims of decisions whose action could not be stored (the database was away): given
        #: up as soon as it is back, so that they are played then, not when the claim expires.
        self._postponed: dict[tuple[str, int, int], BotTurn] = {}
        self._wake = asyncio.Event()
        #: Whether bot decisions wait for a worker (then the search levels think less).
        self.overloaded = False
        #: Draining or stopping: no decision is claimed or started any more.
        self._stopping = False

    @property
    def draining(self) -> bool:
        """Whether this server takes no more decisions (it drains or stops)."""
        return self._stopping

    def drain(self) -> None:
        """This process is going away: claim and start no more decisions, so that another
        server's next scan takes them (within :data:`SCAN` seconds), and give back the claims
        put off while the database was away; the decisions under way go on until
        :meth:`stop`."""
        self._stopping = True
        self._wake.set()

    async def stop(self, finish: float = FINISH) -> None:
        """Start no more decisions (if not draining already); let those under way finish for
        ``finish`` seconds (a process that drains stores what it has started); then stop
        thinking, and give up the remaining claims so that another server (or this one, started
        again) plays those decisions at once rather than when the claims expire."""
        self._stopping = True
        under_way = list(self._playing.values())
        if under_way and finish > 0:
            await asyncio.wait(under_way, timeout=finish)
        playing = dict(self._playing)
        for task in playing.values():
            task.cancel()
        await asyncio.gather(*playing.values(), return_exceptions=True)
        for table_id, game, step in playing:
            try:
                await self._store.release_claim(self._owner, BotTurn(table_id, game, step))
            except Exception as exc:  # the claim expires by itself
                log.warning("table %s: claim not released (%r)", table_id, exc)

    def playing(self, table_id: str) -> bool:
        """Whether this server is playing a bot decision of the table."""
        return any(key[0] == table_id for key in self._playing)

    @property
    def busy(self) -> int:
        """Decisions this server is playing now."""
        return len(self._playing)

    async def run(self) -> None:
        """Look for unclaimed bot decisions until cancelled."""
        while True:
            try:
                await self._scan()
            except StoreUnavailable as exc:
                quiet.warning("scan", "cannot look for bot decisions: %s", exc)
            except Exception:
                log.exception("looking for bot decisions failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), SCAN)
            self._wake.clear()

    async def _scan(self) -> None:
        await self._release_postponed()
        if self._stopping:
            return
        free = self._capacity - len(self._playing)
        if free <= 0:
            self.overloaded = await self._store.waiting_bot_turns() > 0
            return
        turns = await self._store.claim_bot_turns(self._owner, free, LEASE)
        # More decisions wait than this server (and the others) take: think less, not later.
        self.overloaded = len(turns) == free and await self._store.waiting_bot_turns() > 0
        for turn in turns:
            if _key(turn) not in self._playing:
                self._start(turn, claimed=True)

    async def _release_postponed(self) -> None:
        for key, turn in list(self._postponed.items()):
            if key not in self._playing:  # (played again meanwhile: that claim is kept)
                await self._store.release_claim(self._owner, turn)
            del self._postponed[key]

    def offer(self, table: Table) -> None:
        """The table changed here: play its bot's decision at once if this server has room (if
        not, or if another server claims it first, a scan finds it)."""
        seat = table.game.current_player
        if self._stopping or seat is None or table.seats[seat].kind != BOT:
            return
        turn = BotTurn(table.id, table.game_number, len(table.game.history))
        if _key(turn) in self._playing or len(self._playing) >= self._capacity:
            return
        self._start(turn, claimed=False)

    def _start(self, turn: BotTurn, claimed: bool) -> None:
        task = spawn(self._play(turn, claimed), f"bot:{turn.table_id}:{turn.step}")
        self._playing[_key(turn)] = task

    async def _play(self, turn: BotTurn, claimed: bool) -> None:
        key = _key(turn)
        failed = False
        try:
            if not claimed and (
                self._stopping or not await self._store.claim_bot_turn(self._owner, turn, LEASE)
            ):
                return  # another server plays it
            await self._decide(turn, self.overloaded)
            self._failures.pop(key, None)
        except StoreUnavailable as exc:
            self._postponed[key] = turn
            quiet.warning("postponed", "table %s: bot decision postponed: %s", turn.table_id, exc)
        except ClaimLost:
            log.info("table %s: claim at step %d lost", turn.table_id, turn.step)
        except Exception:
            failed = True
            count = self._failures[key] = self._failures.get(key, 0) + 1
            if count == 1:
                log.exception("table %s: bot decision at step %d failed", turn.table_id, turn.step)
        finally:
            self._playing.pop(key, None)
            self._wake.set()
        if failed:
            await self._back_off(turn, self._failures[key])

    async def _back_off(self, turn: BotTurn, failures: int) -> None:
        """Keep a failed decision claimed for a pause that grows with its failures."""
        pause = min(BACKOFF[0] * 2 ** (failures - 1), BACKOFF[1])
        try:
            await self._store.renew_claim(self._owner, turn, pause)
        except Exception as exc:
            log.warning("table %s: cannot pause the bot decision (%r)", turn.table_id, exc)

    async def _think(self, turn: BotTurn, *args: Any) -> Action:
        """The bot's action, renewing the claim meanwhile; :class:`ClaimLost` if it is lost."""
        thinking = asyncio.ensure_future(self._pool.think(*args))
        try:
            while True:
                done, _ = await asyncio.wait({thinking}, timeout=RENEW)
                if done:
                    return thinking.result()
                try:
                    kept = await self._store.renew_claim(self._owner, turn, LEASE)
                except StoreUnavailable:
                    continue  # the claim may still hold: storing the action will tell
                if not kept:
                    raise ClaimLost()
        finally:
            thinking.cancel()

    async def _decide(self, turn: BotTurn, hurry: bool) -> None:
        table = await self._manager.get(turn.table_id)
        if (table.game_number, len(table.game.history)) < (turn.game, turn.step):
            await self._manager.refresh(table)
        async with table.lock:
            now = table.turn()
            seat = now.seat
            if (table.game_number, now.step) != (turn.game, turn.step) or not (
                now.bot or now.timed
            ):
                seat = None  # storage awaits a bot here, the table does not
            else:
                assert seat is not None
                # A human's decision claimed once its deadline passed: the stand-in plays it.
                stand_in = not now.bot
                level = table.options.stand_in if stand_in else table.seats[seat].level
                seed = thinking.decision_seed(table.seed, seat, turn.step)
                observation, legal = table.game.observe(seat), tuple(table.game.legal_actions())
        if seat is None:
            if await self._store.set_turn(table.id, table.game_number, now):
                log.info("table %s: stored turn corrected to step %d", table.id, now.step)
            self.offer(table)
            return
        metrics.BOT_WAIT.observe(max(0.0, time.time() - table.decision_since))
        started = time.monotonic()
        action = await self._think(
            turn, level or "random", seed, observation, legal, self._delay, hurry
        )
        log.debug("table %s: bot thought %.2f s", table.id, time.monotonic() - started)
        try:
            await self._manager.apply_bot(table, seat, action, turn.step, turn.game, stand_in)
        except ApiError as exc:
            log.info("table %s: bot move dropped (%s)", table.id, exc.code)
