"""The multiplayer game server: FastAPI app, SQLite storage, tables, bots and WebSockets.

See ``docs/server.md`` for the protocol. Run it with ``oriflamme serve``.
"""

from .app import create_app
from .store import SqliteStore, Store

__all__ = ["SqliteStore", "Store", "create_app"]
