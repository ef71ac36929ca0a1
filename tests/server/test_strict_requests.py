"""Strict HTTP requests (issue #26, item 9) and no Swagger UI by default (item 10).

Over HTTP, ``"step": "0"`` applied an action, ``"step": true`` counted as 1, ``"seed": "5"``,
``"players": "2"`` and ``"hints": 1`` were accepted, while the WebSocket refused them and the
docs promise ``422 invalid_request``: the request models are strict now. ``/docs`` loaded Swagger
UI's scripts from a CDN on the server's origin, where localStorage holds creator tokens: it is
off unless ``oriflamme serve --api-docs``; the OpenAPI schema stays.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fairplay import ANN, BEN, OPEN, app_client, create, refused, summary, view
from servers import running_server

LOOSE_CREATIONS = [
    {"seed": "5"},
    {"seed": 5.0},
    {"players": "2"},
    {"players": 2.0},
    {"hints": 1},
    {"hints": "true"},
    {"public": 1, "seats": [ANN, OPEN]},
    {"first_player": "0"},
    {"first_player": False},
    {"clock": {"per_decision": "60"}},
    {"absent_after": "120"},
    {"absent_after": 120.0},
    {"no_show_after": "60"},
    {"first_player": 0.0},
]


@pytest.mark.parametrize("fields", LOOSE_CREATIONS)
def test_loose_types_are_refused_at_creation(store_url: str, fields: dict[str, Any]) -> None:
    with app_client(store_url) as client:
        body = {"players": 2, "seats": [ANN, BEN], **fields}
        message = refused(client.post("/api/tables", json=body), 422, "invalid_request")
        assert "Extra inputs" not in message
        assert message.split(":")[0].split(".")[0] == next(iter(fields))


@pytest.mark.parametrize(
    "extra",
    [{"step": "0"}, {"step": True}, {"step": 0.0}, {"game_number": "1"}, {"game_number": True}],
)
def test_loose_types_never_apply_an_action(store_url: str, extra: dict[str, Any]) -> None:
    with app_client(store_url) as client:
        table = create(client, seed=4)
        table_id, ann = table["table_id"], table["seats"][0]["token"]
        legal = view(client, table_id, ann)["legal"]
        answer = client.post(
            f"/api/tables/{table_id}/actions",
            json={"token": ann, "action": legal[0]["action"], **extra},
        )
        refused(answer, 422, "invalid_request")
        assert view(client, table_id, ann)["step"] == 0


def test_loose_types_are_refused_by_every_other_request(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(client, public=True, seats=[ANN, OPEN])
        table_id, creator = table["table_id"], table["creator_token"]
        before = summary(client, table_id)
        join = f"/api/tables/{table_id}/join"
        for body in ({"name": "Ben", "seat": "1"}, {"name": "Ben", "seat": True}):
            refused(client.post(join, json=body), 422, "invalid_request")
        bot = f"/api/tables/{table_id}/seats/1/bot"
        refused(client.post(bot, json={"creator_token": creator, "expect": "open", "level": 1}),
                422, "invalid_request")
        rematch = {"token": table["seats"][0]["token"], "game_number": "1"}
        refused(client.post(f"/api/tables/{table_id}/rematch", json=rematch), 422,
                "invalid_request")
        refused(client.post(f"/api/tables/{table_id}/close", json={"creator_token": 5}), 422,
                "invalid_request")
        assert summary(client, table_id) == before


def test_swagger_ui_is_off_unless_asked_for(store_url: str) -> None:
    with app_client(store_url) as client:
        for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
            refused(client.get(path), 404, "not_found")
        schema = client.get("/openapi.json")
        assert schema.status_code == 200 and "/api/tables" in schema.json()["paths"]
    with app_client(store_url, api_docs=True) as client:
        page = client.get("/docs")
        assert page.status_code == 200 and "swagger-ui" in page.text
        assert client.get("/openapi.json").status_code == 200


def test_serve_api_docs_turns_swagger_ui_on(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with running_server(db, tmp_path / "off.log") as (_, client):
        assert client.get("/docs").status_code == 404
        assert client.get("/openapi.json").status_code == 200
    with running_server(db, tmp_path / "on.log", "--api-docs") as (_, client):
        assert client.get("/docs").status_code == 200
