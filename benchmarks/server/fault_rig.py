"""The rig of the fault-injection run (``benchmarks/server/faults.py``): a PostgreSQL cluster of
its own that can be restarted or stopped, and ``oriflamme serve`` processes that can be killed,
frozen and started again.

The cluster lives in a temporary folder (``initdb`` and ``pg_ctl`` of the newest installed
PostgreSQL, as ``scripts/postgres.sh`` does; as root it runs as the ``postgres`` user).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

HOST = "127.0.0.1"
START_TIMEOUT = 60.0  #: seconds a server or the database may take to start


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def postgres_bindir() -> Path:
    """The newest installed PostgreSQL server's binaries; SystemExit if there are none."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parts[-3])
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).parent
    raise SystemExit("PostgreSQL's server binaries (initdb, pg_ctl) are needed: none found")


class Cluster:
    """A throwaway PostgreSQL cluster in a temporary folder: started, restarted, stopped,
    removed."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="oriflamme-faults-pg-"))
        self.bindir = postgres_bindir()
        self.port = free_port()
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as:  # PostgreSQL refuses to run as root
            shutil.chown(self.folder, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "oriflamme", "-A", "trust", "-E", "UTF8",
                  "--no-sync")

    @property
    def url(self) -> str:
        return f"postgresql://oriflamme@{HOST}:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        # Output to a file, not a pipe: the server pg_ctl starts would hold a pipe open.
        output = self.folder / "pg_ctl.out"
        with output.open("ab") as out:
            command = [*self._as, str(self.bindir / tool), *args]
            done = subprocess.run(command, stdout=out, stderr=out, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{tool} failed:\n{output.read_text(errors='replace')}")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                  "-o", self._options, "start")

    @property
    def _options(self) -> str:
        return (f"-p {self.port} -k {self.folder} -c listen_addresses={HOST}"
                " -c max_connections=300")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-m", "fast", "-w",
                  "-t", "60", "-o", self._options, "restart")

    def remove(self) -> None:
        subprocess.run([*self._as, str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m",
                        "immediate", "-w", "stop"], capture_output=True, check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


class Servers:
    """``count`` server processes on the database ``url``, each on a port of its own."""

    def __init__(
        self, url: str, count: int, folder: Path, bot_delay: float, extra: Sequence[str] = ()
    ) -> None:
        self.url = url
        self.extra = tuple(extra)  #: more options of every ``serve``
        self.folder = folder
        self.bot_delay = bot_delay
        self.ports = [free_port() for _ in range(count)]
        self.processes: list[subprocess.Popen[bytes] | None] = [None] * count
        # One plain-HTTP client for the health polls: a new httpx client per poll builds a TLS
        # context each time (about 40 ms of CPU, holding the GIL), which slowed the load
        # client of this same process while a server started.
        self._http = httpx.Client(timeout=2, verify=False)

    def base(self, i: int) -> str:
        return f"http://{HOST}:{self.ports[i]}"

    def log(self, i: int) -> Path:
        return self.folder / f"server{i}.log"

    def start(self, i: int) -> None:
        command = [sys.executable, "-m", "oriflamme", "serve", "--port", str(self.ports[i]),
                   "--db", self.url, "--bot-delay", str(self.bot_delay),
                   "--tables-per-hour", "0", "--bot-tables", "0", *self.extra]
        with self.log(i).open("ab") as out:
            self.processes[i] = subprocess.Popen(command, stdout=out, stderr=out,
                                                 start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        while not self.healthy(i):
            if time.monotonic() > deadline:
                raise SystemExit(f"server {i} did not start:\n{self.log(i).read_text()}")
            time.sleep(0.1)

    def healthy(self, i: int) -> bool:
        try:
            return self._http.get(f"{self.base(i)}/healthz").status_code == 200
        except httpx.TransportError:
            return False

    def signal(self, i: int, sig: signal.Signals) -> None:
        process = self.processes[i]
        assert process is not None
        process.send_signal(sig)

    def wait(self, i: int, timeout: float = 60.0) -> int:
        """Wait for server ``i`` to end; its exit status (negative: the signal that ended it)."""
        process = self.processes[i]
        assert process is not None
        status = process.wait(timeout=timeout)
        self.processes[i] = None
        return status

    def stop_all(self) -> list[int]:
        """SIGTERM to every running server; their exit statuses."""
        running = [i for i, p in enumerate(self.processes) if p is not None]
        for i in running:
            self.signal(i, signal.SIGTERM)
        return [self.wait(i) for i in running]

    def kill_all(self) -> None:
        for process in self.processes:
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGCONT)
                process.kill()
                process.wait(timeout=10)
