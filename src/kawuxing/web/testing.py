"""Run the game server with the browser client mounted (tests, screenshots, local tries).

:class:`WebServerThread` is :class:`kawuxing.server.testing.ServerThread` whose app also has
:func:`kawuxing.web.mount_web`, so the client can be tested before (and after) the server's
own :func:`~kawuxing.server.app.create_app` mounts it.
"""

from __future__ import annotations

from ..server.testing import ServerThread
from . import mount_web

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


class WebServerThread(ServerThread):
    """A :class:`ServerThread` serving the browser client too (``url`` is its address)."""

    def __init__(self, config, clock=None, port: int | None = None) -> None:
        super().__init__(config, clock, port)
        mount_web(self.server.config.app)
