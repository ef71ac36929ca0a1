"""Server load benchmark: many all-human tables played by random WebSocket clients.

Run: ``python benchmarks/server/load.py [--games 200] [--seconds 60] [--players 3] [--think 0]
[--servers N] [--db postgresql://…]``

Starts the real server (``oriflamme serve --bot-delay 0``) on 127.0.0.1 with a temporary SQLite
database, or ``--servers`` processes on one ``--db`` (a PostgreSQL database for more than one;
unless ``--url`` points at a running server), creates the tables through the HTTP API, opens one
WebSocket per seat and plays a random legal action whenever a seat's view lists ``legal``
options; a finished game is followed by a rematch, so the load stays constant. With several
servers the seats of a table connect to different servers (seat ``i`` of table ``t`` to server
``(t + i) mod N``), so that every action crosses servers.

Latencies of an action, from sending ``act``: to the first view past it on the same connection
(``latency_ms``); to every connection of the table having it (``all_connections_ms``); and, for
each connection on another server than the actor's, to that connection having it
(``cross_server_ms``). See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"
STARTUP_TIMEOUT = 30.0  #: seconds the server may take to answer
SETUP_TIMEOUT = 300.0  #: seconds for creating every table and opening every connection
HTTP_TIMEOUT = 10.0  #: seconds of one HTTP request
ACT_TIMEOUT = 10.0  #: seconds an action may wait for its view before it counts as lost
DRAIN = 3.0  #: seconds given to the actions still pending when the measure ends
HTTP_RATE, HTTP_BURST = 15.0, 10.0  #: below the server's 20 POSTs/s (bursts of 20) per IP
WS_RATE, WS_BURST = 15.0, 10.0  #: below the server's 20 messages/s (bursts of 20) per socket
CONNECT_AT_ONCE = 50  #: WebSocket handshakes in flight at once
HTTP_RETRIES = 20  #: attempts of one HTTP request refused with 429


class Bucket:
    """A token bucket on the client side: ``rate`` requests a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self._rate = rate
        self._burst = burst
        self._tokens = burst
        self._stamp = time.monotonic()

    def reserve(self) -> float:
        """Take a token now or in the future; return the seconds to wait before using it."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        self._tokens -= 1
        return 0.0 if self._tokens >= 0 else -self._tokens / self._rate

    async def take(self) -> None:
        await asyncio.sleep(self.reserve())


@dataclass
class Stats:
    """What the clients saw during the measured window (and the set-up's HTTP errors)."""

    latencies: list[float] = field(default_factory=list)
    all_connections: list[float] = field(default_factory=list)
    cross_server: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    setup_errors: Counter[str] = field(default_factory=Counter)
    views: int = 0
    view_bytes: int = 0
    games_finished: int = 0
    rematches: int = 0
    waiting_for_rematch: float = 0.0  #: seconds finished games waited for the next one
    closed_early: int = 0


@dataclass
class Trace:
    """An action on its way to every connection of its table."""

    sent_at: float
    server: int
    waiting: set[int]  #: seats whose connection has not seen it yet


class Traces:
    """The actions in flight, by table and (game, step), and the latencies they gave."""

    def __init__(self, stats: Stats) -> None:
        self._stats = stats
        self._by_table: dict[str, dict[tuple[int, int], Trace]] = {}

    def sent(self, table_id: str, key: tuple[int, int], trace: Trace) -> None:
        self._by_table.setdefault(table_id, {})[key] = trace

    def seen(self, table_id: str, key: tuple[int, int], seat: int, server: int, now: float) -> None:
        """Connection ``seat`` (on ``server``) received a view at ``key``."""
        traces = self._by_table.get(table_id)
        if not traces:
            return
        for acted in [k for k in traces if k < key]:
            trace = traces[acted]
            if seat not in trace.waiting:
                continue
            trace.waiting.discard(seat)
            if server != trace.server:
                self._stats.cross_server.append(now - trace.sent_at)
            if not trace.waiting:
                self._stats.all_connections.append(now - trace.sent_at)
                del traces[acted]


@dataclass(frozen=True)
class Seat:
    table_id: str
    seat: int
    token: str
    players: int
    server: int  #: the server this seat's connection goes to


class HttpError(Exception):
    def __init__(self, status: int, code: str) -> None:
        super().__init__(f"HTTP {status} {code}")
        self.status = status
        self.code = code


class Client:
    """The HTTP side: table creation and rematches, paced under the server's limit per IP."""

    def __init__(self, base_urls: list[str], stats: Stats) -> None:
        self.base_urls = [url.rstrip("/") for url in base_urls]
        self.base_url = self.base_urls[0]
        self._stats = stats
        self._bucket = Bucket(HTTP_RATE, HTTP_BURST)
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def _request(self, method: str, path: str, body: object | None, server: int = 0) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        url = self.base_urls[server] + path
        request = urllib.request.Request(url, data, headers, method=method)
        try:
            with self._opener.open(request, timeout=HTTP_TIMEOUT) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            try:
                code = json.loads(exc.read())["error"]["code"]
            except (ValueError, KeyError, TypeError):
                code = "unreadable_error"
            raise HttpError(exc.code, code) from None

    async def get(self, path: str, server: int = 0) -> Any:
        return await asyncio.to_thread(self._request, "GET", path, None, server)

    async def post(self, path: str, body: object, errors: Counter[str], server: int = 0) -> Any:
        """POST, paced; a 429 is counted in ``errors`` and retried after a pause."""
        for attempt in range(HTTP_RETRIES):
            await self._bucket.take()
            try:
                return await asyncio.to_thread(self._request, "POST", path, body, server)
            except HttpError as exc:
                errors[f"http {exc.code}"] += 1
                if exc.status != 429:
                    raise
            await asyncio.sleep(0.1 * (attempt + 1))
        raise HttpError(429, "too_many_requests")

    async def create_table(self, players: int, number: int) -> list[Seat]:
        body = {
            "players": players,
            "seats": [{"kind": "human", "name": f"T{number} S{i}"} for i in range(players)],
        }
        servers = len(self.base_urls)
        made = await self.post("/api/tables", body, self._stats.setup_errors, number % servers)
        return [
            Seat(made["table_id"], s["seat"], s["token"], players, (number + s["seat"]) % servers)
            for s in made["seats"]
        ]

    async def rematch(self, seat: Seat, game_number: int) -> None:
        body = {"token": seat.token, "game_number": game_number}
        with contextlib.suppress(HttpError, OSError):  # counted in stats.errors
            path = f"/api/tables/{seat.table_id}/rematch"
            await self.post(path, body, self._stats.errors, seat.server)
            self._stats.rematches += 1


@dataclass
class Window:
    """The measured interval: actions are sent from ``start`` until ``stop``."""

    start: float
    stop: float
    think: float
    rematch: bool

    def open(self, now: float) -> bool:
        return self.start <= now < self.stop


class Player:
    """One seat's WebSocket: plays a random legal action whenever its view asks it to."""

    def __init__(
        self,
        seat: Seat,
        socket: ClientConnection,
        client: Client,
        stats: Stats,
        traces: Traces,
        rng: random.Random,
    ) -> None:
        self.seat = seat
        self._traces = traces
        self._socket = socket
        self._client = client
        self._stats = stats
        self._rng = rng
        self._bucket = Bucket(WS_RATE, WS_BURST)
        self._view: dict[str, Any] | None = None
        self._acted: tuple[int, int] | None = None  #: (game, step) of the last action sent
        self._sent_at = 0.0
        self._pending = False
        self._due: float | None = None  #: when to act on the current view
        self._rematched: set[int] = set()
        self._window_stop = math.inf
        self.finished: tuple[int, float] | None = None  #: (game, when) of a game over

    async def run(self, window: Window, tasks: set[asyncio.Task[None]]) -> None:
        """Play until the window closes, then wait (a little) for the pending action."""
        self._window_stop = window.stop
        try:
            await self._loop(window, tasks)
        except ConnectionClosed:
            self._stats.closed_early += 1

    async def _loop(self, window: Window, tasks: set[asyncio.Task[None]]) -> None:
        while True:
            now = time.monotonic()
            if now >= window.stop and (not self._pending or now >= window.stop + DRAIN):
                return
            over = self._view is not None and self._view["result"] is not None
            if over and not window.rematch and not self._pending:
                return
            if self._pending and now - self._sent_at > ACT_TIMEOUT:
                self._stats.errors["no view within 10 s"] += 1
                self._pending = False
            if self._due is not None and now >= self._due and not self._pending:
                self._due = None
                if window.open(now):
                    await self._act()
            deadlines = [window.stop if now < window.stop else window.stop + DRAIN]
            deadlines += [self._sent_at + ACT_TIMEOUT] if self._pending else []
            deadlines += [self._due] if self._due is not None else []
            try:
                raw = await asyncio.wait_for(self._socket.recv(), max(0.0, min(deadlines) - now))
            except TimeoutError:
                continue
            self._receive(raw, time.monotonic(), window, tasks)

    def _receive(
        self, raw: str | bytes, now: float, window: Window, tasks: set[asyncio.Task[None]]
    ) -> None:
        message = json.loads(raw)
        if message.get("type") == "error":
            if window.open(self._sent_at if self._pending else now):
                self._stats.errors[message.get("code", "?")] += 1
            if self._pending:  # the action was refused: decide again on the latest view
                self._pending, self._acted = False, None
                self._schedule(now, window)
            return
        if message.get("type") != "view":
            return
        view = message["view"]
        key = (view["game_number"], view["step"])
        self._traces.seen(self.seat.table_id, key, self.seat.seat, self.seat.server, now)
        if window.open(now):
            self._stats.views += 1
            self._stats.view_bytes += len(raw)
        if self.finished is not None and key[0] > self.finished[0]:
            self._stats.waiting_for_rematch += now - self.finished[1]
            self.finished = None
        if self._pending and self._acted is not None and key > self._acted:
            self._pending = False
            if window.open(self._sent_at):
                self._stats.latencies.append(now - self._sent_at)
        self._view = view
        if view["result"] is not None and self.seat.seat == 0 and window.open(now):
            self._game_over(key[0], now, window, tasks)
        self._schedule(now, window)

    def _game_over(
        self, number: int, now: float, window: Window, tasks: set[asyncio.Task[None]]
    ) -> None:
        """Seat 0 counts the finished game and asks for the next one."""
        if number in self._rematched:
            return
        self._rematched.add(number)
        self.finished = (number, now)
        self._stats.games_finished += 1
        if window.rematch:
            task = asyncio.create_task(self._client.rematch(self.seat, number))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    def _schedule(self, now: float, window: Window) -> None:
        """Plan an action if the view asks for one not yet sent."""
        view = self._view
        if view is None or not view["legal"] or self._pending:
            return
        if (view["game_number"], view["step"]) == self._acted or self._due is not None:
            return
        think = self._rng.uniform(0, 2 * window.think) if window.think > 0 else 0.0
        self._due = now + max(think, self._bucket.reserve())

    async def _act(self) -> None:
        view = self._view
        if view is None or not view["legal"]:
            return
        option = self._rng.choice(view["legal"])
        message = {
            "type": "act",
            "action": option["action"],
            "step": view["step"],
            "game_number": view["game_number"],
        }
        self._acted = (view["game_number"], view["step"])
        self._pending = True
        self._sent_at = time.monotonic()
        if self._sent_at < self._window_stop:
            waiting = set(range(self.seat.players))
            trace = Trace(self._sent_at, self.seat.server, waiting)
            self._traces.sent(self.seat.table_id, self._acted, trace)
        await self._socket.send(json.dumps(message))

    async def close(self) -> None:
        await asyncio.wait_for(self._socket.close(), 5.0)


# -- the server subprocess -------------------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process (all its threads) from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def postgres_cpu_seconds() -> float:
    """CPU time of every PostgreSQL process of this machine (0 if none can be read)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if stat.read_bytes().startswith(b"postgres"):
                total += cpu_seconds(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return total


CGROUP_V1, CGROUP_V2 = Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup")


def cpu_limited(pid: int, name: str, cores: float) -> Path:
    """Put process ``pid`` (and the processes it starts later) in a new cgroup that may use
    ``cores`` of one core's time (Linux, as root); return the cgroup's folder."""
    period = 100_000
    if (CGROUP_V1 / "cpu.cfs_quota_us").exists():
        group = CGROUP_V1 / name
        group.mkdir(exist_ok=True)
        (group / "cpu.cfs_period_us").write_text(str(period))
        (group / "cpu.cfs_quota_us").write_text(str(int(cores * period)))
    else:
        group = CGROUP_V2 / name
        group.mkdir(exist_ok=True)
        (group / "cpu.max").write_text(f"{int(cores * period)} {period}")
    (group / "cgroup.procs").write_text(str(pid))
    return group


@contextlib.contextmanager
def servers(
    ports: list[int], db: str | None, cores: float | None = None
) -> Iterator[tuple[list[subprocess.Popen[bytes]], list[Path]]]:
    """Run one ``oriflamme serve`` per port on one database (each limited to ``cores`` of a
    core if given); stop them and remove their temporary files after."""
    workdir = Path(tempfile.mkdtemp(prefix="oriflamme-load-"))
    database = db or str(workdir / "games.sqlite3")
    processes, logs, groups = [], [], []
    try:
        for port in ports:
            log_path = workdir / f"server-{port}.log"
            command = [sys.executable, "-m", "oriflamme", "serve", "--host", HOST]
            command += ["--port", str(port), "--db", database, "--bot-delay", "0"]
            # Every table and connection comes from this one address.
            command += ["--tables-per-hour", "0", "--connections-per-address", "0"]
            with open(log_path, "wb") as log:
                processes.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT))
            logs.append(log_path)
            if cores is not None:
                groups.append(cpu_limited(processes[-1].pid, f"oriflamme-load-{port}", cores))
        yield processes, logs
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process in processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for group in groups:
            with contextlib.suppress(OSError):
                group.rmdir()
        shutil.rmtree(workdir, ignore_errors=True)


async def wait_until_up(client: Client, processes: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    for server, url in enumerate(client.base_urls):
        while True:
            for process in processes:
                if process.poll() is not None:
                    raise SystemExit(f"a server exited with status {process.returncode}")
            try:
                await client.get("/api/cards", server)
                break
            except (OSError, HttpError):
                if time.monotonic() > deadline:
                    raise SystemExit(f"the server did not answer at {url}") from None
                await asyncio.sleep(0.2)


def raise_open_files(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        if target < needed:
            print(f"warning: only {target} open files allowed, {needed} wanted", file=sys.stderr)


# -- the run ---------------------------------------------------------------------------------
def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list (0 when it is empty)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


async def open_players(
    client: Client, seats: list[Seat], stats: Stats, traces: Traces, rng: random.Random
) -> list[Player]:
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def open_one(seat: Seat) -> Player:
        ws_base = "ws" + client.base_urls[seat.server].removeprefix("http")
        async with gate:
            socket = await connect(
                f"{ws_base}/ws/{seat.table_id}?token={seat.token}",
                proxy=None,
                ping_interval=None,
                max_size=4 * 2**20,
            )
        return Player(seat, socket, client, stats, traces, random.Random(rng.random()))

    return list(await asyncio.gather(*(open_one(seat) for seat in seats)))


async def measure(
    args: argparse.Namespace, base_urls: list[str], processes: list[subprocess.Popen[bytes]]
) -> dict[str, Any]:
    stats = Stats()
    traces = Traces(stats)
    client = Client(base_urls, stats)
    rng = random.Random(args.seed)
    await wait_until_up(client, processes)
    setup_started = time.monotonic()
    tables = await asyncio.gather(
        *(client.create_table(args.players, i) for i in range(args.games))
    )
    created = time.monotonic()
    players = await open_players(client, [s for t in tables for s in t], stats, traces, rng)
    start = connected = time.monotonic()
    window = Window(start, start + args.seconds, args.think, not args.no_rematch)
    tasks: set[asyncio.Task[None]] = set()
    load_before = load_average()
    pids = [process.pid for process in processes]
    server_before = sum(cpu_seconds(pid) for pid in pids)
    postgres_before = postgres_cpu_seconds()
    own = os.times()
    try:
        await asyncio.gather(*(p.run(window, tasks) for p in players))
    finally:
        elapsed = time.monotonic() - start
        server_cpu = sum(cpu_seconds(pid) for pid in pids) - server_before if pids else None
        postgres_cpu = postgres_cpu_seconds() - postgres_before
        own_after = os.times()
        own_cpu = (own_after.user - own.user) + (own_after.system - own.system)
        load_after = load_average()
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
    measured = min(elapsed, args.seconds)
    for player in players:
        if player.finished is not None:
            stats.waiting_for_rematch += max(0.0, start + measured - player.finished[1])
    latencies = sorted(stats.latencies)
    ms = 1000.0

    def spread(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {
            "p50": round(percentile(ordered, 0.50) * ms, 2),
            "p99": round(percentile(ordered, 0.99) * ms, 2),
            "max": round((ordered[-1] if ordered else 0.0) * ms, 2),
        }

    accepted = max(1, len(latencies))
    return {
        "servers": len(base_urls),
        "server_cores": args.server_cores,
        "database": "postgresql" if (args.db or "").startswith("postgres") else "sqlite",
        "games": args.games,
        "players": args.players,
        "connections": len(players),
        "think_s": args.think,
        "seconds": round(measured, 2),
        "setup_s": {
            "create_tables": round(created - setup_started, 2),
            "open_connections": round(connected - created, 2),
        },
        "accepted_actions": len(latencies),
        "actions_per_s": round(len(latencies) / measured, 1),
        "latency_ms": {
            "p50": round(percentile(latencies, 0.50) * ms, 2),
            "p90": round(percentile(latencies, 0.90) * ms, 2),
            "p99": round(percentile(latencies, 0.99) * ms, 2),
            "max": round((latencies[-1] if latencies else 0.0) * ms, 2),
            "mean": round(sum(latencies) / len(latencies) * ms, 2) if latencies else 0.0,
        },
        "all_connections_ms": spread(stats.all_connections),
        "cross_server_ms": spread(stats.cross_server),
        "views_per_s": round(stats.views / measured, 1),
        "mean_view_bytes": round(stats.view_bytes / stats.views) if stats.views else 0,
        "games_finished": stats.games_finished,
        "rematches": stats.rematches,
        "mean_games_in_play": round(args.games - stats.waiting_for_rematch / measured, 1),
        "errors": dict(stats.errors),
        "setup_errors": dict(stats.setup_errors),
        "connections_closed_early": stats.closed_early,
        "server_cpu_percent": None if server_cpu is None else round(100 * server_cpu / elapsed, 1),
        "server_cpu_ms_per_action": None
        if server_cpu is None
        else round(ms * server_cpu / accepted, 3),
        "postgres_cpu_percent": round(100 * postgres_cpu / elapsed, 1),
        "postgres_cpu_ms_per_action": round(ms * postgres_cpu / accepted, 3),
        "client_cpu_percent": round(100 * own_cpu / elapsed, 1),
        "load_average": {"before": load_before, "after": load_after},
        "cpus": os.cpu_count(),
    }


def summary(result: dict[str, Any]) -> str:
    latency = result["latency_ms"]
    cpu = result["server_cpu_percent"]
    spread = result["all_connections_ms"]
    cross = result["cross_server_ms"]
    lines = [
        f"{result['servers']} server(s) on {result['database']}:"
        f" {result['games']} games x {result['players']} players = {result['connections']}"
        f" connections, think {result['think_s']} s, measured {result['seconds']} s"
        f" (set-up: tables {result['setup_s']['create_tables']} s,"
        f" connections {result['setup_s']['open_connections']} s)",
        f"accepted actions: {result['accepted_actions']} ({result['actions_per_s']}/s)",
        f"latency ms: p50 {latency['p50']}  p90 {latency['p90']}  p99 {latency['p99']}"
        f"  max {latency['max']}  mean {latency['mean']}",
        f"to every connection ms: p50 {spread['p50']}  p99 {spread['p99']}  max {spread['max']};"
        f" across servers ms: p50 {cross['p50']}  p99 {cross['p99']}  max {cross['max']}",
        f"views received: {result['views_per_s']}/s, {result['mean_view_bytes']} bytes each",
        f"games finished: {result['games_finished']} (rematches started: {result['rematches']});"
        f" games in play on average: {result['mean_games_in_play']}",
        f"errors: {result['errors'] or 'none'}; set-up errors: {result['setup_errors'] or 'none'};"
        f" connections closed early: {result['connections_closed_early']}",
        f"CPU per action: servers {result['server_cpu_ms_per_action']} ms,"
        f" PostgreSQL {result['postgres_cpu_ms_per_action']} ms",
        f"server CPU: {'n/a' if cpu is None else f'{cpu}%'} of one core; this client:"
        f" {result['client_cpu_percent']}%; {result['cpus']} CPUs, load average"
        f" {result['load_average']['before']} -> {result['load_average']['after']}",
    ]
    if "server_log_errors" in result:
        lines.append(f"errors in the server's log: {result['server_log_errors']}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the measure")
    parser.add_argument("--players", type=int, default=3, choices=range(2, 6))
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a seat waits before acting (uniform on 0..2×THINK); 0: at once",
    )
    parser.add_argument("--port", type=int, default=0, help="server port (0: a free one)")
    parser.add_argument(
        "--db",
        default=None,
        help="the servers' database: an SQLite file or a postgresql:// address "
        "(default: a temporary SQLite file)",
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="server processes on the database (default 1)"
    )
    parser.add_argument(
        "--server-cores",
        type=float,
        default=None,
        metavar="C",
        help="limit each server process to C of one core's time (a cgroup: Linux, as root), "
        "so that N servers get N times the CPU of one whatever else runs on the machine",
    )
    parser.add_argument("--url", default=None, help="use the server running at this URL")
    parser.add_argument("--no-rematch", action="store_true", help="play each table's game once")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random moves")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or not 0 < args.seconds <= 3600 or args.think < 0:
        parser.error("--games ≥ 1, 0 < --seconds ≤ 3600 and --think ≥ 0 are required")
    if args.url is not None and urlsplit(args.url).hostname not in (HOST, "localhost"):
        parser.error(f"--url must point at {HOST}")
    if args.servers < 1 or (args.servers > 1 and not (args.db or "").startswith("postgres")):
        parser.error("--servers above 1 needs --db postgresql://…")
    return args


async def bounded(
    args: argparse.Namespace, base_urls: list[str], processes: list[Any]
) -> dict[str, Any]:
    limit = STARTUP_TIMEOUT + SETUP_TIMEOUT + args.seconds + DRAIN + 30
    return await asyncio.wait_for(measure(args, base_urls, processes), limit)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    raise_open_files(args.games * args.players + 256)
    if args.url is not None:
        result = asyncio.run(bounded(args, [args.url], []))
    else:
        ports = [args.port or free_port()] + [free_port() for _ in range(args.servers - 1)]
        with servers(ports, args.db, args.server_cores) as (processes, logs):
            urls = [f"http://{HOST}:{port}" for port in ports]
            try:
                result = asyncio.run(bounded(args, urls, processes))
            except BaseException:
                for log_path in logs:
                    print(log_path.read_text(errors="replace")[-3000:], file=sys.stderr)
                raise
            lines = [ln for log in logs for ln in log.read_text(errors="replace").splitlines()]
            result["server_log_errors"] = sum("ERROR" in ln or "Traceback" in ln for ln in lines)
    print(json.dumps(result, indent=2) if args.json else summary(result))


if __name__ == "__main__":
    main()
