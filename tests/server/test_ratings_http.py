"""Players across tables over HTTP: seats of accounts, rated tables and their refusals, joining
(ownership, minimum reputation), "Take this seat", "Leave the game", "My games", leaderboards
and profiles, and `oriflamme ratings rebuild` on the games they played."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oriflamme.cli.main import main
from oriflamme.server import SqliteStore, create_app

PASSWORD = "a long enough passphrase 42"
BOTS = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
ME = {"kind": "human", "account": True}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(SqliteStore(db), bot_delay=0, rate=1000.0, burst=1000.0, tune_gc=False)
    with TestClient(app) as c:
        yield c


def sign_up(client: TestClient, name: str) -> dict[str, Any]:
    """A new account, signed in on ``client`` (its cookie, its CSRF header)."""
    client.cookies.clear()
    client.headers.pop("X-CSRF-Token", None)
    response = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    me = client.get("/api/account").json()
    client.headers["X-CSRF-Token"] = me["csrf"]
    return dict(me)


def sign_in(client: TestClient, name: str) -> None:
    client.cookies.clear()
    client.headers.pop("X-CSRF-Token", None)
    response = client.post("/api/account/signin", json={"name": name, "password": PASSWORD})
    assert response.status_code == 200, response.text
    client.headers["X-CSRF-Token"] = client.get("/api/account").json()["csrf"]


def as_guest(client: TestClient) -> None:
    client.cookies.clear()
    client.headers.pop("X-CSRF-Token", None)


def create(client: TestClient, seats: list[dict[str, Any]], **fields: Any) -> Any:
    return client.post("/api/tables", json={"players": len(seats), "seats": seats, **fields})


def created(client: TestClient, seats: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    response = create(client, seats, **fields)
    assert response.status_code == 201, response.text
    return dict(response.json())


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def view(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/view", params={"token": token})
    assert response.status_code == 200, response.text
    return dict(response.json())


def play_out(client: TestClient, table_id: str, token: str, stop_at: int | None = None) -> None:
    """Play the seat's first legal action at each of its turns (bots answer in between) until
    the game ends, or until step ``stop_at``."""
    deadline = time.monotonic() + 60
    while True:
        seen = view(client, table_id, token)
        if seen["result"] is not None or (stop_at is not None and seen["step"] >= stop_at):
            return
        assert time.monotonic() < deadline, "the game did not end"
        if seen["legal"]:
            client.post(
                f"/api/tables/{table_id}/actions",
                json={"token": token, "action": seen["legal"][0]["action"], "step": seen["step"]},
            )
        else:
            time.sleep(0.005)


def wait_over(client: TestClient, table_id: str) -> None:
    deadline = time.monotonic() + 60
    while not client.get(f"/api/tables/{table_id}").json()["over"]:
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.01)


def test_a_seat_created_for_an_account_is_its_own_from_any_browser(client: TestClient) -> None:
    sign_up(client, "Alice")
    table = created(client, [ME, *BOTS])
    assert table["seats"][0]["name"] == "Alice"
    games = client.get("/api/account/games").json()
    assert games["total"] == 1
    mine = games["games"][0]
    assert mine["table_id"] == table["table_id"] and mine["players"][0] == "Alice"
    link = mine["url"]
    assert (
        link.startswith(f"/t/{table['table_id']}?seat=") and table["seats"][0]["token"] not in link
    )
    # The link of "My games" opens the seat (here as in any browser), like the seat's own.
    account_token = link.partition("?seat=")[2]
    assert view(client, table["table_id"], account_token)["you"] == 0
    assert view(client, table["table_id"], table["seats"][0]["token"])["you"] == 0
    assert view(client, table["table_id"], table["spectator_token"])["seats"][0]["account"]
    as_guest(client)
    assert error(client.get("/api/account/games")) == (401, "signed_out")
    assert error(create(client, [ME, *BOTS])) == (401, "signed_out")
    # Another account's token of that seat opens nothing.
    sign_up(client, "Mallory")
    other = client.get("/api/account/games").json()
    assert other["total"] == 0


@pytest.mark.parametrize(
    ("fields", "seats", "expected"),
    [
        ({"seed": 3}, [ME, *BOTS], (422, "rated_custom_deal")),
        ({"hints": True}, [ME, *BOTS], (422, "rated_hints")),
        ({}, [ME, {"kind": "human", "name": "Guest"}, BOTS[0]], (422, "rated_needs_accounts")),
        ({"variant": "standard"}, [ME, BOTS[0]], (422, "rated_variant")),
        ({"cards": ["a"] * 10}, [ME, *BOTS], (422, "rated_cards")),
    ],
)
def test_a_rated_table_is_fair_to_rate(
    client: TestClient,
    fields: dict[str, Any],
    seats: list[dict[str, Any]],
    expected: tuple[int, str],
) -> None:
    assert error(create(client, [ME, *BOTS], rated=True)) == (401, "signed_out")
    sign_up(client, "Alice")
    assert error(create(client, seats, rated=True, **fields)) == expected
    assert client.get("/api/account/games").json()["total"] == 0


def test_account_seat_requests_that_make_no_sense_are_refused(client: TestClient) -> None:
    sign_up(client, "Alice")
    named = {"kind": "human", "account": True, "name": "Bob"}
    assert create(client, [named, *BOTS]).status_code == 422
    assert create(client, [ME, ME, BOTS[0]]).status_code == 422
    clash = [ME, {"kind": "human", "name": "alice"}, BOTS[0]]
    assert error(create(client, clash)) == (422, "name_taken")
    private = create(client, [ME, *BOTS], min_reputation=0.5)
    assert private.status_code == 422 and "min_reputation" in private.text


def test_a_rated_game_updates_the_leaderboard_the_profile_and_my_games(
    client: TestClient, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sign_up(client, "Alice")
    table = created(client, [ME, *BOTS], rated=True)
    assert view(client, table["table_id"], table["seats"][0]["token"])["rated"]
    play_out(client, table["table_id"], table["seats"][0]["token"])
    board = client.get("/api/leaderboard", params={"pool": "3-5p"}).json()
    assert board["pool"] == "3-5p" and board["total"] == 2
    entries = {e["name"]: e for e in board["entries"]}
    assert entries["Alice"]["games"] == 1 and not entries["Alice"]["bot"]
    assert entries["random"]["bot"] and entries["random"]["games"] == 1
    assert [e["rank"] for e in board["entries"]] == [1, 2]
    assert client.get("/api/leaderboard", params={"pool": "2p"}).json()["entries"] == []
    second = client.get("/api/leaderboard", params={"page": 2, "per_page": 1}).json()
    assert second["total"] == 2 and [e["rank"] for e in second["entries"]] == [2]
    assert second["entries"][0]["name"] == board["entries"][1]["name"]
    profile = client.get("/api/players/alice").json()
    assert profile["name"] == "Alice" and profile["reputation"] == 1.0
    rated = profile["ratings"]["3-5p"]
    assert rated["games"] == 1 and rated["rating"] == entries["Alice"]["rating"]
    assert [p["table_id"] for p in rated["history"]] == [table["table_id"]]
    assert profile["by_players"] == {"3": {"played": 1, "won": rated["wins"]}}
    recent = profile["recent"][0]
    assert recent["finished"] and recent["url"] is None
    assert client.get(recent["replay_url"]).status_code == 200
    finished = client.get("/api/account/games", params={"status": "finished"}).json()
    assert finished["games"][0]["replay_url"] == recent["replay_url"]
    assert client.get("/api/account/games").json()["total"] == 0
    assert error(client.get("/api/players/nobody")) == (404, "unknown_player")
    assert client.get("/api/leaderboard", params={"pool": "4p"}).status_code == 422
    # The account's export holds its rating, with the game that made it, and the game.
    exported = client.get("/api/account/export").json()
    mine = exported["ratings"]["3-5p"]
    assert (mine["rating"], mine["games"]) == (rated["rating"], 1)
    assert [(p["table"], p["rating"]) for p in mine["history"]] == [
        (table["table_id"], rated["history"][0]["rating"])
    ]
    assert [g["table"] for g in exported["games"]] == [table["table_id"]]
    # The stored ratings are the ones the results give again.
    assert main(["ratings", "rebuild", "--check", "--db", str(db)]) == 0
    assert "1 rated games replayed, 2 ratings: 0 differed" in capsys.readouterr().out


def test_joining_owns_the_seat_and_a_table_may_ask_for_a_reputation(client: TestClient) -> None:
    # Bob leaves a game: his reputation falls to 0.
    sign_up(client, "Bob")
    left = created(client, [ME, *BOTS])
    play_out(client, left["table_id"], left["seats"][0]["token"], stop_at=6)
    gone = client.post(
        f"/api/tables/{left['table_id']}/leave", json={"token": left["seats"][0]["token"]}
    )
    assert gone.status_code == 200, gone.text
    assert gone.json()["seats"][0]["left"] and gone.json()["seats"][0]["kind"] == "bot"
    wait_over(client, left["table_id"])
    assert client.get("/api/players/Bob").json()["reputation"] == 0.0
    # Alice's public rated table asks for 50 %.
    sign_up(client, "Alice")
    strict = created(
        client,
        [ME, {"kind": "open"}, BOTS[0]],
        rated=True,
        public=True,
        min_reputation=0.5,
        clock={"per_decision": 60},
    )
    table_id = strict["table_id"]
    lobby = client.get("/api/lobby").json()["tables"][0]
    assert lobby["rated"] and lobby["min_reputation"] == 0.5
    assert lobby["seats"][0]["account"] and lobby["seats"][0]["reputation"] is None
    assert error(client.post(f"/api/tables/{table_id}/join", json={})) == (409, "already_seated")
    as_guest(client)
    assert error(client.post(f"/api/tables/{table_id}/join", json={"name": "Gus"})) == (
        401,
        "signed_out",
    )
    sign_in(client, "Bob")
    assert error(client.post(f"/api/tables/{table_id}/join", json={})) == (
        409,
        "reputation_too_low",
    )
    sign_up(client, "Carol")  # no finished game yet: nothing held against her
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "ignored"})
    assert joined.status_code == 201, joined.text
    assert joined.json()["name"] == "Carol"
    ongoing = client.get("/api/account/games").json()["games"]
    assert [(g["table_id"], g["seat"]) for g in ongoing] == [(table_id, 1)]
    assert client.get(f"/api/lobby/{table_id}").json()["seats"][1]["account"]


def test_take_this_seat_makes_an_invite_link_an_accounts_seat(client: TestClient) -> None:
    table = created(
        client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}, BOTS[0]]
    )
    table_id, token = table["table_id"], table["seats"][1]["token"]
    claim = f"/api/tables/{table_id}/claim"
    assert error(client.post(claim, json={"token": token})) == (401, "signed_out")
    sign_up(client, "Zoe")
    assert error(client.post(claim, json={"token": table["spectator_token"]})) == (
        403,
        "not_a_player",
    )
    taken = client.post(claim, json={"token": token})
    assert taken.status_code == 200, taken.text
    assert taken.json()["seat"] == 1 and taken.json()["name"] == "Zoe"
    assert view(client, table_id, token)["seats"][1]["name"] == "Zoe"  # the link still works
    assert view(client, table_id, taken.json()["url"].partition("?seat=")[2])["you"] == 1
    assert error(client.post(claim, json={"token": table["seats"][0]["token"]})) == (
        409,
        "already_seated",
    )
    sign_up(client, "Yann")
    assert error(client.post(claim, json={"token": token})) == (409, "seat_owned")
    # The session's requests need their CSRF token.
    client.headers.pop("X-CSRF-Token")
    assert error(client.post(claim, json={"token": table["seats"][0]["token"]})) == (403, "csrf")


def test_leaving_hands_the_seat_to_the_stand_in_and_ranks_last(client: TestClient) -> None:
    sign_up(client, "Alice")
    table = created(client, [ME, {"kind": "open"}, BOTS[0]], clock={"per_decision": 60})
    table_id, token = table["table_id"], table["seats"][0]["token"]
    leave = f"/api/tables/{table_id}/leave"
    assert error(client.post(leave, json={"token": token})) == (409, "not_started")
    assert error(client.post(leave, json={"token": table["spectator_token"]})) == (
        403,
        "not_a_player",
    )
    hand = client.post(
        f"/api/tables/{table_id}/seats/1/bot",
        json={"creator_token": table["creator_token"], "level": "random", "expect": "open"},
    )
    assert hand.status_code == 200, hand.text
    assert client.post(leave, json={"token": token}).status_code == 200
    assert error(client.post(leave, json={"token": token})) == (409, "seat_is_bot")
    wait_over(client, table_id)
    assert error(client.post(leave, json={"token": token})) == (409, "seat_is_bot")
    done = client.get("/api/account/games", params={"status": "finished"}).json()["games"][0]
    result = view(client, table_id, table["spectator_token"])["result"]
    stayed = {(result["scores"][i], result["queue_cards"][i]) for i in (1, 2)}
    assert done["left"] and not done["won"]
    assert done["rank"] == len(stayed) + 1  # last, behind both bots whatever the scores
    profile = client.get("/api/players/Alice").json()
    assert (profile["finished"], profile["left"], profile["reputation"]) == (1, 1, 0.0)
    assert profile["ratings"] == {}



def test_the_rebuild_command_says_what_is_wrong_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ratings"]) != 0
    assert main(["ratings", "rebuild", "--db", str(tmp_path / "missing" / "x.sqlite3")]) != 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 2 and all(line.startswith("oriflamme ratings: error:") for line in lines)
    assert not (tmp_path / "missing").exists()  # nothing created by a mistyped path
    # A database without rated games has nothing to rebuild, and nothing differs.
    asyncio.run(SqliteStore(tmp_path / "new.sqlite3").close())
    assert main(["ratings", "rebuild", "--check", "--db", str(tmp_path / "new.sqlite3")]) == 0
    assert "0 rated games replayed" in capsys.readouterr().out


def test_a_bot_level_has_a_profile_with_its_rated_games(client: TestClient) -> None:
    sign_up(client, "Alice")
    table = created(client, [ME, *BOTS], rated=True)
    play_out(client, table["table_id"], table["seats"][0]["token"])
    board = client.get("/api/leaderboard", params={"pool": "3-5p"}).json()
    entry = next(e for e in board["entries"] if e["bot"])
    profile = client.get(f"/api/bots/{entry['name']}").json()
    assert profile["name"] == "random" and profile["bot"] and not client.get(
        "/api/players/Alice"
    ).json()["bot"]
    rated = profile["ratings"]["3-5p"]
    assert (rated["rating"], rated["games"], rated["wins"]) == (
        entry["rating"], 1, entry["wins"]
    )
    assert [p["table_id"] for p in rated["history"]] == [table["table_id"]]
    assert profile["by_players"] == {"3": {"played": 1, "won": entry["wins"]}}
    assert (profile["reputation"], profile["finished"], profile["left"]) == (None, 1, 0)
    (game,) = profile["recent"]
    assert game["seat"] == 1 and game["rated"] and game["url"] is None
    assert game["won"] == bool(entry["wins"]) and game["won"] == (game["rank"] == 1)
    assert client.get(game["replay_url"]).status_code == 200
    # A bot seat's label, as the table shows it, opens the level's profile too.
    label = table["seats"][2]["name"]
    assert label.endswith("bot (random)")
    assert client.get(f"/api/players/{label}").json() == profile
    assert client.get(f"/api/players/{label.upper()}").json() == profile
    # A level that exists but never played a rated game; one that does not exist.
    hard = client.get("/api/bots/hard").json()
    assert (hard["ratings"], hard["recent"], hard["finished"]) == ({}, [], 0)
    assert error(client.get("/api/bots/grandmaster")) == (404, "unknown_player")
    assert error(client.get("/api/players/Blue bot (grandmaster)")) == (404, "unknown_player")
    page = client.get("/bots/random")
    assert page.status_code == 200 and "profile.js" in page.text
