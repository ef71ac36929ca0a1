"""Slow clients benchmark (issue #26 item 4): thousands of slow sockets from one address, and
whether everyone else is still served.

Run: ``python benchmarks/server/slow_clients.py [--sockets 5000] [--samples 200] [--retry 1]
[--no-limits]``

Starts ``oriflamme serve`` on a temporary SQLite file (its default limits: headers within 10 s,
bodies within 30 s, 100 connections per address; ``--no-limits`` turns the three off, as the
server was before). An attacker at 127.0.0.2 keeps ``--sockets`` sockets open, each having sent
the headers of a ``POST /api/tables`` and one byte of its 100 kB body; whenever the server
closes one (refused, or timed out), the attacker opens it again ``--retry`` seconds later.
Meanwhile another address (127.0.0.3) asks ``GET /healthz`` on a new connection each time and
plays the moves of a 2-player table (both seats human, one keep-alive client), ``--samples`` of
each, about ten a second. Printed: the latencies of both (p50, p99, max)
and their failures, how many of the attacker's sockets the server holds at the end, and how
it answered the others (429 too_many_connections at once, 408 request_timeout later).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

HOST = "127.0.0.1"
ATTACKER, PLAYER = "127.0.0.2", "127.0.0.3"
SLOW_REQUEST = (
    b"POST /api/tables HTTP/1.1\r\nHost: oriflamme\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100000\r\n\r\n{"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def raise_file_limit() -> int:
    """As many open files as the system allows this process (and the server it starts)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


@contextlib.contextmanager
def server(workdir: Path, limits: bool, files: int | None) -> Iterator[str]:
    port = free_port()
    command = [sys.executable, "-m", "oriflamme", "serve", "--port", str(port)]
    command += ["--db", str(workdir / "games.sqlite3"), "--bot-delay", "0"]
    if not limits:
        command += ["--header-timeout", "0", "--body-timeout", "0"]
        command += ["--connections-per-address", "0"]
    log = workdir / "server.log"

    def open_files() -> None:  # in the server's process, before it starts
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    with log.open("wb") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, preexec_fn=open_files
        )
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
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


class Attacker:
    """Keeps ``count`` slow sockets open against the server from :data:`ATTACKER`."""

    def __init__(self, port: int, count: int, retry: float) -> None:
        self.port = port
        self.count = count
        self.retry = retry
        self.answers: Counter[str] = Counter()
        self.opened = 0
        self._selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _open(self) -> None:
        sock = socket.socket()
        sock.bind((ATTACKER, 0))
        try:
            sock.connect((HOST, self.port))
            sock.sendall(SLOW_REQUEST)
        except OSError as exc:
            sock.close()
            self.answers[f"connect failed ({exc.strerror or exc})"] += 1
            return
        sock.setblocking(False)
        self.opened += 1
        self._selector.register(sock, selectors.EVENT_READ)

    def start(self) -> None:
        for _ in range(self.count):
            self._open()
        self._thread.start()

    def _run(self) -> None:
        closed: deque[float] = deque()  #: when each socket to open again was closed
        while not self._stop.is_set():
            for key, _ in self._selector.select(timeout=0.05):
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    data = sock.recv(4096)
                except OSError:
                    data = b""
                self.answers[_answer(data)] += 1
                self._selector.unregister(sock)
                sock.close()
                closed.append(time.monotonic())
            # The attack goes on: each closed socket is opened again `retry` seconds later.
            while closed and time.monotonic() - closed[0] >= self.retry:
                closed.popleft()
                self._open()

    def stop(self) -> int:
        """Stop opening sockets; once the server answered the last ones, close the others and
        return how many the server was holding."""
        self._stop.set()
        self._thread.join(10)
        settled = time.monotonic() + 2.0
        while time.monotonic() < settled:
            for key, _ in self._selector.select(timeout=0.1):
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    data = sock.recv(4096)
                except OSError:
                    data = b""
                self.answers[_answer(data)] += 1
                self._selector.unregister(sock)
                sock.close()
        held = len(self._selector.get_map())
        for key in list(self._selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self._selector.close()
        return held


def _answer(data: bytes) -> str:
    if not data:
        return "closed without an answer"
    head, _, body = data.partition(b"\r\n\r\n")
    status = head.split(b" ", 2)[1].decode()
    try:
        return f"{status} {json.loads(body)['error']['code']}"
    except (ValueError, KeyError, TypeError):  # the body came later: the status says it
        return status


def quantiles(samples: list[float]) -> dict[str, float | None]:
    if not samples:
        return {"p50": None, "p99": None, "max": None}
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "p50": round(statistics.median(ordered) * 1000, 1),
        "p99": round(p99 * 1000, 1),
        "max": round(ordered[-1] * 1000, 1),
    }


def new_table(url: str) -> tuple[str, list[str]]:
    """A 2-player table of two human seats (before the attack): its id and seat tokens."""
    transport = httpx.HTTPTransport(local_address=PLAYER)
    with httpx.Client(base_url=url, timeout=30, transport=transport) as player:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        table = player.post("/api/tables", json={"players": 2, "seats": seats}).json()
    return table["table_id"], [seat["token"] for seat in table["seats"]]


def measure(url: str, samples: int, table_id: str, tokens: list[str]) -> dict[str, Any]:
    """Latencies of /healthz (a new connection each) and of moves, from :data:`PLAYER`."""
    transport = httpx.HTTPTransport(local_address=PLAYER)
    health: list[float] = []
    moves: list[float] = []
    failures: Counter[str] = Counter()
    with httpx.Client(base_url=url, timeout=30, transport=transport) as player:
        for _ in range(samples):
            started = time.monotonic()
            status = healthz(url)
            if status == "200":
                health.append(time.monotonic() - started)
            else:
                failures[f"healthz {status}"] += 1
            try:
                moved = play_one(player, table_id, tokens)
                if moved is None:
                    failures["move refused"] += 1
                else:
                    moves.append(moved)
            except httpx.HTTPError as exc:
                failures[f"move {type(exc).__name__}"] += 1
            time.sleep(max(0.0, 0.1 - (time.monotonic() - started)))
    return {
        "healthz_ms": quantiles(health),
        "move_ms": quantiles(moves),
        "failures": dict(failures),
    }


def healthz(url: str) -> str:
    """GET /healthz on a new connection from :data:`PLAYER`: the status, or what failed."""
    host, port = url.removeprefix("http://").split(":")
    try:
        with socket.create_connection(
            (host, int(port)), timeout=30, source_address=(PLAYER, 0)
        ) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: oriflamme\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    except OSError as exc:
        return type(exc).__name__
    return answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/") else "no answer"


def play_one(player: httpx.Client, table_id: str, tokens: list[str]) -> float | None:
    """One move of whoever must play (a new game once it is over): its time, or None."""
    for token in tokens:
        view = player.get(f"/api/tables/{table_id}/view", params={"token": token}).json()
        if view["result"] is not None:
            player.post(f"/api/tables/{table_id}/rematch", json={"token": token})
            return play_one(player, table_id, tokens)
        if view["legal"]:
            body = {"token": token, "action": view["legal"][0]["action"], "step": view["step"]}
            started = time.monotonic()
            answer = player.post(f"/api/tables/{table_id}/actions", json=body)
            took = time.monotonic() - started
            return took if answer.status_code == 200 else None
    return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sockets", type=int, default=5000, help="slow sockets (default 5000)")
    parser.add_argument("--samples", type=int, default=200, help="healthz and moves timed")
    parser.add_argument(
        "--retry",
        type=float,
        default=1.0,
        help="seconds before the attacker opens a closed socket again (default 1)",
    )
    parser.add_argument(
        "--no-limits", action="store_true", help="the server without its slow-client limits"
    )
    parser.add_argument(
        "--server-files",
        type=int,
        default=None,
        metavar="N",
        help="the server's limit of open files (default: this process's, raised to the most"
        " allowed); many systems start services with 1024 or 4096",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    files = raise_file_limit()
    with (
        tempfile.TemporaryDirectory(prefix="oriflamme-slow-") as folder,
        server(Path(folder), limits=not args.no_limits, files=args.server_files) as url,
    ):
        table_id, tokens = new_table(url)
        attacker = Attacker(int(url.rsplit(":", 1)[1]), args.sockets, args.retry)
        started = time.monotonic()
        attacker.start()
        opening = time.monotonic() - started
        try:
            result = measure(url, args.samples, table_id, tokens)
        finally:
            held = attacker.stop()
    result.update(
        limits="off" if args.no_limits else "on (default)",
        open_files=files,
        server_open_files=args.server_files or files,
        slow_sockets=args.sockets,
        retry_s=args.retry,
        opening_s=round(opening, 1),
        attack_sockets_opened=attacker.opened,
        held_by_server_at_end=held,
        server_answers=dict(attacker.answers),
    )
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"limits {result['limits']}, server's open files {result['server_open_files']}:"
        f" {args.sockets} slow sockets from {ATTACKER} (opened in"
        f" {opening:.1f} s; {attacker.opened} opened in all), {held} held by the server at the end"
    )
    print(f"server's answers to the attacker: {dict(attacker.answers)}")
    for name in ("healthz_ms", "move_ms"):
        q = result[name]
        print(f"{name[:-3]} from {PLAYER}: p50 {q['p50']} ms, p99 {q['p99']} ms, max {q['max']} ms")
    print(f"failures: {result['failures'] or 'none'}")


if __name__ == "__main__":
    main()
