"""#32 section 2: a server process stopped with SIGTERM drains: its WebSockets are closed with
1012 ("Service Restart", on which clients reconnect at once), ``/healthz`` says "draining",
it exits 0, and the other process behind the same address goes on with every acknowledged
action stored exactly once."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from oriflamme.api import GameConfig
from oriflamme.server.analysis import SCAN as ANALYSIS_SCAN
from oriflamme.server.app import create_app
from oriflamme.server.manager import TableManager
from oriflamme.server.review import Review
from oriflamme.server.scheduler import LEASE
from oriflamme.server.storage.postgres import PostgresStore
from oriflamme.server.tables import BOT, HUMAN, GameSetup, SeatSpec
from servers import Proxy, running_server
from test_scale_out import LIVE_TIMEOUT, Follower, create, post, stored_actions, view

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")

SERVICE_RESTART = 1012


def test_healthz_says_draining_once_a_stop_signal_arrived(tmp_path: Path) -> None:
    """The app watches the stop signals in front of the handler it found (uvicorn's): after
    SIGTERM, ``/healthz`` answers 503 "draining", and the signal still reaches that handler."""
    received: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda sig, frame: received.append(sig))

    taking: list[tuple[bool, bool]] = []

    async def run() -> tuple[int, dict[str, Any], int, dict[str, Any]]:
        app = create_app(str(tmp_path / "games.sqlite3"), tune_gc=False)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://x") as client:
                first = await client.get("/healthz")
                scheduler, analyses = app.state.manager.scheduler, app.state.review.analyses
                taking.append((scheduler.draining, analyses.draining))
                signal.raise_signal(signal.SIGTERM)
                await asyncio.sleep(0)
                then = await client.get("/healthz")
                # The bots and the analyses take no new work (another process does).
                taking.append((scheduler.draining, analyses.draining))
        return first.status_code, first.json(), then.status_code, then.json()

    try:
        status, body, status_after, body_after = asyncio.run(run())
    finally:
        signal.signal(signal.SIGTERM, before)
    assert (status, body["status"]) == (200, "ok")
    assert (status_after, body_after["status"]) == (503, "draining")
    assert taking == [(False, False), (True, True)]
    assert received == [signal.SIGTERM]  # passed on to the handler it found


def _wait_exit(process: Any, timeout: float = 30.0) -> int:
    deadline = time.monotonic() + timeout
    while process.poll() is None:
        assert time.monotonic() < deadline, "the server did not stop"
        time.sleep(0.05)
    return int(process.returncode)


def test_a_rolling_restart_loses_no_action_and_moves_the_sockets(
    pg_url: str, tmp_path: Path
) -> None:
    """Two processes behind one address (a proxy that sends each new connection to the first
    process that accepts it); each in turn gets SIGTERM while seats play, and is started
    again."""
    with (
        running_server(pg_url, tmp_path / "a.log", "--bot-delay", "0") as (a, a_client),
        running_server(pg_url, tmp_path / "b.log", "--bot-delay", "0") as (b, b_client),
    ):
        targets = [("127.0.0.1", c.base_url.port) for c in (a_client, b_client)]
        assert all(port is not None for _, port in targets)
        proxy = Proxy(*targets)  # type: ignore[arg-type]
        try:
            base = f"http://127.0.0.1:{proxy.port}"
            with httpx.Client(base_url=base, timeout=10) as client:
                seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
                table = create(client, seats, seed=12)
                tokens = [seat["token"] for seat in table["seats"]]
                acknowledged: list[dict[str, Any]] = []

                def play(moves: int) -> None:
                    for _ in range(moves):
                        for token in tokens:
                            mine = view(client, table, token)
                            if mine["legal"]:
                                action = mine["legal"][0]["action"]
                                body = {"token": token, "action": action, "step": mine["step"]}
                                path = f"/api/tables/{table['table_id']}/actions"
                                answer = post(client, path, body)
                                assert answer.status_code == 200, answer.text
                                acknowledged.append(action)
                                break

                ws_base = base.replace("http://", "ws://")
                url = f"{ws_base}/ws/{table['table_id']}?token={tokens[0]}"
                with connect(url) as ws:  # on process A, the first that accepts
                    follower = Follower(ws)
                    follower.at(0)
                    play(2)
                    follower.at(len(acknowledged))
                    a.send_signal(signal.SIGTERM)
                    # The socket is closed with "Service Restart"...
                    with pytest.raises(ConnectionClosed) as closed:
                        while True:
                            ws.recv(timeout=LIVE_TIMEOUT)
                    assert closed.value.rcvd is not None
                    assert closed.value.rcvd.code == SERVICE_RESTART
                assert _wait_exit(a) == 0  # ... and the process ends normally
                # Reconnected at once: the proxy sends it to B, which has every move.
                with connect(url) as ws:
                    follower = Follower(ws)
                    follower.at(len(acknowledged))
                    play(2)
                    follower.at(len(acknowledged))
            # A again, then B stopped in turn: A takes over.
            with running_server(
                pg_url, tmp_path / "a2.log", "--bot-delay", "0", port=targets[0][1]
            ), httpx.Client(base_url=base, timeout=10) as client:
                b.send_signal(signal.SIGTERM)
                assert _wait_exit(b) == 0
                play(2)
                assert view(client, table, tokens[0])["step"] == len(acknowledged)
        finally:
            proxy.close()
    assert stored_actions(pg_url, table["table_id"]) == acknowledged
    for log in ("a.log", "b.log"):
        text = (tmp_path / log).read_text()
        assert "Traceback" not in text and "draining" in text


def test_a_message_sent_at_the_stop_is_applied_once_or_answered(
    pg_url: str, tmp_path: Path
) -> None:
    """An action sent on a socket at the moment its process drains is either applied (and the
    client, sending it again pinned to its step after reconnecting, gets the view after it, as
    if it were applied then) or not applied (and the copy sent again is)."""
    with (
        running_server(pg_url, tmp_path / "a.log", "--bot-delay", "0") as (a, a_client),
        running_server(pg_url, tmp_path / "b.log", "--bot-delay", "0") as (_, b_client),
    ):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        table = create(a_client, seats, seed=13)
        tokens = [seat["token"] for seat in table["seats"]]
        mover = 0 if view(a_client, table, tokens[0])["legal"] else 1
        mine = view(a_client, table, tokens[mover])
        message = {"type": "act", "action": mine["legal"][0]["action"], "step": mine["step"]}
        a_ws = str(a_client.base_url).replace("http://", "ws://")
        with connect(f"{a_ws}/ws/{table['table_id']}?token={tokens[mover]}") as ws:
            Follower(ws).at(0)
            ws.send(json.dumps(message))
            a.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed):
                while True:
                    ws.recv(timeout=LIVE_TIMEOUT)
        assert _wait_exit(a) == 0
        b_ws = str(b_client.base_url).replace("http://", "ws://")
        with connect(f"{b_ws}/ws/{table['table_id']}?token={tokens[mover]}") as ws:
            follower = Follower(ws)
            follower.at(0)
            ws.send(json.dumps(message))  # the client sends it again, pinned to its step
            deadline = time.monotonic() + LIVE_TIMEOUT
            answer: dict[str, Any] = {}
            while time.monotonic() < deadline:
                answer = json.loads(ws.recv(timeout=LIVE_TIMEOUT))
                if answer["type"] == "error" or answer["view"]["step"] == 1:
                    break
            assert answer["type"] == "view" and answer["view"]["step"] == 1, answer
    assert stored_actions(pg_url, table["table_id"]) == [message["action"]]  # exactly once


def test_a_draining_process_takes_no_new_bot_decision_nor_analysis(pg_url: str) -> None:
    """Between SIGTERM and its stop (requests and decisions under way finishing) a process
    takes no new work: a bot's decision at a table it holds is played by another process at
    once, not after the drained one's slow bot (nor when its claim expires); a queued analysis
    is left to the others."""

    async def run() -> None:
        store_a, store_b = await PostgresStore.open(pg_url), await PostgresStore.open(pg_url)
        # A's bots pause a minute: a decision A took would hold the game that long.
        a, b = TableManager(store_a, bot_delay=60), TableManager(store_b, bot_delay=0)
        review_a = Review(a)
        await a.start()
        await b.start()
        review_a.start()
        try:
            a.drain()
            review_a.drain()
            seats = [SeatSpec(HUMAN, "Ann"), SeatSpec(BOT, level="random")]
            new = await a.create(GameSetup(GameConfig(players=2, first_player=1), 21), "en", seats)
            table = new.table
            for _ in range(int(LEASE / 0.05)):  # B's scans find it, well before a lease ends
                if len((await b.get(table.id)).game.history) >= 1:
                    break
                await asyncio.sleep(0.05)
            assert len((await b.get(table.id)).game.history) == 1, "nobody played the bot"
            assert a.scheduler.busy == 0
            await store_a.request_analysis(table.id, 1)
            review_a.analyses.wake()
            await asyncio.sleep(ANALYSIS_SCAN / 4)  # time for A to claim it, were it to
            claimed = await store_b.claim_analysis("another process", 30.0)
            assert claimed is not None and (claimed.table_id, claimed.game) == (table.id, 1)
        finally:
            await review_a.stop()
            await a.stop()
            await b.stop()
            await store_a.close()
            await store_b.close()

    asyncio.run(run())
