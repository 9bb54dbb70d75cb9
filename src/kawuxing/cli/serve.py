"""``kawuxing serve``: run the game server (FastAPI on uvicorn).

``python -m kawuxing.cli serve ...`` runs the same code as the ``kawuxing serve`` command (the
tests and ``benchmarks/bench_server.py`` start the server so)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer


def serve(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port")] = 8000,
    db: Annotated[Optional[str], typer.Option("--db", help="database URL: sqlite:///FILE or postgresql+asyncpg://USER@HOST/DB (default: a SQLite file in the user data dir)")] = None,
) -> None:
    """Run the game server: rooms, WebSocket play, replays. Stops cleanly on Ctrl-C/SIGTERM.

    Settings can be tuned with environment variables KAWUXING_<SETTING> (e.g.
    KAWUXING_DECISION_SECONDS=30, KAWUXING_BOT_DELAY=0.3, KAWUXING_DB_SCHEMA=kawuxing)."""
    from ..server.config import ServerConfig
    from ..server.run import serve_forever
    from ..web import create_app

    try:
        config = ServerConfig.from_env(db)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    problem = _cannot_listen(host, port)
    if problem:
        typer.echo(f"error: cannot listen on {host}:{port}: {problem}", err=True)
        raise typer.Exit(2)
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    if ":" in shown:
        shown = f"[{shown}]"
    typer.echo(f"kawuxing server: open http://{shown}:{port}/  (API docs: http://{shown}:{port}/docs)")
    typer.echo(f"database: {_safe_url(config.db_url)}")
    serve_forever(config, host, port, app=create_app(config))  # server + browser table


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
    """The URL without a password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
