"""What stands between the network and the routes (issue 13): request bodies bounded before
they are read, security headers on every response, the WebSocket Origin check, the client IP.

- :class:`BodyLimit`: a request body over ``max_bytes`` is answered 413 (``too_large``)
  before any of it is parsed — from its ``Content-Length`` at once, else while it arrives.
- :class:`SecurityHeaders`: every HTTP response gets :data:`SECURITY_HEADERS` (a
  Content-Security-Policy without inline script — inline styles are allowed —,
  ``frame-ancestors 'none'``, no framing, no sniffing, no referrer).
- :func:`origin_allowed`: a browser's WebSocket is refused unless its ``Origin`` is the
  server's own (the ``Host`` it asked for) or listed (``--allow-origin``); clients that send
  no Origin (scripts, bots) connect.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# scripts only from this server's files (no inline script, no eval); inline styles are
# allowed (the client sets element styles and tests inject some: no script runs from them)
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


def error_body(code: str, message: str) -> bytes:
    """The one HTTP error body, ``{"detail": {"code", "message"}}``, as ASCII JSON."""
    return json.dumps({"detail": {"code": code, "message": message}}).encode()


async def send_error(send: Send, status: int, code: str, message: str,
                     headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """Answer an HTTP request with ``status`` and :func:`error_body` (connection closed)."""
    body = error_body(code, message)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *headers]})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """ASGI middleware: HTTP request bodies of at most ``max_bytes``. A larger declared
    ``Content-Length`` is answered 413 without reading; a body without one is read up to the
    limit (413 past it) and handed on whole. A malformed ``Content-Length`` is a 400."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.max_bytes <= 0:
            await self.app(scope, receive, send)
            return
        limit = self.max_bytes
        for name, value in scope["headers"]:
            if name == b"content-length":
                if not value.isdigit() or len(value) > 18:
                    await send_error(send, 400, "bad_request", "a bad Content-Length")
                    return
                if int(value) > limit:
                    await send_error(send, 413, "too_large",
                                     f"request bodies are at most {limit} bytes")
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await send_error(send, 413, "too_large",
                                 f"request bodies are at most {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replay: list[Message] = [{"type": "http.request", "body": b"".join(chunks),
                                  "more_body": False}]

        async def replayed() -> Message:
            return replay.pop() if replay else await receive()

        await self.app(scope, replayed, send)


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response (a header the app
    set itself is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [h for h in SECURITY_HEADERS if h[0] not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def _origin_key(origin: str) -> str | None:
    """``scheme://host[:port]`` of an origin, lower-cased (default ports dropped), or None."""
    try:
        parts = urlsplit(origin.strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not parts.scheme or not host:
        return None
    scheme = parts.scheme.lower()
    if ":" in host:  # IPv6
        host = f"[{host}]"
    if port is not None and (scheme, port) not in (("http", 80), ("https", 443)):
        return f"{scheme}://{host}:{port}"
    return f"{scheme}://{host}"


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str] = ()) -> bool:
    """May a WebSocket with this ``Origin`` header connect? Yes without one (not a browser),
    when its host and port are the ``Host`` the client asked for (the page came from this
    server), or when it is one of ``allowed`` (``scheme://host[:port]``). An ``Origin`` of
    ``null`` (a sandboxed page, a file) is refused unless listed as ``null``."""
    if origin is None:
        return True
    if origin.strip() == "null":
        return "null" in allowed
    key = _origin_key(origin)
    if key is None:
        return False
    if key in {_origin_key(a) for a in allowed if a != "null"}:
        return True
    if not host:
        return False
    own = urlsplit(key)  # default ports already dropped
    host = host.strip().lower()
    if own.port is None and own.scheme in ("http", "https"):
        default = 80 if own.scheme == "http" else 443
        return host in (own.netloc, f"{own.netloc}:{default}")
    return host == own.netloc


def client_ip(scope: Scope) -> str:
    """The client's IP address of an ASGI scope (``"?"`` when the server does not know it)."""
    client = scope.get("client")
    return client[0] if client else "?"


def client_key(ip: str) -> str:
    """The client a per-IP limit counts (issue 34): an IPv4 address as it is, an IPv6 one by
    its /64 (one subscriber's network: ``"2001:db8:1:2::/64"``), an IPv4-mapped IPv6 address
    as the IPv4 one; anything else (``"?"``, a Unix socket) as it is."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return ip


def limit_key(scope: Scope) -> str:
    """:func:`client_key` of the client of an ASGI scope: what the per-IP limits count."""
    return client_key(client_ip(scope))
