"""One WebSocket connection: a non-blocking outbox drained by its own task.

The room never waits on a socket: :meth:`WsConnection.send` queues the encoded message and
returns. A client that falls ``limit`` messages behind is disconnected (it can reconnect and
get the full view), so one slow reader cannot hold up a room; so is one whose socket takes a
frame for longer than ``send_timeout`` seconds (a watchdog timer looks every half of it, so
between one and one and a half times ``send_timeout``: no timeout context a frame, which cost
about 3 % of the server's CPU under load, issue 34).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import deque

from starlette.websockets import WebSocket

from . import protocol

log = logging.getLogger("kawuxing.server.connection")
_ids = itertools.count(1)
SEND_TIMEOUT = 10.0  # seconds one frame may take to go out before the client is dropped


class WsConnection:
    """The server side of one socket. ``seat`` is set by the room on a valid hello;
    ``sent`` counts messages sent (tests, diagnostics)."""

    def __init__(self, websocket: WebSocket, limit: int = 512,
                 send_timeout: float = SEND_TIMEOUT) -> None:
        self.id = next(_ids)
        self.ws = websocket
        self.limit = limit
        self.send_timeout = send_timeout
        self._sending: float | None = None  # loop time the frame going out began to go
        self._stalled = False  # the watchdog ended the pump
        self.seat: int | None = None
        self.closed = False
        self.close_code: tuple[int, str] | None = None
        self.sent = 0
        self._buf: deque[str] = deque()
        self._wake = asyncio.Event()

    def send(self, message: dict) -> None:
        """Queue ``message`` (a dict, sent as JSON). Never blocks; dropped once closed."""
        if not self.closed:
            self.send_text(protocol.encode(message))

    def send_text(self, text: str) -> None:
        """Queue one message already encoded (JSON text: relayed from the process that owns
        the room, issue 17). Never blocks; dropped once closed."""
        if self.closed:
            return
        if len(self._buf) >= self.limit:
            log.info("connection %d: %d messages behind, disconnecting", self.id, self.limit)
            self._buf.clear()
            self.close(protocol.CLOSE_SLOW, "too far behind")
            return
        self._buf.append(text)
        self._wake.set()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Send what is queued, then close the socket with ``code``."""
        if self.closed:
            return
        self.closed = True
        self.close_code = (code, reason)
        self._wake.set()

    async def pump(self) -> None:
        """The sender task: drains the outbox until closed, then closes the socket. A frame
        that does not go out within ``send_timeout`` (the watchdog, :meth:`_watch`) ends it:
        the socket is closed."""
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        watchdog = loop.call_later(self.send_timeout / 2, self._watch, loop, task)
        try:
            while True:
                self._wake.clear()
                while self._buf:
                    self._sending = loop.time()
                    await self.ws.send_text(self._buf.popleft())
                    self._sending = None
                    self.sent += 1
                if self.closed:
                    break
                await self._wake.wait()
            code, reason = self.close_code or (1000, "")
            self._sending = loop.time()
            await self.ws.close(code, reason)
        except asyncio.CancelledError:
            if not self._stalled:
                raise
            task.uncancel()  # (cancelled by the watchdog: ends as a peer gone)
        except Exception as exc:  # the peer went away or stalled: nothing more to send
            log.debug("connection %d: pump ended: %r", self.id, exc)
        finally:
            watchdog.cancel()
            self._sending = None
            self.closed = True

    def _watch(self, loop: asyncio.AbstractEventLoop, task: asyncio.Task) -> None:
        """Every ``send_timeout / 2`` seconds while the pump runs: cancel it when a frame has
        been going out for ``send_timeout`` or longer."""
        if task.done():
            return
        if self._sending is not None and loop.time() - self._sending >= self.send_timeout:
            log.info("connection %d: a frame took over %g s, disconnecting", self.id,
                     self.send_timeout)
            self._stalled = True
            task.cancel()
            return
        loop.call_later(self.send_timeout / 2, self._watch, loop, task)
