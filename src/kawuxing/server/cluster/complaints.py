"""Warnings that repeat while something stays broken (Redis away: every renewal, every
listen, every tick fails), logged once and then at most every ``every`` seconds with how many
were held back, and one line when it works again (issue 17: about 160 lines in 40 s of a
Redis outage before)."""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable


class Complaints:
    """Throttled warnings to ``log``, by ``what`` (a short name of the failing work). Safe to
    use from the keeper's thread and the event loop at once."""

    def __init__(self, log: logging.Logger, every: float = 30.0,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.log, self.every, self._now = log, every, now
        self._open: dict[str, tuple[float, int]] = {}  # what -> (last logged, held back)
        self._lock = threading.Lock()

    def failed(self, what: str, exc: BaseException) -> None:
        """``what`` failed with ``exc``: a warning the first time and every ``every`` s."""
        now = self._now()
        with self._lock:
            last, held = self._open.get(what, (None, 0))
            if last is not None and now - last < self.every:
                self._open[what] = (last, held + 1)
                return
            self._open[what] = (now, 0)
        more = f" ({held} more failures since the last warning)" if held else ""
        self.log.warning("cluster: %s failed: %r%s", what, exc, more)

    def worked(self, what: str) -> None:
        """``what`` worked: one line if it had failed."""
        with self._lock:
            was = self._open.pop(what, None)
        if was is not None:
            self.log.warning("cluster: %s works again", what)
