"""What the player's page needs from the server (issue #26, "The page a player sees"), on SQLite
and PostgreSQL: a waiting table offers no move (item 2), where each of one's links stands for the
"My games" list (item 3), the stand-in's moves recorded and shown, across servers (item 4), the
real deadline of an away player (item 5), bots named in the table's language (item 7), answers
compressed (item 8).
"""

from __future__ import annotations

import gzip
import time

import httpx
from fastapi.testclient import TestClient

from fairplay import (
    ANN,
    BEN,
    OPEN,
    RANDOM_BOT,
    act_first,
    app_client,
    create,
    join,
    receive,
    refused,
    view,
    wait_until,
)
from oriflamme.server.storage.base import ACTION, Change


def status(client: TestClient, table_id: str, token: str, **params: str) -> httpx.Response:
    return client.get(f"/api/tables/{table_id}/status", params={"token": token, **params})


def test_a_table_waiting_for_players_offers_no_move(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(client, seats=[ANN, OPEN], public=True)
        table_id, ann = table["table_id"], table["seats"][0]["token"]
        seen = view(client, table_id, ann, lang="fr")
        assert seen["waiting_for_players"] is True
        assert (seen["prompt"], seen["legal"], seen["waiting_for"]) == ("", [], None)
        # Asked anyway, the move is refused with a code the page translates.
        place = {"kind": "place", "card": seen["observation"]["families"][0]["hand"][0]["id"],
                 "to": "end"}
        answer = client.post(f"/api/tables/{table_id}/actions",
                             json={"token": ann, "action": place, "step": 0})
        refused(answer, 409, "waiting_for_players")
        # Once the seat is taken, the first player decides.
        join(client, table_id, "Ben")
        seen = view(client, table_id, ann)
        assert seen["legal"] and seen["prompt"] and seen["waiting_for"]["seat"] == 0


def test_the_status_of_each_link_for_my_games(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(client, seats=[ANN, OPEN], public=True)
        table_id, ann = table["table_id"], table["seats"][0]["token"]
        waiting = status(client, table_id, ann).json()
        assert waiting["waiting_for_players"] is True and waiting["your_turn"] is False
        assert (waiting["role"], waiting["seat"], waiting["name"]) == ("seat", 0, "Ann")
        ben = join(client, table_id, "Ben").json()["token"]
        mine = status(client, table_id, ann).json()
        theirs = status(client, table_id, ben).json()
        assert mine["your_turn"] is True and theirs["your_turn"] is False
        assert theirs["waiting_for"] == "Ann" and theirs["players"] == ["Ann", "Ben"]
        assert (mine["round"], mine["step"], mine["over"], mine["closed"]) == (1, 0, False, False)
        assert act_first(client, table_id, ann).status_code == 200
        assert status(client, table_id, ben).json()["your_turn"] is True
        watching = status(client, table_id, table["spectator_token"]).json()
        assert (watching["role"], watching["seat"], watching["your_turn"]) == (
            "spectator", None, False)
        refused(status(client, table_id, "not-a-token"), 401, "bad_token")
        refused(status(client, "nosuchtable", ann), 404, "unknown_table")


def test_a_bot_is_named_in_the_tables_language(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(client, seats=[ANN, {**RANDOM_BOT}], lang="fr", first_player=1)
        table_id, ann = table["table_id"], table["seats"][0]["token"]
        seen = wait_until(lambda: view(client, table_id, ann), lambda v: v["step"] >= 1, 10)
        assert seen["seats"][1]["name"] == "Robot bleu (hasard)"
        assert seen["log"][0].startswith("\u2068Robot bleu (hasard)\u2069 a placé")
        english = view(client, table_id, ann, lang="en")
        assert english["seats"][1]["name"] == "Blue bot (random)"
        assert status(client, table_id, ann).json()["players"] == ["Ann", "Robot bleu (hasard)"]
        # Nobody may take the French label either.
        other = create(client, seats=[ANN, OPEN], public=True, lang="fr")
        message = refused(join(client, other["table_id"], "Robot bleu (hasard)"), 422,
                          "invalid_request")
        assert message.startswith("name:") and "bot" in message


def test_the_stand_ins_moves_are_recorded_and_shown_on_every_server(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(client, seats=[RANDOM_BOT, OPEN], public=True, no_show_after=2,
                       stand_in="random")
        table_id = table["table_id"]
        ghost = join(client, table_id, "Ghost").json()["token"]  # and never connects
        over = wait_until(lambda: view(client, table_id, ghost),
                          lambda v: v["observation"]["phase"] == "over", 60)
        marked = over["stand_ins"]
        assert marked and all(m["seat"] == 1 and m["reason"] == "no_show" for m in marked)
        for move in marked:
            assert all(0 <= line < len(over["log"]) for line in move["log"])
        frames = client.get(
            f"/api/tables/{table_id}/games/1/frames", params={"token": ghost}
        ).json()["frames"]
        # Each marked move points at the lines its step wrote (frame i + 1's, worded as they were
        # then: a card revealed later is named now).
        whole = [m for m in marked if m["log"] and m["log"][0] > 0]
        assert whole
        for move in whole:
            now = [over["log"][i].split()[:2] for i in move["log"]]
            assert now == [line.split()[:2] for line in frames[move["step"] + 1]["log"]]
        played = {(f["actor"], f["by"], f["reason"]) for f in frames[1:]}
        assert played == {(0, "bot", None), (1, "stand_in", "no_show")}
        assert len([f for f in frames if f["by"] == "stand_in"]) == over["step"] - len(
            [f for f in frames if f["by"] == "bot"])
    # Another server (or this one restarted) reads the same facts from storage.
    with app_client(store_url) as other:
        again = view(other, table_id, ghost)
        assert [m["step"] for m in again["stand_ins"]] == [m["step"] for m in marked]


def test_the_clock_shows_the_absence_deadline_when_sooner(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(client, seats=[ANN, BEN], clock={"per_decision": 600}, absent_after=60)
        table_id, ann = table["table_id"], table["seats"][0]["token"]
        before = view(client, table_id, ann)
        assert before["deadline"]["reason"] == "clock" and before["deadline"]["seat"] == 0
        assert before["clock"]["deadline"] == before["deadline"]["at"]
        with client.websocket_connect(f"/ws/{table_id}?token={ann}") as ws:
            receive(ws)
        left = time.time()
        away = wait_until(lambda: view(client, table_id, table["spectator_token"]),
                          lambda v: v["deadline"]["reason"] == "away", 10)
        assert away["deadline"]["at"] < before["deadline"]["at"] - 500
        assert left - 5 < away["deadline"]["at"] - 60 < left + 5
        assert away["clock"]["deadline"] == away["deadline"]["at"]


def test_json_and_static_files_are_compressed(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(client, seats=[ANN, BEN])
        for path, params in [
            ("/static/js/main.js", {}),
            (f"/api/tables/{table['table_id']}/view", {"token": table["seats"][0]["token"]}),
        ]:
            packed = client.get(path, params=params, headers={"Accept-Encoding": "gzip"})
            assert packed.headers.get("content-encoding") == "gzip", path
            plain = client.get(path, params=params, headers={"Accept-Encoding": "identity"})
            assert "content-encoding" not in plain.headers
            if path.endswith(".js"):  # httpx decodes it
                assert packed.content == plain.content
            else:
                assert packed.json()["observation"] == plain.json()["observation"]
            assert len(gzip.compress(plain.content)) < len(plain.content)


def test_an_announced_action_carries_who_played_it() -> None:
    """Servers tell each other who played an action with the action (PostgreSQL NOTIFY), so
    that every server's view marks the stand-in's moves without reading storage."""
    action = '{"kind":"place","card":3,"to":"end"}'
    for source in ("stand_in:no_show", "player", None):
        change = Change("t1", ACTION, 2, 7, action, source)
        assert Change.decode(change.encode()) == change
    # As a server of version 7 announced it: no source (unknown).
    assert Change.decode(f"action 2 7 t1 {action}") == Change("t1", ACTION, 2, 7, action, None)
