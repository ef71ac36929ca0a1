"""Slow clients cannot take the server off the air (issue #26 item 4): a request's headers and
body have deadlines, and one address holds a bounded number of connections.

The server is real uvicorn serving the real app on a socket, with each of the two HTTP
protocols the server may use (httptools, h11), plus ``oriflamme serve`` with its command-line
options. The sockets here never say whether the server was fast: they wait (at most
``HANG_GUARD`` seconds, so that a broken server fails the test instead of hanging it) for the
server to answer and close. The speed is measured in benchmarks/server/slow_clients.py.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import connect as ws_connect

from oriflamme.server import SqliteStore, connections, create_app
from oriflamme.server.connections import ConnectionLimits, LimitedH11, LimitedHttp
from servers import free_port, running_server

#: Seconds a socket waits for the server before the test fails (the server answers in about
#: one second: its deadlines are set to 1 s here).
HANG_GUARD = 30.0
#: Addresses of other clients on loopback (127.0.0.1 is a trusted proxy by default).
SLOW, OTHER = "127.0.0.2", "127.0.0.3"


@contextlib.contextmanager
def uvicorn_server(
    tmp_path: Path, protocol: type[Any], limits: ConnectionLimits, body_timeout: float = 1.0
) -> Iterator[int]:
    """The app on uvicorn with ``protocol``, in a thread; yields its port."""
    app = create_app(
        SqliteStore(tmp_path / "games.sqlite3"), bot_delay=0, tune_gc=False,
        body_timeout=body_timeout,
    )
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, http=protocol, log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    previous = connections._limits
    connections._limits = limits
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        yield port
    finally:
        server.should_exit = True
        thread.join(HANG_GUARD)
        connections._limits = previous


def open_socket(port: int, source: str = SLOW) -> socket.socket:
    return socket.create_connection(
        ("127.0.0.1", port), timeout=HANG_GUARD, source_address=(source, 0)
    )


def until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (the hang guard fails)."""
    received = b""
    with sock:
        while chunk := sock.recv(65536):
            received += chunk
    return received


def error_of(answer: bytes) -> tuple[int, str]:
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(body)["error"]["code"]


PROTOCOLS = pytest.mark.parametrize("protocol", [LimitedHttp, LimitedH11], ids=["httptools", "h11"])


@PROTOCOLS
def test_slow_headers_and_bodies_are_cut_off(tmp_path: Path, protocol: type[Any]) -> None:
    with uvicorn_server(tmp_path, protocol, ConnectionLimits(header_timeout=1.0)) as port:
        silent = open_socket(port)
        partial = open_socket(port)
        partial.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        slow_body = open_socket(port)
        slow_body.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        huge = open_socket(port)
        huge.sendall(
            b"POST /api/tables/abc/join HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{"
        )
        # Meanwhile others are served.
        healthz = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=HANG_GUARD)
        assert healthz.status_code == 200
        assert error_of(until_closed(huge)) == (413, "too_large")  # at once: not read
        assert until_closed(silent) == b""  # nothing asked, nothing answered
        assert error_of(until_closed(partial)) == (408, "request_timeout")
        assert error_of(until_closed(slow_body)) == (408, "request_timeout")
        # A kept-alive connection: the second request's headers have their own deadline.
        kept = open_socket(port)
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        first = kept.recv(65536)
        assert first.startswith(b"HTTP/1.1 200"), first
        kept.sendall(b"GET /healthz HTTP/1.1\r\n")
        assert error_of(until_closed(kept)) == (408, "request_timeout")


@PROTOCOLS
def test_one_address_holds_a_bounded_number_of_connections(
    tmp_path: Path, protocol: type[Any]
) -> None:
    limits = ConnectionLimits(header_timeout=60.0, per_address=3)
    with uvicorn_server(tmp_path, protocol, limits) as port:
        url = f"http://127.0.0.1:{port}"
        table = httpx.post(
            f"{url}/api/tables",
            json={"players": 2, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot"}]},
            timeout=HANG_GUARD,
        ).json()
        token = table["seats"][0]["token"]
        held = [open_socket(port) for _ in range(2)]
        for sock in held:
            sock.sendall(b"GET /healthz HTTP/1.1\r\n")  # slow headers: each holds its place
        socket_url = f"ws://127.0.0.1:{port}/ws/{table['table_id']}?token={token}"
        with ws_connect(socket_url, source_address=(SLOW, 0), open_timeout=HANG_GUARD) as ws:
            assert json.loads(ws.recv(timeout=HANG_GUARD))["type"] == "view"
            # The WebSocket is the third: the fourth connection is refused at once.
            assert error_of(until_closed(open_socket(port))) == (429, "too_many_connections")
            with httpx.Client(
                base_url=url, transport=httpx.HTTPTransport(local_address=OTHER)
            ) as other:
                assert other.get("/healthz", timeout=HANG_GUARD).status_code == 200
            for _ in range(5):  # 127.0.0.1, a trusted proxy by default, is not counted
                assert httpx.get(f"{url}/healthz", timeout=HANG_GUARD).status_code == 200
        # The WebSocket closed: its place is free again (soon: the server notices the close).
        assert served_from(SLOW, url) == 200
        for sock in held:
            sock.close()


def served_from(address: str, url: str) -> int:
    """The status of GET /healthz from ``address`` once a connection is accepted."""
    deadline = time.monotonic() + HANG_GUARD
    while True:
        try:
            with httpx.Client(transport=httpx.HTTPTransport(local_address=address)) as client:
                return client.get(f"{url}/healthz", timeout=HANG_GUARD).status_code
        except httpx.TransportError:
            assert time.monotonic() < deadline, "no connection accepted"
            time.sleep(0.05)


def test_the_serve_options_set_the_limits(tmp_path: Path) -> None:
    options = ("--header-timeout", "3", "--body-timeout", "3", "--connections-per-address", "2")
    with running_server(tmp_path / "games.sqlite3", tmp_path / "serve.log", *options) as (
        _,
        client,
    ):
        port = int(str(client.base_url).rsplit(":", 1)[1].rstrip("/"))
        partial = open_socket(port)
        partial.sendall(b"GET /healthz HTTP/1.1\r\n")
        slow_body = open_socket(port)
        slow_body.sendall(b"POST /api/tables HTTP/1.1\r\nContent-Length: 9\r\n\r\n{")
        refused = until_closed(open_socket(port))
        assert error_of(refused) == (429, "too_many_connections")
        assert error_of(until_closed(partial)) == (408, "request_timeout")
        assert error_of(until_closed(slow_body)) == (408, "request_timeout")
        assert client.get("/healthz").status_code == 200
