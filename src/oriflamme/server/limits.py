"""Pure ASGI middleware: bounds on request bodies (size, JSON nesting), and security headers
on every response."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import metrics
from .errors import error_body

MAX_BODY = 16 * 1024  #: bytes of one HTTP request body
MAX_SAVE_BODY = 128 * 1024  #: bytes of a table's creation, which may carry a whole saved game
#: Seconds a request's body may take to arrive, from its headers on (128 KiB on a slow phone
#: line takes a few seconds; a client sending one byte now and then holds a connection).
BODY_TIMEOUT = 30.0
#: Levels of nesting of a JSON body or message (a saved game needs 6; decoders and validators
#: recurse, so deeper documents are refused before anything parses them).
MAX_DEPTH = 32
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def json_depth(data: bytes) -> int:
    """How deeply the JSON text ``data`` nests arrays and objects (brackets inside strings do
    not count; malformed text is measured as well as it can be, without recursion)."""
    brackets = _STRING.sub(b'""', data).translate(None, _NOT_BRACKETS)
    depth = deepest = 0
    for bracket in brackets:
        if bracket in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest

#: The pages' Content-Security-Policy: scripts, styles, images and connections (HTTP and the
#: WebSocket) from this server only; no inline script or style, no plugin, no framing.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"referrer-policy", b"no-referrer"),  # page URLs carry tokens
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
)


class BodyLimit:
    """Answer 413 ``too_large`` to a request whose body exceeds ``limit`` bytes (or the limit
    that ``larger`` gives its path), 408 ``request_timeout`` to one whose body takes more than
    ``timeout`` seconds to arrive (0: no deadline), and 400 ``bad_json`` to one nested deeper
    than :data:`MAX_DEPTH`. Refused requests close their connection.

    The body is read whole (it is small) before the app runs, then handed on.
    """

    def __init__(
        self,
        app: ASGIApp,
        limit: int = MAX_BODY,
        larger: Mapping[str, int] | None = None,
        timeout: float = BODY_TIMEOUT,
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger or {})
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope["path"], self.limit)
        too_large = f"a request body is at most {limit} bytes"
        if _declared_length(scope) > limit:  # refused before a byte of it is read
            await refuse(send, 413, "too_large", too_large, close=True)
            return
        body = bytearray()
        try:
            async with asyncio.timeout(self.timeout or None):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client left
                    body += message.get("body", b"")
                    if len(body) > limit:
                        await refuse(send, 413, "too_large", too_large, close=True)
                        return
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await refuse(
                send,
                408,
                "request_timeout",
                f"a request's body must arrive within {self.timeout:g} s",
                close=True,
            )
            return
        if json_depth(bytes(body)) > MAX_DEPTH:
            await refuse(
                send, 400, "bad_json", f"a JSON body is nested at most {MAX_DEPTH} levels deep"
            )
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)


def _declared_length(scope: Scope) -> int:
    """The body's length its ``content-length`` header announces (0 if none or unreadable)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 0
    return 0


async def refuse(
    send: Send, status: int, code: str, message: str, close: bool = False, prefix: str = "http"
) -> None:
    """Answer the error; with ``close``, close the connection too (the rest of the request's
    body is not read). ``prefix="websocket"``: the answer to a WebSocket upgrade, refused."""
    metrics.rejected(code)
    body = json.dumps(error_body(code, message)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    kind = "websocket.http.response" if prefix == "websocket" else "http.response"
    await send({"type": f"{kind}.start", "status": status, "headers": headers})
    await send({"type": f"{kind}.body", "body": body})


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)
