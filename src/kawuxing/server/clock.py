"""Time for rooms: a clock that can schedule callbacks. Injectable so tests run fast.

Rooms never call ``asyncio`` timers directly: they use a :class:`Clock`, by default
:class:`LoopClock` (the event loop's monotonic clock); tests can use :class:`ManualClock` and
move time by hand.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from typing import Callable, Protocol


class TimerHandle(Protocol):
    """What :meth:`Clock.call_later` returns."""

    def cancel(self) -> None:
        """Stop the callback from running (no effect once it has run)."""


class Clock(Protocol):
    """``now()`` in seconds (monotonic) and ``call_later(delay, fn)`` → a cancellable handle."""

    def now(self) -> float:
        """Monotonic seconds."""
        ...

    def call_later(self, delay: float, fn: Callable[[], None]) -> TimerHandle:
        """Run ``fn`` (in the event loop's thread) after ``delay`` seconds."""
        ...


class LoopClock:
    """The running event loop's clock (``loop.time()`` and ``loop.call_later``)."""

    def now(self) -> float:
        """Monotonic seconds of the running loop."""
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, fn: Callable[[], None]) -> TimerHandle:
        """Run ``fn`` in the loop after ``delay`` seconds (at once when ``delay <= 0``)."""
        loop = asyncio.get_running_loop()
        if delay <= 0:
            return loop.call_soon(fn)
        return loop.call_later(delay, fn)


class _ManualHandle:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        """Do not run the callback."""
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told: :meth:`advance` runs the callbacks that fall due,
    in time order. For tests."""

    def __init__(self, start: float = 0.0) -> None:
        self.time = start
        self._heap: list = []
        self._seq = itertools.count()

    def now(self) -> float:
        """The current manual time."""
        return self.time

    def call_later(self, delay: float, fn: Callable[[], None]) -> TimerHandle:
        """Schedule ``fn`` at ``now() + delay``."""
        handle = _ManualHandle()
        heapq.heappush(self._heap, (self.time + max(0.0, delay), next(self._seq), fn, handle))
        return handle

    def advance(self, seconds: float) -> int:
        """Move time forward, running every callback due; returns how many ran."""
        target = self.time + seconds
        ran = 0
        while self._heap and self._heap[0][0] <= target:
            when, _, fn, handle = heapq.heappop(self._heap)
            self.time = max(self.time, when)
            if not handle.cancelled:
                fn()
                ran += 1
        self.time = target
        return ran
