"""Run the game server with the browser client mounted, for the tests that drive Debian's
chromium (and the screenshots of docs/).

:class:`WebServerThread` is :class:`kawuxing.server.testing.ServerThread` serving
:func:`kawuxing.web.create_app`: the game server with the browser client, as ``kawuxing serve``
runs it.
"""

from __future__ import annotations

from kawuxing.server.testing import ServerThread
from kawuxing.web import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


class WebServerThread(ServerThread):
    """A :class:`ServerThread` serving the browser client too (``url`` is its address)."""

    def __init__(self, config, clock=None, port: int | None = None) -> None:
        super().__init__(config, clock, port, app=create_app(config, clock))
