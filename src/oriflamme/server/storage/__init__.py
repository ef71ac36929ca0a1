"""Storage of tables and games: the :class:`Store` interface and its backends (SQLite, the
embedded default for one server; PostgreSQL, shared by any number of servers)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .accounts import AccountRecord, AccountStore, Challenge, PasskeyRecord, SessionRecord
from .base import (
    ACTION,
    CHAT,
    CHAT_DELETED,
    DONE,
    FAILED,
    GAME,
    LOBBY_CARD_SETS,
    PRESENCE,
    QUEUED,
    RUNNING,
    SEATS,
    AccountNameTaken,
    AnalysisRecord,
    BankCharged,
    BankMove,
    BotTurn,
    Change,
    GameRecord,
    HandOverGrace,
    Heartbeat,
    LobbyEntry,
    LobbyFilter,
    LobbyPlace,
    QuotaReached,
    SeatCount,
    SeatRecord,
    Store,
    StoreConflict,
    StoreError,
    StoreUnavailable,
    TableRecord,
    Turn,
)
from .chat_records import (
    CHANNELS,
    CHAT_OFF,
    CHAT_ON,
    CHAT_OPEN,
    CHAT_SETTINGS,
    PLAYERS,
    SPECTATORS,
    ChatRecord,
    ChatStore,
    ReportedMessage,
)
from .sqlite import SqliteStore

__all__ = [
    "ACTION",
    "CHANNELS",
    "CHAT",
    "CHAT_DELETED",
    "CHAT_OFF",
    "CHAT_ON",
    "CHAT_OPEN",
    "CHAT_SETTINGS",
    "DONE",
    "FAILED",
    "GAME",
    "LOBBY_CARD_SETS",
    "PLAYERS",
    "PRESENCE",
    "QUEUED",
    "RUNNING",
    "SEATS",
    "SPECTATORS",
    "AccountNameTaken",
    "AccountRecord",
    "AccountStore",
    "AnalysisRecord",
    "BankCharged",
    "BankMove",
    "BotTurn",
    "Challenge",
    "Change",
    "ChatRecord",
    "ChatStore",
    "GameRecord",
    "HandOverGrace",
    "Heartbeat",
    "LobbyEntry",
    "LobbyFilter",
    "LobbyPlace",
    "PasskeyRecord",
    "QuotaReached",
    "ReportedMessage",
    "SeatCount",
    "SeatRecord",
    "SessionRecord",
    "SqliteStore",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreUnavailable",
    "TableRecord",
    "Turn",
    "is_postgres_url",
    "open_store",
]


def is_postgres_url(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database (``postgresql://`` or ``postgres://``)."""
    return url.startswith(("postgresql://", "postgres://"))


async def open_store(url: str | Path) -> Store:
    """The store at ``url``: a ``postgresql://`` address, or an SQLite file (``sqlite:PATH`` or
    a path); :class:`StoreError` with a clear message if it cannot be used."""
    text = str(url)
    if is_postgres_url(text):
        from .postgres import PostgresStore  # asyncpg is loaded only when used

        return await PostgresStore.open(text)
    path = Path(text.removeprefix("sqlite:")).expanduser()
    try:
        return SqliteStore(path)
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"cannot open the game database {path}: {exc}") from None
