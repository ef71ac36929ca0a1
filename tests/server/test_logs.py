"""#32 section 4: ``oriflamme serve --log-format json`` writes one JSON object per line, with
the request id that every answer and refusal carries, and never a token."""

from __future__ import annotations

import json
import logging
import re
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from oriflamme.server import create_app, errors, log_context, ws_refusals
from oriflamme.server.log_format import AnsweredErrors, JsonLines
from oriflamme.server.manager import TableManager
from servers import running_server
from test_scale_out import create, post, view

REQUEST_ID = re.compile(r"[0-9a-f]{12}")


def lines(log: Path) -> list[dict[str, Any]]:
    """The log's lines, each checked to be a JSON object with the fields every line has."""
    entries = []
    for line in log.read_text().splitlines():
        entry = json.loads(line)
        assert {"time", "level", "process", "logger", "event", "message"} <= entry.keys(), entry
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", entry["time"])
        entries.append(entry)
    return entries


def refused_move(client: Any, table: dict[str, Any], tokens: list[str]) -> dict[str, Any]:
    """A move sent over the WebSocket of the seat whose turn it is not: the error the client
    received (with its request id), and the seat that sent it."""
    mover = 0 if view(client, table, tokens[0])["legal"] else 1
    wrong = view(client, table, tokens[mover])["legal"][0]["action"]
    base = str(client.base_url).replace("http://", "ws://")
    with connect(f"{base}/ws/{table['table_id']}?token={tokens[1 - mover]}") as ws:
        ws.send(json.dumps({"type": "act", "action": wrong}))
        while (message := json.loads(ws.recv(timeout=10)))["type"] != "error":
            pass
    assert REQUEST_ID.fullmatch(message["request_id"]), message
    return {**message, "seat": 1 - mover}


def test_json_lines_carry_request_ids_and_no_token(tmp_path: Path) -> None:
    db, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    with running_server(db, log, "--bot-delay", "0", "--log-format", "json") as (_, client):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        table = create(client, seats, seed=4)
        secrets = [seat["token"] for seat in table["seats"]]
        secrets += [table["creator_token"], table["spectator_token"]]
        tokens = secrets[:2]
        mover = 0 if view(client, table, tokens[0])["legal"] else 1
        # A move out of turn: refused, its id in the answer's header and body.
        wrong = view(client, table, tokens[mover])["legal"][0]["action"]
        refused = post(client, f"/api/tables/{table['table_id']}/actions",
                       {"token": tokens[1 - mover], "action": wrong})
        assert refused.status_code == 403, refused.text
        refused_id = refused.json()["error"]["request_id"]
        assert refused.headers["x-request-id"] == refused_id and REQUEST_ID.fullmatch(refused_id)
        # Every answer has an id, a fresh one each time.
        ok = client.get(f"/api/tables/{table['table_id']}/view", params={"token": tokens[0]})
        assert ok.status_code == 200 and ok.headers["x-request-id"] != refused_id
        # Over the WebSocket (the token in its address): a refused message has its id too.
        base = str(client.base_url).replace("http://", "ws://")
        with connect(f"{base}/ws/{table['table_id']}?token={tokens[0]}") as ws:
            ws.send(json.dumps({"type": "nonsense"}))
            while (message := json.loads(ws.recv(timeout=10)))["type"] != "error":
                pass
            assert message["code"] == "unknown_type"
            assert REQUEST_ID.fullmatch(message["request_id"])
        client.get("/t/" + table["table_id"], params={"seat": tokens[1]})  # a page's seat link
        move = refused_move(client, table, tokens)
    text = log.read_text()
    for secret in secrets:
        assert secret not in text
    entries = lines(log)
    requests = [entry for entry in entries if entry["event"] == "request"]
    refusal = [entry for entry in requests if entry.get("request_id") == refused_id]
    assert len(refusal) == 1, requests
    assert refusal[0]["status"] == 403 and refusal[0]["method"] == "POST"
    assert refusal[0]["path"] == f"/api/tables/{table['table_id']}/actions"
    assert refusal[0]["table"] == table["table_id"] and refusal[0]["duration_ms"] >= 0
    assert refusal[0]["code"] == refused.json()["error"]["code"]  # what refused it
    # A move refused over the WebSocket: one line with its code and the id the client got.
    ws_lines = [entry for entry in entries if entry.get("request_id") == move["request_id"]]
    assert len(ws_lines) == 1, entries
    assert ws_lines[0]["event"] == "refusal" and ws_lines[0]["level"] == "info"
    assert ws_lines[0]["code"] == move["code"] == "not_your_turn"
    assert (ws_lines[0]["table"], ws_lines[0]["seat"]) == (table["table_id"], move["seat"])
    # The seat that asked is known once its token is read (never the token itself).
    seen = [entry for entry in requests if entry.get("seat") is not None]
    assert {entry["seat"] for entry in seen} <= {0, 1} and seen
    assert any(entry["logger"].startswith("uvicorn") for entry in entries)  # start-up lines
    assert all(entry["process"] > 0 for entry in entries)


def test_text_lines_stay_the_default(tmp_path: Path) -> None:
    db, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    with running_server(db, log, "--bot-delay", "0") as (_, client):
        answer = client.get("/api/tables/nothere/view", params={"token": "x" * 20})
        assert answer.status_code == 404
        assert REQUEST_ID.fullmatch(answer.json()["error"]["request_id"])
    text = log.read_text()
    assert "Application startup complete" in text and not text.lstrip().startswith("{")
    assert '"GET /api/tables/nothere/view?token=… HTTP/1.1" 404' in text


def test_text_lines_name_each_refusal_and_its_request_id(tmp_path: Path) -> None:
    """#32: uvicorn's access lines carry no request id: each refused HTTP request and each
    refused WebSocket message has a line of its own with its code and id."""
    db, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    with running_server(db, log, "--bot-delay", "0") as (_, client):
        answer = client.get("/api/tables/nothere/view", params={"token": "x" * 20})
        missing = answer.json()["error"]["request_id"]
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        table = create(client, seats, seed=4)
        tokens = [seat["token"] for seat in table["seats"]]
        move = refused_move(client, table, tokens)
        found = client.get("/api/tables/" + table["table_id"])
        assert found.status_code == 200
    text = log.read_text()
    assert f"refused GET /api/tables/nothere/view 404 unknown_table (request {missing})" in text
    assert (f"refused a message: not_your_turn (table {table['table_id']}, seat {move['seat']}, "
            f"request {move['request_id']})") in text
    assert found.headers["x-request-id"] not in text  # answered: no line of its own
    assert not [token for token in tokens if token in text]


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


class Lines(logging.Handler):
    """Keeps what the server logs under ``oriflamme``, formatted as JSON lines when emitted
    (while the request's log context is set)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.entries: list[dict[str, Any]] = []
        self.setFormatter(JsonLines())

    def emit(self, record: logging.LogRecord) -> None:
        self.entries.append({**json.loads(self.format(record)), "traceback": bool(record.exc_info)})


@pytest.fixture(autouse=True)
def _log_context_restored() -> Iterator[None]:
    """Tests here set the log context in the test's own thread: it is put back after each, so
    that a later test in this process (a QuietLog line) is not said to be about a request."""
    variables: list[Any] = [log_context.REQUEST_ID, log_context.TABLE, log_context.SEAT,
                            log_context.OUTCOME]
    saved = [variable.get() for variable in variables]
    yield
    for variable, value in zip(variables, saved, strict=True):
        variable.set(value)


@pytest.fixture
def captured() -> Iterator[Lines]:
    logger, lines = logging.getLogger("oriflamme"), Lines()
    old_level = logger.level
    logger.addHandler(lines)
    logger.setLevel(logging.INFO)
    try:
        yield lines
    finally:
        logger.removeHandler(lines)
        logger.setLevel(old_level)


@pytest.mark.parametrize("access_log", [False, True], ids=["text", "json"])
def test_every_unexpected_error_leaves_a_line_with_its_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, captured: Lines, access_log: bool,
) -> None:
    """#32: an unexpected error's traceback is logged at most once per 10 s per route; the
    ones in between still leave a line with their id (no traceback); and each 500, like any
    refusal, has its line with method, path, status, code and id: a line of its own with
    people's lines, its access line with JSON ones (``access_log``)."""
    clock = Clock()
    monkeypatch.setattr(errors, "time", types.SimpleNamespace(monotonic=clock.monotonic))

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("an unexpected failure")

    monkeypatch.setattr(TableManager, "act", broken)
    app = create_app(str(tmp_path / "games.sqlite3"), bot_delay=0, rate=1e6, burst=1e6,
                     tune_gc=False, access_log=access_log)
    with TestClient(app, raise_server_exceptions=False) as client:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        table = client.post("/api/tables", json={"players": 2, "seats": seats}).json()
        path = f"/api/tables/{table['table_id']}/actions"
        move = {"token": table["seats"][0]["token"], "action": {"kind": "place", "card": 0}}
        ids = []
        for seconds in (0.0, 2.0, 4.0):
            clock.now = 1000.0 + seconds
            answer = client.post(path, json=move)
            assert answer.status_code == 500
            ids.append(answer.headers["x-request-id"])
    for n, request_id in enumerate(ids):
        mine = [entry for entry in captured.entries if entry.get("request_id") == request_id]
        failed = [entry for entry in mine if entry["logger"] == "oriflamme.server"]
        assert len(failed) == 1 and request_id in failed[0]["message"], mine
        assert failed[0]["level"] == "error" and failed[0]["traceback"] == (n == 0)
        answered = [entry for entry in mine if entry["logger"] == "oriflamme.access"]
        assert len(answered) == 1, mine
        assert answered[0]["event"] == ("request" if access_log else "refusal")
        assert (answered[0]["method"], answered[0]["path"]) == ("POST", path)
        assert (answered[0]["status"], answered[0]["code"]) == (500, "internal_error")
        if not access_log:
            assert answered[0]["message"] == (
                f"refused POST {path} 500 internal_error (request {request_id})")


def test_refusal_lines_of_a_connection_are_rate_limited() -> None:
    """A client sending refused messages fast logs a burst, then one line a second, each
    counting the refusals left out."""
    clock = Clock()
    refusals = ws_refusals.RefusalLog(clock.monotonic)
    logger = logging.getLogger("oriflamme.ws")
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    handler = Keep()
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        log_context.begin("0123456789ab")
        log_context.about("T1", 1)
        for _ in range(int(ws_refusals.BURST) + 25):
            refusals.refused("stale")
        assert len(lines) == ws_refusals.BURST
        assert lines[0] == "refused a message: stale (table T1, seat 1, request 0123456789ab)"
        clock.now += 1 / ws_refusals.RATE
        refusals.refused("stale")
        assert len(lines) == ws_refusals.BURST + 1
        assert lines[-1].endswith("(25 more refusals not logged)")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)


def test_uvicorns_traceback_of_an_answered_error_is_left_to_the_app() -> None:
    """The app logs its unexpected errors (at most once per 10 s per route): uvicorn's copy of
    each is dropped, but not its tracebacks of failures the app did not answer."""
    keep = AnsweredErrors()
    record = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 0,
                               "Exception in ASGI application\n", None, None)
    log_context.begin()
    assert keep.filter(record)
    log_context.refused("internal_error")
    assert not keep.filter(record)
    other = logging.LogRecord("oriflamme.server", logging.ERROR, __file__, 0, "x", None, None)
    assert keep.filter(other)
