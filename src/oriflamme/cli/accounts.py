"""``oriflamme accounts``: the players' accounts of a server's database (list, suspend or
unsuspend, reset a password, grant or revoke the admin role)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from .common import CliError, whole
from .serve import DB_ENV, database

SUBCOMMANDS = ("list", "suspend", "unsuspend", "reset-password", "grant-admin", "revoke-admin")


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Register the ``accounts`` command and its subcommands."""
    parser = commands.add_parser(
        "accounts",
        help="the server's player accounts: list, suspend, reset a password, admins",
        description="Manage the player accounts of the database 'oriflamme serve' uses "
        "(the same --db, else $ORIFLAMME_DB, else the default file). Changes take effect at "
        "once on every server process sharing the database.",
    )
    actions = parser.add_subparsers(
        dest="accounts_command", title="subcommands", metavar="SUBCOMMAND"
    )

    def sub(name: str, help: str, named: bool = True) -> argparse.ArgumentParser:
        action: argparse.ArgumentParser = actions.add_parser(
            name, help=help, description=help[0].upper() + help[1:] + "."
        )
        action.add_argument(
            "--db", default=None, metavar="DB",
            help=f"the server's database (as 'oriflamme serve --db'; default: ${DB_ENV} if set,"
            " else oriflamme.sqlite3 in your data directory)",
        )
        if named:
            action.add_argument("name", metavar="NAME", help="the account's name (any case)")
        return action

    listing = sub("list", "list the accounts by name", named=False)
    listing.add_argument("--limit", type=whole(1, 100_000), default=1000, metavar="N",
                         help="at most N accounts (default 1000)")
    listing.add_argument("--after", default="", metavar="NAME",
                         help="start after this name (the next page)")
    sub("suspend", "suspend an account: it can no longer sign in, join or create tables; "
        "its sessions end")
    sub("unsuspend", "lift an account's suspension")
    reset = sub("reset-password", "give an account a new password (printed, unless read from "
                "stdin with --stdin); its sessions end")
    reset.add_argument("--stdin", action="store_true",
                       help="read the new password from the first line of stdin")
    sub("grant-admin", "make an account an admin (a moderator)")
    sub("revoke-admin", "take the admin role back")


def run_accounts(args: argparse.Namespace) -> int:
    import asyncio  # imported when used: start-up stays short

    from oriflamme.server.accounts.admin import AdminError
    from oriflamme.server.storage import StoreError

    if args.accounts_command not in SUBCOMMANDS:
        raise CliError(f"say what to do: 'oriflamme accounts {{{','.join(SUBCOMMANDS)}}}'")
    password = None
    if getattr(args, "stdin", False):
        password = sys.stdin.readline().rstrip("\r\n")
    try:
        return asyncio.run(_run(args, password))
    except (StoreError, AdminError) as exc:
        raise CliError(str(exc)) from None


def _when(epoch: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(epoch))


async def _run(args: argparse.Namespace, password: str | None) -> int:
    from oriflamme.server.accounts import admin
    from oriflamme.server.storage import open_store

    store = await open_store(database(args))
    try:
        command = args.accounts_command
        if command == "list":
            accounts = await admin.list_accounts(store, args.limit, args.after)
            for account in accounts:
                flags = [f for f, on in (("suspended", account.suspended),
                                         ("admin", account.admin)) if on]
                print(f"{account.name}\t{account.account_id}\t{_when(account.created)}"
                      f"\t{','.join(flags) or '-'}")
            print(f"{len(accounts)} account{'s' * (len(accounts) != 1)}", file=sys.stderr)
        elif command in ("suspend", "unsuspend"):
            account, ended = await admin.set_suspended(store, args.name, command == "suspend")
            done = "suspended" if account.suspended else "no longer suspended"
            print(f"{account.name} is {done}" + (f" ({ended} sessions ended)" if ended else ""))
        elif command in ("grant-admin", "revoke-admin"):
            account = await admin.set_admin(store, args.name, command == "grant-admin")
            print(f"{account.name} is {'an admin' if account.admin else 'not an admin'}")
        else:
            reset = await admin.reset_password(store, args.name, password)
            print(f"{reset.account.name}'s password was reset ({reset.sessions_ended} sessions"
                  " ended)" + (f"; the new password: {reset.password}" if reset.generated else ""))
        return 0
    finally:
        await store.close()
