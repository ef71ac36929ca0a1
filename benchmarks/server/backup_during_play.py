"""How a backup affects a running server (issue #32): the time of a move while ``oriflamme db
backup`` reads the server's own SQLite file, against the same play without a backup.

Run: ``python benchmarks/server/backup_during_play.py [--games 5000] [--seconds 10]
[--tables 8] [--json]``

Fills an SQLite file with ``--games`` stored games (30 actions each, written directly), starts
``oriflamme serve`` on it, and plays ``--tables`` two-player tables over HTTP from one client
(each move: the mover's view, then the action, again after a pause when the per-address rate
limit refuses it) for ``--seconds`` without a backup, then for
``--seconds`` while backups of the file run one after another. Printed: per phase, the moves
played and the p50, p99 and longest time of a move (view and action), and the backups' rows,
size and time.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ACTIONS_PER_GAME = 30


def fill(path: Path, games: int) -> None:
    """``games`` finished two-player games of ``ACTIONS_PER_GAME`` actions in a new file."""
    from oriflamme.server.storage import SqliteStore

    SqliteStore(path).close_now()  # the schema
    db = sqlite3.connect(path)
    with db:
        db.executemany(
            "INSERT INTO tables (id, config, lang, creator_hash, spectator_hash, created,"
            " replay_key) VALUES (?, '{\"players\": 2}', 'en', ?, ?, ?, ?)",
            [(f"f{n}", "c" * 64, "s" * 64, 1.7e9 + n, f"k{n}") for n in range(games)],
        )
        db.executemany(
            "INSERT INTO seats (table_id, seat, kind, name, level, token_hash, name_key)"
            " VALUES (?, ?, 'human', ?, NULL, ?, ?)",
            [(f"f{n}", s, f"P{s}", f"{n:060d}t{s}", f"p{s}") for n in range(games)
             for s in (0, 1)],
        )
        db.executemany(
            "INSERT INTO games (table_id, number, seed, finished, ended) VALUES (?, 1, ?, 1, ?)",
            [(f"f{n}", n, 1.7e9 + n) for n in range(games)],
        )
        db.executemany(
            "INSERT INTO actions (table_id, game, idx, action, source) VALUES (?, 1, ?, ?, ?)",
            [(f"f{n}", i, json.dumps({"kind": "place", "card": i % 7, "to": "end"}), "player")
             for n in range(games) for i in range(ACTIONS_PER_GAME)],
        )
    db.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Player:
    """Plays moves on ``tables`` from one client, timing each (view + action)."""

    def __init__(self, client: httpx.Client, tables: list[dict[str, Any]]) -> None:
        self.client = client
        self.tables = tables
        self.times: list[float] = []
        self.failed = 0

    def move(self, table: dict[str, Any]) -> None:
        tokens = [seat["token"] for seat in table["seats"]]
        started = time.perf_counter()
        for token in tokens:
            mine = self.client.get(
                f"/api/tables/{table['table_id']}/view", params={"token": token}
            ).json()
            if mine.get("legal"):
                body = {"token": token, "action": mine["legal"][0]["action"],
                        "step": mine["step"]}
                path = f"/api/tables/{table['table_id']}/actions"
                while (answer := self.client.post(path, json=body)).status_code == 429:
                    time.sleep(0.01)  # the per-address rate limit: a real client waits too
                if answer.status_code != 200:
                    self.failed += 1
                    return
                self.times.append(time.perf_counter() - started)
                return
        # The game is over: a new one at that table.
        self.client.post(f"/api/tables/{table['table_id']}/rematch", json={"token": tokens[0]})

    def play(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for table in self.tables:
                self.move(table)


def figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times) or [0.0]
    return {
        "moves": len(times),
        "p50_ms": round(1000 * statistics.median(ordered), 2),
        "p99_ms": round(1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
        "max_ms": round(1000 * ordered[-1], 2),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="stored games (default 5000)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per phase")
    parser.add_argument("--tables", type=int, default=8, help="tables played (default 8)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 0 or args.seconds <= 0 or args.tables < 1:
        parser.error("--games must be at least 0, --seconds above 0, --tables at least 1")
    with tempfile.TemporaryDirectory(prefix="oriflamme-backup-bench-") as folder:
        db = Path(folder) / "games.sqlite3"
        fill(db, args.games)
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "oriflamme", "serve", "--port", str(port), "--db", str(db),
             "--tables-per-hour", "0", "--bot-delay", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
            deadline = time.monotonic() + 30
            while True:
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    sys.exit("the server did not start")
                time.sleep(0.1)
            seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
            tables = [
                client.post("/api/tables", json={"players": 2, "seats": seats, "seed": n}).json()
                for n in range(args.tables)
            ]
            quiet = Player(client, tables)
            quiet.play(args.seconds)
            during = Player(client, tables)
            backups: list[float] = []
            size = 0
            stop = threading.Event()

            def back_up() -> None:
                nonlocal size
                number = 0
                while not stop.is_set():
                    target = Path(folder) / f"b{number % 2}"
                    started = time.perf_counter()
                    subprocess.run(
                        [sys.executable, "-m", "oriflamme", "db", "backup", str(target),
                         "--db", str(db)], check=True, capture_output=True,
                    )
                    backups.append(time.perf_counter() - started)
                    size = target.stat().st_size
                    number += 1

            runner = threading.Thread(target=back_up)
            runner.start()
            during.play(args.seconds)
            stop.set()
            runner.join()
        finally:
            server.terminate()
            server.wait(timeout=30)
    result = {
        "stored_games": args.games,
        "stored_actions": args.games * ACTIONS_PER_GAME,
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "without_backup": figures(quiet.times),
        "during_backups": figures(during.times),
        "failed_moves": quiet.failed + during.failed,
        "backups": {"count": len(backups), "mean_s": round(statistics.mean(backups), 2)
                    if backups else None, "size_bytes": size},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.games:,} stored games ({result['stored_actions']:,} actions), "
          f"{args.tables} tables played, {args.seconds:g} s per phase")
    for phase in ("without_backup", "during_backups"):
        f = result[phase]
        print(f"  {phase.replace('_', ' '):16} {f['moves']:6} moves  p50 {f['p50_ms']:7.2f} ms"
              f"  p99 {f['p99_ms']:7.2f} ms  max {f['max_ms']:7.2f} ms")
    b = result["backups"]
    print(f"  backups: {b['count']} of {b['size_bytes'] / 1e6:.1f} MB, {b['mean_s']} s each "
          "(a separate process: 'oriflamme db backup')")
    print(f"  failed moves: {result['failed_moves']}")


if __name__ == "__main__":
    main()
