"""Secret deals at tables strangers can join (issue #26, item 1), on SQLite and PostgreSQL.

A creator who chose the seed (or a saved game) of a table a stranger joins could compute every
hidden card the stranger is dealt. Such tables are dealt by the server (``secrets``) and refuse
a chosen deal; tables among invited people may keep one, and every page and the table's summary
say that the creator chose the deal. "Play again" deals anew from the server.
"""

from __future__ import annotations

from typing import Any

import pytest

from fairplay import (
    ANN,
    BEN,
    LEAVE_SPY,
    OPEN,
    RANDOM_BOT,
    app_client,
    create,
    join,
    refused,
    summary,
    view,
)
from oriflamme.api import Game, GameConfig
from scenarios import SHARED_VICTORY

SAVE = Game.new(GameConfig(players=2), 3).save()


@pytest.mark.parametrize(
    "fields",
    [
        {"public": True, "seats": [ANN, OPEN], "seed": 777},
        {"public": True, "seats": [ANN, OPEN], "save": SAVE},
        {"public": False, "seats": [ANN, OPEN], "seed": 0},  # joinable through its join link
        {"public": False, "seats": [OPEN, RANDOM_BOT], "save": SAVE},
        {"public": False, "seats": [OPEN, OPEN, ANN], "players": 3, "save": SHARED_VICTORY},
    ],
)
def test_a_table_strangers_can_join_refuses_a_chosen_deal(
    store_url: str, fields: dict[str, Any]
) -> None:
    with app_client(store_url) as client:
        answer = client.post("/api/tables", json={"players": 2, **fields})
        message = refused(answer, 422, "invalid_request")
        chosen = "seed" if "seed" in fields else "save"
        assert message.startswith(f"{chosen}:") and "strangers can join" in message
        assert client.get("/api/lobby").json()["tables"] == []


def test_the_joiners_hand_is_dealt_by_the_server(store_url: str) -> None:
    """The issue's case: seed 777 let the creator know the joiner's hand. Without a seed, two
    identical requests give two different secret deals; nothing says the creator chose them."""
    with app_client(store_url) as client:
        hands = []
        for _ in range(3):
            table = create(client, public=True, seats=[ANN, OPEN], seed=None)
            table_id = table["table_id"]
            assert summary(client, table_id)["custom_deal"] is False
            ben = join(client, table_id, "Ben").json()
            seen = view(client, table_id, ben["token"])
            assert seen["custom_deal"] is False
            families = [f for f in seen["observation"]["families"] if f["player"] == 1]
            hands.append(tuple(card["type"] for f in families for card in f["hand"]))
        # Three server deals are not one deal (two give Ben the same two hands once in 518,400).
        assert len(set(hands)) > 1


def test_an_invited_table_keeps_its_chosen_deal_and_says_so(store_url: str) -> None:
    with app_client(store_url) as client:
        dealt = create(client, seed=777)
        table_id = dealt["table_id"]
        assert summary(client, table_id)["custom_deal"] is True
        for token in (dealt["seats"][0]["token"], dealt["seats"][1]["token"],
                      dealt["spectator_token"]):
            assert view(client, table_id, token)["custom_deal"] is True
        ann = view(client, table_id, dealt["seats"][0]["token"])
        assert ann["observation"] == Game.new(GameConfig(players=2), 777).observe(0)

        saved = create(client, save=SAVE)
        assert summary(client, saved["table_id"])["custom_deal"] is True
        plain = create(client)
        assert summary(client, plain["table_id"])["custom_deal"] is False
        assert view(client, plain["table_id"], plain["spectator_token"])["custom_deal"] is False


def test_play_again_is_dealt_by_the_server(store_url: str) -> None:
    """A table continued from a chosen position: its first game is custom, the next is not."""
    with app_client(store_url) as client:
        seats = [ANN, BEN, {"kind": "human", "name": "Cid"}]
        table = create(client, players=3, seats=seats, save=SHARED_VICTORY)
        table_id, ann = table["table_id"], table["seats"][0]["token"]
        assert view(client, table_id, ann)["custom_deal"] is True
        end = client.post(
            f"/api/tables/{table_id}/actions",
            json={"token": ann, "action": LEAVE_SPY, "step": 0},
        )
        assert end.status_code == 200 and end.json()["result"] is not None
        assert end.json()["custom_deal"] is True  # the finished game was the creator's deal
        again = client.post(f"/api/tables/{table_id}/rematch", json={"token": ann})
        assert again.status_code == 200, again.text
        assert again.json()["game_number"] == 2 and again.json()["custom_deal"] is False
        assert summary(client, table_id)["custom_deal"] is False
        assert view(client, table_id, table["spectator_token"])["custom_deal"] is False
