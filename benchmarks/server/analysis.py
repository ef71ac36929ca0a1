"""Post-game analysis benchmark: how long one analysis takes, and what it costs other tables.

Run: ``python benchmarks/server/analysis.py [--games 200] [--seconds 60] [--think 1] [--no-load]``

Starts the real server (``oriflamme serve --bot-delay 0``, a temporary SQLite file) and:

1. plays a 3-player game of three human seats to its end through the HTTP API (random legal
   moves), asks for its analysis and times it to the end: every decision with more than one
   option is judged (about 50), with the server's budget per decision;
2. runs the load benchmark (``benchmarks/server/load.py --url``) against that server twice:
   alone, then while analyses run without a pause (finished games are queued so that one is
   always under way), and prints the action latencies of both runs side by side.

See docs/benchmarks.md ("Post-game analysis").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

HOST = "127.0.0.1"
LOAD = Path(__file__).with_name("load.py")
SEATS = [{"kind": "human", "name": name} for name in ("Ann", "Ben", "Cid")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def post(client: httpx.Client, url: str, **fields: Any) -> httpx.Response:
    """A POST, paced below the server's 20 POSTs a second per address (429: wait, again)."""
    while (answer := client.post(url, **fields)).status_code == 429:
        time.sleep(0.2)
    answer.raise_for_status()
    return answer


def finished_game(client: httpx.Client, rng: random.Random) -> tuple[str, str, int]:
    """A 3-player table whose game was played to its end by random moves: (table, token,
    actions)."""
    table = post(client, "/api/tables", json={"players": 3, "seats": SEATS}).json()
    tokens = [seat["token"] for seat in table["seats"]]
    base = f"/api/tables/{table['table_id']}"
    while True:
        public = client.get(f"{base}/view", params={"token": table["spectator_token"]}).json()
        if public["result"] is not None:
            return table["table_id"], tokens[0], public["step"]
        token = tokens[public["waiting_for"]["seat"]]
        legal = client.get(f"{base}/view", params={"token": token}).json()["legal"]
        action = rng.choice(legal)["action"]
        post(client, f"{base}/actions", json={"token": token, "action": action,
                                              "step": public["step"]})


def analysis_of(client: httpx.Client, table_id: str, token: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(
        f"/api/tables/{table_id}/games/1/analysis", params={"token": token}
    ).json()
    return answer


def time_analysis(client: httpx.Client, rng: random.Random) -> dict[str, Any]:
    table_id, token, actions = finished_game(client, rng)
    start = time.perf_counter()
    post(client, f"/api/tables/{table_id}/games/1/analysis", params={"token": token})
    while (result := analysis_of(client, table_id, token))["status"] not in ("done", "failed"):
        time.sleep(0.2)
    seconds = time.perf_counter() - start
    decisions = len(result["steps"])
    return {
        "status": result["status"],
        "actions": actions,
        "decisions": decisions,
        "seconds": round(seconds, 1),
        "seconds_per_decision": round(seconds / max(1, decisions), 2),
    }


def run_load(url: str, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, str(LOAD), "--url", url, "--games", str(args.games),
               "--seconds", str(args.seconds), "--think", str(args.think), "--json"]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="tables of the load benchmark")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each load run")
    parser.add_argument("--think", type=float, default=1.0, help="as in load.py")
    parser.add_argument("--no-load", action="store_true", help="time one analysis only")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        log = Path(folder) / "server.log"
        command = [sys.executable, "-m", "oriflamme.cli.main", "serve", "--port", str(port),
                   "--db", str(Path(folder) / "games.sqlite3"), "--bot-delay", "0",
                   "--tables-per-hour", "0"]
        with log.open("ab") as out:
            server = subprocess.Popen(command, stdout=out, stderr=out, env=dict(os.environ))
        url = f"http://{HOST}:{port}"
        try:
            with httpx.Client(base_url=url, timeout=30) as client:
                deadline = time.monotonic() + 30
                while True:
                    try:
                        if client.get("/healthz").status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    if time.monotonic() > deadline:
                        raise SystemExit(log.read_text())
                    time.sleep(0.1)
                report: dict[str, Any] = {"load_average_before": os.getloadavg()[0]}
                report["analysis"] = timing = time_analysis(client, rng)
                print(f"one analysis: {timing}", file=sys.stderr)
                if not args.no_load:
                    # Enough finished games that one analysis runs through the whole measure.
                    needed = 2 + int((args.seconds + 30) // max(1.0, timing["seconds"]))
                    queued = [finished_game(client, rng) for _ in range(needed)]
                    report["load_alone"] = run_load(url, args)
                    for table_id, token, _ in queued:
                        post(client, f"/api/tables/{table_id}/games/1/analysis",
                                             params={"token": token})
                    time.sleep(1)
                    report["load_with_analysis"] = run_load(url, args)
                    running = [analysis_of(client, t, k)["status"] for t, k, _ in queued]
                    report["analyses_after"] = {s: running.count(s) for s in set(running)}
                    if "queued" not in running:
                        print("warning: the analyses ran out before the measure ended",
                              file=sys.stderr)
                report["load_average_after"] = os.getloadavg()[0]
        finally:
            server.terminate()
            server.wait(timeout=30)
        errors = sum("Traceback" in line for line in log.read_text().splitlines())
        report["server_log_tracebacks"] = errors
    print(json.dumps(report, indent=2))
    for name in ("load_alone", "load_with_analysis"):
        if name in report:
            lat = report[name]["latency_ms"]
            print(f"{name}: {report[name]['actions_per_s']} actions/s, p50 {lat['p50']} ms,"
                  f" p90 {lat['p90']} ms, p99 {lat['p99']} ms, max {lat['max']} ms,"
                  f" server CPU {report[name]['server_cpu_percent']}", file=sys.stderr)


if __name__ == "__main__":
    main()
