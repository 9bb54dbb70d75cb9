"""One process as a member of a cluster (issue 17): its leases, heartbeat and channel, the
rooms it serves for others and the sockets it relays, and where a room is.

:class:`ClusterNode` is made by the app's lifespan when ``config.redis_url`` is set
(:func:`kawuxing.server.app.create_app`), attached to the :class:`RoomManager` as
``manager.cluster``. The HTTP API and the WebSocket endpoint ask it :meth:`locate` for a room
that is not in this process: ``self`` (it is now: taken over on demand), another process's
incarnation id (forward the request, relay the socket), or None (no room being played).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

from .. import protocol
from ..config import default_node_id
from ..errors import RoomError
from ..roomops import ROOM_OPS
from ..schema import ACTIVE_ROOMS
from ..tokens import normalize_code
from .keeper import Keeper
from .leases import Leases
from .presence import Presence
from .relay import Bus, Link, RemoteConn, close_refused, stop_tasks
from . import takeover

log = logging.getLogger("kawuxing.server.cluster")
LEASE_MS = 5000  # a lease's (and a heartbeat's) time to live
INTERVAL = 1.0  # seconds between renewals, heartbeats and takeover scans
LOAD_WAIT = 5.0  # seconds a request waits for a room this process is rebuilding
SETTLE_WAIT = 5.0  # seconds a request waits for the lease of a room being played to settle
SETTLE_STEP = 0.1
REDIS_CONNECTIONS = 32  # connections to Redis per process at most (the channel holds one)
ATTACH_WAIT = 5.0  # seconds a relayed socket waits for the owner's first word, then asks again


class ClusterNode:
    """See the module doc. ``me``: the incarnation id ``NODE#BOOT`` (a process restarted with
    the same node id is a new owner); ``node``: the node id; ``live``: the live processes as
    of the last heartbeat (:meth:`Presence.nodes`); ``remote``: (origin, socket id) ->
    :class:`RemoteConn` of the sockets other processes relay to rooms here; ``links``: socket
    id -> :class:`Link` of the sockets here for rooms elsewhere."""

    def __init__(self, redis, manager, node: str, url: str | None = None,
                 lease_ms: int = LEASE_MS, interval: float = INTERVAL, control=None,
                 redis_url: str | None = None) -> None:
        self.redis, self.manager, self.node, self.interval = redis, manager, node, interval
        self.redis_url = redis_url  # set: renewals from a thread of their own (.keeper)
        self.keeper: Keeper | None = None
        self.control = control or redis  # leases and heartbeats: a pool of their own
        self.me = f"{node}#{uuid.uuid4().hex[:8]}"
        self.leases = Leases(self.control, self.me, lease_ms, margin_ms=max(1, lease_ms // 3),
                             reader=redis)
        self.presence = Presence(self.control, self.me, node, url, lease_ms)
        self.bus = Bus(redis, self.me, self._item, self._gap)
        self.live: list[dict] = []
        self.on_beat: list = []  # coroutine functions run after each heartbeat (sockets)
        self.remote: dict[tuple[str, str], RemoteConn] = {}
        self.links: dict[str, Link] = {}
        self.lock = asyncio.Lock()  # one takeover at a time
        self.taking: set[str] = set()  # rooms being claimed and rebuilt here now
        self._rerouting = asyncio.Lock()  # one :meth:`reroute` at a time
        self.free_since: dict[str, float] = {}  # room -> when first seen without an owner
        self.scans = 0  # takeover scans so far (:func:`.takeover.scan`)
        self._tasks: list[asyncio.Task] = []
        manager.cluster = self

    @classmethod
    async def open(cls, url: str, manager, node: str | None = None,
                   public_url: str | None = None, **kwargs) -> ClusterNode:
        """Connect to Redis at ``url`` (``redis://host:port/db``), subscribe and send the
        first heartbeat. Raises the client's error when Redis does not answer."""
        import redis.asyncio as aioredis

        # bounded pools that make a caller wait for a free connection (hundreds of sockets
        # opening at once would otherwise fail with MaxConnectionsError); the leases and
        # heartbeats have their own, so that such a crowd never delays a renewal
        def client(connections: int):
            return aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool.from_url(
                url, decode_responses=True, max_connections=connections, timeout=10,
                socket_connect_timeout=5, health_check_interval=10))

        data, control = client(REDIS_CONNECTIONS), client(4)
        try:
            await data.ping()
            self = cls(data, manager, node or default_node_id(), public_url, control=control,
                       redis_url=url, **kwargs)
            await self.bus.start()
            await self.beat()
        except BaseException:
            await _close(data)
            await _close(control)
            raise
        return self

    def start(self) -> None:
        """Start renewing (every ``interval / 2``: from the :class:`~.keeper.Keeper`'s thread
        when the Redis URL is known, else a task of the loop) and beating, following and
        taking over rooms (every ``interval`` seconds), :mod:`.takeover`."""
        loop = asyncio.get_running_loop()
        if self.redis_url is not None:
            self.keeper = Keeper(self.redis_url, self.leases, self.presence,
                                 lambda: len(self.manager.rooms), self._lost, loop,
                                 self.interval / 2)
            self.keeper.start()
            renewing = loop.create_task(self._touch(), name="kawuxing-loop-sign")
        else:
            renewing = loop.create_task(takeover.run(self, takeover.renew, self.interval / 2),
                                        name="kawuxing-leases")
        self._tasks = [renewing, loop.create_task(takeover.run(self, takeover.tick,
                                                               self.interval),
                                                  name="kawuxing-cluster")]

    async def _touch(self) -> None:
        """Tell the keeper the event loop is alive, every ``interval / 2``."""
        while True:
            self.keeper.touch()
            await asyncio.sleep(self.interval / 2)

    def _lost(self, codes: list[str]) -> None:
        """The keeper lost these leases (in the loop's thread): drop the rooms."""
        for code in codes:
            log.warning("cluster: lost the lease of room %s; it is no longer served here", code)
            asyncio.get_running_loop().create_task(self.manager.drop(code))

    async def stop(self) -> None:
        """Stop the periodic work and the keeper (before the rooms are stopped)."""
        await stop_tasks(self._tasks)
        self._tasks = []
        if self.keeper is not None:
            await asyncio.to_thread(self.keeper.stop)
            self.keeper = None

    async def close(self) -> None:
        """After the rooms stopped: give up every lease (another process takes the rooms
        over at once), leave, stop the channel, disconnect."""
        try:
            await self.bus.flush()  # the rooms' last words to relayed sockets first
            for code in list(self.leases.held):
                await self.leases.release(code)
            await self.presence.leave()
            await self.bus.close()
        except Exception as exc:
            log.warning("cluster: a clean leave failed (%r): leases expire instead", exc)
        finally:
            await _close(self.redis)
            if self.control is not self.redis:
                await _close(self.control)

    async def beat(self, read: bool = True) -> None:
        """Heartbeat, and (``read``) read who is alive; then the :attr:`on_beat` hooks."""
        await self.presence.beat(len(self.manager.rooms))
        if read:
            self.live = await self.presence.nodes()
        for hook in self.on_beat:
            await hook()

    async def health(self) -> dict:
        """``{"nodes": [{"node", "rooms", "url"?, "late"}], "owned": n}`` for
        ``/api/health`` (the live processes read from Redis now; ``late``: see
        :meth:`Presence.nodes`)."""
        self.live = await self.presence.nodes()
        nodes = []
        for n in self.live:
            entry = {"node": n.get("node"), "rooms": n.get("rooms", 0),
                     "late": bool(n.get("late"))}
            if n.get("me") == self.me:
                entry["rooms"] = len(self.manager.rooms)
            if n.get("url"):
                entry["url"] = n["url"]
            nodes.append(entry)
        return {"nodes": nodes, "owned": len(self.manager.rooms)}

    def fence(self, code: str):
        """The check a room of this process runs before each write: it still holds the
        lease (:meth:`Leases.valid`)."""
        return lambda: self.leases.valid(code)

    async def rebuild(self, code: str) -> None:
        """Room ``code`` in memory here is behind the database (a write collided): drop it
        (its sockets reconnect) and rebuild it from the database, keeping the lease."""
        await self.manager.drop(code)
        try:
            await self.leases.release(code)
            await takeover.take(self, [code])
        except Exception as exc:  # a takeover scan finds it without an owner
            log.warning("cluster: room %s could not be rebuilt: %r", code, exc)

    # --- where a room is -------------------------------------------------------------
    async def locate(self, code: str) -> str | None:
        """Who serves room ``code``: :attr:`me` (in memory here now; a room with no live
        owner that is still being played is taken over on the spot, :mod:`.takeover`),
        another process's id, or None (no such room being played).

        A process that loses the race for a free lease asks who won; while nobody holds the
        lease of a room the database says is being played (a Redis that restarted empty,
        a lease being settled) it asks again for up to :data:`SETTLE_WAIT` seconds: a live
        room is never reported gone (issue 34, F2)."""
        code = normalize_code(code)
        if len(code) > 16:
            return None
        if self.manager.get(code) is not None:
            return self.me
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_WAIT
        while True:
            owner = (await self.leases.owners([code]))[0]
            if owner is None:
                await takeover.take(self, [code])
                if self.manager.get(code) is not None:
                    return self.me
                owner = (await self.leases.owners([code]))[0]  # lost the race: who won?
            if owner == self.me:  # being rebuilt here
                return self.me if await self._loaded(code) is not None else None
            if owner is not None:
                return owner
            row = await self.manager.store.room_row(code)
            if row is None or row["status"] not in ACTIVE_ROOMS or loop.time() > deadline:
                return None
            await asyncio.sleep(SETTLE_STEP)

    async def _loaded(self, code: str):
        """The room once in memory (it may be being claimed or rebuilt), or None after
        ``LOAD_WAIT`` (or at once when this process is not taking it)."""
        deadline = asyncio.get_running_loop().time() + LOAD_WAIT
        while True:
            room = self.manager.get(code)
            # (``taking``: an attach may come from a process that read our lease before the
            # claim's answer reached us)
            if room is not None or (code not in self.leases.held and code not in self.taking):
                return room
            if asyncio.get_running_loop().time() > deadline:
                return None
            await asyncio.sleep(0.05)

    async def room_call(self, code: str, op: str, args: dict) -> dict | None:
        """Run room operation ``op`` (:data:`kawuxing.server.roomops.ROOM_OPS`) where the room
        is: here, or at its owner (request/reply). None when no process plays the room."""
        where = await self.locate(code)
        if where is None:
            return None
        if where == self.me:
            room = self.manager.get(code)
            if room is None:
                return None
            return await ROOM_OPS[op](room, **args)
        return await self.bus.call(where, "room", {"code": normalize_code(code), "op": op,
                                                   "args": args})

    async def create(self, kwargs: dict) -> dict:
        """Make a room on the least loaded live process (this one on a tie, or when the
        chosen one does not answer): ``kwargs`` of :meth:`RoomManager.create_room`."""
        mine = len(self.manager.rooms)
        target, least = self.me, mine
        for n in self.live:
            if n.get("me") != self.me and not n.get("late") and n.get("rooms", 0) < least:
                target, least = n["me"], n.get("rooms", 0)
        if target != self.me:
            for n in self.live:  # counted at once: the next creations spread
                if n.get("me") == target:
                    n["rooms"] = n.get("rooms", 0) + 1
            try:
                return await self.bus.call(target, "create", kwargs)
            except RoomError as exc:
                if exc.code != "owner_unavailable":
                    raise
                log.warning("cluster: %s did not answer a creation; made here", target)
        return await self.manager.create_room(**kwargs)

    # --- the channel -----------------------------------------------------------------
    def link(self, conn, code: str, owner: str, hello) -> Link:
        """A socket here for room ``code`` owned by ``owner``: attached there."""
        link = Link(self, conn, normalize_code(code), hello)
        self.links[link.cid] = link
        link.open(owner)
        return link

    def unlink(self, link: Link) -> None:
        """The socket of ``link`` closed."""
        self.links.pop(link.cid, None)
        link.detach()

    def _item(self, sender: str, item: dict) -> None:
        kind = item.get("t")
        if kind == "out":
            link = self.links.get(item["c"])
            if link is not None and link.owner == sender:
                link.heard = link.advanced = True
                link.conn.send_text(item["m"])
        elif kind == "close":
            link = self.links.get(item["c"])
            if link is not None and link.owner == sender:
                link.conn.close(int(item["code"]), str(item.get("reason", "")))
        elif kind == "msg":
            conn = self.remote.get((sender, item["c"]))
            if conn is None or conn.closed:  # not attached here (any more): reconnect
                self.bus.send(sender, {"t": "close", "c": item["c"],
                                       "code": protocol.CLOSE_RESTART,
                                       "reason": "the room's server lost this connection"})
                return
            try:
                msg = protocol.parse_client(item["m"], 1 << 20)
            except protocol.ProtocolError:
                return  # checked by the sender already
            if conn.early is not None:  # sent before its attach reached the room: after it
                conn.early.append(msg)
                return
            room = self.manager.get(conn.code)
            if room is not None:
                conn.deliver(room, msg)
        elif kind == "attach":
            conn = RemoteConn(self.bus, sender, item["c"], normalize_code(item["room"]),
                              item.get("hello") is None)
            old = self.remote.pop((sender, item["c"]), None)
            if old is not None:
                self._detach(old)
            self.remote[(sender, item["c"])] = conn
            asyncio.get_running_loop().create_task(self._attach(conn, item.get("hello")))
        elif kind == "detach":
            conn = self.remote.pop((sender, item["c"]), None)
            if conn is not None:
                self._detach(conn)
        elif kind == "call":
            asyncio.get_running_loop().create_task(self._call(sender, item))
        elif kind == "moved":
            rooms = {normalize_code(str(c)) for c in item.get("rooms", [])}
            if any(link.code in rooms for link in self.links.values()):
                asyncio.get_running_loop().create_task(self._follow(rooms))

    async def _attach(self, conn: RemoteConn, hello: dict | None) -> None:
        room = await self._loaded(conn.code)
        if conn.closed:
            return
        if room is None:
            conn.close(protocol.CLOSE_RESTART, "the room is not served here; reconnect")
            return
        if hello is None:
            future = room.post(room.watch, conn)
        else:
            future = room.post(room.attach, conn, str(hello.get("token", "")),
                               hello.get("hand"), hello.get("last_event"))
        future.add_done_callback(lambda f: close_refused(conn, f, conn.watching))
        # what the client sent meanwhile is queued behind the attach, as on the owner's own
        # sockets: an early action gets its answer (its ack or refused) instead of none
        early, conn.early = conn.early, None
        for msg in early or ():
            conn.deliver(room, msg)

    def _detach(self, conn: RemoteConn) -> None:
        conn.closed = True
        room = self.manager.get(conn.code)
        if room is not None:
            if conn.watching:
                room.post_nowait(room.unwatch, conn)
            elif conn.seat is not None:
                room.post_nowait(room.detach, conn)

    async def _call(self, sender: str, item: dict) -> None:
        op, args, key = item.get("op"), item.get("args") or {}, item.get("id")
        try:
            if op == "create":
                result = await self.manager.create_room(**args)
            elif op == "room" and args.get("op") in ROOM_OPS:
                room = await self._loaded(normalize_code(args["code"]))
                if room is None:
                    raise RoomError(503, "the room is moving between server processes; try "
                                         "again in a few seconds", "owner_unavailable")
                result = await ROOM_OPS[args["op"]](room, **args.get("args", {}))
            else:
                raise RoomError(400, f"unknown cluster call {op!r}", "bad_call")
        except RoomError as exc:
            self.bus.answer(sender, key, error=exc)
            return
        except Exception as exc:
            log.exception("cluster: call %r from %s failed", op, sender)
            self.bus.answer(sender, key, error=RoomError(500, f"the owner failed: {exc!r}",
                                                         "internal"))
            return
        self.bus.answer(sender, key, result)

    # --- periodic: sockets of processes that died, sockets whose owner changed ---------
    def prune_remote(self) -> None:
        """Sockets relayed by processes no longer alive are disconnected from their rooms
        (their players get the drop grace, then 托管, as after any dropped connection); if
        such a process was only slow, its sockets are told to close (1012: reconnect)."""
        alive = {n.get("me") for n in self.live}
        for key, conn in list(self.remote.items()):
            if conn.origin not in alive or conn.closed:
                self.remote.pop(key, None)
                if not conn.closed:
                    self._detach(conn)
                    self.bus.send(conn.origin, {"t": "close", "c": conn.cid,
                                                "code": protocol.CLOSE_RESTART,
                                                "reason": "the room's server lost this "
                                                          "connection"})

    def tell_resuming(self) -> None:
        """Sockets relayed to an owner whose heartbeat is late or gone (it may have died:
        its rooms are taken over once its leases run out) are told so once, ``status``
        ``resuming``, instead of silence until the new owner's ``welcome`` (issue 34)."""
        fresh = {n.get("me") for n in self.live if not n.get("late")}
        for link in list(self.links.values()):
            if (link.owner is not None and link.owner != self.me and link.owner not in fresh
                    and not link.told_resuming and not link.conn.closed):
                link.told_resuming = True
                link.conn.send(protocol.status(protocol.RESUMING))

    def _gap(self) -> None:
        """The channel was lost a moment (messages may be lost): every relayed socket asks
        its owner for the full state again, and attaches again at the next
        :meth:`reroute` unless the owner answers first — an owner that lost the room and
        took it back meanwhile (a Redis that restarted) no longer has the socket, and its
        word that it closed it may be among what was lost (issue 34)."""
        for link in list(self.links.values()):
            link.heard = False
            link.opened = float("-inf")
            link.resync()

    def moved(self, codes: list[str]) -> None:
        """Rooms ``codes`` were just taken over here: every process is told (``moved``) and
        the sockets relayed for them, there and here, follow at once (:meth:`reroute`)."""
        if codes:
            self.bus.broadcast({"t": "moved", "rooms": list(codes)})
            asyncio.get_running_loop().create_task(self._follow(set(codes)))

    async def _follow(self, rooms: set[str]) -> None:
        try:
            await self.reroute(rooms)
        except Exception as exc:  # the periodic reroute tries again
            log.warning("cluster: following rooms %s failed: %r", sorted(rooms), exc)

    async def reroute(self, rooms: set[str] | None = None) -> None:
        """Sockets relayed to an owner that has changed (a takeover) attach to the new one:
        with the full view (the client resyncs by version as on a reconnect) once the client
        has been sent something since its hello, else with the hello's hand and last event
        (it gets exactly what it misses: :attr:`Link.advanced`); a socket whose
        owner has said nothing ``ATTACH_WAIT`` seconds after the attach (lost on the way)
        attaches again. ``rooms``: only the sockets of those rooms (default every one).
        One at a time (the periodic one and those after a ``moved``)."""
        async with self._rerouting:
            links = [link for link in self.links.values() if not link.conn.closed
                     and (rooms is None or link.code in rooms)]
            if not links:
                return
            owners = await self.leases.owners([link.code for link in links])
            now = time.monotonic()
            for link, owner in zip(links, owners):
                if owner is None or self.links.get(link.cid) is not link or link.conn.closed:
                    continue  # (closed meanwhile: attaching it would hold its seat)
                if (owner == link.owner and owner != self.me and not link.heard
                        and now - link.opened > ATTACH_WAIT):
                    log.info("cluster: socket %s of room %s: no answer from %s; attaching "
                             "again", link.cid, link.code, owner)
                    link.open(owner, resume=link.advanced)
                elif owner != link.owner:
                    if owner == self.me and self.manager.get(link.code) is None:
                        continue  # still being rebuilt here: next time
                    log.info("cluster: socket %s of room %s follows it to %s", link.cid,
                             link.code, owner)
                    link.open(owner, resume=link.advanced)


async def _close(client) -> None:
    """Close a Redis client and its pool."""
    await client.aclose()
    await client.connection_pool.disconnect()
