"""``oriflamme db``: the game database of the server (copy SQLite to PostgreSQL, back it up,
restore a backup)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import CliError


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Register the ``db`` command and its subcommands."""
    parser = commands.add_parser(
        "db",
        help="the server's game database: back it up, restore it, copy it to PostgreSQL",
        description="Manage the game database of 'oriflamme serve'.",
    )
    actions = parser.add_subparsers(dest="db_command", title="subcommands", metavar="SUBCOMMAND")
    copy = actions.add_parser(
        "copy",
        help="copy an SQLite game database into an empty PostgreSQL database",
        description="Copy every table, seat link and game of an SQLite database (the default "
        "store of 'oriflamme serve') into a PostgreSQL database, so that several servers can "
        "share them. The target must be empty; its schema is created. The copy is one "
        "transaction: all of it, or nothing.",
    )
    copy.add_argument("source", metavar="SOURCE", help="sqlite:PATH (or a path to the file)")
    copy.add_argument(
        "target", metavar="TARGET", help="postgresql://user[:password]@host[:port]/database"
    )
    backup = actions.add_parser(
        "backup",
        help="write a consistent snapshot of the game database to a file",
        description="Write every table, seat link, game, action, account and rating of the "
        "database to FILE (gzip-compressed JSON lines with a format version), as one consistent "
        "snapshot: a running server keeps serving meanwhile. FILE is replaced only once the "
        "backup is whole, and is readable by its owner only (mode 0600): it holds password "
        "hashes and the server's private keys.",
    )
    backup.add_argument("file", metavar="FILE", help="where to write the backup")
    backup.add_argument("--db", default=None, metavar="DB", help=DB_HELP)
    restore = actions.add_parser(
        "restore",
        help="restore a backup into an empty game database",
        description="Restore a backup made by 'oriflamme db backup' into an empty database "
        "(its schema is created; an SQLite file is created if missing), in one transaction: "
        "all of it, or nothing. A backup restores into SQLite or PostgreSQL, whichever it came "
        "from.",
    )
    restore.add_argument("file", metavar="FILE", help="the backup to restore")
    restore.add_argument("--db", default=None, metavar="DB", help=DB_HELP)


#: The ``--db`` option of ``backup`` and ``restore``, as ``serve``'s.
DB_HELP = (
    "the database: an SQLite file (a path or sqlite:PATH) or postgresql://…; default: "
    "$ORIFLAMME_DB if set, else the server's default file"
)


def run_db(args: argparse.Namespace) -> int:
    from oriflamme.server.storage import StoreError

    try:
        import asyncio  # imported when used: start-up stays short

        if args.db_command == "copy":
            return asyncio.run(_copy(args.source, args.target))
        if args.db_command == "backup":
            return asyncio.run(_backup(args.file, _database(args)))
        if args.db_command == "restore":
            return asyncio.run(_restore(args.file, _database(args)))
    except StoreError as exc:
        raise CliError(str(exc)) from None
    raise CliError(
        "say what to do: 'oriflamme db backup FILE', 'oriflamme db restore FILE' or"
        " 'oriflamme db copy SOURCE TARGET'"
    )


def _database(args: argparse.Namespace) -> str:
    from .serve import database

    return database(args)


def _progress(table: str, rows: int) -> None:
    print(f"  {table}: {rows:,} rows", file=sys.stderr, flush=True)


def _where(url: str) -> str:
    from oriflamme.server.storage import is_postgres_url
    from oriflamme.server.storage.postgres import redacted

    return redacted(url) if is_postgres_url(url) else url.removeprefix("sqlite:")


async def _backup(file: str, url: str) -> int:
    import time

    from oriflamme.server.storage.backup import backup

    started = time.monotonic()
    summary = await backup(url, file, _progress)
    rows = sum(count for _, count in summary.rows)
    print(f"Backed up {_where(url)} (storage version {summary.schema}) to {file}: {rows:,} rows"
          f" in {len(summary.rows)} tables, {time.monotonic() - started:.1f} s.")
    return 0


async def _restore(file: str, url: str) -> int:
    from oriflamme.server.storage.backup import restore

    summary = await restore(file, url, _progress)
    total = ", ".join(f"{rows:,} {table}" for table, rows in summary.rows if rows)
    print(f"Restored {file} into {_where(url)}: {total or 'no rows'}.")
    return 0


async def _copy(source: str, target: str) -> int:
    from oriflamme.server.storage import is_postgres_url
    from oriflamme.server.storage.copy import copy_sqlite_to_postgres
    from oriflamme.server.storage.postgres import redacted

    if not is_postgres_url(target):
        raise CliError(f"the target must be a postgresql:// address, not {target!r}")
    if is_postgres_url(source):
        raise CliError("the source must be an SQLite file (sqlite:PATH)")

    def progress(table: str, rows: int) -> None:
        print(f"  {table}: {rows:,} rows", file=sys.stderr, flush=True)

    copied = await copy_sqlite_to_postgres(source, target, progress)
    total = ", ".join(f"{rows:,} {table}" for table, rows in copied.rows)
    print(f"Copied into {redacted(target)}: {total}.")
    return 0
