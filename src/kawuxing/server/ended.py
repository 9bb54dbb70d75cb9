"""What a room keeps in memory of the hands of its match that are over (issue 13: a 64-hand
match kept every Hand with all its events, about 3 MB a room).

Every hand is in the database (its record and actions), where replays and the API read it; a
room needs of an old hand only what the match's totals, its ``match_end`` and its version
count use. :func:`compact` replaces each ended hand before the last two with an
:class:`EndedHand` (the hand just before the one in play stays whole: a client that
reconnects from it is sent the rest of it, ``missed``).
"""

from __future__ import annotations

from typing import Any

KEEP = 2  # the hand in play and the one before it stay whole


class EndedHand:
    """An ended hand as a room keeps it: ``ended`` (True), ``deltas`` (base units, R12.1),
    ``dealer``, ``next_dealer`` (R2.2), ``seats`` (the seats' final state: melds, discards,
    declared) and ``events``/``actions`` as ranges of their lengths (only counted). Its events,
    actions, settlement and wall are dropped (they are stored)."""

    __slots__ = ("deltas", "dealer", "next_dealer", "seats", "events", "actions")
    ended = True

    def __init__(self, hand: Any) -> None:
        self.deltas = list(hand.deltas)
        self.dealer = hand.dealer
        self.next_dealer = hand.next_dealer
        self.seats = hand.seats
        self.events = range(len(hand.events))
        self.actions = range(len(hand.actions))


def compact(hands: list) -> int:
    """Replace, in place, every ended hand of ``hands`` (a match's list) but the last
    :data:`KEEP` with an :class:`EndedHand`. Returns how many were replaced now."""
    done = 0
    for i in range(max(0, len(hands) - KEEP)):
        hand = hands[i]
        if not isinstance(hand, EndedHand) and hand.ended:
            hands[i] = EndedHand(hand)
            done += 1
    return done


def is_whole(hand: Any) -> bool:
    """False for an :class:`EndedHand` (its events are no longer in memory)."""
    return not isinstance(hand, EndedHand)
