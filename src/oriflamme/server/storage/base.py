"""What the server needs from storage: the stored records and the :class:`Store` interface.

A game is stored as the table's configuration, the game's seed, its starting position when it
did not start from a deal (a game continued from a save or a position) and its accepted actions,
in order; that determines it completely. Every write is committed (and synced to disk) before
its future completes, so an action acknowledged to anyone survives a crash. Tokens are stored
only as SHA-256 digests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol


class StoreError(RuntimeError):
    """Storage that cannot be used: a wrong address or login, a newer schema, … (the message
    says what, without the password)."""


class StoreUnavailable(StoreError):
    """The database cannot be reached (now): the server answers 503 and tries again later."""


class StoreConflict(RuntimeError):
    """A write that contradicts what is stored (e.g. a second action at the same index)."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    kind: str  #: "human" or "bot"
    name: str
    level: str | None
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class TableRecord:
    table_id: str
    config: Mapping[str, Any]  #: ``GameConfig.to_dict()``
    lang: str
    creator_hash: str
    spectator_hash: str
    seats: tuple[SeatRecord, ...]


@dataclass(frozen=True, slots=True)
class GameRecord:
    number: int
    seed: int  #: the deal's seed; for a game with a ``start``, the seed of its bots
    actions: tuple[Mapping[str, Any], ...]  #: action JSON, in order
    start: Mapping[str, Any] | None = None  #: a save (``Game.save()``) the game starts from


class Store(Protocol):
    """What the server needs from storage (a PostgreSQL backend would implement the same).

    Reads block (the server calls them from a worker thread or at start-up). Writes return a
    future that completes once the write is committed and durable, or fails: the server awaits
    it before telling anyone, without holding a thread meanwhile.
    """

    def create_table(
        self,
        table: TableRecord,
        seed: int,
        start: Mapping[str, Any] | None = None,
        actions: Sequence[Mapping[str, Any]] = (),
    ) -> Future[None]:
        """Store a new table and its first game (number 1), with its actions so far."""
        ...

    def load_table(self, table_id: str) -> tuple[TableRecord, GameRecord] | None:
        """The table and its latest game, or None."""
        ...

    def unfinished_tables(self) -> list[str]:
        """Ids of the tables whose latest game is not over."""
        ...

    def append_action(
        self, table_id: str, game: int, index: int, action: Mapping[str, Any], finished: bool
    ) -> Future[None]:
        """Record action number ``index`` of a game; fails with :class:`StoreConflict` if taken."""
        ...

    def new_game(self, table_id: str, game: int, seed: int) -> Future[None]:
        """Start game number ``game`` at a table (dealt from ``seed``)."""
        ...

    def set_seat(self, table_id: str, seat: SeatRecord) -> Future[None]:
        """Replace a seat (a human seat handed to a bot)."""
        ...

    def close(self) -> None: ...
