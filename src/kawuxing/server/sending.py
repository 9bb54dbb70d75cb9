"""What each seat of a room is sent, built from the room's state with the :mod:`.protocol`
builders: its own :func:`~kawuxing.engine.views.seat_view` and its own
:func:`~kawuxing.engine.views.events_for_seat` (R13) — never the state, never the wall; and
what its spectators (:mod:`.spectators`) are sent: the
:func:`~kawuxing.engine.views.spectator_view` and the events for seat None, public
information only, no clock.

Each seat's connection remembers which events it already has (``Slot.sent_hand`` /
``Slot.sent``), so :meth:`Sender.broadcast` sends every seat exactly its new events, and a
(re)connecting client gets what it misses (:meth:`Sender.state`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.views import events_for_seat, running_totals, seat_view, spectator_view
from . import protocol
from .ended import is_whole
from .seats import Slot
from .spectators import Spectator

if TYPE_CHECKING:
    from .room import Room


class Sender:
    """The messages of one room's seats (see the module doc)."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def broadcast(self, acks: dict[int, str | None] | None = None) -> None:
        """Send each connected seat its new events (filtered, R13) and its view; a seat
        that saw no new event gets nothing, except the seats in ``acks`` (seat -> the id
        of its action now applied, or None), which get their view and ack. Spectators who
        have the same events get one message, built once (the spectator view is public).
        When the hand has ended, the next hand's commitment is drawn first and goes with it
        (R3.1)."""
        match = self.room.match
        match.open_next()
        hand, number = match.hand, match.number
        common = self.common()  # (the same for every seat and spectator: built once)
        for slot in self.room.seats.connected():
            start = slot.sent if slot.sent_hand == number else 0
            events = events_for_seat(hand, slot.index, start)
            acked = acks is not None and slot.index in acks
            if not events and not acked:
                continue
            slot.sent_hand, slot.sent = number, len(hand.events)
            slot.conn.send(self.update(slot, events, acks[slot.index] if acked else None,
                                       common=common))
        shared: dict[int, dict | None] = {}  # first new event -> the spectators' message
        for spectator in self.room.spectators:
            start = spectator.sent if spectator.sent_hand == number else 0
            if start not in shared:  # one view and one filtering for all who are there
                events = events_for_seat(hand, None, start)
                shared[start] = self.watch_update(events, common=common) if events else None
            if shared[start] is not None:
                spectator.sent_hand, spectator.sent = number, len(hand.events)
                spectator.conn.send(shared[start])
        self.between()

    def common(self) -> tuple[list[int], dict | None, dict | None]:
        """What every update of the hand in play shares, whoever it is for: the running
        totals, the hand's fairness and the open commitment (public, R3.1)."""
        room = self.room
        match = room.match
        return running_totals(match), room.fair.fairness(match.number), room.fair.commit()

    def update(self, slot: Slot, events: list[dict], ack: str | None = None,
               resumed: bool = False, kind: str = "update",
               common: tuple | None = None) -> dict:
        """The ``update`` (``kind`` ``"sync"``: the ``sync``) of ``slot`` with ``events``:
        its view, the running totals, its clock, 托管, fairness and the open commitment
        (``common``: :meth:`common`, when several seats are sent theirs at once)."""
        room = self.room
        match = room.match
        totals, fairness, commit = common or self.common()
        return protocol.update(match.number, room.version, events,
                               seat_view(match.hand, slot.index), totals,
                               room.pacer.clock_for(slot.index), slot.auto, fairness, commit,
                               ack=ack, resumed=resumed, kind=kind)

    def watch_update(self, events: list[dict], kind: str = "update",
                     common: tuple | None = None) -> dict:
        """The ``update`` (``kind`` ``"sync"``: the ``sync``) a spectator is sent with
        ``events`` (filtered for seat None): the spectator view, the running totals, no
        clock, no 托管, the fairness data and the open commitment (public, R3.1;
        ``common``: :meth:`common`)."""
        room = self.room
        match = room.match
        totals, fairness, commit = common or self.common()
        return protocol.update(match.number, room.version, events, spectator_view(match.hand),
                               totals, None, False, fairness, commit, kind=kind)

    def watch_state(self, spectator: Spectator) -> None:
        """A spectator starts watching (or asks ``sync``): the whole hand in play, its
        countdown if it has ended, the match's end if it is over."""
        match = self.room.match
        if match is None:
            return
        hand = match.hand
        spectator.sent_hand, spectator.sent = match.number, len(hand.events)
        spectator.conn.send(self.watch_update(events_for_seat(hand, None, 0), kind="sync"))
        between = self.room.pacer.between()
        if between is not None:
            spectator.conn.send(between)
        if match.over:
            spectator.conn.send(self.match_end())

    def between(self) -> None:
        """Tell every seat and spectator the countdown to the next hand (``next_hand``), if
        one runs."""
        message = self.room.pacer.between()
        if message is not None:
            self.everyone(message)

    def everyone(self, message: dict) -> None:
        """Send ``message`` to every connected seat and every spectator."""
        self.room.seats.send_all(message)
        self.room.spectators.send_all(message)

    def state(self, slot: Slot, hand_no: int | None, last_event: int | None) -> None:
        """After (re)connecting: the events the client misses (``hand_no``/``last_event``:
        what it has), or everything. A client left in an earlier hand of the match first gets
        that hand's remaining events (``missed``: how it ended; only from the hand just
        before, the older ones are no longer in memory), then the full view of the hand in
        play; a finished match adds ``match_end``."""
        match = self.room.match
        hand, number = match.hand, match.number
        if (hand_no is not None and hand_no < number and last_event is not None
                and is_whole(match.hands[hand_no])
                and -1 <= last_event < len(match.hands[hand_no].events)):
            old = match.hands[hand_no]
            slot.conn.send(protocol.missed(hand_no,
                                           events_for_seat(old, slot.index, last_event + 1),
                                           seat_view(old, slot.index),
                                           self.room.fair.fairness(hand_no)))
        if hand_no == number and last_event is not None and -1 <= last_event < len(hand.events):
            message = self.update(slot, events_for_seat(hand, slot.index, last_event + 1),
                                  resumed=True)
        else:
            message = self.update(slot, events_for_seat(hand, slot.index, 0), kind="sync")
        slot.sent_hand, slot.sent = number, len(hand.events)
        slot.conn.send(message)
        if match.over:
            slot.conn.send(self.match_end())

    def match_end(self) -> dict:
        """The ``match_end`` of the room's match: totals, each hand's deltas and the rating
        outcome (None until it is stored)."""
        room = self.room
        match = room.match
        return protocol.match_end(room.match_id, match.totals(), [h.deltas for h in match.hands],
                                  room.rating)

    def welcome(self, seat: int | None) -> dict:
        """The ``welcome`` of ``seat`` (None: a spectator's)."""
        room = self.room
        return protocol.welcome(room.code, seat, room.status, room.preset, room.rules.to_dict(),
                                room.settings.to_dict(), room.seats.public(),
                                room.match.number if room.match else None, room.version,
                                room.fair.commit())

    def players(self) -> None:
        """Tell every connected seat and spectator the seats (``players``)."""
        self.everyone(protocol.players(self.room.seats.public()))

    def spectators(self) -> None:
        """Tell every connected seat and spectator how many watch (``spectators``)."""
        self.everyone(protocol.spectators(len(self.room.spectators)))
