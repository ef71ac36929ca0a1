"""Sessions: a signed-in browser holds a random session id in a cookie; the server stores only
its SHA-256 digest (``sessions`` rows: any server process recognises it, and a stolen copy of
the database signs nobody in).

The cookie is ``HttpOnly`` (no script reads it), ``SameSite=Lax`` (other sites' forms and
scripts do not send it), ``Path=/``; over HTTPS (or behind a trusted proxy that says so) it is
``Secure`` and named with the ``__Host-`` prefix (no subdomain can set or shadow it). Every
sign-in makes a new id (no fixation). A session lives :data:`LIFETIME` seconds from its last
renewal; a request of a session older than :data:`RENEW_AFTER` renews it (sliding expiry).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import cast

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ..storage import AccountRecord, SessionRecord, Store
from .origins import secure

COOKIE = "oriflamme_session"
SECURE_COOKIE = "__Host-oriflamme_session"
LIFETIME = 30 * 24 * 3600.0
RENEW_AFTER = 24 * 3600.0
#: What a session keeps of the browser's ``User-Agent`` (shown in the list of sessions).
AGENT_CHARS = 200
_UNKNOWN = object()


def digest(secret: str) -> str:
    """What the database keeps of a session id (or of a ceremony id)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def cookie_name(connection: HTTPConnection) -> str:
    return SECURE_COOKIE if secure(connection) else COOKIE


def session_cookie(connection: HTTPConnection) -> str | None:
    """The session id the request's cookie carries (only the cookie of its scheme: a plain
    cookie over HTTPS could have been set by another host)."""
    value = connection.cookies.get(cookie_name(connection))
    return value if value and len(value) <= 128 else None


def set_session_cookie(response: Response, connection: HTTPConnection, secret: str) -> None:
    response.set_cookie(
        cookie_name(connection),
        secret,
        max_age=int(LIFETIME),
        path="/",
        secure=secure(connection),
        httponly=True,
        samesite="lax",
    )


def clear_session_cookie(response: Response, connection: HTTPConnection) -> None:
    response.delete_cookie(
        cookie_name(connection), path="/", secure=secure(connection), httponly=True,
        samesite="lax",
    )


async def start_session(
    store: Store, response: Response, connection: HTTPConnection, account: AccountRecord
) -> SessionRecord:
    """Sign ``account`` in: a new session (a new id, whatever the browser held before), its
    cookie set on ``response``. The session the browser held, if any, ends."""
    old = session_cookie(connection)
    if old is not None:
        await store.delete_session(digest(old))
    secret = secrets.token_urlsafe(32)
    agent = connection.headers.get("user-agent", "")[:AGENT_CHARS]
    session = await store.create_session(
        digest(secret), account.account_id, secrets.token_urlsafe(32), LIFETIME, agent
    )
    set_session_cookie(response, connection, secret)
    connection.state.session = (session, account)
    return session


async def current_session(
    store: Store, connection: HTTPConnection
) -> tuple[SessionRecord, AccountRecord] | None:
    """The unexpired session the request's cookie names, and its account (looked up once per
    request)."""
    known = getattr(connection.state, "session", _UNKNOWN)
    if known is not _UNKNOWN:
        return cast("tuple[SessionRecord, AccountRecord] | None", known)
    secret = session_cookie(connection)
    found = None if secret is None else await store.session(digest(secret))
    connection.state.session = found
    return found


async def renew_if_due(
    store: Store, response: Response, connection: HTTPConnection, session: SessionRecord
) -> None:
    """Extend a session last renewed more than :data:`RENEW_AFTER` ago, and its cookie."""
    if time.time() - session.seen < RENEW_AFTER:
        return
    secret = session_cookie(connection)
    if secret is not None and await store.renew_session(session.id_hash, LIFETIME):
        set_session_cookie(response, connection, secret)
