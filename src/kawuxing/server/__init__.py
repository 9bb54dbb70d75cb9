"""The game server (``kawuxing serve``): FastAPI + uvicorn, rooms of three seats, WebSocket
play (docs/protocol.md), persistence in SQLite or PostgreSQL through SQLAlchemy.

Modules: :mod:`.config` settings; :mod:`.app` the application; :mod:`.api` HTTP routes;
:mod:`.ws` the socket endpoint; :mod:`.protocol` messages; :mod:`.room` one room and its task;
:mod:`.manager` the rooms; :mod:`.match` a room's match; :mod:`.db` persistence;
:mod:`.connection` a socket's outbox; :mod:`.clock`, :mod:`.ratelimit`, :mod:`.tokens`
helpers; :mod:`.run` running uvicorn.
"""

from .app import create_app
from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
