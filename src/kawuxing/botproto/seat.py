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

    # optional: ``unasked() -> str | None``, a line already waiting before a request
    # (:meth:`~.process.BotProcess.unasked`); a pipe without it is not checked


def check_unasked(pipe: Pipe) -> None:
    """Raise :class:`BotError` if the program wrote a line before being asked (a line left
    over from its last answer would otherwise be read as the next request's answer)."""
    unasked = getattr(pipe, "unasked", None)
    line = unasked() if unasked is not None else None
    if line is not None:
        shown = line if len(line) <= messages.MAX_LINE else line[:messages.MAX_LINE] + "…"
        raise BotError(f"the bot wrote a line nobody asked for: {shown!r}")


def command_argv(spec: str) -> list[str]:
    """The program and arguments of ``spec`` (``cmd:COMMAND``) split as a shell would:
    ``cmd:python  mybot.py`` and ``cmd:python mybot.py`` are the same command. Raises
    ``ValueError`` (:func:`~.process.parse_command`) with a hint for an empty command."""
    try:
        return parse_command(spec.strip()[len(CMD_PREFIX):])
    except ValueError as exc:
        if str(exc).endswith("empty"):
            raise ValueError(f"{exc} (write cmd:PROGRAM ARGS…)") from None
        raise


def is_command(spec: object) -> bool:
    """Whether ``spec`` names an outside program: ``cmd:COMMAND``."""
    return isinstance(spec, str) and spec.strip().startswith(CMD_PREFIX)


class CommandBot:
    """One seat played by the program of ``spec`` (``cmd:COMMAND``), ``timeout`` seconds per
    decision; ``pipe`` (tests) replaces the process started at the first decision.

    Drive it with :meth:`play` for each decision of the seat and :meth:`finish` once the hand
    is over; :meth:`close` ends the program. A new ``hand`` object is a new hand: the bot gets
    ``start_hand`` and its events from the deal on (R3.1)."""

    name = "cmd"

    def __init__(self, spec: str, timeout: float = DEFAULT_TIMEOUT,
                 pipe: Pipe | None = None, show_stderr: bool = False) -> None:
        self.spec = spec.strip()
        self.timeout = timeout
        self.pipe = pipe
        self.show_stderr = show_stderr
        self.hand: Hand | None = None
        self.sent = 0  # events of ``hand`` already sent
        self.greeted = False
        self.hands = 0
        self.requests = 0

    def _send(self, message: dict) -> None:
        self.pipe.send(messages.dumps(message))

    def _catch_up(self, hand: Hand, seat: int) -> None:
        if self.pipe is None:
            self.pipe = BotProcess(self.spec[len(CMD_PREFIX):], self.show_stderr)
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
        (not JSON, not a legal action, the ``id`` of another request, a line written before
        the request, too slow, gone); the hand is then untouched and the
        program is told why and closed."""
        self._catch_up(hand, seat)
        legal = hand.legal_actions(seat)
        view = seat_view(hand, seat)
        self.requests += 1
        try:
            check_unasked(self.pipe)
            self._send(messages.request(self.requests, view, legal))
            return messages.read_reply(self.pipe.receive(self.timeout), legal, self.requests)
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
