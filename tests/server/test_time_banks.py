"""Time banks (issue #29, section 2) through the HTTP API, on SQLite and PostgreSQL: the clock's
options and presets, each seat's bank shrinking while it decides and gaining the increment,
the stand-in playing when a bank runs out (the seat away until its player acts again, the
run-out counted), three run-outs at a rated table counting as leaving, and the deadline kept by
the database across a ``kill -9`` of the server process."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from oriflamme.api import GameConfig
from oriflamme.server import create_app
from oriflamme.server.storage import GameRecord, SeatRecord, TableRecord
from oriflamme.server.tables import Table
from oriflamme.server.time_bank import is_day_clock
from servers import running_server
from test_faults import _stored
from test_scale_out import follow

ANN = {"kind": "human", "name": "Ann"}
BEN = {"kind": "human", "name": "Ben"}
BOT = {"kind": "bot", "level": "random"}
ME = {"kind": "human", "account": True}
PASSWORD = "a long enough passphrase 42"
#: The clock of most tests: a bank of 2 s, and 1 s more after each decision.
BANK, INCREMENT = 2.0, 1.0
CLOCK = {"bank": BANK, "increment": INCREMENT}
#: Seconds a test waits for what must happen (a failure, not a goal).
PATIENCE = 20.0

Client = TestClient | httpx.Client


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    app = create_app(store_url, bot_delay=0, rate=1000.0, burst=1000.0, tune_gc=False)
    with TestClient(app) as c:
        yield c


def created(client: Client, seats: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    body = {"players": len(seats), "seats": seats, "seed": 5, "first_player": 0, **fields}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def view(client: Client, table: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    token = token or table["spectator_token"]
    response = client.get(f"/api/tables/{table['table_id']}/view", params={"token": token})
    assert response.status_code == 200, response.text
    return dict(response.json())


def wait_for(
    client: Client, table: dict[str, Any], wanted: Callable[[dict[str, Any]], bool], what: str
) -> dict[str, Any]:
    deadline = time.monotonic() + PATIENCE
    while not wanted(seen := view(client, table)):
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)
    return seen


def deciding(seen: dict[str, Any]) -> int | None:
    waiting = seen["waiting_for"]
    return None if waiting is None else int(waiting["seat"])


def act(client: Client, table: dict[str, Any], seat: int) -> None:
    """The seat's player plays its first legal action (it must be their decision)."""
    token = table["seats"][seat]["token"]
    seen = view(client, table, token)
    assert seen["legal"], seen["waiting_for"]
    body = {"token": token, "action": seen["legal"][0]["action"], "step": seen["step"]}
    response = client.post(f"/api/tables/{table['table_id']}/actions", json=body)
    assert response.status_code == 200, response.text


def stand_ins(seen: dict[str, Any], seat: int) -> list[str]:
    return [move["reason"] for move in seen["stand_ins"] if move["seat"] == seat]


# -- the clock asked for ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("clock", "message"),
    [
        ({"bank": -1, "increment": 0}, "clock.bank"),
        ({"bank": 30 * 86400 + 1, "increment": 0}, "clock.bank"),
        ({"bank": 60, "increment": -1}, "clock.increment"),
        ({"bank": 60}, "needs both bank and increment"),
        ({"bank": 0, "increment": 0}, "a bank or an increment above 0"),
        ({"bank": 60, "increment": 5, "per_decision": 30}, "one kind"),
        ({"bank": "60", "increment": 5}, "clock.bank"),
        ("weekly", "clock.preset"),
        ({"preset": "hourly"}, "clock.preset"),
    ],
)
def test_a_bad_time_bank_is_refused_clearly(
    client: TestClient, clock: Any, message: str
) -> None:
    response = client.post("/api/tables", json={"players": 2, "seats": [ANN, BOT], "clock": clock})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request" and message in error["message"], error


def test_the_daily_preset_is_a_bank_of_three_days_and_a_day_a_decision(
    client: TestClient,
) -> None:
    for clock in ("daily", {"preset": "daily"}):
        table = created(client, [ANN, BEN], clock=clock)
        seen = view(client, table)
        assert seen["clock"]["kind"] == "bank" and seen["clock"]["preset"] == "daily"
        assert (seen["clock"]["bank"], seen["clock"]["increment"]) == (3 * 86400, 86400)
        assert [s["bank_left"] for s in seen["seats"]] == [3 * 86400, 3 * 86400]
        # Ann decides: her deadline is what her bank holds, from when her decision began.
        assert seen["deadline"]["seat"] == 0 and seen["deadline"]["reason"] == "clock"
        left = seen["deadline"]["at"] - seen["server_time"]
        assert 3 * 86400 - PATIENCE < left <= 3 * 86400
        # Its players come and go: by default nobody is played for for being away.
        summary = client.get(f"/api/tables/{table['table_id']}").json()
        assert summary["absent_after"] is None
        assert (summary["clock"], summary["bank"], summary["increment"]) == (
            None, 3 * 86400, 86400
        )
    kept = created(client, [ANN, BEN], clock="daily", absent_after=3600)
    assert client.get(f"/api/tables/{kept['table_id']}").json()["absent_after"] == 3600
    minutes = created(client, [ANN, BEN], clock={"bank": 600, "increment": 10})
    assert client.get(f"/api/tables/{minutes['table_id']}").json()["absent_after"] == 120
    per_decision = view(client, created(client, [ANN, BEN], clock={"per_decision": 60}))
    assert per_decision["clock"]["kind"] == "per_decision"
    assert per_decision["clock"]["bank"] is None
    assert [s["bank_left"] for s in per_decision["seats"]] == [None, None]


def test_a_public_table_with_a_bank_is_listed_with_it(client: TestClient) -> None:
    seats = [ANN, {"kind": "open"}]
    created(client, seats, seed=None, public=True, clock={"bank": 300, "increment": 5})
    created(client, seats, seed=None, public=True, clock="daily")
    created(client, seats, seed=None, public=True, no_show_after=60)
    listed = client.get("/api/lobby", params={"clock": "true"}).json()["tables"]
    assert sorted((t["bank"], t["increment"]) for t in listed) == [(300, 5), (3 * 86400, 86400)]
    assert all(t["clock"] is None for t in listed)
    unclocked = client.get("/api/lobby", params={"clock": "false"}).json()["tables"]
    assert [(t["bank"], t["clock"]) for t in unclocked] == [(None, None)]


@pytest.mark.parametrize(
    ("clock", "day"),
    [
        ({}, False),
        ({"clock": 60.0}, False),
        ({"clock": 3600.0}, True),
        ({"bank": 600.0, "increment": 10.0}, False),
        ({"bank": 1800.0, "increment": 3600.0}, True),
        ({"bank": 3 * 86400.0, "increment": 86400.0}, True),
    ],
)
def test_day_clocks_are_the_daily_preset_and_clocks_of_an_hour_or_more(
    clock: dict[str, float], day: bool
) -> None:
    seats = (SeatRecord(0, "human", "Ann", None, None), SeatRecord(1, "human", "Ben", None, None))
    record = TableRecord("t", GameConfig(players=2).to_dict(), "en", "", "", seats, **clock)
    assert is_day_clock(Table(record, GameRecord(1, 5, ()))) is day


# -- spending, gaining, running out -------------------------------------------------------------
def test_the_bank_shrinks_gains_the_increment_and_the_stand_in_plays_when_it_is_empty(
    client: TestClient,
) -> None:
    started = time.monotonic()
    table = created(client, [ANN, BEN], clock=CLOCK, absent_after=None, stand_in="random")
    first = view(client, table)
    assert deciding(first) == 0
    assert [s["bank_left"] for s in first["seats"]] == [BANK, BANK]
    time.sleep(0.5)  # Ann thinks half a second at least
    act(client, table, 0)
    spent_at_most = time.monotonic() - started
    after = view(client, table)
    assert deciding(after) == 1, "Ben decides next"
    ann = after["seats"][0]
    # Charged what she spent (at least the half second) and credited the increment.
    assert BANK - spent_at_most + INCREMENT <= ann["bank_left"] <= BANK - 0.5 + INCREMENT
    assert (ann["ran_out"], ann["away"]) == (0, False)
    assert after["seats"][1]["bank_left"] == BANK  # Ben has not decided yet
    # Ben lets his bank run out: the stand-in plays for him, not before it is empty.
    waited = time.monotonic()
    played = wait_for(client, table, lambda v: v["step"] >= 2, "the stand-in plays for Ben")
    assert time.monotonic() - waited >= BANK - 0.5
    assert stand_ins(played, 1) == ["clock"]
    ben = played["seats"][1]
    assert ben["kind"] == "human" and ben["ran_out"] == 1 and ben["away"]
    assert ben["bank_left"] == INCREMENT  # empty, then the increment
    # The stand-in keeps playing for Ben while he is away (not a new run-out each time); Ann
    # plays her own decisions meanwhile.
    while deciding(seen := view(client, table)) != 1 or stand_ins(seen, 1) == ["clock"]:
        if deciding(seen) == 0:
            act(client, table, 0)
        time.sleep(0.02)
    assert view(client, table)["seats"][1]["ran_out"] == 1
    # Ben acts again: back, with his bank going on from what it holds.
    while deciding(seen := view(client, table)) != 1:
        if deciding(seen) == 0:
            act(client, table, 0)
        time.sleep(0.02)
    moves = len(seen["stand_ins"])
    act(client, table, 1)
    back = view(client, table)
    assert len(back["stand_ins"]) == moves  # his own move
    assert not back["seats"][1]["away"] and back["seats"][1]["ran_out"] == 1
    assert 0 < back["seats"][1]["bank_left"] <= 2 * INCREMENT


def test_a_seat_that_ran_out_three_times_at_a_rated_table_counts_as_having_left(
    client: TestClient,
) -> None:
    response = client.post("/api/account/signup", json={"name": "Alice", "password": PASSWORD})
    assert response.status_code == 201, response.text
    client.headers["X-CSRF-Token"] = client.get("/api/account").json()["csrf"]
    table = created(
        client, [ME, BOT], rated=True, seed=None, first_player=None, stand_in="random",
        clock={"bank": 0.5, "increment": 1.5},
    )
    # Alice lets her bank run out three times, acting herself in between (each time back).
    played_at: set[int] = set()
    while (seen := view(client, table))["seats"][0]["ran_out"] < 3:
        assert seen["result"] is None, "the game ended before three run-outs"
        own = view(client, table, table["seats"][0]["token"])
        if own["legal"] and seen["seats"][0]["away"] and seen["step"] not in played_at:
            act(client, table, 0)
            played_at.add(seen["step"])
        time.sleep(0.02)
    assert seen["seats"][0]["kind"] == "human" and not seen["seats"][0]["left"]
    # She plays the rest herself, at once.
    while (seen := view(client, table))["result"] is None:
        if deciding(seen) == 0:
            token = table["seats"][0]["token"]
            own = view(client, table, token)
            if own["legal"]:
                body = {"token": token, "action": own["legal"][0]["action"], "step": own["step"]}
                client.post(f"/api/tables/{table['table_id']}/actions", json=body)
        time.sleep(0.01)
    finished = client.get("/api/account/games", params={"status": "finished"}).json()["games"]
    assert finished[0]["left"] and not finished[0]["won"] and finished[0]["rank"] == 2
    assert client.get("/api/players/Alice").json()["reputation"] == 0.0


# -- across a kill -9 ---------------------------------------------------------------------------
def test_banks_and_their_deadline_outlive_a_killed_server(store_url: str, tmp_path: Path) -> None:
    """The process that held the table (and would have played Ben's deadline) is killed; a new
    one on the same database plays the stand-in when Ben's bank is empty, with Ann's bank as
    the killed process stored it."""
    options = ("--bot-delay", "0", "--tables-per-hour", "0")
    db = store_url if store_url.startswith("postgresql") else Path(store_url)
    with running_server(store_url, tmp_path / "a.log", *options) as (first, a):
        table = created(a, [ANN, BEN], clock=CLOCK, absent_after=None, stand_in="random")
        time.sleep(0.3)
        act(a, table, 0)
        table_id = table["table_id"]
        ann_bank = view(a, table)["seats"][0]["bank_left"]
        first.kill()
        first.wait(timeout=10)
    killed = time.monotonic()
    # Read while no process runs: the deadline of Ben's decision as the killed process stored it.
    stored = _stored(db, "SELECT turn_deadline, turn_step FROM games WHERE table_id = $1", table_id)
    assert stored[0][1] == 1
    with running_server(store_url, tmp_path / "b.log", *options) as (_, b):
        seen = view(b, table)
        assert seen["seats"][0]["bank_left"] == pytest.approx(ann_bank, abs=0.05)
        if seen["step"] == 1:  # (the new process may have started after Ben's deadline)
            assert seen["seats"][1]["bank_left"] == BANK
            # Ben's clock counts from when his decision began, not from the restart.
            assert seen["deadline"]["at"] == pytest.approx(stored[0][0], abs=0.05)
        played = wait_for(b, table, lambda v: v["step"] >= 2, "the stand-in plays for Ben")
        assert time.monotonic() - killed < PATIENCE
        assert stand_ins(played, 1) == ["clock"]
        assert played["seats"][1]["ran_out"] == 1 and played["seats"][1]["away"]
        assert played["seats"][1]["bank_left"] == INCREMENT
        assert played["seats"][0]["bank_left"] == pytest.approx(ann_bank, abs=0.05)


def test_every_process_shows_the_bank_another_charged(pg_url: str, tmp_path: Path) -> None:
    """Ann and Ben act through A; B, which holds the table too, shows each bank as the database
    charged it (B reads the seats again when A's action is announced)."""
    options = ("--bot-delay", "0", "--tables-per-hour", "0")
    with (
        running_server(pg_url, tmp_path / "a.log", *options) as (_, a),
        running_server(pg_url, tmp_path / "b.log", *options) as (_, b),
    ):
        table = created(a, [ANN, BEN], clock={"bank": 60, "increment": 7}, absent_after=None)
        with follow(b, table, table["spectator_token"]) as on_b:
            assert on_b.at(0)["seats"][0]["bank_left"] == 60
            # Each acts once first (their arrival makes every process read the seats anyway).
            acted: list[int] = []
            while acted.count(0) < 2 or 1 not in acted:
                seat = deciding(view(a, table))
                assert seat is not None
                time.sleep(0.1)
                act(a, table, seat)
                acted.append(seat)
            step = len(acted)
            stored = _stored(
                pg_url, "SELECT bank_left FROM seats WHERE table_id = $1 ORDER BY seat",
                table["table_id"],
            )
            assert all(60 - PATIENCE < row[0] < 60 + 7 * step for row in stored)
            charged = on_b.until(
                lambda v: v["step"] == step and [s["bank_left"] for s in v["seats"]]
                == [row[0] for row in stored],
                "both banks as stored",
            )
            assert charged["seats"][0]["bank_left"] != 60
