"""The CSRF rule, server-wide (docs/server.md, "Accounts and sessions"): a state-changing request
(``POST``, ``PUT``, ``PATCH``, ``DELETE``, or a WebSocket upgrade) that carries the session
cookie is refused with ``403 csrf`` unless its ``X-CSRF-Token`` header is its session's token,
or its ``Origin`` header is this server's own origin. Requests without the cookie (guests and
their seat tokens) are not concerned, but for one thing: a sign-in or sign-up sent from another
origin is refused too (another site could otherwise sign a visitor into its own account).

``SameSite=Lax`` already keeps other sites' requests from carrying the cookie in today's
browsers; this rule holds where it does not (older browsers, sibling hosts of the same site).
"""

from __future__ import annotations

import hmac

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from ..limits import refuse
from .origins import same_origin
from .sessions import current_session, session_cookie

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
HEADER = "x-csrf-token"
#: Routes that sign a browser in: refused from another origin even without a cookie.
SIGN_IN_PREFIX = "/api/account/"
MESSAGE = "this request must come from this site's own pages (CSRF check failed): reload the page"


class CsrfGuard:
    """The rule, as ASGI middleware."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if (kind == "http" and scope["method"] in STATE_CHANGING) or kind == "websocket":
            connection = HTTPConnection(scope)
            if not await self._allowed(connection, kind == "websocket"):
                if kind == "http" or "websocket.http.response" in scope.get("extensions", {}):
                    await refuse(send, 403, "csrf", MESSAGE, prefix=kind)
                else:  # closed before it is accepted: the server answers 403 itself
                    await send({"type": "websocket.close", "code": 1008, "reason": "csrf"})
                return
        await self.app(scope, receive, send)

    async def _allowed(self, connection: HTTPConnection, websocket: bool) -> bool:
        if session_cookie(connection) is None:
            if connection.url.path.startswith(SIGN_IN_PREFIX) and "origin" in connection.headers:
                return same_origin(connection)
            return True
        if same_origin(connection):
            return True
        token = connection.headers.get(HEADER)
        if websocket or not token:
            return False
        found = await current_session(connection.app.state.manager.store, connection)
        return found is not None and hmac.compare_digest(found[0].csrf, token)
