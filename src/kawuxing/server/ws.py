"""The WebSocket endpoint ``/ws/{code}`` (docs/protocol.md).

The first message must be a ``hello`` with the seat token. After it, each text frame is
size-checked, rate-limited (token bucket), validated (pydantic), and handed to the room's
queue; the room answers. Anything that cannot be used gets an ``error`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import protocol
from .connection import WsConnection
from .ratelimit import TokenBucket
from .errors import RoomError

log = logging.getLogger("kawuxing.server.ws")


async def websocket_endpoint(websocket: WebSocket, code: str) -> None:
    """Serve one player's socket for room ``code`` until it closes."""
    manager = websocket.app.state.manager
    config = manager.config
    await websocket.accept()
    conn = WsConnection(websocket, config.send_queue)
    pump = asyncio.get_running_loop().create_task(conn.pump())
    room = None
    try:
        room = manager.get(code)
        if room is None:
            conn.send(protocol.error("no_room", f"no room {code!r} on this server"))
            conn.close(protocol.CLOSE_ROOM_GONE, "no such room")
            return
        hello = await _hello(websocket, conn, config)
        if hello is None:
            return
        try:
            await room.post(room.attach, conn, hello.token, hello.hand, hello.last_event)
        except RoomError as exc:
            conn.send(protocol.error("bad_token", exc.message))
            conn.close(protocol.CLOSE_BAD_TOKEN, "bad token")
            return
        await _serve(websocket, conn, room, config)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("websocket for room %s failed", code)
    finally:
        if room is not None and conn.seat is not None:
            room.post_nowait(room.detach, conn)
        conn.close(1000, "")
        try:
            await asyncio.wait_for(pump, 5.0)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            pump.cancel()


async def _hello(websocket: WebSocket, conn: WsConnection, config) -> protocol.Hello | None:
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
        if not isinstance(hello, protocol.Hello):
            raise protocol.ProtocolError("no_hello", "the first message must be a hello")
    except protocol.ProtocolError as exc:
        conn.send(protocol.error(exc.code, exc.message))
        conn.close(protocol.CLOSE_BAD_HELLO, "bad hello")
        return None
    return hello


async def _serve(websocket: WebSocket, conn: WsConnection, room, config) -> None:
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
        elif isinstance(msg, protocol.Hello):
            conn.send(protocol.error("already_joined", "this connection already has a seat"))
        else:
            room.post_nowait(room.client_message, conn, msg)
