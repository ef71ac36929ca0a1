"""A rolling restart under load (issue #32): two ``oriflamme serve`` processes on one
PostgreSQL database behind a balancer, each stopped with SIGTERM and started again in turn while
seats play over WebSockets; then every acknowledged action is checked against the database.

Run: ``python benchmarks/server/rolling_restart.py [--tables 100] [--workers 1] [--think 0.5]
[--warm-up 10] [--settle 10] [--json]``

Starts a PostgreSQL cluster of its own (``fault_rig.py``), two server processes (each with
``--workers`` worker processes) and a TCP balancer in front of them that sends each new
connection to the next live process (one that refuses is skipped, as nginx does). ``--tables``
two-player tables are played by one WebSocket per seat through the balancer: a seat whose view
offers a decision answers after a random pause (up to ``--think`` seconds) with a random legal
action pinned to its step. A socket that is closed reconnects at once through the balancer; an
action sent and not yet seen applied is sent again on the new socket, pinned to its step (the
web client does the same: a copy applied already is answered ``stale``). After ``--warm-up``
seconds, process 1 gets SIGTERM, is started again, then ``--settle`` seconds later process 2,
then ``--settle`` seconds more of play.

Checks (exit status 1 if one fails): each SIGTERM ended its process with status 0; every action
acknowledged (a view past its step) is stored at its step, none twice, none other; no error
reached a client but ``stale`` answers to copies sent again. Printed: actions played and
acknowledged, sockets moved, and the longest time a seat waited: from its socket's close to its
next view on another process, and from sending an action to seeing it applied (p50, p99, max),
during the whole run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import orjson
import uvloop
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fault_rig import HOST, Cluster, Servers, free_port


class Balancer:
    """A TCP balancer: each new connection goes to the next target that accepts it."""

    def __init__(self, targets: list[tuple[str, int]]) -> None:
        self.targets = targets
        self.port = free_port()
        self._next = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, HOST, self.port)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream = None
        for attempt in range(len(self.targets)):
            host, port = self.targets[(self._next + attempt) % len(self.targets)]
            try:
                upstream = await asyncio.open_connection(host, port)
                self._next = (self._next + attempt + 1) % len(self.targets)
                break
            except OSError:
                continue
        if upstream is None:
            writer.close()
            return
        up_reader, up_writer = upstream

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, ConnectionError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(OSError, ConnectionError):
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


@dataclass
class Record:
    """What the seats saw, for the checks and the figures."""

    acknowledged: dict[str, dict[int, dict[str, Any]]] = field(default_factory=dict)
    sent: int = 0
    resent: int = 0
    errors: list[str] = field(default_factory=list)
    moved: int = 0
    switch_waits: list[float] = field(default_factory=list)
    action_waits: list[float] = field(default_factory=list)


class Seat:
    def __init__(self, url: str, table_id: str, token: str, think: float, record: Record,
                 rng: random.Random) -> None:
        self.url = f"{url}/ws/{table_id}?token={token}"
        self.table_id = table_id
        self.think = think
        self.record = record
        self.rng = rng
        #: The action sent and not yet seen applied: (step, action, when sent).
        self.pending: tuple[int, dict[str, Any], float] | None = None
        self.closed_at: float | None = None
        #: The latest step seen: a view of an older one is ignored, as the web client does.
        self.seen = 0

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                async with connect(self.url, open_timeout=10) as ws:
                    await self._play(ws, stop)
            except (ConnectionClosed, OSError, TimeoutError):
                pass
            if not stop.is_set():
                if self.closed_at is None:  # the wait runs from the first close to a view
                    self.closed_at = time.monotonic()
                self.record.moved += 1
                await asyncio.sleep(0.05)

    async def _play(self, ws: Any, stop: asyncio.Event) -> None:
        if self.pending is not None:  # sent before the switch: again, pinned to its step
            step, action, _ = self.pending
            await ws.send(orjson.dumps({"type": "act", "action": action, "step": step}).decode())
            self.record.resent += 1
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            message = orjson.loads(raw)
            if message["type"] == "error":
                if message["code"] != "stale":
                    self.record.errors.append(f"{message['code']}: {message.get('message')}")
                continue
            if message["type"] != "view":
                continue
            view = message["view"]
            if view["step"] < self.seen:
                continue  # older than one seen already (another process not yet caught up)
            self.seen = view["step"]
            now = time.monotonic()
            if self.closed_at is not None:
                self.record.switch_waits.append(now - self.closed_at)
                self.closed_at = None
            if self.pending is not None and view["step"] > self.pending[0]:
                step, action, sent = self.pending
                self.record.acknowledged.setdefault(self.table_id, {})[step] = action
                self.record.action_waits.append(now - sent)
                self.pending = None
            if view.get("legal") and self.pending is None and not view.get("over"):
                await asyncio.sleep(self.rng.random() * self.think)
                action = self.rng.choice(view["legal"])["action"]
                self.pending = (view["step"], action, time.monotonic())
                self.record.sent += 1
                await ws.send(orjson.dumps({"type": "act", "action": action,
                                            "step": view["step"]}).decode())


async def stored(url: str) -> dict[str, dict[int, dict[str, Any]]]:
    db = await asyncpg.connect(url)
    try:
        rows = await db.fetch("SELECT table_id, idx, action FROM actions WHERE game = 1")
    finally:
        await db.close()
    found: dict[str, dict[int, dict[str, Any]]] = {}
    for row in rows:
        found.setdefault(row["table_id"], {})[row["idx"]] = json.loads(row["action"])
    return found


def spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values) or [0.0]
    return {
        "p50_s": round(statistics.median(ordered), 3),
        "p99_s": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 3),
        "max_s": round(ordered[-1], 3),
    }


async def run(args: argparse.Namespace, cluster: Cluster, folder: Path) -> dict[str, Any]:
    extra = ("--workers", str(args.workers)) if args.workers > 1 else ()
    servers = Servers(cluster.url, 2, folder, bot_delay=0.0, extra=extra)
    for i in range(2):
        servers.start(i)
    balancer = Balancer([(HOST, port) for port in servers.ports])
    await balancer.start()
    base = f"http://{HOST}:{balancer.port}"
    record, rng = Record(), random.Random(args.seed)
    statuses: list[int] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=20) as client:
            seats_spec = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
            tables = []
            for n in range(args.tables):
                body = {"players": 2, "seats": seats_spec, "seed": args.seed + n}
                while (created := await client.post("/api/tables", json=body)).status_code == 429:
                    await asyncio.sleep(0.1)  # the per-address rate limit
                created.raise_for_status()
                tables.append(created.json())
        stop = asyncio.Event()
        ws_base = base.replace("http://", "ws://")
        seats = [Seat(ws_base, t["table_id"], s["token"], args.think, record,
                      random.Random(rng.random()))
                 for t in tables for s in t["seats"]]
        tasks = [asyncio.ensure_future(seat.run(stop)) for seat in seats]
        await asyncio.sleep(args.warm_up)
        for i in range(2):
            servers.signal(i, signal.SIGTERM)
            statuses.append(await asyncio.to_thread(servers.wait, i))
            await asyncio.to_thread(servers.start, i)
            await asyncio.sleep(args.settle)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(1.0)  # the last actions stored
        found = await stored(cluster.url)
    finally:
        await balancer.close()
        servers.stop_all()
    mismatches = [
        {"table": table_id, "step": step, "acknowledged": action,
         "stored": found.get(table_id, {}).get(step)}
        for table_id, steps in record.acknowledged.items()
        for step, action in steps.items()
        if found.get(table_id, {}).get(step) != action
    ]
    wrong = len(mismatches)
    acknowledged = sum(len(steps) for steps in record.acknowledged.values())
    return {
        "tables": args.tables,
        "workers_per_process": args.workers,
        "exit_statuses": statuses,
        "actions_sent": record.sent,
        "actions_sent_again": record.resent,
        "actions_acknowledged": acknowledged,
        "actions_stored": sum(len(steps) for steps in found.values()),
        "acknowledged_not_stored_as_sent": wrong,
        "mismatches": mismatches[:5],
        "client_errors": record.errors,
        "sockets_moved": record.moved,
        "switch_wait": spread(record.switch_waits),
        "action_wait": spread(record.action_waits),
        "ok": statuses == [0, 0] and wrong == 0 and not record.errors and acknowledged > 0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="two-player tables (100)")
    parser.add_argument("--workers", type=int, default=1, help="workers per process (1)")
    parser.add_argument("--think", type=float, default=0.5, help="longest pause of a seat (s)")
    parser.add_argument("--warm-up", type=float, default=10.0, help="seconds before the first")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds after each restart")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.workers < 1 or args.think < 0 or args.warm_up < 0:
        parser.error("--tables and --workers are at least 1, --think and --warm-up at least 0")
    folder = Path(tempfile.mkdtemp(prefix="oriflamme-rolling-"))
    cluster = Cluster()
    cluster.start()
    try:
        # uvloop and orjson: the load generator and its balancer share two cores with the
        # servers and the database; the less CPU they take, the more the figures are the servers'.
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            result = runner.run(run(args, cluster, folder))
    finally:
        cluster.stop()
        cluster.remove()
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['tables']} tables, 2 processes x {result['workers_per_process']} worker(s),"
              f" each restarted in turn (SIGTERM, then started again)")
        print(f"  exit statuses: {result['exit_statuses']}")
        print(f"  actions: {result['actions_sent']} sent, {result['actions_sent_again']} sent "
              f"again after a switch, {result['actions_acknowledged']} acknowledged, "
              f"{result['actions_stored']} stored; acknowledged but not stored as sent: "
              f"{result['acknowledged_not_stored_as_sent']}")
        for wrong in result["mismatches"]:
            print(f"    table {wrong['table']} step {wrong['step']}: acknowledged "
                  f"{wrong['acknowledged']}, stored {wrong['stored']}")
        errors = result["client_errors"]
        said = f" ({', '.join(sorted(set(errors)))})" if errors else ""
        print(f"  client errors: {len(errors)}{said}; sockets moved: {result['sockets_moved']}")
        for name in ("switch_wait", "action_wait"):
            f = result[name]
            print(f"  {name.replace('_', ' ')}: p50 {f['p50_s']} s, p99 {f['p99_s']} s, "
                  f"max {f['max_s']} s")
        print("  OK" if result["ok"] else f"  FAILED (logs kept in {folder})")
    if not result["ok"]:
        sys.exit(1)
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
