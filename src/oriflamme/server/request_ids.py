"""Request ids and access logs (docs/server.md, "Logs"): each HTTP request gets an id, in
the ``X-Request-ID`` header of its answer and in its error body; with JSON logs, one line per
request says its method, path (tokens hidden), status and duration."""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import log_context

access = logging.getLogger("oriflamme.access")


class RequestIds:
    """Give every HTTP request and WebSocket connection a request id (``log_context``); with
    ``access_log``, log each HTTP request once answered."""

    def __init__(self, app: ASGIApp, access_log: bool = False) -> None:
        self.app = app
        self.access_log = access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = log_context.begin()
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        started, status = time.perf_counter(), 0

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", ()))
                headers.append((b"x-request-id", rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if self.access_log:
                access.info(
                    "%s %s %d", scope["method"], scope["path"], status,
                    extra={
                        "event": "request",
                        "method": scope["method"],
                        "path": scope["path"],
                        "status": status,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                    },
                )
