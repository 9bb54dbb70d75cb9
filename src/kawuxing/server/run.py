"""Run the server under uvicorn (the ``kawuxing serve`` command and tests)."""

from __future__ import annotations

import gc
import logging

import uvicorn
from fastapi import FastAPI

from .app import create_app
from .config import ServerConfig
from .connection import SEND_TIMEOUT
from .slowclients import guarded_http, guarded_ws

# The youngest generation is collected after this many new container objects, not 700: a
# server under load makes a view's dicts and lists by the thousand a second, nearly all freed
# at once by their reference counts, and the default collected some 30 times a second —
# 2.7 s of CPU in a 40 s run at 500 rooms, 0.7 s with this (issue 34).
GC_YOUNG = 20_000


class ClientNoise(logging.Filter):
    """On ``uvicorn.error``: a record about what a client sent (uvicorn logs a text frame that
    is not UTF-8 with its traceback before closing the socket, 1007) becomes one warning
    line — nothing a client sends writes a traceback to the log (issue 13)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and "received from client" in str(record.msg):
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def uvicorn_config(config: ServerConfig, host: str, port: int, log_level: str = "info",
                   clock=None, app: FastAPI | None = None) -> uvicorn.Config:
    """A uvicorn config for ``app`` (default: :func:`create_app` of ``config`` and ``clock``,
    the server without the browser client): frame size limit ``config.ws_max_size`` (bigger
    frames close the socket with 1009), permessage-deflate only with ``config.ws_deflate``, pings every 20 s, a bounded graceful shutdown (SIGTERM
    and SIGINT: stop accepting, close sockets with 1012, finish writes); uvicorn's own log
    of a client's bad frame kept to one line (:class:`ClientNoise`); the request deadline and
    per-client connection cap of :mod:`.slowclients`, and its abort of a WebSocket whose peer
    has taken nothing for ``SEND_TIMEOUT`` seconds while the server's buffer was full;
    forwarded headers believed only from ``config.trusted_proxies`` (uvicorn's default
    believes 127.0.0.1)."""
    if app is None:
        app = create_app(config, clock)
    trusted = list(config.trusted_proxies)
    made = uvicorn.Config(app, host=host, port=port,
                          http=guarded_http(config.request_deadline, config.max_http_per_ip,
                                            config.trusted_proxies),
                          ws=guarded_ws(SEND_TIMEOUT),
                          proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None,
                          ws_max_size=config.ws_max_size,
                          ws_per_message_deflate=config.ws_deflate, ws_ping_interval=20.0,
                          ws_ping_timeout=20.0, timeout_graceful_shutdown=config.graceful_seconds,
                          log_level=log_level, lifespan="on", access_log=False)
    errors = logging.getLogger("uvicorn.error")  # configured by uvicorn.Config just now
    if not any(isinstance(f, ClientNoise) for f in errors.filters):
        errors.addFilter(ClientNoise())
    return made


def serve_forever(config: ServerConfig, host: str, port: int, log_level: str = "info",
                  app: FastAPI | None = None) -> None:
    """Serve ``app`` (default: the server of ``config`` without the browser client) until
    SIGTERM/SIGINT (uvicorn re-raises the signal once shut down, so the exit status is that
    of the signal). The server's own log lines go to stderr."""
    logging.basicConfig(level=getattr(logging, log_level.upper(), logging.INFO),
                        format="%(levelname)s:     %(name)s: %(message)s")
    server = uvicorn.Server(uvicorn_config(config, host, port, log_level, app=app))
    gc.collect()
    gc.freeze()  # what is loaded by now (modules, the app) lives as long as the process
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
    server.run()
