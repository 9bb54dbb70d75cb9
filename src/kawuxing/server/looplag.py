"""How late the event loop runs what is due: the server's stalls (a full GC pass, a slow
commit, a long command) as one number, served by ``GET /api/health`` (issue 13: the latency
tail came from event-loop stalls, not from saturation)."""

from __future__ import annotations

import asyncio
from collections import deque

INTERVAL = 0.1  # seconds between two samples
SAMPLES = 600  # the last minute of samples is kept


class LoopLag:
    """A task that sleeps :data:`INTERVAL` seconds again and again and keeps how much later
    than asked it woke (the last :data:`SAMPLES`). :meth:`start` in the running loop,
    :meth:`stop`; :meth:`health` the figures."""

    def __init__(self) -> None:
        self.lags: deque[float] = deque(maxlen=SAMPLES)
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        """Start sampling in the running loop."""
        self.task = asyncio.get_running_loop().create_task(self._run(), name="kawuxing-lag")

    def stop(self) -> None:
        """Stop sampling."""
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time() + INTERVAL
            await asyncio.sleep(INTERVAL)
            self.lags.append(max(0.0, loop.time() - asked))

    def health(self) -> dict:
        """``{"samples", "lag_ms_p50", "lag_ms_p99", "lag_ms_max"}`` over the last minute
        (milliseconds late), or just ``samples`` 0 before the first."""
        lags = sorted(self.lags)
        if not lags:
            return {"samples": 0}
        ms = [x * 1000 for x in lags]
        return {"samples": len(ms), "lag_ms_p50": round(ms[len(ms) // 2], 2),
                "lag_ms_p99": round(ms[int(0.99 * (len(ms) - 1))], 2),
                "lag_ms_max": round(ms[-1], 2)}
