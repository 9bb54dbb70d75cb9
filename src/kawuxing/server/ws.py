"""The WebSocket endpoint ``/ws/{code}`` (docs/protocol.md).

A browser's socket whose ``Origin`` is not this server (nor an ``--allow-origin``) is refused
before the handshake (HTTP 403); clients that send no Origin connect. An IP with
``max_sockets_per_ip`` sockets open gets ``error`` ``too_many_sockets`` and a close (1008).

The first message must be a ``hello`` with the seat token, or a spectator's ``watch``
(:mod:`.spectators`: public information only, and nothing it sends but ``sync`` and ``ping``
is taken). After it, each text frame is
size-checked, rate-limited (token bucket), validated (pydantic), and handed to the room's
queue; the room answers. Anything that cannot be used gets an ``error`` with a code and
changes nothing; the socket stays usable, and nothing a client sends writes a traceback to
the log. A finished room no longer in memory (after a restart) answers a hello with its
``match_end`` and closes (1000). In a cluster (issue 17) a socket for a room owned by
another process is relayed to it (:func:`_relayed`).
"""

from __future__ import annotations

import asyncio
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import protocol
from .connection import WsConnection
from .errors import CLUSTER_UNAVAILABLE, RoomError, RoomMoved, redis_errors
from .guard import limit_key, origin_allowed
from .ratelimit import TokenBucket, resolved

log = logging.getLogger("kawuxing.server.ws")


async def websocket_endpoint(websocket: WebSocket, code: str) -> None:
    """Serve one player's (or spectator's) socket for room ``code`` until it closes."""
    manager = websocket.app.state.manager
    config = manager.config
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"),
                          config.allow_origins):
        await websocket.close(protocol.CLOSE_POLICY)  # before accept: HTTP 403
        return
    sockets = websocket.app.state.sockets
    ip = limit_key(websocket.scope)
    counted = await resolved(sockets.acquire(ip))  # a Redis round trip in a cluster
    try:
        await websocket.accept()
    except Exception:
        if counted:
            sockets.release(ip)
        return
    conn = WsConnection(websocket, config.send_queue)
    pump = asyncio.get_running_loop().create_task(conn.pump())
    room = None
    watching = False
    try:
        if not counted:
            conn.send(protocol.error("too_many_sockets", f"at most {sockets.limit} open "
                                                         "connections per address"))
            conn.close(protocol.CLOSE_POLICY, "too many sockets")
            return
        room = manager.get(code)
        if room is None and manager.cluster is not None:  # issue 17
            owner = await manager.cluster.locate(code)
            if owner is not None and owner != manager.cluster.me:
                await _relayed(websocket, conn, manager.cluster, code, owner, config)
                return
            room = manager.get(code)
        if room is None:
            await _gone(websocket, conn, manager, code, config)
            return
        hello = await _hello(websocket, conn, config, watch=True)
        if hello is None:
            return
        if isinstance(hello, protocol.Watch):
            try:
                await room.post(room.watch, conn)
            except RoomMoved:  # handed over meanwhile (issue 17): reconnect
                conn.close(protocol.CLOSE_RESTART, "the room moved; reconnect")
                return
            except RoomError as exc:
                conn.send(protocol.error(exc.code, exc.message))
                conn.close(protocol.CLOSE_POLICY, "no more spectators")
                return
            watching = True
            await _serve(websocket, conn, room, room.spectator_message, config)
            return
        try:
            await room.post(room.attach, conn, hello.token, hello.hand, hello.last_event)
        except RoomMoved:  # handed over while the hello came (issue 17): reconnect
            conn.close(protocol.CLOSE_RESTART, "the room moved; reconnect")
            return
        except RoomError as exc:
            conn.send(protocol.error("bad_token", exc.message))
            conn.close(protocol.CLOSE_BAD_TOKEN, "bad token")
            return
        await _serve(websocket, conn, room, room.client_message, config)
    except WebSocketDisconnect:
        pass
    except redis_errors() as exc:  # the cluster's Redis does not answer: reconnect later
        log.warning("websocket for room %.16r: the cluster's Redis does not answer (%r)",
                    code, exc)
        conn.send(protocol.error(CLUSTER_UNAVAILABLE, "the cluster's Redis does not answer; "
                                                      "reconnect in a few seconds"))
        conn.close(protocol.CLOSE_RESTART, "cluster unavailable")
    except Exception as exc:  # a bug, or the peer broke off: one line (traceback: debug)
        log.warning("websocket for room %.16r closed: %r", code, exc)
        log.debug("websocket for room %.16r", code, exc_info=True)
    finally:
        if counted:
            sockets.release(ip)
        if room is not None and conn.seat is not None:
            room.post_nowait(room.detach, conn)
        if watching:
            room.post_nowait(room.unwatch, conn)
        conn.close(1000, "")
        try:
            await asyncio.wait_for(pump, 5.0)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            pump.cancel()


async def _relayed(websocket: WebSocket, conn: WsConnection, cluster, code: str,
                   owner: str, config) -> None:
    """A socket for a room another process of the cluster owns (issue 17): the hello is
    read and checked here, then every message goes to the owner over Redis and what the
    room sends this seat comes back (:class:`~kawuxing.server.cluster.relay.Link`; it
    follows the room if it moves to another process)."""
    hello = await _hello(websocket, conn, config, watch=True)
    if hello is None:
        return
    link = cluster.link(conn, code, owner, None if isinstance(hello, protocol.Watch) else hello)
    try:
        await _serve(websocket, conn, link, link.forward, config)
    finally:
        cluster.unlink(link)


async def _gone(websocket: WebSocket, conn: WsConnection, manager, code: str, config) -> None:
    """Room ``code`` is not in memory: a finished room (unloaded, or the server restarted)
    answers a hello with its seat's token with ``match_end`` and closes normally; any other
    code gets ``error`` ``no_room`` and 4004."""
    if await resolved(websocket.app.state.limits["lookup"].take(limit_key(websocket.scope))) > 0:
        conn.send(protocol.error("rate_limited", "too many look-ups; try again later"))
        conn.close(protocol.CLOSE_POLICY, "rate limited")
        return
    final = await manager.finished_room(code)
    if final is not None:
        hello = await _hello(websocket, conn, config, watch=True)
        if hello is None:
            return
        if isinstance(hello, protocol.Watch):  # nothing left to watch
            conn.send(protocol.error("no_room", "this room's match is over"))
            conn.close(protocol.CLOSE_ROOM_GONE, "no such room")
            return
        if final["seat_of"](hello.token) is None:
            conn.send(protocol.error("bad_token", "this token is not a seat of this room"))
            conn.close(protocol.CLOSE_BAD_TOKEN, "bad token")
            return
        conn.send(final["match_end"])
        conn.close(protocol.CLOSE_NORMAL, "the match is over")
        return
    conn.send(protocol.error("no_room", "no such room (or it is closed)"))
    conn.close(protocol.CLOSE_ROOM_GONE, "no such room")


async def _hello(websocket: WebSocket, conn: WsConnection, config,
                 watch: bool = False) -> protocol.Hello | protocol.Watch | None:
    """The first message: a ``hello`` (or, ``watch`` True, a spectator's ``watch``), else
    None with the socket told why and closed (4000)."""
    try:
        message = await asyncio.wait_for(websocket.receive(), config.hello_timeout)
    except asyncio.TimeoutError:
        conn.send(protocol.error("no_hello", "send a hello with your seat token first"))
        conn.close(protocol.CLOSE_BAD_HELLO, "no hello")
        return None
    if message["type"] == "websocket.disconnect":
        return None
    try:
        text = message.get("text")
        if text is None:
            raise protocol.ProtocolError("binary", "send JSON text frames")
        hello = protocol.parse_client(text, config.max_message_bytes)
        if not (isinstance(hello, protocol.Hello)
                or (watch and isinstance(hello, protocol.Watch))):
            raise protocol.ProtocolError("no_hello", "the first message must be a hello")
    except protocol.ProtocolError as exc:
        conn.send(protocol.error(exc.code, exc.message))
        conn.close(protocol.CLOSE_BAD_HELLO, "bad hello")
        return None
    return hello


async def _serve(websocket: WebSocket, conn: WsConnection, room, handle, config) -> None:
    """Read the socket until it closes: each message checked as the module doc says, then
    ``handle(conn, msg)`` posted to the room's queue (``ping`` answered here)."""
    bucket = TokenBucket(config.rate, config.burst)
    strikes = 0
    while not conn.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not bucket.take():
            strikes += 1
            if strikes > config.max_strikes:
                conn.send(protocol.error("flood", "too many messages; closing"))
                conn.close(protocol.CLOSE_POLICY, "flood")
                return
            conn.send(protocol.error("rate_limited", f"at most {config.rate:g} messages a "
                                                     "second; this one was dropped"))
            continue
        try:
            text = message.get("text")
            if text is None:
                raise protocol.ProtocolError("binary", "send JSON text frames")
            msg = protocol.parse_client(text, config.max_message_bytes)
        except protocol.ProtocolError as exc:
            conn.send(protocol.error(exc.code, exc.message))
            continue
        if isinstance(msg, protocol.Ping):
            conn.send(protocol.pong(msg.t))
        elif isinstance(msg, (protocol.Hello, protocol.Watch)):
            conn.send(protocol.error("already_joined", "this connection already has a seat"))
        else:
            room.post_nowait(handle, conn, msg)
