"""#32 section 4: ``oriflamme serve --log-format json`` writes one JSON object per line, with
the request id that every answer and refusal carries, and never a token."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

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
