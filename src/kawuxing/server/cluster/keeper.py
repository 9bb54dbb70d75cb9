"""Lease renewals and heartbeats from a thread of their own (issue 17).

A process whose event loop is busy — rebuilding the rooms of a process that died, or simply
loaded — used to miss its renewals: past the lease's local deadline it dropped its rooms, the
others took them over, and under load the rooms moved back and forth (1,876 lost leases in one
600-room run). :class:`Keeper` renews every held lease (:meth:`Leases.renew_sync
<.leases.Leases.renew_sync>`) and writes the heartbeat (:meth:`Presence.beat_sync
<.presence.Presence.beat_sync>`) every ``every`` seconds on a synchronous Redis connection in
a daemon thread, so a slow event loop keeps its rooms.

A process must still lose its rooms when it can no longer play them: the event loop touches
:attr:`Keeper.loop_seen` every ``every`` seconds (:meth:`Keeper.touch`, a task of the loop),
and once it has not for ``stall_after`` seconds (a loop wedged by a bug) the keeper stops
renewing and beating: the leases run out, and another process takes the rooms over as after a
crash. A process that is paused as a whole (SIGSTOP, a VM frozen) renews nothing either. Lost
leases are handed to the loop (``on_lost(codes)``, called in the loop's thread), which drops
those rooms.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Callable

from .complaints import Complaints
from .leases import RENEW_SCRIPT

log = logging.getLogger("kawuxing.server.cluster")
COMPLAINTS = Complaints(log)
STALL_AFTER = 10.0  # seconds without a sign of the event loop: stop renewing


class Keeper:
    """See the module doc. ``url``: the Redis URL; ``leases``/``presence``: this process's;
    ``rooms()``: how many rooms it owns (read in the thread: ``len`` of a dict); ``on_lost``:
    called in ``loop`` with the list of codes whose lease was lost; ``every``: seconds between
    renewals; ``stall_after``: seconds without :meth:`touch` after which it stops."""

    def __init__(self, url: str, leases, presence, rooms: Callable[[], int],
                 on_lost: Callable[[list[str]], None], loop: asyncio.AbstractEventLoop,
                 every: float, stall_after: float = STALL_AFTER) -> None:
        import redis

        self.client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=2,
                                           socket_connect_timeout=2)
        self.script = self.client.register_script(RENEW_SCRIPT)
        self.leases, self.presence, self.rooms, self.on_lost = leases, presence, rooms, on_lost
        self.loop, self.every, self.stall_after = loop, every, stall_after
        self.loop_seen = time.monotonic()
        self.renewals = 0  # rounds done (diagnostics, tests)
        self.stalled = False  # it stopped renewing: the loop gave no sign for stall_after
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kawuxing-keeper", daemon=True)

    def start(self) -> None:
        """Start the thread."""
        self._thread.start()

    def touch(self) -> None:
        """The event loop is alive (called from it every ``every`` seconds)."""
        self.loop_seen = time.monotonic()

    def stop(self, timeout: float = 3.0) -> None:
        """Stop the thread (waits up to ``timeout`` seconds) and close its connection."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        try:
            self.client.close()
        except Exception:
            pass

    def round(self) -> list[str]:
        """One renewal and heartbeat, unless the loop has stalled (then nothing). Returns the
        codes lost. Redis errors propagate."""
        if time.monotonic() - self.loop_seen > self.stall_after:
            if not self.stalled:
                log.warning("cluster: the event loop gave no sign for %.0f s; leases are no "
                            "longer renewed", self.stall_after)
            self.stalled = True
            return []
        self.stalled = False
        self.presence.beat_sync(self.client, self.rooms())
        lost = self.leases.renew_sync(self.client, self.script)
        self.renewals += 1
        return lost

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                lost = self.round()
            except Exception as exc:  # Redis away: the deadlines run out by themselves
                COMPLAINTS.failed("renewing leases", exc)
                continue
            COMPLAINTS.worked("renewing leases")
            if lost:
                try:
                    self.loop.call_soon_threadsafe(self.on_lost, lost)
                except RuntimeError:  # the loop is closed: the process is stopping
                    return
