"""Push across ``oriflamme serve`` processes sharing PostgreSQL (#29 section 3): the server's
VAPID keys, made by processes starting together, are one pair that all of them use; a decision
waiting for an absent player is pushed once, whichever process finds it first."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import httpx

from push_endpoint import Browser, push_endpoint
from servers import START_TIMEOUT, free_port, running_server

PASSWORD = "a long enough passphrase 42"
PUSH_ENV = {"ORIFLAMME_PUSH_LOOPBACK": "1", "ORIFLAMME_PUSH_POLL": "0.05",
            "ORIFLAMME_PUSH_AFTER": "1"}


def start_together(pg_url: str, log: Path, count: int) -> list[tuple[subprocess.Popen[bytes], str]]:
    """``count`` servers started at once on one database (their processes and addresses)."""
    started = []
    for _ in range(count):
        port = free_port()
        with log.open("ab") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "oriflamme", "serve", "--port", str(port), "--db", pg_url],
                stdout=out, stderr=out, start_new_session=True,
            )
        started.append((process, f"http://127.0.0.1:{port}"))
    deadline = time.monotonic() + START_TIMEOUT
    for process, url in started:
        while True:
            assert process.poll() is None, log.read_text()
            try:
                if httpx.get(url + "/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
    return started


def test_processes_starting_together_make_one_key_pair(pg_url: str, tmp_path: Path) -> None:
    started = start_together(pg_url, tmp_path / "servers.log", 3)
    try:
        keys = {httpx.get(url + "/api/push/key").json()["key"] for _, url in started}
    finally:
        for process, _ in started:
            process.kill()
            process.wait(timeout=10)
    assert len(keys) == 1

    async def stored() -> list[str]:
        connection = await asyncpg.connect(pg_url)
        try:
            rows = await connection.fetch("SELECT name FROM server_keys")
        finally:
            await connection.close()
        return [row["name"] for row in rows]

    assert asyncio.run(stored()) == ["vapid_private"]
    # Started again: the same key.
    with running_server(pg_url, tmp_path / "servers.log") as (_, client):
        assert client.get("/api/push/key").json()["key"] in keys


def test_two_processes_push_a_decision_once(pg_url: str, tmp_path: Path) -> None:
    log = tmp_path / "servers.log"
    with push_endpoint() as endpoint, \
            running_server(pg_url, log, "--bot-delay", "0", env=PUSH_ENV) as (_, one), \
            running_server(pg_url, log, "--bot-delay", "0", env=PUSH_ENV) as (_, two):
        made = one.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
        assert made.status_code == 201, made.text
        one.headers["X-CSRF-Token"] = made.json()["csrf"]
        browser = Browser()
        answer = one.post("/api/push/subscriptions",
                          json=browser.subscription(endpoint.url + "/ann"))
        assert answer.status_code == 201, answer.text
        pushed: list[int] = []
        for seed in (1, 2, 3):  # three tables, each waiting for Ann
            table = one.post("/api/tables", json={
                "players": 2, "seats": [{"kind": "human", "account": True},
                                        {"kind": "bot", "level": "random"}], "seed": seed,
            }).json()
            deadline = time.monotonic() + 20
            while not two.get(f"/api/tables/{table['table_id']}/view",
                              params={"token": table["seats"][0]["token"]}).json()["legal"]:
                assert time.monotonic() < deadline
                time.sleep(0.02)
            pushed.append(seed)
            endpoint.wait_for("/ann", len(pushed))
        time.sleep(1.5)  # both processes polled many times since
        tables = [browser.read(push)["table"] for push in endpoint.at("/ann")]
        assert len(tables) == 3 and len(set(tables)) == 3
