"""Which processes of the cluster are alive (issue 17): a heartbeat key per process in Redis.

Each process keeps ``kwx:node:ME`` (``ME`` its incarnation id ``node#boot``) set to
``{"node", "me", "rooms", "url"}`` with a time to live of ``ttl_ms`` (5 s in a server), written again
every half second (:meth:`Presence.beat`). A process that dies stops writing and drops out within
``ttl_ms``; a clean stop deletes its key at once (:meth:`Presence.leave`). Room creation
picks the least loaded live process from :meth:`Presence.nodes`.
"""

from __future__ import annotations

import json

NODE_PREFIX = "kwx:node:"


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
        """Every live process: ``[{"node", "me", "rooms", "url"?}]``, sorted by node id."""
        keys = [k async for k in self.redis.scan_iter(match=NODE_PREFIX + "*", count=500)]
        if not keys:
            return []
        found = []
        for raw in await self.redis.mget(keys):
            if raw is None:  # expired between the scan and the read
                continue
            try:
                found.append(json.loads(raw))
            except ValueError:
                continue
        return sorted(found, key=lambda n: (n.get("node", ""), n.get("me", "")))

    async def leave(self) -> None:
        """A clean stop: drop out at once."""
        await self.redis.delete(NODE_PREFIX + self.me)
