"""A server whose PostgreSQL database is lost (cut by a proxy, for real): what its clients get
and what its log says (issue #33, items 5 and 6)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from oriflamme.server import create_app
from oriflamme.server.errors import QuietLog
from oriflamme.server.ws import TRY_AGAIN_LATER
from servers import Proxy, proxied

SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.fixture
def cut_off(pg_url: str) -> Iterator[tuple[Proxy, TestClient, TestClient]]:
    """A server that reaches the database through a proxy (to cut), and one that reaches it
    directly."""
    with (
        proxied(pg_url) as (proxy, through),
        TestClient(create_app(through, bot_delay=0, tune_gc=False)) as client,
        TestClient(create_app(pg_url, bot_delay=0, tune_gc=False)) as other,
    ):
        yield proxy, client, other


def _logged(caplog: pytest.LogCaptureFixture, *texts: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if any(t in r.getMessage() for t in texts)]


def test_an_outage_is_one_log_line_per_period_not_one_per_request(
    cut_off: tuple[Proxy, TestClient, TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    """Item 5: every request answered 503 while the database is away logged a warning (349 in
    30 s on one process under a light load); now one line per 10 s says so."""
    proxy, client, other = cut_off
    table: dict[str, Any] = other.post("/api/tables", json={"players": 2, "seats": SEATS}).json()
    assert client.get("/healthz").status_code == 200
    proxy.cut()
    with caplog.at_level(logging.WARNING, logger="oriflamme.server"):
        answers = [client.get("/healthz") for _ in range(30)]
        answers += [client.get(f"/api/tables/{table['table_id']}") for _ in range(30)]
    assert {a.status_code for a in answers} == {503}
    assert {a.json()["error"]["code"] for a in answers} == {"database_unavailable"}
    assert len(_logged(caplog, "/healthz", "/api/tables")) == 1
    assert not [r for r in caplog.records if r.exc_info]


def test_repeated_failures_are_counted_in_the_next_line(caplog: pytest.LogCaptureFixture) -> None:
    quiet = QuietLog(logging.getLogger("oriflamme.test"), every=0.2)
    with caplog.at_level(logging.WARNING, logger="oriflamme.test"):
        for i in range(5):
            quiet.warning("db", "request %d failed", i)
        time.sleep(0.25)
        quiet.warning("db", "request %d failed", 5)
        quiet.warning("elsewhere", "another place")
    assert [r.getMessage() for r in caplog.records] == [
        "request 0 failed",
        "request 5 failed (4 more like it not logged)",
        "another place",
    ]


def test_a_websocket_opened_during_an_outage_is_told_to_try_again_later(
    cut_off: tuple[Proxy, TestClient, TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    """Item 6: a WebSocket for a table the server does not hold, opened while its database is
    away, got no answer (the socket dropped, a traceback logged per attempt). It gets the
    documented error, then the close code "try again later"; the log says it once."""
    proxy, client, other = cut_off
    table: dict[str, Any] = other.post("/api/tables", json={"players": 2, "seats": SEATS}).json()
    path = f"/ws/{table['table_id']}?token={table['seats'][0]['token']}"
    proxy.cut()
    with caplog.at_level(logging.INFO, logger="oriflamme.server"):
        for _ in range(5):
            with client.websocket_connect(path) as ws:
                error = ws.receive_json()
                assert error["type"] == "error" and error["code"] == "database_unavailable"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_text()
                assert closed.value.code == TRY_AGAIN_LATER == 1013
    assert not [r for r in caplog.records if r.exc_info]
    assert len(_logged(caplog, "connection refused")) == 1
    # The database back, the same link connects and follows the game.
    proxy.restore()
    deadline = time.monotonic() + 30
    while client.get("/healthz").status_code != 200:
        assert time.monotonic() < deadline, "the server did not recover"
        time.sleep(0.2)
    with client.websocket_connect(path) as ws:
        first = ws.receive_json()
        assert first["type"] == "view" and first["view"]["you"] == 0
