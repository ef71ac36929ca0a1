"""benchmarks/server/load.py: the load benchmark runs, on one SQLite server and on two
PostgreSQL ones."""

from __future__ import annotations

import json
import subprocess
import sys

from scripts import ROOT

SCRIPT = ROOT / "benchmarks" / "server" / "load.py"


def run(*options: str) -> dict[str, object]:
    command = [sys.executable, str(SCRIPT), "--games", "4", "--seconds", "3", "--json", *options]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout)
    return result


def played(result: dict[str, object]) -> None:
    """Actions were played and measured (how many: the benchmark's figure, not a test's), and
    the rate printed is theirs."""
    accepted, seconds = result["accepted_actions"], result["seconds"]
    assert isinstance(accepted, int) and accepted > 0
    assert isinstance(seconds, float) and seconds > 0
    assert result["actions_per_s"] == round(accepted / seconds, 1)
    latency = result["latency_ms"]
    assert isinstance(latency, dict) and 0 < latency["p50"] <= latency["max"]


def test_two_servers_on_postgresql_are_measured_across_servers(pg_url: str) -> None:
    result = run("--servers", "2", "--db", pg_url)
    assert result["servers"] == 2 and result["database"] == "postgresql"
    played(result)
    cross = result["cross_server_ms"]
    assert isinstance(cross, dict) and cross["p50"] > 0  # the seats of a table span the servers
    assert result["errors"] == {} and result["server_log_errors"] == 0


def test_one_server_on_sqlite_has_no_cross_server_figures() -> None:
    result = run()
    assert result["servers"] == 1 and result["database"] == "sqlite"
    assert result["cross_server_ms"] == {"p50": 0.0, "p99": 0.0, "max": 0.0}
    played(result)
    assert result["errors"] == {} and result["server_log_errors"] == 0
