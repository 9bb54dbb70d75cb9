"""The provably fair deal as a room runs it (R3.1, docs/fairness.md): which commitment is open
for the next deal, the entropy the seats send for it, and what players may see of each hand's
fairness (the commitment while it is played, the seed and entropy once it has ended: R13).

The seeds themselves are drawn by :mod:`.seeds` and kept in the match
(:class:`~kawuxing.engine.match.HandSeed`); the room's first commitment (``room.opening``) is
drawn when the room is made. Functions of the room they are given (its ``opening``, ``status``
and ``match``); nothing here keeps the room.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import fairness
from ..engine.match import HandSeed
from . import protocol

if TYPE_CHECKING:
    from .room import Room

RULE = "R3.1"


def open_seed(room: Room) -> HandSeed | None:
    """The hand whose commitment is published and not yet dealt: the first hand while
    the room waits, else the next hand once the one in play has ended (R3.1)."""
    match = room.match
    if match is None:
        return room.opening if room.waiting else None
    pending = match.pending
    if (pending is not None and match.hand.ended and not match.over
            and pending.number == len(match.hands)):
        return pending
    return None


def commit(room: Room) -> dict | None:
    """The ``commit`` of messages and room state: the open commitment's announcement, or
    None."""
    seed = open_seed(room)
    return seed.announcement() if seed is not None else None


def hand_fairness(room: Room, number: int) -> dict | None:
    """Hand ``number``'s fairness for players: the commitment while it is played, with
    seed and entropy once it has ended (R13); None for a test wall."""
    match = room.match
    seed = match.fair[number]
    if seed is None:
        return None
    return seed.revealed() if match.hands[number].ended else seed.public()


def counted(room: Room, seat: int, commitment: str | None) -> str | None:
    """The entropy recorded for ``seat`` in the hand of ``commitment`` (dealt or not),
    or None."""
    match = room.match
    candidates = [room.opening, match.pending if match else None]
    candidates += match.fair if match else []
    for seed in candidates:
        if seed is not None and seed.commitment == commitment:
            return seed.entropy[seat] or None
    return None


def with_join(room: Room, seat: int, entropy: str | None, commitment: str | None) -> None:
    """The entropy sent with a join (already checked): counted for ``seat`` if
    ``commitment`` is the one open."""
    opened = open_seed(room)
    if entropy is not None and opened is not None and opened.commitment == commitment:
        opened.entropy[seat] = entropy


def take(room: Room, seat: int, hand: int, value: object) -> dict | tuple[str, str, str]:
    """A seat's ``entropy`` message for hand ``hand``: recorded (the last one counts) and
    the ``entropy_ok`` to send returned; else ``(code, reason, rule)`` of the refusal
    (``bad_entropy``, ``entropy_closed``) and nothing changes."""
    try:
        fairness.check_entropy(value, allow_empty=False)
    except fairness.FairnessError as exc:
        return protocol.BAD_ENTROPY, str(exc), RULE
    seed = open_seed(room)
    if seed is None:
        return (protocol.ENTROPY_CLOSED, "no commitment is open: entropy is taken after a "
                "commitment is sent and before its hand is dealt", RULE)
    if hand != seed.number:
        return (protocol.ENTROPY_CLOSED, f"the open commitment is for hand {seed.number}, "
                f"not {hand}", RULE)
    seed.entropy[seat] = value
    return protocol.entropy_ok(seed.number, value, seed.commitment)
