"""Quick phrases (快捷语) and emotes between the players of a room (issue 12).

A player never sends text: a ``chat`` message names one id of :data:`PHRASES` or
:data:`EMOTES` (anything else is refused by :mod:`.protocol` as ``malformed``), and the room
relays ``{"type": "chat", "seat", "say"}``; the clients word it (``say_<id>`` in i18n.js).
So nothing a player writes reaches another, and nothing in a phrase is about tiles (R13).

Each seat has a token bucket (:class:`~kawuxing.server.ratelimit.TokenBucket` on the room's
clock): ``chat_burst`` at once, then ``chat_rate`` a second (``ServerConfig``); over it the
sender alone gets ``error`` ``chat_limited`` and nothing is relayed. The bucket belongs to the
seat, not the connection: reconnecting does not refill it.
"""

from __future__ import annotations

from typing import Callable

from .ratelimit import TokenBucket

# the ids a ``chat`` message may name, in the order a client lists them
PHRASES = ("hello", "hurry", "nice", "thanks", "oops", "again", "well_played", "bye")
EMOTES = ("smile", "laugh", "cry", "angry", "shock", "thumbs")
SAYINGS = PHRASES + EMOTES
CHAT_LIMITED = "chat_limited"  # error.code: this seat sent too many phrases or emotes


class ChatLimits:
    """One :class:`TokenBucket` per seat (``rate`` per second, ``burst`` at once) on the
    clock ``now`` (seconds); :meth:`allow` spends one of ``seat``'s."""

    def __init__(self, rate: float, burst: float, now: Callable[[], float]) -> None:
        self.rate, self.burst, self.now = rate, max(1.0, burst), now
        self.buckets: dict[int, TokenBucket] = {}

    def allow(self, seat: int) -> bool:
        """True (and one phrase counted) if ``seat`` may say something now; always False
        with ``rate`` 0 (chat turned off)."""
        if self.rate <= 0:
            return False
        bucket = self.buckets.get(seat)
        if bucket is None:
            bucket = self.buckets[seat] = TokenBucket(self.rate, self.burst, self.now)
        return bucket.take()
