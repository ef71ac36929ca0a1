"""Sign-ins during the standard load: does a stream of password sign-ins (argon2id, in worker
threads) slow the games down?

Run: ``python benchmarks/server/signins.py [--games 200] [--seconds 60] [--think 1]
[--rate 50] [--accounts 100] [--json]``

Starts the real server twice (``oriflamme serve``, a temporary SQLite database each time), and
runs the load benchmark (``load.py``: all-human tables played by WebSocket clients) on it: once
alone (the baseline), once while ``--rate`` sign-ins a second (successful ones, with the right
password: each one checks an argon2id hash and writes a session) come from 20 loopback addresses
(the server throttles POSTs per address). Prints the load's latencies of both runs (from an
action to every connection of its table having it), and the sign-ins' own latency and errors.
See docs/benchmarks.md, "Sign-ins during the load".
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
    }


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
        if with_sign_ins:
            names = await make_accounts(url, args.accounts)
            done = asyncio.Event()
            stream = asyncio.create_task(sign_in_stream(url, names, args.rate, done))
            try:
                result["load"] = await load.bounded(load_args, [url], processes)
            finally:
                done.set()
            result["sign_ins"] = await stream
        else:
            result["load"] = await load.bounded(load_args, [url], processes)
        return result


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each measure")
    parser.add_argument("--think", type=float, default=1.0, help="as load.py's --think")
    parser.add_argument("--rate", type=float, default=50.0, help="sign-ins a second")
    parser.add_argument("--accounts", type=int, default=100, help="accounts signing in in turn")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rate <= 0 or args.accounts < 1 or args.seconds <= 0:
        parser.error("--games, --rate, --accounts and --seconds must be positive")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    load.raise_open_files(args.games * 3 + 512)
    baseline = asyncio.run(run(args, False))
    loaded = asyncio.run(run(args, True))
    result = {"baseline": baseline, "with_sign_ins": loaded}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for title, part in (("load alone", baseline), (f"load + {args.rate:g} sign-ins/s", loaded)):
        spread, latency = part["load"]["all_connections_ms"], part["load"]["latency_ms"]
        print(f"{title}: {part['load']['actions_per_s']} actions/s; action -> own view ms: p50"
              f" {latency['p50']} p99 {latency['p99']}; -> every connection ms: p50"
              f" {spread['p50']} p99 {spread['p99']} max {spread['max']}; server CPU"
              f" {part['load']['server_cpu_percent']}%; errors {part['load']['errors'] or 'none'}")
    signs = loaded["sign_ins"]
    print(f"sign-ins: {signs['sign_ins']} ({signs['per_s']}/s), latency ms: p50"
          f" {signs['latency_ms']['p50']} p99 {signs['latency_ms']['p99']} max"
          f" {signs['latency_ms']['max']}; errors {signs['errors'] or 'none'}")


if __name__ == "__main__":
    main()
