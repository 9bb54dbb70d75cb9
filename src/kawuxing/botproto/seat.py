"""A seat played by an outside program over stdio (``cmd:COMMAND`` bots of ``kawuxing arena``).

:class:`CommandBot` plays one seat of one hand after another through one long-lived
:class:`~.process.BotProcess` (or any pipe with ``send``/``receive``/``close``): before each
decision it sends the seat's events it has not sent yet (``events_for_seat``, R13) and a
``request`` with the seat's view and legal actions, and reads the answer. It is handed the hand
by its driver, as the server's sender is, and tells the program only what :mod:`.messages`
builds from that seat's view and events.

Only the arena runs commands: a ``cmd:`` spec is no bot of the registry, so a room of the game
server can never be made to start a program on the server.
"""

from __future__ import annotations

from typing import Protocol

from ..engine import Hand
from ..engine.actions import Action
from ..engine.views import events_for_seat, seat_view
from . import messages
from .process import BotError, BotProcess, parse_command

CMD_PREFIX = "cmd:"
DEFAULT_TIMEOUT = 10.0  # seconds a bot may take per decision


class Pipe(Protocol):
    """Where a :class:`CommandBot` writes lines and reads answers (:class:`BotProcess`)."""

    def send(self, line: str) -> None:
        """Write one line (no newline in it) to the program."""

    def receive(self, timeout: float) -> str:
        """The program's next line; :class:`BotError` after ``timeout`` seconds or if it
        is gone."""

    def close(self) -> None:
        """End the program."""


def is_command(spec: object) -> bool:
    """Whether ``spec`` names an outside program: ``cmd:COMMAND``."""
    return isinstance(spec, str) and spec.strip().startswith(CMD_PREFIX)


def check_command(spec: str) -> str:
    """``spec`` stripped if its command can be run (:func:`~.process.parse_command`: not
    empty, quoted right, the program found); raises ``ValueError``."""
    spec = spec.strip()
    parse_command(spec[len(CMD_PREFIX):])
    return spec


class CommandBot:
    """One seat played by the program of ``spec`` (``cmd:COMMAND``), ``timeout`` seconds per
    decision; ``pipe`` (tests) replaces the process started at the first decision.

    Drive it with :meth:`play` for each decision of the seat and :meth:`finish` once the hand
    is over; :meth:`close` ends the program. A new ``hand`` object is a new hand: the bot gets
    ``start_hand`` and its events from the deal on (R3.1)."""

    name = "cmd"

    def __init__(self, spec: str, timeout: float = DEFAULT_TIMEOUT,
                 pipe: Pipe | None = None) -> None:
        self.spec = spec.strip()
        self.timeout = timeout
        self.pipe = pipe
        self.hand: Hand | None = None
        self.sent = 0  # events of ``hand`` already sent
        self.greeted = False
        self.hands = 0
        self.requests = 0

    def _send(self, message: dict) -> None:
        self.pipe.send(messages.dumps(message))

    def _catch_up(self, hand: Hand, seat: int) -> None:
        if self.pipe is None:
            self.pipe = BotProcess(self.spec[len(CMD_PREFIX):])
        if not self.greeted:
            self._send(messages.hello())
            self.greeted = True
        if hand is not self.hand:
            self.hand, self.sent = hand, 0
            self._send(messages.start_hand(seat, self.hands, hand.rules.to_dict(), [0, 0, 0]))
            self.hands += 1
        for event in events_for_seat(hand, seat, self.sent):
            self._send(event)
        self.sent = len(hand.events)

    def play(self, hand: Hand, seat: int, where: str = "") -> Action:
        """The program's choice among ``hand.legal_actions(seat)`` (never empty): what it
        has not seen yet, then a ``request``. Raises :class:`BotError` naming the bot, the
        seat, ``where`` (the arena's deal and arrangement), the request and what was wrong
        (not JSON, not a legal action, too slow, gone); the hand is then untouched and the
        program is told why and closed."""
        self._catch_up(hand, seat)
        legal = hand.legal_actions(seat)
        view = seat_view(hand, seat)
        self.requests += 1
        self._send(messages.request(self.requests, view, legal))
        try:
            return messages.read_reply(self.pipe.receive(self.timeout), legal)
        except (BotError, messages.ReplyError) as exc:
            problem = (f"bot {self.spec!r}, seat {seat}{where}, request {self.requests} "
                       f"({view['phase']}): {exc}")
            self._send(messages.error(problem))
            self.pipe.close()
            self.pipe = None
            raise BotError(problem) from None

    def finish(self, hand: Hand, seat: int) -> None:
        """The hand is over: the seat's last events and ``end_hand`` (its result; ``totals``
        are the hand's deltas: each arena hand stands alone)."""
        self._catch_up(hand, seat)
        self._send(messages.end_hand(seat_view(hand, seat), hand.deltas))

    def close(self) -> None:
        """Say ``bye`` and end the program (nothing if it never started); idempotent."""
        if self.pipe is not None:
            self._send(messages.bye())
            self.pipe.close()
            self.pipe = None
