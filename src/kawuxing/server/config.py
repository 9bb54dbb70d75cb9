"""Server settings: where the database is, how long a player may think, how fast bots play.

:class:`ServerConfig` is what :func:`kawuxing.server.app.create_app` takes. The command line
(``kawuxing serve``) builds one from its options and :meth:`ServerConfig.from_env`; tests build
one with fast timers.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, fields, replace
from pathlib import Path

DEFAULT_PORT = 8000


def default_db_url() -> str:
    """The SQLite file under the user data dir (platformdirs), e.g.
    ``sqlite+aiosqlite:////root/.local/share/kawuxing/kawuxing.sqlite3``; the folder is made."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("kawuxing", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'kawuxing.sqlite3'}"


def normalize_db_url(url: str | None) -> str:
    """An async SQLAlchemy URL from what a user types: ``None`` is the default SQLite file;
    ``sqlite:///path`` becomes ``sqlite+aiosqlite:///path``; ``postgresql://…`` and
    ``postgres://…`` become ``postgresql+asyncpg://…``. Raises ``ValueError`` for other
    schemes (only SQLite and PostgreSQL are supported)."""
    if url is None or not url.strip():
        return default_db_url()
    url = url.strip()
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"--db {url!r}: expected a URL such as sqlite:///games.db or "
                         "postgresql+asyncpg://user@host/db")
    base = scheme.split("+", 1)[0]
    if base == "sqlite":
        return f"sqlite+aiosqlite://{rest}"
    if base in ("postgresql", "postgres"):
        return f"postgresql+asyncpg://{rest}"
    raise ValueError(f"--db {url!r}: only sqlite and postgresql databases are supported")


def default_node_id() -> str:
    """``hostname-pid``: a process's node id when none is given (``/api/health``)."""
    return f"{socket.gethostname()}-{os.getpid()}"


@dataclass(frozen=True)
class ServerConfig:
    """Every setting of the server (seconds unless said).

    - ``db_url``: async SQLAlchemy URL (see :func:`normalize_db_url`); ``db_schema``: a
      PostgreSQL schema to keep the tables in (made if missing; tests use a fresh one);
      ``sqlite_synchronous``: ``FULL`` (default: an fsync per commit, a stored action
      survives the machine crashing) or ``NORMAL`` (survives the process dying; faster under
      I/O load), see :meth:`kawuxing.server.db.Store.open`.
    - Decisions: ``decision_seconds`` per decision and ``reserve_seconds`` of extra time per
      hand are room defaults; a room may choose within ``min_decision_seconds``..600.
      ``auto_after`` consecutive timeouts hand the seat to a bot (托管) until the player acts;
      ``drop_grace``: seconds after which a player whose connection dropped during the match
      is played by 托管 until they reconnect (KAWUXING_DROP_GRACE); ``join_grace``: seconds a
      player who has just taken a seat is shown as joining (``arriving``), not offline, while
      their page connects on a slow line (KAWUXING_JOIN_GRACE, issue 35).
    - ``bot_delay``: pause before a bot acts (so people can follow), varied by up to
      ``bot_jitter`` of itself either way (0.4: 0.36-0.84 s for 0.6 s; 0: always
      ``bot_delay``; clamped to 0-1), drawn the same way whatever the bot could do, R13.2;
      ``hand_pause``: the countdown between hands (KAWUXING_HAND_PAUSE): the next hand is
      dealt when it ends, or sooner once every seat is ready (a player's ``ready``; bots,
      托管 and dropped seats are ready at once; :meth:`kawuxing.server.pacing.Pacer.ready`).
    - Social play: a seat sends at most ``chat_burst`` quick phrases or emotes at once, then
      one per ``1 / chat_rate`` seconds (KAWUXING_CHAT_RATE, 0 turns chat off;
      KAWUXING_CHAT_BURST); at most ``max_spectators`` spectators (旁观) watch a room (0:
      none may, KAWUXING_MAX_SPECTATORS).
    - ``claim_window``: the minimum length, in seconds, of the claim window that follows
      every discard (and every added kong that could be robbed) in a room with players
      (R13.2): bots answer and seats without an option are passed for when it is over, and
      no answer closes it earlier, so its length is the same whoever could claim.
    - Sockets: ``max_message_bytes`` (larger text frames are refused with an error),
      ``ws_max_size`` (larger frames close the socket, 1009), token bucket ``rate``/``burst``
      (messages per second), ``max_strikes`` refused-for-rate messages before closing (1008),
      ``hello_timeout``, ``send_queue`` (a client this far behind is disconnected).
      ``ws_deflate`` (KAWUXING_WS_DEFLATE, 1/0): offer permessage-deflate compression; off
      by default — the messages are small (a view is about 1 KB) and compressing each one cost
      the server about 6 % of its CPU under load (issue 17), for the clients as well.
    - ``allow_test_walls``: rooms may be created with given walls (tests only; never from the
      command line: a known wall is a known game).
    - ``unload_after``: seconds a finished room stays in memory.
    - Storage (:meth:`kawuxing.server.room.Room.play`): a write that fails is tried again
      ``store_retries`` times, after ``store_backoff`` seconds, doubled each time; a bot or
      timer move that still could not be stored is tried again after ``stalled_retry``
      seconds (doubled up to 30 s while it keeps failing), and the players are told.
      ``sqlite_busy_ms``: how long SQLite waits for a lock before a write fails;
      ``wal_limit_bytes``: the writer truncates the WAL (checkpoint TRUNCATE) between
      batches once it is this large, or when idle (SQLite).
    - HTTP: ``max_body_bytes`` (a larger request body is answered 413 before it is read);
      per client IP token buckets (per second / at most saved; rate 0 turns one off):
      ``create_rate``/``create_burst`` (rooms made), ``join_rate``/``join_burst`` (joins,
      leaves, seats to bots), ``lookup_rate``/``lookup_burst`` (room and replay reads),
      ``login_rate``/``login_burst`` (player logins and password changes, issue 16);
      ``max_sockets_per_ip`` open WebSockets per IP (0: no cap); ``max_bot_rooms_per_ip``
      all-bot matches being played per IP (they play at full speed: 0, no cap). ``allow_origins``: browser
      origins besides the server's own that may open a WebSocket (``--allow-origin``);
      ``api_docs``: serve ``/openapi.json`` (``--api-docs``; off by default).
    - Slow clients and proxies (issue 34, :mod:`kawuxing.server.slowclients`):
      ``request_deadline`` seconds for a request's headers and body to arrive (a WebSocket
      handshake included); ``max_http_per_ip`` open HTTP connections per client (0: no
      cap). Per-IP limits count an IPv6 client by its /64. ``trusted_proxies``: addresses
      whose ``X-Forwarded-For`` / ``X-Forwarded-Proto`` are believed (``--trusted-proxy``,
      KAWUXING_TRUSTED_PROXIES, comma-separated; none by default: the socket's peer is the
      client, and a forwarded header from anyone else changes nothing).
    - Expiry: a room that waits ``waiting_expiry`` seconds without starting, or whose match
      has had no player connected for ``abandoned_expiry`` seconds, is closed (stored as
      ``expired``, not rebuilt on start); checked every ``expiry_check`` seconds.
    - ``gc_interval``: the collector's full passes (which stop play for 100 ms and more with
      hundreds of rooms) run only every this many seconds, not whenever the young
      generations fill up; 0 leaves Python's defaults.
    - Cluster (issue 17, docs/deploy.md): ``redis_url`` (``--redis``, KAWUXING_REDIS), None: a
      single process, no Redis; else one of several processes on one PostgreSQL database
      (:mod:`kawuxing.server.cluster`). ``node_id`` (``--node-id``, KAWUXING_NODE_ID; default
      ``hostname-pid``), ``node_url``: where this process serves (shown in
      ``/api/health``).
    """

    db_url: str = ""
    db_schema: str | None = None
    sqlite_synchronous: str = "FULL"
    decision_seconds: float = 20.0
    reserve_seconds: float = 30.0
    min_decision_seconds: float = 3.0
    auto_after: int = 2
    drop_grace: float = 10.0
    join_grace: float = 30.0
    bot_delay: float = 0.6
    bot_jitter: float = 0.4
    claim_window: float = 0.6
    hand_pause: float = 15.0
    chat_rate: float = 0.5
    chat_burst: float = 3.0
    max_spectators: int = 30
    max_message_bytes: int = 4096
    ws_max_size: int = 65536
    ws_deflate: bool = False
    rate: float = 10.0
    burst: float = 30.0
    max_strikes: int = 50
    hello_timeout: float = 15.0
    send_queue: int = 512
    allow_test_walls: bool = False
    unload_after: float = 300.0
    graceful_seconds: float = 5.0
    sqlite_busy_ms: int = 5000
    store_retries: int = 3
    store_backoff: float = 0.2
    stalled_retry: float = 2.0
    wal_limit_bytes: int = 4 * 2**20
    max_body_bytes: int = 65536
    create_rate: float = 1.0
    create_burst: float = 60.0
    join_rate: float = 2.0
    join_burst: float = 120.0
    lookup_rate: float = 5.0
    lookup_burst: float = 300.0
    login_rate: float = 0.1  # a login every 10 s, after 10 in a row
    login_burst: float = 10.0
    max_sockets_per_ip: int = 64
    max_bot_rooms_per_ip: int = 4
    allow_origins: tuple[str, ...] = ()
    request_deadline: float = 10.0
    max_http_per_ip: int = 32
    trusted_proxies: tuple[str, ...] = ()
    api_docs: bool = False
    waiting_expiry: float = 1800.0
    abandoned_expiry: float = 1800.0
    expiry_check: float = 60.0
    gc_interval: float = 300.0
    redis_url: str | None = None
    node_id: str | None = None
    node_url: str | None = None

    @classmethod
    def from_env(cls, db: str | None = None, environ: dict | None = None) -> ServerConfig:
        """Defaults, then ``KAWUXING_<FIELD>`` environment variables for the numeric settings,
        ``KAWUXING_DB_SCHEMA``, ``KAWUXING_API_DOCS`` and ``KAWUXING_WS_DEFLATE`` (1/0), ``KAWUXING_ALLOW_ORIGINS``
        (comma-separated), ``KAWUXING_REDIS`` and ``KAWUXING_NODE_ID`` (issue 17) (e.g. ``KAWUXING_BOT_DELAY=0``), with ``db`` normalized. Raises
        ``ValueError`` for a value that is not a number."""
        env = os.environ if environ is None else environ
        config = cls(db_url=normalize_db_url(db))
        changes: dict = {}
        for name, var in (("redis_url", "KAWUXING_REDIS"), ("node_id", "KAWUXING_NODE_ID")):
            if (env.get(var) or "").strip():
                changes[name] = env[var].strip()
        for f in fields(cls):
            raw = env.get(f"KAWUXING_{f.name.upper()}")
            if raw is None or f.name in ("db_url", "allow_test_walls", "redis_url", "node_id",
                                         "node_url"):
                continue
            if f.name == "db_schema":
                changes[f.name] = raw or None
                continue
            if f.name in ("allow_origins", "trusted_proxies"):
                changes[f.name] = tuple(o.strip() for o in raw.split(",") if o.strip())
                continue
            if f.name in ("api_docs", "ws_deflate"):
                changes[f.name] = raw.strip().lower() in ("1", "true", "yes", "on")
                continue
            if f.name == "sqlite_synchronous":
                if raw.upper() not in ("NORMAL", "FULL", "EXTRA"):
                    raise ValueError(f"KAWUXING_SQLITE_SYNCHRONOUS={raw!r}: NORMAL or FULL")
                changes[f.name] = raw.upper()
                continue
            try:
                number = float(raw)
                changes[f.name] = int(number) if isinstance(getattr(config, f.name), int) \
                    else number
            except ValueError:
                raise ValueError(f"KAWUXING_{f.name.upper()}={raw!r}: not a number") from None
        return replace(config, **changes)
