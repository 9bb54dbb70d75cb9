"""Flood control: a token bucket per connection (:class:`TokenBucket`), token buckets per
client IP for the HTTP API (:class:`IpBuckets`: rooms made, joins, look-ups; answered 429
with ``Retry-After``) and a cap on open WebSockets per IP (:class:`SocketCount`). In a
cluster the same limits are counted in Redis for every process together
(:mod:`.cluster.limits`), as coroutines: callers take either through :func:`resolved`."""

from __future__ import annotations

import inspect
import time
from collections import OrderedDict
from typing import Callable


async def resolved(value):
    """``value``, or what it gives when awaited: a limit answers at once in one process and
    as a coroutine (a Redis round trip) in a cluster (:mod:`.cluster.limits`)."""
    return await value if inspect.isawaitable(value) else value


class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` saved. :meth:`take` spends one token and
    says whether there was one. ``now`` is injectable for tests."""

    def __init__(self, rate: float, burst: float, now: Callable[[], float] = time.monotonic):
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self._now = now
        self._last = now()

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if there are that many; False (nothing spent) otherwise."""
        now = self._now()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


class IpBuckets:
    """A :class:`TokenBucket` per client IP (``rate`` per second, ``burst`` saved), for the
    HTTP rate limits. :meth:`take` answers 0.0 (allowed) or the seconds until the IP may try
    again (for ``Retry-After``). ``rate`` 0 (or less) turns the limit off. At most ``max_ips``
    buckets are kept (the least recently used is forgotten: a forgotten bucket is a full one,
    so memory stays bounded whoever sends requests)."""

    def __init__(self, rate: float, burst: float, now: Callable[[], float] = time.monotonic,
                 max_ips: int = 10000) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.max_ips = max_ips
        self._now = now
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    @property
    def enabled(self) -> bool:
        """False when ``rate`` is 0: :meth:`take` always allows."""
        return self.rate > 0

    def take(self, ip: str) -> float:
        """Spend one token of ``ip``: 0.0 if there was one, else the seconds until one."""
        if not self.enabled:
            return 0.0
        bucket = self._buckets.get(ip)
        if bucket is None:
            bucket = self._buckets[ip] = TokenBucket(self.rate, self.burst, self._now)
            while len(self._buckets) > self.max_ips:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(ip)
        if bucket.take():
            return 0.0
        return (1.0 - bucket.tokens) / self.rate


class SocketCount:
    """Open WebSockets per client IP, capped at ``limit`` (0: no cap)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def acquire(self, ip: str) -> bool:
        """Count one more socket of ``ip``; False (nothing counted) when it has ``limit``."""
        count = self.open.get(ip, 0)
        if self.limit > 0 and count >= self.limit:
            return False
        self.open[ip] = count + 1
        return True

    def release(self, ip: str) -> None:
        """A socket of ``ip`` closed."""
        count = self.open.get(ip, 0) - 1
        if count > 0:
            self.open[ip] = count
        else:
            self.open.pop(ip, None)
