""""Your turn" pushes as stored (docs/server.md, "Push notifications"): the server's keys, the
browsers' push subscriptions of each account, the decisions that may deserve a push, and the
pushes sent (:class:`PushStore`, part of the :class:`~.base.Store`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class PushSubscription:
    """One browser's push subscription: where to post (``endpoint``), the keys that encrypt
    for it (``p256dh``, ``auth``, base64url), whose it is, and the browser that made it."""

    endpoint: str
    account_id: str
    p256dh: str
    auth: str
    agent: str = ""


@dataclass(frozen=True, slots=True)
class PushDue:
    """A decision waiting for a signed-in human seat that has no open connection anywhere:
    the table, game, step and seat, the seat's account, how long (seconds, by the database's
    clock) the decision has waited with nobody connected, the table's clock (seconds per
    decision, None without), time bank and its increment (None without)."""

    table_id: str
    game: int
    step: int
    seat: int
    account_id: str
    waited: float
    clock: float | None
    bank: float | None
    increment: float | None = None


class PushStore(Protocol):
    async def server_key(self, name: str, candidate: str) -> str:
        """The server key ``name``: ``candidate`` stored if no key of that name exists yet
        (whoever stores first wins, on every server process), then the stored one."""
        ...

    async def add_push_subscription(self, subscription: PushSubscription, limit: int) -> bool:
        """Store the subscription for its account (replacing one with the same endpoint);
        False, storing nothing, when the account already holds ``limit`` others."""
        ...

    async def remove_push_subscription(self, endpoint: str, account_id: str | None = None) -> bool:
        """Remove the subscription of ``endpoint`` (only if it is ``account_id``'s, when
        given); whether one was removed."""
        ...

    async def push_subscriptions(self, account_id: str) -> list[PushSubscription]:
        """The subscriptions of an account, oldest first."""
        ...

    async def pushes_due(self, alive: float, limit: int) -> list[PushDue]:
        """Decisions waiting for a signed-in human seat with no open connection (on a server
        alive within ``alive`` seconds) whose account has a subscription and that no push was
        sent for yet, those waiting longest first."""
        ...

    async def claim_push(self, due: PushDue) -> bool:
        """Record that a push is sent for this decision: True for exactly one caller, on every
        server process (the record's key is the table, game, step and account)."""
        ...
