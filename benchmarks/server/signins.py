"""Sign-ins during the standard load: does a stream of password sign-ins (argon2id, in worker
threads) slow the games down?

Run: ``python benchmarks/server/signins.py [--games 200] [--seconds 60] [--think 1]
[--rate 50] [--accounts 100] [--rounds 2] [--cost] [--json]``

Starts the real server for each run (``oriflamme serve``, a temporary SQLite database each
time), and runs the load benchmark (``load.py``: all-human tables played by WebSocket clients)
on it: alone (the baseline), or while ``--rate`` sign-ins a second (successful ones, with the
right password: each one checks an argon2id hash and writes a session) come from 20 loopback
addresses (the server throttles POSTs per address). The sign-ins are sent by a process of their
own, so that their HTTP client does not delay the load client's measure. The runs alternate,
``--rounds`` pairs in the order baseline, sign-ins, sign-ins, baseline, … so that a machine
shared with other work weighs on both alike. Prints each run's latencies (from an action to
every connection of its table having it), the machine's load average around it, and the
sign-ins' own rate, latency and refusals (``503 busy``, with the ``Retry-After`` they carried).
``--cost`` measures instead what one sign-in costs the server in CPU time, without the load.
See docs/benchmarks.md, "Sign-ins during the load".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load

ADDRESSES = [f"127.0.0.{n}" for n in range(2, 22)]
PASSWORD = "a benchmark passphrase"


def clients(url: str) -> list[httpx.AsyncClient]:
    """One HTTP client per loopback address (each keeps its connection and its cookie)."""
    return [
        httpx.AsyncClient(
            base_url=url, timeout=10, headers={"Origin": url},
            transport=httpx.AsyncHTTPTransport(local_address=address),
        )
        for address in ADDRESSES
    ]


async def make_accounts(url: str, count: int) -> list[str]:
    made: list[str] = []
    pool = clients(url)
    try:
        for start in range(0, count, len(pool)):
            names = [f"Bench {n}" for n in range(start, min(count, start + len(pool)))]
            answers = await asyncio.gather(*(
                client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
                for client, name in zip(pool, names, strict=False)
            ))
            for name, answer in zip(names, answers, strict=True):
                if answer.status_code != 201:
                    raise SystemExit(f"sign-up of {name}: {answer.status_code} {answer.text}")
                made.append(name)
    finally:
        await asyncio.gather(*(client.aclose() for client in pool))
    return made


async def sign_in_stream(
    url: str, names: list[str], rate: float, done: asyncio.Event
) -> dict[str, Any]:
    """Sign-ins at ``rate`` a second, each launched on time (not after the previous one), until
    ``done``; their latencies and errors."""
    pool = clients(url)
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    retry_after: Counter[str] = Counter()
    tasks: set[asyncio.Task[None]] = set()

    async def one(number: int) -> None:
        client = pool[number % len(pool)]
        sent = time.monotonic()
        try:
            answer = await client.post(
                "/api/account/signin",
                json={"name": names[number % len(names)], "password": PASSWORD},
            )
        except httpx.HTTPError as exc:
            errors[type(exc).__name__] += 1
            return
        if answer.status_code == 200:
            latencies.append(time.monotonic() - sent)
        else:
            errors[f"http {answer.status_code}"] += 1
            if "Retry-After" in answer.headers:
                retry_after[answer.headers["Retry-After"]] += 1

    start = time.monotonic()
    number = 0
    while not done.is_set():
        task = asyncio.create_task(one(number))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        number += 1
        await asyncio.sleep(max(0.0, start + number / rate - time.monotonic()))
    elapsed = time.monotonic() - start
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(client.aclose() for client in pool))
    ordered = sorted(latencies)
    ms = 1000.0
    return {
        "sign_ins": len(latencies),
        "per_s": round(len(latencies) / elapsed, 1),
        "latency_ms": {
            "p50": round(load.percentile(ordered, 0.5) * ms, 1),
            "p99": round(load.percentile(ordered, 0.99) * ms, 1),
            "max": round((ordered[-1] if ordered else 0.0) * ms, 1),
        },
        "errors": dict(errors),
        "retry_after_s": dict(sorted(retry_after.items(), key=lambda kv: int(kv[0]))),
        "client_cpu_s": round(time.process_time(), 1),
    }


def stream_process(
    url: str, names: list[str], rate: float, stop: Any, answer: Any
) -> None:
    """The sign-ins' own process: sign in at ``rate`` until ``stop`` is set; its figures go
    back through the ``answer`` pipe."""

    async def until_stopped() -> dict[str, Any]:
        done = asyncio.Event()

        async def watch() -> None:
            while not stop.is_set():
                await asyncio.sleep(0.1)
            done.set()

        watcher = asyncio.create_task(watch())
        result = await sign_in_stream(url, names, rate, done)
        await watcher
        return result

    answer.send(asyncio.run(until_stopped()))


async def run(args: argparse.Namespace, with_sign_ins: bool) -> dict[str, Any]:
    port = load.free_port()
    url = f"http://{load.HOST}:{port}"
    with load.servers([port], None) as (processes, _):
        load_args = load.parse_args([
            "--games", str(args.games), "--seconds", str(args.seconds),
            "--think", str(args.think), "--url", url,
        ])
        await load.wait_until_up(load.Client([url], load.Stats()), processes)
        result: dict[str, Any] = {}
        if not with_sign_ins:
            result["load"] = await load.bounded(load_args, [url], processes)
            return result
        names = await make_accounts(url, args.accounts)
        spawn = multiprocessing.get_context("spawn")
        stop = spawn.Event()
        receiving, sending = spawn.Pipe(duplex=False)
        stream = spawn.Process(
            target=stream_process, args=(url, names, args.rate, stop, sending), daemon=True
        )
        stream.start()
        try:
            result["load"] = await load.bounded(load_args, [url], processes)
        finally:
            stop.set()
        result["sign_ins"] = await asyncio.to_thread(receiving.recv)
        stream.join(30)
        return result


async def sign_in_cost(args: argparse.Namespace, count: int = 300) -> dict[str, Any]:
    """What one sign-in costs the server in CPU (all its threads: the argon2id check, the HTTP
    request, the session written), from ``count`` sign-ins on an otherwise idle server: CPU
    time, so a busy machine stretches it less than it stretches latencies."""
    port = load.free_port()
    url = f"http://{load.HOST}:{port}"
    with load.servers([port], None) as (processes, _):
        await load.wait_until_up(load.Client([url], load.Stats()), processes)
        names = await make_accounts(url, min(args.accounts, count))
        pool = clients(url)
        try:
            before = load.cpu_seconds(processes[0].pid)
            for start in range(0, count, len(pool)):
                answers = await asyncio.gather(*(
                    client.post(
                        "/api/account/signin",
                        json={"name": names[(start + i) % len(names)], "password": PASSWORD},
                    )
                    for i, client in enumerate(pool[: count - start])
                ))
                refused = [a.status_code for a in answers if a.status_code != 200]
                if refused:
                    raise SystemExit(f"sign-ins refused while measuring their cost: {refused}")
            spent = load.cpu_seconds(processes[0].pid) - before
        finally:
            await asyncio.gather(*(client.aclose() for client in pool))
    return {"sign_ins": count, "server_cpu_ms_per_sign_in": round(spent * 1000 / count, 1)}


def line(title: str, part: dict[str, Any]) -> str:
    spread, latency = part["load"]["all_connections_ms"], part["load"]["latency_ms"]
    text = (
        f"{title}: {part['load']['actions_per_s']} actions/s; action -> own view ms: p50"
        f" {latency['p50']} p99 {latency['p99']}; -> every connection ms: p50"
        f" {spread['p50']} p99 {spread['p99']} max {spread['max']}; server CPU"
        f" {part['load']['server_cpu_percent']}%; load average"
        f" {part['load']['load_average']['before']} -> {part['load']['load_average']['after']};"
        f" errors {part['load']['errors'] or 'none'}"
    )
    if "sign_ins" in part:
        signs = part["sign_ins"]
        text += (
            f"\n  sign-ins: {signs['sign_ins']} ({signs['per_s']}/s), latency ms: p50"
            f" {signs['latency_ms']['p50']} p99 {signs['latency_ms']['p99']} max"
            f" {signs['latency_ms']['max']}; refused or failed {signs['errors'] or 'none'};"
            f" Retry-After (s: count) {signs['retry_after_s'] or '-'}"
        )
    return text


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each measure")
    parser.add_argument("--think", type=float, default=1.0, help="as load.py's --think")
    parser.add_argument("--rate", type=float, default=50.0, help="sign-ins a second")
    parser.add_argument("--accounts", type=int, default=100, help="accounts signing in in turn")
    parser.add_argument(
        "--rounds", type=int, default=1,
        help="pairs of runs, alternated: baseline, sign-ins, sign-ins, baseline, ...",
    )
    parser.add_argument(
        "--cost", action="store_true",
        help="only measure the server's CPU per sign-in (no load)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if min(args.games, args.accounts, args.rounds) < 1 or min(args.rate, args.seconds) <= 0:
        parser.error("--games, --rate, --accounts, --rounds and --seconds must be positive")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    load.raise_open_files(args.games * 3 + 512)
    if args.cost:
        cost = asyncio.run(sign_in_cost(args))
        print(json.dumps(cost) if args.json else (
            f"{cost['sign_ins']} sign-ins: {cost['server_cpu_ms_per_sign_in']} ms of server CPU"
            " each (argon2id check, HTTP, session)"
        ))
        return
    order = [False, True] * args.rounds
    for pair in range(1, args.rounds, 2):  # every other pair reversed: B S S B B S …
        order[2 * pair], order[2 * pair + 1] = True, False
    runs = []
    for with_sign_ins in order:
        result = asyncio.run(run(args, with_sign_ins))
        title = f"load + {args.rate:g} sign-ins/s" if with_sign_ins else "load alone"
        runs.append({"sign_ins_per_s": args.rate if with_sign_ins else 0, **result})
        if not args.json:
            print(line(title, result), flush=True)
    if args.json:
        print(json.dumps(runs, indent=2))


if __name__ == "__main__":
    main()
