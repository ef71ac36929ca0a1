"""#32 section 1: ``GET /metrics`` of real ``oriflamme serve`` processes (one on SQLite, two
workers on PostgreSQL): the counters and histograms move when moves are played, refused and
delivered; the gauges follow the sockets; only loopback and ``--metrics-from`` may read it."""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from oriflamme.server.app import create_app
from oriflamme.server.limits import MAX_BODY
from scripts import ROOT
from servers import proxied, running_server
from test_scale_out import create, follow, post, view

SAMPLE = re.compile(r"^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+|NaN)$")


def read(client: httpx.Client) -> dict[str, float]:
    """The samples of ``/metrics`` by name and labels (``'name{label="x"}'``)."""
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    samples: dict[str, float] = {}
    for line in response.text.splitlines():
        found = SAMPLE.match(line)
        if found:
            samples[found[1] + (found[2] or "")] = float(found[3])
    return samples


def move(client: httpx.Client, table: dict[str, Any], token: str) -> dict[str, Any]:
    """Play the first legal action of the seat of ``token`` (whose turn it is)."""
    mine = view(client, table, token)
    body = {"token": token, "action": mine["legal"][0]["action"], "step": mine["step"]}
    response = post(client, f"/api/tables/{table['table_id']}/actions", body)
    assert response.status_code == 200, response.text
    return mine


def test_the_counters_move_with_the_play(tmp_path: Path) -> None:
    db, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    with running_server(db, log, "--bot-delay", "0") as (_, client):
        before = read(client)
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        table = create(client, seats, seed=3)
        tokens = [seat["token"] for seat in table["seats"]]
        first = view(client, table, tokens[0])
        mover = 0 if first["legal"] else 1
        with (
            follow(client, table, tokens[1 - mover]) as watcher,
            follow(client, table, table["spectator_token"]) as spectator,
        ):
            watcher.at(0)
            spectator.at(0)
            during = read(client)
            assert during['oriflamme_websockets{role="seat"}'] == 1
            assert during['oriflamme_websockets{role="spectator"}'] == 1
            assert during["oriflamme_tables_in_memory"] >= 1
            # A WebSocket message that is not JSON, and a request body over the limit.
            watcher.ws.send("{not json")
            assert json.loads(watcher.ws.recv(timeout=10))["code"] == "bad_json"
            too_large = post(client, f"/api/tables/{table['table_id']}/actions",
                             {"token": tokens[mover], "pad": "x" * (MAX_BODY + 1)})
            assert too_large.status_code == 413, too_large.text
            played = move(client, table, tokens[mover])
            watcher.at(played["step"] + 1)
            spectator.at(played["step"] + 1)
            # A move out of turn is refused, and counted by its reason.
            other = view(client, table, tokens[mover])
            refused = client.post(
                f"/api/tables/{table['table_id']}/actions",
                json={"token": tokens[mover], "action": played["legal"][0]["action"],
                      "step": other["step"]},
            )
            assert refused.status_code in (400, 403), refused.text
            after = read(client)
        code = refused.json()["error"]["code"]
        key = 'oriflamme_actions_stored_total{source="human"}'
        assert after[key] == before.get(key, 0) + 1
        assert after["oriflamme_action_stored_seconds_count"] == (
            before.get("oriflamme_action_stored_seconds_count", 0) + 1
        )
        # The watcher's and the spectator's sockets got the view of the move: each delivery
        # was timed, after its storage.
        assert after["oriflamme_action_delivered_seconds_count"] == (
            before.get("oriflamme_action_delivered_seconds_count", 0) + 2
        )
        assert after["oriflamme_action_delivered_seconds_sum"] >= 0
        for why in (code, "bad_json", "too_large"):
            reason = f'oriflamme_rejected_requests_total{{reason="{why}"}}'
            assert after[reason] == before.get(reason, 0) + 1, why
        closed = read(client)
        assert closed['oriflamme_websockets{role="seat"}'] == 0  # the sockets closed
        assert closed['oriflamme_websockets{role="spectator"}'] == 0
        assert after['oriflamme_db_connections{state="in_use"}'] == 0  # SQLite: no pool


def test_bot_moves_and_their_waits_are_counted(tmp_path: Path) -> None:
    db, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    with running_server(db, log, "--bot-delay", "0") as (_, client):
        before = read(client)
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]
        body = {"players": 2, "seats": seats, "seed": 5, "first_player": 1}
        response = post(client, "/api/tables", body)
        assert response.status_code == 201, response.text
        table = response.json()
        with follow(client, table, table["seats"][0]["token"]) as watcher:
            watcher.at(1)  # the bot placed its first card
        samples = read(client)
        key = 'oriflamme_actions_stored_total{source="bot"}'
        assert samples[key] == before.get(key, 0) + 1
        waits = "oriflamme_bot_decision_wait_seconds_count"
        assert samples[waits] == before.get(waits, 0) + 1
        assert samples["oriflamme_bot_decisions_waiting"] == 0
        # A human whose turn clock runs out: the stand-in plays for them.
        humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        body = {"players": 2, "seats": humans, "seed": 5, "clock": {"per_decision": 2},
                "stand_in": "random"}
        response = post(client, "/api/tables", body)
        assert response.status_code == 201, response.text
        clocked = response.json()
        with follow(client, clocked, clocked["spectator_token"]) as watcher:
            watcher.at(1)
        stand_in = 'oriflamme_actions_stored_total{source="stand_in"}'
        later = read(client)
        assert later[stand_in] == before.get(stand_in, 0) + 1
        assert later[key] == samples[key]  # not counted as a bot seat's


def test_a_scrape_that_finds_the_database_away_counts_a_database_error(pg_url: str) -> None:
    """The database-wide gauges are left as last seen, and the error is counted."""
    from starlette.testclient import TestClient

    with (
        proxied(pg_url) as (proxy, through),
        TestClient(create_app(through, bot_delay=0, tune_gc=False),
                   client=("127.0.0.1", 50000)) as client,
    ):
        before = read(client)  # type: ignore[arg-type]
        proxy.cut()
        during = read(client)  # type: ignore[arg-type]
        proxy.restore()
    key = "oriflamme_db_errors_total"
    assert during[key] == before.get(key, 0) + 1
    assert during["oriflamme_bot_decisions_waiting"] == before["oriflamme_bot_decisions_waiting"]


def test_only_loopback_and_the_allowed_networks_read_the_metrics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone else is told there is no such page (404), like any unknown path."""
    import asyncio

    async def status(client_host: str) -> int:
        app = create_app(str(tmp_path / "games.sqlite3"), tune_gc=False)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app, client=(client_host, 4000))
            async with httpx.AsyncClient(transport=transport, base_url="http://x") as client:
                return (await client.get("/metrics")).status_code

    assert asyncio.run(status("127.0.0.1")) == 200
    assert asyncio.run(status("::1")) == 200
    assert asyncio.run(status("203.0.113.9")) == 404
    monkeypatch.setenv("ORIFLAMME_METRICS_FROM", "203.0.113.0/24")
    assert asyncio.run(status("203.0.113.9")) == 200
    assert asyncio.run(status("198.51.100.1")) == 404


def test_bad_metrics_networks_are_refused_on_the_command_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "oriflamme", "serve", "--metrics-from", "10.0.0/8",
         "--db", str(tmp_path / "x.sqlite3")],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "'10.0.0/8' is not an address or a network" in done.stderr


def test_several_workers_answer_with_the_sum_of_all(pg_url: str, tmp_path: Path) -> None:
    """With ``--workers 2`` any worker answers a scrape with every worker's counts."""
    log = tmp_path / "server.log"
    with running_server(pg_url, log, "--bot-delay", "0", "--workers", "2") as (_, client):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        moved = 0
        for seed in range(4):
            with httpx.Client(base_url=client.base_url) as fresh:  # a new connection: any worker
                table = create(fresh, seats, seed=seed)
                tokens = [seat["token"] for seat in table["seats"]]
                mover = 0 if view(fresh, table, tokens[0])["legal"] else 1
                move(fresh, table, tokens[mover])
                moved += 1
        key = 'oriflamme_actions_stored_total{source="human"}'
        for _ in range(4):
            with httpx.Client(base_url=client.base_url) as fresh:
                assert read(fresh)[key] == moved


def test_every_worker_keeps_its_own_gauges_current(pg_url: str, tmp_path: Path) -> None:
    """With ``--workers 2`` the tables held in memory are summed over the live workers: each
    worker writes its own count as it changes, not only when it answers a scrape (then the sum
    held the other worker's count from whenever it last answered one); a worker killed leaves
    the sum."""
    from oriflamme.server.process_gauges import REFRESH

    log = tmp_path / "server.log"
    key = "oriflamme_tables_in_memory"
    if not Path("/proc/self/stat").exists():
        pytest.skip("finds the workers in /proc")
    with running_server(pg_url, log, "--bot-delay", "0", "--workers", "2") as (serve, client):
        servers: set[str] = set()
        for _ in range(8):  # every worker answers a scrape before any table exists
            with httpx.Client(base_url=client.base_url) as fresh:
                assert read(fresh)[key] == 0
        # Both workers up (on a loaded machine the second may take a while to start): only
        # then can connections reach either.
        up: set[str] = set()
        deadline = time.monotonic() + 60
        while len(up) < 2:
            assert time.monotonic() < deadline, "the second worker never answered"
            with httpx.Client(base_url=client.base_url) as fresh:
                up.add(fresh.get("/healthz").json()["server"])
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        by_server: dict[str, int] = {}
        for seed in range(40):
            with httpx.Client(base_url=client.base_url) as fresh:  # one connection: one worker
                server = fresh.get("/healthz").json()["server"]
                create(fresh, seats, seed=seed)  # held by the worker that created it only
                by_server[server] = by_server.get(server, 0) + 1
            servers = set(by_server)
            if len(servers) == 2 and min(by_server.values()) >= 2:
                break
        assert len(servers) == 2, "one worker took every connection"
        time.sleep(2 * REFRESH)  # every worker wrote its count since
        counts = []
        for _ in range(6):
            with httpx.Client(base_url=client.base_url) as fresh:
                counts.append(read(fresh)[key])
        assert counts == [sum(by_server.values())] * len(counts)
        # A worker killed (no clean-up of its own) leaves the sum: its manager says so for it.
        killed = _workers(serve.pid)[0]
        os.kill(killed, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while len(set(_workers(serve.pid)) - {killed}) < 2:  # started again
            assert time.monotonic() < deadline, "the killed worker was not started again"
            time.sleep(0.1)
        time.sleep(2 * REFRESH)
        counts = []
        for _ in range(6):
            with httpx.Client(base_url=client.base_url) as fresh:
                counts.append(read(fresh)[key])
        assert counts[0] in by_server.values()  # the survivor's; the new worker holds none
        assert counts == [counts[0]] * len(counts)


def _workers(supervisor: int) -> list[int]:
    """The worker processes of ``serve --workers`` (its children that are not helpers of
    ``multiprocessing``), by reading /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == supervisor and b"resource_tracker" not in command:
            found.append(int(entry.name))
    return sorted(found)


def test_the_dashboard_and_the_docs_name_only_metrics_that_exist() -> None:
    """docs/grafana-dashboard.json and docs/server.md's table stay true to the metrics."""
    import json

    from oriflamme.server import metrics

    root = ROOT
    known = {
        value._name
        for value in vars(metrics).values()
        if hasattr(value, "_name") and str(getattr(value, "_name", "")).startswith("oriflamme_")
    }
    assert len(known) == 14
    dashboard = json.loads((root / "docs" / "grafana-dashboard.json").read_text())
    used = {
        re.sub(r"_(total|bucket|count|sum)$", "", name)
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"oriflamme_[a-z_]+", target["expr"])
    }
    assert used == known
    documented = set(re.findall(r"^\| `(oriflamme_[a-z_]+)", (root / "docs" / "server.md")
                                .read_text(), re.MULTILINE))
    assert {re.sub(r"_total$", "", name) for name in documented} == known
