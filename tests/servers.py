"""Real ``oriflamme serve`` processes for the tests, and a TCP proxy that can cut a connection.

``running_server`` starts the server as a user would (``python -m oriflamme.cli.main serve``) on
a free port and waits until it answers; the caller may kill it (``kill -9``) at any time.
``Proxy`` stands between a server and its database on loopback: ``cut()`` drops every connection
and refuses new ones (the database is "lost"), ``restore()`` lets them through again; in front of
several servers, it is a load balancer that sends each connection to the first one alive.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx

START_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(
    db: str | Path,
    log: Path,
    *options: str,
    port: int | None = None,
    env: Mapping[str, str] | None = None,
) -> Iterator[tuple[subprocess.Popen[bytes], httpx.Client]]:
    """``oriflamme serve --db DB OPTIONS`` on a free port (with ``env`` added to this process's
    environment), until it answers; killed at the end (if still running). Yields the process
    and a client of its address."""
    port = port or free_port()
    command = [sys.executable, "-m", "oriflamme", "serve", "--port", str(port)]
    with log.open("ab") as out:
        process = subprocess.Popen(
            [*command, "--db", str(db), *options], stdout=out, stderr=out, start_new_session=True,
            env=None if env is None else {**os.environ, **env},
        )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            deadline = time.monotonic() + START_TIMEOUT
            while True:
                assert process.poll() is None, log.read_text()
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
            yield process, client
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


class Proxy:
    """A TCP proxy on loopback to ``target`` (host, port) that can cut every connection. With
    more targets it is a load balancer that fails over: each new connection goes to the first
    target that accepts it (a server killed is skipped)."""

    def __init__(
        self, target: tuple[str, int], *more: tuple[str, int], linger: float = 0.0
    ) -> None:
        self.target = target
        self.targets = (target, *more)
        #: Seconds a side that closed its connection is hidden from the other (a slow network:
        #: a server's last message arrives, its close only later).
        self.linger = linger
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._open = threading.Event()
        self._open.set()
        self._lock = threading.Lock()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._stop:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if not self._open.is_set():
                client.close()
                continue
            server = None
            for target in self.targets:
                try:
                    server = socket.create_connection(target)
                    break
                except OSError:
                    continue
            if server is None:
                client.close()
                continue
            with self._lock:
                self._pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        selector = selectors.DefaultSelector()
        selector.register(a, selectors.EVENT_READ, b)
        selector.register(b, selectors.EVENT_READ, a)
        try:
            while True:
                for key, _ in selector.select(timeout=1):
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                    if not data:
                        time.sleep(self.linger)
                        return
                    key.data.sendall(data)
        except (OSError, ValueError):
            return
        finally:
            selector.close()
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.close()

    def cut(self) -> None:
        """Drop every connection and refuse new ones."""
        self._open.clear()
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for s in pair:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()

    def restore(self) -> None:
        self._open.set()

    def close(self) -> None:
        self._stop = True
        self.cut()
        self._listener.close()


@contextmanager
def proxied(url: str, linger: float = 0.0) -> Iterator[tuple[Proxy, str]]:
    """A :class:`Proxy` to the PostgreSQL database ``url``, and the database's address through
    it (a server given that address loses its database when the proxy is cut)."""
    address = urlsplit(url)
    proxy = Proxy((address.hostname or "127.0.0.1", address.port or 5432), linger=linger)
    try:
        yield proxy, url.replace(f":{address.port}/", f":{proxy.port}/")
    finally:
        proxy.close()
