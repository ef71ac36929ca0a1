"""Request ids and access logs (docs/server.md, "Logs"): each HTTP request gets an id, in
the ``X-Request-ID`` header of its answer and in its error body. With JSON logs, one line per
request says its method, path (tokens hidden), status, duration and, when refused, the error
code; with people's lines (uvicorn's access lines carry no id), each refused request (status
400 or more) gets one line of its own with all that, so that a player's report can be found."""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import log_context

access = logging.getLogger("oriflamme.access")

#: The code of an answer no error handler named (an unexpected error answered 500 outside
#: this middleware, a status set by hand).
UNNAMED = "-"


class RequestIds:
    """Give every HTTP request and WebSocket connection a request id (``log_context``); with
    ``access_log``, log each HTTP request once answered, else each refused one."""

    def __init__(self, app: ASGIApp, access_log: bool = False) -> None:
        self.app = app
        self.access_log = access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = log_context.begin()
        started, status = time.perf_counter(), 0

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                status = message["status"]
                headers = list(message.get("headers", ()))
                headers.append((b"x-request-id", rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            # Answered 500 by the app's last error handler, outside this middleware.
            if status == 0 and scope["type"] == "http":
                status = 500
                log_context.refused(log_context.refusal() or "internal_error")
            raise
        finally:
            self._log(scope, status, started)

    def _log(self, scope: Scope, status: int, started: float) -> None:
        method = scope.get("method", "GET")  # a WebSocket upgrade is a GET
        path = scope["path"]  # without the query string: no token
        code = log_context.refusal()
        if self.access_log and scope["type"] == "http":
            fields = {
                "event": "request",
                "method": method,
                "path": path,
                "status": status,
                "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            }
            if status >= 400:
                fields["code"] = code or UNNAMED
            access.info("%s %s %d", method, path, status, extra=fields)
        elif status >= 400:
            # The access line (uvicorn's in people's lines) has no id: this one has. At INFO, as
            # uvicorn's access lines: a failure's warning or error is the handler's, once per
            # period (an outage answers every request 503 and must not flood the warnings).
            access.info(
                "refused %s %s %d %s (request %s)",
                method, path, status, code or UNNAMED, log_context.REQUEST_ID.get(),
                extra={"event": "refusal", "method": method, "path": path, "status": status,
                       "code": code or UNNAMED},
            )
