"""The server's HTTP API: creation and its validation, views, actions, errors, bots, rematch."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oriflamme.api import Action, CardType, new_game
from oriflamme.server import SqliteStore, create_app
from oriflamme.server.bots import think

HUMANS3 = [{"kind": "human", "name": n} for n in ("Ann", "Ben", "Cid")]


def make_client(tmp_path: Path, **options: Any) -> TestClient:
    options = {"rate": 1000.0, "burst": 1000.0, **options}
    return TestClient(create_app(SqliteStore(tmp_path / "games.sqlite3"), bot_delay=0, **options))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def create(client: TestClient, **fields: Any) -> dict[str, Any]:
    body = {"players": 3, "seats": HUMANS3, "seed": 5, **fields}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def view(client: TestClient, table: dict[str, Any], token: str, **params: str) -> dict[str, Any]:
    response = client.get(
        f"/api/tables/{table['table_id']}/view", params={"token": token, **params}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def post_action(
    client: TestClient, table: dict[str, Any], token: str, action: Any, **extra: Any
) -> Any:
    return client.post(
        f"/api/tables/{table['table_id']}/actions",
        json={"token": token, "action": action, **extra},
    )


def seat_token(table: dict[str, Any], seat: int) -> str:
    return str(table["seats"][seat]["token"])


def wait_for_step(client: TestClient, table: dict[str, Any], token: str, step: int) -> Any:
    """The token's view once the game has reached ``step`` (bots play in the background)."""
    deadline = time.monotonic() + 5
    while (seen := view(client, table, token))["step"] < step:
        assert time.monotonic() < deadline, f"step {step} not reached"
        time.sleep(0.005)
    return seen


def play_to_end(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal option of whoever must decide, by HTTP, until the game is over."""
    public = view(client, table, table["spectator_token"])
    while public["result"] is None:
        seat = public["waiting_for"]["seat"]
        mine = view(client, table, seat_token(table, seat))
        response = post_action(client, table, seat_token(table, seat), mine["legal"][0]["action"])
        assert response.status_code == 200, response.text
        public = view(client, table, table["spectator_token"])
    return public


# -- creation -------------------------------------------------------------------------------
def test_create_hands_out_one_private_link_per_human_seat(client: TestClient) -> None:
    seats = [HUMANS3[0], {"kind": "bot", "level": "random"}, HUMANS3[1]]
    table = create(client, seats=seats)
    tid = table["table_id"]
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "human"]
    assert [s["name"] for s in table["seats"]] == ["Ann", "Bot (random)", "Ben"]
    bot = table["seats"][1]
    assert bot["token"] is None and bot["url"] is None and bot["level"] == "random"
    tokens = [seat_token(table, 0), seat_token(table, 2)]
    for seat, token in zip((0, 2), tokens, strict=True):
        assert table["seats"][seat]["url"] == f"/t/{tid}?seat={token}"
        assert len(token) >= 32
    assert table["spectator_url"] == f"/t/{tid}?watch={table['spectator_token']}"
    every = [*tokens, table["spectator_token"], table["creator_token"]]
    assert len(set(every)) == len(every)


@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"players": 1, "seats": HUMANS3[:1]}, "players"),
        ({"players": 6, "seats": HUMANS3 * 2}, "players"),
        ({"players": 3, "seats": HUMANS3[:2]}, "seats"),
        ({"seats": [HUMANS3[0], HUMANS3[1], {"kind": "human", "name": "x" * 25}]}, "name"),
        ({"seats": [HUMANS3[0], HUMANS3[1], {"kind": "human", "name": "   "}]}, "name"),
        ({"seats": [HUMANS3[0], HUMANS3[1], {"kind": "human", "name": "A\x07b"}]}, "name"),
        ({"seats": [HUMANS3[0], HUMANS3[1], {"kind": "human", "name": "ab\u202ecd"}]}, "name"),
        ({"seats": [HUMANS3[0], HUMANS3[1], {"kind": "human", "name": "a\nb"}]}, "name"),
        ({"seats": [HUMANS3[0], HUMANS3[1], {"kind": "bot", "level": "godlike"}]}, "level"),
        ({"seats": [HUMANS3[0], HUMANS3[1], {"kind": "alien"}]}, "seats"),
        ({"seats": [{"kind": "bot", "level": "random"}] * 3}, "human"),
        ({"cards": "everything"}, "cards"),
        ({"cards": ["archer"] * 10}, "twice"),
        ({"cards": ["archer", "soldier"]}, "10"),
        ({"cards": [*(t.slug for t in list(CardType)[:9]), "knight"]}, "knight"),
        ({"variant": "two-families"}, "2 players"),
        ({"first_player": 3}, "first_player"),
        ({"lang": "de"}, "lang"),
        ({"seed": -1}, "seed"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_create_refuses_invalid_requests(
    client: TestClient, fields: dict[str, Any], where: str
) -> None:
    body = {"players": 3, "seats": HUMANS3, **fields}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] in ("invalid_request", "invalid_config")
    assert where in error["message"]


def test_names_are_trimmed_and_returned_as_data(client: TestClient) -> None:
    names = ["  " + "é" * 24 + " ", "<b>Ben</b>", "👩‍👩‍👧 Cid"]
    table = create(client, seats=[{"kind": "human", "name": n} for n in names])
    assert [s["name"] for s in table["seats"]] == ["é" * 24, "<b>Ben</b>", "👩‍👩‍👧 Cid"]
    seen = view(client, table, table["spectator_token"])
    assert [s["name"] for s in seen["seats"]] == ["é" * 24, "<b>Ben</b>", "👩‍👩‍👧 Cid"]


def test_a_mixed_card_set_and_two_families_are_accepted(client: TestClient) -> None:
    cards = [
        "archer",
        "soldier",
        "spy",
        "heir",
        "prince",
        "queen",
        "trap",
        "lord",
        "felon",
        "ambush",
    ]
    table = create(client, players=2, seats=HUMANS3[:2], cards=cards, first_player=None)
    config = view(client, table, seat_token(table, 0))["observation"]["config"]
    assert config["cards"] == cards and config["variant"] == "two-families"


# -- views ----------------------------------------------------------------------------------
def test_each_token_sees_its_own_view(client: TestClient) -> None:
    table = create(client)
    views = [view(client, table, seat_token(table, s)) for s in range(3)]
    public = view(client, table, table["spectator_token"])
    for seat, seen in enumerate(views):
        assert seen["you"] == seat and seen["step"] == 0 and seen["game_number"] == 1
        families = seen["observation"]["families"]
        assert [("hand" in f) for f in families] == [f["family"] == seat for f in families]
        hand_ids = {str(c["id"]) for c in families[seat]["hand"]}
        assert hand_ids <= set(seen["cards"])
    assert public["you"] is None
    assert all("hand" not in f and "set_aside" not in f for f in public["observation"]["families"])
    # Red (seat 0) places first: only its view has legal options, each with a label.
    assert public["waiting_for"] == {"seat": 0, "name": "Ann", "kind": "human"}
    assert views[0]["legal"] and all(o["label"] for o in views[0]["legal"])
    assert views[1]["legal"] == [] and views[2]["legal"] == [] and public["legal"] == []
    assert views[0]["prompt"] == "Red: choose a card to place"
    assert [s["colour"] for s in public["seats"]] == ["red", "blue", "green"]
    assert not any(s["connected"] for s in public["seats"])


def test_view_language_follows_the_query_then_the_table(client: TestClient) -> None:
    table = create(client, lang="fr")
    assert view(client, table, seat_token(table, 0))["prompt"].startswith("Rouge")
    english = view(client, table, seat_token(table, 0), lang="en")
    assert english["lang"] == "en" and english["prompt"].startswith("Red")


def test_view_errors(client: TestClient) -> None:
    table = create(client)
    url = f"/api/tables/{table['table_id']}/view"
    assert client.get(url, params={"token": "nope"}).status_code == 401
    assert client.get(url, params={"token": "nope"}).json()["error"]["code"] == "bad_token"
    missing = client.get("/api/tables/NoSuchTable/view", params={"token": "x"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_table"
    assert client.get("/api/tables/bad%20id/view", params={"token": "x"}).status_code == 422


# -- actions --------------------------------------------------------------------------------
def test_acting_by_http_changes_every_view(client: TestClient) -> None:
    table = create(client)
    mine = view(client, table, seat_token(table, 0))
    option = mine["legal"][0]
    response = post_action(client, table, seat_token(table, 0), option["action"], step=0)
    assert response.status_code == 200
    after = response.json()
    assert after["step"] == 1 and after["you"] == 0 and after["legal"] == []
    assert after["waiting_for"]["seat"] == 1
    placed = option["action"]["card"]
    assert placed not in [c["id"] for c in after["observation"]["families"][0]["hand"]]
    other = view(client, table, seat_token(table, 1))
    assert other["step"] == 1 and other["legal"]
    assert other["log"] == ["Red placed a card at the end of the Queue"]


def test_action_errors_change_nothing(client: TestClient) -> None:
    table = create(client)
    red, blue = seat_token(table, 0), seat_token(table, 1)
    legal = view(client, table, red)["legal"]
    blue_card = view(client, table, blue)["observation"]["families"][1]["hand"][0]["id"]
    cases = [
        (red, {"kind": "place", "card": blue_card, "to": "end"}, {}, 400, "illegal_action"),
        (red, {"kind": "fly"}, {}, 400, "malformed_action"),
        (red, "place 3 end", {}, 400, "malformed_action"),
        (red, {"kind": "reveal"}, {}, 400, "malformed_action"),
        (blue, legal[0]["action"], {}, 403, "not_your_turn"),
        ("not-a-token", legal[0]["action"], {}, 401, "bad_token"),
        (table["spectator_token"], legal[0]["action"], {}, 403, "not_a_player"),
        (red, legal[0]["action"], {"step": 3}, 409, "stale"),
        (red, legal[0]["action"], {"game_number": 2}, 409, "stale"),
    ]
    for token, action, extra, status, code in cases:
        response = post_action(client, table, token, action, **extra)
        assert response.status_code == status, (action, response.text)
        assert response.json()["error"]["code"] == code
    assert view(client, table, red)["step"] == 0
    missing = client.post("/api/tables/NoSuchTable/actions", json={"token": red, "action": {}})
    assert missing.status_code == 404
    bad_body = client.post(f"/api/tables/{table['table_id']}/actions", content=b"{not json")
    assert bad_body.status_code == 422 and bad_body.json()["error"]["code"] == "invalid_request"


def test_no_action_after_the_game_is_over(client: TestClient) -> None:
    table = create(client, players=2, seats=HUMANS3[:2])
    final = play_to_end(client, table)
    assert final["waiting_for"] is None and final["result"]["winners"]
    assert final["prompt"] == "The game is over"
    response = post_action(client, table, seat_token(table, 0), {"kind": "gain"})
    assert response.status_code == 409 and response.json()["error"]["code"] == "game_over"


# -- seats handed to bots -------------------------------------------------------------------
def test_only_the_creator_can_hand_a_seat_to_a_bot(client: TestClient) -> None:
    table = create(client)
    url = f"/api/tables/{table['table_id']}/seats/0/bot"
    as_seat = client.post(url, json={"creator_token": seat_token(table, 1), "level": "random"})
    assert as_seat.status_code == 403 and as_seat.json()["error"]["code"] == "not_creator"
    unknown = client.post(url, json={"creator_token": "nope", "level": "random"})
    assert unknown.status_code == 401
    bad_seat = client.post(
        f"/api/tables/{table['table_id']}/seats/7/bot",
        json={"creator_token": table["creator_token"], "level": "random"},
    )
    assert bad_seat.status_code == 404 and bad_seat.json()["error"]["code"] == "unknown_seat"
    assert view(client, table, seat_token(table, 0))["you"] == 0

    done = client.post(url, json={"creator_token": table["creator_token"], "level": "random"})
    assert done.status_code == 200
    assert done.json()["seats"][0]["kind"] == "bot" and done.json()["seats"][0]["level"] == "random"
    # The bot (seat 0 was to place) plays at once; the old link now watches.
    old = view(client, table, seat_token(table, 0))
    assert old["you"] is None and old["legal"] == []
    assert all("hand" not in f for f in old["observation"]["families"])
    blue = wait_for_step(client, table, seat_token(table, 1), 1)
    assert blue["step"] == 1 and blue["waiting_for"]["seat"] == 1
    refused = post_action(client, table, seat_token(table, 0), {"kind": "gain"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "seat_is_bot"
    again = client.post(url, json={"creator_token": table["creator_token"], "level": "random"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_bot"


# -- rematch --------------------------------------------------------------------------------
def test_rematch_starts_the_next_game_with_the_same_links(client: TestClient) -> None:
    table = create(client, players=2, seats=HUMANS3[:2])
    url = f"/api/tables/{table['table_id']}/rematch"
    early = client.post(url, json={"token": seat_token(table, 0)})
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_over"
    play_to_end(client, table)
    spectator = client.post(url, json={"token": table["spectator_token"]})
    assert spectator.status_code == 403
    response = client.post(url, json={"token": seat_token(table, 1), "game_number": 1})
    assert response.status_code == 200
    assert response.json()["game_number"] == 2 and response.json()["you"] == 1
    # The other player asking too (for game 1) just gets the new game.
    second = client.post(url, json={"token": seat_token(table, 0), "game_number": 1})
    assert second.status_code == 200 and second.json()["game_number"] == 2
    for seat in (0, 1):
        seen = view(client, table, seat_token(table, seat))
        assert (seen["game_number"], seen["step"], seen["you"]) == (2, 0, seat)
        assert seen["result"] is None and seen["log"] == []
    red = view(client, table, seat_token(table, 0))
    assert post_action(client, table, seat_token(table, 0), red["legal"][0]["action"]).is_success


# -- the rest -------------------------------------------------------------------------------
def test_cards_describe_every_card_type(client: TestClient) -> None:
    english = client.get("/api/cards").json()
    french = client.get("/api/cards", params={"lang": "fr"}).json()
    assert set(english) == set(french) == {t.slug for t in CardType}
    assert english["soldier"]["name"] == "Soldier" and french["soldier"]["name"] == "Soldat"
    assert english["soldier"]["kind"] == "Character" and english["ambush"]["kind"] == "Intrigue"
    assert "eliminate" in english["soldier"]["text"].lower()
    assert all(info["notes"] for info in english.values())


def test_openapi_lists_the_endpoints(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path, method in [
        ("/api/tables", "post"),
        ("/api/tables/{table_id}/view", "get"),
        ("/api/tables/{table_id}/actions", "post"),
        ("/api/tables/{table_id}/seats/{seat}/bot", "post"),
        ("/api/tables/{table_id}/rematch", "post"),
        ("/api/tables/{table_id}", "get"),
        ("/api/cards", "get"),
    ]:
        assert method in paths[path], path
        assert paths[path][method]["summary"]


def test_http_actions_are_throttled_per_address(tmp_path: Path) -> None:
    with make_client(tmp_path, rate=0.01, burst=3) as client:
        statuses = [
            client.post("/api/tables", json={"players": 2, "seats": HUMANS3[:2]}).status_code
            for _ in range(5)
        ]
        assert statuses == [201, 201, 201, 429, 429]
        refused = client.post("/api/tables", json={"players": 2, "seats": HUMANS3[:2]})
        assert refused.json()["error"]["code"] == "too_many_requests"
        assert client.get("/api/cards").status_code == 200  # reading is not throttled


def test_oversized_bodies_are_refused(client: TestClient) -> None:
    response = client.post("/api/tables", content=b"{" + b" " * 20_000 + b"}")
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"


def test_pages_and_static_files(tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    (static / "index.html").write_text("<p>lobby</p>")
    (static / "game.html").write_text("<p>game</p>")
    (static / "js" / "app.js").write_text("let x = 1;")
    with make_client(tmp_path, static_dir=static) as client:
        lobby = client.get("/")
        assert lobby.text == "<p>lobby</p>" and lobby.headers["referrer-policy"] == "no-referrer"
        assert client.get("/t/abc123?seat=whatever").text == "<p>game</p>"
        assert client.get("/static/js/app.js").text == "let x = 1;"
        assert client.get("/static/missing.js").status_code == 404
    with make_client(tmp_path / "empty", static_dir=tmp_path / "none") as client:
        assert client.get("/").status_code == 404


class _FailingBot:
    name = "failing"

    def __init__(self, answer: Action | None) -> None:
        self.answer = answer

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if self.answer is None:
            raise RuntimeError("thinking failed")
        return self.answer


@pytest.mark.parametrize("answer", [None, Action.spend()])
def test_a_failing_bot_plays_a_legal_action(answer: Action | None) -> None:
    game = new_game(players=3, seed=2)
    legal = game.legal_actions()
    action = asyncio.run(think(_FailingBot(answer), game.observe(0), legal, delay=0))
    assert action in legal
