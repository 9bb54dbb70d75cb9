"""A bot program playing a seat of the game server (``kawuxing connect``).

The bridge is an ordinary WebSocket client of one seat (docs/protocol.md: ``hello`` with the
seat's token, then ``update``/``sync`` messages, ``action`` answers) and speaks the bot
protocol (docs/bot-protocol.md) to the program on its stdio. Everything it tells the program
is made by :mod:`.messages` from what the server sent this seat — its own filtered events and
view (R13) — so the program learns no more than the seat's player would.

- A new hand number: ``start_hand`` (seat, hand, the room's rules, the totals), then the
  hand's events as they come (each once, by its ``n``).
- A view with legal actions not asked yet (hand and version): a ``request``; the answer is
  checked against the view's legal actions before anything is sent. A lone ``pass`` (no
  option on the tile on the table, R13.2) is not asked: the server passes for the seat, as
  the arena does (the program sees the events).
- The hand over: ``end_hand`` (the view's result), and ``ready`` to the server;
  ``match_end``: ``bye`` with the totals, and the bridge returns them.

A program that fails (not a legal answer, too slow, gone) is told why (``error``) and the
bridge stops with :class:`~.process.BotError`; nothing was sent for that decision, and the
server treats the seat as it treats a player who left (its timers, then 托管).
"""

from __future__ import annotations

import json
import secrets
from typing import Any, Callable
from urllib.parse import urlsplit, urlunsplit

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from ..engine.actions import PASS, action_from_json
from . import messages
from .process import BotError
from .seat import Pipe, check_unasked

RACES = ("stale", "out_of_turn", "not_playing")  # refusals of an answer overtaken by events


class BridgeError(RuntimeError):
    """The server refused the seat (bad token, no room), closed the connection, or refused
    an action for another reason than a race (:data:`RACES`)."""


def ws_url(server: str, room: str) -> str:
    """The WebSocket address of ``room`` on ``server`` (``http://HOST:PORT``, ``https://…``
    or ``ws://…``): ``ws://HOST:PORT/ws/ROOM``. Raises ``ValueError`` for another scheme or
    a bad room code."""
    parts = urlsplit(server)
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise ValueError(f"server {server!r}: write http://HOST:PORT")
    if not room.isalnum():
        raise ValueError(f"room {room!r}: a room code is letters and digits")
    return urlunsplit((scheme, parts.netloc, f"{parts.path.rstrip('/')}/ws/{room}", "", ""))


class Bridge:
    """The program behind ``bot`` (a :class:`~.seat.Pipe`, e.g. a
    :class:`~.process.BotProcess`) plays the seat of ``token`` at ``url`` (:func:`ws_url`),
    ``timeout`` seconds per decision. :meth:`run` plays to the end of the match."""

    def __init__(self, url: str, token: str, bot: Pipe, timeout: float,
                 name: str = "bot") -> None:
        self.url, self.token, self.bot, self.timeout, self.name = url, token, bot, timeout, name
        self.seat: int | None = None
        self.rules: dict = {}
        self.hand: int | None = None
        self.last_event = -1
        self.ended = False
        self.asked: tuple[int, int] | None = None
        self.requests = 0
        self.prefix = secrets.token_hex(4)  # action ids stay unique across bridge runs
        self.ws: Any = None

    def _tell(self, message: dict) -> None:
        self.bot.send(messages.dumps(message))

    def _send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def run(self, on_welcome: Callable[[dict], None] | None = None) -> list[int]:
        """Connect, play every decision of the seat, return the match totals (base units)
        at ``match_end``. ``on_welcome(welcome)`` is called once the seat is taken. Raises
        :class:`BridgeError` (server side) or :class:`~.process.BotError` (the program)."""
        try:
            with connect(self.url, open_timeout=10, max_size=2**22) as self.ws:
                self._send({"type": "hello", "token": self.token})
                welcome = self._receive()
                if welcome["type"] != "welcome":
                    raise BridgeError(f"the server did not take the token: {welcome}")
                self.seat, self.rules = welcome["seat"], welcome["rules"]
                if on_welcome:
                    on_welcome(welcome)
                self._tell(messages.hello())
                while True:
                    message = self._receive()
                    kind = message["type"]
                    if kind in ("update", "sync", "missed"):
                        self._update(message)
                    elif kind == "match_end":
                        self._tell(messages.bye(message["totals"]))
                        return message["totals"]
                    elif kind == "refused" and message["code"] not in RACES:
                        raise BridgeError(f"the server refused action {message['id']}: "
                                          f"{message['code']} ({message['reason']})")
                    elif kind in ("error", "replaced", "left"):
                        raise BridgeError(f"the server sent {kind}: "
                                          f"{message.get('message', '')}".rstrip(": "))
        except ConnectionClosed as exc:
            raise BridgeError(f"the server closed the connection ({exc})") from None
        except OSError as exc:
            raise BridgeError(f"cannot connect to {self.url}: {exc}") from None

    def _receive(self) -> dict:
        return json.loads(self.ws.recv())

    def _update(self, message: dict) -> None:
        """Tell the program what is new in ``message`` (an update, sync or missed), ask it
        when the seat has a decision it was not asked yet, and send its answer."""
        number, view = message["hand"], message["view"]
        if number != self.hand:
            self.hand, self.last_event, self.ended = number, -1, False
            self._tell(messages.start_hand(self.seat, number, self.rules,
                                              message.get("totals", [0, 0, 0])))
        for event in message["events"]:
            if event["n"] > self.last_event:
                self._tell(event)
                self.last_event = event["n"]
        if view["phase"] == "ended":
            if not self.ended:
                self.ended = True
                self._tell(messages.end_hand(view, message.get("totals", [0, 0, 0])))
                self._send({"type": "ready"})
            return
        version = message.get("version")
        if not view["legal"] or version is None or (number, version) == self.asked:
            return
        self.asked = (number, version)
        legal = [action_from_json(a) for a in view["legal"]]
        if [a.verb for a in legal] == [PASS]:
            return  # no option: the server passes for the seat (R13.2), unasked
        self.requests += 1
        try:
            check_unasked(self.bot)
            self._tell(messages.request(self.requests, view, legal))
            action = messages.read_reply(self.bot.receive(self.timeout), legal, self.requests)
        except (BotError, messages.ReplyError) as exc:
            problem = (f"bot {self.name!r}, seat {self.seat}, hand {number}, request "
                       f"{self.requests} ({view['phase']}): {exc}")
            self._tell(messages.error(problem))
            raise BotError(problem) from None
        self._send({"type": "action", "id": f"{self.prefix}-{self.requests}",
                    "version": version, "action": action.to_json()})
