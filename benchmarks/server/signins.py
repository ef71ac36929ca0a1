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
from dataclasses import dataclass, field
from typing import Any

PASSWORD = "benchmark passphrase 2026"
HTTP_TIMEOUT = 10.0


@dataclass
class SignIns:
    """Sign-ins made during the measure: latencies (seconds) of those accepted, and errors."""

    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)


def _post(url: str, body: dict[str, Any]) -> int:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    try:
        with opener.open(request, timeout=HTTP_TIMEOUT) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


async def make_accounts(base_url: str, count: int) -> list[str]:
    """``count`` accounts to sign in with (made once, before the measure)."""
    names = [f"bench{n:03d}" for n in range(count)]
    statuses = await asyncio.gather(
        *(
            asyncio.to_thread(
                _post, f"{base_url}/api/account/signup", {"name": n, "password": PASSWORD}
            )
            for n in names
        )
    )
    bad = [s for s in statuses if s not in (201, 409)]  # 409: made by an earlier run
    if bad:
        raise SystemExit(f"could not make the sign-in accounts: {Counter(bad)}")
    return names


async def sign_in_at(
    base_urls: list[str], names: list[str], rate: float, start: float, end: float
) -> SignIns:
    """Sign in ``rate`` times a second from ``start`` to ``end`` (monotonic seconds)."""
    done = SignIns()
    tasks: list[asyncio.Task[None]] = []

    async def one(n: int) -> None:
        url = base_urls[n % len(base_urls)] + "/api/account/signin"
        began = time.monotonic()
        status = await asyncio.to_thread(
            _post, url, {"name": names[n % len(names)], "password": PASSWORD}
        )
        if status == 200:
            done.latencies.append(time.monotonic() - began)
        else:
            done.errors[f"http {status}"] += 1

    n = 0
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    while (at := start + n / rate) < end:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        tasks.append(asyncio.create_task(one(n)))
        n += 1
    await asyncio.gather(*tasks)
    return done
