"""Replay links carry a read-only capability, never a seat token (issue #26, item 6), on SQLite
and PostgreSQL.

The links of the end screen and the replay page used to be ``…/replay?game=1&token=<SEAT
TOKEN>``: sharing "look at my game" gave the seat away for every later game of the table. A
finished game's view now carries a replay link whose token opens that game's replay, frames and
analysis, and nothing else.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fairplay import ANN, BEN, LEAVE_SPY, Json, app_client, create, receive, refused, view
from scenarios import SHARED_VICTORY

SEATS = [ANN, BEN, {"kind": "human", "name": "Cid"}]


def finished_table(client: TestClient) -> tuple[Json, Json]:
    """A 3-player table whose first game ends with Ann's next decision; (table, final view)."""
    table = create(client, players=3, seats=SEATS, save=SHARED_VICTORY)
    ann = table["seats"][0]["token"]
    assert view(client, table["table_id"], ann)["replay_url"] is None  # not before the end
    answer = client.post(
        f"/api/tables/{table['table_id']}/actions",
        json={"token": ann, "action": LEAVE_SPY, "step": 0},
    )
    assert answer.status_code == 200, answer.text
    return table, dict(answer.json())


def replay_token(url: str) -> str:
    query = parse_qs(urlsplit(url).query)
    assert query["game"] == ["1"]
    return query["token"][0]


def test_the_end_of_a_game_links_its_replay_without_any_seat_token(store_url: str) -> None:
    with app_client(store_url) as client:
        table, final = finished_table(client)
        table_id = table["table_id"]
        url = final["replay_url"]
        assert url.startswith(f"/t/{table_id}/replay?")
        token = replay_token(url)
        secrets = [s["token"] for s in table["seats"]]
        secrets += [table["spectator_token"], table["creator_token"]]
        assert all(secret not in url for secret in secrets)
        # Every seat and the spectators are given the same link.
        for secret in secrets[1:]:
            assert view(client, table_id, secret)["replay_url"] == url

        frames = client.get(f"/api/tables/{table_id}/games/1/frames", params={"token": token})
        assert frames.status_code == 200, frames.text
        assert frames.json()["view"] == "all" and frames.json()["you"] is None
        assert frames.json()["replay_url"] == url
        record = client.get(f"/api/tables/{table_id}/games/1/replay", params={"token": token})
        assert record.status_code == 200 and record.json()["format"] == "oriflamme-replay"
        analysis = client.get(f"/api/tables/{table_id}/games/1/analysis", params={"token": token})
        assert analysis.status_code == 200 and analysis.json()["status"] == "none"
        # Opened with a seat's token, the replay page is still given the shareable link.
        seat_frames = client.get(
            f"/api/tables/{table_id}/games/1/frames", params={"token": secrets[0]}
        )
        assert seat_frames.json()["you"] == 0 and seat_frames.json()["replay_url"] == url


def test_a_replay_token_opens_nothing_else(store_url: str) -> None:
    with app_client(store_url) as client:
        table, final = finished_table(client)
        table_id, token = table["table_id"], replay_token(final["replay_url"])
        refused(
            client.get(f"/api/tables/{table_id}/view", params={"token": token}), 401, "bad_token"
        )
        act = {"token": token, "action": {"kind": "gain"}}
        refused(client.post(f"/api/tables/{table_id}/actions", json=act), 401, "bad_token")
        refused(
            client.post(f"/api/tables/{table_id}/rematch", json={"token": token}), 401, "bad_token"
        )
        refused(client.get(f"/api/tables/{table_id}/hint", params={"token": token}), 401,
                "bad_token")
        close = {"creator_token": token, "expect": "away", "level": "random"}
        refused(client.post(f"/api/tables/{table_id}/seats/1/bot", json=close), 401, "bad_token")
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(f"/ws/{table_id}?token={token}") as ws,
        ):
            assert receive(ws)["code"] == "bad_token"
            ws.receive_text()
        assert closed.value.code == 4401

        # The next game exists: game 1's replay token does not open it, nor another table's.
        ann = table["seats"][0]["token"]
        again = client.post(f"/api/tables/{table_id}/rematch", json={"token": ann})
        assert again.status_code == 200
        refused(
            client.get(f"/api/tables/{table_id}/games/2/frames", params={"token": token}),
            401,
            "bad_token",
        )
        other, _ = finished_table(client)
        refused(
            client.get(f"/api/tables/{other['table_id']}/games/1/frames", params={"token": token}),
            401,
            "bad_token",
        )
