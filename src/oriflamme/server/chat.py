"""The table talk (docs/server.md, "Chat").

Each table has two channels: the players' (its seated players write; spectators read it only
at a table whose chat is "open"; none at all where it is "off") and the spectators' (spectators
write; players may read it). A message is a free text (1 to
300 characters of visible text: no control, format or separator characters; shown as plain
text, never as HTML) or a quick phrase (an id from :data:`PHRASES`, which each reader's page
shows in its own language, so that players of different languages can still talk).

A message is stored with the table (its number, the game and step it was written at, for the
replay), then announced by storage to every server; each server pushes it to its own sockets of
the table that may read the channel (``{"type": "chat", "message": {…}}``), but to a seat that
muted its author. Writing is throttled per seat (per spectator socket) on each server. A
message a moderator deletes (:mod:`.chat_moderation`) is pushed again, without its words.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Mapping
from typing import Any

from .errors import ApiError
from .storage import (
    CHANNELS,
    CHAT_DELETED,
    CHAT_OFF,
    CHAT_OPEN,
    PLAYERS,
    SPECTATORS,
    Change,
    ChatRecord,
    Store,
    StoreUnavailable,
)
from .tables import Identity, Role, Table
from .tasks import spawn
from .throttle import BucketsByKey

log = logging.getLogger("oriflamme.server")

#: The longest message, in characters (after Unicode normalisation).
MAX_TEXT = 300
#: Messages a history answer gives at most.
HISTORY = 200
#: Messages a seat may write: one every 2 s on average, 5 in a row.
RATE, BURST = 0.5, 5.0
#: Message numbers remembered per table, and tables, not to push a message twice.
KEPT, KEPT_TABLES = 64, 1000
#: The quick phrases: ids the pages translate (``chat_phrase_<id>``).
PHRASES = (
    "hello", "good_luck", "have_fun", "your_turn", "thinking", "nice_move", "oops", "sorry",
    "thanks", "well_played", "good_game", "bye",
)
#: Character categories a message may not hold: control, format (invisible, bidirectional
#: overrides), surrogates, private use, unassigned, line and paragraph separators.
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_ZERO_WIDTH_JOINER = "\u200d"  # allowed: it builds emoji sequences


def clean_text(text: object) -> str:
    """A message's text, normalised (NFC) and trimmed; :class:`ApiError` saying what is
    wrong."""
    if not isinstance(text, str):
        raise ApiError(400, "chat_invalid", "a message's text is a string")
    cleaned = unicodedata.normalize("NFC", text).strip()
    if not cleaned:
        raise ApiError(400, "chat_empty", "a message says something")
    if len(cleaned) > MAX_TEXT:
        raise ApiError(400, "chat_too_long", f"a message is at most {MAX_TEXT} characters")
    for ch in cleaned:
        if ch != _ZERO_WIDTH_JOINER and unicodedata.category(ch) in _REFUSED:
            raise ApiError(
                400, "chat_invalid", "a message may not hold control or invisible characters"
            )
    return cleaned


def channel_of(identity: Identity) -> str:
    """The channel ``identity`` writes in: a seat the players', a spectator the spectators'."""
    return PLAYERS if identity.role is Role.SEAT else SPECTATORS


def may_read(identity: Identity, channel: str, setting: str) -> bool:
    """Everyone reads the spectators' channel; the players' is the seats' (and the spectators'
    too at an "open" table), nobody's at a table whose chat is "off"."""
    if channel == SPECTATORS:
        return True
    if setting == CHAT_OFF:
        return False
    return identity.role is Role.SEAT or setting == CHAT_OPEN


def chat_off() -> ApiError:
    return ApiError(403, "chat_off", "the players' chat is off at this table")


def check_may_read(table: Table, identity: Identity, channel: str) -> None:
    """Refuse (403) reading ``channel`` at ``table`` to whoever may not."""
    if channel == PLAYERS and table.options.chat == CHAT_OFF:
        raise chat_off()
    if not may_read(identity, channel, table.options.chat):
        raise ApiError(403, "chat_not_allowed", "spectators do not read the players' chat here")


def message_json(message: ChatRecord) -> dict[str, Any]:
    """A message as the API sends it (a deleted message keeps its place, without its words)."""
    return {
        "number": message.number,
        "channel": message.channel,
        "seat": message.seat,
        "name": message.name,
        "text": None if message.deleted else message.text,
        "phrase": None if message.deleted else message.phrase,
        "game": message.game,
        "step": message.step,
        "at": message.at,
        "deleted": message.deleted,
    }


class Chat:
    """Writes messages, reads a channel's history, and pushes announced messages to this
    server's sockets."""

    def __init__(self, store: Store, cached: Any) -> None:
        self._store = store
        #: The table held in memory here, or None (``TableRegistry.cached``).
        self._cached = cached
        self._buckets = BucketsByKey(RATE, BURST)
        #: The messages of each table delivered here lately, as (number, deleted): the writer's
        #: server delivers a message at once, then hears of it from storage (PostgreSQL) too.
        self._delivered: dict[str, set[tuple[int, bool]]] = {}

    async def post(
        self, table: Table, identity: Identity, data: Mapping[str, Any], writer: str
    ) -> ChatRecord:
        """Store the message ``data`` (``{"text": …}`` or ``{"phrase": …}``) that ``identity``
        writes (``writer``: who throttles it, a seat or one spectator socket)."""
        text, phrase = data.get("text"), data.get("phrase")
        if (text is None) == (phrase is None):
            raise ApiError(400, "chat_invalid", "a message has a text or a phrase, not both")
        if phrase is not None and phrase not in PHRASES:
            raise ApiError(400, "unknown_phrase", "this quick phrase does not exist")
        cleaned = clean_text(text) if text is not None else None
        if channel_of(identity) == PLAYERS and table.options.chat == CHAT_OFF:
            raise chat_off()
        if not self._buckets.take(f"{table.id} {writer}"):
            raise ApiError(429, "too_many_messages", "too many messages: wait a moment")
        seat = identity.seat if identity.role is Role.SEAT else None
        await self._refuse_suspended(table, seat)
        name = table.seats[seat].name if seat is not None else ""
        message = ChatRecord(
            table.id, 0, channel_of(identity), seat, name, cleaned,
            None if phrase is None else str(phrase), table.game_number,
            len(table.game.history), 0.0,
        )
        stored = await self._store.post_chat(message)
        await self.deliver_here(table, stored)  # SQLite announces nothing: one server per file
        return stored

    async def _refuse_suspended(self, table: Table, seat: int | None) -> None:
        """A seat whose account a moderator suspended writes no more (``403
        account_suspended``): its link still lets it play the game."""
        account_id = None if seat is None else table.seats[seat].account_id
        if account_id is not None:
            account = await self._store.account(account_id)
            if account is not None and account.suspended:  # as accounts.current.suspended()
                raise ApiError(
                    403, "account_suspended",
                    "this account is suspended: ask the server's administrator",
                )

    async def history(
        self, table: Table, identity: Identity, channel: str, before: int | None = None
    ) -> list[ChatRecord]:
        """The last messages of ``channel`` that ``identity`` may read, oldest first."""
        if channel not in CHANNELS:
            raise ApiError(400, "bad_channel", "channel is 'players' or 'spectators'")
        check_may_read(table, identity, channel)
        return await self._store.chat_history(
            table.id, channel, HISTORY, before, muter=_seat_of(identity)
        )

    def on_change(self, change: Change) -> None:
        """Storage announced a message (or its deletion): push it to this server's sockets of
        its table."""
        table = self._cached(change.table_id)
        key = (change.step, change.kind == CHAT_DELETED)
        if table is not None and table.listeners and key not in self._delivered.get(
            table.id, ()
        ):
            spawn(self._deliver(table, change.step), f"chat:{table.id}")

    async def _deliver(self, table: Table, number: int) -> None:
        try:
            message = await self._store.chat_message(table.id, number)
        except StoreUnavailable as exc:  # the page reads the history when it reconnects
            log.warning("table %s: chat message %d not delivered (%s)", table.id, number, exc)
            return
        if message is not None:
            await self.deliver_here(table, message)

    async def deliver_here(self, table: Table, message: ChatRecord) -> None:
        """Push ``message`` to this server's sockets of ``table`` that may read it (but to the
        seats that muted its author), once; again once deleted."""
        delivered = self._delivered.setdefault(table.id, set())
        if (message.number, message.deleted) in delivered:
            return
        delivered.add((message.number, message.deleted))
        if len(delivered) > KEPT:
            delivered.difference_update(sorted(delivered)[: len(delivered) - KEPT])
        if len(self._delivered) > KEPT_TABLES:
            self._delivered = {key: self._delivered[key] for key in list(self._delivered)[-100:]}
        muting = await self._muting(table, message)
        payload = {"type": "chat", "message": message_json(message)}
        for listener in list(table.listeners):
            identity = listener.identity
            if may_read(identity, message.channel, table.options.chat) and (
                identity.seat not in muting or identity.role is not Role.SEAT
            ):
                listener.push(payload)

    async def _muting(self, table: Table, message: ChatRecord) -> set[int]:
        """The seats here that muted the author of ``message``."""
        author = message.seat
        if author is None or message.deleted or not any(
            listener.identity.role is Role.SEAT for listener in table.listeners
        ):
            return set()
        try:
            return set(await self._store.chat_muting(table.id, author))
        except StoreUnavailable as exc:
            # A mute is a promise: without knowing them, only the author sees its message now
            # (the others read it in the history when they reconnect).
            log.warning("table %s: chat mutes not read (%s)", table.id, exc)
            return set(range(len(table.seats))) - {author}

    async def mute(self, table: Table, identity: Identity, seat: int, muted: bool) -> list[int]:
        """Seat ``identity`` mutes (or unmutes) ``seat`` for itself; the seats it mutes."""
        if identity.role is not Role.SEAT or identity.seat is None:
            raise ApiError(403, "not_a_player", "only a seated player mutes another seat")
        if not 0 <= seat < len(table.seats):
            raise ApiError(404, "unknown_seat", f"no seat {seat} at this table")
        if seat == identity.seat:
            raise ApiError(400, "mute_self", "a player does not mute their own seat")
        return await self._store.set_chat_mute(table.id, identity.seat, seat, muted)

    async def mutes(self, identity: Identity, table: Table) -> list[int]:
        """The seats ``identity`` muted (none for a spectator)."""
        seat = _seat_of(identity)
        return [] if seat is None else await self._store.chat_mutes(table.id, seat)


def _seat_of(identity: Identity) -> int | None:
    return identity.seat if identity.role is Role.SEAT else None
