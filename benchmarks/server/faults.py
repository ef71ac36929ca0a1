"""Fault-injection run (issue #33): games played through several ``oriflamme serve`` processes on
one PostgreSQL database while processes and the database fail; then every acknowledged action
is checked against the stored replays.

Run: ``python benchmarks/server/faults.py [--servers 3] [--tables 24] [--outage 30] [--pause 30]
[--soak 30] [--settle 10] [--bot-delay 0.2] [--think 0.3]``

Starts a PostgreSQL cluster of its own in a temporary folder and ``--servers`` server processes
on it (``benchmarks/server/fault_rig.py``). ``--tables`` games are kept under way at once: 3-player
tables whose two human seats are played over HTTP by this script (each request goes to a live
server chosen at random: the clients fail over like a load balancer, from 50 loopback
addresses) and whose third seat is a ``random`` bot played by the servers. Every game started is
played to its end. Meanwhile, in order, ``--settle`` seconds apart:

1. ``kill -9`` of server 1, started again 5 s later;
2. a restart of PostgreSQL (``pg_ctl restart -m fast``);
3. PostgreSQL stopped (``-m immediate``) for ``--outage`` seconds, then started again;
4. server 2 frozen (SIGSTOP) for ``--pause`` seconds, then woken (SIGCONT); a seat connected
   to it by WebSocket must be shown connected again by the other servers;
5. SIGTERM to the last server (exit status 0 expected), started again;
6. a soak of ``--soak`` seconds.

Then no new game starts, the games under way are played to their end, and the stored replays
are read from the database. Checks: every acknowledged action is stored, at its step, exactly
once; every game stored is a legal game played to its end; no traceback in the servers' logs;
every SIGTERM ended its server with status 0. Printed: the counts, the checks, and for each
fault the longest time a game went without a move, the longest a client waited to be served
again after a refused or unanswered request, and the time the servers took to answer /healthz
again. Exit status 1 if a check failed (the folder with the logs is then kept and named).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import signal
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from fault_rig import Cluster, Servers
from websockets.asyncio.client import connect

from oriflamme.api import Game, GameConfig

REQUEST_TIMEOUT = 5.0  #: seconds before a request without an answer counts as failed
DOWN_FOR = 3.0  #: seconds a server that did not answer is left alone
ADDRESSES = [f"127.0.0.{2 + i}" for i in range(50)]  #: the clients' loopback addresses
#: seconds within which a seat connected on one server must show connected on another
SHOWN_TIMEOUT = 30.0
DRAIN_TIMEOUT = 600.0  #: seconds the games under way may take to finish at the end
BOT = 2  #: the bot's seat at every table


@dataclass
class Record:
    """What the clients did and saw."""

    phase: str = "warm-up"
    tables: dict[str, int] = field(default_factory=dict)  #: table id -> seed
    acknowledged: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    unanswered_posts: int = 0  #: actions sent without an answer (stored or not: unknown)
    finished: set[str] = field(default_factory=set)
    stalls: dict[str, float] = field(default_factory=dict)  #: phase -> longest wait for a move
    failover: dict[str, float] = field(default_factory=dict)  #: phase -> longest client wait
    errors: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def longest(self, where: dict[str, float], seconds: float) -> None:
        where[self.phase] = max(where.get(self.phase, 0.0), seconds)


class Net:
    """HTTP to the servers as through a load balancer: a live server at random for each
    request, one that failed to answer left alone for :data:`DOWN_FOR` seconds."""

    def __init__(self, servers: Servers, record: Record) -> None:
        self._servers = servers
        self._record = record
        self._down = [0.0] * len(servers.ports)
        self._clients = {
            address: httpx.AsyncClient(
                timeout=REQUEST_TIMEOUT,
                transport=httpx.AsyncHTTPTransport(local_address=address),
            )
            for address in ADDRESSES
        }

    async def close(self) -> None:
        for client in self._clients.values():
            await client.aclose()

    def _pick(self) -> int:
        now = time.monotonic()
        live = [i for i, until in enumerate(self._down) if until <= now]
        return random.choice(live or range(len(self._down)))

    async def call(
        self, method: str, path: str, address: str, body: object = None
    ) -> tuple[int | None, Any]:
        """The status and JSON answer; ``(None, None)`` for a POST that got no answer (it may
        have been stored). Refusals meaning "try again" (503, 429) and servers that do not
        answer are tried again, on another server."""
        client = self._clients[address]
        failed_at: float | None = None
        while True:
            server = self._pick()
            try:
                response = await client.request(
                    method, self._servers.base(server) + path, json=body
                )
            except httpx.TransportError as exc:
                self._record.errors[f"no answer ({type(exc).__name__})"] += 1
                self._down[server] = time.monotonic() + DOWN_FOR
                failed_at = failed_at or time.monotonic()
                if method == "POST":
                    self._record.unanswered_posts += 1
                    self._failover(failed_at)
                    return None, None
                continue
            if response.status_code in (429, 503):
                self._record.errors[f"{response.status_code} {_code(response)}"] += 1
                failed_at = failed_at or time.monotonic()
                await asyncio.sleep(0.2)
                continue
            self._failover(failed_at)
            return response.status_code, response.json()

    def _failover(self, failed_at: float | None) -> None:
        if failed_at is not None:
            self._record.longest(self._record.failover, time.monotonic() - failed_at)


def _code(response: httpx.Response) -> str:
    try:
        return str(response.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return "?"


async def play_tables(
    net: Net, record: Record, number: int, stop: asyncio.Event, think: float
) -> None:
    """Play one table after another until ``stop``; each game to its end."""
    address = ADDRESSES[number % len(ADDRESSES)]
    rng = random.Random(number)
    while not stop.is_set():
        seed = rng.randrange(2**40)
        seats = [{"kind": "human", "name": f"P{number}a"}, {"kind": "human", "name": f"P{number}b"},
                 {"kind": "bot", "level": "random"}]
        status, table = await net.call("POST", "/api/tables", address,
                                       {"players": 3, "seats": seats, "seed": seed})
        if status != 201:
            record.errors[f"create {status}"] += 1
            await asyncio.sleep(0.5)
            continue
        record.tables[table["table_id"]] = seed
        await play_game(net, record, table, address, rng, think)


async def play_game(
    net: Net,
    record: Record,
    table: dict[str, Any],
    address: str,
    rng: random.Random,
    think: float,
) -> None:
    tid = table["table_id"]
    tokens = [s["token"] for s in table["seats"][:BOT]]
    spectator = f"/api/tables/{tid}/view?token={table['spectator_token']}"
    last_step, last_move = -1, time.monotonic()
    while True:
        status, public = await net.call("GET", spectator, address)
        if status != 200:
            record.errors[f"view {status}"] += 1
            await asyncio.sleep(0.2)
            continue
        now = time.monotonic()
        if public["step"] > last_step:
            if last_step >= 0:
                record.longest(record.stalls, now - last_move)
            last_step, last_move = public["step"], now
        if public["result"] is not None:
            record.finished.add(tid)
            return
        seat = public["waiting_for"]["seat"]
        if seat == BOT:
            await asyncio.sleep(0.1)
            continue
        status, mine = await net.call("GET", f"/api/tables/{tid}/view?token={tokens[seat]}",
                                      address)
        if status != 200 or mine["step"] != public["step"] or not mine["legal"]:
            await asyncio.sleep(0.05)  # that server has not seen the last move yet
            continue
        await asyncio.sleep(rng.uniform(0.0, think))  # thinking
        action = rng.choice(mine["legal"])["action"]
        body = {"token": tokens[seat], "action": action, "step": mine["step"]}
        status, _ = await net.call("POST", f"/api/tables/{tid}/actions", address, body)
        if status == 200:
            record.acknowledged[(tid, mine["step"])] = action
        elif status is not None and status not in (403, 409):
            record.errors[f"act {status}"] += 1


# -- the faults ----------------------------------------------------------------------------------
async def until_healthy(servers: Servers, which: list[int], record: Record, what: str) -> None:
    started = time.monotonic()
    pending = set(which)
    while pending:
        for i in list(pending):
            if await asyncio.to_thread(servers.healthy, i):
                pending.discard(i)
        await asyncio.sleep(0.1)
    record.notes.append(f"{what}: every server answers /healthz {time.monotonic() - started:.1f} s"
                        " after the database is back")


async def presence_after_pause(
    servers: Servers, record: Record, paused: int, other: int, pause: float
) -> None:
    """Freeze server ``paused`` for ``pause`` seconds while it holds a seat's WebSocket; the
    seat must be shown connected again by server ``other`` once it wakes (issue #33, item 2)."""
    async with httpx.AsyncClient(base_url=servers.base(other), timeout=10) as client:
        seats = [{"kind": "human", "name": "Held"}, {"kind": "human", "name": "Idle"}]
        table = (await client.post("/api/tables", json={"players": 2, "seats": seats})).json()
        view = f"/api/tables/{table['table_id']}/view"
        params = {"token": table["spectator_token"]}

        async def connected() -> bool:
            try:
                answer = await client.get(view, params=params)
            except httpx.TransportError:
                return False
            return answer.status_code == 200 and bool(answer.json()["seats"][0]["connected"])

        ws_url = servers.base(paused).replace("http", "ws", 1)
        ws_url += f"/ws/{table['table_id']}?token={table['seats'][0]['token']}"
        async with connect(ws_url) as ws:
            reader = asyncio.create_task(_drain(ws))
            shown = time.monotonic()
            while not await connected():  # bounded: a failure to report, not a hang
                if time.monotonic() - shown > SHOWN_TIMEOUT:
                    reader.cancel()
                    record.errors["held seat never shown connected by the other server"] += 1
                    return
                await asyncio.sleep(0.2)
            servers.signal(paused, signal.SIGSTOP)
            await asyncio.sleep(pause)
            forgotten = not await connected()
            servers.signal(paused, signal.SIGCONT)
            woke = time.monotonic()
            while not await connected() and time.monotonic() - woke < 60:
                await asyncio.sleep(0.2)
            again = await connected()
            reader.cancel()
        record.notes.append(
            f"pause: the held seat shown disconnected during it: {forgotten}; connected again"
            f" {time.monotonic() - woke:.1f} s after SIGCONT: {again}"
        )
        if not again:
            record.errors["presence not republished after the pause"] += 1


async def _drain(ws: Any) -> None:
    async for _ in ws:
        pass


async def faults(
    args: argparse.Namespace, cluster: Cluster, servers: Servers, record: Record
) -> list[int]:
    """The fault schedule; the exit statuses of the servers stopped with SIGTERM."""
    statuses = []
    last = len(servers.ports) - 1
    settle = args.settle
    await asyncio.sleep(settle)

    record.phase = "kill -9"
    servers.signal(1, signal.SIGKILL)
    await asyncio.to_thread(servers.wait, 1)
    await asyncio.sleep(5)
    await asyncio.to_thread(servers.start, 1)
    await asyncio.sleep(settle)

    record.phase = "database restart"
    await asyncio.to_thread(cluster.restart)
    await until_healthy(servers, list(range(len(servers.ports))), record, "database restart")
    await asyncio.sleep(settle)

    record.phase = f"database down {args.outage:g} s"
    await asyncio.to_thread(cluster.stop, "immediate")
    await asyncio.sleep(args.outage)
    await asyncio.to_thread(cluster.start)
    await until_healthy(servers, list(range(len(servers.ports))), record, "outage")
    await asyncio.sleep(settle)

    record.phase = f"SIGSTOP {args.pause:g} s"
    await presence_after_pause(servers, record, 2 % len(servers.ports), 0, args.pause)
    await asyncio.sleep(settle)

    record.phase = "SIGTERM"
    servers.signal(last, signal.SIGTERM)
    statuses.append(await asyncio.to_thread(servers.wait, last))
    await asyncio.to_thread(servers.start, last)
    await asyncio.sleep(settle)

    record.phase = "soak"
    await asyncio.sleep(args.soak)
    return statuses


# -- the checks ----------------------------------------------------------------------------------
async def stored_games(url: str, tables: dict[str, int]) -> dict[str, list[dict[str, Any]]]:
    db = await asyncpg.connect(url)
    try:
        rows = await db.fetch(
            "SELECT table_id, idx, action FROM actions WHERE table_id = ANY($1) AND game = 1"
            " ORDER BY table_id, idx",
            list(tables),
        )
    finally:
        await db.close()
    games: dict[str, list[dict[str, Any]]] = {tid: [] for tid in tables}
    for row in rows:
        actions = games[row["table_id"]]
        if row["idx"] != len(actions):
            raise SystemExit(f"table {row['table_id']}: action {row['idx']} stored out of order")
        actions.append(json.loads(row["action"]))
    return games


#: What the checks count (each printed, even when 0).
CHECKS = (
    "acknowledged and stored at their step",
    "acknowledged but stored differently",
    "acknowledged but not stored",
    "human actions stored whose answer was lost",
    "played by the bots",
    "actions stored",
    "games played to their end",
    "games not finished",
)


def check(record: Record, games: dict[str, list[dict[str, Any]]]) -> dict[str, int]:
    counts: Counter[str] = Counter({name: 0 for name in CHECKS})
    for tid, actions in games.items():
        game = Game.new(GameConfig(players=3), record.tables[tid])
        for step, action in enumerate(actions):
            seat = game.current_player
            known = record.acknowledged.get((tid, step))
            if known is not None:
                counts["acknowledged and stored at their step"] += int(known == action)
                counts["acknowledged but stored differently"] += int(known != action)
            elif seat == BOT:
                counts["played by the bots"] += 1
            else:
                counts["human actions stored whose answer was lost"] += 1
            game.apply(action)
        counts["games played to their end"] += int(game.is_over)
        counts["games not finished"] += int(not game.is_over)
        counts["actions stored"] += len(actions)
    stored = {(tid, step) for tid, actions in games.items() for step in range(len(actions))}
    counts["acknowledged but not stored"] = len(set(record.acknowledged) - stored)
    return dict(counts)


async def run(args: argparse.Namespace, folder: Path) -> bool:
    # SIGTERM or Ctrl-C (a test's timeout, a person): stop the servers and the cluster before
    # leaving, as after a failure (the "finally" below), rather than leave them running.
    loop, this = asyncio.get_running_loop(), asyncio.current_task()
    assert this is not None
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, this.cancel)
    cluster = Cluster()
    cluster.start()
    servers = Servers(cluster.url, args.servers, folder, args.bot_delay)
    record = Record()
    try:
        for i in range(args.servers):
            await asyncio.to_thread(servers.start, i)
        net = Net(servers, record)
        stop = asyncio.Event()
        started = time.monotonic()
        players = [asyncio.create_task(play_tables(net, record, n, stop, args.think))
                   for n in range(args.tables)]
        statuses = await faults(args, cluster, servers, record)
        stop.set()
        record.phase = "drain"
        done, pending = await asyncio.wait(players, timeout=DRAIN_TIMEOUT)
        for task in pending:
            task.cancel()
        for task in done:
            task.result()
        elapsed = time.monotonic() - started
        await net.close()
        games = await stored_games(cluster.url, record.tables)
        statuses += await asyncio.to_thread(servers.stop_all)
    finally:
        servers.kill_all()
        cluster.remove()
    counts = check(record, games)
    logs = [servers.log(i).read_text(errors="replace") for i in range(args.servers)]
    tracebacks = sum(text.count("Traceback") for text in logs)
    record.notes.append("warnings logged by each server (whole run): "
                        + ", ".join(str(text.count("WARNING")) for text in logs))
    ok = (
        counts["acknowledged but stored differently"] == 0
        and counts["acknowledged but not stored"] == 0
        and counts["games not finished"] == 0
        and counts["human actions stored whose answer was lost"] <= record.unanswered_posts
        and len(record.finished) == len(record.tables)
        and tracebacks == 0
        and all(status == 0 for status in statuses)
        and not record.errors["presence not republished after the pause"]
    )
    report(args, record, counts, statuses, tracebacks, elapsed)
    print("checks:", "passed" if ok else "FAILED")
    return ok


def report(
    args: argparse.Namespace,
    record: Record,
    counts: dict[str, int],
    statuses: list[int],
    tracebacks: int,
    elapsed: float,
) -> None:
    print(f"{args.servers} servers, {args.tables} games at a time, {elapsed:.0f} s;"
          f" tables {len(record.tables)}, games finished {len(record.finished)}")
    print(f"actions acknowledged {len(record.acknowledged)}, stored {counts['actions stored']};"
          f" actions sent without an answer (stored or not): {record.unanswered_posts}")
    for name in CHECKS:
        print(f"  {name}: {counts[name]}")
    print("longest wait for a move, and for a client to be served again, by fault:")
    for phase in record.stalls | record.failover:
        print(f"  {phase}: no move for {record.stalls.get(phase, 0.0):.1f} s;"
              f" client served again after {record.failover.get(phase, 0.0):.1f} s")
    for note in record.notes:
        print(note)
    print(f"SIGTERM exit statuses: {statuses}; tracebacks in the servers' logs: {tracebacks}")
    print("refused or unanswered requests (tried again):",
          ", ".join(f"{k}: {v}" for k, v in record.errors.most_common()) or "none")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--servers", type=int, default=3, help="server processes (default 3)")
    parser.add_argument("--tables", type=int, default=24, help="games at a time (default 24)")
    parser.add_argument("--outage", type=float, default=30, help="seconds the database is"
                        " down (default 30)")
    parser.add_argument("--pause", type=float, default=30, help="seconds a server is frozen"
                        " (default 30; over 20, the others forget its connections)")
    parser.add_argument("--soak", type=float, default=30, help="seconds of play at the end")
    parser.add_argument("--settle", type=float, default=10, help="seconds between faults")
    parser.add_argument("--bot-delay", type=float, default=0.2, help="the servers' --bot-delay")
    parser.add_argument("--think", type=float, default=0.3, help="longest pause of a human"
                        " before a move, in seconds (default 0.3)")
    args = parser.parse_args(argv)
    if args.servers < 3:
        parser.error("--servers: at least 3 (one is killed, one frozen, one stopped)")
    folder = Path(tempfile.mkdtemp(prefix="oriflamme-faults-"))
    ok = False
    try:
        ok = asyncio.run(run(args, folder))
    except asyncio.CancelledError:
        print("interrupted: the servers and the cluster are stopped")
    finally:
        if ok:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print(f"logs kept in {folder}")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
