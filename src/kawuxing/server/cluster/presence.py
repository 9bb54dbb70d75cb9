"""Which processes of the cluster are alive (issue 17): a heartbeat key per process in Redis.

Each process keeps ``kwx:node:ME`` (``ME`` its incarnation id ``node#boot``) set to
``{"node", "me", "rooms", "url"}`` with a time to live of ``ttl_ms`` (5 s in a server), written again
every half second (:meth:`Presence.beat`). A process that dies stops writing and drops out within
``ttl_ms``; a clean stop deletes its key at once (:meth:`Presence.leave`). Room creation
picks the least loaded live process from :meth:`Presence.nodes`.
"""

from __future__ import annotations

import json
import re
import time

NODE_PREFIX = "kwx:node:"
LATE = 0.7  # a heartbeat key with less than this share of its time to live left is late
# a node id: a letter or digit, then letters, digits, ".", "_", "-" (it is part of Redis keys and
# of the incarnation id ``node#boot``, and matched by key patterns: no "#", "*", "?", "[")
NODE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}")


def node_id_problem(node: str) -> str | None:
    """Why ``node`` cannot be a node id (:data:`NODE_ID`: 1-63 characters, a letter or digit
    first, then letters, digits, ``.``, ``_``, ``-``), or None."""
    if NODE_ID.fullmatch(node):
        return None
    return (f"--node-id {node[:80]!r}: a node id is 1-63 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit")


def node_in_use(client, node: str, watch: float = 1.2) -> bool:
    """Whether a live process of the cluster already runs as node id ``node``: a heartbeat
    key of that id renewed within ``watch`` seconds (a process beats every half second; the
    key of one that just died only runs down, so a restart after a crash is not refused).
    ``client``: a synchronous ``redis.Redis``. Blocks up to ``watch`` s when such a key is
    there."""
    keys = list(client.scan_iter(match=f"{NODE_PREFIX}{node}#*", count=500))
    if not keys:
        return False
    left = {key: client.pttl(key) for key in keys}  # ms to live, falling until renewed
    deadline = time.monotonic() + watch
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = {key: client.pttl(key) for key in keys}
        if any(now[key] > left[key] for key in keys):
            return True  # renewed since the last look
        left = now
    return False


class Presence:
    """This process's heartbeat and the list of live ones. ``redis``: a
    ``redis.asyncio.Redis`` (decoded responses); ``me``: incarnation id; ``node``: the node
    id shown in ``/api/health``; ``url``: where it serves (optional, for operators)."""

    def __init__(self, redis, me: str, node: str, url: str | None = None,
                 ttl_ms: int = 3000) -> None:
        self.redis, self.me, self.node, self.url, self.ttl_ms = redis, me, node, url, ttl_ms

    def entry(self, rooms: int) -> str:
        """This process's heartbeat value (JSON) when it owns ``rooms`` rooms."""
        entry = {"node": self.node, "me": self.me, "rooms": rooms}
        if self.url:
            entry["url"] = self.url
        return json.dumps(entry)

    async def beat(self, rooms: int) -> None:
        """Say this process is alive and owns ``rooms`` rooms (for the next ``ttl_ms``)."""
        await self.redis.set(NODE_PREFIX + self.me, self.entry(rooms), px=self.ttl_ms)

    def beat_sync(self, client, rooms: int) -> None:
        """:meth:`beat` through ``client``, a synchronous ``redis.Redis`` (the keeper's
        thread)."""
        client.set(NODE_PREFIX + self.me, self.entry(rooms), px=self.ttl_ms)

    async def nodes(self) -> list[dict]:
        """Every live process: ``[{"node", "me", "rooms", "url"?, "late"}]``, sorted by node
        id. ``late``: its heartbeat has not been renewed for 30 % of ``ttl_ms`` (a server beats
        every half second with a ``ttl_ms`` of 5 s: it missed two beats or more; it may have
        died, and its rooms are taken over once its leases run out)."""
        keys = [k async for k in self.redis.scan_iter(match=NODE_PREFIX + "*", count=500)]
        if not keys:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.mget(keys)
            for key in keys:
                pipe.pttl(key)
            raws, *left = await pipe.execute()
        found = []
        for raw, ms in zip(raws, left):
            if raw is None:  # expired between the scan and the read
                continue
            try:
                entry = json.loads(raw)
            except ValueError:
                continue
            if isinstance(entry, dict):
                found.append(dict(entry, late=0 <= ms < self.ttl_ms * LATE))
        return sorted(found, key=lambda n: (n.get("node", ""), n.get("me", "")))

    async def leave(self) -> None:
        """A clean stop: drop out at once."""
        await self.redis.delete(NODE_PREFIX + self.me)
