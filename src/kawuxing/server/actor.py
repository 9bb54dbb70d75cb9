"""One task, one queue: the commands of an object run one at a time, in the order posted.

:class:`Actor` is what makes a room race-free: whatever arrives at the same moment (two
players' answers, a timer, a disconnection) becomes commands on its queue, each run to its end
— awaits included — before the next starts. Once stopped, it takes no more: :meth:`Actor.post` fails at once
(:meth:`Actor.stopped_error`) and :meth:`Actor.post_nowait` is dropped, so nothing waits on a
queue nobody serves (issue 17: a socket that reached a room just as its process handed it
over).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from typing import Any, Callable

log = logging.getLogger("kawuxing.server.room")


class Stopped(Exception):
    """The actor was stopped: it serves no more commands."""


class Actor:
    """A command queue served by one task. ``queue`` holds ``(fn, args, future)``; ``task``
    is the serving task once :meth:`start` ran. Exceptions of ``quiet`` types (e.g. a refusal
    the caller expects) are passed to the caller without being logged."""

    quiet: tuple[type[BaseException], ...] = ()

    def __init__(self, name: str) -> None:
        self.name = name
        self.queue: asyncio.Queue = asyncio.Queue()
        self.task: asyncio.Task | None = None
        self.closed = False  # stop_serving began: nothing more is taken

    def stopped_error(self) -> Exception:
        """What :meth:`post` fails with once the actor is stopped."""
        return Stopped(f"{self.name} is stopped")

    def start(self) -> None:
        """Start serving the queue in the running loop."""
        self.task = asyncio.get_running_loop().create_task(self._serve(), name=self.name)

    def post(self, fn: Callable, *args: Any) -> asyncio.Future:
        """Run ``fn(*args)`` (may be a coroutine function) after the commands already
        queued; the future gets its result or exception (:meth:`stopped_error` at once
        when the actor is stopped)."""
        future = asyncio.get_running_loop().create_future()
        if self.closed:
            future.set_exception(self.stopped_error())
        else:
            self.queue.put_nowait((fn, args, future))
        return future

    def post_nowait(self, fn: Callable, *args: Any) -> None:
        """Like :meth:`post`, without a result (timers, disconnections); dropped once the
        actor is stopped."""
        if not self.closed:
            self.queue.put_nowait((fn, args, None))

    async def stop_serving(self, timeout: float) -> None:
        """Let the command in progress and those queued before finish (at most ``timeout``
        seconds, then the task is cancelled), and stop: from now on :meth:`post` fails and
        the commands left queued when the task was cancelled fail the same way."""
        if self.closed:
            return
        self.closed = True
        if self.task is not None and not self.task.done():
            self.queue.put_nowait(None)
            try:
                await asyncio.wait_for(self.task, timeout)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                self.task.cancel()
        while not self.queue.empty():
            item = self.queue.get_nowait()
            if item is not None and item[2] is not None and not item[2].done():
                item[2].set_exception(self.stopped_error())

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
