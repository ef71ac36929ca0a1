"""Where the test suite's time goes, from a run's JUnit XML report.

Run: ``python -m pytest -n 4 --dist loadfile --junitxml=run.xml`` (the suite, as scripts/test.sh
runs it), then ``python benchmarks/suite/junit_times.py run.xml [--workers 3,4,5] [--top 15]
[--json]``.

It prints the sum of the tests' times (setup, call and teardown: what a worker spends on each),
by folder and for the slowest files; the tests run on both databases (``[sqlite…]`` and
``[postgresql…]`` of one test) summed per database; and, for each number of workers, the wall
time that pytest-xdist's ``--dist loadfile`` would take with these times: files are handed out
whole, those with the most tests first (xdist's default order), a worker taking its next file
when two tests or fewer of its own remain. That schedule shows how much a long file left for
last stretches the run beyond the sum divided by the workers. The times are the ones of that
run: a busy machine lengthens them all (docs/benchmarks.md, "The test suite").
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any


def file_times(report: Path) -> dict[str, list[tuple[str, float]]]:
    """Each test file's tests (name, seconds), in the report's order."""
    files: dict[str, list[tuple[str, float]]] = {}
    for case in ET.parse(report).iter("testcase"):
        module = case.get("classname") or "?"
        files.setdefault(module.replace(".", "/") + ".py", []).append(
            (case.get("name") or "?", float(case.get("time") or 0.0))
        )
    return files


def loadfile_wall(files: dict[str, list[tuple[str, float]]], workers: int) -> float:
    """The wall time of xdist's loadfile schedule over these times (see the module's text)."""
    queue = sorted(files, key=lambda f: -len(files[f]))  # stable: ties keep the report's order
    pending: list[list[float]] = [[] for _ in range(workers)]

    def hand_out(worker: int) -> None:
        if queue and len(pending[worker]) <= 2:
            pending[worker] += [seconds for _, seconds in files[queue.pop(0)]]

    for worker in range(workers):
        hand_out(worker)
    for worker in range(workers):
        hand_out(worker)
    clock = [(0.0, worker) for worker in range(workers)]
    end = 0.0
    while clock:
        now, worker = heapq.heappop(clock)
        if not pending[worker]:
            end = max(end, now)
            continue
        now += pending[worker].pop(0)
        hand_out(worker)
        heapq.heappush(clock, (now, worker))
    return end


def figures(report: Path, workers: list[int], top: int) -> dict[str, Any]:
    files = file_times(report)
    total = sum(seconds for tests in files.values() for _, seconds in tests)
    folders: dict[str, float] = {}
    for name, tests in files.items():
        folder = name.rpartition("/")[0]
        folders[folder] = folders.get(folder, 0.0) + sum(seconds for _, seconds in tests)
    by_name = {(f, name): seconds for f, tests in files.items() for name, seconds in tests}
    postgresql = sqlite = 0.0
    pairs = 0
    for (f, name), seconds in by_name.items():
        twin = (f, name.replace("[postgresql", "[sqlite"))
        if "[postgresql" in name and twin in by_name:
            postgresql, sqlite, pairs = postgresql + seconds, sqlite + by_name[twin], pairs + 1
    slowest = sorted(files, key=lambda f: -sum(s for _, s in files[f]))[:top]
    return {
        "tests": len(by_name),
        "test_seconds": round(total, 1),
        "folders": {k: round(v, 1) for k, v in sorted(folders.items(), key=lambda kv: -kv[1])},
        "slowest_files": {
            f: {"tests": len(files[f]), "seconds": round(sum(s for _, s in files[f]), 1)}
            for f in slowest
        },
        "both_databases": {"tests": pairs, "postgresql_s": round(postgresql, 1),
                           "sqlite_s": round(sqlite, 1)},
        "loadfile": {
            str(n): {"wall_s": round(loadfile_wall(files, n), 1), "sum_over_workers_s":
                     round(total / n, 1)}
            for n in workers
        },
    }


def workers_list(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("each number of workers must be 1 or more")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=Path, help="a JUnit XML report (pytest --junitxml)")
    parser.add_argument("--workers", type=workers_list, default=[3, 4, 5], metavar="N,N",
                        help="numbers of xdist workers to schedule (default 3,4,5)")
    parser.add_argument("--top", type=int, default=15, help="slowest files shown (default 15)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    try:
        found = figures(args.report, args.workers, args.top)
    except (OSError, ET.ParseError) as exc:
        parser.error(f"cannot read {args.report}: {exc}")
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    print(f"{found['tests']} tests, {found['test_seconds']:.0f} s of test time")
    for folder, seconds in found["folders"].items():
        print(f"  {seconds:8.1f} s  {folder}")
    print("slowest files:")
    for name, row in found["slowest_files"].items():
        print(f"  {row['seconds']:8.1f} s  {row['tests']:4d} tests  {name}")
    both = found["both_databases"]
    print(f"tests on both databases: {both['tests']}, PostgreSQL {both['postgresql_s']:.0f} s,"
          f" SQLite {both['sqlite_s']:.0f} s")
    for n, row in found["loadfile"].items():
        print(f"--dist loadfile, {n} workers: {row['wall_s']:.0f} s"
              f" (sum / workers {row['sum_over_workers_s']:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
