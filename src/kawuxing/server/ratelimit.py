"""Flood control: a token bucket per connection."""

from __future__ import annotations

import time
from typing import Callable


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
