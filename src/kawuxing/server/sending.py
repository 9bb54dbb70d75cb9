"""What each seat of a room is sent, built from the room's state with the :mod:`.protocol`
builders: its own :func:`~kawuxing.engine.views.seat_view` and its own
:func:`~kawuxing.engine.views.events_for_seat` (R13) — never the state, never the wall; and
what its spectators (:mod:`.spectators`) are sent: the
:func:`~kawuxing.engine.views.spectator_view` and the events for seat None, public
information only, no clock.

Each seat's connection remembers which events it already has (``Slot.sent_hand`` /
``Slot.sent``), so :func:`broadcast` sends every seat exactly its new events, and a
(re)connecting client gets what it misses (:func:`state`). Functions of the room they are
given: the room keeps no sender, and nothing here keeps the room.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.views import events_for_seat, running_totals, seat_view, spectator_view
from . import fairdeal, protocol
from .ended import is_whole
from .seats import Slot
from .spectators import Spectator

if TYPE_CHECKING:
    from .room import Room


def broadcast(room: Room, acks: dict[int, str | None] | None = None) -> None:
    """Send each connected seat its new events (filtered, R13) and its view; a seat
    that saw no new event gets nothing, except the seats in ``acks`` (seat -> the id
    of its action now applied, or None), which get their view and ack. Spectators who
    have the same events get one message, built once (the spectator view is public).
    When the hand has ended, the next hand's commitment is drawn first and goes with it
    (R3.1)."""
    match = room.match
    match.open_next()
    hand, number = match.hand, match.number
    parts = shared_parts(room)  # (the same for every seat and spectator: built once)
    for slot in room.seats.connected():
        start = slot.sent if slot.sent_hand == number else 0
        events = events_for_seat(hand, slot.index, start)
        acked = acks is not None and slot.index in acks
        if not events and not acked:
            continue
        slot.sent_hand, slot.sent = number, len(hand.events)
        slot.conn.send(update(room, slot, events, acks[slot.index] if acked else None,
                              parts=parts))
    shared: dict[int, dict | None] = {}  # first new event -> the spectators' message
    for spectator in room.spectators:
        start = spectator.sent if spectator.sent_hand == number else 0
        if start not in shared:  # one view and one filtering for all who are there
            events = events_for_seat(hand, None, start)
            shared[start] = watch_update(room, events, parts=parts) if events else None
        if shared[start] is not None:
            spectator.sent_hand, spectator.sent = number, len(hand.events)
            spectator.conn.send(shared[start])
    between(room)


def shared_parts(room: Room) -> tuple[list[int], dict | None, dict | None]:
    """What every update of the hand in play shares, whoever it is for: the running
    totals, the hand's fairness and the open commitment (public, R3.1)."""
    match = room.match
    return (running_totals(match), fairdeal.hand_fairness(room, match.number),
            fairdeal.commit(room))


def update(room: Room, slot: Slot, events: list[dict], ack: str | None = None,
           resumed: bool = False, kind: str = "update",
           parts: tuple | None = None) -> dict:
    """The ``update`` (``kind`` ``"sync"``: the ``sync``) of ``slot`` with ``events``:
    its view, the running totals, its clock, 托管, fairness and the open commitment
    (``parts``: :func:`shared_parts`, when several seats are sent theirs at once)."""
    match = room.match
    totals, fairness, commit = parts or shared_parts(room)
    return protocol.update(match.number, room.version, events,
                           seat_view(match.hand, slot.index), totals,
                           room.pacer.clock_for(room, slot.index), slot.auto, fairness, commit,
                           ack=ack, resumed=resumed, kind=kind)


def watch_update(room: Room, events: list[dict], kind: str = "update",
                 parts: tuple | None = None) -> dict:
    """The ``update`` (``kind`` ``"sync"``: the ``sync``) a spectator is sent with
    ``events`` (filtered for seat None): the spectator view, the running totals, no
    clock, no 托管, the fairness data and the open commitment (public, R3.1;
    ``parts``: :func:`shared_parts`)."""
    match = room.match
    totals, fairness, commit = parts or shared_parts(room)
    return protocol.update(match.number, room.version, events, spectator_view(match.hand),
                           totals, None, False, fairness, commit, kind=kind)


def watch_state(room: Room, spectator: Spectator) -> None:
    """A spectator starts watching (or asks ``sync``): the whole hand in play, its
    countdown if it has ended, the match's end if it is over."""
    match = room.match
    if match is None:
        return
    hand = match.hand
    spectator.sent_hand, spectator.sent = match.number, len(hand.events)
    spectator.conn.send(watch_update(room, events_for_seat(hand, None, 0), kind="sync"))
    countdown = room.pacer.between(room)
    if countdown is not None:
        spectator.conn.send(countdown)
    if match.over:
        spectator.conn.send(match_end(room))


def between(room: Room) -> None:
    """Tell every seat and spectator the countdown to the next hand (``next_hand``), if
    one runs."""
    message = room.pacer.between(room)
    if message is not None:
        everyone(room, message)


def everyone(room: Room, message: dict) -> None:
    """Send ``message`` to every connected seat and every spectator."""
    room.seats.send_all(message)
    room.spectators.send_all(message)


def state(room: Room, slot: Slot, hand_no: int | None, last_event: int | None) -> None:
    """After (re)connecting: the events the client misses (``hand_no``/``last_event``:
    what it has), or everything. A client left in an earlier hand of the match first gets
    that hand's remaining events (``missed``: how it ended; only from the hand just
    before, the older ones are no longer in memory), then the full view of the hand in
    play; a finished match adds ``match_end``."""
    match = room.match
    hand, number = match.hand, match.number
    if (hand_no is not None and hand_no < number and last_event is not None
            and is_whole(match.hands[hand_no])
            and -1 <= last_event < len(match.hands[hand_no].events)):
        old = match.hands[hand_no]
        slot.conn.send(protocol.missed(hand_no,
                                       events_for_seat(old, slot.index, last_event + 1),
                                       seat_view(old, slot.index),
                                       fairdeal.hand_fairness(room, hand_no)))
    if hand_no == number and last_event is not None and -1 <= last_event < len(hand.events):
        message = update(room, slot, events_for_seat(hand, slot.index, last_event + 1),
                              resumed=True)
    else:
        message = update(room, slot, events_for_seat(hand, slot.index, 0), kind="sync")
    slot.sent_hand, slot.sent = number, len(hand.events)
    slot.conn.send(message)
    if match.over:
        slot.conn.send(match_end(room))


def match_end(room: Room) -> dict:
    """The ``match_end`` of the room's match: totals, each hand's deltas and the rating
    outcome (None until it is stored)."""
    match = room.match
    return protocol.match_end(room.match_id, match.totals(), [h.deltas for h in match.hands],
                              room.rating)


def welcome(room: Room, seat: int | None) -> dict:
    """The ``welcome`` of ``seat`` (None: a spectator's)."""
    return protocol.welcome(room.code, seat, room.status, room.preset, room.rules.to_dict(),
                            room.settings.to_dict(), room.seats.public(),
                            room.match.number if room.match else None, room.version,
                            fairdeal.commit(room))


def players(room: Room) -> None:
    """Tell every connected seat and spectator the seats (``players``)."""
    everyone(room, protocol.players(room.seats.public()))


def spectators(room: Room) -> None:
    """Tell every connected seat and spectator how many watch (``spectators``)."""
    everyone(room, protocol.spectators(len(room.spectators)))
