"""Sign-ins at a steady rate beside the load of ``load.py`` (``--sign-ins RATE``): accounts
made before the measure, then ``POST /api/account/signin`` ``RATE`` times a second, round robin
over them and over the servers, each on a connection of its own (as a browser's first request
would be). Their latencies and errors are reported with the load's figures (docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

PASSWORD = "benchmark passphrase 2026"
HTTP_TIMEOUT = 10.0
#: Requests in flight at once, at most (each on a thread).
THREADS = 128
#: Seconds the sign-ins still unanswered at the end of the measure are given.
DRAIN = 5.0


@dataclass
class SignIns:
    """Sign-ins made during the measure: latencies (seconds) of those accepted, and errors."""

    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)


def _post(url: str, body: dict[str, Any]) -> tuple[int, float]:
    """The status of a POST and its seconds, from sending to the whole answer read."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    began = time.monotonic()
    try:
        with opener.open(request, timeout=HTTP_TIMEOUT) as response:
            response.read()
            return int(response.status), time.monotonic() - began
    except urllib.error.HTTPError as exc:
        return int(exc.code), time.monotonic() - began
    except OSError:
        return 0, time.monotonic() - began


async def make_accounts(base_url: str, count: int) -> list[str]:
    """``count`` accounts to sign in with (made once, before the measure)."""
    names = [f"bench{n:03d}" for n in range(count)]
    answers = await asyncio.gather(
        *(
            asyncio.to_thread(
                _post, f"{base_url}/api/account/signup", {"name": n, "password": PASSWORD}
            )
            for n in names
        )
    )
    bad = [status for status, _ in answers if status not in (201, 409)]  # 409: an earlier run
    if bad:
        raise SystemExit(f"could not make the sign-in accounts: {Counter(bad)}")
    return names


async def sign_in_at(
    base_urls: list[str], names: list[str], rate: float, start: float, end: float
) -> SignIns:
    """Sign in ``rate`` times a second from ``start`` to ``end`` (monotonic seconds), each
    request on a thread of its own (the client must not be what queues them); those still
    unanswered ``DRAIN`` seconds after ``end`` count as ``unfinished``."""
    done = SignIns()
    pool = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="sign-in")
    loop = asyncio.get_running_loop()
    tasks: list[asyncio.Future[tuple[int, float]]] = []
    n = 0
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    while (at := start + n / rate) < end:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        url = base_urls[n % len(base_urls)] + "/api/account/signin"
        body = {"name": names[n % len(names)], "password": PASSWORD}
        tasks.append(loop.run_in_executor(pool, _post, url, body))
        n += 1
    finished, unfinished = await asyncio.wait(
        tasks, timeout=max(0.0, end + DRAIN - time.monotonic())
    )
    for task in finished:
        status, seconds = task.result()
        if status == 200:
            done.latencies.append(seconds)
        else:
            done.errors[f"http {status}"] += 1
    if unfinished:
        done.errors["unfinished"] += len(unfinished)
    pool.shutdown(wait=False, cancel_futures=True)
    return done
