"""Storage of tables and games: the :class:`Store` interface and its backends."""

from .base import (
    GameRecord,
    SeatRecord,
    Store,
    StoreConflict,
    StoreError,
    StoreUnavailable,
    TableRecord,
)
from .sqlite import SqliteStore

__all__ = [
    "GameRecord",
    "SeatRecord",
    "SqliteStore",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreUnavailable",
    "TableRecord",
]
