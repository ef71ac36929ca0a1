"""How long the things the tests only order take on this machine (issue #33): the tests assert
behaviour (a pause no shorter than asked, a search stopped by its deadline, another table
answered while a bot thinks, a clock played from its stored deadline after a restart); this
script measures them, and prints figures to compare, never a verdict.

Run: ``python benchmarks/server/timings.py [--repeat 10] [--json] [--ray]``

- **bot pause**: a ``random`` bot asked with a 0.3 s pause (``BotPool.think``): how long the
  answer takes (the pause is a floor; what comes on top is the worker's round trip);
- **search budget**: ISMCTS with a 0.05 s budget and no iteration cap, on one process and
  root-parallel on two: the seconds each search took, and its iterations;
- **another table while a bot thinks**: a real ``oriflamme serve``; an ``expert`` bot thinks for
  table A while table B's two humans play over WebSockets: B's answer times meanwhile, and the
  server process's CPU time over the wall time (the search runs in worker processes);
- **clock after a restart**: a 3 s clock whose deadline passes while no server runs (``kill
  -9``, 3.5 s): the seconds from the restarted server answering to the stand-in's move;
- **Ray tournament** (``--ray``): a 4-game tournament on a local Ray, start-up included.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
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

from oriflamme.api import new_game
from oriflamme.bots import IsmctsBot, parallel
from oriflamme.server import thinking

HOST = "127.0.0.1"
HUMANS = [{"kind": "human", "name": name} for name in ("Ann", "Ben")]


def spread(values: list[float], digits: int = 3) -> dict[str, float]:
    if not values:
        return {}
    return {
        "mean": round(statistics.fmean(values), digits),
        "p50": round(statistics.median(values), digits),
        "max": round(max(values), digits),
    }


# -- in this process ---------------------------------------------------------------------------
def bot_pause(repeat: int, delay: float = 0.3) -> dict[str, Any]:
    game = new_game(players=3, seed=5)

    async def measure() -> list[float]:
        pool = thinking.BotPool(workers=1)
        try:
            await pool.think("random", 1, game.observe(0), game.legal_actions(), delay=0)
            took = []
            for i in range(repeat):
                start = time.monotonic()
                await pool.think("random", i, game.observe(0), game.legal_actions(), delay=delay)
                took.append(time.monotonic() - start)
            return took
        finally:
            pool.shutdown()

    return {"asked_s": delay, "took_s": spread(asyncio.run(measure()))}


def search_budget(repeat: int, seconds: float = 0.05) -> dict[str, Any]:
    game = new_game(players=3, seed=1)
    observation, legal = game.observe(0), game.legal_actions()
    figures: dict[str, Any] = {"asked_s": seconds}
    for workers in (1, 2):
        took, iterations = [], []
        for i in range(repeat):
            bot = IsmctsBot(seed=i, iterations=None, seconds=seconds, workers=workers)
            bot.act(observation, legal)
            took.append(bot.last_search.seconds)
            iterations.append(bot.last_search.iterations)
        figures[f"workers_{workers}"] = {
            "took_s": spread(took),
            "iterations": spread([float(n) for n in iterations], 0),
        }
    parallel.discard_pool()
    return figures


def ray_tournament() -> dict[str, Any]:
    import logging

    import ray

    from oriflamme.tournament import Settings, plan, play

    started = time.monotonic()
    ray.init(num_cpus=1, include_dashboard=False, logging_level=logging.WARNING)
    try:
        records = play(plan(Settings(bots=("random",), players=3, games=4, seed=9)),
                       backend="ray", workers=1)
    finally:
        ray.shutdown()
    return {"games": len(records), "took_s": round(time.monotonic() - started, 2)}


# -- a real server -----------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(
    db: Path, log: Path, port: int | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], httpx.Client, float]]:
    """``oriflamme serve --bot-delay 0`` until it answers: (process, client, when it answered);
    killed at the end."""
    port = port or free_port()
    command = [sys.executable, "-m", "oriflamme", "serve", "--port", str(port), "--db", str(db),
               "--bot-delay", "0"]
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        with httpx.Client(base_url=f"http://{HOST}:{port}", timeout=30) as client:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.TransportError):
                    if client.get("/healthz").status_code == 200:
                        break
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start:\n{log.read_text()}")
                time.sleep(0.02)
            yield process, client, time.monotonic()
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=15)


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def another_table_while_a_bot_thinks(folder: Path, repeat: int) -> dict[str, Any]:
    answers: list[float] = []
    shares: list[float] = []
    with server(folder / "busy.sqlite3", folder / "busy.log") as (process, client, _):
        base = str(client.base_url).replace("http://", "ws://")
        for round_ in range(repeat):
            b = client.post("/api/tables", json={"players": 2, "seats": HUMANS,
                                                 "seed": round_}).json()
            with contextlib.ExitStack() as stack:
                links = [f"{base}/ws/{b['table_id']}?token={s['token']}" for s in b["seats"]]
                sockets = [stack.enter_context(connect(link)) for link in links]
                views = [json.loads(ws.recv(timeout=30))["view"] for ws in sockets]
                seats = [{"kind": "bot", "level": "expert"}, HUMANS[0]]
                a = client.post("/api/tables", json={"players": 2, "seats": seats}).json()
                started, cpu = time.monotonic(), cpu_seconds(process.pid)
                while client.get(f"/api/tables/{a['table_id']}").json()["step"] == 0:
                    seat = 0 if views[0]["legal"] else 1
                    if not views[seat]["legal"]:
                        break  # B's game is over
                    sent = time.monotonic()
                    step = views[seat]["step"]
                    sockets[seat].send(json.dumps({"type": "act", "step": step,
                                                   "action": views[seat]["legal"][0]["action"]}))
                    for i, ws in enumerate(sockets):
                        while (view := json.loads(ws.recv(timeout=30))["view"])["step"] <= step:
                            pass
                        views[i] = view
                    answers.append(time.monotonic() - sent)
                    time.sleep(0.1)  # a human's pace
                wall = time.monotonic() - started
                shares.append((cpu_seconds(process.pid) - cpu) / wall)
    return {
        "answers": len(answers),
        "answer_s": spread(answers),
        "server_cpu_share": spread(shares, 2),
    }


def clock_after_restart(folder: Path) -> dict[str, Any]:
    db, port = folder / "clock.sqlite3", free_port()
    body = {"players": 2, "seats": HUMANS, "clock": {"per_decision": 3}, "seed": 4}
    with server(db, folder / "clock-a.log", port) as (process, client, _):
        table = client.post("/api/tables", json=body).json()
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    time.sleep(3.5)  # the deadline passes while no server runs
    path = f"/api/tables/{table['table_id']}"
    with server(db, folder / "clock-b.log", port) as (_, client, answering):
        while client.get(path).json()["step"] == 0:
            time.sleep(0.01)
        return {"move_after_restart_s": round(time.monotonic() - answering, 2)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Time what the tests only order: bot pauses, search budgets, another "
        "table while a bot thinks, a clock after a restart (figures, no verdict)."
    )
    parser.add_argument("--repeat", type=int, default=10,
                        help="measures of each figure (default 10; the busy table: a third)")
    parser.add_argument("--ray", action="store_true", help="also time a tournament on Ray")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat: at least 1")
    with tempfile.TemporaryDirectory(prefix="oriflamme-timings-") as name:
        folder = Path(name)
        result: dict[str, Any] = {
            "bot_pause": bot_pause(args.repeat),
            "search_budget": search_budget(args.repeat),
            "another_table_while_a_bot_thinks": another_table_while_a_bot_thinks(
                folder, max(1, args.repeat // 3)
            ),
            "clock_after_restart": clock_after_restart(folder),
        }
    if args.ray:
        result["ray_tournament"] = ray_tournament()
    result["cpus"] = os.cpu_count()
    result["load_average"] = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(json.dumps(result, indent=2) if args.json else summary(result))


def summary(result: dict[str, Any]) -> str:
    pause, budget = result["bot_pause"], result["search_budget"]
    busy, clock = result["another_table_while_a_bot_thinks"], result["clock_after_restart"]

    def line(name: str, figures: dict[str, float], unit: str = "s") -> str:
        values = ", ".join(f"{k} {v}" for k, v in figures.items())
        return f"  {name}: {values} {unit}"

    lines = [
        f"bot pause of {pause['asked_s']} s:",
        line("answer after", pause["took_s"]),
        f"ISMCTS budget of {budget['asked_s']} s:",
        line("1 process, took", budget["workers_1"]["took_s"]),
        line("1 process, iterations", budget["workers_1"]["iterations"], ""),
        line("2 processes, took", budget["workers_2"]["took_s"]),
        line("2 processes, iterations", budget["workers_2"]["iterations"], ""),
        "another table while an expert bot thinks:",
        line(f"{busy['answers']} answers", busy["answer_s"]),
        line("server CPU / wall", busy["server_cpu_share"], ""),
        f"clock after kill -9 and a restart: played {clock['move_after_restart_s']} s after "
        "the server answered",
    ]
    if "ray_tournament" in result:
        ray = result["ray_tournament"]
        lines.append(f"Ray tournament of {ray['games']} games: {ray['took_s']} s")
    lines.append(f"({result['cpus']} CPUs, load average {result['load_average']})")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
