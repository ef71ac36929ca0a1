"""Reviewing finished games and learning: replays, frames, post-game analyses, hints (#15).

The real server (FastAPI app, SQLite storage, bot workers) serves every request; analyses and
hints run with a small search budget (``ORIFLAMME_REVIEW_ITERATIONS``), read by the server when
each job starts, so that the suite stays quick.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oriflamme.api import Game, load
from oriflamme.server import SqliteStore, create_app
from oriflamme.server.replays import everything
from test_server_api import HUMANS3, create, post_action, seat_token, view

ITERATIONS = "40"


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORIFLAMME_REVIEW_ITERATIONS", ITERATIONS)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        SqliteStore(tmp_path / "games.sqlite3"), bot_delay=0, rate=1000, burst=1000,
        tune_gc=False,
    )
    with TestClient(app) as c:
        yield c


def path_of(table: dict[str, Any], what: str, game: int = 1) -> str:
    return f"/api/tables/{table['table_id']}/games/{game}/{what}"


def finished_table(client: TestClient, **fields: Any) -> dict[str, Any]:
    """A table whose first game was played to its end (humans: their first option)."""
    table = create(client, **fields)
    deadline = time.monotonic() + 60
    while (public := view(client, table, table["spectator_token"]))["result"] is None:
        assert time.monotonic() < deadline, "the game did not end"
        waiting = public["waiting_for"]
        if waiting["kind"] == "bot":
            time.sleep(0.01)
            continue
        token = seat_token(table, waiting["seat"])
        legal = view(client, table, token)["legal"]
        post_action(client, table, token, legal[0]["action"], step=public["step"])
    return table


def wait_analysis(client: TestClient, table: dict[str, Any], token: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(path_of(table, "analysis"), params={"token": token})
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        if data["status"] in ("done", "failed"):
            return data
        assert time.monotonic() < deadline, data
        time.sleep(0.1)


# -- replays ---------------------------------------------------------------------------------
def test_the_replay_of_a_finished_game_plays_it_again(client: TestClient) -> None:
    table = finished_table(client)
    for token in (seat_token(table, 1), table["spectator_token"], table["creator_token"]):
        answer = client.get(path_of(table, "replay"), params={"token": token})
        assert answer.status_code == 200, answer.text
        record = answer.json()
        assert record["format"] == "oriflamme-replay" and record["seed"] == 5
        game = load(record)
        assert game.is_over
        assert game.observe(None) == view(client, table, table["spectator_token"])["observation"]


def test_a_game_continued_from_a_position_replays_from_it(client: TestClient) -> None:
    position = Game.from_replay(
        {"format": "oriflamme-replay", "version": 1, "seed": 3,
         "config": {"players": 3}, "actions": []}
    )
    for _ in range(10):
        position.apply(position.legal_actions()[0])
    start = position.position()
    body = {"players": 3, "seats": HUMANS3, "save": start}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table = created.json()
    while view(client, table, table["spectator_token"])["result"] is None:
        public = view(client, table, table["spectator_token"])
        token = seat_token(table, public["waiting_for"]["seat"])
        post_action(client, table, token, view(client, table, token)["legal"][0]["action"])
    record = client.get(path_of(table, "replay"), params={"token": table["creator_token"]}).json()
    assert record["seed"] is None and record["start"] is not None
    replayed = load(record)
    assert replayed.is_over and len(record["actions"]) > 0
    first = load(record | {"actions": []})
    assert first.position() == Game.from_position(start).position()


def test_replay_errors_are_clear(client: TestClient) -> None:
    running = create(client)
    other = finished_table(client)
    token = seat_token(running, 0)
    cases = [
        (path_of(running, "replay"), token, 409, "not_over"),
        (path_of(running, "replay", 2), token, 404, "unknown_game"),
        (path_of(running, "replay"), "nope", 401, "bad_token"),
        (path_of(running, "replay"), seat_token(other, 0), 401, "bad_token"),
        (path_of(other, "replay", 0), seat_token(other, 0), 422, "invalid_request"),
        ("/api/tables/zzz/games/1/replay", token, 404, "unknown_table"),
        (path_of(other, "frames"), seat_token(other, 0), 200, None),
        (path_of(running, "frames"), token, 409, "not_over"),
        (path_of(running, "analysis"), token, 409, "not_over"),
        (path_of(other, "analysis", 7), seat_token(other, 0), 404, "unknown_game"),
    ]
    for url, used, status, code in cases:
        answer = client.get(url, params={"token": used})
        assert answer.status_code == status, (url, answer.text)
        if code is not None:
            assert answer.json()["error"]["code"] == code
    for asked in ("9", "²", "-1", "al"):
        answer = client.get(
            path_of(other, "frames"), params={"token": seat_token(other, 0), "view": asked}
        )
        assert answer.status_code == 422, asked
    answer = client.post(path_of(running, "analysis"), params={"token": token})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "not_over"


def test_an_earlier_game_replays_after_a_rematch(client: TestClient) -> None:
    table = finished_table(client)
    first = client.get(path_of(table, "replay"), params={"token": seat_token(table, 0)}).json()
    answer = client.post(
        f"/api/tables/{table['table_id']}/rematch", json={"token": seat_token(table, 0)}
    )
    assert answer.status_code == 200
    again = client.get(path_of(table, "replay"), params={"token": seat_token(table, 0)}).json()
    assert again == first
    assert client.get(path_of(table, "replay", 2), params={"token": seat_token(table, 0)}).json()[
        "error"]["code"] == "not_over"


def test_frames_show_each_step_as_a_seat_saw_it_or_everything(client: TestClient) -> None:
    table = finished_table(client)
    token = seat_token(table, 1)
    record = client.get(path_of(table, "replay"), params={"token": token}).json()
    mine = client.get(path_of(table, "frames"), params={"token": token, "lang": "fr"}).json()
    assert mine["view"] == 1 and mine["you"] == 1 and mine["lang"] == "fr"
    frames = mine["frames"]
    assert len(frames) == len(record["actions"]) + 1
    game = load(record | {"actions": []})
    # The players named by their names, isolated (docs/server.md).
    names = [f"\u2068{seat['name']}\u2069" for seat in mine["seats"]]
    lines: list[str] = []
    for step, frame in enumerate(frames):
        assert frame["step"] == step
        assert frame["observation"] == game.observe(1)
        # Humans played every move of this table: each frame says so.
        assert (frame["by"], frame["reason"]) == ((None, None) if step == 0 else ("player", None))
        lines += frame["log"]
        assert lines == game.log_lines(viewer=1, lang="fr", names=names)[: len(lines)]
        if step < len(record["actions"]):
            game.apply(record["actions"][step])
    assert len(lines) == len(game.log_lines(viewer=1, lang="fr"))
    # Everything: every card's type, face down or in a hand.
    seen = client.get(
        path_of(table, "frames"), params={"token": table["spectator_token"], "view": "all"}
    ).json()
    assert seen["view"] == "all" and seen["you"] is None
    middle = load(record | {"actions": record["actions"][:12]})
    shown = seen["frames"][12]["observation"]
    assert shown == everything(middle)
    cards = [c for stack in shown["queue"] for c in stack]
    assert any(not c["face_up"] for c in cards) and all(c["type"] for c in cards)
    assert all("hand" in family for family in shown["families"])
    # A spectator's default view is everything; a seat may look through another seat's eyes.
    other = client.get(path_of(table, "frames"), params={"token": token, "view": "2"}).json()
    assert other["frames"][12]["observation"] == middle.observe(2)


# -- analyses --------------------------------------------------------------------------------
def test_an_analysis_runs_once_in_the_background(client: TestClient) -> None:
    seats = [HUMANS3[0], {"kind": "bot", "level": "random"}, HUMANS3[1]]
    table = finished_table(client, seats=seats)
    token = seat_token(table, 0)
    before = client.get(path_of(table, "analysis"), params={"token": token}).json()
    assert before == {"status": "none", "progress": 0.0, "steps": [], "worst": []}
    asked = client.post(path_of(table, "analysis"), params={"token": token})
    assert asked.status_code == 202 and asked.json()["status"] in ("queued", "running")
    done = wait_analysis(client, table, table["spectator_token"])
    assert done["status"] == "done" and done["progress"] == 1.0
    record = client.get(path_of(table, "replay"), params={"token": token}).json()
    game = load(record | {"actions": []})
    expected = []
    for step, action in enumerate(record["actions"]):
        if game.current_player in (0, 2) and len(game.legal_actions()) > 1:
            expected.append((step, game.current_player))
        game.apply(action)
    assert [(s["step"], s["player"]) for s in done["steps"]] == expected
    for item in done["steps"]:
        assert item["played"] == record["actions"][item["step"]]
        assert len(item["win"]) == 3 and all(0 <= w <= 1 for w in item["win"])
        assert item["loss"] >= 0 and item["played_label"] and item["best_label"]
        if item["played"] == item["best"]:
            assert item["loss"] == 0
    assert done["worst"] and set(done["worst"]) <= {s["step"] for s in done["steps"]}
    for player in (0, 2):
        assert len([s for s in done["steps"] if s["player"] == player
                    and s["step"] in done["worst"]]) <= 3
    # Asked again: the same analysis, not computed again.
    again = client.post(path_of(table, "analysis"), params={"token": seat_token(table, 2)}).json()
    assert again == done
    french = client.get(path_of(table, "analysis"), params={"token": token, "lang": "fr"}).json()
    assert [s["loss"] for s in french["steps"]] == [s["loss"] for s in done["steps"]]
    assert french["steps"][0]["played_label"] != done["steps"][0]["played_label"]


def test_a_table_of_bots_only_has_nothing_to_analyse(client: TestClient) -> None:
    table = create(client, seats=[HUMANS3[0], {"kind": "bot", "level": "random"}], players=2)
    answer = client.post(
        f"/api/tables/{table['table_id']}/seats/0/bot",
        json={"creator_token": table["creator_token"], "level": "random", "expect": "away"},
    )
    assert answer.status_code == 200
    deadline = time.monotonic() + 30
    while not view(client, table, table["spectator_token"])["result"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    answer = client.post(path_of(table, "analysis"), params={"token": table["creator_token"]})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "no_humans"


# -- hints -----------------------------------------------------------------------------------
def test_hints_only_at_learning_tables_and_only_for_the_seat_to_decide(
    client: TestClient,
) -> None:
    plain = create(client)
    answer = client.get(
        f"/api/tables/{plain['table_id']}/hint", params={"token": seat_token(plain, 0)}
    )
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "hints_off"
    table = create(client, hints=True)
    summary = client.get(f"/api/tables/{table['table_id']}").json()
    assert summary["hints"] is True
    assert view(client, table, seat_token(table, 1))["hints"] is True
    url = f"/api/tables/{table['table_id']}/hint"
    for token, status, code in [
        (seat_token(table, 1), 403, "not_your_turn"),
        (table["spectator_token"], 403, "not_a_player"),
        ("bad", 401, "bad_token"),
        (seat_token(plain, 0), 401, "bad_token"),
    ]:
        answer = client.get(url, params={"token": token})
        assert answer.status_code == status and answer.json()["error"]["code"] == code
    answer = client.get(url, params={"token": seat_token(table, 0), "lang": "fr"})
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    mine = view(client, table, seat_token(table, 0), lang="fr")
    assert hint["step"] == 0 and len(hint["win"]) == 3
    assert {"action": hint["action"], "label": hint["label"]} in mine["legal"]
    assert view(client, table, seat_token(table, 0))["step"] == 0  # never played for you
    # The hint is a legal action the seat may then play.
    assert post_action(client, table, seat_token(table, 0), hint["action"]).status_code == 200
    over = finished_table(client, hints=True)
    answer = client.get(
        f"/api/tables/{over['table_id']}/hint", params={"token": seat_token(over, 0)}
    )
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_over"


def test_a_stopped_server_gives_its_analysis_back_and_another_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two servers in turn on one database: the first stops in the middle of an analysis, the
    second takes it over at once and keeps the decisions already judged."""
    # Enough for the first server to be stopped with some steps done and most not.
    monkeypatch.setenv("ORIFLAMME_REVIEW_ITERATIONS", "120")
    path = tmp_path / "games.sqlite3"

    def server() -> TestClient:
        app = create_app(SqliteStore(path), bot_delay=0, rate=1000, burst=1000, tune_gc=False)
        return TestClient(app)

    with server() as first:
        table = finished_table(first)
        token = seat_token(table, 0)
        first.post(path_of(table, "analysis"), params={"token": token})
        deadline = time.monotonic() + 60
        while not (partial := first.get(path_of(table, "analysis"), params={"token": token})
                   .json())["steps"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert partial["status"] == "running" and 0 < partial["progress"] < 1
    kept = partial["steps"][0]

    async def given_back() -> bool:  # free at once, not when its lease would expire (60 s)
        store = SqliteStore(path)
        try:
            return await store.claim_analysis("someone", ttl=0.01) is not None
        finally:
            await store.close()

    assert asyncio.run(given_back())
    with server() as second:
        done = wait_analysis(second, table, token)
    assert done["status"] == "done" and done["steps"][0] == kept
    assert len({s["step"] for s in done["steps"]}) == len(done["steps"])
