"""Bot flood benchmark (issue #18, #26 item 5): many tables where only expert bots play, many
hints and analyses asked at once, and one victim.

Run: ``python benchmarks/server/bot_flood.py [--flood 40] [--decisions 10] [--level hard]
[--hints 30] [--analyses 6] [--review-iterations N]``

Starts ``oriflamme serve --bot-delay 0`` with a temporary SQLite file. The flood comes from
``--flood`` different loopback addresses (127.0.0.2, 127.0.0.3, …, as many attackers), each
creating tables with one human seat and ``expert`` bots and handing that seat to an expert bot:
self-playing tables that keep the server's bot workers busy. Each address may keep only a few
such tables (the server's limit; the refusals are counted). Then a victim, from another address,
plays a 2-player table against a ``--level`` bot through a WebSocket (so the table is
"watched"), and the script measures, for ``--decisions`` of the victim's moves, the time from
the victim's action to the bot's answer. Printed: the flood's tables accepted and refused, the
victim bot's answer times (p50, p95, max), and whether the server ever played a random move
for a bot that waited too long (it must not).

``--hints N``: meanwhile N people at N learning tables (each from an address of its own, human
against a random bot) ask for a hint at every decision, then play it, all the time the victim
plays: printed, how their hints were answered (200, 503 busy, 429) and how long they took.
``--analyses N``: before the victim plays, one address finishes N games and asks for their
analyses at once, then another address asks for one: printed, how many of the first were
accepted, and how long each waited before it was done (``--review-iterations`` sets the
server's analysis budget, ``ORIFLAMME_REVIEW_ITERATIONS``; default: the server's).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from played import finished_table
from websockets.sync.client import connect

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(workdir: Path, review_iterations: int | None = None) -> Iterator[tuple[str, Path]]:
    port = free_port()
    log = workdir / "server.log"
    command = [sys.executable, "-m", "oriflamme", "serve", "--port", str(port)]
    command += ["--db", str(workdir / "games.sqlite3"), "--bot-delay", "0"]
    env = dict(os.environ)
    if review_iterations is not None:
        env["ORIFLAMME_REVIEW_ITERATIONS"] = str(review_iterations)
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
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


def quantiles(samples: list[float]) -> dict[str, float | None]:
    if not samples:
        return {"p50": None, "p95": None, "max": None}
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(p95, 2),
        "max": round(ordered[-1], 2),
    }


class Learners:
    """``count`` people at learning tables, each asking for a hint at every decision (then
    playing the hinted move) until :meth:`stop`."""

    def __init__(self, url: str, count: int) -> None:
        self.url = url
        self.count = count
        self.answers: Counter[str] = Counter()
        self.waits: list[float] = []
        #: The first hint of each learner: all asked at once.
        self.first: Counter[str] = Counter()
        self.first_waits: list[float] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._pool = ThreadPoolExecutor(max(1, count))
        self._tables: list[tuple[str, str, str]] = []

    def start(self) -> None:
        seats = [{"kind": "human", "name": "Learner"}, {"kind": "bot", "level": "random"}]
        body = {"players": 2, "variant": "standard", "seats": seats, "hints": True}
        for n in range(self.count):
            address = f"127.0.1.{n + 1}"
            with client_from(address, self.url) as client:
                table = client.post("/api/tables", json={**body, "first_player": 0}).json()
            self._tables.append((address, table["table_id"], table["seats"][0]["token"]))
        for learner in self._tables:
            self._pool.submit(self._learn, *learner)

    def _learn(self, address: str, table_id: str, token: str) -> None:
        with client_from(address, self.url) as client:
            path = f"/api/tables/{table_id}"
            first = True
            while not self._stop.is_set():
                view = client.get(f"{path}/view", params={"token": token}).json()
                if view["result"] is not None:
                    client.post(f"{path}/rematch", json={"token": token})
                    continue
                if not view["legal"]:
                    time.sleep(0.05)
                    continue
                started = time.monotonic()
                hint = client.get(f"{path}/hint", params={"token": token})
                took = time.monotonic() - started
                code = "200" if hint.status_code == 200 else (
                    f"{hint.status_code} {hint.json()['error']['code']}"
                )
                with self._lock:
                    self.answers[code] += 1
                    if hint.status_code == 200:
                        self.waits.append(took)
                    if first:
                        self.first[code] += 1
                        if hint.status_code == 200:
                            self.first_waits.append(took)
                first = False
                action = hint.json()["action"] if hint.status_code == 200 else None
                action = action or view["legal"][0]["action"]
                body = {"token": token, "action": action, "step": view["step"]}
                client.post(f"{path}/actions", json=body)

    def stop(self) -> None:
        self._stop.set()
        self._pool.shutdown(wait=True)


def finished_game(url: str, address: str) -> dict[str, Any]:
    """A 2-player game of two humans played to its end from ``address``."""
    with client_from(address, url) as client:
        return finished_table(client)


def analyses(url: str, count: int) -> dict[str, Any]:
    """One address asks for ``count`` analyses at once, then another for one: who was accepted,
    and the seconds each waited until done."""
    flooder, other = "127.0.2.1", "127.0.2.2"
    with ThreadPoolExecutor(8) as pool:
        theirs = list(pool.map(lambda _: finished_game(url, flooder), range(count)))
    mine = finished_game(url, other)

    def ask(table: dict[str, Any], address: str) -> httpx.Response:
        with client_from(address, url) as client:
            return client.post(
                f"/api/tables/{table['table_id']}/games/1/analysis",
                params={"token": table["spectator_token"]},
            )

    asked = time.monotonic()
    answers = [ask(table, flooder) for table in theirs]
    accepted = [t for t, a in zip(theirs, answers, strict=True) if a.status_code == 202]
    mine_asked = time.monotonic()
    assert ask(mine, other).status_code == 202
    done: dict[str, float] = {}
    with client_from(other, url) as client:
        while len(done) < len(accepted) + 1:
            for table in [*accepted, mine]:
                if table["table_id"] in done:
                    continue
                state = client.get(
                    f"/api/tables/{table['table_id']}/games/1/analysis",
                    params={"token": table["spectator_token"]},
                ).json()["status"]
                if state in ("done", "failed"):
                    done[table["table_id"]] = time.monotonic()
            time.sleep(0.2)
    return {
        "asked_by_one_address": count,
        "accepted": len(accepted),
        "refused": Counter(
            a.json()["error"]["code"] for a in answers if a.status_code != 202
        ),
        "their_waits_s": [round(done[t["table_id"]] - asked, 1) for t in accepted],
        "other_address_wait_s": round(done[mine["table_id"]] - mine_asked, 1),
        "other_address_done_as": sorted(done, key=done.__getitem__).index(mine["table_id"]) + 1,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--flood", type=int, default=40, help="attacking addresses (default 40)")
    parser.add_argument("--tables", type=int, default=6, help="tables tried by each attacker")
    parser.add_argument("--decisions", type=int, default=10, help="victim moves measured")
    parser.add_argument("--level", default="hard", help="the victim's bot level (default hard)")
    parser.add_argument(
        "--hints", type=int, default=0, help="learners asking hints while the victim plays"
    )
    parser.add_argument(
        "--analyses", type=int, default=0, help="analyses one address asks for at once"
    )
    parser.add_argument(
        "--review-iterations", type=int, default=None, help="the server's analysis budget"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    learners: Learners | None = None
    fair: dict[str, Any] | None = None
    with (
        tempfile.TemporaryDirectory(prefix="oriflamme-flood-") as folder,
        server(Path(folder), args.review_iterations) as (url, log),
    ):
        if args.analyses:
            fair = analyses(url, args.analyses)
        started = time.monotonic()
        accepted, refused = flood(url, args.flood, args.tables)
        flood_s = time.monotonic() - started
        if args.hints:
            learners = Learners(url, args.hints)
            learners.start()
        try:
            waits = victim(url, args.level, args.decisions)
        finally:
            if learners is not None:
                learners.stop()
        text = log.read_text(errors="replace")
    result = {
        "flood_tables_accepted": accepted,
        "flood_tables_refused": refused,
        "flood_seconds": round(flood_s, 1),
        "victim_level": args.level,
        "victim_answers": len(waits),
        "victim_wait_s": quantiles(waits),
        "random_moves_for_waiting_bots": text.count("playing a random legal action"),
    }
    if learners is not None:
        result["hints"] = {
            "learners": args.hints,
            "first_at_once": dict(learners.first),
            "first_answered_in_s": quantiles(learners.first_waits),
            "answers": dict(learners.answers),
            "answered_in_s": quantiles(learners.waits),
        }
    if fair is not None:
        result["analyses"] = fair
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
        f" p95 {wait['p95']} s, max {wait['max']} s; random moves for waiting bots:"
        f" {result['random_moves_for_waiting_bots']}"
    )
    if learners is not None:
        first = result["hints"]["first_answered_in_s"]
        print(
            f"hints, {args.hints} at once: {dict(learners.first)}; answered in p50"
            f" {first['p50']} s, p95 {first['p95']} s, max {first['max']} s"
        )
        took = result["hints"]["answered_in_s"]
        print(
            f"hints, all along: {dict(learners.answers)}; answered in p50"
            f" {took['p50']} s, p95 {took['p95']} s, max {took['max']} s"
        )
    if fair is not None:
        print(
            f"analyses: one address asked {fair['asked_by_one_address']}, {fair['accepted']}"
            f" accepted ({dict(fair['refused'])} refused), done after {fair['their_waits_s']} s;"
            f" another address's done after {fair['other_address_wait_s']} s"
            f" (number {fair['other_address_done_as']} done)"
        )


if __name__ == "__main__":
    main()
