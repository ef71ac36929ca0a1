"""What ``oriflamme accounts`` does to the accounts of a server's database (the command line is
the administrator's: no web page can suspend or grant anything): list them, suspend and
unsuspend one, reset its password, grant or revoke the admin role."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from ..storage import AccountRecord, Store
from .passwords import WeakPassword, check_password, hash_password

#: Characters of a generated password (no look-alikes: 0/O, 1/l/I).
_ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
GENERATED_LENGTH = 16


class AdminError(ValueError):
    """A command that cannot be done (no such account, a weak password): the message says why."""


@dataclass(frozen=True, slots=True)
class Reset:
    account: AccountRecord
    password: str
    generated: bool
    sessions_ended: int


async def _find(store: Store, name: str) -> AccountRecord:
    account = await store.account_by_name(name)
    if account is None:
        raise AdminError(f"no account is called {name!r}")
    return account


async def list_accounts(store: Store, limit: int, after: str = "") -> list[AccountRecord]:
    return await store.list_accounts(limit, after)


async def set_suspended(store: Store, name: str, suspended: bool) -> tuple[AccountRecord, int]:
    """Suspend (its sessions end) or unsuspend an account; the account after, and how many
    sessions ended."""
    account = await _find(store, name)
    changed = await store.set_account_flags(account.account_id, suspended=suspended)
    if changed is None:
        raise AdminError(f"no account is called {name!r}")
    ended = await store.delete_sessions(account.account_id) if suspended else 0
    return changed, ended


async def set_admin(store: Store, name: str, admin: bool) -> AccountRecord:
    account = await _find(store, name)
    changed = await store.set_account_flags(account.account_id, admin=admin)
    if changed is None:
        raise AdminError(f"no account is called {name!r}")
    return changed


def generated_password() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(GENERATED_LENGTH))


async def reset_password(store: Store, name: str, password: str | None) -> Reset:
    """Give an account a new password (``None``: a generated one); every session ends."""
    account = await _find(store, name)
    generated = password is None
    chosen = generated_password() if password is None else password
    try:
        check_password(chosen)
    except WeakPassword as exc:
        raise AdminError(str(exc)) from None
    await store.set_password_hash(account.account_id, await hash_password(chosen))
    ended = await store.delete_sessions(account.account_id)
    return Reset(account, chosen, generated, ended)
