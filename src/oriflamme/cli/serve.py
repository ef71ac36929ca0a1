"""``oriflamme serve``: the multiplayer game server (web pages, JSON API, WebSocket)."""

from __future__ import annotations

import argparse
import copy
import logging
import re
import sqlite3
from pathlib import Path
from typing import Any

from .common import CliError

#: The largest WebSocket message the server reads (bigger ones close the connection; messages
#: over 4 KiB are refused with an error reply, see docs/server.md).
WS_MAX_SIZE = 64 * 1024


_TOKEN_PARAM = re.compile(r"\b(token|seat|watch)=[^&\s\"]+")


class RedactTokens(logging.Filter):
    """Hide the tokens of request lines (``?token=…``) in the server's logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN_PARAM.sub(r"\1=…", a) if isinstance(a, str) else a for a in record.args
            )
        return True


def log_config() -> dict[str, Any]:
    """Uvicorn's logging, with tokens redacted and the server's own messages shown."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"redact": {"()": RedactTokens}}
    for handler in config["handlers"].values():
        handler["filters"] = ["redact"]
    config["loggers"]["oriflamme"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    return config


def default_db() -> Path:
    """The SQLite file in the user's data directory."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("oriflamme")) / "oriflamme.sqlite3"


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to 60, not {text!r}")
    return value


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Register the ``serve`` command."""
    parser = commands.add_parser(
        "serve",
        help="run the game server: play online in the browser",
        description="Serve the web client and its API. Games are stored in an SQLite file and "
        "survive restarts. Open the printed URL to create a table and share its invite links.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        metavar="PATH",
        help="SQLite file of the games (default: oriflamme.sqlite3 in your data directory)",
    )
    parser.add_argument(
        "--bot-delay",
        type=_delay,
        default=0.8,
        metavar="SECONDS",
        help="shortest pause before a bot's move is shown (default 0.8)",
    )


def run_serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted."""
    import uvicorn

    from oriflamme.server import SqliteStore, create_app

    db = args.db or default_db()
    try:
        store = SqliteStore(db)
    except (OSError, sqlite3.Error, RuntimeError) as exc:
        raise CliError(f"cannot open the game database {db}: {exc}") from None
    try:
        app = create_app(store, bot_delay=args.bot_delay)
        host = f"[{args.host}]" if ":" in args.host else args.host
        print(
            f"Oriflamme server: open http://{host}:{args.port}/ (games stored in {db})", flush=True
        )
        uvicorn.run(
            app, host=args.host, port=args.port, ws_max_size=WS_MAX_SIZE, log_config=log_config()
        )
    finally:
        store.close()
    return 0
