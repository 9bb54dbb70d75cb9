"""Spectators (旁观, issue 12): connections that watch a room live and play no seat.

A spectator opens the room's socket with ``{"type": "watch"}`` instead of a hello (no token:
the room code is the link). It is sent what every seat may see and nothing more (R13): the
table of :func:`~kawuxing.engine.views.spectator_view` and the events as
:func:`~kawuxing.engine.views.events_for_seat` gives them for seat None — no concealed hand
before 亮倒 or the end, no draw's tile, no seat's options, no clock (nobody's decision time is
told, so no timing says who could claim) — and the ``players``, ``chat``, ``spectators``
and ``next_hand`` messages. It may not act, chat or ask for hints (``error``
``spectator``); ``sync`` and ``ping`` are answered. The seats see how many watch
(``spectators``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .seats import Sink

SPECTATOR = "spectator"  # error.code: a spectator sent something only a seat may send
NO_SPECTATORS = "no_spectators"  # error.code: this room takes no more spectators


@dataclass(eq=False)
class Spectator:
    """One watching connection; ``sent_hand``/``sent``: the hand number and the next event
    index already sent to it."""

    conn: Sink
    sent_hand: int = -1
    sent: int = 0


class Spectators:
    """The spectators of one room (at most ``limit``)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.watching: list[Spectator] = []

    def __len__(self) -> int:
        return len(self.watching)

    def __iter__(self):
        return iter(list(self.watching))

    def add(self, conn: Sink) -> Spectator | None:
        """Watch with ``conn``; None when the room has ``limit`` spectators already."""
        if len(self.watching) >= self.limit:
            return None
        spectator = Spectator(conn)
        self.watching.append(spectator)
        return spectator

    def remove(self, conn: Sink) -> bool:
        """``conn`` stops watching; True if it was watching."""
        for spectator in self.watching:
            if spectator.conn is conn:
                self.watching.remove(spectator)
                return True
        return False

    def find(self, conn: Sink) -> Spectator | None:
        """The spectator of ``conn``, or None."""
        return next((s for s in self.watching if s.conn is conn), None)

    def send_all(self, message: dict) -> None:
        """Send ``message`` to every spectator."""
        for spectator in self.watching:
            spectator.conn.send(message)

    def close_all(self, code: int, reason: str) -> None:
        """Close every spectator's connection (the room stops)."""
        for spectator in self.watching:
            spectator.conn.close(code, reason)
        self.watching.clear()
