"""``kawuxing connect``: a bot program plays a seat of a room of the game server, over the bot
protocol (docs/bot-protocol.md; :mod:`kawuxing.botproto.bridge`)."""

from __future__ import annotations

from typing import Annotated

import typer

from ..botproto import BotError, BotProcess
from ..botproto.bridge import Bridge, BridgeError, ws_url
from ..botproto.process import parse_command
from ..botproto.seat import DEFAULT_TIMEOUT
from .common import err, fail, out


def connect(
    room: Annotated[str, typer.Option("--room", help="the room code")],
    token: Annotated[str, typer.Option("--token", envvar="KAWUXING_TOKEN", help="the seat's token (POST /api/rooms with an \"external\" seat returns it); or KAWUXING_TOKEN")],
    bot: Annotated[str, typer.Option("--bot", help="the bot's command, e.g. \"node examples/bot.js\"")],
    server: Annotated[str, typer.Option("--server", help="the server's address")] = "http://127.0.0.1:8000",
    timeout: Annotated[float, typer.Option("--timeout", help="seconds the bot may take per decision")] = DEFAULT_TIMEOUT,
    bot_stderr: Annotated[bool, typer.Option("--bot-stderr", help="show the bot's stderr as it writes (else kept to quote when it fails)")] = False,
) -> None:
    """Play the seat of TOKEN in ROOM with a bot program speaking the JSON-lines bot protocol
    on stdin/stdout, to the end of the match: the bridge is the seat's WebSocket client and
    tells the program only what the seat is sent. Prints the match totals (exit 0). A bot
    that fails (not a legal answer, too slow, gone) or a server that refuses the seat: one
    ``error:`` line, exit 2 (the server then plays the seat as one a player left)."""
    try:
        url = ws_url(server, room)
        if not timeout > 0:
            raise ValueError("--timeout must be above 0 seconds")
        try:
            parse_command(bot)
        except ValueError as exc:
            hint = (" (write the program and its arguments, e.g. --bot \"node examples/bot.js\")"
                    if str(exc).endswith("empty") else "")
            raise ValueError(f"--bot: {exc}{hint}") from None
    except ValueError as exc:
        fail(str(exc))
    try:
        program = BotProcess(bot, bot_stderr)
    except BotError as exc:
        fail(str(exc))
    try:
        totals = Bridge(url, token, program, timeout, bot).run(
            lambda w: err.print(f"room {w['room']}: playing seat {w['seat']}",
                                highlight=False))
    except (BotError, BridgeError) as exc:
        fail(str(exc))
    finally:
        program.close()
    out.print(f"match over: totals {' '.join(f'{t:+d}' for t in totals)}", highlight=False)
