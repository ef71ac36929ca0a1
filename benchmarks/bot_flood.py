"""Bot flood benchmark (issue #18): many tables where only expert bots play, and one victim.

Run: ``python benchmarks/bot_flood.py [--flood 40] [--decisions 10] [--level hard]``

Starts ``oriflamme serve --bot-delay 0`` with a temporary SQLite file. The flood comes from
``--flood`` different loopback addresses (127.0.0.2, 127.0.0.3, …, as many attackers), each
creating tables with one human seat and ``expert`` bots and handing that seat to an expert bot:
self-playing tables that keep the server's bot workers busy. Each address may keep only a few
such tables (the server's limit; the refusals are counted). Then a victim, from another address,
plays a 2-player table against a ``--level`` bot through a WebSocket (so the table is
"watched"), and the script measures, for ``--decisions`` of the victim's moves, the time from
the victim's action to the bot's answer. Printed: the flood's tables accepted and refused, the
victim bot's answer times (p50, max), and whether the server ever played a random move for a
bot that waited too long (it must not).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(workdir: Path) -> Iterator[tuple[str, Path]]:
    port = free_port()
    log = workdir / "server.log"
    command = [sys.executable, "-m", "oriflamme", "serve", "--port", str(port)]
    command += ["--db", str(workdir / "games.sqlite3"), "--bot-delay", "0"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"the server did not start:\n{log.read_text()}")
            time.sleep(0.1)
        yield url, log
    finally:
        process.terminate()
        process.wait(timeout=15)


def client_from(address: str, url: str) -> httpx.Client:
    """An HTTP client whose requests come from ``address`` (a loopback address)."""
    return httpx.Client(
        base_url=url, timeout=30, transport=httpx.HTTPTransport(local_address=address)
    )


def flood(url: str, attackers: int, per_attacker: int) -> tuple[int, int]:
    """Self-playing expert tables from ``attackers`` addresses; (accepted, refused)."""
    accepted = refused = 0
    seats = [{"kind": "human", "name": "X"}, {"kind": "bot", "level": "expert"}]
    for i in range(attackers):
        with client_from(f"127.0.0.{2 + i}", url) as client:
            for _ in range(per_attacker):
                table = client.post("/api/tables", json={"players": 2, "seats": seats}).json()
                handed = client.post(
                    f"/api/tables/{table['table_id']}/seats/0/bot",
                    json={
                        "creator_token": table["creator_token"],
                        "level": "expert",
                        "expect": "away",
                    },
                )
                if handed.status_code == 200:
                    accepted += 1
                else:
                    refused += 1
    return accepted, refused


def victim(url: str, level: str, decisions: int) -> list[float]:
    """The victim's table: the seconds from each of its moves to its bot's answer."""
    waits: list[float] = []
    with client_from("127.0.0.250", url) as client:
        seats = [{"kind": "human", "name": "Victim"}, {"kind": "bot", "level": level}]
        table = client.post("/api/tables", json={"players": 2, "seats": seats}).json()
        ws_url = url.replace("http://", "ws://") + f"/ws/{table['table_id']}"
        with connect(f"{ws_url}?token={table['seats'][0]['token']}") as ws:
            view: dict[str, Any] = json.loads(ws.recv(timeout=30))["view"]
            while len(waits) < decisions and view["result"] is None:
                if not view["legal"]:
                    view = json.loads(ws.recv(timeout=120))["view"]
                    continue
                acted = view["step"]
                sent = time.monotonic()
                message = {"type": "act", "action": view["legal"][0]["action"], "step": acted}
                ws.send(json.dumps(message))
                mine = None
                while True:  # my move, then whatever the bot does until it is mine again
                    view = json.loads(ws.recv(timeout=120))["view"]
                    if mine is None and view["step"] > acted:
                        mine = time.monotonic()
                    if view["legal"] or view["result"] is not None:
                        break
                if view["step"] > acted + 1:  # the bot answered
                    waits.append(time.monotonic() - sent)
    return waits


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--flood", type=int, default=40, help="attacking addresses (default 40)")
    parser.add_argument("--tables", type=int, default=6, help="tables tried by each attacker")
    parser.add_argument("--decisions", type=int, default=10, help="victim moves measured")
    parser.add_argument("--level", default="hard", help="the victim's bot level (default hard)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    with (
        tempfile.TemporaryDirectory(prefix="oriflamme-flood-") as folder,
        server(Path(folder)) as (url, log),
    ):
        started = time.monotonic()
        accepted, refused = flood(url, args.flood, args.tables)
        flood_s = time.monotonic() - started
        waits = victim(url, args.level, args.decisions)
        text = log.read_text(errors="replace")
    result = {
        "flood_tables_accepted": accepted,
        "flood_tables_refused": refused,
        "flood_seconds": round(flood_s, 1),
        "victim_level": args.level,
        "victim_answers": len(waits),
        "victim_wait_s": {
            "p50": round(statistics.median(waits), 2) if waits else None,
            "max": round(max(waits), 2) if waits else None,
        },
        "random_moves_for_waiting_bots": text.count("playing a random legal action"),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"flood: {accepted} self-playing expert tables accepted, {refused} refused"
        f" ({args.flood} addresses, {flood_s:.1f} s)"
    )
    wait = result["victim_wait_s"]
    print(
        f"victim ({args.level} bot, {len(waits)} answers): wait p50 {wait['p50']} s,"
        f" max {wait['max']} s; random moves for waiting bots:"
        f" {result['random_moves_for_waiting_bots']}"
    )


if __name__ == "__main__":
    main()
