"""Several real ``oriflamme serve`` processes on one PostgreSQL database.

Two servers share tables: actions sent through either are seen live through the other; a server
killed with SIGKILL (even while its bot thinks) leaves the game to the other, which finishes it;
races on one step have exactly one winner; the database lost and found again is survived.
Afterwards the stored actions are exactly those acknowledged, each once.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from oriflamme.api import Game, GameConfig
from servers import Proxy, free_port, running_server

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

LIVE_TIMEOUT = 10.0  #: seconds a change may take to reach a connection (a failure, not a goal)


@contextmanager
def two_servers(
    url: str, tmp_path: Path, a_options: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[subprocess.Popen[bytes], httpx.Client], httpx.Client]]:
    """Servers A (with ``a_options``) and B on the database ``url``."""
    with (
        running_server(url, tmp_path / "a.log", "--bot-delay", "0", *a_options) as a,
        running_server(url, tmp_path / "b.log", "--bot-delay", "0") as (_, b),
    ):
        yield a, b


def post(client: httpx.Client, path: str, body: dict[str, Any]) -> httpx.Response:
    """POST, waiting out the per-address throttle."""
    while (response := client.post(path, json=body)).status_code == 429:
        time.sleep(0.05)
    return response


def create(client: httpx.Client, seats: list[dict[str, str]], seed: int) -> dict[str, Any]:
    response = post(client, "/api/tables", {"players": len(seats), "seats": seats, "seed": seed})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


class Follower:
    """A WebSocket following a table, remembering the last view it received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.last: dict[str, Any] = {"step": -1}

    def at(self, step: int) -> dict[str, Any]:
        """The latest view once it is at ``step`` or later."""
        return self.until(lambda view: view["step"] >= step, f"step {step}")

    def until(
        self, wanted: Callable[[dict[str, Any]], bool], what: str, timeout: float = LIVE_TIMEOUT
    ) -> dict[str, Any]:
        """The latest view once it is ``wanted`` (within ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while self.last["step"] < 0 or not wanted(self.last):
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no view reached {what}"
            message = json.loads(self.ws.recv(timeout=remaining))
            if message["type"] == "view":
                self.last = message["view"]
        return self.last


@contextmanager
def follow(client: httpx.Client, table: dict[str, Any], token: str) -> Iterator[Follower]:
    base = str(client.base_url).replace("http://", "ws://").rstrip("/")
    with connect(f"{base}/ws/{table['table_id']}?token={token}") as ws:
        yield Follower(ws)


def view(client: httpx.Client, table: dict[str, Any], token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table['table_id']}/view", params={"token": token})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def _stored(url: str, table_id: str) -> list[tuple[int, int, dict[str, Any]]]:
    db = await asyncpg.connect(url)
    try:
        rows = await db.fetch(
            "SELECT game, idx, action FROM actions WHERE table_id = $1 ORDER BY game, idx",
            table_id,
        )
    finally:
        await db.close()
    return [(r["game"], r["idx"], json.loads(r["action"])) for r in rows]


def stored_actions(url: str, table_id: str) -> list[dict[str, Any]]:
    """The stored actions of game 1, checked to be indexed 0, 1, 2, … each once."""
    rows = asyncio.run(_stored(url, table_id))
    assert [idx for _, idx, _ in rows] == list(range(len(rows)))
    return [action for _, _, action in rows]


def replays_to_the_end(seed: int, players: int, actions: list[Any]) -> None:
    """The stored actions are a whole legal game from the table's deal."""
    game = Game.new(GameConfig(players=players), seed)
    for action in actions:
        game.apply(action)
    assert game.is_over


def test_two_servers_play_one_table_and_see_each_other_live(pg_url: str, tmp_path: Path) -> None:
    with two_servers(pg_url, tmp_path) as ((_, a), b), ExitStack() as stack:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        table = create(a, [*seats, {"kind": "bot", "level": "random"}], seed=7)
        tokens = [s["token"] for s in table["seats"][:2]]
        # Each seat and the spectator follow the table on one server; actions go through both.
        sockets = {
            (0, "a"): stack.enter_context(follow(a, table, tokens[0])),
            (1, "b"): stack.enter_context(follow(b, table, tokens[1])),
            (None, "a"): stack.enter_context(follow(a, table, table["spectator_token"])),
            (None, "b"): stack.enter_context(follow(b, table, table["spectator_token"])),
        }
        rng = random.Random(5)
        acknowledged: dict[int, dict[str, Any]] = {}
        step = 0
        while True:
            public = sockets[(None, "b")].at(step)
            step = public["step"]
            if public["result"] is not None:
                break
            seat = public["waiting_for"]["seat"]
            if seat == 2:
                step += 1  # the bot's move: some server plays it
                continue
            server = rng.choice([a, b])
            mine = view(server, table, tokens[seat])
            if mine["step"] != step or not mine["legal"]:
                continue  # this server has not seen the last move yet: look again
            action = rng.choice(mine["legal"])["action"]
            body = {"token": tokens[seat], "action": action, "step": step}
            response = post(server, f"/api/tables/{table['table_id']}/actions", body)
            if response.status_code == 409:
                continue
            assert response.status_code == 200, response.text
            acknowledged[step] = action
            # Every connection, on both servers, sees it live.
            for follower in sockets.values():
                assert follower.at(step + 1)["step"] >= step + 1
            step += 1
        stored = stored_actions(pg_url, table["table_id"])
        assert len(stored) == step and len(acknowledged) > 10
        assert all(stored[i] == action for i, action in acknowledged.items())
        replays_to_the_end(7, 3, stored)


def _healthz(client: httpx.Client) -> dict[str, Any]:
    body: dict[str, Any] = client.get("/healthz").json()
    return body


def test_a_server_killed_while_its_bot_thinks_leaves_the_game_to_the_other(
    pg_url: str, tmp_path: Path
) -> None:
    # Server A's bots "think" for a minute: A will surely be thinking when it dies.
    with running_server(pg_url, tmp_path / "a.log", "--bot-delay", "60") as (pa, a):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]
        table = create(a, seats, seed=11)
        token = table["seats"][0]["token"]
        path = f"/api/tables/{table['table_id']}/actions"
        first = view(a, table, token)
        body = {"token": token, "action": first["legal"][0]["action"], "step": 0}
        assert post(a, path, body).status_code == 200
        acknowledged = {0: body["action"]}
        deadline = time.monotonic() + LIVE_TIMEOUT
        while _healthz(a)["bots_playing"] != 1:
            assert time.monotonic() < deadline, "server A never started thinking"
            time.sleep(0.05)
        with (
            running_server(pg_url, tmp_path / "b.log", "--bot-delay", "0") as (_, b),
            follow(b, table, token) as ws,
        ):
            assert ws.at(1)["step"] == 1  # B serves the table, A still thinks
            pa.send_signal(signal.SIGKILL)
            pa.wait(timeout=10)
            # B takes the decision over once A's claim expires, and the game goes on through B.
            now = ws.at(2)
            while now["result"] is None:
                if now["legal"]:
                    action = now["legal"][-1]["action"]
                    body = {"token": token, "action": action, "step": now["step"]}
                    response = post(b, path, body)
                    assert response.status_code == 200, response.text
                    acknowledged[now["step"]] = action
                now = ws.at(now["step"] + 1)
    stored = stored_actions(pg_url, table["table_id"])
    assert len(stored) == now["step"]
    assert all(stored[i] == action for i, action in acknowledged.items())
    replays_to_the_end(11, 2, stored)


def test_racing_clients_on_one_step_exactly_one_wins(pg_url: str, tmp_path: Path) -> None:
    with two_servers(pg_url, tmp_path) as ((_, a), b), ThreadPoolExecutor(10) as pool:
        seats = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")]
        table = create(a, seats, seed=3)
        tokens = [s["token"] for s in table["seats"]]
        path = f"/api/tables/{table['table_id']}/actions"
        winners: dict[int, dict[str, Any]] = {}
        stale = 0
        for step in range(12):
            public = view(b, table, table["spectator_token"])
            assert public["step"] == step
            seat = public["waiting_for"]["seat"]
            legal = view(a, table, tokens[seat])["legal"]
            bodies = [
                {"token": tokens[seat], "action": legal[i % len(legal)]["action"], "step": step}
                for i in range(10)
            ]
            sent = list(zip([a, b] * 5, bodies, strict=True))
            results = list(pool.map(lambda cb: cb[0].post(path, json=cb[1]), sent))
            won = {json.dumps(body["action"], sort_keys=True)
                   for (_, body), r in zip(sent, results, strict=True) if r.is_success}
            assert len(won) == 1, [r.text for r in results]
            winners[step] = json.loads(won.pop())
            # The copies of the stored action (the same seat's same request) hear it was
            # played; every other action is refused as stale.
            expected = [200 if body["action"] == winners[step] else 409 for body in bodies]
            assert [r.status_code for r in results] == expected, [r.text for r in results]
            refused = [r.json()["error"]["code"] for r in results if r.status_code == 409]
            assert set(refused) <= {"stale"}
            stale += len(refused)
            time.sleep(0.6)  # stay under the 20 requests a second of one address
        assert stored_actions(pg_url, table["table_id"]) == [winners[i] for i in range(12)]
        assert stale >= 12 * 5  # most steps had several actions to choose from


def _serve(*arguments: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "oriflamme", "serve", "--port", str(free_port())]
    return subprocess.run(
        [*command, *arguments], capture_output=True, text=True, timeout=timeout, check=False
    )


def test_a_database_that_cannot_be_used_is_one_clear_line(pg_url: str) -> None:
    closed = f"postgresql://someone:secret@127.0.0.1:{free_port()}/games"
    result = _serve("--db", closed)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "cannot reach the database" in result.stderr
    assert "secret" not in result.stderr and "Traceback" not in result.stderr
    missing = pg_url.rpartition("/")[0] + "/no_such_database"
    result = _serve("--db", missing)
    assert result.returncode == 2 and "does not exist" in result.stderr

    async def newer() -> None:
        db = await asyncpg.connect(pg_url)
        try:
            await db.execute("CREATE TABLE oriflamme_meta (key TEXT PRIMARY KEY, value TEXT)")
            await db.execute("INSERT INTO oriflamme_meta VALUES ('schema_version', '99')")
        finally:
            await db.close()

    async def tables() -> list[str]:
        db = await asyncpg.connect(pg_url)
        try:
            rows = await db.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        finally:
            await db.close()
        return sorted(r["tablename"] for r in rows)

    asyncio.run(newer())
    result = _serve("--db", pg_url)
    assert result.returncode == 2 and "newer than this server" in result.stderr
    assert asyncio.run(tables()) == ["oriflamme_meta"]  # nothing written
    result = _serve("--workers", "2", "--db", "sqlite:games.sqlite3")
    assert result.returncode == 2 and "need a PostgreSQL database" in result.stderr


def test_the_database_lost_and_found_again_is_survived(pg_url: str, tmp_path: Path) -> None:
    address = urlsplit(pg_url)
    proxy = Proxy((address.hostname or "127.0.0.1", address.port or 5432))
    through_proxy = pg_url.replace(f":{address.port}/", f":{proxy.port}/")
    try:
        with (
            running_server(through_proxy, tmp_path / "a.log", "--bot-delay", "0") as (pa, a),
            running_server(pg_url, tmp_path / "b.log", "--bot-delay", "0") as (_, b),
        ):
            seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
            table = create(a, seats, seed=5)
            tokens = [s["token"] for s in table["seats"]]
            path = f"/api/tables/{table['table_id']}/actions"
            with follow(a, table, tokens[1]) as ws:
                first = ws.at(0)
                proxy.cut()
                assert a.get("/healthz").status_code == 503
                assert first["waiting_for"]["seat"] == 0
                action = view(b, table, tokens[0])["legal"][0]["action"]
                body = {"token": tokens[0], "action": action, "step": 0}
                refused = post(a, path, body)
                assert refused.status_code == 503, refused.text
                assert refused.json()["error"]["code"] == "database_unavailable"
                # Meanwhile the other server plays on.
                assert post(b, path, body).status_code == 200
                assert pa.poll() is None
                proxy.restore()
                deadline = time.monotonic() + 30
                while a.get("/healthz").status_code != 200:
                    assert time.monotonic() < deadline, "server A did not recover"
                    time.sleep(0.2)
                # A catches up with what it missed and serves again.
                assert ws.at(1)["step"] == 1
                second = view(a, table, tokens[1])
                body = {"token": tokens[1], "action": second["legal"][0]["action"], "step": 1}
                assert second["step"] == 1 and second["legal"]
                assert post(a, path, body).status_code == 200
        assert len(stored_actions(pg_url, table["table_id"])) == 2
        assert "Traceback" not in (tmp_path / "a.log").read_text()
    finally:
        proxy.close()


def test_several_workers_share_one_port_and_end_with_serve(pg_url: str, tmp_path: Path) -> None:
    with running_server(pg_url, tmp_path / "w.log", "--workers", "2") as (process, client):
        servers = set()
        deadline = time.monotonic() + 30
        while len(servers) < 2:
            assert time.monotonic() < deadline, f"only {servers} answered"
            with httpx.Client(base_url=client.base_url) as fresh:  # a new connection each time
                servers.add(_healthz(fresh)["server"])
        process.send_signal(signal.SIGKILL)  # even so, its workers end and free the port
        deadline = time.monotonic() + 15
        while True:
            try:
                with httpx.Client(base_url=client.base_url) as fresh:
                    fresh.get("/healthz")
            except httpx.TransportError:
                break
            assert time.monotonic() < deadline, "the workers outlived serve"
            time.sleep(0.2)


def test_a_seat_connected_to_one_server_shows_connected_on_the_other(
    pg_url: str, tmp_path: Path
) -> None:
    with two_servers(pg_url, tmp_path) as ((_, a), b):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        table = create(a, seats, seed=2)
        with follow(a, table, table["spectator_token"]) as watcher:
            assert [s["connected"] for s in watcher.at(0)["seats"]] == [False, False]
            with follow(b, table, table["seats"][1]["token"]):
                watcher.until(lambda view: view["seats"][1]["connected"], "Bob connected on B")
            watcher.until(lambda view: not view["seats"][1]["connected"], "Bob gone from B")


def test_seat_changes_and_rematches_reach_every_server(pg_url: str, tmp_path: Path) -> None:
    with two_servers(pg_url, tmp_path) as ((_, a), b):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        table = create(a, seats, seed=4)
        tokens = [s["token"] for s in table["seats"]]
        tid = table["table_id"]
        with follow(a, table, tokens[0]) as ann:
            ann.at(0)
            # The creator hands Bob's seat to a bot through B; A's views say so, and the bot
            # plays Bob's decisions while Ann plays through A, to the end of the game.
            body = {"creator_token": table["creator_token"], "level": "random", "expect": "away"}
            assert post(b, f"/api/tables/{tid}/seats/1/bot", body).status_code == 200
            now = ann.until(lambda view: view["seats"][1]["kind"] == "bot", "Bob's bot")
            while now["result"] is None:
                if now["legal"]:
                    body = {"token": tokens[0], "action": now["legal"][0]["action"],
                            "step": now["step"]}
                    assert post(a, f"/api/tables/{tid}/actions", body).status_code == 200
                now = ann.at(now["step"] + 1)
            # Both players' links ask for the next game at once, through both servers: one
            # game 2 is dealt, and both answers are its view.
            with ThreadPoolExecutor(2) as pool:
                answers = list(
                    pool.map(
                        lambda server: post(
                            server, f"/api/tables/{tid}/rematch",
                            {"token": tokens[0], "game_number": 1},
                        ),
                        [a, b],
                    )
                )
            assert [r.status_code for r in answers] == [200, 200]
            assert {r.json()["game_number"] for r in answers} == {2}
            assert ann.until(lambda view: view["game_number"] == 2, "game 2")["step"] == 0

    async def games() -> list[int]:
        db = await asyncpg.connect(pg_url)
        try:
            rows = await db.fetch("SELECT number FROM games WHERE table_id = $1", tid)
        finally:
            await db.close()
        return sorted(r["number"] for r in rows)

    assert asyncio.run(games()) == [1, 2]
