"""Moves at a table: checked, stored, applied, broadcast.

A move is checked under the table's lock against this server's copy, then stored; only once
stored is the copy changed and anyone told. Of two servers storing an action at the same step
one wins; the other reloads its copy and answers ``409 stale`` (or applies the action again on
the new state, when the client did not pin a step and the action is still legal). A player's
action sent again at the step where it is stored as their own move is answered as played: the
first answer was lost (a ``503`` for a commit that went through while the database went away).
"""

from __future__ import annotations

import asyncio
import logging
import time

from oriflamme.api import Action, Game

from . import metrics, sources, time_bank
from .broadcast import Broadcaster
from .errors import ApiError
from .presence import Presence
from .rating_outcome import outcome
from .registry import TableRegistry
from .storage import Store, StoreConflict
from .tables import BOT, HUMAN, Identity, Role, Table, parse_action, stale
from .tasks import spawn

log = logging.getLogger("oriflamme.server")

#: Who makes a decision: a human, a bot seat, or the stand-in of a late or absent human.
STAND_IN = "stand-in"
#: The metrics' name of each kind of source (``sources``).
_METRIC_SOURCES = {
    sources.PLAYER: metrics.HUMAN, sources.BOT: metrics.BOT, sources.STAND_IN: metrics.STAND_IN
}
#: Times an action is tried again on a newer state when another server stored one first.
RETRIES = 3


class Moves:
    """Applies the actions of humans, bots and stand-ins to the tables."""

    def __init__(
        self, store: Store, registry: TableRegistry, broadcast: Broadcaster, presence: Presence
    ) -> None:
        self._store = store
        self._registry = registry
        self._broadcast = broadcast
        self._presence = presence

    async def act(
        self,
        table: Table,
        identity: Identity,
        data: object,
        step: int | None = None,
        game_number: int | None = None,
    ) -> bool:
        """Apply a human's action for the seat ``identity`` designates (every check first).
        True if it was stored already, as this seat's move at ``step``: the same request sent
        again, answered as played (nothing changes, so nobody else is told)."""
        if identity.role is not Role.SEAT or identity.seat is None:
            raise ApiError(403, "not_a_player", "only a seat's link can act")
        action = parse_action(data)
        again = await self._apply(table, identity.seat, action, step, game_number, by=HUMAN)
        record = table.seats[identity.seat]
        if record.away_since is not None or record.arrived is None:
            spawn(self._presence.here(table, identity.seat), f"back:{table.id}")  # acting: here
        return again

    async def apply_bot(
        self,
        table: Table,
        seat: int,
        action: Action,
        step: int,
        game_number: int,
        stand_in: bool = False,
    ) -> None:
        """Apply a bot's decision made at ``step`` of game ``game_number`` (with ``stand_in``:
        for the human at ``seat``, whose deadline passed)."""
        await self._apply(table, seat, action, step, game_number, by=STAND_IN if stand_in else BOT)

    async def _apply(
        self,
        table: Table,
        seat: int,
        action: Action,
        step: int | None,
        game_number: int | None,
        by: str,
    ) -> bool:
        """Check and store the action; True if it was stored already (``_stored_already``)."""
        arrived = time.perf_counter()
        async with table.lock:
            if (step is not None and step > len(table.game.history)) or (
                game_number is not None and game_number > table.game_number
            ):
                # The client saw what this server has not yet.
                await self._registry.reload_locked(table)
            for attempt in range(RETRIES + 1):
                if _stored_already(table, seat, action, step, game_number, by):
                    return True
                self._check(table, seat, action, step, game_number, by)
                after = table.game.copy()
                after.apply(action, check=False)
                source = _source(table, seat, by)
                try:
                    await asyncio.shield(
                        self._store_action(table, action, after, source, arrived)
                    )
                except StoreConflict:
                    # Another server stored an action at this step first: catch up, then the
                    # checks decide (a pinned step is stale; an unpinned action may still fit).
                    log.info("table %s: step %d taken elsewhere", table.id, len(after.history) - 1)
                    await self._registry.reload_locked(table)
                    if _stored_already(table, seat, action, step, game_number, by):
                        self._broadcast.changed(table)
                        return True
                    if step is not None or attempt == RETRIES:
                        self._broadcast.changed(table)
                        raise stale() from None
                    continue
                break
        return False

    async def _store_action(
        self, table: Table, action: Action, after: Game, source: str, arrived: float
    ) -> None:
        """Store the action that leads ``table`` to ``after``, played by ``source`` (it
        arrived at ``arrived``), then take ``after`` as the table's game and tell the table's
        connections: all three, even if the request that asked for it is cancelled meanwhile
        (a socket that closes while its action is stored)."""
        step = len(table.game.history)
        kind = sources.parse(source)[0]
        bank = time_bank.bank_move(table, source)
        charged = await self._store.append_action(
            table.id, table.game_number, step, action.to_json(), table.turn(after),
            kind == sources.STAND_IN, source=source, finished=outcome(table, after, source),
            bank=bank,
        )
        metrics.action_stored(_METRIC_SOURCES.get(kind or "", metrics.HUMAN), arrived)
        if len(table.game.history) == step:
            if bank is not None and charged is not None:
                time_bank.charged(table, bank.seat, charged)
            table.moved(after, source)
            table.arrival = (step + 1, arrived)
        self._broadcast.changed(table)

    @staticmethod
    def _check(
        table: Table,
        seat: int,
        action: Action,
        step: int | None,
        game_number: int | None,
        by: str,
    ) -> None:
        game = table.game
        if table.seats[seat].kind != (BOT if by == BOT else HUMAN):
            if by != HUMAN:
                raise stale()
            raise ApiError(403, "seat_is_bot", "this seat is now played by a bot")
        if table.closed:
            raise ApiError(409, "table_closed", "this table was closed by its creator")
        if table.waiting():
            raise ApiError(409, "waiting_for_players", "the game starts when every seat is taken")
        if game_number is not None and game_number != table.game_number:
            raise stale()
        # Checked before the end: the game's last action sent again after a reconnection
        # (pinned to a step the game has passed) is stale, no error to show.
        if step is not None and step != len(game.history):
            raise stale()
        if game.is_over:
            raise ApiError(409, "game_over", "the game is over")
        if game.current_player != seat:
            raise ApiError(403, "not_your_turn", "it is not your turn")
        if action not in game.legal_actions():
            raise ApiError(400, "illegal_action", "this action is not legal now")


def _stored_already(
    table: Table, seat: int, action: Action, step: int | None, game_number: int | None, by: str
) -> bool:
    """True if a player's action pinned to ``step`` is already stored there as that player's
    own move: the same request sent again after its answer was lost. Only the seat that moved at
    that step, by its own hand, gets this answer: any other request for a past step stays
    ``409 stale``, so it tells nothing of what was played (R-INFO-1)."""
    if by != HUMAN or step is None or game_number not in (None, table.game_number):
        return False
    history = table.game.history
    return (
        0 <= step < len(history)
        and table.seats[seat].kind == HUMAN
        and table.sources[step] == sources.PLAYER
        and table.move_at(step)[0] == seat
        and history[step] == action
    )


def _source(table: Table, seat: int, by: str) -> str:
    """Who plays ``seat``'s action (``sources``): its human, its bot, or the stand-in (why)."""
    if by == HUMAN:
        return sources.PLAYER
    if by == BOT:
        return sources.BOT
    return sources.stand_in(sources.stand_in_reason(table, seat, time.time()))
