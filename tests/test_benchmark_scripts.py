"""The benchmark scripts that take a time per figure (benchmarks/playouts.py, envs.py): help,
a clear error for a bad value, and a short run that prints its figures."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scripts import ROOT


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("script", ["playouts.py", "envs.py"])
def test_help_and_a_bad_time(script: str) -> None:
    if script == "envs.py":
        pytest.importorskip("pyspiel")
    shown = run(script, "--help")
    assert shown.returncode == 0 and "time per figure, in seconds" in shown.stdout
    for bad in ("soon", "0", "-2"):
        refused = run(script, bad)
        assert refused.returncode == 2 and "seconds" in refused.stderr.lower(), bad
        assert "Traceback" not in refused.stderr


def test_a_short_playout_run_prints_every_set_up() -> None:
    done = run("playouts.py", "0.05")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[3:]]
    assert rows and all(float(row[-5]) > 0 for row in rows)  # games/s of every set-up
