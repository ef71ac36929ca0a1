"""benchmarks/suite/junit_times.py: the suite's time by folder and file, both databases, and
the wall time of xdist's loadfile schedule, from a JUnit XML report."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from scripts import ROOT, load_module

#: Three files: a (3 tests of 1 s), b (one test of 10 s), c (one test of 2 s on both databases).
REPORT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="6">
<testcase classname="tests.server.test_a" name="test_1" time="1.0"/>
<testcase classname="tests.server.test_a" name="test_2" time="1.0"/>
<testcase classname="tests.server.test_a" name="test_3" time="1.0"/>
<testcase classname="tests.e2e.test_b" name="test_long" time="10.0"/>
<testcase classname="tests.server.test_c" name="test_x[sqlite]" time="0.5"/>
<testcase classname="tests.server.test_c" name="test_x[postgresql]" time="1.5"/>
</testsuite></testsuites>
"""


def load_script() -> ModuleType:
    return load_module(ROOT / "benchmarks" / "suite" / "junit_times.py", "junit_times_script")


def test_the_figures_of_a_small_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "run.xml"
    report.write_text(REPORT)
    script = load_script()
    assert script.main([str(report), "--workers", "1,2", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["tests"] == 6 and found["test_seconds"] == 15.0
    assert found["folders"] == {"tests/e2e": 10.0, "tests/server": 5.0}
    assert list(found["slowest_files"]) == [
        "tests/e2e/test_b.py", "tests/server/test_a.py", "tests/server/test_c.py"]
    assert found["both_databases"] == {"tests": 1, "postgresql_s": 1.5, "sqlite_s": 0.5}
    # One worker runs everything in turn; with two, a takes the first (most tests), b the
    # second, which also takes c (two tests or fewer left): b's worker ends at 10 + 2 s.
    assert found["loadfile"]["1"] == {"wall_s": 15.0, "sum_over_workers_s": 15.0}
    assert found["loadfile"]["2"] == {"wall_s": 12.0, "sum_over_workers_s": 7.5}
    assert script.main([str(report), "--workers", "2"]) == 0
    text = capsys.readouterr().out
    assert "6 tests, 15 s of test time" in text
    assert "--dist loadfile, 2 workers: 12 s (sum / workers 8 s)" in text


@pytest.mark.parametrize("args", [["missing.xml"], ["run.xml", "--workers", "0"],
                                  ["run.xml", "--workers", "two"], ["bad.xml"]])
def test_bad_arguments_are_refused_clearly(
    tmp_path: Path, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "run.xml").write_text(REPORT)
    (tmp_path / "bad.xml").write_text("<testsuites><testcase")
    with pytest.raises(SystemExit) as stopped:
        load_script().main([str(tmp_path / args[0]), *args[1:]])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "error:" in error and "Traceback" not in error
