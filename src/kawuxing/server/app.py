"""The FastAPI application of the game server: HTTP API, WebSocket endpoint, and the rooms'
lifetime — no browser client: :func:`kawuxing.web.create_app` (what ``kawuxing serve`` runs)
adds it on top, so the server never imports the web package.

:func:`create_app` opens the database on start (schema created, rooms in progress rebuilt by
replaying their records) and on shutdown closes every socket with 1012 (reconnect), stops the
rooms, finishes queued writes and closes the database. With ``config.redis_url`` it is one
process of a cluster (issue 17, :mod:`.cluster`): it rebuilds only the rooms whose leases it
wins, and gives them up on shutdown.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import time
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from .api import router
from .players_api import router as players_router
from .clock import Clock
from .config import ServerConfig
from .db import Store
from .errors import CLUSTER_UNAVAILABLE, RoomError, redis_errors, status_code_name
from .guard import BodyLimit, SecurityHeaders
from .identity import LoginFailures
from .looplag import LoopLag
from .manager import RoomManager
from .ratelimit import IpBuckets, SocketCount
from .ws import websocket_endpoint

log = logging.getLogger("kawuxing.server")
PARSE_FAILED = "There was an error parsing the body"  # FastAPI's 400 for a body json cannot read
# the code of a body field's validation error where it has one of its own (docs/protocol.md)
FIELD_CODES = {"entropy": "bad_entropy", "nickname": "bad_nickname"}


def create_app(config: ServerConfig, clock: Clock | None = None) -> FastAPI:
    """The app for ``config`` (``config.db_url`` must be an async SQLAlchemy URL; see
    :func:`kawuxing.server.config.normalize_db_url`). ``clock``: rooms' timers (tests).
    ``app.state.manager`` is the :class:`RoomManager` and ``app.state.loop`` its event loop
    once started; ``app.state.limits`` the per-IP buckets (``create``, ``join``, ``lookup``,
    ``login``),
    ``app.state.sockets`` the open WebSockets per IP, ``app.state.lag`` the event loop's lag
    (:class:`~kawuxing.server.looplag.LoopLag`).

    Every HTTP error is ``{"detail": {"code", "message"}}`` (422s add ``errors``: the
    fields, without echoing the input); request bodies over ``config.max_body_bytes`` are a
    413 before they are read; every response has the security headers of :mod:`.guard`. API
    docs: only ``/openapi.json``, and only with ``config.api_docs`` (no Swagger UI: it would
    load scripts from a CDN on the origin where seat tokens are kept)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.loop = asyncio.get_running_loop()
        store = await Store.open(config.db_url, config.db_schema, config.sqlite_synchronous,
                                 config.sqlite_busy_ms, config.wal_limit_bytes)
        manager = RoomManager(store, config, clock)
        app.state.manager = manager
        cluster = None
        if config.redis_url:  # one of several processes (issue 17): only its rooms
            from .cluster.limits import SharedBuckets, SharedLoginFailures, SharedSocketCount
            from .cluster.node import ClusterNode

            try:
                cluster = await ClusterNode.open(config.redis_url, manager, config.node_id,
                                                 config.node_url)
            except BaseException:
                await store.close()
                raise
            app.state.limits = {kind: SharedBuckets(kind, local, cluster.redis)
                                for kind, local in app.state.limits.items()}
            app.state.login_failures = SharedLoginFailures(app.state.login_failures,
                                                           cluster.redis)
            app.state.sockets = SharedSocketCount(
                app.state.sockets, cluster.redis, cluster.me,
                lambda: [n.get("me") for n in cluster.live])
            cluster.on_beat.append(app.state.sockets.sync)
        restored = await manager.restore()
        if restored:
            log.info("rebuilt %d room(s) from the database", restored)
        manager.start()
        if cluster is not None:
            cluster.start()
        # what exists now (modules, the app, restored rooms) lives as long as the server:
        # keep it out of the collector's full passes, which would otherwise stall play
        gc.collect()
        gc.freeze()
        collector = _Collector(config.gc_interval)
        app.state.lag.start()
        try:
            yield
        finally:
            app.state.lag.stop()
            collector.stop()
            if cluster is not None:
                await cluster.stop()
            await manager.shutdown()
            if cluster is not None:  # after the rooms: their last words go out first
                await cluster.close()
            await store.close()

    app = FastAPI(title="卡五星 Ka Wu Xing server", version="0.1.0", lifespan=lifespan,
                  description="Rooms, seats and replays over HTTP; play over the WebSocket "
                              "at /ws/{code} (docs/protocol.md).",
                  docs_url=None, redoc_url=None,
                  openapi_url="/openapi.json" if config.api_docs else None)
    app.state.limits = {"create": IpBuckets(config.create_rate, config.create_burst),
                        "join": IpBuckets(config.join_rate, config.join_burst),
                        "lookup": IpBuckets(config.lookup_rate, config.lookup_burst),
                        "login": IpBuckets(config.login_rate, config.login_burst)}
    app.state.login_failures = LoginFailures()  # failed sign-ins per name (issue 16)
    app.state.sockets = SocketCount(config.max_sockets_per_ip)
    app.state.lag = LoopLag()
    app.include_router(router)
    app.include_router(players_router)
    app.add_api_websocket_route("/ws/{code}", websocket_endpoint)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RoomError, _room_error)
    for error in redis_errors() if config.redis_url else ():
        app.add_exception_handler(error, _cluster_error)
    app.add_middleware(BodyLimit, max_bytes=config.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    return app


class _Collector:
    """The garbage collector's full passes on a timer (``interval`` seconds) rather than
    automatically: with hundreds of rooms one pass takes 100 ms and more, every few
    seconds under load (issue 13: a p99 of 100 ms at 300 rooms). The young generations are
    still collected as usual; garbage in cycles waits for the next timed pass. ``interval``
    0: Python's own thresholds are left alone. :meth:`stop` puts them back (once every
    server of the process has stopped)."""

    running = 0  # collectors in this process (servers in threads, tests)
    saved: tuple[int, ...] = ()  # the thresholds before the first

    def __init__(self, interval: float) -> None:
        self.task: asyncio.Task | None = None
        if interval > 0:
            if _Collector.running == 0:
                _Collector.saved = gc.get_threshold()
            _Collector.running += 1
            young, middle, _ = _Collector.saved
            gc.set_threshold(young, middle, 10**9)  # no automatic full pass
            self.task = asyncio.get_running_loop().create_task(self._run(interval),
                                                               name="kawuxing-gc")

    async def _run(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            started = time.perf_counter()
            found = gc.collect()
            log.info("full garbage collection: %d unreachable, %.0f ms", found,
                     1000 * (time.perf_counter() - started))

    def stop(self) -> None:
        """Stop; the last collector of the process puts the thresholds back."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
            _Collector.running -= 1
            if _Collector.running == 0:
                gc.set_threshold(*_Collector.saved)


def coded_response(status: int, detail: dict, headers: dict | None = None) -> Response:
    """``{"detail": detail}`` as ASCII JSON (so that no input can make it unencodable)."""
    body = json.dumps({"detail": detail}, default=str, ensure_ascii=True)
    return Response(body, status_code=status, media_type="application/json", headers=headers)


async def _validation_error(request, exc: RequestValidationError) -> Response:
    """422 ``invalid`` (``bad_json`` for a body that is not JSON, a field's own code of
    ``FIELD_CODES`` such as ``bad_entropy``) with the first problem as ``message`` and every
    problem's ``loc``, ``msg`` and ``type`` as ``errors`` — never the input (a lone surrogate,
    a NaN or a huge value echoed back could not be encoded)."""
    errors = [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")),
               "type": str(e.get("type", ""))} for e in exc.errors()[:20]]
    first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
    code = "bad_json" if any(e["type"] == "json_invalid" for e in errors) else \
        FIELD_CODES.get(str(first["loc"][-1]) if first["loc"] else "", "invalid")
    where = ".".join(str(p) for p in first["loc"][1:]) or "body"
    return coded_response(422, {"code": code, "message": f"{where}: {first['msg']}",
                                "errors": errors})


async def _http_error(request, exc: StarletteHTTPException) -> Response:
    """Any HTTP error in the one shape: a ``detail`` dict with a ``code`` is kept; a text
    detail becomes the message, with the status's code (422 ``bad_json`` for a body FastAPI
    could not parse: too deep, a number too long)."""
    detail = exc.detail
    if not (isinstance(detail, dict) and "code" in detail):
        message = detail if isinstance(detail, str) else str(detail)
        code = "bad_json" if exc.status_code == 400 and message == PARSE_FAILED \
            else status_code_name(exc.status_code)
        if code == "bad_json":  # 422 like any other body that is not JSON (_validation_error)
            message = "the body is not JSON this server reads (too deep, a number too long?)"
            return coded_response(422, {"code": code, "message": message})
        detail = {"code": code, "message": message}
    return coded_response(exc.status_code, detail, getattr(exc, "headers", None))


async def _room_error(request, exc: RoomError) -> Response:
    return coded_response(exc.status, exc.detail())


async def _cluster_error(request, exc: Exception) -> Response:
    """A request that needed the cluster's Redis while it does not answer (issue 17): 503
    ``cluster_unavailable`` with ``Retry-After``, one log line, no traceback."""
    log.warning("%s %s: the cluster's Redis does not answer (%r)", request.method,
                request.url.path, exc)
    return coded_response(503, {"code": CLUSTER_UNAVAILABLE,
                                "message": "the cluster's Redis does not answer; try again in "
                                           "a few seconds"}, {"Retry-After": "5"})
