"""No kicking (issue #26, item 2), on SQLite and PostgreSQL: handing a seat to a bot names what
the creator expects of it (``"expect": "open"`` or ``"away"``). An open seat is taken only while
open; a player who joined only once away, or never connected, past the table's limits; the
player whose seat was handed over is told so. Across server processes:
tests/server/test_fair_play_scale.py.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from fairplay import (
    ANN,
    BEN,
    OPEN,
    RANDOM_BOT,
    app_client,
    create,
    hand_over,
    join,
    receive,
    refused,
    summary,
    view,
    wait_until,
)
from oriflamme.server import create_app


def test_the_request_says_what_it_expects(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(client, public=True, seats=[ANN, OPEN])
        assert "expect" in refused(hand_over(client, table, 1), 422, "invalid_request")
        refused(hand_over(client, table, 1, expect="whatever"), 422, "invalid_request")
        refused(hand_over(client, table, 0, expect="open"), 409, "seat_taken")
        refused(hand_over(client, table, 1, expect="away"), 409, "seat_open")
        assert hand_over(client, table, 1, expect="open").status_code == 200
        refused(hand_over(client, table, 1, expect="open"), 409, "already_bot")
        refused(hand_over(client, table, 1, expect="away"), 409, "already_bot")


def test_a_bot_does_not_replace_the_stranger_who_just_joined(store_url: str) -> None:
    """The issue's race, one request after the other: join 201, then the lobby's "Let a bot
    take this seat" (sent for an open seat) must not replace the stranger."""
    with app_client(store_url) as client:
        table = create(client, public=True, seats=[ANN, OPEN])
        table_id = table["table_id"]
        ben = join(client, table_id, "Ben")
        assert ben.status_code == 201
        refused(hand_over(client, table, 1, expect="open"), 409, "seat_taken")
        seen = view(client, table_id, ben.json()["token"])
        assert seen["you"] == 1 and seen["seats"][1]["kind"] == "human"
        assert not seen["handed_over"]


def test_joins_and_bots_racing_for_an_open_seat_one_wins(store_url: str) -> None:
    async def race() -> None:
        app = create_app(store_url, bot_delay=0, rate=1000.0, burst=1000.0, tune_gc=False)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
                for round_ in range(6):
                    body = {"players": 2, "seats": [ANN, OPEN], "public": True}
                    table = (await http.post("/api/tables", json=body)).json()
                    table_id = table["table_id"]
                    bot = {"creator_token": table["creator_token"], "level": "random",
                           "expect": "open"}
                    requests = [
                        http.post(f"/api/tables/{table_id}/join", json={"name": "Ben"}),
                        http.post(f"/api/tables/{table_id}/seats/1/bot", json=bot),
                    ]
                    if round_ % 2:
                        requests.reverse()
                    answers = await asyncio.gather(*requests)
                    codes = sorted(a.status_code for a in answers)
                    assert codes in ([200, 409], [201, 409]), [a.text for a in answers]
                    [loser] = [a for a in answers if a.status_code == 409]
                    assert loser.json()["error"]["code"] == "seat_taken"
                    seat = (await http.get(f"/api/tables/{table_id}")).json()["seats"][1]
                    assert seat["kind"] == ("human" if 201 in codes else "bot")

    asyncio.run(race())


def test_a_joined_player_is_handed_over_only_once_away_past_the_limit(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(client, public=True, seats=[ANN, OPEN], absent_after=2)
        table_id = table["table_id"]
        ben = join(client, table_id, "Ben").json()
        with client.websocket_connect(f"/ws/{table_id}?token={ben['token']}") as ws:
            assert receive(ws)["view"]["you"] == 1
            wait_until(lambda: summary(client, table_id), lambda s: s["seats"][1]["connected"], 5)
            refused(hand_over(client, table, 1, expect="away"), 409, "seat_active")
            refused(hand_over(client, table, 1, expect="open"), 409, "seat_taken")
        wait_until(lambda: summary(client, table_id), lambda s: not s["seats"][1]["connected"], 5)
        # Gone, but not for as long as the table allows: the seat is still Ben's.
        refused(hand_over(client, table, 1, expect="away"), 409, "seat_active")
        assert summary(client, table_id)["seats"][1]["replaceable"] is False
        wait_until(lambda: summary(client, table_id), lambda s: s["seats"][1]["replaceable"], 6)
        handed = hand_over(client, table, 1, expect="away")
        assert handed.status_code == 200, handed.text
        assert handed.json()["seats"][1]["kind"] == "bot"
        # Ben's link now watches, and says why.
        told = view(client, table_id, ben["token"])
        assert told["you"] is None and told["handed_over"] is True
        assert view(client, table_id, table["seats"][0]["token"])["handed_over"] is False
        with client.websocket_connect(f"/ws/{table_id}?token={ben['token']}") as ws:
            pushed = receive(ws)["view"]
            assert pushed["handed_over"] is True and pushed["legal"] == []


def test_a_joined_player_who_never_came_is_handed_over_after_the_no_show_limit(
    store_url: str,
) -> None:
    with app_client(store_url) as client:
        table = create(client, public=True, seats=[ANN, OPEN], no_show_after=2)
        table_id = table["table_id"]
        ben = join(client, table_id, "Ben").json()
        refused(hand_over(client, table, 1, expect="away"), 409, "seat_active")
        wait_until(lambda: summary(client, table_id), lambda s: s["seats"][1]["replaceable"], 6)
        assert hand_over(client, table, 1, expect="away").status_code == 200
        assert view(client, table_id, ben["token"])["handed_over"] is True


def test_invited_seats_are_handed_over_while_nobody_is_connected_to_them(
    store_url: str,
) -> None:
    """The creator was given the invited seats' links: a seat nobody has opened may go to a
    bot at once, a connected player's may not."""
    with app_client(store_url) as client:
        table = create(client, players=3, seats=[ANN, BEN, RANDOM_BOT])
        table_id, ann = table["table_id"], table["seats"][0]["token"]
        assert summary(client, table_id)["seats"][1]["replaceable"] is True
        with client.websocket_connect(f"/ws/{table_id}?token={ann}") as ws:
            receive(ws)
            wait_until(lambda: summary(client, table_id), lambda s: s["seats"][0]["connected"], 5)
            assert summary(client, table_id)["seats"][0]["replaceable"] is False
            refused(hand_over(client, table, 0, expect="away"), 409, "seat_active")
            assert hand_over(client, table, 1, expect="away").status_code == 200
        assert view(client, table_id, ann)["you"] == 0


@pytest.mark.parametrize("expect", ["open", "away"])
def test_a_refused_hand_over_changes_nothing(store_url: str, expect: str) -> None:
    with app_client(store_url) as client:
        table = create(client, public=True, seats=[ANN, OPEN], no_show_after=600)
        table_id = table["table_id"]
        ben = join(client, table_id, "Ben").json()
        before = summary(client, table_id)
        answer = hand_over(client, table, 1, expect=expect)
        assert answer.status_code == 409
        assert summary(client, table_id) == before
        assert view(client, table_id, ben["token"])["you"] == 1


def test_hand_over_errors_are_documented() -> None:
    from oriflamme.server.protocol import BotRequest

    schema: dict[str, Any] = BotRequest.model_json_schema()
    assert schema["properties"]["expect"]["enum"] == ["open", "away"]
    assert "expect" in schema["required"]
    docs = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text()
    for code in ("seat_active", "seat_open", "seat_taken"):
        assert f"`{code}`" in docs
