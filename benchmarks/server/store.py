"""Storage benchmark: the server's frequent Store calls, timed on SQLite or PostgreSQL, and the
store of another commit timed side by side with this one.

Run: ``python benchmarks/server/store.py [--before REF] [--db postgresql://…] [--tables 200]
[--rounds 3] [--repeats 5] [--core N] [--json]``

Each run opens a new store (a temporary SQLite file, or with ``--db`` a new database on that
PostgreSQL server, whose user may create databases; dropped afterwards), creates ``--tables``
public tables (two human seats and an open one), then times, ``--rounds`` times over every
table, what a server does most: append an action (one at a time, then all tables at once:
SQLite commits the waiting writes together), load a table, set the presence of the seats, mark
a seat back, beat, claim and release bot decisions, read a lobby page. It keeps the best round
of each call (the machine's other work only ever adds time) and prints microseconds per call:
of wall time, and of CPU time of the process (all its threads: SQLite's work, but not the
PostgreSQL server's), which the machine's other work disturbs much less.

With ``--before REF`` (a git commit, branch or tag of this repository) the package of that
commit is taken out with ``git archive`` and the two stores are timed in turn in new processes,
``--repeats`` times each, alternating which goes first, pinned to one core (``--core``; by
default the last core this process may use): the figures are the best of every repeat, and
the ratio after/before (below 1: faster now) is measured in one run on the same machine
state. See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

if __name__ == "__main__" and os.environ.get("STORE_BENCH_SOURCE"):
    # A timed run of one side: its package first, ahead of the installed one.
    sys.path.insert(0, os.environ["STORE_BENCH_SOURCE"])

from oriflamme.server.storage import (  # noqa: E402
    SeatCount,
    SeatRecord,
    Store,
    TableRecord,
    Turn,
    open_store,
)

SEATS = (
    SeatRecord(0, "human", "Ann", None, "a" * 64),
    SeatRecord(1, "human", "Ben", None, "b" * 64),
    SeatRecord(2, "open", "", None, None),
)


def action(step: int) -> dict[str, object]:
    return {"kind": "place", "card": step % 30, "to": "end"}


#: Figures by kind of time ("wall", "cpu"), then by call: microseconds per call.
Figures = dict[str, dict[str, float]]


async def timed(calls: int, run: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """Microseconds per call of ``run`` (which makes ``calls`` calls): wall, CPU."""
    began, cpu = time.perf_counter(), time.process_time()
    await run()
    return ((time.perf_counter() - began) / calls * 1e6,
            (time.process_time() - cpu) / calls * 1e6)


def keep_best(best: Figures, name: str, micros: tuple[float, float]) -> None:
    for kind, value in zip(("wall", "cpu"), micros, strict=True):
        mine = best.setdefault(kind, {})
        mine[name] = min(mine.get(name, value), value)


async def measure(store: Store, tables: int, rounds: int) -> Figures:
    ids = [f"b{i:05d}" for i in range(tables)]

    async def creates() -> None:
        for table_id in ids:
            record = TableRecord(table_id, {"players": 3}, "en", "c" * 64, "s" * 64, SEATS,
                                 public=True, clock=600.0)
            await store.create_table(record, 1, Turn(0, 0, False, timed=True))

    best: Figures = {}
    keep_best(best, "create_table", await timed(tables, creates))
    step = 0

    def keep(name: str, micros: tuple[float, float]) -> None:
        keep_best(best, name, micros)

    async def one_by_one() -> None:
        for table_id in ids:
            await store.append_action(table_id, 1, step, action(step), Turn(step + 1, 1, False))

    async def all_at_once() -> None:
        await asyncio.gather(*(
            store.append_action(table_id, 1, step, action(step), Turn(step + 1, 0, False))
            for table_id in ids
        ))

    async def loads() -> None:
        for table_id in ids:
            await store.load_table(table_id)

    async def presence(connections: int) -> None:
        for i in range(0, tables, 10):  # a batch: the seats of ten tables
            await store.set_presence("bench", [SeatCount(t, s, connections)
                                               for t in ids[i:i + 10] for s in (0, 1)])

    async def backs() -> None:
        for table_id in ids:
            await store.seat_back(table_id, 0)

    async def beats() -> None:
        for _ in range(tables):
            await store.heartbeat("bench", 20.0)

    async def claims() -> None:
        for _ in range(tables):
            await store.claim_bot_turns("bench", 10, 5.0)

    async def lobby_pages() -> None:
        for _ in range(tables):
            await store.lobby(3600.0, 20)

    await store.heartbeat("bench", 20.0)
    for _ in range(rounds):
        keep("append_action", await timed(tables, one_by_one))
        step += 1
        keep("append_action, all tables at once", await timed(tables, all_at_once))
        step += 1
        keep("load_table", await timed(tables, loads))
        keep("set_presence (20 seats)", await timed(tables // 10, lambda: presence(1)))
        await presence(0)
        keep("seat_back", await timed(tables, backs))
        keep("heartbeat", await timed(tables, beats))
        keep("claim_bot_turns (none due)", await timed(tables, claims))
        keep("lobby (a page of 20)", await timed(tables, lobby_pages))
    return best


async def _admin(server: str, sql: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(server)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@contextmanager
def fresh_database(server: str | None) -> Iterator[str]:
    """A new empty database: a SQLite file, or a database on the PostgreSQL ``server``."""
    if not server:
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "bench.sqlite3")
        return
    name = f"oriflamme_store_bench_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(server, f'CREATE DATABASE "{name}"'))
    try:
        yield f"{server.rpartition('/')[0]}/{name}"
    finally:
        asyncio.run(_admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def run_here(url: str, tables: int, rounds: int) -> Figures:
    async def run() -> Figures:
        store = await open_store(url)
        try:
            return await measure(store, tables, rounds)
        finally:
            await store.close()

    return asyncio.run(run())


def take_out(ref: str, into: Path) -> Path:
    """The package ``src/oriflamme`` of commit ``ref``, written under ``into``; its ``src``."""
    done = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src/oriflamme"],
                          capture_output=True)
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip()
        raise SystemExit(f"store.py: cannot take the package out of {ref!r}: {message}")
    with tarfile.open(fileobj=BytesIO(done.stdout)) as archive:
        archive.extractall(into, filter="data")
    return into / "src"


def run_side(source: Path, server: str | None, tables: int, rounds: int) -> Figures:
    """One timed run of the package under ``source``, in a new process."""
    with fresh_database(server) as url:
        done = subprocess.run(
            [sys.executable, __file__, "--side", url, "--tables", str(tables),
             "--rounds", str(rounds)],
            capture_output=True, text=True, env={**os.environ, "STORE_BENCH_SOURCE": str(source)},
        )
    if done.returncode != 0:
        raise SystemExit(f"store.py: the run of {source} failed:\n{done.stderr}")
    answer = json.loads(done.stdout)
    if Path(answer["package"]).resolve() != (source / "oriflamme").resolve():
        raise SystemExit(f"store.py: the run of {source} imported {answer['package']}")
    figures: Figures = answer["figures"]
    return figures


def pin(core: int | None) -> str:
    """Pins this process (and so every run it starts) to one core; says which, or why not."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    allowed = os.sched_getaffinity(0)
    chosen = max(allowed) if core is None else core
    if chosen not in allowed:
        raise SystemExit(f"store.py: core {chosen} is not one of {sorted(allowed)}")
    os.sched_setaffinity(0, {chosen})
    return f"pinned to core {chosen}"


def side_by_side(args: argparse.Namespace) -> dict[str, Figures]:
    """The best figures of each side, their ratios after/before, and the geometric means."""
    with tempfile.TemporaryDirectory() as folder:
        sides = {"before": take_out(args.before, Path(folder)), "after": ROOT / "src"}
        best: dict[str, Figures] = {"before": {}, "after": {}}
        for repeat in range(args.repeats):
            order = ("before", "after") if repeat % 2 == 0 else ("after", "before")
            for side in order:
                figures = run_side(sides[side], args.db, args.tables, args.rounds)
                for kind, calls in figures.items():
                    for name, micros in calls.items():
                        mine = best[side].setdefault(kind, {})
                        mine[name] = min(mine.get(name, micros), micros)
    ratio = {kind: {name: best["after"][kind][name] / before for name, before in calls.items()}
             for kind, calls in best["before"].items()}
    mean = {kind: math.exp(sum(map(math.log, ratios.values())) / len(ratios))
            for kind, ratios in ratio.items()}
    return {**best, "ratio": ratio, "geometric mean ratio": {"all calls": mean}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", metavar="REF",
                        help="time the store of this git commit too, side by side")
    parser.add_argument("--db", metavar="URL", help="a PostgreSQL server whose user may create"
                        " databases (default: a new SQLite file)")
    parser.add_argument("--tables", type=int, default=200, help="tables (default 200)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of each call in a run (default 3)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="runs of each side with --before (default 5)")
    parser.add_argument("--core", type=int, help="the core of the runs with --before"
                        " (default: the last this process may use)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--side", help=argparse.SUPPRESS)  # one timed run, for --before
    args = parser.parse_args(argv)
    if args.tables < 10 or args.rounds < 1 or args.repeats < 1:
        parser.error("--tables must be at least 10, --rounds and --repeats at least 1")
    if args.db and not args.db.startswith(("postgresql://", "postgres://")):
        parser.error("--db must be a postgresql:// address (without it: SQLite)")
    if args.side:
        import oriflamme

        figures = run_here(args.side, args.tables, args.rounds)
        print(json.dumps({"package": str(Path(oriflamme.__file__).parent), "figures": figures}))
        return 0
    database = "PostgreSQL" if args.db else "SQLite"
    if not args.before:
        with fresh_database(args.db) as url:
            single = run_here(url, args.tables, args.rounds)
        if args.json:
            print(json.dumps(single))
            return 0
        print(f"{database}, {args.tables} tables, best of {args.rounds} rounds; µs per call")
        print(f"{'call':36} {'wall':>8} {'CPU':>8}")
        for name, wall in single["wall"].items():
            print(f"{name:36} {wall:8.0f} {single['cpu'][name]:8.0f}")
        return 0
    pinned = pin(args.core)
    compared = side_by_side(args)
    if args.json:
        print(json.dumps(compared))
        return 0
    before, after, ratio = compared["before"], compared["after"], compared["ratio"]
    print(f"{database}, {args.tables} tables, best of {args.repeats} runs x {args.rounds} rounds"
          f" each, {pinned}; before = {args.before}, after = this tree; µs per call")
    print(f"{'call':36} {'wall: before':>12} {'after':>7} {'ratio':>6}"
          f" {'CPU: before':>12} {'after':>7} {'ratio':>6}")
    for name in ratio["wall"]:
        print(f"{name:36} {before['wall'][name]:12.0f} {after['wall'][name]:7.0f}"
              f" {ratio['wall'][name]:6.2f} {before['cpu'][name]:12.0f}"
              f" {after['cpu'][name]:7.0f} {ratio['cpu'][name]:6.2f}")
    mean = compared["geometric mean ratio"]["all calls"]
    print(f"{'geometric mean of the ratios':36} {'':12} {'':7} {mean['wall']:6.2f}"
          f" {'':12} {'':7} {mean['cpu']:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
