"""``oriflamme ratings``: the players' ratings of the server's rated games (recompute them)."""

from __future__ import annotations

import argparse
from typing import Any

from .common import CliError
from .serve import DB_ENV


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Register the ``ratings`` command and its subcommands."""
    parser = commands.add_parser(
        "ratings",
        help="the players' ratings of rated games: recompute them",
        description="Manage the ratings of the server's rated games (docs/server.md, Ratings).",
    )
    actions = parser.add_subparsers(
        dest="ratings_command", title="subcommands", metavar="SUBCOMMAND"
    )
    rebuild = actions.add_parser(
        "rebuild",
        help="recompute every rating from the stored results of rated games",
        description="Replay the stored results of every rated game, in the order they were "
        "rated, recompute each player's ratings and compare them with the stored ones. "
        "Differences are listed and the recomputed ratings are written (in one transaction); "
        "with --check nothing is written and the status is 1 if any differs.",
    )
    rebuild.add_argument(
        "--db",
        default=None,
        metavar="DB",
        help=f"the server's database (as for 'oriflamme serve'); default: ${DB_ENV} if set, "
        "else the default file",
    )
    rebuild.add_argument(
        "--check", action="store_true", help="only compare: write nothing, status 1 if any differs"
    )


def run_ratings(args: argparse.Namespace) -> int:
    from oriflamme.server.storage import StoreError

    if args.ratings_command != "rebuild":
        raise CliError("say what to do: 'oriflamme ratings rebuild'")
    import asyncio  # imported when used: start-up stays short
    from pathlib import Path

    from oriflamme.server.storage import is_postgres_url

    from .serve import database

    url = database(args)
    if not is_postgres_url(url) and not Path(url.removeprefix("sqlite:")).expanduser().is_file():
        raise CliError(f"no game database at {url} (see --db)")
    try:
        return asyncio.run(_rebuild(url, args.check))
    except StoreError as exc:
        raise CliError(str(exc)) from None


async def _rebuild(url: str, check: bool) -> int:
    from oriflamme.server.rating_rebuild import rebuild
    from oriflamme.server.storage import open_store

    store = await open_store(url)
    try:
        done = await rebuild(store, write=not check)
    finally:
        await store.close()
    for diff in done.differences:
        print(f"  {diff.player} ({diff.pool}): stored {diff.stored}, recomputed {diff.rebuilt}")
    players = len(done.ratings)
    print(
        f"{done.results} rated games replayed, {players} ratings:"
        f" {len(done.differences)} differed from the stored ones"
        + ("" if check or not done.differences else " and were replaced")
        + "."
    )
    return 1 if check and done.differences else 0
