"""Who is signed in: the FastAPI dependencies :func:`signed_in` (the account, or None for a
guest) and :func:`require_account` (``401 signed_out`` for a guest), and the check
:func:`ensure_active` for what a suspended account may not do."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request, Response

from ..addresses import client_key, origin_digest
from ..errors import ApiError, too_many_requests
from ..protocol import ErrorBody
from ..storage import AccountRecord, Store
from ..throttle import BucketsByKey
from .sessions import current_session, renew_if_due


def store_of(request: Request) -> Store:
    """This server's store (the table manager's; read here, not through ``deps``, which
    re-exports these dependencies)."""
    store: Store = request.app.state.manager.store
    return store


def address_of(request: Request) -> str:
    """A digest of the client's address (as ``deps.origin_of``, which imports this module)."""
    return origin_digest(request.client.host if request.client else "?")


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of a route's error answers (as ``deps.error_answers``)."""
    return {status: {"model": ErrorBody} for status in statuses}


def posts_limited(rate: float, burst: float) -> Callable[[Request], Awaitable[None]]:
    """A dependency that refuses (``429 too_many_requests``) the POSTs of an address beyond
    ``rate`` a second (bursts of ``burst``), as the tables' routes do: a sign-up or sign-in
    costs an argon2 hash."""
    by_ip = BucketsByKey(rate, burst)

    async def throttle(request: Request) -> None:
        host = request.client.host if request.client else "?"
        if request.method == "POST" and not by_ip.take(client_key(host)):
            raise too_many_requests()

    return throttle


def signed_out() -> ApiError:
    return ApiError(401, "signed_out", "sign in first (this needs an account)")


def suspended() -> ApiError:
    return ApiError(
        403, "account_suspended", "this account is suspended: ask the server's administrator"
    )


async def signed_in(request: Request, response: Response) -> AccountRecord | None:
    """The account whose unexpired session the request's cookie names; None for a guest, an
    expired or unknown session, or a suspended account. Renews a session that is due."""
    store = store_of(request)
    found = await current_session(store, request)
    if found is None:
        return None
    session, account = found
    if account.suspended:
        return None
    await renew_if_due(store, response, request, session)
    return account


async def require_account(request: Request, response: Response) -> AccountRecord:
    """The signed-in account; ``401 signed_out`` for anyone else."""
    account = await signed_in(request, response)
    if account is None:
        raise signed_out()
    return account


def ensure_active(account: AccountRecord) -> None:
    """Refuse (``403 account_suspended``) what a suspended account may not do: sign in, join
    or create a table."""
    if account.suspended:
        raise suspended()
