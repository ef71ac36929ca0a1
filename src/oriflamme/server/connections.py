"""Slow and greedy clients, at the connection level of the built-in server (uvicorn).

Uvicorn waits forever for the headers of a request and lets one address open as many
connections as the system allows: a few thousand sockets that send a request slowly (or nothing)
take the server off the air for everyone. ``oriflamme serve`` therefore runs uvicorn's HTTP
protocol with two limits (docs/server.md, "Limits and abuse"):

- **a deadline for a request's headers**: from the connection's start, or from the first byte of
  a request on a kept-alive connection, the headers must be complete within ``header_timeout``
  seconds; otherwise the server answers ``408 request_timeout`` (if part of a request came) and
  closes the connection. (A request's body has its own deadline, checked by the app:
  ``limits.BodyLimit``.)
- **at most ``per_address`` connections open at once per address** (an IPv6 /64 counting as
  one, :mod:`.addresses`), HTTP and WebSocket alike: the next one is answered ``429
  too_many_connections`` and closed at once. Connections from a trusted proxy
  (``FORWARDED_ALLOW_IPS``, which uvicorn trusts for ``X-Forwarded-For``) are not counted: the
  proxy sees the clients, and limits them (docs/server.md, "Deploying").

The limits come from the environment (``serve`` sets it for its worker processes):
``ORIFLAMME_HEADER_TIMEOUT`` and ``ORIFLAMME_CONNECTIONS_PER_ADDRESS`` (0: no limit). Each server
process counts its own connections.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import log_context, metrics
from .addresses import Networks, client_key

log = logging.getLogger("oriflamme.server")

#: Seconds a request's headers may take to arrive (nginx's default is 60 s; a browser sends them
#: at once).
HEADER_TIMEOUT = 10.0
#: Connections one address may hold open at once: a household's or a school's browsers (each
#: opens up to 6 connections to a server, plus one WebSocket per open game page).
CONNECTIONS_PER_ADDRESS = 100
HEADER_TIMEOUT_ENV = "ORIFLAMME_HEADER_TIMEOUT"
PER_ADDRESS_ENV = "ORIFLAMME_CONNECTIONS_PER_ADDRESS"
#: Seconds between two log lines about refused connections.
LOG_EVERY = 60.0


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """The limits of one server process (0: none)."""

    header_timeout: float = HEADER_TIMEOUT
    per_address: int = CONNECTIONS_PER_ADDRESS

    @classmethod
    def from_environment(cls) -> ConnectionLimits:
        return cls(
            header_timeout=float(os.environ.get(HEADER_TIMEOUT_ENV, HEADER_TIMEOUT)),
            per_address=int(os.environ.get(PER_ADDRESS_ENV, CONNECTIONS_PER_ADDRESS)),
        )


def refusal(status: int, reason: str, code: str, message: str) -> bytes:
    """A whole HTTP response with the API's error body, after which the connection closes."""
    metrics.rejected(code)
    request_id = log_context.new_request_id()
    body = json.dumps({"error": {"code": code, "message": message, "request_id": request_id}})
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nx-request-id: {request_id}\r\n"
        "connection: close\r\n\r\n"
    )
    log.info("refused a connection: %s (request %s)", code, request_id)
    return head.encode() + body.encode()


class Census:
    """The connections open per address in this process, and the refusals not yet logged."""

    def __init__(self) -> None:
        self.open: dict[str, int] = {}
        self.refused = 0
        self._logged = -LOG_EVERY

    def enter(self, key: str, limit: int) -> bool:
        """Count one more connection of ``key`` unless it holds ``limit`` already."""
        if limit and self.open.get(key, 0) >= limit:
            self.refused += 1
            now = time.monotonic()
            if now - self._logged >= LOG_EVERY:
                log.warning(
                    "refused %d connections over the limit of %d per address",
                    self.refused,
                    limit,
                )
                self._logged, self.refused = now, 0
            return False
        self.open[key] = self.open.get(key, 0) + 1
        return True

    def leave(self, key: str) -> None:
        left = self.open.get(key, 0) - 1
        if left > 0:
            self.open[key] = left
        else:
            self.open.pop(key, None)


#: This process's connections (one event loop serves them all).
CENSUS = Census()
_limits: ConnectionLimits | None = None


def current_limits() -> ConnectionLimits:
    """The limits of this process, read from the environment once."""
    global _limits
    if _limits is None:
        _limits = ConnectionLimits.from_environment()
    return _limits


@functools.lru_cache(maxsize=4)
def _networks(spec: str) -> Networks:
    return Networks(spec)


class LimitedConnection:
    """What the limits add to one of uvicorn's HTTP protocols (a mixin: it comes before the
    protocol's class). Uvicorn's internals it relies on: ``transport``, ``client``, ``app``,
    ``config``, ``loop``, and ``handle_websocket_upgrade`` switching the transport to a new
    protocol."""

    transport: asyncio.Transport
    client: tuple[str, int] | None
    app: Callable[..., Any]
    config: Any
    loop: asyncio.AbstractEventLoop

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._limits = current_limits()
        self._counted: str | None = None  #: the key this connection is counted under
        self._refused = False
        self._header_timer: asyncio.TimerHandle | None = None
        self._awaiting_headers = True  #: between requests: the next bytes start one
        self._partial = False  #: bytes of a request arrived since it started
        inner = self.app

        async def app(scope: Any, receive: Any, send: Any) -> None:
            self._headers_done()  # uvicorn calls the app once a request's headers are in
            await inner(scope, receive, send)

        self.app = app

    # -- the per-address cap ---------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        host = self.client[0] if self.client else ""
        if host and self._limits.per_address and not self._trusted(host):
            key = client_key(host)
            if not CENSUS.enter(key, self._limits.per_address):
                self._refused = True
                self.transport.write(
                    refusal(
                        429,
                        "Too Many Requests",
                        "too_many_connections",
                        f"at most {self._limits.per_address} connections at once per address",
                    )
                )
                self.transport.close()
                return
            self._counted = key
        self._start_header_timer()

    def _trusted(self, host: str) -> bool:
        """Whether ``host`` is a proxy this server trusts for the clients' addresses."""
        if not getattr(self.config, "proxy_headers", False):
            return False
        spec = self.config.forwarded_allow_ips or ""
        return host in _networks(spec if isinstance(spec, str) else ",".join(spec))

    def _release(self) -> None:
        if self._counted is not None:
            CENSUS.leave(self._counted)
            self._counted = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        self._release()
        super().connection_lost(exc)  # type: ignore[misc]

    # -- the headers' deadline -------------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._awaiting_headers:
            self._partial = True
            if self._header_timer is None:
                self._start_header_timer()
        super().data_received(data)  # type: ignore[misc]

    def _start_header_timer(self) -> None:
        if self._limits.header_timeout > 0 and self._header_timer is None:
            self._header_timer = self.loop.call_later(
                self._limits.header_timeout, self._headers_late
            )

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_done(self) -> None:
        self._stop_header_timer()
        self._awaiting_headers = False
        self._partial = False

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self._partial:
            self.transport.write(
                refusal(
                    408,
                    "Request Timeout",
                    "request_timeout",
                    f"a request's headers must arrive within {self._limits.header_timeout:g} s",
                )
            )
        self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        # The next request's first byte starts its deadline; until then uvicorn's keep-alive
        # timeout closes an idle connection.
        self._awaiting_headers = True
        self._partial = False

    def handle_websocket_upgrade(self, *args: Any) -> None:
        self._headers_done()
        super().handle_websocket_upgrade(*args)  # type: ignore[misc]
        upgraded: Any = self.transport.get_protocol()
        if upgraded is self or self._counted is None:
            return
        # The WebSocket's protocol now owns the connection: it must still leave the census.
        lost = upgraded.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            self._release()
            lost(exc)

        upgraded.connection_lost = connection_lost


def _protocols() -> tuple[type[Any], type[Any]]:
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class LimitedH11(LimitedConnection, H11Protocol):
        """Uvicorn's h11 protocol with the limits."""

    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # httptools is not installed: h11 serves
        return LimitedH11, LimitedH11

    class LimitedHttpTools(LimitedConnection, HttpToolsProtocol):
        """Uvicorn's httptools protocol with the limits."""

    return LimitedHttpTools, LimitedH11


#: The protocol ``serve`` gives uvicorn (``http=``): httptools' if installed (uvicorn's own
#: choice), else h11's; and h11's, for tests of both.
LimitedHttp, LimitedH11 = _protocols()
#: How uvicorn imports it in each worker process.
HTTP_PROTOCOL = f"{__name__}:LimitedHttp"
