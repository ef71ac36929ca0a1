"""``oriflamme serve``: the multiplayer game server (web pages, JSON API, WebSocket)."""

from __future__ import annotations

import argparse
import copy
import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

from .common import CliError, seconds, whole

#: Environment variables of the server's settings (``serve`` sets them for its processes).
DB_ENV, BOT_DELAY_ENV = "ORIFLAMME_DB", "ORIFLAMME_BOT_DELAY"
API_DOCS_ENV = "ORIFLAMME_API_DOCS"

#: The largest WebSocket message the server reads (bigger ones close the connection; messages
#: over 4 KiB are refused with an error reply, see docs/server.md).
WS_MAX_SIZE = 64 * 1024
#: The exit status of a server that could not start (uvicorn's: the port taken…).
STARTUP_FAILURE = 3


def log_config(log_format: str = "text") -> dict[str, Any]:
    """Uvicorn's logging, with tokens hidden and the server's own messages shown: people's
    lines (``text``) or one JSON object per line (``json``: then the server writes the access
    lines itself, with their request id and duration)."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {
        "redact": {"()": "oriflamme.server.log_format.RedactTokens"},
        "answered": {"()": "oriflamme.server.log_format.AnsweredErrors"},
    }
    for handler in config["handlers"].values():
        handler["filters"] = ["redact", "answered"]
    config["loggers"]["oriflamme"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    if log_format == "json":
        config["formatters"]["json"] = {"()": "oriflamme.server.log_format.JsonLines"}
        for handler in config["handlers"].values():
            handler["formatter"] = "json"
        config["loggers"]["uvicorn.access"] = {"handlers": [], "propagate": False}
    return config


def default_db() -> Path:
    """The SQLite file in the user's data directory."""
    from pathlib import Path  # here: the other commands start without it

    from platformdirs import user_data_dir

    return Path(user_data_dir("oriflamme")) / "oriflamme.sqlite3"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Register the ``serve`` command."""
    parser = commands.add_parser(
        "serve",
        help="run the game server: play online in the browser",
        description="Serve the web client and its API. Games are stored in an SQLite file (the "
        "default) or a PostgreSQL database shared by any number of servers, and survive "
        "restarts. Open the printed URL to create a table and share its invite links.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--port",
        type=whole(0, 65535),
        default=8000,
        help="port, 1 to 65535 (default 8000; 0: any free port, printed)",
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="DB",
        help="where the games are: an SQLite file (a path or sqlite:PATH) or a PostgreSQL "
        f"database (postgresql://user[:password]@host[:port]/name); default: ${DB_ENV} if set, "
        "else oriflamme.sqlite3 in your data directory",
    )
    parser.add_argument(
        "--workers",
        type=whole(1, 64),
        default=1,
        metavar="N",
        help="server processes sharing the port (default 1; more than 1 needs PostgreSQL)",
    )
    parser.add_argument(
        "--tables-per-hour",
        type=whole(0),
        default=120,
        metavar="N",
        help="tables one network address may create in an hour (default 120; 0: no limit). "
        "Behind a reverse proxy every client may share its address: see docs/server.md",
    )
    parser.add_argument(
        "--bot-tables",
        type=whole(0),
        default=4,
        metavar="N",
        help="unfinished tables where only bots play that one address may have (default 4; "
        "0: no limit)",
    )
    parser.add_argument(
        "--public-tables",
        type=whole(0),
        default=3,
        metavar="N",
        help="tables one address may have waiting for players in the lobby at once (default 3;"
        " 0: no limit; an IPv6 /64 counts as one address)",
    )
    parser.add_argument(
        "--queued-analyses",
        type=whole(0),
        default=3,
        metavar="N",
        help="post-game analyses one address may have waiting or under way (default 3;"
        " 0: no limit); analyses are served in turn, address by address",
    )
    parser.add_argument(
        "--header-timeout",
        type=seconds(0, 3600),
        default=10.0,
        metavar="SECONDS",
        help="time a request's headers may take to arrive before the connection is closed"
        " (default 10; 0: no limit)",
    )
    parser.add_argument(
        "--body-timeout",
        type=seconds(0, 3600),
        default=30.0,
        metavar="SECONDS",
        help="time a request's body may take to arrive (default 30; 0: no limit)",
    )
    parser.add_argument(
        "--connections-per-address",
        type=whole(0),
        default=100,
        metavar="N",
        help="connections one address may hold open at once, per server process (default 100;"
        " 0: no limit; an IPv6 /64 counts as one address; a trusted proxy, FORWARDED_ALLOW_IPS,"
        " is not counted)",
    )
    parser.add_argument(
        "--bot-delay",
        type=seconds(0, 60),
        default=0.8,
        metavar="SECONDS",
        help="shortest pause before a bot's move is shown (default 0.8)",
    )
    parser.add_argument(
        "--shutdown-grace",
        type=seconds(0, 3600),
        default=10.0,
        metavar="SECONDS",
        help="on SIGTERM, time the requests under way may take to finish before they are cut "
        "(default 10; 0: no limit); first the WebSockets are told to reconnect elsewhere, "
        "100 a second, all within 3 s (docs/server.md, 'Rolling restarts')",
    )
    parser.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="log lines for people (text, the default) or one JSON object per line (json: "
        "time, level, process, request id, table, seat, event, duration; never a token)",
    )
    parser.add_argument(
        "--metrics-from",
        type=networks,
        default="",
        metavar="CIDR[,CIDR…]",
        help="networks besides loopback that may read the Prometheus metrics at /metrics "
        "(e.g. 10.0.0.0/8); anyone else gets 404. Behind a reverse proxy, see docs/server.md",
    )
    parser.add_argument(
        "--api-docs",
        action="store_true",
        help="serve Swagger UI at /docs (off by default: its scripts come from a CDN and would "
        "run on the server's origin, where the pages keep tokens; for development). The "
        "OpenAPI schema is always at /openapi.json",
    )


def networks(text: str) -> str:
    """``--metrics-from``: addresses or networks (CIDR), separated by commas."""
    import ipaddress

    for item in filter(None, (part.strip() for part in text.split(","))):
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{item!r} is not an address or a network such as 10.0.0.0/8"
            ) from None
    return text


def metrics_directory() -> str:
    """A new, empty directory where the workers write their metrics (``prometheus_client``'s
    multi-process mode), removed when this process ends."""
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="oriflamme-metrics-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def free_port(host: str) -> int:
    """A port free on ``host`` now (``--port 0``: the server says which it took)."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family) as probe:
            probe.bind((host, 0))
            port: int = probe.getsockname()[1]
    except OSError as exc:
        raise CliError(f"cannot listen on {host}: {exc.strerror or exc}") from None
    return port


def database(args: argparse.Namespace) -> str:
    """The database the server uses: ``--db``, else $ORIFLAMME_DB, else the default file."""
    return str(args.db or os.environ.get(DB_ENV) or default_db())


async def _check_database(url: str) -> str:
    """Open the database once (creating or upgrading its schema) and say where it is."""
    from oriflamme.server.storage import open_store

    store = await open_store(url)
    try:
        return store.describe()
    finally:
        await store.close()


def run_serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted."""
    import uvicorn

    from oriflamme.server.connections import HTTP_PROTOCOL
    from oriflamme.server.log_format import LOG_FORMAT_ENV, json_line
    from oriflamme.server.metrics import METRICS_FROM_ENV, MULTIPROCESS_ENV
    from oriflamme.server.storage import StoreError, is_postgres_url

    try:  # read when the server's modules are imported: a bad value stops it here, clearly
        from oriflamme.server import heartbeat  # noqa: F401  (ORIFLAMME_HEARTBEAT)
    except ValueError as exc:
        raise CliError(str(exc)) from None

    url = database(args)
    if args.workers > 1 and not is_postgres_url(url):
        raise CliError(
            "several workers need a PostgreSQL database (--db postgresql://…): "
            "an SQLite file serves one process"
        )
    try:
        import asyncio  # imported when used: start-up stays short

        where = asyncio.run(_check_database(url))
    except StoreError as exc:
        raise CliError(str(exc)) from None
    port = args.port or free_port(args.host)
    host = f"[{args.host}]" if ":" in args.host else args.host
    workers = f", {args.workers} processes" if args.workers > 1 else ""
    banner = f"Oriflamme server: open http://{host}:{port}/ (games in the {where}{workers})"
    if args.log_format == "json":  # a log collector reads every line as JSON
        banner = json_line("oriflamme.serve", banner)
    print(banner, flush=True)
    # The app is built in each process from these (several processes cannot share one object).
    os.environ[DB_ENV] = url
    os.environ[BOT_DELAY_ENV] = str(args.bot_delay)
    os.environ["ORIFLAMME_TABLES_PER_HOUR"] = str(args.tables_per_hour)
    os.environ["ORIFLAMME_BOT_TABLES"] = str(args.bot_tables)
    os.environ[API_DOCS_ENV] = "1" if args.api_docs else "0"
    os.environ["ORIFLAMME_PUBLIC_TABLES"] = str(args.public_tables)
    os.environ["ORIFLAMME_QUEUED_ANALYSES"] = str(args.queued_analyses)
    os.environ["ORIFLAMME_BODY_TIMEOUT"] = str(args.body_timeout)
    os.environ["ORIFLAMME_HEADER_TIMEOUT"] = str(args.header_timeout)
    os.environ["ORIFLAMME_CONNECTIONS_PER_ADDRESS"] = str(args.connections_per_address)
    os.environ[METRICS_FROM_ENV] = args.metrics_from
    os.environ[LOG_FORMAT_ENV] = args.log_format
    if args.workers > 1:
        os.environ["ORIFLAMME_SUPERVISOR"] = str(os.getpid())  # workers end with this process
        os.environ[MULTIPROCESS_ENV] = metrics_directory()
    app = "oriflamme.server.factory:app_from_environment"
    options: dict[str, Any] = {
        "factory": True,
        "host": args.host,
        "port": port,
        # Uvicorn's HTTP protocol with a deadline for headers and a cap of connections per
        # address (docs/server.md, "Limits and abuse").
        "http": HTTP_PROTOCOL,
        "ws_max_size": WS_MAX_SIZE,
        # Views are a few KiB: compressing each one for each connection would cost more CPU
        # than the bandwidth it saves.
        "ws_per_message_deflate": False,
        "log_config": log_config(args.log_format),
        "timeout_graceful_shutdown": args.shutdown_grace or None,
    }
    from oriflamme.server.stopping import CleanStopServer, run_workers

    if args.workers > 1:  # uvicorn's process manager (it ends with status 0 when stopped)
        run_workers(app, args.workers, **options)
        return 0

    server = CleanStopServer(uvicorn.Config(app, **options))
    server.run()  # until SIGTERM or Ctrl-C: then the app stops, and so does the process
    return 0 if server.started else STARTUP_FAILURE
