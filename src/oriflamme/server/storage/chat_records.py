"""The table talk as stored (docs/server.md, "Chat"): a message of a table's channel, the
reports of messages, and what storage does with messages, mutes and reports
(:class:`ChatStore`, part of the :class:`~.base.Store`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

#: The players' channel (seated players write) and the spectators' (spectators write).
PLAYERS, SPECTATORS = "players", "spectators"
CHANNELS = (PLAYERS, SPECTATORS)
#: A table's chat setting: seated players talk, spectators read the players too, no players'
#: chat (the spectators' stays in every case).
CHAT_ON, CHAT_OPEN, CHAT_OFF = "on", "open", "off"
CHAT_SETTINGS = (CHAT_ON, CHAT_OPEN, CHAT_OFF)


@dataclass(frozen=True, slots=True)
class ChatRecord:
    """One message: its number at its table (1, 2, …, in the order they were stored), its
    channel, who wrote it (the seat, None for a spectator, and the name shown then), either a
    free ``text`` or a quick ``phrase`` (an id each reader sees in their language), the game and
    step it was written at (the replay shows it there), and when (epoch seconds)."""

    table_id: str
    number: int
    channel: str
    seat: int | None
    name: str
    text: str | None
    phrase: str | None
    game: int
    step: int
    at: float
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class ReportedMessage:
    """A message with open reports (not yet handled by an admin): how many, their reasons, the
    first one's time, and the account of the author's seat (None: a guest or a spectator)."""

    message: ChatRecord
    reports: int
    reasons: tuple[str, ...]
    first_at: float
    author_account: str | None
    author_account_name: str | None


class ChatStore(Protocol):
    async def post_chat(self, message: ChatRecord) -> ChatRecord:
        """Store ``message`` (its ``number`` and ``at`` are ignored) as the table's next
        message, and announce it to every server (a :class:`~.base.Change` of kind ``chat``
        whose step is the message's number); the message as stored."""
        ...

    async def chat_message(self, table_id: str, number: int) -> ChatRecord | None:
        """The message ``number`` of the table, or None."""
        ...

    async def chat_history(
        self, table_id: str, channel: str, limit: int, before: int | None = None,
        muter: int | None = None,
    ) -> list[ChatRecord]:
        """The last ``limit`` messages of the channel (before the message ``before``), oldest
        first; without those of the seats that seat ``muter`` muted."""
        ...

    async def game_chat(
        self, table_id: str, game: int, channel: str, limit: int, muter: int | None = None
    ) -> list[ChatRecord]:
        """The first ``limit`` messages of the channel written during game ``game``, oldest
        first (without those of the seats ``muter`` muted)."""
        ...

    async def set_chat_mute(self, table_id: str, seat: int, muted: int, on: bool) -> list[int]:
        """Seat ``seat`` mutes (``on``) or unmutes seat ``muted``; the seats it mutes after."""
        ...

    async def chat_mutes(self, table_id: str, seat: int) -> list[int]:
        """The seats that seat ``seat`` muted."""
        ...

    async def chat_muting(self, table_id: str, author: int) -> list[int]:
        """The seats that muted seat ``author``."""
        ...

    async def report_chat(self, table_id: str, number: int, reporter: str, reason: str) -> bool:
        """Record ``reporter``'s report of a message; False if it had reported it already."""
        ...

    async def open_chat_reports(self, limit: int) -> list[ReportedMessage]:
        """The messages with open reports (at most ``limit``), the longest waiting first."""
        ...

    async def delete_chat(self, table_id: str, number: int) -> ChatRecord | None:
        """Remove a message's words (it keeps its place), close its reports, and announce it
        (a :class:`~.base.Change` of kind ``chat_deleted``); the message after, or None."""
        ...

    async def close_chat_reports(self, table_id: str, number: int) -> int:
        """Mark the open reports of a message handled; how many there were."""
        ...

    async def chat_author_account(self, table_id: str, number: int) -> str | None:
        """The account of the seat that wrote the message (None: a guest, a spectator)."""
        ...
