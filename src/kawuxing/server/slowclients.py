"""Slow and greedy clients at the socket (issue 34, F1): uvicorn closes an idle keep-alive
connection, but not one that never finishes its request, and counts no connections per
address, so one address holding half-sent requests could use up the process's open files.

:func:`guarded_http` makes uvicorn's HTTP protocol class (httptools', else h11's) with two
bounds, both settings of :class:`~kawuxing.server.config.ServerConfig`:

- ``request_deadline``: a request's headers and body must have arrived this many seconds
  after the connection opened or the answer to the request before it was sent; a
  connection whose request is still incomplete then is closed (an idle kept-alive one too,
  if uvicorn's own keep-alive timeout has not closed it first). A WebSocket handshake is a request and is held
  to the same deadline; once upgraded the socket is the game's (its own limits apply).
- ``max_http_per_ip``: open HTTP connections per client (an IPv4 address or an IPv6 /64,
  :func:`~kawuxing.server.guard.client_key`); one more is answered ``503`` with code
  ``too_many_connections`` and closed at once. 0: no cap. Upgraded WebSockets are not
  counted here (``max_sockets_per_ip`` caps them), nor are the connections of a trusted
  proxy (``trusted_proxies``: they carry many clients; the proxy bounds its own).

:func:`guarded_ws` makes uvicorn's WebSocket protocol class abort a socket whose peer has
taken nothing for a while with the server's buffer full (a graceful close would wait for ever).
"""

from __future__ import annotations

import asyncio
import ipaddress

from .guard import client_key, error_body

_REFUSAL = error_body("too_many_connections",
                      "too many open connections from this address; close some and retry")
REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
           b"content-length: " + str(len(_REFUSAL)).encode() + b"\r\nconnection: close\r\n"
           b"retry-after: 5\r\n\r\n" + _REFUSAL)


def _base() -> type:
    """uvicorn's HTTP protocol class that ``http="auto"`` would pick."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
        return HttpToolsProtocol
    except ImportError:  # httptools is not installed
        from uvicorn.protocols.http.h11_impl import H11Protocol
        return H11Protocol


def guarded_http(request_deadline: float, max_http_per_ip: int,
                 trusted_proxies: tuple[str, ...] = ()) -> type:
    """An HTTP protocol class for ``uvicorn.Config(http=...)`` with the two bounds of the
    module docstring; each call makes a class with its own count of open connections.
    ``trusted_proxies``: addresses or networks whose connections are not capped."""
    base = _base()
    open_by_key: dict[str, int] = {}
    proxies = [ipaddress.ip_network(p, strict=False) for p in trusted_proxies]

    def capped(ip: str) -> bool:
        if max_http_per_ip <= 0:
            return False
        try:
            address = ipaddress.ip_address(ip)
        except ValueError:
            return True
        return not any(address in net for net in proxies)

    class GuardedHTTP(base):  # type: ignore[misc, valid-type]
        """uvicorn's protocol with a request deadline and a per-client connection cap."""

        _key: str | None = None
        _timer: asyncio.TimerHandle | None = None
        _refused = False

        def connection_made(self, transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            ip = peer[0] if peer else "?"
            key = client_key(ip)
            if capped(ip) and open_by_key.get(key, 0) >= max_http_per_ip:
                self._refused = True
                transport.write(REFUSED)
                transport.close()
                return
            self._key = key
            open_by_key[key] = open_by_key.get(key, 0) + 1
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc) -> None:
            if self._refused:
                return
            self._disarm()
            self._forget()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._disarm()
            if not self.transport.is_closing():
                self._arm()  # the next request on a kept-alive connection

        def handle_websocket_upgrade(self, *args) -> None:
            self._disarm()
            self._forget()  # the socket is the WebSocket protocol's from now on
            super().handle_websocket_upgrade(*args)

        def _arm(self) -> None:
            self._timer = self.loop.call_later(request_deadline, self._expire, self.cycle)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _forget(self) -> None:
            key, self._key = self._key, None
            if key is not None:
                left = open_by_key.get(key, 0) - 1
                if left > 0:
                    open_by_key[key] = left
                else:
                    open_by_key.pop(key, None)

        def _expire(self, cycle_at_start) -> None:
            self._timer = None
            cycle = self.cycle
            if cycle is cycle_at_start and (cycle is None or cycle.response_complete):
                self.transport.close()  # no whole request head in time
            elif cycle is not None and cycle.more_body and not cycle.response_complete:
                self.transport.close()  # the body is still arriving
            # else the request arrived whole and is being answered: nothing to bound here

    GuardedHTTP.open_by_key = open_by_key  # for tests and /api/health-like checks
    return GuardedHTTP


def guarded_ws(stall_seconds: float) -> type:
    """A WebSocket protocol class for ``uvicorn.Config(ws=...)``: uvicorn's (websockets'
    sans-I/O one, what ``ws="auto"`` picks) whose socket is aborted when its writes have been
    paused for ``stall_seconds`` — the peer has taken nothing for that long while the server's
    buffer stayed full (asyncio's ``pause_writing``/``resume_writing``). A graceful close would
    wait for that buffer to empty, for ever when the peer never reads: the socket stayed
    open and its seat shown connected (issue 34, found by a test that stops reading). The
    abort ends the socket's handler as a disconnect does (its seat is detached). 0: never."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    class GuardedWS(WebSocketsSansIOProtocol):
        """uvicorn's WebSocket protocol, aborted after ``stall_seconds`` of paused writes."""

        _stall: asyncio.TimerHandle | None = None

        def pause_writing(self) -> None:
            super().pause_writing()
            if self._stall is None and stall_seconds > 0:
                self._stall = asyncio.get_running_loop().call_later(stall_seconds,
                                                                    self._stalled)

        def resume_writing(self) -> None:
            self._unarm()
            super().resume_writing()

        def connection_lost(self, exc) -> None:
            self._unarm()
            super().connection_lost(exc)

        def _unarm(self) -> None:
            if self._stall is not None:
                self._stall.cancel()
                self._stall = None

        def _stalled(self) -> None:
            self._stall = None
            self.transport.abort()  # (connection_lost follows: the handler sees a disconnect)

    return GuardedWS
