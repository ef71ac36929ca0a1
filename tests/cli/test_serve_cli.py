"""``oriflamme serve``'s own options: port 0 takes a free port and says which."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import httpx


def test_port_0_takes_a_free_port_and_prints_it(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "oriflamme", "serve", "--port", "0"]
    command += ["--db", str(tmp_path / "games.sqlite3")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"open http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        port = int(found.group(1))
        assert 0 < port <= 65535
        deadline = time.monotonic() + 30
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "nothing listens on the printed port"
                time.sleep(0.1)
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_request_lines_are_logged_without_their_tokens() -> None:
    """The server's logging hides seat tokens in request lines (``?token=…``)."""
    code = (
        "import logging.config\n"
        "from oriflamme.cli.serve import log_config\n"
        "logging.config.dictConfig(log_config())\n"
        "logging.getLogger('uvicorn.access').info('%s - \"%s %s HTTP/%s\" %d', '127.0.0.1',"
        " 'GET', '/ws/t1?token=SECRET123&x=1', '1.1', 200)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    logged = done.stdout + done.stderr
    assert "/ws/t1?token=…&x=1" in logged and "SECRET123" not in logged
