"""One task, one queue: the commands of an object run one at a time, in the order posted.

:class:`Actor` is what makes a room race-free: whatever arrives at the same moment (two
players' answers, a timer, a disconnection) becomes commands on its queue, each run to its end
— awaits included — before the next starts.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from typing import Any, Callable

log = logging.getLogger("kawuxing.server.room")


class Actor:
    """A command queue served by one task. ``queue`` holds ``(fn, args, future)``; ``task``
    is the serving task once :meth:`start` ran. Exceptions of ``quiet`` types (e.g. a refusal
    the caller expects) are passed to the caller without being logged."""

    quiet: tuple[type[BaseException], ...] = ()

    def __init__(self, name: str) -> None:
        self.name = name
        self.queue: asyncio.Queue = asyncio.Queue()
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        """Start serving the queue in the running loop."""
        self.task = asyncio.get_running_loop().create_task(self._serve(), name=self.name)

    def post(self, fn: Callable, *args: Any) -> asyncio.Future:
        """Run ``fn(*args)`` (may be a coroutine function) after the commands already
        queued; the future gets its result or exception."""
        future = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((fn, args, future))
        return future

    def post_nowait(self, fn: Callable, *args: Any) -> None:
        """Like :meth:`post`, without a result (timers, disconnections)."""
        self.queue.put_nowait((fn, args, None))

    async def stop_serving(self, timeout: float) -> None:
        """Let the command in progress and those queued before finish (at most ``timeout``
        seconds, then the task is cancelled), and stop."""
        if self.task is not None and not self.task.done():
            self.queue.put_nowait(None)
            try:
                await asyncio.wait_for(self.task, timeout)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                self.task.cancel()

    async def _serve(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None:
                return
            fn, args, future = item
            try:
                result = fn(*args)
                if inspect.isawaitable(result):
                    result = await result
            except Exception as exc:
                if not isinstance(exc, self.quiet):
                    log.exception("%s: %s failed", self.name, getattr(fn, "__name__", fn))
                if future is not None and not future.done():
                    future.set_exception(exc)
                continue
            if future is not None and not future.done():
                future.set_result(result)
