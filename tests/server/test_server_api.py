"""The server's HTTP API: creation and its validation, views, actions, errors, bots, rematch."""

from __future__ import annotations

import copy
import gc
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oriflamme.api import CardType, Game, new_game
from oriflamme.server import SqliteStore, create_app
from oriflamme.server.app import GC_THRESHOLDS
from scenarios import own_ambush_replay

HUMANS3 = [{"kind": "human", "name": n} for n in ("Ann", "Ben", "Cid")]


def named(name: str) -> str:
    """A player's name as the server's sentences say it: isolated (docs/server.md)."""
    return f"\u2068{name}\u2069"


#: The players of HUMANS3 as sentences name them (``Game.log_lines(names=…)``).
NAMES3 = tuple(named(n) for n in ("Ann", "Ben", "Cid"))


def make_client(tmp_path: Path, **options: Any) -> TestClient:
    options = {"rate": 1000.0, "burst": 1000.0, "tune_gc": False, **options}
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
    assert [s["name"] for s in table["seats"]] == ["Ann", "Blue bot (random)", "Ben"]
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
    # Players are named by their names, isolated, not by their colours (issue #26).
    assert views[0]["prompt"] == f"{named('Ann')}: choose a card to place"
    assert [s["colour"] for s in public["seats"]] == ["red", "blue", "green"]
    assert not any(s["connected"] for s in public["seats"])


def test_view_language_follows_the_query_then_the_table(client: TestClient) -> None:
    table = create(client, lang="fr")
    french = view(client, table, seat_token(table, 0))["prompt"]
    assert french == f"{named('Ann')}\u202f: choisissez une carte à placer"
    english = view(client, table, seat_token(table, 0), lang="en")
    assert english["lang"] == "en" and english["prompt"].endswith(": choose a card to place")


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
    assert other["log"] == [f"{named('Ann')} placed a card at the end of the Queue"]


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
    # Pinned to the view it was chosen on (the final step has no decision to pin to).
    response = post_action(client, table, seat_token(table, 0), {"kind": "gain"},
                           step=final["step"])
    assert response.status_code == 409 and response.json()["error"]["code"] == "game_over"


def test_the_last_action_sent_again_is_answered_as_played_not_game_over(
    client: TestClient,
) -> None:
    """A page that sends the game's last action again pinned to its step (its socket moved to
    another process before the view came back, docs/server.md "Rolling restarts"; or its first
    answer was a 503 for a commit that went through) hears that it was played, with the view of
    the game over, not "game over": no error to show. Any other seat sending it hears "stale"."""
    table = create(client, players=2, seats=HUMANS3[:2])
    public = view(client, table, table["spectator_token"])
    while True:
        seat = public["waiting_for"]["seat"]
        mine = view(client, table, seat_token(table, seat))
        last = (seat, mine["legal"][0]["action"], mine["step"])
        response = post_action(client, table, seat_token(table, seat), last[1], step=last[2])
        assert response.status_code == 200, response.text
        public = view(client, table, table["spectator_token"])
        if public["result"] is not None:
            break
    seat, action, step = last
    again = post_action(client, table, seat_token(table, seat), action, step=step)
    assert again.status_code == 200, again.text
    assert again.json()["step"] == step + 1 and again.json()["result"] is not None
    other = post_action(client, table, seat_token(table, 1 - seat), action, step=step)
    assert other.status_code == 409 and other.json()["error"]["code"] == "stale"
    assert view(client, table, table["spectator_token"])["step"] == step + 1


# -- seats handed to bots -------------------------------------------------------------------
def test_only_the_creator_can_hand_a_seat_to_a_bot(client: TestClient) -> None:
    table = create(client)
    url = f"/api/tables/{table['table_id']}/seats/0/bot"
    as_seat = client.post(
        url, json={"creator_token": seat_token(table, 1), "level": "random", "expect": "away"}
    )
    assert as_seat.status_code == 403 and as_seat.json()["error"]["code"] == "not_creator"
    unknown = client.post(url, json={"creator_token": "nope", "level": "random", "expect": "away"})
    assert unknown.status_code == 401
    bad_seat = client.post(
        f"/api/tables/{table['table_id']}/seats/7/bot",
        json={"creator_token": table["creator_token"], "level": "random", "expect": "away"},
    )
    assert bad_seat.status_code == 404 and bad_seat.json()["error"]["code"] == "unknown_seat"
    assert view(client, table, seat_token(table, 0))["you"] == 0

    creator = {"creator_token": table["creator_token"], "level": "random", "expect": "away"}
    done = client.post(url, json=creator)
    assert done.status_code == 200
    assert done.json()["seats"][0]["kind"] == "bot" and done.json()["seats"][0]["level"] == "random"
    assert done.json()["seats"][0]["name"] == "Red bot (random)"
    # The bot (seat 0 was to place) plays at once; the old link now watches.
    old = view(client, table, seat_token(table, 0))
    assert old["you"] is None and old["legal"] == []
    assert all("hand" not in f for f in old["observation"]["families"])
    blue = wait_for_step(client, table, seat_token(table, 1), 1)
    assert blue["step"] == 1 and blue["waiting_for"]["seat"] == 1
    refused = post_action(client, table, seat_token(table, 0), {"kind": "gain"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "seat_is_bot"
    again = client.post(url, json=creator)
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
    table = create(client)
    actions = f"/api/tables/{table['table_id']}/actions"
    # 16 KiB at most, but a table's creation may carry a saved game: 128 KiB.
    for url, size, status in [
        (actions, 17_000, 413),
        ("/api/tables", 17_000, 422),
        ("/api/tables", 140_000, 413),
    ]:
        response = client.post(url, content=b"{" + b" " * size + b"}")
        assert response.status_code == status, (url, size)
        if status == 413:
            assert response.json()["error"]["code"] == "too_large"


def test_pages_and_static_files(tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    (static / "index.html").write_text("<p>lobby</p>")
    (static / "game.html").write_text("<p>game</p>")
    (static / "js" / "app.js").write_text("let x = 1;")
    with make_client(tmp_path, static_dir=static) as client:
        lobby = client.get("/")
        assert lobby.text == "<p>lobby</p>" and lobby.headers["referrer-policy"] == "no-referrer"
        game = client.get("/t/abc123?seat=whatever")
        assert game.text == "<p>game</p>"
        for page in (lobby, game):  # #18: no inline script, no other origin, no framing
            policy = page.headers["content-security-policy"]
            assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
            assert "unsafe-inline" not in policy
        assert client.get("/static/js/app.js").text == "let x = 1;"
        assert client.get("/static/missing.js").status_code == 404
    with make_client(tmp_path / "empty", static_dir=tmp_path / "none") as client:
        assert client.get("/").status_code == 404


def test_the_collector_is_tuned_while_serving_and_restored_after(tmp_path: Path) -> None:
    before = gc.get_threshold()
    assert before != GC_THRESHOLDS
    with make_client(tmp_path, tune_gc=True) as client:
        assert client.get("/api/cards").status_code == 200
        assert gc.get_threshold() == GC_THRESHOLDS and gc.get_freeze_count() > 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


# -- games continued from a save, a position or a replay ------------------------------------
#: The worked example of docs/formats.md: green (seat 2) moves red's Queen with its Royal Decree.
DECREE_POSITION: dict[str, Any] = {
    "format": "oriflamme-position",
    "config": {
        "players": 3,
        "cards": [
            "archer",
            "soldier",
            "spy",
            "heir",
            "royal_decree",
            "lord",
            "prince",
            "queen",
            "corruption",
            "ambush",
        ],
    },
    "round": 3,
    "phase": "resolution",
    "first_player": 2,
    "placed": 3,
    "influence": [4, 3, 6],
    "scores_by_round": [[2, 1, 3], [3, 3, 5]],
    "queue": [
        ["blue:lord*"],
        ["red:queen*@green"],
        ["green:spy", "green:royal_decree*"],
        ["red:soldier+1"],
    ],
    "cursor": 2,
    "resolving": "green:royal_decree",
    "pending": [
        {"frame": "discard", "card": "green:royal_decree", "family": "green"},
        {"frame": "gap", "card": "green:royal_decree", "family": "green", "target": "red:queen"},
    ],
    "families": {
        "red": {
            "hand": ["archer", "spy", "lord", "prince"],
            "eliminated": ["heir"],
            "rest": "set_aside",
        },
        "blue": {
            "hand": ["archer", "spy", "heir", "prince"],
            "eliminated": ["soldier"],
            "discarded": ["ambush"],
            "rest": "set_aside",
        },
        "green": {
            "hand": ["archer", "soldier", "lord", "queen"],
            "discarded": ["corruption"],
            "rest": "set_aside",
        },
    },
}


def create_from(client: TestClient, save: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/tables", json={"players": 3, "seats": HUMANS3, "save": save})
    assert response.status_code == 201, response.text
    return dict(response.json())


def played(seed: int, actions: int, players: int = 3) -> Game:
    """A dealt game after ``actions`` random actions."""
    game = new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        game.apply(game.random_action(rng))
    return game


def test_a_table_continues_a_position(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        table = create_from(client, DECREE_POSITION)
        green = view(client, table, seat_token(table, 2))
        assert (green["step"], green["game_number"], green["log"]) == (0, 1, [])
        assert green["observation"]["round"] == 3 and green["observation"]["influence"] == [4, 3, 6]
        assert green["prompt"] == f"{named('Cid')}'s Royal Decree: choose where to move Red Queen"
        gaps = [option["action"]["gap"] for option in green["legal"]]
        assert gaps == [0, 3, 4]  # docs/formats.md: gaps 1 and 2 would change nothing
        queen = green["legal"][-1]["action"]["card"]
        moved = post_action(client, table, seat_token(table, 2), green["legal"][-1]["action"])
        assert moved.status_code == 200, moved.text
        after = moved.json()
        assert after["step"] == 1
        assert after["log"][0] == f"{named('Cid')} moved Red Queen after stack 4"
        assert [stack[-1]["id"] for stack in after["observation"]["queue"]][-1] == queen
    # Stored: a restarted server has the same game, and it goes on.
    with make_client(tmp_path) as client:
        again = view(client, table, seat_token(table, 2))
        assert again["observation"] == after["observation"] and again["log"] == after["log"]
        blue = view(client, table, seat_token(table, 1))
        assert blue["step"] == 1 and blue["waiting_for"]["seat"] == 2


def test_a_table_continues_a_save_or_replay_of_a_dealt_game(client: TestClient) -> None:
    game = played(seed=8, actions=30)
    for record in (game.save(), game.replay()):
        table = create_from(client, json.loads(json.dumps(record)))
        seat = game.current_player
        assert seat is not None
        seen = view(client, table, seat_token(table, seat))
        assert seen["step"] == 30 and seen["observation"] == game.observe(seat)
        assert seen["log"] == game.log_lines(viewer=seat, names=NAMES3)
        assert [o["action"] for o in seen["legal"]] == [a.to_json() for a in game.legal_actions()]
        first = seen["legal"][0]["action"]
        assert post_action(client, table, seat_token(table, seat), first, step=30).is_success


#: Red's face-up Soldier at the cursor must eliminate an adjacent card: red's own face-down
#: Ambush (2 tokens on it) or blue's Lord (R-SOLDIER-1, R-AMBUSH-3).
OWN_AMBUSH_POSITION: dict[str, Any] = {
    "format": "oriflamme-position",
    "config": {"players": 3, "cards": "base"},
    "round": 2,
    "phase": "resolution",
    "placed": 3,
    "influence": [2, 1, 1],
    "scores_by_round": [[2, 1, 1]],
    "queue": [["red:ambush+2"], ["red:soldier*"], ["blue:lord"], ["green:spy"]],
    "cursor": 1,
    "families": {c: {"hand": ["heir"], "rest": "set_aside"} for c in ("red", "blue", "green")},
}


def test_every_view_shows_an_own_ambush_among_the_discarded_cards(tmp_path: Path) -> None:
    """R-AMBUSH-3, R-ELIM-2, R-INFO-1: after red's Soldier eliminates red's own Ambush, every
    seat and the spectator see it in red's discarded cards (``families[].discarded``, which the
    web client shows), none in the eliminated ones; the log says eliminated, then discarded;
    a restarted server, which plays the stored actions again, shows the same."""
    with make_client(tmp_path) as client:
        table = create_from(client, OWN_AMBUSH_POSITION)
        red = view(client, table, seat_token(table, 0))
        ambush = red["observation"]["queue"][0][0]
        assert ambush["type"] == "ambush" and not ambush["face_up"]
        target = next(o for o in red["legal"] if o["action"]["card"] == ambush["id"])
        assert target["label"].startswith("Eliminate your Ambush")
        assert post_action(client, table, seat_token(table, 0), target["action"]).is_success
        ambush = ambush["id"]
        tokens = [seat_token(table, seat) for seat in range(3)] + [table["spectator_token"]]
        views = [view(client, table, token) for token in tokens]
        for seen in views:
            reds = seen["observation"]["families"][0]
            assert reds["discarded"] == [{"id": ambush, "family": 0, "type": "ambush"}]
            assert reds["eliminated"] == []
            assert seen["observation"]["influence"] == [3, 1, 1]
            assert seen["log"] == [f"{named('Ann')} eliminated Red Ambush with Soldier",
                                   "Red Ambush was discarded",
                                   f"{named('Ann')} gained 1 (Soldier)"]
            assert seen["cards"][str(ambush)] == "Red Ambush"
        french = view(client, table, table["spectator_token"], lang="fr")
        assert french["log"][:2] == [f"{named('Ann')} a éliminé l'Embuscade rouge avec le Soldat",
                                     "L'Embuscade rouge a été défaussée"]
    with make_client(tmp_path) as client:
        again = [view(client, table, token) for token in tokens]
        assert [v["observation"] for v in again] == [v["observation"] for v in views]
        assert [v["log"] for v in again] == [v["log"] for v in views]


@pytest.mark.parametrize(("edition", "discarded"),
                         [("revised", ["ambush"]), ("first", ["ambush", "soldier"])])
def test_a_replay_with_an_own_ambush_continues_with_it_discarded(
    client: TestClient, edition: str, discarded: list[str]
) -> None:
    """R-AMBUSH-3: a table continuing a recorded replay plays it again under the current rules."""
    table = create_from(client, own_ambush_replay(edition))
    seen = view(client, table, table["spectator_token"])
    assert seen["step"] == 11
    reds = seen["observation"]["families"][0]
    assert [card["type"] for card in reds["discarded"]] == discarded
    assert reds["eliminated"] == []


@pytest.mark.parametrize(
    ("change", "code", "where"),
    [
        (lambda s: s["position"]["queue"][0].append("red:knight"), "invalid_save", "knight"),
        (lambda s: s.update(format="oriflamme-novel"), "invalid_save", "format"),
        (lambda s: s.update(version=7), "invalid_save", "version"),
        (lambda s: s["position"].update(round="two"), "invalid_save", "round"),
        (lambda s: s["history"]["actions"].pop(), "invalid_save", "history"),
        (lambda s: s["history"].update(seed=9), "invalid_save", "actions["),
        (lambda s: s.update(log=[[99, 1, 0, 0, 0, 0, 0]]), "invalid_save", "log"),
        (lambda s: s["position"].update(influence=[1, 2]), "invalid_save", "influence"),
    ],
)
def test_a_bad_save_is_refused_with_what_is_wrong(
    client: TestClient, change: Any, code: str, where: str
) -> None:
    save = played(seed=4, actions=12).save()
    change(save)
    response = client.post("/api/tables", json={"players": 3, "seats": HUMANS3, "save": save})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == code and where in error["message"], error


def test_a_save_brings_its_own_configuration(client: TestClient) -> None:
    save = played(seed=4, actions=12).save()
    for field, value in [("cards", "embrasement"), ("seed", 3), ("first_player", 1)]:
        body = {"players": 3, "seats": HUMANS3, "save": save, field: value}
        response = client.post("/api/tables", json=body)
        assert response.status_code == 422
        assert response.json()["error"]["code"] == "invalid_request"
        assert response.json()["error"]["message"].startswith(f"{field}: not allowed with save")
    over = played(seed=4, actions=0)
    rng = random.Random(1)
    over.playout(rng)
    body = {"players": 3, "seats": HUMANS3, "save": over.save()}
    finished = client.post("/api/tables", json=body)
    assert finished.status_code == 422 and "over" in finished.json()["error"]["message"]
    duel = client.post(
        "/api/tables", json={**body, "save": played(seed=2, actions=5, players=2).save()}
    )
    assert duel.status_code == 422
    assert duel.json()["error"]["message"] == "players: the saved game has 2 players"
    not_an_object = client.post("/api/tables", json={**body, "save": [1, 2]})
    assert not_an_object.status_code == 422


def test_mangled_saves_never_break_the_server(client: TestClient) -> None:
    """Random damage to a save gets a 201 or a 422, never a server error."""
    rng = random.Random(3)
    base = played(seed=6, actions=20).save()
    values: list[Any] = [None, -1, 0, 99, "", "red:spy", [], {}, [1], True, 1.5]
    statuses = set()
    for _ in range(60):
        save = copy.deepcopy(base)
        node: Any = save
        while isinstance(node, dict | list) and node and rng.random() < 0.8:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            key = rng.choice(keys)
            if not isinstance(node[key], dict | list) or rng.random() < 0.3:
                node[key] = rng.choice(values)
                break
            node = node[key]
        response = client.post("/api/tables", json={"players": 3, "seats": HUMANS3, "save": save})
        statuses.add(response.status_code)
        assert response.status_code in (201, 422), response.text
    assert 422 in statuses
