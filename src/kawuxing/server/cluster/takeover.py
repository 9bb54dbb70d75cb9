"""Failover (issue 17): the rooms of a process that died are rebuilt by another from
PostgreSQL, with the same code as a restart (:meth:`RoomManager.restore
<kawuxing.server.manager.RoomManager.restore>`: each hand replayed from its record and stored
actions; timers, 托管 and the pause between hands scheduled again as after a restart).

Each process renews its leases and its heartbeat every ``interval / 2`` from a thread of
its own (:class:`~.keeper.Keeper`; :func:`renew`, a task of the loop, when no Redis URL is
known), never held up by the rest: a process busy taking rooms over must not look dead to
the others. A room whose lease it lost (it was paused, or cut off from Redis
longer than the lease) is dropped at once — stopped, its sockets closed with 1012 so that
their clients reconnect to the new owner — without writing anything more. And every
``interval`` (1 s) (:func:`tick`) it

1. sends its heartbeat and reads who is alive; sockets relayed here by processes that died
   are disconnected from their rooms (their players get the drop grace, then 托管);
2. moves the sockets it relays whose room changed owner to the new owner (full view) — a
   process that takes rooms over also tells every process at once (``moved`` on the channel
   all listen on, :meth:`ClusterNode.moved <.node.ClusterNode.moved>`), so that these
   sockets need not wait for this look at the leases, which stays for a lost ``moved``;
   those it relays to an owner whose heartbeat is late are told ``status`` ``resuming``
   (:meth:`ClusterNode.tell_resuming <.node.ClusterNode.tell_resuming>`);
3. takes over rooms that have no owner (in the rooms set, no lease): the least loaded live
   process takes them at once, the others only once they have been free for two
   intervals (so that one process does not race another for every room).

A request or socket for a room without an owner takes it over on the spot (:func:`take`).
"""

from __future__ import annotations

import asyncio
import logging
import time

from .complaints import Complaints

log = logging.getLogger("kawuxing.server.cluster")
COMPLAINTS = Complaints(log)


async def run(node, work, every: float) -> None:
    """``await work(node)`` every ``every`` seconds until cancelled (a failed round is
    logged and the next one tries again)."""
    while True:
        await asyncio.sleep(every)
        try:
            await work(node)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            COMPLAINTS.failed(work.__name__, exc)
            continue
        COMPLAINTS.worked(work.__name__)


async def renew(node) -> None:
    """Renew this process's leases and heartbeat; drop the rooms whose lease it lost (module
    doc)."""
    await node.beat(read=False)
    for code in await node.leases.renew():
        log.warning("cluster: lost the lease of room %s; it is no longer served here", code)
        await node.manager.drop(code)


async def tick(node) -> None:
    """One round of the periodic work but renewals (module doc, steps 1-3)."""
    await node.beat()
    node.prune_remote()
    await node.reroute()
    node.tell_resuming()
    await scan(node)


DB_SCAN_EVERY = 10  # ticks between looks at the database's list of rooms being played


async def scan(node) -> int:
    """Take over rooms without an owner (module doc, step 3); every ``DB_SCAN_EVERY`` ticks
    the rooms the database says are being played count too (a Redis that restarted empty has
    lost the rooms set). Returns how many."""
    manager = node.manager
    node.scans += 1
    playing = await node.leases.rooms()
    if node.scans % DB_SCAN_EVERY == 0:
        playing |= set(await manager.store.active_codes())
    playing = [c for c in playing if manager.get(c) is None]
    owners = await node.leases.owners(playing)
    free = [c for c, o in zip(playing, owners) if o is None]
    now = time.monotonic()
    node.free_since = {c: node.free_since.get(c, now) for c in free}
    if not free:
        return 0
    mine = len(manager.rooms)
    least = all(mine <= n.get("rooms", 0) for n in node.live if n.get("me") != node.me)
    if not least:
        free = [c for c in free if now - node.free_since[c] >= 2 * node.interval]
    return await take(node, free)


async def take(node, codes: list[str]) -> int:
    """Claim the leases of ``codes`` that are free and rebuild those rooms here from the
    database; a claimed room that is no longer being played (finished, expired, unknown)
    leaves the rooms set. Returns how many rooms were rebuilt."""
    manager = node.manager
    async with node.lock:
        codes = [c for c in codes if manager.get(c) is None and c not in node.leases.held]
        node.taking.update(codes)
        try:
            won = await node.leases.claim(codes)
            if not won:
                return 0
            started = time.perf_counter()
            try:
                count = await manager.restore(codes=won)
            except Exception:
                for code in won:
                    node.leases.forget(code)  # expires; tried again
                raise
            for code in won:
                if manager.get(code) is None:
                    await node.leases.release(code, forget=True)
                node.free_since.pop(code, None)
        finally:
            node.taking.difference_update(codes)
    node.moved([c for c in won if manager.get(c) is not None])
    if count:
        log.info("cluster: took over %d room(s) in %.0f ms", count,
                 1000 * (time.perf_counter() - started))
    return count
