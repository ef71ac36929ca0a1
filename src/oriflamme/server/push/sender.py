"""The pushes themselves: every few seconds each server process asks storage for decisions that
wait for a signed-in player connected nowhere (``pushes_due``), and sends one push for each that
has waited long enough (:mod:`.timing`). Recording the push first (``claim_push``, whose key is
the table, game, step and account) makes it one per decision whichever process finds it, and
after a restart. A decision that follows the player's own move gets none. Subscriptions that the
push service answers 404 or 410 (gone) are removed."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from dataclasses import dataclass
from typing import Any, Protocol

from ..account_seats import seat_url
from ..errors import QuietLog
from ..heartbeat import ALIVE
from ..sources import PLAYER, parse
from ..storage import Store
from ..storage.push_records import PushDue, PushSubscription
from ..tables import Table
from .keys import VapidKeys
from .timing import DEFAULT_AFTER, push_after

log = logging.getLogger("oriflamme.server")
quiet = QuietLog(log)

#: Decisions examined per round.
BATCH = 100
#: Seconds a push service keeps a push for a browser that is offline.
PUSH_TTL = 12 * 3600
#: Seconds a push service may take to answer.
SEND_TIMEOUT = 10.0
#: Seconds a decision must have been seen due before its push (at most its wait): a seat
#: whose last socket just closed has no stored connection a moment before it is marked away,
#: when its wait would still count from the decision's start.
SETTLE = 1.0
#: Answers of a push service that mean the subscription is gone for good.
GONE = frozenset({404, 410})


@dataclass(frozen=True)
class PushSettings:
    """``after``: seconds a decision of a per-decision clock (or no clock) waits, its player
    connected nowhere, before its push; ``poll``: seconds between two rounds; ``subject``: the
    contact that push services see (VAPID ``sub``: ``mailto:`` or ``https:``);
    ``loopback_http``: accept plain ``http`` endpoints on loopback (tests)."""

    after: float = DEFAULT_AFTER
    poll: float = 5.0
    subject: str = "mailto:admin@oriflamme.invalid"
    loopback_http: bool = False

    @classmethod
    def from_environment(cls) -> PushSettings:
        """``ORIFLAMME_PUSH_AFTER``, ``ORIFLAMME_PUSH_POLL``, ``ORIFLAMME_PUSH_SUBJECT`` and
        ``ORIFLAMME_PUSH_LOOPBACK`` (``1``), each defaulting as above."""
        env, default = os.environ, cls()
        return cls(
            after=float(env.get("ORIFLAMME_PUSH_AFTER", default.after)),
            poll=float(env.get("ORIFLAMME_PUSH_POLL", default.poll)),
            subject=env.get("ORIFLAMME_PUSH_SUBJECT", default.subject),
            loopback_http=env.get("ORIFLAMME_PUSH_LOOPBACK") == "1",
        )


class TableSource(Protocol):
    """The table manager's one method the sender needs."""

    async def get(self, table_id: str) -> Table: ...


def payload(due: PushDue, url: str) -> dict[str, Any]:
    """What the player's browser receives: which table waits for them, and the link that opens
    their seat (their own); nothing of the game itself."""
    return {"type": "your_turn", "table": due.table_id, "game": due.game, "step": due.step,
            "url": url}


def key(due: PushDue) -> tuple[str, int, int, str]:
    return due.table_id, due.game, due.step, due.account_id


class PushSender:
    """Sends the pushes of the decisions that deserve one, signed with ``keys``."""

    def __init__(
        self, store: Store, tables: TableSource, keys: VapidKeys, settings: PushSettings
    ) -> None:
        self._store = store
        self._tables = tables
        self._keys = keys
        self._settings = settings
        # One server per SQLite file: its connections, stored by this process, always count.
        self._alive = ALIVE if store.shared else 1e9
        #: When this process first saw each decision due (``time.monotonic()``), while it is.
        self._seen: dict[tuple[str, int, int, str], float] = {}

    async def run(self) -> None:
        while True:
            try:
                await self.send_due()
            except Exception as exc:  # the database is away: try again next round
                quiet.warning("push", "pushes not sent this round (%r)", exc)
            await asyncio.sleep(self._settings.poll)

    async def send_due(self) -> int:
        """One round: the pushes sent."""
        sent = 0
        now, seen = time.monotonic(), self._seen
        dues = await self._store.pushes_due(self._alive, BATCH)
        self._seen = {key(due): seen.get(key(due), now) for due in dues}
        for due in dues:
            wait = push_after(due.clock, due.bank, due.increment, self._settings.after)
            if due.waited < wait or now - self._seen[key(due)] < min(wait, SETTLE):
                continue
            try:
                sent += await self._push(due)
            except Exception as exc:  # this table (or the database) failed: the others go on
                quiet.warning("push-table", "table %s: push not sent (%r)", due.table_id, exc)
        return sent

    async def _push(self, due: PushDue) -> int:
        """Push one decision to every browser of its player: the pushes sent."""
        sent = 0
        table = await self._tables.get(due.table_id)
        if table.game_number != due.game or len(table.game.history) != due.step:
            return 0  # this copy is behind storage: next round
        own = self._follows_own_move(table, due)
        # Recorded first: one push per decision, whichever process gets here first (a decision
        # after the player's own move is recorded too, and gets none).
        if not await self._store.claim_push(due) or own:
            return 0
        url = seat_url(table.replay_key, due.table_id, due.seat, due.account_id)
        message = json.dumps(payload(due, url))
        for subscription in await self._store.push_subscriptions(due.account_id):
            sent += await self._send(subscription, message)
        return sent

    @staticmethod
    def _follows_own_move(table: Table, due: PushDue) -> bool:
        """Whether the decision comes right after one the same seat's player made."""
        if due.step == 0:
            return False
        player = table.move_at(due.step - 1)[0]
        by, _ = parse(table.sources[due.step - 1])
        return player == due.seat and by == PLAYER

    async def _send(self, subscription: PushSubscription, message: str) -> int:
        # Imported at the first push, not at the server's start: pywebpush brings requests and
        # aiohttp, about 0.3 s of CPU that a process without subscribers never needs.
        from pywebpush import WebPushException, webpush

        info = {"endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
        try:
            await asyncio.to_thread(
                webpush, info, data=message, vapid_private_key=self._keys.vapid(),
                vapid_claims={"sub": self._settings.subject}, ttl=PUSH_TTL,
                timeout=SEND_TIMEOUT,
            )
            return 1
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in GONE:
                await self._store.remove_push_subscription(subscription.endpoint)
                log.info("push subscription gone (%s): removed", status)
            else:
                quiet.warning("push-send", "push not delivered (%s)", status or exc)
        except Exception as exc:  # the push service unreachable
            quiet.warning("push-send", "push not delivered (%r)", exc)
        return 0
