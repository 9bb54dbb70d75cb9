"""The game server (``kawuxing serve``): FastAPI + uvicorn, rooms of three seats, WebSocket
play (docs/protocol.md), persistence in SQLite or PostgreSQL through SQLAlchemy. It never
imports :mod:`kawuxing.web`: the web package composes the app with the browser client.

Modules, from the outside in:

- :mod:`.app` the application (no client), :mod:`.run` uvicorn, :mod:`.config` settings;
- :mod:`.api` HTTP routes, :mod:`.ws` the socket endpoint, :mod:`.connection` a socket's
  outbox, :mod:`.ratelimit` flood control;
- :mod:`.protocol` every message in both directions (client models, server builders);
- :mod:`.manager` the rooms; :mod:`.room` one room: validate → apply → store → broadcast,
  run by :mod:`.actor` (its command queue), with its parts :mod:`.seats` (seats, tokens,
  connections; :mod:`.tokens`), :mod:`.pacing` (timers, bots, 托管, the R13.2 claim window),
  :mod:`.sending` (what each seat is sent, R13), :mod:`.fairdeal` (commitments and entropy,
  R3.1) and :mod:`.seeds` (the server's randomness); :mod:`.errors` the refusal;
- :mod:`.db` the store, :mod:`.schema` its tables, :mod:`.writer` the group-commit writer,
  :mod:`.rows` what a room stores and is rebuilt from;
- :mod:`.clock` time for rooms (a manual clock in tests); :mod:`.testing` helpers to drive
  a real server.
"""

from .app import create_app
from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
