"""A room: three seats, one match, and the one task that changes them.

Everything that changes a room — a player's action, a join, a connection coming or going, a
timer, a bot's move, the next deal — is a command on the room's queue, run one at a time by
the room's task (:class:`~kawuxing.server.actor.Actor`, :meth:`Room.post`). Nothing races:
two players answering one discard at the same moment are two commands, and the engine
resolves their claims (R4.3).

The room itself does **validate → apply → store → broadcast** (:meth:`Room.play`): an action is
checked by the engine (refused with IllegalAction's reason and rule, the state untouched),
applied, stored (committed) through the database writer — on a failure the hand is put back
as it was, replayed from its deal (:meth:`Hand.replayed <kawuxing.engine.Hand.replayed>`) — and only then
are its events sent. Its parts: :mod:`.seats` (seats, tokens, connections), :mod:`.pacing`
(timers, bots, 托管, the claim window of R13.2, the pause between hands), :mod:`.sending`
(what each seat is sent, R13), :mod:`.fairdeal` (commitments and entropy, R3.1),
:mod:`.protocol` (every message in and out), :mod:`.db` with :mod:`.rows` (what is stored).

The room's ``version`` is the number of events of its match so far. Every event reaches every
seat (filtered), so every seat knows the version; an answer to a discard that does not settle
it makes no event and so does not move the version — the other seats cannot learn from the
version who had a claim (R13). An action must carry the current version, else it is stale.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import asdict, dataclass
from typing import Any, Awaitable, Callable

from sqlalchemy.exc import IntegrityError

from .. import fairness
from ..agents import DEFAULT_BOT, SUGGESTED_BOT, check_bot
from ..engine import PASS, Action, IllegalAction
from ..engine.actions import action_from_json
from ..engine.match import HandSeed, Match
from ..engine.views import hand_result
from ..rules import RuleSet
from . import fairdeal, protocol, sending
from .actor import Actor
from .chat import CHAT_LIMITED, ChatLimits
from .clock import Clock
from .config import ServerConfig
from .db import Store
from .ended import compact
from .errors import RoomError, RoomMoved
from .hints import SeatHints
from .pacing import BY_PLAYER, BY_WINDOW, Pacer, Problem
from .playerstore import sitting
from .rows import ActionRow, hand_row, match_row, restored_match, room_row
from .seats import (ACCEPTED, BOT, EXTERNAL, EXTERNAL_NICKNAME, HUMAN, OPEN, PLAYERS, REFUSED,
                    SEATS, Seats, Sink, Slot, clean_nickname)
from .seeds import first_hand_seed, new_match, new_match_id
from .spectators import NO_SPECTATORS, SPECTATOR, Spectators

log = logging.getLogger("kawuxing.server.room")

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"  # Room.status (kwx_rooms.status)

__all__ = ["BOT", "EXTERNAL", "FINISHED", "HUMAN", "OPEN", "PLAYERS", "PLAYING", "WAITING",
           "Room", "RoomError", "RoomSettings", "Sink", "clean_nickname"]


REMATCH_FILL = 60.0  # seconds before bots take the seats of a rematch nobody took


@dataclass
class RoomSettings:
    """Per-room timing: ``decision_seconds`` per decision plus a per-hand ``reserve_seconds``
    bank; ``auto_bot``: the bot that plays a seat under 托管 or left by its player;
    ``public``: listed in the lobby while it waits (``GET /api/rooms``, issue 35);
    ``fill_after``: seconds after its creation when bots take the seats still open and the
    match starts (None: never); ``kept``: 再来一场's seats — ``kept[i]`` the id of the player
    (issue 16) for whom open seat ``i`` is kept (nobody else may take it; bots do once
    ``fill_after`` is over), None for a seat anyone may take (issue 35)."""

    decision_seconds: float = 20.0
    reserve_seconds: float = 30.0
    auto_bot: str = DEFAULT_BOT
    public: bool = False
    fill_after: float | None = None
    kept: list[str | None] | None = None

    def to_dict(self) -> dict:
        """JSON-ready."""
        return asdict(self)


class Room(Actor):
    """A room (see module doc), made by the :class:`~kawuxing.server.manager.RoomManager` or
    :meth:`restore`, then :meth:`start`ed; talk to it only through :meth:`post` /
    :meth:`post_nowait` (commands run in the room's task) — :meth:`public_info` and
    :meth:`entropy_counted` are the read-only exceptions.

    ``code``; ``rules`` (:class:`RuleSet`); ``seats`` (:class:`Seats`; ``slots`` their list);
    ``match`` (the :class:`~kawuxing.engine.Match` once three seats are filled; ``match_id``);
    ``opening`` (the first hand's commitment, drawn now, R3.1; None for test walls);
    ``version`` (events so far); ``pacer`` (:class:`Pacer`: when and what; it is handed the
    room, and keeps none; what the seats are sent is built from the room by :mod:`.sending`,
    the fair deal's part by :mod:`.fairdeal`); ``stats`` (actions accepted and refused,
    timeouts, bot moves, storage failures in a row);
    ``idle_since``: since when (epoch seconds) no player is connected, None while one is
    (the manager expires abandoned matches from it).
    """

    quiet = (RoomError,)

    def stopped_error(self) -> RoomMoved:
        """A stopped room refuses every command: 503 ``owner_unavailable`` (issue 17)."""
        return RoomMoved(self.code)

    def __init__(self, code: str, preset: str, options: dict, rules: RuleSet,
                 settings: RoomSettings, store: Store, config: ServerConfig, clock: Clock,
                 walls: list[list[int]] | None = None,
                 on_finished: Callable[[Room], None] | None = None) -> None:
        super().__init__(f"room {code}")
        self.code, self.preset, self.options, self.rules = code, preset, options, rules
        self.settings, self.store, self.config, self.clock = settings, store, config, clock
        self.walls = walls
        self.on_finished = on_finished
        self.seats = Seats(code, settings.kept)
        self.slots = self.seats.slots
        self.status = WAITING
        self.match: Match | None = None
        self.match_id: str | None = None
        self.next_match_id = new_match_id()  # the id the match will have
        self.opening: HandSeed | None = None if walls else first_hand_seed(rules,
                                                                           self.next_match_id)
        self.version = 0
        self.drops: dict[int, Any] = {}  # seat -> the timer of its drop grace (托管 after it)
        self.created_at = time.time()
        self.idle_since: float | None = self.created_at  # no player connected since (epoch s)
        self.owner: str | None = None  # who made it (client IP; not stored)
        self.pacer = Pacer()
        self.spectators = Spectators(config.max_spectators)  # 旁观 (issue 12)
        self.hints = SeatHints()  # 提示, worked out beside the room (issue 34)
        self.chat = ChatLimits(config.chat_rate, config.chat_burst, clock.now)
        self.stats = {"accepted": 0, "refused": 0, "timeouts": 0, "bot": 0, "store_failures": 0}
        self.rating: dict | None = None  # the rating outcome once the match is over (issue 16)
        self.rematch_code: str | None = None  # 再来一场: the room of the next match (issue 35)
        # in a cluster (issue 17): whether this process still owns the room (its lease);
        # checked before every write of stored(): a process that lost it writes nothing more
        self.fence: Callable[[], bool] | None = None
        # ... and what to do when a write collides with one already stored (another process
        # wrote for this room: this copy is behind the database)
        self.on_conflict: Callable[[Room], None] | None = None

    waiting = property(lambda self: self.status == WAITING, doc="Waiting for players.")
    playing = property(lambda self: self.status == PLAYING, doc="The match is on.")
    finished = property(lambda self: self.status == FINISHED, doc="The match is over.")

    async def stop(self, code: int = protocol.CLOSE_RESTART, reason: str = "server stopping",
                   timeout: float = 5.0) -> None:
        """Finish the command in progress, cancel timers, close connections with ``code``."""
        self.pacer.cancel_all(self)
        self.hints.cancel()
        await self.stop_serving(timeout)
        self.pacer.cancel_all(self)
        for seat in list(self.drops):
            self._cancel_drop(seat)
        for slot in self.seats.connected():
            slot.conn.close(code, reason)
            slot.conn = None
        self.spectators.close_all(code, reason)

    # --- building and reading ------------------------------------------------------------
    def row(self) -> dict:
        """The room's ``kwx_rooms`` columns (:func:`.rows.room_row`)."""
        return room_row(self)

    def seat_rows(self) -> list[dict]:
        """The three ``kwx_seats`` rows (without the room code)."""
        return self.seats.rows()

    def set_bot(self, seat: int, spec: str, vacated: bool = False) -> None:
        """Make ``seat`` a bot seat playing ``spec`` (before the room starts, or on restore)."""
        self.seats.set_bot(seat, spec, vacated)

    @classmethod
    def restore(cls, row: dict, store: Store, config: ServerConfig, clock: Clock,
                on_finished: Callable[[Room], None] | None = None) -> Room:
        """Rebuild a room from :meth:`Store.active_rooms` output: seats, and each hand by
        replaying its record with its stored actions. Raises ``ValueError`` /
        ``IllegalAction`` for a corrupt row."""
        rules = RuleSet.from_options(json.loads(row["rules"]))
        settings = RoomSettings(**json.loads(row["settings"]))
        room = cls(row["code"], row["preset"], json.loads(row["options"]), rules, settings,
                   store, config, clock, on_finished=on_finished)
        room.created_at, room.status = row["created_at"], row["status"]
        room.seats.restore(row["seats"])
        if row["match"] is not None and row["hands"]:
            room.match_id = row["match"]["id"]
            room.match = restored_match(rules, room.match_id, row["hands"])
            room.match.open_next()  # a hand that had ended: a new commitment for the next
            room.version = sum(len(h.events) for h in room.match.hands)
            compact(room.match.hands)  # old hands: only what the room still needs
            room.status = FINISHED if room.match.over else PLAYING
            for slot in room.seats:
                slot.reserve = settings.reserve_seconds
        return room

    async def resume(self) -> None:
        """After :meth:`restore`: start the match if the seats were filled but it never
        started; else schedule what is due (nothing runs until a player connects, unless
        every seat is a bot); a waiting room's filling by bots (:meth:`schedule_fill`)."""
        if self.match is None and self.waiting and self.seats.full():
            await self._try_start()
        elif self.match is not None:
            self.pacer.schedule(self)
        self.schedule_fill()

    def schedule_fill(self) -> None:
        """A waiting room with ``settings.fill_after``: :meth:`fill_open` that many seconds
        after its creation (at once if that is past)."""
        after = self.settings.fill_after
        if after is None or not self.waiting or self.match is not None:
            return
        due = max(0.0, self.created_at + after - time.time())
        self.clock.call_later(due, lambda: self.post_nowait(self.fill_open))

    async def fill_open(self) -> None:
        """Bots (the suggested one) take every seat still open and the match starts — the
        quick match's wait is over (issue 35). Nothing when the room no longer waits, or when
        no player sits in it (a room nobody took is no match for bots alone: it expires)."""
        if not self.waiting or self.match is not None or not self.seats.humans():
            return
        for slot in self.seats:
            if slot.kind == OPEN:
                await self.seats.seat_bot(self.store, self.code, slot.index, SUGGESTED_BOT,
                                          self.fence)
        sending.players(self)
        if self.seats.full():
            await self._try_start()

    def public_info(self) -> dict:
        """What anyone with the room code may read: status, rules, seats (nicknames, kinds,
        connected), hand number and totals, and the commitment open for the next deal
        (``commit``, R3.1). No tokens, no tiles, no seed."""
        match = self.match
        return {"code": self.code, "status": self.status, "preset": self.preset,
                "options": self.options, "rules": self.rules.to_dict(),
                "settings": self.settings.to_dict(),
                "hands_per_match": self.rules.hands_per_match, "seats": self.seats.public(),
                "hand": match.number if match else None,
                "totals": match.totals() if match else None,
                "match_id": self.match_id, "commit": fairdeal.commit(self)}

    def entropy_counted(self, seat: int, commitment: str | None) -> str | None:
        """The entropy recorded for ``seat`` in the hand of ``commitment`` (dealt or not),
        or None: what a join with entropy can report (read-only)."""
        return fairdeal.counted(self, seat, commitment)

    # --- commands: seats ---------------------------------------------------------------
    async def join(self, nickname: str, seat: int | None = None, entropy: str | None = None,
                   commitment: str | None = None,
                   player_id: str | None = None) -> tuple[int, str]:
        """Take a seat: an open one, or (once the match is on) one a player left to a bot.
        Returns ``(seat, token)``; the match starts when no seat is open. ``entropy`` (R3.1):
        the seat's text for the hand of ``commitment``, counted if that commitment is still
        open — before the deal this join may trigger (see :meth:`entropy_counted`).
        ``player_id``: the player's identity (issue 16), recorded with the seat and, once the
        match is on, as sitting in it from this hand. Raises :class:`RoomError` 409 when the
        room is full or finished (or the player sits here already), 422 for a bad nickname,
        seat or entropy, 503 when the seat could not be stored."""
        nickname = clean_nickname(nickname)
        if entropy is not None:
            try:
                fairness.check_entropy(entropy, allow_empty=False)
            except fairness.FairnessError as exc:
                raise RoomError(422, str(exc), "bad_entropy") from None
        if not (self.waiting or self.playing):
            raise RoomError(409, "the match of this room is over", "match_over")
        slot, token = await self.seats.seat_player(self.store, self.code, nickname, seat,
                                                   self.settings.reserve_seconds, player_id,
                                                   fence=self.fence)
        if player_id is not None and self.match is not None:
            match_id, hand = self.match_id, self.match.number
            await self.stored(lambda: self.store.players.sat_down(match_id, slot.index,
                                                                  player_id, hand),
                              f"player {player_id} sitting down")
        fairdeal.with_join(self, slot.index, entropy, commitment)
        self._arriving(slot.index, token)
        sending.players(self)
        if self.match is None and self.seats.full():
            await self._try_start()
        elif self.match is not None:
            self.pacer.schedule(self)
        else:  # (a wait for bots already over while nobody sat: they come now)
            self.schedule_fill()
        return slot.index, token

    def _arriving(self, seat: int, token: str) -> None:
        """A player (or an outside bot program) has just taken ``seat`` with ``token``: it is
        shown as arriving until it connects, or for ``join_grace`` seconds (:meth:`_arrived`)."""
        self.clock.call_later(self.config.join_grace,
                              lambda: self.post_nowait(self._arrived, seat, token))

    def _arrived(self, seat: int, token: str) -> None:
        """``join_grace`` after a player took ``seat`` (with ``token``): one who has still not
        connected is no longer shown as arriving, but as offline (issue 35: a friend who has
        just joined is not shown offline while the page connects, even on a slow line)."""
        slot = self.seats[seat]
        if slot.arriving and slot.conn is None and self.seats.seat_of(token) == seat:
            slot.arriving = False
            sending.players(self)

    async def seat_external(self, seat: int) -> str:
        """Open seat ``seat`` is taken for an outside bot program (kind ``external``,
        docs/bot-protocol.md): it plays with the returned token over the WebSocket as a player
        does (its timers, 托管, the room waiting while it is away) and is sent only its own
        seat's messages (R13). The match starts when no seat is open. Raises
        :class:`RoomError` 409/422/503 as :meth:`join`."""
        if not self.waiting:
            raise RoomError(409, "the match of this room has started", "seat_taken")
        slot, token = await self.seats.seat_player(self.store, self.code, EXTERNAL_NICKNAME,
                                                   seat, self.settings.reserve_seconds,
                                                   kind=EXTERNAL, fence=self.fence)
        self._arriving(slot.index, token)
        sending.players(self)
        if self.match is None and self.seats.full():
            await self._try_start()
        return token

    async def leave(self, token: str) -> int:
        """The player of ``token`` leaves: before the match the seat is open again; during
        it a bot plays the seat (``vacated``: another player may join it). The token stops
        working. Raises :class:`RoomError` 403 for a token that is no seat here, 503 when the
        change could not be stored."""
        seat = self.seats.seat_of(token)
        player_id = self.seats[seat].player_id if seat is not None else None
        slot = await self.seats.unseat(self.store, self.code, token, self.match is not None,
                                       self.settings.auto_bot, self.fence)
        if player_id is not None and self.match is not None:
            match_id, hand = self.match_id, self.match.number
            await self.stored(lambda: self.store.players.stood_up(match_id, player_id, hand),
                              f"player {player_id} leaving")
        if not self.seats.connected() and self.idle_since is None:
            self.idle_since = time.time()
        sending.players(self)
        if self.match is not None:
            self.pacer.schedule(self)
        return slot.index

    async def seat_to_bot(self, token: str, seat: int, spec: str | None) -> str:
        """A player of the room (``token``) has a bot play ``seat``: before the match an open
        seat is filled with ``spec`` (default the suggested bot; the match starts when no seat
        is left open: "start now" is every open seat so filled), during it a disconnected
        player's seat is handed to 托管 (:meth:`give_to_bot`). Returns what was done
        (``filled``/``auto``). Raises :class:`RoomError` 403/409/422/503."""
        asker = self.seats.seat_of(token)
        if asker is None:
            raise RoomError(403, "not a seat of this room", "bad_token")
        if self.match is not None or not self.waiting:
            self.give_to_bot(token, seat)
            return "auto"
        try:
            spec = check_bot(SUGGESTED_BOT if spec is None else spec, paths=False)
        except ValueError as exc:
            raise RoomError(422, f"bot: {exc}", "bad_seats") from None
        await self.seats.seat_bot(self.store, self.code, seat, spec, self.fence)
        sending.players(self)
        if self.seats.full():
            await self._try_start()
        return "filled"

    def rematch_plan(self, token: str) -> dict:
        """再来一场 (issue 35), for a seat of the room (``token``) once its match is over:
        ``{"seat": the asker's, "code": the rematch's room}`` when it is made, else ``{"seat",
        "plan"}``: the new room — the same rules, hands, clock and 托管 bot; a bot's seat the
        same bot, a player's seat open and kept for them (``kept``: their player id; a guest's
        seat, taken with a nickname only, is open to anyone), bots take the seats nobody takes
        within :data:`REMATCH_FILL` seconds. Raises :class:`RoomError` 403 ``bad_token``, 409
        ``not_over``."""
        seat = self.seats.seat_of(token)
        if seat is None:
            raise RoomError(403, "not a seat of this room", "bad_token")
        if not self.finished:
            raise RoomError(409, "the match of this room is not over", "not_over")
        if self.rematch_code is not None:
            return {"seat": seat, "code": self.rematch_code}
        options = {k: v for k, v in self.options.items() if k != "hands_per_match"}
        seats = [HUMAN if s.kind in PLAYERS or s.vacated else s.bot for s in self.seats]
        kept = [s.player_id if s.kind in PLAYERS else None for s in self.seats]
        return {"seat": seat, "plan": {
            "preset": self.preset, "options": options, "hands": self.rules.hands_per_match,
            "seats": seats, "decision_seconds": self.settings.decision_seconds,
            "reserve_seconds": self.settings.reserve_seconds, "auto_bot": self.settings.auto_bot,
            "fill_after": REMATCH_FILL, "kept": kept if any(kept) else None}}

    def set_rematch(self, token: str, code: str) -> str:
        """The rematch of this room is room ``code`` (unless one was set first: its code is
        returned); every seat and spectator is told (``rematch``). Raises :class:`RoomError`
        403 ``bad_token``."""
        if self.seats.seat_of(token) is None:
            raise RoomError(403, "not a seat of this room", "bad_token")
        if self.rematch_code is None:
            self.rematch_code = code
            sending.everyone(self, protocol.rematch(code, self.seats.seat_of(token)))
        return self.rematch_code

    def give_to_bot(self, token: str, seat: int) -> None:
        """Another player of the room (``token``) hands the disconnected player of ``seat``
        to a bot (托管) until that player reconnects with their token. Raises
        :class:`RoomError` 403, 409 (``seat_is_bot``: a bot's seat; ``seat_connected``: a
        connected player's, one still arriving, or the asker's own; ``not_playing``), 422."""
        asker = self.seats.seat_of(token)
        if asker is None:
            raise RoomError(403, "not a seat of this room", "bad_token")
        if seat not in SEATS:
            raise RoomError(422, "seat: 0, 1 or 2", "bad_seat")
        slot = self.seats[seat]
        if slot.kind not in PLAYERS:
            raise RoomError(409, f"seat {seat} is played by a bot already", "seat_is_bot")
        if slot.conn is not None or slot.arriving or asker == seat:
            raise RoomError(409, "only a disconnected player's seat can be given to a bot "
                                 "(a player who has just joined is connecting)",
                            "seat_connected")
        if self.match is None or not self.playing:
            raise RoomError(409, "the match is not being played", "not_playing")
        slot.auto, slot.away = True, True
        sending.players(self)
        self.pacer.schedule(self)

    def attach(self, conn: Sink, token: str, hand: int | None, last_event: int | None) -> int:
        """Connect ``conn`` to the seat of ``token`` (:meth:`Seats.connect`: 托管 ends, an
        older connection is replaced). Sends ``welcome`` then either the missing events
        (``hand``/``last_event`` name what the client has) or the full view. Raises
        :class:`RoomError` 403 for a bad token."""
        slot = self.seats.connect(conn, token)
        self._cancel_drop(slot.index)
        self.idle_since = None
        if self.match is not None:
            self.pacer.schedule(self)
        elif self.seats.full():  # the match could not be stored when the room filled: retry
            self.post_nowait(self._try_start)
        conn.send(sending.welcome(self, slot.index))
        if self.match is not None:
            sending.state(self, slot, hand, last_event)
        sending.players(self)
        if self.spectators:
            conn.send(protocol.spectators(len(self.spectators)))
        sending.between(self)  # back: no longer ready at once
        return slot.index

    def watch(self, conn: Sink) -> None:
        """A spectator (旁观) starts watching with ``conn`` (:mod:`.spectators`): ``welcome``
        (seat None), the hand in play as everyone may see it (R13), and every seat and
        spectator is told the new count. Raises :class:`RoomError` 409 ``no_spectators`` when
        the room takes no more (``max_spectators``)."""
        spectator = self.spectators.add(conn)
        if spectator is None:
            raise RoomError(409, "this room takes no more spectators", NO_SPECTATORS)
        conn.send(sending.welcome(self, None))
        sending.watch_state(self, spectator)
        sending.spectators(self)

    def unwatch(self, conn: Sink) -> None:
        """A spectator's connection closed: the others are told the new count."""
        if self.spectators.remove(conn):
            sending.spectators(self)

    def spectator_message(self, conn: Sink, msg: Any) -> None:
        """A validated message from a spectator: ``sync`` is answered (the state again);
        anything a seat would send is refused (``error`` ``spectator``, R13: watching is
        read-only)."""
        spectator = self.spectators.find(conn)
        if spectator is None:
            return
        if isinstance(msg, protocol.Sync):
            conn.send(sending.welcome(self, None))
            sending.watch_state(self, spectator)
        else:
            conn.send(protocol.error(SPECTATOR, "spectators watch: they may not act or chat"))

    def detach(self, conn: Sink) -> None:
        """A connection closed. Ignored unless it is still the seat's connection. During the
        match, the player is played by 托管 if not back within ``drop_grace`` seconds."""
        seat = conn.seat
        if self.seats.disconnect(conn):
            if not self.seats.connected():
                self.idle_since = time.time()
            sending.players(self)
            sending.between(self)  # a dropped seat is ready at once
            self.pacer.all_ready(self)
            if self.match is not None:
                self._cancel_drop(seat)
                self.drops[seat] = self.clock.call_later(
                    self.config.drop_grace, lambda: self.post_nowait(self._dropped, seat))
                self.pacer.schedule(self)

    def _cancel_drop(self, seat: int) -> None:
        handle = self.drops.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def _dropped(self, seat: int) -> None:
        """``drop_grace`` after a player's connection dropped: still away, 托管 plays the seat
        until the player is back (:meth:`attach` ends it)."""
        self.drops.pop(seat, None)
        slot = self.seats[seat]
        # (also when 托管 already plays it after timeouts: after the grace every dropped seat
        # shows it alike, whatever came before, R13)
        if (slot.kind in PLAYERS and slot.conn is None and not slot.away
                and self.match is not None and self.playing):
            slot.auto, slot.timeouts, slot.away = True, 0, True
            sending.players(self)
            self.pacer.schedule(self)

    # --- commands: messages ------------------------------------------------------------
    async def client_message(self, conn: Sink, msg: Any) -> None:
        """A validated message from a connected seat (action, ready, auto, sync, entropy)."""
        seat = conn.seat
        if seat is None or self.seats[seat].conn is not conn:
            return
        slot = self.seats[seat]
        if isinstance(msg, protocol.ActionMessage):
            await self._client_action(slot, msg)
        elif isinstance(msg, protocol.Ready):
            if self.pacer.between(self) is None:
                return  # only between hands: a ready sent in play is not kept for the next
            slot.ready = True
            sending.between(self)
            self.pacer.all_ready(self)
        elif isinstance(msg, protocol.Chat):
            self._chat(slot, msg.say)
        elif isinstance(msg, protocol.Auto):
            slot.auto, slot.timeouts = msg.on, 0
            conn.send(protocol.auto(slot.auto, protocol.AUTO_ASKED))
            if self.match is not None:
                self.pacer.schedule(self)
                sending.between(self)  # 托管 is ready at once (between hands)
                self.pacer.all_ready(self)
        elif isinstance(msg, protocol.Sync):
            if self.match is None:
                conn.send(sending.welcome(self, seat))
            else:
                sending.state(self, slot, None, None)
                between = self.pacer.between(self)
                if between is not None:
                    conn.send(between)
        elif isinstance(msg, protocol.HintRequest):
            self._hint(slot, conn)
        elif isinstance(msg, protocol.Entropy):
            answer = fairdeal.take(self, seat, msg.hand, msg.value)
            if isinstance(answer, dict):
                conn.send(answer)
            else:
                self.refuse(slot, None, *answer)

    def _chat(self, slot: Slot, say: str) -> None:
        """A quick phrase or emote of ``slot`` (:mod:`.chat`): relayed to every seat and
        spectator as ``chat``, unless the seat is over its rate (then only it is told,
        ``error`` ``chat_limited``)."""
        if not self.chat.allow(slot.index):
            slot.conn.send(protocol.error(CHAT_LIMITED, "too many quick phrases; wait a moment"))
            return
        sending.everyone(self, protocol.chat(slot.index, say))

    def _hint(self, slot: Slot, conn: Sink) -> None:
        """The expert's ranking of the seat's choices now (``hint``, for the hand and version
        asked about: it may come after later updates, which the client knows by the version),
        or ``not_playing``. Worked out beside the room (:class:`.hints.SeatHints`)."""
        if self.match is None or not self.playing or self.match.hand.ended:
            self.refuse(slot, None, protocol.NOT_PLAYING, "no hand is being played")
            return
        number, version = len(self.match.hands) - 1, self.version
        self.hints.ask(self.match.hand, conn.seat, (number, version, conn.seat),
                       lambda choices: conn.send(protocol.hint(number, version, choices)))

    async def _client_action(self, slot: Slot, msg: protocol.ActionMessage) -> None:
        """A player's action: refused in the order of docs/protocol.md, else played. Its id
        is remembered whatever became of it."""
        if msg.id in slot.recent:
            self.refuse(slot, msg.id, protocol.DUPLICATE,
                        f"action id {msg.id!r} was already {slot.recent[msg.id]}")
            return
        problem: Problem | None = (protocol.NOT_PLAYING, "no hand is being played", None)
        try:
            if self.match is not None and self.playing and not self.match.hand.ended:
                problem = await self._check_and_play(slot, msg)
            if problem is not None:
                self.refuse(slot, msg.id, *problem)
        finally:
            slot.remember(msg.id, REFUSED if problem is not None else ACCEPTED)

    async def _check_and_play(self, slot: Slot, msg: protocol.ActionMessage) -> Problem | None:
        try:
            action = action_from_json(msg.action)
        except ValueError as exc:
            return protocol.BAD_ACTION, str(exc), None
        if action.seat != slot.index:
            return protocol.NOT_YOUR_SEAT, f"this connection plays seat {slot.index}", None
        if msg.version != self.version:
            return (protocol.STALE, f"version {msg.version} is not the current version "
                                    f"{self.version}: the table changed", None)
        return await self.play(slot.index, action, BY_PLAYER, msg.id)

    def refuse(self, slot: Slot, action_id: str | None, code: str, reason: str,
               rule: str | None = None) -> None:
        """Tell ``slot``'s connection (if any) that its action (or entropy, ``action_id``
        None) was not taken: ``refused`` with ``code``, ``reason`` and RULES.md ``rule``."""
        if slot.conn is not None:
            self.stats["refused"] += 1
            slot.conn.send(protocol.refused(action_id, code, reason, self.version, rule))

    # --- playing: validate -> apply -> store -> broadcast ------------------------------
    async def play(self, seat: int, action: Action, by: str, action_id: str | None = None,
                   quiet: bool = False) -> Problem | None:
        """Validate, apply, store, then broadcast (``quiet``: the caller broadcasts). Returns
        None when accepted (or kept until the claim window's minimum is over,
        :meth:`Pacer.hold`), else ``(code, reason, rule)`` with the state unchanged — also
        when storing failed (``storage``: the hand is put back as it was before the action).
        ``by``: who played it (:mod:`.pacing`: ``player``, ``timeout``, ``bot``, ``auto``,
        ``window``). A move that opens a claim window no minimum holds (R13.2) takes the
        passes of the seats with no option with it (:meth:`Pacer.passes_at_once`): one write
        and one update."""
        if self.pacer.holding(self):  # R13.2: no answer closes the window before its minimum
            return self.pacer.hold(self, seat, action, by, action_id)
        problem, over, _ = await self._play(((seat, action, by),), then_idle=not quiet)
        if problem is None and not quiet:
            self.broadcast({} if by == BY_WINDOW else {seat: action_id})
            if over:
                await self.finish()
        return problem

    async def answer_for(self, moves: list[tuple[int, Action, str]]
                         ) -> tuple[Problem | None, list[int]]:
        """The answers the server gives for seats to the tile on the table (R13.2): the
        passes of seats with no option and the bots' answers (``moves``: (seat, action,
        ``by``), in seat order), validated and applied one after the other while the window
        stays open (a win settles it before every seat has answered, R4.3) and stored as
        one write (:meth:`Store.add_action` with their rows), not broadcast (the caller
        does). Returns the problem (None: taken, else the state as before the first,
        :meth:`play`) and the seats whose moves were taken."""
        problem, _, taken = await self._play(tuple(moves), window_only=True)
        return problem, taken

    async def _play(self, moves: tuple[tuple[int, Action, str], ...], then_idle: bool = False,
                    window_only: bool = False) -> tuple[Problem | None, bool, list[int]]:
        """Validate and apply ``moves`` ((seat, action, who played it), in order; with
        ``window_only``, only while the claim window of the first stays open) — and, with
        ``then_idle``, the passes :meth:`Pacer.passes_at_once` then asks for — store them in
        one write, then tell the pacer: :meth:`play` and :meth:`answer_for` without their
        broadcast. Returns the problem (None: accepted), whether the moves ended the match
        and the seats whose moves were taken."""
        match = self.match
        hand = match.hand
        before = len(hand.actions)  # (put back by a replay when a move or the write fails)
        events = 0
        rows, taken = [], []
        opened = len(hand.events)  # (answers make no event: one closes the window)
        for seat, action, by in self._with_idle(moves, then_idle):
            if window_only and len(hand.events) != opened:
                break
            try:
                events += len(hand.apply(action))  # (refused with the hand unchanged)
            except IllegalAction as exc:
                code = protocol.ILLEGAL if hand.legal_actions(seat) else protocol.OUT_OF_TURN
                if len(hand.actions) > before:  # a later move, after the first was applied
                    match.hands[-1] = hand.replayed(before)
                return (code, exc.reason, exc.rule), False, []
            rows.append(ActionRow(self.match_id, match.number, len(hand.actions) - 1, seat,
                                  action.to_json(), by))
            taken.append((seat, action, by))
        over = hand.ended and match.over
        what = ", ".join(f"{by} {action}" for _, action, by in taken)
        stored = await self.stored(
            lambda: self.store.add_action(
                rows[0] if len(rows) == 1 else tuple(rows),
                hand_result=hand_result(hand) if hand.ended else None,
                totals=match.totals() if hand.ended else None, match_over=over,
                room_code=self.code), what)
        if not stored:
            match.hands[-1] = hand.replayed(before)
            by = moves[0][2]
            if by != BY_PLAYER:  # nobody would ask again: the pacer tries it later
                seat = moves[0][0]
                wait = self.pacer.stalled(self, seat, by)
                self.seats.send_all(protocol.error(
                    protocol.STORAGE, f"the server could not store a move of seat {seat}; "
                                      f"it tries again in {wait:g} s"))
            return (protocol.STORAGE, "the server could not store the action; try again",
                    None), False, []
        self.stats["accepted"] += len(taken)
        self.version += events
        for seat, _, by in taken:
            self.pacer.played(self, seat, by)
        if over:
            self.status = FINISHED
        self.pacer.schedule(self)
        return None, over, [seat for seat, _, _ in taken]

    def _with_idle(self, moves: tuple[tuple[int, Action, str], ...], then_idle: bool):
        """``moves``, then (``then_idle``: asked once they are applied) the passes of
        :meth:`Pacer.passes_at_once`, each as (seat, action, who played it)."""
        yield from moves
        if then_idle:
            for seat in self.pacer.passes_at_once(self):
                yield seat, Action(seat, PASS), BY_WINDOW

    async def stored(self, write: Callable[[], Awaitable[Any]], what: str) -> bool:
        """Run ``write()`` (a store write), trying again ``config.store_retries`` times after
        ``config.store_backoff`` seconds, doubled each time (a locked or busy database, a
        lost connection). True once it is stored; False (logged in one line) if every try
        failed. The room's task waits meanwhile: nothing else changes the room. In a
        cluster, False at once (nothing written) when this process no longer holds the
        room's lease (``fence``, issue 17), and when a write collides with a row already
        stored (``on_conflict`` is told: the room is rebuilt from the database)."""
        delay = self.config.store_backoff
        for attempt in range(self.config.store_retries + 1):
            if self.fence is not None and not self.fence():
                log.warning("room %s: not storing %s: this process no longer owns the room",
                            self.code, what)
                return False
            try:
                await write()
                self.stats["store_failures"] = 0
                return True
            except Exception as exc:
                if self.on_conflict is not None and isinstance(exc, IntegrityError):
                    log.warning("room %s: storing %s collides with a row another process "
                                "stored for this room; rebuilt from the database", self.code,
                                what)
                    self.on_conflict(self)
                    return False
                if attempt == self.config.store_retries:
                    self.stats["store_failures"] = self.stats.get("store_failures", 0) + 1
                    log.warning("room %s: could not store %s after %d tries: %r", self.code,
                                what, attempt + 1, exc)
                    return False
                log.info("room %s: storing %s failed (%r); again in %g s", self.code, what,
                         exc, delay)
                await asyncio.sleep(delay)
                delay *= 2
        return False

    def broadcast(self, acks: dict[int, str | None] | None = None) -> None:
        """Send every connected seat its new events and view (:func:`.sending.broadcast`)."""
        sending.broadcast(self, acks)

    async def tell(self, acks: dict[int, str | None]) -> None:
        """After moves played ``quiet`` (:meth:`play`, :meth:`answer_for`: a claim window's
        end, the passes of the seats without an option, R13.2): one update to every seat
        (``acks``: seat -> the id of its action acknowledged), then the match's end if they
        ended it. What the pacer asks of the room instead of sending itself."""
        self.broadcast(acks)
        if self.finished:
            await self.finish()

    async def _rate(self, match_id: str) -> None:
        self.rating = await self.store.players.rate(match_id)

    # --- hands ---------------------------------------------------------------------------
    async def _try_start(self) -> None:
        """Start the match if it has not started: deal the first hand, store match and hand,
        then send. A storage failure is logged and retried when a player next connects."""
        if self.match is not None:
            return
        match = new_match(self.rules, self.walls, self.next_match_id, self.opening)
        sittings = [sitting(self.next_match_id, s.index, s.player_id, 0)
                    for s in self.seats.humans() if s.player_id is not None]
        if not await self.stored(lambda: self.store.start_match(
                self.code, match_row(self.next_match_id, self.code, self.rules,
                                     self.seats.players()),
                hand_row(self.next_match_id, 0, match.hand, match.fair[0]), sittings),
                "the new match"):
            self.seats.send_all(protocol.error(
                protocol.STORAGE, "the server could not store the new match; it tries again"))
            self.clock.call_later(self.config.stalled_retry,
                                  lambda: self.post_nowait(self._try_start))
            return
        self.match, self.match_id, self.status = match, self.next_match_id, PLAYING
        self.version = len(match.hand.events)
        for slot in self.seats:
            slot.reserve = self.settings.reserve_seconds
        sending.players(self)
        self.pacer.schedule(self)
        self.broadcast()

    async def next_hand(self, version: int) -> None:
        """Deal the next hand (after the pause, or when everyone is ready). Ignored if the
        room moved on. The hand is stored before anyone is sent its deal; if that fails it is
        dealt again a moment later."""
        self.pacer.cancel_next()
        match = self.match
        if (match is None or version != self.version or not match.hand.ended or match.over
                or self.seats.paused()):
            return
        hand = match.next_hand()
        row = hand_row(self.match_id, match.number, hand, match.fair[-1])
        if not await self.stored(lambda: self.store.add_hand(row), f"hand {match.number}"):
            match.drop_last()
            self.pacer.retry_next(self, version)
            return
        self.version += len(hand.events)
        compact(match.hands)  # the hands before the last: stored, dropped from memory
        self.seats.new_hand(self.settings.reserve_seconds)
        self.pacer.schedule(self)
        self.broadcast()

    async def finish(self) -> None:
        """The match is over: it is rated (:meth:`PlayerStore.rate
        <kawuxing.server.playerstore.PlayerStore.rate>`, docs/ratings.md; ``rating`` stays
        None if that could not be stored — it is done again when a player asks for the room
        once it is unloaded), every connected seat and spectator gets ``match_end``; the
        manager is told."""
        match_id = self.match_id
        await self.stored(lambda: self._rate(match_id), f"the rating of match {match_id}")
        sending.everyone(self, sending.match_end(self))
        if self.on_finished is not None:
            self.on_finished(self)
