"""``oriflamme db``: the game database of the server (copy SQLite to PostgreSQL, check it)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import CliError


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Register the ``db`` command and its subcommands."""
    parser = commands.add_parser(
        "db",
        help="the server's game database: copy it to PostgreSQL",
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


def run_db(args: argparse.Namespace) -> int:
    from oriflamme.server.storage import StoreError

    try:
        if args.db_command == "copy":
            import asyncio  # imported when used: start-up stays short

            return asyncio.run(_copy(args.source, args.target))
    except StoreError as exc:
        raise CliError(str(exc)) from None
    raise CliError("say what to do: 'oriflamme db copy SOURCE TARGET'")


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
