"""``kawuxing serve``: run the game server (FastAPI on uvicorn).

``python -m kawuxing.cli serve ...`` runs the same code as the ``kawuxing serve`` command (the
tests and ``benchmarks/bench_server.py`` start the server so)."""

from __future__ import annotations

import ipaddress
from typing import Annotated, List, Optional

import typer


def serve(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port")] = 8000,
    db: Annotated[Optional[str], typer.Option("--db", help="database URL: sqlite:///FILE or postgresql+asyncpg://USER@HOST/DB (default: a SQLite file in the user data dir)")] = None,
    api_docs: Annotated[bool, typer.Option("--api-docs", help="serve the API schema at /openapi.json (off by default; no Swagger UI is served)")] = False,
    allow_origin: Annotated[Optional[List[str]], typer.Option("--allow-origin", help="a web origin besides this server's own whose pages may open game WebSockets, e.g. https://play.example.org (repeatable)")] = None,
    redis: Annotated[Optional[str], typer.Option("--redis", help="one of several server processes on one PostgreSQL --db: the Redis holding room leases, presence and the channels between them, e.g. redis://127.0.0.1:6379/0 (env KAWUXING_REDIS; docs/deploy.md)")] = None,
    trusted_proxy: Annotated[Optional[List[str]], typer.Option("--trusted-proxy", help="the address (or network) of a reverse proxy whose X-Forwarded-For is believed (repeatable; env KAWUXING_TRUSTED_PROXIES; none by default)")] = None,
    node_id: Annotated[Optional[str], typer.Option("--node-id", help="this process's name in a cluster (env KAWUXING_NODE_ID; default hostname-pid)")] = None,
) -> None:
    """Run the game server: rooms, WebSocket play, replays. Stops cleanly on Ctrl-C/SIGTERM.

    Settings: environment variables KAWUXING_<SETTING>, e.g.
    KAWUXING_DECISION_SECONDS=30, KAWUXING_BOT_DELAY=0.3,
    KAWUXING_DB_SCHEMA=kawuxing, KAWUXING_CREATE_RATE=0 (no room-creation limit).
    A server that cannot start (port in use, a database it cannot open)
    prints one error line and exits with 2."""
    from dataclasses import replace

    from ..server.config import ServerConfig, default_node_id
    from ..server.run import serve_forever
    from ..web import create_app

    try:
        config = ServerConfig.from_env(db)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    origins = tuple(config.allow_origins) + tuple(o.strip().rstrip("/")
                                                  for o in allow_origin or ())
    proxies = tuple(config.trusted_proxies) + tuple(p.strip() for p in trusted_proxy or ())
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            typer.echo(f"error: --trusted-proxy {proxy!r}: an IP address or network, e.g. "
                       "127.0.0.1 or 10.0.0.0/8", err=True)
            raise typer.Exit(2)
    config = replace(config, api_docs=api_docs or config.api_docs, allow_origins=origins,
                     trusted_proxies=proxies,
                     redis_url=redis or config.redis_url,
                     node_id=node_id or config.node_id or default_node_id())
    problem = _cluster_problem(config)
    if problem:
        typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(2)
    problem = _cannot_listen(host, port)
    if problem:
        typer.echo(f"error: cannot listen on {host}:{port}: {problem}", err=True)
        raise typer.Exit(2)
    problem = _cannot_open(config)
    if problem:
        typer.echo(f"error: cannot open the database {_safe_url(config.db_url)}: {problem}",
                   err=True)
        raise typer.Exit(2)
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    if ":" in shown:
        shown = f"[{shown}]"
    docs = f"  (API schema: http://{shown}:{port}/openapi.json)" if config.api_docs else ""
    typer.echo(f"kawuxing server: open http://{shown}:{port}/{docs}")
    typer.echo(f"database: {_safe_url(config.db_url)}")
    if config.redis_url:
        config = replace(config, node_url=f"http://{shown}:{port}")
        typer.echo(f"cluster: node {config.node_id} on "
                   f"{_safe_url(config.redis_url)}")
    serve_forever(config, host, port, app=create_app(config))  # server + browser table


def _cluster_problem(config) -> str | None:
    """Why ``config``'s cluster settings cannot work (issue 17), or None: ``--redis`` needs a
    PostgreSQL ``--db`` (the processes share it), the ``redis`` package, a valid node id
    that no live process of the cluster uses, and a Redis that answers."""
    if not config.redis_url:
        return None
    from ..server.cluster.presence import node_id_problem, node_in_use

    if not config.db_url.startswith("postgresql"):
        return ("--redis: a cluster needs a shared PostgreSQL database "
                "(--db postgresql+asyncpg://USER@HOST/DB), not SQLite")
    problem = node_id_problem(config.node_id)
    if problem:
        return problem
    try:
        import redis
    except ImportError:
        return "--redis: the redis package is missing (pip install 'kawuxing[cluster]')"
    try:
        client = redis.Redis.from_url(config.redis_url, socket_connect_timeout=5)
        try:
            client.ping()
            in_use = node_in_use(client, config.node_id)
        finally:
            client.close()
    except Exception as exc:  # a bad URL, nobody listening
        return f"--redis {_safe_url(config.redis_url)}: {str(exc).strip()[:300] or type(exc).__name__}"
    if in_use:
        return (f"--node-id {config.node_id}: a live process of this cluster already runs "
                "under that id; give each process its own")
    return None


def _cannot_open(config) -> str | None:
    """Why the database of ``config`` cannot be opened (a missing folder, no permission, a
    newer schema, a server that does not answer), or None: the schema is made, as the
    server would on start, before anything is printed."""
    import asyncio

    from ..server.db import Store

    async def probe() -> None:
        try:
            store = await Store.open(config.db_url, config.db_schema, config.sqlite_synchronous,
                                     config.sqlite_busy_ms)
        except Exception:
            # a failed aiosqlite connection answers from its worker thread a moment later:
            # let it find the loop still open (else it prints a traceback on the way out)
            await asyncio.sleep(0.2)
            raise
        await store.close()

    try:
        asyncio.run(asyncio.wait_for(probe(), 30))
    except Exception as exc:
        cause = getattr(exc, "orig", None) or exc
        text = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
        return text[:300]
    return None


def _cannot_listen(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be bound (port in use, unknown address), or None. Checked before
    the database is opened, so a second server never plays a shared database's rooms."""
    import socket

    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def _safe_url(url: str) -> str:
    """``url`` with its password shown as ``***`` (any scheme; a string that is no URL comes
    back as it is)."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rsplit("@", 1)[1]
        return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))
    except ValueError:
        return url
