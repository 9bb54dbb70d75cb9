"""The browser table of ``kawuxing serve``: a static client (index.html, CSS, plain ES modules,
no build step) and the app that serves it with the game server.

:func:`create_app` composes the application ``kawuxing serve`` runs: the game server's app
(:func:`kawuxing.server.app.create_app`) with the client mounted by :func:`mount_web`, which
serves ``static/index.html`` at ``/`` and the files of ``static/`` under ``/static``. The web
package uses the server; the server never imports it. The client speaks only the public
protocol: the HTTP API (``/api/...``) and the WebSocket at ``/ws/{code}`` (docs/protocol.md).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.routing import Route
from starlette.types import Scope

from ..server.app import create_app as create_server_app
from ..server.clock import Clock
from ..server.config import ServerConfig

STATIC_DIR = Path(__file__).resolve().parent / "static"
INDEX = STATIC_DIR / "index.html"

__all__ = ["STATIC_DIR", "create_app", "mount_web"]


def create_app(config: ServerConfig, clock: Clock | None = None) -> FastAPI:
    """The game server of ``config`` (:func:`kawuxing.server.app.create_app`; ``clock``: the
    rooms' timers, for tests) with the browser client at ``/`` and ``/static``."""
    return mount_web(create_server_app(config, clock))


class _RevalidatedStatic(StaticFiles):
    """Static files that browsers revalidate on each load (ETag / Last-Modified make that a
    cheap 304), so a new version of the client is picked up without a build step or hashed
    names."""

    async def get_response(self, path: str, scope: Scope):
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


async def _index() -> HTMLResponse:
    return HTMLResponse(INDEX.read_text("utf-8"), headers={"Cache-Control": "no-cache"})


async def _service_worker() -> Response:
    """``/sw.js``: the client's service worker (static/sw.js), served at the root so that its
    scope is the whole site (a worker under /static/ could only serve /static/)."""
    return Response((STATIC_DIR / "sw.js").read_bytes(), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})


def mount_web(app: FastAPI) -> FastAPI:
    """Serve the browser client on ``app``: ``GET /`` is the client's page (any earlier ``/``
    route is removed), ``/static/...`` its files (the web app manifest among them) and
    ``/sw.js`` its service worker.
    Calling it twice is harmless. Returns ``app``."""
    if getattr(app.state, "web_mounted", False):
        return app
    # drop an earlier "/" route, and put ours first: routes match in order, and FastAPI may
    # keep an included router's routes inside one entry
    app.router.routes[:] = [r for r in app.router.routes
                            if not (isinstance(r, Route) and r.path == "/")]
    app.add_api_route("/", _index, methods=["GET", "HEAD"], include_in_schema=False,
                      response_class=HTMLResponse)
    app.router.routes.insert(0, app.router.routes.pop())
    app.add_api_route("/sw.js", _service_worker, methods=["GET", "HEAD"], include_in_schema=False)
    app.mount("/static", _RevalidatedStatic(directory=STATIC_DIR), name="static")
    app.state.web_mounted = True
    return app
