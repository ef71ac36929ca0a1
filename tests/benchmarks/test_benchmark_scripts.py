"""The benchmark scripts that take a time per figure (benchmarks/engine/playouts.py,
benchmarks/envs/adapters.py): help, a clear error for a bad value, and a short run that prints
its figures; the timings of what the tests only order (benchmarks/server/timings.py): a short
run that measures each."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import ROOT


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a benchmark script; one still running after 300 s is stopped (SIGTERM), so that it
    stops what it started (servers, a PostgreSQL cluster) before the test fails."""
    command = [sys.executable, str(ROOT / "benchmarks" / script), *args]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:
        try:
            stdout, stderr = process.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                stdout, stderr = process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                stdout, stderr = process.communicate()
            pytest.fail(f"{script} still ran after 300 s; stopped:\n{stdout}\n{stderr}")
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


@pytest.mark.parametrize("script", ["engine/playouts.py", "envs/adapters.py"])
def test_help_and_a_bad_time(script: str) -> None:
    if script == "envs/adapters.py":
        pytest.importorskip("pyspiel")
    shown = run(script, "--help")
    assert shown.returncode == 0 and "time per figure, in seconds" in shown.stdout
    for bad in ("soon", "0", "-2"):
        refused = run(script, bad)
        assert refused.returncode == 2 and "seconds" in refused.stderr.lower(), bad
        assert "Traceback" not in refused.stderr


def test_a_short_playout_run_prints_every_set_up() -> None:
    done = run("engine/playouts.py", "0.05")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[3:]]
    assert rows and all(float(row[-5]) > 0 for row in rows)  # games/s of every set-up


def test_the_timings_script_measures_each_figure() -> None:
    done = run("server/timings.py", "--repeat", "1", "--json")
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout)
    assert figures["bot_pause"]["took_s"]["max"] >= figures["bot_pause"]["asked_s"]  # a floor
    for workers in ("workers_1", "workers_2"):
        assert figures["search_budget"][workers]["iterations"]["max"] >= 1
    busy = figures["another_table_while_a_bot_thinks"]
    assert busy["answers"] > 0 and busy["answer_s"]["max"] > 0
    assert figures["clock_after_restart"]["move_after_restart_s"] >= 0
    refused = run("server/timings.py", "--repeat", "0")
    assert refused.returncode == 2 and "--repeat" in refused.stderr


def test_the_fault_run_refuses_too_few_servers() -> None:
    shown = run("server/faults.py", "--help")
    assert shown.returncode == 0 and "--outage" in shown.stdout
    refused = run("server/faults.py", "--servers", "2")
    assert refused.returncode == 2 and "at least 3" in refused.stderr
    assert "Traceback" not in refused.stderr


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP")
def test_a_short_fault_run_checks_every_acknowledged_action() -> None:
    """benchmarks/server/faults.py with short faults: its own PostgreSQL and three servers, games
    played through kill -9, a database restart and outage, SIGSTOP and SIGTERM."""
    if not any(Path("/usr/lib/postgresql").glob("*/bin/initdb")) and not shutil.which("initdb"):
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL's server binaries are needed (CI installs them)")
        pytest.skip("PostgreSQL's server binaries are not installed")
    done = run("server/faults.py", "--tables", "2", "--outage", "1", "--pause", "2", "--soak", "1",
               "--settle", "1", "--think", "0")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "checks: passed"
    counts = dict(line.strip().rsplit(": ", 1) for line in lines if line.startswith("  "))
    assert int(counts["acknowledged and stored at their step"]) > 0
    assert int(counts["played by the bots"]) > 0
    assert counts["acknowledged but not stored"] == counts["games not finished"] == "0"


def test_a_short_backup_during_play_run_measures_both_phases() -> None:
    """#32: the benchmark of a backup beside a running server plays in both phases, backs up
    at least once, and no move fails."""
    done = run("server/backup_during_play.py", "--games", "50", "--seconds", "1",
               "--tables", "1", "--json")
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout)
    assert figures["without_backup"]["moves"] > 0 and figures["during_backups"]["moves"] > 0
    assert figures["backups"]["count"] >= 1 and figures["backups"]["size_bytes"] > 0
    assert figures["failed_moves"] == 0
    refused = run("server/backup_during_play.py", "--seconds", "0")
    assert refused.returncode == 2 and "--seconds" in refused.stderr


@pytest.mark.skipif(not hasattr(signal, "SIGTERM"), reason="needs SIGTERM")
def test_a_short_rolling_restart_run_checks_every_acknowledged_action() -> None:
    """#32: benchmarks/server/rolling_restart.py, small: both processes restarted in turn while
    seats play; every acknowledged action stored once, no client error, exits 0."""
    if not any(Path("/usr/lib/postgresql").glob("*/bin/initdb")) and not shutil.which("initdb"):
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL's server binaries are needed (CI installs them)")
        pytest.skip("PostgreSQL's server binaries are not installed")
    done = run("server/rolling_restart.py", "--tables", "3", "--warm-up", "2", "--settle", "2",
               "--think", "0.2", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout)
    assert figures["ok"] and figures["exit_statuses"] == [0, 0]
    assert figures["actions_acknowledged"] > 0 and figures["sockets_moved"] >= 3
    assert figures["acknowledged_not_stored_as_sent"] == 0 and figures["client_errors"] == []
    refused = run("server/rolling_restart.py", "--tables", "0")
    assert refused.returncode == 2 and "--tables" in refused.stderr


def test_an_openspiel_match_split_in_two_and_summed(tmp_path: Path) -> None:
    """#30's external check (benchmarks/envs/openspiel_match.py): two processes share a match
    (``--first``), a stopped one goes on where it stopped, and ``--summary`` sums their files."""
    pytest.importorskip("pyspiel")
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    common = ("--bot", "random", "--simulations", "4", "--players", "3")
    started = run("envs/openspiel_match.py", *common, "--games", "1", "--out", str(first))
    assert started.returncode == 0, started.stderr
    done = run("envs/openspiel_match.py", *common, "--games", "2", "--out", str(first))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 games: random share")  # the first game was not played again
    done = run("envs/openspiel_match.py", *common, "--games", "2", "--first", "2",
               "--out", str(second))
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for f in (first, second) for line in f.read_text().splitlines()]
    assert [(r["deal"], r["seat"]) for r in rows] == [(0, 0), (0, 1), (0, 2), (1, 0)]
    share = sum(r["share"] for r in rows) / 4
    summed = run("envs/openspiel_match.py", "--summary", "--out", str(first), str(second))
    assert summed.returncode == 0 and summed.stdout.startswith(f"4 games: share {share:.3f} (")
    refused = run("envs/openspiel_match.py", "--out", str(first), str(second))
    assert refused.returncode == 2 and "one --out file" in refused.stderr
