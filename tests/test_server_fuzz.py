"""Fuzzing the server (issue #18): the HTTP API from its own OpenAPI schema (schemathesis), the
WebSocket messages with hypothesis. No input, however odd, is a 5xx or an ``internal_error``;
every error has the documented shape; refused input changes nothing."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oriflamme.server import SqliteStore, create_app
from test_server_ws import connect, receive

APP = create_app(
    SqliteStore(Path(tempfile.mkdtemp(prefix="oriflamme-fuzz-")) / "games.sqlite3"),
    bot_delay=0,
    rate=1e6,
    burst=1e6,
    tune_gc=False,
)
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)
HUMANS = [{"kind": "human", "name": n} for n in ("Ann", "Ben", "Cid")]
#: Real tables and tokens, so that generated requests also reach past "unknown table".
REAL: dict[str, Any] = {}


def _real_table() -> dict[str, Any]:
    if not REAL:
        with TestClient(APP) as client:
            body = {"players": 3, "seats": HUMANS, "seed": 7}
            REAL.update(client.post("/api/tables", json=body).json())
    return REAL


def _tokens(table: dict[str, Any]) -> list[str]:
    seats = [s["token"] for s in table["seats"]]
    return [*seats, table["creator_token"], table["spectator_token"]]


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
    if "table_id" in (case.path_parameters or {}) and data.draw(st.booleans(), "real table"):
        case.path_parameters["table_id"] = table["table_id"]
        token = data.draw(st.sampled_from(_tokens(table)), "real token")
        if isinstance(case.body, dict):
            for key in ("token", "creator_token"):
                if key in case.body:
                    case.body[key] = token
        if case.query and "token" in case.query:
            case.query["token"] = token
    response = case.call()
    assert response.status_code < 500 or response.status_code == 503, response.text
    if response.status_code >= 400:
        assert_documented_error(response)


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
