"""Fuzzing the server (issue #18): the HTTP API from its own OpenAPI schema (schemathesis), the
WebSocket messages with hypothesis. No input, however odd, is a 5xx or an ``internal_error``;
every error has the documented shape; refused input changes nothing (neither the stored records
nor what a real table shows)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oriflamme.server import SqliteStore, create_app
from test_server_ws import connect, receive

DB = Path(tempfile.mkdtemp(prefix="oriflamme-fuzz-")) / "games.sqlite3"
APP = create_app(SqliteStore(DB), bot_delay=0, rate=1e6, burst=1e6, tune_gc=False)
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)
HUMANS = [{"kind": "human", "name": n} for n in ("Ann", "Ben", "Cid")]
#: Real tables and tokens, so that generated requests also reach past "unknown table".
REAL: dict[str, Any] = {}


def _call(path: str, method: str = "GET", **parts: Any) -> Any:
    """A request through the app the fuzzed requests reach (its one running instance)."""
    response = SCHEMA[path][method].Case(**parts).call()
    assert response.status_code < 300, response.text
    return response.json()


def _started() -> None:
    """The app runs and has finished what its start-up does in the background (a single SQLite
    server marks the seats of unfinished tables away). Schemathesis starts the app again for
    each operation: the state a request finds is the one after that."""
    _call("/healthz")
    manager = APP.state.manager
    deadline = time.monotonic() + 30
    while not all(t.done() for t in manager._background if t.get_name() == "away-after-start"):
        assert time.monotonic() < deadline, "the app's start-up never ended"
        time.sleep(0.01)


def _real_table() -> dict[str, Any]:
    if not REAL:
        _started()
        REAL.update(_call("/api/tables", "POST", body={"players": 3, "seats": HUMANS, "seed": 7}))
    return REAL


def _settled(table: dict[str, Any]) -> None:
    """No bot decision of the real table is under way or due: an earlier case may have handed
    a seat to a bot (a player who left the game), whose moves must not land during the next
    case's checks."""
    manager = APP.state.manager
    deadline = time.monotonic() + 30
    while True:
        cached = manager.cached(table["table_id"])
        if manager.scheduler.busy == 0 and (cached is None or not cached.turn().bot):
            return
        assert time.monotonic() < deadline, "the real table's bots never settled"
        time.sleep(0.02)


def _tokens(table: dict[str, Any]) -> list[str]:
    seats = [s["token"] for s in table["seats"]]
    return [*seats, table["creator_token"], table["spectator_token"]]


#: The stored records of the games (the servers' own bookkeeping aside: heartbeats, presence).
RECORDS = (
    "tables", "seats", "games", "actions", "analyses",
    "game_results", "rating_results", "ratings", "rating_history",
)


def stored() -> dict[str, list[tuple[Any, ...]]]:
    """Every stored record of every table, read from the database file."""
    with contextlib.closing(sqlite3.connect(f"file:{DB}?mode=ro", uri=True)) as db:
        return {name: sorted(db.execute(f"SELECT * FROM {name}"), key=repr) for name in RECORDS}


def seen(table: dict[str, Any]) -> list[Any]:
    """The real table as the server shows it: its summary and every token's view."""
    where = {"table_id": table["table_id"]}
    shown = [_call("/api/tables/{table_id}", path_parameters=where)]
    for token in _tokens(table):
        view = _call("/api/tables/{table_id}/view", path_parameters=where, query={"token": token})
        view.pop("server_time")
        shown.append(view)
    return shown


def assert_documented_error(response: Any) -> None:
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["code"], str) and body["error"]["code"], body
    assert isinstance(body["error"]["message"], str), body
    assert body["error"]["code"] != "internal_error", body


@SCHEMA.parametrize()
@SCHEMA.given(data=st.data())
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_is_a_server_error(case: Any, data: st.DataObject) -> None:
    table = _real_table()
    _started()
    if "table_id" in (case.path_parameters or {}) and data.draw(st.booleans(), "real table"):
        case.path_parameters["table_id"] = table["table_id"]
        token = data.draw(st.sampled_from(_tokens(table)), "real token")
        if isinstance(case.body, dict):
            for key in ("token", "creator_token"):
                if key in case.body:
                    case.body[key] = token
        if case.query and "token" in case.query:
            case.query["token"] = token
    _settled(table)
    records, shown = stored(), seen(table)
    response = case.call()
    assert response.status_code < 500 or response.status_code == 503, response.text
    if response.status_code >= 400:
        assert_documented_error(response)
        # Refused input changes nothing: not the stores, not what the real table shows.
        assert stored() == records, response.text
        assert seen(table) == shown, response.text


#: Any JSON value (nested a few levels), as messages a careless or hostile client might send.
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
MESSAGES = st.one_of(
    JSON.map(json.dumps),
    st.text(max_size=200),
    st.builds(
        lambda kind, rest: json.dumps({"type": kind, **rest}),
        st.sampled_from(["act", "lang", "ping", "nope", ""]),
        st.dictionaries(st.sampled_from(["action", "step", "game_number", "lang"]), JSON),
    ),
    st.builds(
        lambda action, step: json.dumps({"type": "act", "action": action, "step": step}),
        st.fixed_dictionaries(
            {"kind": st.sampled_from(["place", "target", "reveal", "leave", "x"]),
             "card": st.integers(-5, 10**20), "to": st.sampled_from(["end", "front", 3, None])}
        ),
        st.one_of(st.none(), st.integers(-(10**20), 10**20)),
    ),
)


def test_no_websocket_message_is_an_internal_error_or_changes_the_game() -> None:
    with TestClient(APP) as client:
        table = client.post("/api/tables", json={"players": 3, "seats": HUMANS, "seed": 9}).json()
        before = client.get(f"/api/tables/{table['table_id']}").json()
        # Seat 1 is not to decide: nothing it sends may change the game.
        with connect(client, table, table["seats"][1]["token"]) as ws:
            assert receive(ws)["type"] == "view"

            @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
            @given(message=MESSAGES)
            def send(message: str) -> None:
                ws.send_text(message)
                ws.send_text(json.dumps({"type": "ping"}))
                while (reply := receive(ws))["type"] != "pong":
                    if reply["type"] == "error":
                        assert reply["code"] != "internal_error", (message, reply)
                    else:
                        assert reply["type"] == "view", reply

            send()
        after = client.get(f"/api/tables/{table['table_id']}").json()
        assert after["step"] == before["step"] == 0 and after["game_number"] == 1
