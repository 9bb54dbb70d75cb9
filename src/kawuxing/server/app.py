"""The FastAPI application of the game server: HTTP API, WebSocket endpoint, and the rooms'
lifetime — no browser client: :func:`kawuxing.web.create_app` (what ``kawuxing serve`` runs)
adds it on top, so the server never imports the web package.

:func:`create_app` opens the database on start (schema created, rooms in progress rebuilt by
replaying their records) and on shutdown closes every socket with 1012 (reconnect), stops the
rooms, finishes queued writes and closes the database.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response

from .api import router
from .clock import Clock
from .config import ServerConfig
from .db import Store
from .manager import RoomManager
from .ws import websocket_endpoint

log = logging.getLogger("kawuxing.server")


def create_app(config: ServerConfig, clock: Clock | None = None) -> FastAPI:
    """The app for ``config`` (``config.db_url`` must be an async SQLAlchemy URL; see
    :func:`kawuxing.server.config.normalize_db_url`). ``clock``: rooms' timers (tests).
    ``app.state.manager`` is the :class:`RoomManager` and ``app.state.loop`` its event loop
    once started."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.loop = asyncio.get_running_loop()
        store = await Store.open(config.db_url, config.db_schema, config.sqlite_synchronous,
                                 config.sqlite_busy_ms)
        manager = RoomManager(store, config, clock)
        app.state.manager = manager
        restored = await manager.restore()
        if restored:
            log.info("rebuilt %d room(s) from the database", restored)
        # what exists now (modules, the app, restored rooms) lives as long as the server:
        # keep it out of the collector's full passes, which would otherwise stall play
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            await manager.shutdown()
            await store.close()

    app = FastAPI(title="卡五星 Ka Wu Xing server", version="0.1.0", lifespan=lifespan,
                  description="Rooms, seats and replays over HTTP; play over the WebSocket "
                              "at /ws/{code} (docs/protocol.md).")
    app.include_router(router)
    app.add_api_websocket_route("/ws/{code}", websocket_endpoint)
    app.add_exception_handler(RequestValidationError, _validation_error)
    return app


async def _validation_error(request, exc: RequestValidationError) -> Response:
    """422 with the validation errors as ASCII JSON, so that input the default handler cannot
    encode (a lone surrogate echoed back) is still a clean 422, never a 500."""
    body = json.dumps({"detail": exc.errors()}, default=str, ensure_ascii=True)
    return Response(body, status_code=422, media_type="application/json")
