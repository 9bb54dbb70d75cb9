"""The pub/sub channels between the processes of a cluster (issue 17).

Every process listens on its own Redis channel, ``kwx:bus:ME`` (``ME`` its incarnation id),
and on one that every process listens on, ``kwx:bus:*`` (:meth:`Bus.broadcast`: a process
that has just taken rooms over says so, ``moved``, and the sockets relayed for them follow at
once instead of at the next look at the leases). What goes over them, in order per sender,
batched per event-loop turn as one JSON envelope ``{"f": sender, "i": [item, ...]}``:

- a socket served here for a room owned elsewhere (a :class:`Link`) sends the owner
  ``attach`` (the seat's hello, or a spectator's watch), each client message (``msg``, the
  validated message as JSON, parsed again by the owner) and ``detach`` when it closes;
- the owner answers through a :class:`RemoteConn` (the room's :class:`~kawuxing.server.seats.Sink`
  for that socket): each message the room sends that seat (``out``, already encoded) and
  ``close``; a link takes these only from the process it attached to (a stale owner's late
  words are dropped);
- request/reply for HTTP requests that change a room (:meth:`Bus.call`: ``call`` with an id,
  answered by ``reply``).

Pub/sub is at-most-once: a message lost while a process dies is like a dropped connection
(the client resyncs by version; an unanswered action is sent again).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import time
import uuid
from typing import Any, Callable

import orjson

from .. import protocol
from ..errors import RoomError, RoomMoved
from .complaints import Complaints

log = logging.getLogger("kawuxing.server.cluster")
CHANNEL_PREFIX = "kwx:bus:"
EVERYONE = "*"  # the target of :meth:`Bus.broadcast` (channel ``kwx:bus:*``)
CALL_TIMEOUT = 5.0  # seconds a forwarded HTTP request waits for the owner's answer


def _envelope(sender: str, items: list[dict]) -> bytes:
    """One published batch, ``{"f": sender, "i": items}`` as JSON (orjson; ``json`` for what
    it refuses, an int beyond 64 bits)."""
    try:
        return orjson.dumps({"f": sender, "i": items}, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps({"f": sender, "i": items}).encode()


def channel(me: str) -> str:
    """The channel process ``me`` listens on."""
    return CHANNEL_PREFIX + me



async def stop_tasks(tasks: list[asyncio.Task]) -> None:
    """Cancel ``tasks`` and wait for each to end (what it raised while stopping is dropped)."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        try:
            await task
        except (asyncio.CancelledError, Exception):
            pass

class Bus:
    """This process's end of the channels. ``on_item(sender, item)`` is called for each item
    received, in order (it must not block: long work goes to a task). :meth:`send` queues an
    item for another process; one task publishes what is queued, a batch per target."""

    def __init__(self, redis, me: str, on_item: Callable[[str, dict], None],
                 on_gap: Callable[[], None] | None = None) -> None:
        self.redis, self.me, self.on_item, self.on_gap = redis, me, on_item, on_gap
        self.complaints = Complaints(log)
        self.pending: dict[str, list[dict]] = {}
        self.calls: dict[str, asyncio.Future] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        self._pubsub = None
        self._busy = False  # a batch is being published
        self.published = 0  # envelopes sent (diagnostics)

    async def start(self) -> None:
        """Subscribe to this process's channel and start the listening and sending tasks."""
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(channel(self.me), channel(EVERYONE))
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(), name="kawuxing-bus-listen"),
                       loop.create_task(self._send(), name="kawuxing-bus-send")]

    def send(self, target: str, item: dict) -> None:
        """Queue ``item`` for process ``target`` (never blocks)."""
        self.pending.setdefault(target, []).append(item)
        self._wake.set()

    def broadcast(self, item: dict) -> None:
        """Queue ``item`` for every other process (never blocks; this process's own
        broadcasts are not handed back to it)."""
        self.send(EVERYONE, item)

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait (at most ``timeout`` s) until what is queued has been published."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (self.pending or self._busy) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)

    async def _send(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self.pending = self.pending, {}
            self._busy = True
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for target, items in batch.items():
                        pipe.publish(channel(target), _envelope(self.me, items))
                    await pipe.execute()
                self.published += len(batch)
                self.complaints.worked("publishing")
            except Exception as exc:  # Redis away: these items are lost (module doc)
                self.complaints.failed("publishing", exc)
            finally:
                self._busy = False

    async def _listen(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # messages may have been lost meanwhile
                self.complaints.failed("listening to the bus", exc)
                await asyncio.sleep(0.5)
                if self.on_gap is not None:
                    self.on_gap()
                continue
            self.complaints.worked("listening to the bus")
            if message is None or message.get("type") != "message":
                continue
            try:
                envelope = orjson.loads(message["data"])
                sender, items = envelope["f"], envelope["i"]
            except (ValueError, KeyError, TypeError):
                log.warning("cluster: a message on the bus that is not an envelope")
                continue
            if sender == self.me:  # our own broadcast
                continue
            for item in items:
                try:
                    if item.get("t") == "reply":
                        self._reply(item)
                    else:
                        self.on_item(sender, item)
                except Exception:
                    log.exception("cluster: item %r from %s failed", item.get("t"), sender)

    async def call(self, target: str, op: str, args: dict, timeout: float = CALL_TIMEOUT) -> Any:
        """Ask process ``target`` to run ``op`` with ``args`` (JSON-ready) and return its
        result. Raises the :class:`RoomError` it answered with, or 503 ``owner_unavailable``
        when it does not answer within ``timeout`` seconds."""
        key = uuid.uuid4().hex
        future = asyncio.get_running_loop().create_future()
        self.calls[key] = future
        self.send(target, {"t": "call", "id": key, "op": op, "args": args})
        try:
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            raise RoomError(503, "the server process that owns this room did not answer; "
                                 "try again in a few seconds", "owner_unavailable") from None
        finally:
            self.calls.pop(key, None)

    def answer(self, target: str, key: str, result: Any = None,
               error: RoomError | None = None) -> None:
        """Send the reply of call ``key`` to ``target``."""
        if error is None:
            self.send(target, {"t": "reply", "id": key, "ok": True, "result": result})
        else:
            self.send(target, {"t": "reply", "id": key, "ok": False, "status": error.status,
                               "code": error.code, "message": error.message})

    def _reply(self, item: dict) -> None:
        future = self.calls.get(item.get("id"))
        if future is None or future.done():
            return
        if item.get("ok"):
            future.set_result(item.get("result"))
        else:
            future.set_exception(RoomError(int(item["status"]), str(item["message"]),
                                           str(item["code"])))

    async def close(self) -> None:
        """Publish what is queued, stop the tasks, unsubscribe."""
        await self.flush()
        await stop_tasks(self._tasks)
        if self._pubsub is not None:
            try:
                await self._pubsub.aclose()
            except Exception:
                pass


class RemoteConn:
    """On the owner: the room's connection object (a :class:`~kawuxing.server.seats.Sink`)
    for a socket served by process ``origin`` under id ``cid``. ``code``: the room;
    ``watching``: a spectator's; ``early``: the client's messages that came before its attach
    was posted to the room (None since). :meth:`send` and :meth:`close` never block."""

    def __init__(self, bus: Bus, origin: str, cid: str, code: str, watching: bool) -> None:
        self.bus, self.origin, self.cid, self.code, self.watching = bus, origin, cid, code, watching
        self.seat: int | None = None
        self.closed = False
        self.early: list | None = []

    def deliver(self, room, msg) -> None:
        """Hand the client's validated message ``msg`` to ``room``, a spectator's or a seat's."""
        room.post_nowait(room.spectator_message if self.watching else room.client_message,
                         self, msg)

    def send(self, message: dict) -> None:
        """Relay one message to the socket."""
        if not self.closed:
            self.bus.send(self.origin, {"t": "out", "c": self.cid, "m": protocol.encode(message)})

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Relay the close (after what was sent) and stop relaying."""
        if not self.closed:
            self.closed = True
            self.bus.send(self.origin, {"t": "close", "c": self.cid, "code": code,
                                        "reason": reason})


_link_ids = itertools.count(1)


class Link:
    """On the process holding the socket: a socket for a room owned by process ``owner``
    (which may become this process after a takeover: then the socket is attached to the
    local room). ``hello``: the seat's :class:`~kawuxing.server.protocol.Hello`, or None for
    a spectator. It stands in for the room in :func:`kawuxing.server.ws._serve`
    (:meth:`post_nowait` runs :meth:`forward` at once)."""

    def __init__(self, node, conn, code: str, hello) -> None:
        self.node, self.conn, self.code, self.hello = node, conn, code, hello
        self.cid = str(next(_link_ids))
        self.owner: str | None = None
        self.local_room = None  # the room, once this process owns it
        self.opened = time.monotonic()  # when last attached
        self.heard = False  # the owner has sent something since
        self.resumed = False  # the last attach asked for the full view
        # the client has been sent something since its hello, so the hello's hand and last
        # event no longer say what it has: a move to a new owner asks for the full view
        self.advanced = False
        self.told_resuming = False  # the client was told the owner is late (Node.tell_resuming)

    @property
    def watching(self) -> bool:
        """A spectator's socket."""
        return self.hello is None

    def post_nowait(self, fn: Callable, *args: Any) -> None:
        """Run ``fn(*args)`` now (the socket loop's way to hand a message to the room)."""
        fn(*args)

    def forward(self, conn, msg) -> None:
        """A validated client message: to the local room, or over the bus to the owner."""
        room = self.local_room
        if room is not None:
            room.post_nowait(room.spectator_message if self.watching else room.client_message,
                             conn, msg)
        elif self.owner is not None:
            self.node.bus.send(self.owner, {"t": "msg", "c": self.cid,
                                            "m": msg.model_dump_json()})

    def open(self, owner: str, resume: bool = False) -> None:
        """Attach the socket at ``owner`` (``resume``: again, after the owner changed, when
        the client has been sent something since its hello — the full view is sent, as on a
        reconnect without ``hand``/``last_event``; else the hello's are passed on and the
        client gets exactly what it misses)."""
        self.detach()
        self.owner, self.told_resuming = owner, False
        self.opened, self.heard, self.resumed = time.monotonic(), False, resume
        hello = self.hello
        if owner == self.node.me:
            room = self.node.manager.get(self.code)
            if room is None:
                self.conn.close(protocol.CLOSE_RESTART, "the room moved; reconnect")
                return
            self.local_room = room
            self.advanced = True  # (the attach sends the state)
            if hello is None:
                future = room.post(room.watch, self.conn)
            else:
                future = room.post(room.attach, self.conn, hello.token,
                                   None if resume else hello.hand,
                                   None if resume else hello.last_event)
            future.add_done_callback(lambda f: close_refused(self.conn, f, self.watching))
            return
        self.node.bus.send(owner, {
            "t": "attach", "c": self.cid, "room": self.code,
            "hello": None if hello is None else {
                "token": hello.token, "hand": None if resume else hello.hand,
                "last_event": None if resume else hello.last_event}})

    def resync(self) -> None:
        """Ask the owner for the full state again (``sync``), as the client would: what
        it sent meanwhile may have been lost."""
        if self.local_room is None and self.owner is not None and self.owner != self.node.me:
            self.node.bus.send(self.owner, {"t": "msg", "c": self.cid, "m": '{"type":"sync"}'})

    def detach(self) -> None:
        """The socket leaves the room it is attached to (closed, or moving to a new owner)."""
        room, self.local_room = self.local_room, None
        if room is not None:
            if self.watching:
                room.post_nowait(room.unwatch, self.conn)
            elif self.conn.seat is not None:
                room.post_nowait(room.detach, self.conn)
        elif self.owner is not None and self.owner != self.node.me:
            self.node.bus.send(self.owner, {"t": "detach", "c": self.cid})
        self.owner = None


def close_refused(conn, future: asyncio.Future, watching: bool) -> None:
    """After an attach (or watch): a refusal closes the socket as :mod:`..ws` does."""
    if future.cancelled():
        return
    exc = future.exception()
    if exc is None:
        return
    if isinstance(exc, RoomMoved):  # the room stopped here meanwhile: reconnect
        conn.close(protocol.CLOSE_RESTART, "the room moved; reconnect")
    elif isinstance(exc, RoomError):
        if watching:
            conn.send(protocol.error(exc.code, exc.message))
            conn.close(protocol.CLOSE_POLICY, "no more spectators")
        else:
            conn.send(protocol.error("bad_token", exc.message))
            conn.close(protocol.CLOSE_BAD_TOKEN, "bad token")
    else:
        conn.close(protocol.CLOSE_RESTART, "the room could not take the connection")
