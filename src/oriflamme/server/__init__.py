"""The multiplayer game server: FastAPI app, SQLite storage, tables, bots and WebSockets.

See ``docs/server.md`` for the protocol. Run it with ``oriflamme serve``. The names below are
imported on first use, so that the bots' worker processes (which import
``oriflamme.server.thinking``) do not load the web framework.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .storage import SqliteStore, Store

__all__ = ["SqliteStore", "Store", "create_app"]

_HOMES = {"create_app": ".app", "SqliteStore": ".storage", "Store": ".storage"}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name], __name__), name)
