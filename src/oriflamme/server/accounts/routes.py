"""The accounts' HTTP API (docs/server.md, "Accounts and sessions"):

- ``POST /api/account/signup``, ``/signin``, ``/signout``; ``GET /api/account`` (``401
  signed_out`` for a guest) and ``GET /api/account/session`` (``{"account": null}`` for one);
- ``GET /api/account/sessions``, ``POST /api/account/sessions/revoke``;
- ``POST /api/account/password``, ``/delete``; ``GET /api/account/export``.

Passkeys are in :mod:`.passkey_routes`. The routes only translate; the work is in the modules
of this package.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from ..errors import ApiError
from ..storage import AccountNameTaken, AccountRecord, SessionRecord, Store
from .current import (
    address_of,
    answers,
    ensure_active,
    require_account,
    signed_in,
    store_of,
)
from .export import account_export
from .models import (
    DELETED_PLAYER,
    AccountOut,
    ChangePasswordRequest,
    DeleteAccountRequest,
    Done,
    RevokeRequest,
    SessionOut,
    SessionsOut,
    SignedInOut,
    SignInRequest,
    SignOutRequest,
    SignUpRequest,
)
from .passwords import WeakPassword, check_password, hash_password, needs_rehash, verify_password
from .sessions import (
    clear_session_cookie,
    current_session,
    digest,
    session_cookie,
    start_session,
)
from .throttle import SignInLimits, check_sign_in, sign_in_failed, sign_in_succeeded

AccountDep = Annotated[AccountRecord, Depends(require_account)]


def bad_credentials() -> ApiError:
    return ApiError(401, "bad_credentials", "wrong name or password")


def weak(exc: WeakPassword, field: str = "password") -> ApiError:
    return ApiError(422, exc.code, f"{field}: {exc}")


def account_out(account: AccountRecord, session: SessionRecord) -> AccountOut:
    return AccountOut(
        id=account.account_id, name=account.name, created=account.created,
        admin=account.admin, csrf=session.csrf,
    )


def limits_of(request: Request) -> SignInLimits:
    limits: SignInLimits = getattr(request.app.state, "sign_in_limits", SignInLimits())
    return limits


async def this_session(store: Store, request: Request) -> SessionRecord:
    found = await current_session(store, request)
    if found is None:
        raise ApiError(401, "signed_out", "sign in first (this needs an account)")
    return found[0]


async def check_own_password(store: Store, account: AccountRecord, password: str) -> None:
    """Refuse (``403 bad_password``) a password that is not the account's."""
    if not await verify_password(await store.password_hash(account.account_id), password):
        raise ApiError(403, "bad_password", "this is not the account's password")


def accounts_router(limit: Callable[[Request], Awaitable[None]]) -> APIRouter:
    """The routes; ``limit`` throttles their POSTs per address (shared by the accounts'
    routers: ``current.posts_limited``)."""
    router = APIRouter(prefix="/api/account", tags=["accounts"], dependencies=[Depends(limit)])

    @router.post(
        "/signup", status_code=201, response_model=AccountOut,
        responses=answers(403, 409, 422),
    )
    async def sign_up(body: SignUpRequest, request: Request, response: Response) -> AccountOut:
        """Create an account and sign in (a session cookie)."""
        try:
            check_password(body.password)
        except WeakPassword as exc:
            raise weak(exc) from None
        store = store_of(request)
        if await store.account_by_name(body.name) is not None:
            raise name_taken(body.name)
        password_hash = await hash_password(body.password)
        try:
            account = await store.create_account(
                secrets.token_urlsafe(12), body.name, password_hash
            )
        except AccountNameTaken:  # another request was first
            raise name_taken(body.name) from None
        session = await start_session(store, response, request, account)
        return account_out(account, session)

    @router.post("/signin", response_model=AccountOut, responses=answers(401, 403, 429))
    async def sign_in(body: SignInRequest, request: Request, response: Response) -> AccountOut:
        """Sign in with a name and password (a new session cookie)."""
        store, limits, origin = store_of(request), limits_of(request), address_of(request)
        await check_sign_in(store, limits, body.name, origin)
        account = await store.account_by_name(body.name)
        stored = None if account is None else await store.password_hash(account.account_id)
        # The same work for a name without an account: a dummy hash is checked.
        if not await verify_password(stored, body.password) or account is None:
            await sign_in_failed(store, limits, body.name, origin)
            raise bad_credentials()
        ensure_active(account)
        await sign_in_succeeded(store, body.name)
        if stored is not None and needs_rehash(stored):
            await store.set_password_hash(account.account_id, await hash_password(body.password))
        session = await start_session(store, response, request, account)
        return account_out(account, session)

    @router.post("/signout", response_model=Done)
    async def sign_out(request: Request, body: SignOutRequest | None = None) -> JSONResponse:
        """End this browser's session (``everywhere``: every session of the account)."""
        store = store_of(request)
        ended = 0
        found = await current_session(store, request)
        if found is not None and body is not None and body.everywhere:
            ended = await store.delete_sessions(found[1].account_id)
        elif (secret := session_cookie(request)) is not None:
            ended = int(await store.delete_session(digest(secret)))
        answer = JSONResponse(Done(count=ended).model_dump())
        clear_session_cookie(answer, request)
        return answer

    @router.get("", response_model=AccountOut, responses=answers(401))
    async def whoami(request: Request, account: AccountDep) -> AccountOut:
        """The signed-in account and its CSRF token; ``401 signed_out`` for a guest."""
        store = store_of(request)
        session = await this_session(store, request)
        out = account_out(account, session)
        out.has_password = await store.password_hash(account.account_id) is not None
        return out

    @router.get("/session", response_model=SignedInOut)
    async def session_state(request: Request, response: Response) -> SignedInOut:
        """The signed-in account, or ``null`` for a guest (for pages: always 200)."""
        account = await signed_in(request, response)
        if account is None:
            return SignedInOut(account=None)
        return SignedInOut(account=await whoami(request, account))

    @router.get("/sessions", response_model=SessionsOut, responses=answers(401))
    async def sessions(request: Request, account: AccountDep) -> SessionsOut:
        """The account's active sessions, the most recently used first."""
        store = store_of(request)
        mine = await this_session(store, request)
        return SessionsOut(sessions=[
            SessionOut(
                id=s.public_id, created=s.created, seen=s.seen, expires=s.expires,
                agent=s.agent, current=s.id_hash == mine.id_hash,
            )
            for s in await store.account_sessions(account.account_id)
        ])

    @router.post("/sessions/revoke", response_model=Done, responses=answers(401, 404, 422))
    async def revoke(body: RevokeRequest, request: Request, account: AccountDep) -> Done:
        """End one session of the account (``session``), or every other (``others``)."""
        store = store_of(request)
        mine = await this_session(store, request)
        if body.others == (body.session is not None):
            raise ApiError(422, "invalid_request", "give either 'session' or 'others': true")
        if body.others:
            count = await store.delete_sessions(account.account_id, keep=mine.id_hash)
        else:
            count = await store.delete_sessions(account.account_id, public_id=body.session)
            if not count:
                raise ApiError(404, "unknown_session", "the account has no such session")
        return Done(count=count)

    @router.post("/password", response_model=Done, responses=answers(401, 403, 422))
    async def change_password(
        body: ChangePasswordRequest, request: Request, account: AccountDep
    ) -> Done:
        """Change the password; every other session of the account ends."""
        try:
            check_password(body.new)
        except WeakPassword as exc:
            raise weak(exc, "new") from None
        store = store_of(request)
        mine = await this_session(store, request)
        await check_own_password(store, account, body.current)
        await store.set_password_hash(account.account_id, await hash_password(body.new))
        count = await store.delete_sessions(account.account_id, keep=mine.id_hash)
        return Done(count=count)

    @router.post("/delete", response_model=Done, responses=answers(401, 403, 422))
    async def delete(body: DeleteAccountRequest, request: Request, account: AccountDep) -> Any:
        """Delete the account: its sessions and passkeys go; its seats in stored games stay,
        called "deleted player" (replays stay valid)."""
        store = store_of(request)
        await check_own_password(store, account, body.password)
        renamed = await store.delete_account(account.account_id, DELETED_PLAYER) or []
        registry = request.app.state.manager.registry
        for table_id in renamed:  # this server's copies (storage tells the other servers)
            table = registry.cached(table_id)
            if table is not None:
                await registry.refresh(table)
        answer = JSONResponse(Done().model_dump())
        clear_session_cookie(answer, request)
        return answer

    @router.get("/export", responses=answers(401))
    async def export(request: Request, account: AccountDep) -> JSONResponse:
        """Everything the server keeps about the account, as JSON: its profile, sessions,
        passkeys, ratings and its finished games as replay records."""
        data = await account_export(request.app.state.manager, account)
        return JSONResponse(data, headers={
            "Content-Disposition": 'attachment; filename="oriflamme-account.json"',
            "Cache-Control": "no-store",
        })

    return router


def name_taken(name: str) -> ApiError:
    return ApiError(409, "name_taken", f"an account is already called {name!r} (or alike)")
