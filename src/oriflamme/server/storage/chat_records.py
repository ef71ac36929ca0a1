"""The table talk as stored (docs/server.md, "Chat"): a message of a table's channel and what
storage does with messages (:class:`ChatStore`, part of the :class:`~.base.Store`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

#: The players' channel (seated players write) and the spectators' (spectators write).
PLAYERS, SPECTATORS = "players", "spectators"
CHANNELS = (PLAYERS, SPECTATORS)


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
        self, table_id: str, channel: str, limit: int, before: int | None = None
    ) -> list[ChatRecord]:
        """The last ``limit`` messages of the channel (before the message ``before``), oldest
        first."""
        ...
