"""The storage benchmark (benchmarks/server/store.py): a short run measures every call, on
SQLite and PostgreSQL; a side-by-side run times the package of another commit in its own
process; bad arguments are refused with a clear message."""

from __future__ import annotations

import json
import subprocess
import sys

from pgdb import require_postgres
from scripts import ROOT

CALLS = {
    "create_table",
    "append_action",
    "append_action, all tables at once",
    "load_table",
    "set_presence (20 seats)",
    "seat_back",
    "heartbeat",
    "claim_bot_turns (none due)",
    "lobby (a page of 20)",
}
SHORT = ("--tables", "10", "--rounds", "1")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "server" / "store.py"), *args],
                          capture_output=True, text=True, timeout=300)


def test_a_short_run_measures_every_call() -> None:
    done = run(*SHORT, "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert set(figures) == {"wall", "cpu"}
    assert set(figures["wall"]) == set(figures["cpu"]) == CALLS
    assert all(micros > 0 for micros in figures["wall"].values())


def test_a_short_run_on_postgres_measures_every_call() -> None:
    done = run(*SHORT, "--json", "--db", require_postgres())
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)["wall"]) == CALLS


def test_side_by_side_times_both_packages_and_their_ratio() -> None:
    done = run(*SHORT, "--repeats", "1", "--before", "HEAD", "--json")
    assert done.returncode == 0, done.stderr
    compared = json.loads(done.stdout)
    for kind in ("wall", "cpu"):
        before, after, ratio = (compared[side][kind] for side in ("before", "after", "ratio"))
        assert set(before) == set(after) == set(ratio) == CALLS
        for name in CALLS:
            assert ratio[name] == after[name] / before[name]
        assert compared["geometric mean ratio"]["all calls"][kind] > 0


def test_an_unknown_commit_is_refused() -> None:
    refused = run(*SHORT, "--before", "no-such-commit-anywhere")
    assert refused.returncode != 0
    assert "cannot take the package out of 'no-such-commit-anywhere'" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_bad_arguments_are_refused() -> None:
    refused = run("--tables", "3")
    assert refused.returncode == 2 and "--tables must be at least 10" in refused.stderr
    assert "Traceback" not in refused.stderr
    refused = run("--db", "mysql://somewhere/db")
    assert refused.returncode == 2 and "--db must be a postgresql:// address" in refused.stderr
