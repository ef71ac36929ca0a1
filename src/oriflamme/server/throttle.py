"""Token buckets: at most ``rate`` requests a second on average, bursts of ``burst``."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """A bucket refilled at ``rate`` tokens a second up to ``burst``; each request takes one."""

    __slots__ = ("_burst", "_clock", "_rate", "_stamp", "_tokens")

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._rate = rate
        self._burst = burst
        self._clock = clock
        self._tokens = burst
        self._stamp = clock()

    def take(self) -> bool:
        """Take a token if one is left; False means the request must be refused."""
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    @property
    def full(self) -> bool:
        now = self._clock()
        return self._tokens + (now - self._stamp) * self._rate >= self._burst


class BucketsByKey:
    """One bucket per key (an IP address); idle full buckets are forgotten past ``limit`` keys."""

    def __init__(self, rate: float, burst: float, limit: int = 10_000) -> None:
        self._rate = rate
        self._burst = burst
        self._limit = limit
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self._limit:
                self._buckets = {k: b for k, b in self._buckets.items() if not b.full}
            bucket = self._buckets[key] = TokenBucket(self._rate, self._burst)
        return bucket.take()
