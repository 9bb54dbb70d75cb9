"""A room: three seats, one match, and the one task that changes them.

Everything that changes a room — a player's action, a join, a connection coming or going, a
timer, a bot's move, the next deal — is a command on the room's asyncio queue, run one at a
time by the room's task (:meth:`Room.post`). Nothing races: two players answering one discard
at the same moment are two commands, and the engine resolves their claims (R4.3).

An action is applied to the engine (refused with IllegalAction's reason and rule, the state
untouched), then stored (committed) through the database writer, and only then are its events
sent. Each seat is sent only :func:`~kawuxing.engine.views.seat_view` of itself and
:func:`~kawuxing.engine.views.events_for_seat` (R13) — never the state, never the wall.

The room's ``version`` is the number of events of its match so far. Every event reaches every
seat (filtered), so every seat knows the version; an answer to a discard that does not settle
it makes no event and so does not move the version — the other seats cannot learn from the
version who had a claim (R13). An action must carry the current version, else it is stale.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import secrets
import time
import unicodedata
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Protocol

from .. import fairness
from ..agents import make_agent
from ..agents.base import Agent
from ..engine import CLAIM, DISCARD, PASS, PIAO, ROB, Action, IllegalAction
from ..engine.actions import action_from_json
from ..engine.match import HandSeed, Match
from ..engine.observation import observe
from ..engine.views import events_for_seat, hand_result, seat_view
from ..records import hand_record, replay
from ..rules import RuleSet
from . import protocol
from .clock import Clock, TimerHandle
from .config import ServerConfig
from .db import ActionRow, Store, dumps
from .seeds import first_hand_seed, new_match, restore_match
from .tokens import hash_token, new_token, token_matches

log = logging.getLogger("kawuxing.server.room")

OPEN, HUMAN, BOT = "open", "human", "bot"
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
RECENT_IDS = 512  # action ids remembered per seat to refuse duplicates


class RoomError(Exception):
    """A request the room refuses: ``status`` (an HTTP status) and ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Sink(Protocol):
    """A connection as the room sees it: ``send(message dict)`` never blocks;
    ``close(code, reason)``; ``seat`` is set by the room."""

    seat: int | None

    def send(self, message: dict) -> None:
        """Queue one message (a JSON-ready dict) for the client; must not block."""
        ...

    def close(self, code: int, reason: str = "") -> None:
        """Close the connection (after what is queued) with a WebSocket close code."""
        ...


@dataclass
class RoomSettings:
    """Per-room timing: ``decision_seconds`` per decision plus a per-hand ``reserve_seconds``
    bank; ``auto_bot``: the bot that plays a seat under 托管 or left by its player."""

    decision_seconds: float = 20.0
    reserve_seconds: float = 30.0
    auto_bot: str = "heuristic"

    def to_dict(self) -> dict:
        """JSON-ready."""
        return asdict(self)


@dataclass
class Slot:
    """One seat of a room. ``kind``: ``open`` (free), ``human`` (has a token) or ``bot``.
    A ``bot`` seat that a player left is ``vacated``: a new player may join it. ``auto``: a
    bot plays this human seat for now (托管)."""

    index: int
    kind: str = OPEN
    bot: str | None = None
    nickname: str | None = None
    token_hash: str | None = None
    vacated: bool = False
    conn: Sink | None = None
    agent: Agent | None = None
    auto: bool = False
    timeouts: int = 0
    reserve: float = 0.0
    ready: bool = False
    recent: OrderedDict = field(default_factory=OrderedDict)  # action id -> outcome
    sent_hand: int = -1  # hand number and next event index already sent to the connection
    sent: int = 0

    def public(self) -> dict:
        """What everyone may know of the seat (not whether a bot plays a human seat: a
        timeout in a claim window would tell that the seat had a claim, R13)."""
        return {"seat": self.index, "kind": self.kind, "bot": self.bot,
                "nickname": self.nickname, "connected": self.conn is not None,
                "vacated": self.vacated}


@dataclass
class _Timer:
    version: int
    handle: TimerHandle
    started: float
    limit: float
    tid: int


def clean_nickname(raw: object) -> str:
    """A nickname: text of 1-24 characters, control and format characters removed, spaces
    collapsed. Raises :class:`RoomError` (422) otherwise."""
    if not isinstance(raw, str):
        raise RoomError(422, "nickname: a text of 1-24 characters")
    text = "".join(c for c in raw if not unicodedata.category(c).startswith("C"))
    text = " ".join(text.split())
    if not 1 <= len(text) <= 24:
        raise RoomError(422, "nickname: a text of 1-24 characters")
    return text


def timeout_action(legal: list[Action], hand) -> Action:
    """What the server plays for a seat whose time ran out: in its turn, the tile just drawn
    if that discard is legal, else the first legal discard (never a 亮倒); on a discard or a
    kong being added: pass; choosing 漂: the smallest (R11.1)."""
    passes = [a for a in legal if a.verb == PASS]
    if passes:
        return passes[0]
    piao = [a for a in legal if a.verb == PIAO]
    if piao:
        return min(piao, key=lambda a: a.piao)
    discards = [a for a in legal if a.verb == DISCARD and not a.declare]
    if discards:
        drawn = hand.seats[legal[0].seat].drawn
        for a in discards:
            if a.tile == drawn:
                return a
        return discards[0]
    declares = [a for a in legal if a.verb == DISCARD]
    return declares[0] if declares else legal[0]


class Room:
    """A room (see module doc). Create with :meth:`create` or :meth:`restore`, then
    :meth:`start`; talk to it only through :meth:`post` / :meth:`post_nowait` (commands run in
    the room's task) — :meth:`public_info` is the one read-only exception.

    ``code``: the room code; ``rules``: its :class:`RuleSet`; ``slots``: the three seats;
    ``match``: the :class:`~kawuxing.engine.Match` once three seats are filled; ``version``:
    events so far.
    """

    def __init__(self, code: str, preset: str, options: dict, rules: RuleSet,
                 settings: RoomSettings, store: Store, config: ServerConfig, clock: Clock,
                 walls: list[list[int]] | None = None,
                 on_finished: Callable[[Room], None] | None = None) -> None:
        self.code = code
        self.preset = preset
        self.options = options
        self.rules = rules
        self.settings = settings
        self.store = store
        self.config = config
        self.clock = clock
        self.walls = walls
        self.on_finished = on_finished
        self.slots = [Slot(i) for i in range(3)]
        self.status = WAITING
        self.match: Match | None = None
        self.match_id: str | None = None
        # the first hand's commitment, published while the room waits (R3.1; none for a
        # test wall), and the id its match will have
        self.next_match_id = secrets.token_hex(8)
        self.opening: HandSeed | None = None if walls else first_hand_seed(rules,
                                                                           self.next_match_id)
        self.version = 0
        self.created_at = time.time()
        self.queue: asyncio.Queue = asyncio.Queue()
        self.task: asyncio.Task | None = None
        self.timers: dict[int, _Timer] = {}
        self.bot_handles: dict[int, tuple[int, TimerHandle]] = {}  # bot moves, window passes
        # R13.2: when the claim window on the table opened ((hand, event count), clock time)
        # and the answers that came before its minimum, applied when it is over
        self.window: tuple[tuple[int, int], float] | None = None
        self.held: dict[int, tuple[Action, str, str | None]] = {}
        self.window_handle: tuple[tuple[int, int], TimerHandle] | None = None
        self.next_handle: TimerHandle | None = None
        self._timer_seq = 0
        self.stats = {"accepted": 0, "refused": 0, "timeouts": 0, "bot": 0}

    # --- running ---------------------------------------------------------------------
    def start(self) -> None:
        """Start the room's task in the running loop."""
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"room-{self.code}")

    def post(self, fn: Callable, *args: Any) -> asyncio.Future:
        """Run ``fn(*args)`` (a method of this room; may be a coroutine) in the room's task
        after the commands already queued; the future gets its result or exception."""
        future = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((fn, args, future))
        return future

    def post_nowait(self, fn: Callable, *args: Any) -> None:
        """Like :meth:`post`, without a result (timers, disconnections)."""
        self.queue.put_nowait((fn, args, None))

    async def stop(self, code: int = protocol.CLOSE_RESTART, reason: str = "server stopping",
                   timeout: float = 5.0) -> None:
        """Finish the command in progress, cancel timers, close connections with ``code``."""
        self._cancel_all()
        if self.task is not None and not self.task.done():
            self.queue.put_nowait(None)
            try:
                await asyncio.wait_for(self.task, timeout)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                self.task.cancel()
        self._cancel_all()
        for slot in self.slots:
            if slot.conn is not None:
                slot.conn.close(code, reason)
                slot.conn = None

    async def _run(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None:
                return
            fn, args, future = item
            try:
                result = fn(*args)
                if inspect.isawaitable(result):
                    result = await result
            except Exception as exc:
                if not isinstance(exc, RoomError):
                    log.exception("room %s: %s failed", self.code, getattr(fn, "__name__", fn))
                if future is not None and not future.done():
                    future.set_exception(exc)
                continue
            if future is not None and not future.done():
                future.set_result(result)

    # --- building ----------------------------------------------------------------------
    def row(self) -> dict:
        """The room's ``kwx_rooms`` columns."""
        now = time.time()
        return {"code": self.code, "created_at": self.created_at, "updated_at": now,
                "status": self.status, "preset": self.preset, "options": dumps(self.options),
                "rules": dumps(self.rules.to_dict()), "settings": dumps(self.settings.to_dict()),
                "match_id": self.match_id}

    def seat_rows(self) -> list[dict]:
        """The three ``kwx_seats`` rows (without the room code)."""
        return [{"seat": s.index, "kind": s.kind, "bot": s.bot, "nickname": s.nickname,
                 "token_hash": s.token_hash, "vacated": s.vacated} for s in self.slots]

    def set_bot(self, seat: int, spec: str, vacated: bool = False) -> None:
        """Make ``seat`` a bot seat playing ``spec`` (before the room starts, or on restore)."""
        slot = self.slots[seat]
        slot.kind, slot.bot, slot.vacated = BOT, spec, vacated
        slot.nickname = slot.nickname if vacated else f"{spec} bot"
        slot.token_hash = None
        slot.agent = make_agent(spec)

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
        room.created_at = row["created_at"]
        room.status = row["status"]
        for s in row["seats"]:
            slot = room.slots[s["seat"]]
            slot.nickname = s["nickname"]
            if s["kind"] == BOT:
                room.set_bot(s["seat"], s["bot"], bool(s["vacated"]))
                slot.nickname = s["nickname"]
            else:
                slot.kind, slot.token_hash = s["kind"], s["token_hash"]
        if row["match"] is not None and row["hands"]:
            hands, fair = [], []
            for h in row["hands"]:
                record = json.loads(h["record"])
                record["actions"] = h["actions"]
                hands.append(replay(record))
                fair.append(HandSeed.from_record(record.get("fairness"), len(fair),
                                                 record["dealer"]))
            room.match = restore_match(rules, hands, fair, row["match"]["id"])
            room.match_id = row["match"]["id"]
            room.match.open_next()  # a hand that had ended: a new commitment for the next
            room.version = sum(len(h.events) for h in hands)
            room.status = FINISHED if room.match.over else PLAYING
            for slot in room.slots:
                slot.reserve = settings.reserve_seconds
        return room

    async def resume(self) -> None:
        """After :meth:`restore`: start the match if the seats were filled but it never
        started; else schedule what is due (nothing runs until a player connects, unless
        every seat is a bot)."""
        if self.match is None and self.status == WAITING and self._full():
            await self._try_start()
            return
        if self.match is not None:
            self._schedule()

    # --- reading -----------------------------------------------------------------------
    def public_info(self) -> dict:
        """What anyone with the room code may read: status, rules, seats (nicknames, kinds,
        connected), hand number and totals, and the commitment open for the next deal
        (``commit``, R3.1). No tokens, no tiles, no seed."""
        info = {"code": self.code, "status": self.status, "preset": self.preset,
                "options": self.options, "rules": self.rules.to_dict(),
                "settings": self.settings.to_dict(),
                "hands_per_match": self.rules.hands_per_match,
                "seats": [s.public() for s in self.slots], "hand": None, "totals": None,
                "match_id": self.match_id, "commit": self._commit()}
        if self.match is not None:
            info["hand"] = self.match.number
            info["totals"] = self.match.totals()
        return info

    def _full(self) -> bool:
        return all(s.kind != OPEN for s in self.slots)

    def _open_seed(self) -> HandSeed | None:
        """The hand whose commitment is published and not yet dealt: the first hand while
        the room waits, else the next hand once the one in play has ended (R3.1)."""
        if self.match is None:
            return self.opening if self.status == WAITING else None
        pending = self.match.pending
        if (pending is not None and self.match.hand.ended and not self.match.over
                and pending.number == len(self.match.hands)):
            return pending
        return None

    def _commit(self) -> dict | None:
        seed = self._open_seed()
        return seed.announcement() if seed is not None else None

    def entropy_counted(self, seat: int, commitment: str | None) -> str | None:
        """The entropy recorded for ``seat`` in the hand of ``commitment`` (dealt or not),
        or None: what a join with entropy can report (read-only)."""
        candidates = [self.opening, self.match.pending if self.match else None]
        candidates += self.match.fair if self.match else []
        for seed in candidates:
            if seed is not None and seed.commitment == commitment:
                return seed.entropy[seat] or None
        return None

    def _seat_of(self, token: str | None) -> int | None:
        found = None
        for slot in self.slots:  # every seat compared: no early exit on a match
            if slot.kind == HUMAN and token_matches(token, slot.token_hash):
                found = slot.index
        return found

    def _humans(self) -> list[Slot]:
        return [s for s in self.slots if s.kind == HUMAN]

    def _paused(self) -> bool:
        """A room with players, none of them connected, waits (no timers, no bot moves)."""
        humans = self._humans()
        return bool(humans) and all(s.conn is None for s in humans)

    def _botted(self, seat: int) -> bool:
        slot = self.slots[seat]
        return slot.kind == BOT or (slot.kind == HUMAN and slot.auto)

    # --- commands: seats ---------------------------------------------------------------
    async def join(self, nickname: str, seat: int | None = None, entropy: str | None = None,
                   commitment: str | None = None) -> tuple[int, str]:
        """Take a seat: an open one, or (once the match is on) one a player left to a bot.
        Returns ``(seat, token)``; the match starts when no seat is open. ``entropy`` (R3.1):
        the seat's text for the hand of ``commitment``, counted if that commitment is still
        open — before the deal this join may trigger (see :meth:`entropy_counted`). Raises
        :class:`RoomError` 409 when the room is full or finished, 422 for a bad nickname,
        seat or entropy."""
        nickname = clean_nickname(nickname)
        if entropy is not None:
            try:
                fairness.check_entropy(entropy, allow_empty=False)
            except fairness.FairnessError as exc:
                raise RoomError(422, str(exc)) from None
        if self.status not in (WAITING, PLAYING):
            raise RoomError(409, "the match of this room is over")
        if seat is not None:
            if seat not in (0, 1, 2):
                raise RoomError(422, "seat: 0, 1 or 2")
            slot = self.slots[seat]
            if not (slot.kind == OPEN or (slot.kind == BOT and slot.vacated)):
                raise RoomError(409, f"seat {seat} is taken")
        else:
            free = [s for s in self.slots if s.kind == OPEN] or \
                [s for s in self.slots if s.kind == BOT and s.vacated]
            if not free:
                raise RoomError(409, "the room is full")
            slot = free[0]
        token = new_token()
        before = (slot.kind, slot.bot, slot.nickname, slot.token_hash, slot.vacated, slot.agent)
        slot.kind, slot.bot, slot.nickname = HUMAN, None, nickname
        slot.token_hash, slot.vacated, slot.agent = hash_token(token), False, None
        slot.auto, slot.timeouts, slot.reserve = False, 0, self.settings.reserve_seconds
        try:
            await self.store.update_seat(self.code, slot.index, kind=HUMAN, bot=None,
                                         nickname=nickname, token_hash=slot.token_hash,
                                         vacated=False)
        except Exception:
            (slot.kind, slot.bot, slot.nickname, slot.token_hash, slot.vacated,
             slot.agent) = before
            raise RoomError(503, "could not store the seat; try again") from None
        opened = self._open_seed()
        if entropy is not None and opened is not None and opened.commitment == commitment:
            opened.entropy[slot.index] = entropy
        self._send_players()
        if self.match is None and self._full():
            await self._try_start()
        elif self.match is not None:
            self._schedule()
        return slot.index, token

    async def leave(self, token: str) -> int:
        """The player of ``token`` leaves: before the match the seat is open again; during
        it a bot plays the seat (``vacated``: another player may join it). The token stops
        working. Raises :class:`RoomError` 403 for a token that is no seat here."""
        seat = self._seat_of(token)
        if seat is None:
            raise RoomError(403, "not a seat of this room")
        slot = self.slots[seat]
        conn = slot.conn
        if self.match is None:
            values = {"kind": OPEN, "bot": None, "nickname": None, "token_hash": None,
                      "vacated": False}
        else:
            values = {"kind": BOT, "bot": self.settings.auto_bot, "nickname": slot.nickname,
                      "token_hash": None, "vacated": True}
        try:
            await self.store.update_seat(self.code, seat, **values)
        except Exception:
            raise RoomError(503, "could not store the seat; try again") from None
        slot.conn = None
        if self.match is None:
            slot.kind, slot.bot, slot.nickname, slot.token_hash = OPEN, None, None, None
        else:
            self.set_bot(seat, self.settings.auto_bot, vacated=True)
        if conn is not None:
            conn.send({"type": "left", "seat": seat})
            conn.close(1000, "left the room")
        self._send_players()
        if self.match is not None:
            self._schedule()
        return seat

    def give_to_bot(self, token: str, seat: int) -> None:
        """Another player of the room (``token``) hands the disconnected player of ``seat``
        to a bot (托管) until that player reconnects with their token. Raises
        :class:`RoomError` 403/409/422."""
        asker = self._seat_of(token)
        if asker is None:
            raise RoomError(403, "not a seat of this room")
        if seat not in (0, 1, 2):
            raise RoomError(422, "seat: 0, 1 or 2")
        slot = self.slots[seat]
        if slot.kind != HUMAN or slot.conn is not None or asker == seat:
            raise RoomError(409, "only a disconnected player's seat can be given to a bot")
        if self.match is None or self.status != PLAYING:
            raise RoomError(409, "the match is not being played")
        slot.auto = True
        self._schedule()

    def attach(self, conn: Sink, token: str, hand: int | None, last_event: int | None) -> int:
        """Connect ``conn`` to the seat of ``token``; a previous connection of that seat is
        told it was replaced and closed (its later detach changes nothing). Sends
        ``welcome`` then either the missing events (``hand``/``last_event`` name what the
        client has) or the full view. Raises :class:`RoomError` 403 for a bad token."""
        seat = self._seat_of(token)
        if seat is None:
            raise RoomError(403, "this token is not a seat of this room")
        slot = self.slots[seat]
        old, slot.conn, conn.seat = slot.conn, conn, seat
        if old is not None and old is not conn:
            old.send({"type": "replaced"})
            old.close(protocol.CLOSE_REPLACED, "replaced by a newer connection")
        slot.auto, slot.timeouts = False, 0  # the player is back (托管 ends)
        if self.match is not None:
            self._schedule()
        elif self._full():  # the match could not be stored when the room filled: retry
            self.post_nowait(self._try_start)
        conn.send(self._welcome(seat))
        if self.match is not None:
            self._send_state(slot, hand, last_event)
        self._send_players()
        return seat

    def detach(self, conn: Sink) -> None:
        """A connection closed. Ignored unless it is still the seat's connection."""
        seat = conn.seat
        if seat is None or self.slots[seat].conn is not conn:
            return
        self.slots[seat].conn = None
        self._send_players()
        if self.match is not None:
            self._schedule()

    # --- commands: messages ------------------------------------------------------------
    async def client_message(self, conn: Sink, msg: Any) -> None:
        """A validated message from a connected seat (action, ready, auto, sync, entropy)."""
        seat = conn.seat
        if seat is None or self.slots[seat].conn is not conn:
            return
        slot = self.slots[seat]
        if isinstance(msg, protocol.ActionMessage):
            await self._client_action(slot, msg)
        elif isinstance(msg, protocol.Ready):
            slot.ready = True
            self._maybe_all_ready()
        elif isinstance(msg, protocol.Auto):
            slot.auto, slot.timeouts = msg.on, 0
            conn.send({"type": "auto", "on": slot.auto, "reason": "asked"})
            if self.match is not None:
                self._schedule()
        elif isinstance(msg, protocol.Sync):
            if self.match is None:
                conn.send(self._welcome(seat))
            else:
                self._send_state(slot, None, None)
        elif isinstance(msg, protocol.Entropy):
            self._entropy(slot, msg)

    def _entropy(self, slot: Slot, msg: protocol.Entropy) -> None:
        """A seat's entropy for the hand whose commitment is open (R3.1): recorded (the last
        one counts) and answered ``entropy_ok``; else ``refused`` (``bad_entropy``,
        ``entropy_closed``) and nothing changes."""
        def refuse(code: str, reason: str) -> None:
            self.stats["refused"] += 1
            slot.conn.send(protocol.refused(None, code, reason, self.version, "R3.1"))

        try:
            fairness.check_entropy(msg.value, allow_empty=False)
        except fairness.FairnessError as exc:
            refuse("bad_entropy", str(exc))
            return
        seed = self._open_seed()
        if seed is None:
            refuse("entropy_closed", "no commitment is open: entropy is taken after a "
                                     "commitment is sent and before its hand is dealt")
            return
        if msg.hand != seed.number:
            refuse("entropy_closed", f"the open commitment is for hand {seed.number}, "
                                     f"not {msg.hand}")
            return
        seed.entropy[slot.index] = msg.value
        slot.conn.send({"type": "entropy_ok", "hand": seed.number, "value": msg.value,
                        "commitment": seed.commitment})

    async def _client_action(self, slot: Slot, msg: protocol.ActionMessage) -> None:
        conn = slot.conn
        seat = slot.index

        def refuse(code: str, reason: str, rule: str | None = None) -> None:
            self.stats["refused"] += 1
            conn.send(protocol.refused(msg.id, code, reason, self.version, rule))

        if msg.id in slot.recent:
            refuse("duplicate", f"action id {msg.id!r} was already {slot.recent[msg.id]}")
            return
        outcome = "refused"
        try:
            if self.match is None or self.status != PLAYING or self.match.hand.ended:
                refuse("not_playing", "no hand is being played")
                return
            try:
                action = action_from_json(msg.action)
            except ValueError as exc:
                refuse("bad_action", str(exc))
                return
            if action.seat != seat:
                refuse("not_your_seat", f"this connection plays seat {seat}")
                return
            if msg.version != self.version:
                refuse("stale", f"version {msg.version} is not the current version "
                                f"{self.version}: the table changed")
                return
            problem = await self._play(seat, action, "player", msg.id)
            if problem is not None:
                refuse(*problem)
                return
            outcome = "accepted"
        finally:
            slot.recent[msg.id] = outcome
            while len(slot.recent) > RECENT_IDS:
                slot.recent.popitem(last=False)

    # --- commands: timers and bots -----------------------------------------------------
    async def on_timeout(self, seat: int, version: int, timer_id: int) -> None:
        """A decision timer fired. Does nothing if the decision was made meanwhile (the
        version moved or the seat has nothing to decide). Else plays
        :func:`timeout_action`; after ``auto_after`` timeouts in a row a bot plays the
        seat (托管) until its player acts again."""
        timer = self.timers.get(seat)
        if (timer is None or timer.version != version or timer.tid != timer_id
                or version != self.version or self.match is None or self._botted(seat)):
            return
        hand = self.match.hand
        legal = hand.legal_actions(seat)
        if not legal:
            return
        slot = self.slots[seat]
        del self.timers[seat]
        slot.reserve = 0.0
        slot.timeouts += 1
        self.stats["timeouts"] += 1
        if slot.timeouts >= self.config.auto_after:
            slot.auto = True
            if slot.conn is not None:
                slot.conn.send({"type": "auto", "on": True, "reason": "timeouts"})
        await self._play(seat, timeout_action(legal, hand), "timeout")

    async def bot_move(self, seat: int, version: int) -> None:
        """A bot's turn (a bot seat, or a human seat under 托管), or the pass of a player who
        holds no option on the tile on the table once the claim window's minimum is over
        (R13.2: passed for automatically). Ignored if stale."""
        self.bot_handles.pop(seat, None)
        if (version != self.version or self.match is None or self._paused()
                or self.status != PLAYING):
            return
        hand = self.match.hand
        legal = hand.legal_actions(seat)
        if not legal:
            return
        if not self._botted(seat):
            if seat in hand.idle_seats():
                await self._play(seat, legal[0], "window")
            return
        slot = self.slots[seat]
        if slot.kind == HUMAN and slot.agent is None:
            slot.agent = make_agent(self.settings.auto_bot)
        action = slot.agent.act(observe(hand, seat), legal)
        self.stats["bot"] += 1
        await self._play(seat, action, "auto" if slot.kind == HUMAN else "bot")

    async def next_hand(self, version: int) -> None:
        """Deal the next hand (after the pause, or when everyone is ready). Ignored if the
        room moved on. The hand is stored before anyone is sent its deal."""
        if self.next_handle is not None:
            self.next_handle.cancel()
            self.next_handle = None
        match = self.match
        if (match is None or version != self.version or not match.hand.ended or match.over
                or self._paused()):
            return
        hand = match.next_hand()
        try:
            await self.store.add_hand(self._hand_row(match.number, hand, match.fair[-1]))
        except Exception:
            log.exception("room %s: could not store hand %d", self.code, match.number)
            match.drop_last()
            self.next_handle = self.clock.call_later(
                1.0, lambda: self.post_nowait(self.next_hand, version))
            return
        self.version += len(hand.events)
        for slot in self.slots:
            slot.ready = False
            slot.reserve = self.settings.reserve_seconds
        self._schedule()
        self._broadcast()

    # --- playing -----------------------------------------------------------------------
    async def _play(self, seat: int, action: Action, by: str, action_id: str | None = None,
                    quiet: bool = False) -> tuple[str, str, str | None] | None:
        """Apply, store, then send (``quiet``: the caller sends). Returns None when accepted
        (or kept until the claim window's minimum is over, :meth:`_hold`), else ``(code,
        reason, rule)`` with the state unchanged. ``by``: ``player``, ``timeout``, ``bot``,
        ``auto`` (托管) or ``window`` (a pass for a seat with no option, R13.2)."""
        match = self.match
        hand = match.hand
        if self._window_left() > 1e-3:  # R13.2: no answer closes the window before its minimum
            return self._hold(seat, action, by, action_id)
        try:
            events = hand.apply(action)
        except IllegalAction as exc:
            code = "illegal" if hand.legal_actions(seat) else "out_of_turn"
            return code, exc.reason, exc.rule
        ended = hand.ended
        over = ended and match.over
        try:
            await self.store.add_action(
                ActionRow(self.match_id, match.number, len(hand.actions) - 1, seat,
                          action.to_json(), by),
                hand_result=hand_result(hand) if ended else None,
                totals=match.totals() if ended else None, match_over=over,
                room_code=self.code)
        except Exception:
            log.exception("room %s: could not store %s; undone", self.code, action)
            record = hand_record(hand)
            match.hands[-1] = replay(record, len(record["actions"]) - 1)
            return "storage", "the server could not store the action; try again", None
        self.stats["accepted"] += 1
        self.version += len(events)
        slot = self.slots[seat]
        timer = self.timers.pop(seat, None)
        if by == "player":
            slot.timeouts = 0
            slot.auto = False
            if timer is not None:  # time over the decision limit comes out of the reserve
                used = self.clock.now() - timer.started
                slot.reserve = max(0.0, slot.reserve - max(0.0, used -
                                                             self.settings.decision_seconds))
        if timer is not None:
            timer.handle.cancel()
        if over:
            self.status = FINISHED
        self._schedule()
        if not quiet:
            self._broadcast({} if by == "window" else {seat: action_id})
            if over:
                self._finish()
        return None

    def _window_left(self) -> float:
        """Seconds until the claim window on the table may close (R13.2): ``claim_window``
        from when it opened, in a room with players; 0 when no window is open."""
        key = self._window_key()
        if key is None or self.config.claim_window <= 0 or not self._humans():
            return 0.0
        now = self.clock.now()
        if self.window is None or self.window[0] != key:
            self.window = (key, now)
        return max(0.0, self.window[1] + self.config.claim_window - now)

    def _window_key(self) -> tuple[int, int] | None:
        """(hand number, events so far) while a claim window is open, else None; answers
        make no event, so the key stays the same until the window closes."""
        hand = self.match.hand
        if hand.phase not in (CLAIM, ROB):
            return None
        return self.match.number, len(hand.events)

    def _hold(self, seat: int, action: Action, by: str,
              action_id: str | None) -> tuple[str, str, str | None] | None:
        """An answer that came before the window's minimum: refused now if illegal, else kept
        and applied (acknowledged) when the minimum is over, so that how fast a window closes
        never tells whether another seat could claim (R13.2)."""
        hand = self.match.hand
        if seat in self.held:
            return "illegal", "this seat already answered", "R4.3"
        try:
            hand.check(action)
        except IllegalAction as exc:
            return "illegal", exc.reason, exc.rule
        self.held[seat] = (action, by, action_id)
        self._schedule()
        return None

    async def window_end(self, key: tuple[int, int]) -> None:
        """The claim window's minimum is over (R13.2). In one step, and sent as one update
        to each seat: the seats with no option are passed for and the bots answer (seat
        order), then the answers kept by :meth:`_hold` are applied in the order they came (one
        no longer legal is refused to its seat). A player still deciding keeps the window
        open. Whoever could claim, each seat sees the same messages at the same time."""
        self.window_handle = None
        if self.match is None or self._window_key() != key or self.status != PLAYING:
            return
        hand = self.match.hand
        acks: dict[int, str | None] = {}
        for seat in list(hand.to_act()):
            if seat in self.held or self._window_key() != key:
                continue
            if self._botted(seat):
                slot = self.slots[seat]
                if slot.agent is None:
                    slot.agent = make_agent(self.settings.auto_bot)
                self.stats["bot"] += 1
                by = "auto" if slot.kind == HUMAN else "bot"
                if await self._play(seat, slot.agent.act(observe(hand, seat),
                                                         hand.legal_actions(seat)),
                                    by, quiet=True) is None:
                    acks[seat] = None
            elif seat in hand.idle_seats():
                await self._play(seat, Action(seat, PASS), "window", quiet=True)
        held, self.held = self.held, {}
        for seat, (action, by, action_id) in held.items():
            problem = ("stale", "the tile on the table was settled meanwhile", None)
            if self._window_key() == key:
                problem = await self._play(seat, action, by, action_id, quiet=True)
            conn = self.slots[seat].conn
            if problem is None:
                acks[seat] = action_id
            elif conn is not None:
                self.stats["refused"] += 1
                conn.send(protocol.refused(action_id, *problem[:2], self.version, problem[2]))
        self._broadcast(acks)
        if self.status == FINISHED:
            self._finish()

    def _schedule(self) -> None:
        """Start or cancel the timers and bot moves the state now calls for."""
        match = self.match
        hand = match.hand
        if hand.ended or self.status != PLAYING:
            self._cancel_all()
            if (not match.over and self.status == PLAYING and self.next_handle is None
                    and not self._paused()):
                version = self.version
                pause = 0.0 if not self._humans() else self.config.hand_pause
                self.next_handle = self.clock.call_later(
                    pause, lambda: self.post_nowait(self.next_hand, version))
            elif self._paused() and self.next_handle is not None:
                self.next_handle.cancel()
                self.next_handle = None
            return
        paused = self._paused()
        now = self.clock.now()
        window = self._window_left() if not paused else 0.0
        key = self._window_key()
        if window > 0 and (self.window_handle is None or self.window_handle[0] != key):
            if self.window_handle is not None:
                self.window_handle[1].cancel()
            self.window_handle = (key, self.clock.call_later(
                window, lambda k=key: self.post_nowait(self.window_end, k)))
        idle = hand.idle_seats()
        for seat in range(3):
            deciding = bool(hand.legal_actions(seat)) and not paused and seat not in self.held
            automatic = self._botted(seat) or seat in idle  # a bot, or a pass for no option
            timer = self.timers.get(seat)
            bot = self.bot_handles.get(seat)
            if not deciding or automatic:
                if timer is not None:
                    timer.handle.cancel()
                    del self.timers[seat]
            if not deciding or not automatic or window > 0:  # (answered at the window's end)
                if bot is not None:
                    bot[1].cancel()
                    del self.bot_handles[seat]
            if not deciding or (automatic and window > 0):
                continue
            version = self.version
            if automatic:
                if bot is None or bot[0] != version:
                    if bot is not None:
                        bot[1].cancel()
                    # a seat without an option is passed for at once (R13.2: once the
                    # window's minimum, if any, is over); a bot waits its usual pause
                    delay = self.config.bot_delay if self._humans() and self._botted(seat) \
                        else 0.0
                    handle = self.clock.call_later(
                        delay, lambda s=seat, v=version: self.post_nowait(self.bot_move, s, v))
                    self.bot_handles[seat] = (version, handle)
                continue
            if timer is not None and timer.version == version:
                continue
            if timer is not None:
                timer.handle.cancel()
            limit = self.settings.decision_seconds + self.slots[seat].reserve
            self._timer_seq += 1
            tid = self._timer_seq
            handle = self.clock.call_later(
                limit, lambda s=seat, v=version, t=tid: self.post_nowait(self.on_timeout, s, v, t))
            self.timers[seat] = _Timer(version, handle, now, limit, tid)

    def _cancel_all(self) -> None:
        for timer in self.timers.values():
            timer.handle.cancel()
        self.timers.clear()
        for _, handle in self.bot_handles.values():
            handle.cancel()
        self.bot_handles.clear()
        if self.window_handle is not None:
            self.window_handle[1].cancel()
            self.window_handle = None
        if self.next_handle is not None and (self.match is None or self.match.over):
            self.next_handle.cancel()
            self.next_handle = None

    def _maybe_all_ready(self) -> None:
        match = self.match
        if match is None or not match.hand.ended or match.over:
            return
        present = [s for s in self._humans() if s.conn is not None]
        if present and all(s.ready for s in present):
            self.post_nowait(self.next_hand, self.version)

    async def _try_start(self) -> None:
        """Start the match if it has not started; a storage failure is logged and retried
        when a player next connects."""
        if self.match is not None:
            return
        try:
            await self._start_match()
        except RoomError:
            pass

    async def _start_match(self) -> None:
        """Three seats filled: deal the first hand, store match and hand, then send. Raises
        :class:`RoomError` 503 if it could not be stored (retried on the next connection)."""
        match_id = self.next_match_id
        match = new_match(self.rules, self.walls, match_id, self.opening)
        players = [{"seat": s.index, "nickname": s.nickname, "kind": s.kind, "bot": s.bot}
                   for s in self.slots]
        now = time.time()
        self.match_id = match_id
        try:
            await self.store.start_match(
                self.code,
                {"id": match_id, "room_code": self.code, "rules": dumps(self.rules.to_dict()),
                 "players": dumps(players), "hands_planned": self.rules.hands_per_match,
                 "status": PLAYING, "totals": dumps([0, 0, 0]), "started_at": now,
                 "finished_at": None},
                self._hand_row(0, match.hand, match.fair[0]))
        except Exception:
            log.exception("room %s: could not store the new match", self.code)
            self.match_id = None
            raise RoomError(503, "could not start the match; it starts when a player "
                                 "reconnects") from None
        self.match, self.status = match, PLAYING
        self.version = len(match.hand.events)
        for slot in self.slots:
            slot.reserve = self.settings.reserve_seconds
        self._send_players()
        self._schedule()
        self._broadcast()

    def _hand_row(self, number: int, hand, fair: HandSeed | None = None) -> dict:
        """The ``kwx_hands`` row of a hand just dealt: its record with the full fairness
        object — the seed too, for a restart; the database is not sent to players, and the
        API serves a record only once its hand has ended (R13)."""
        record = hand_record(hand, fairness=fair.revealed() if fair is not None else None)
        record["actions"], record["result"] = [], None
        return {"match_id": self.match_id, "number": number, "dealer": hand.dealer,
                "record": dumps(record), "status": "playing", "result": None,
                "started_at": time.time(), "ended_at": None}

    def _finish(self) -> None:
        totals = self.match.totals()
        message = {"type": "match_end", "match_id": self.match_id, "totals": totals,
                   "hands": [h.deltas for h in self.match.hands]}
        for slot in self.slots:
            if slot.conn is not None:
                slot.conn.send(message)
        if self.on_finished is not None:
            self.on_finished(self)

    # --- sending -----------------------------------------------------------------------
    def _clock_for(self, seat: int) -> dict | None:
        timer = self.timers.get(seat)
        if timer is None:
            return None
        left = timer.limit - (self.clock.now() - timer.started)
        return {"seconds": round(max(0.0, left), 2),
                "decision_seconds": self.settings.decision_seconds,
                "reserve": round(self.slots[seat].reserve, 2)}

    def _update(self, slot: Slot, events: list[dict], ack: str | None = None) -> dict:
        hand = self.match.hand
        message = {"type": "update", "hand": self.match.number, "version": self.version,
                   "events": events, "view": seat_view(hand, slot.index),
                   "clock": self._clock_for(slot.index), "auto": slot.auto,
                   "fairness": self._fairness(self.match.number), "commit": self._commit()}
        if ack is not None:
            message["ack"] = ack
        return message

    def _fairness(self, number: int) -> dict | None:
        """Hand ``number``'s fairness for players: the commitment while it is played, with
        seed and entropy once it has ended (R13); None for a test wall."""
        seed = self.match.fair[number]
        if seed is None:
            return None
        return seed.revealed() if self.match.hands[number].ended else seed.public()

    def _broadcast(self, acks: dict[int, str | None] | None = None) -> None:
        """Send each connected seat its new events (filtered, R13) and its view; a seat
        that saw no new event gets nothing, except the seats in ``acks`` (seat -> the id
        of its action now applied, or None), which get their view and ack. When the hand has
        ended, the next hand's commitment is drawn first and goes with it (R3.1)."""
        self.match.open_next()
        hand = self.match.hand
        number = self.match.number
        for slot in self.slots:
            if slot.conn is None:
                continue
            start = slot.sent if slot.sent_hand == number else 0
            events = events_for_seat(hand, slot.index, start)
            acked = acks is not None and slot.index in acks
            if not events and not acked:
                continue
            slot.sent_hand, slot.sent = number, len(hand.events)
            slot.conn.send(self._update(slot, events, acks[slot.index] if acked else None))

    def _send_state(self, slot: Slot, hand_no: int | None, last_event: int | None) -> None:
        """After (re)connecting: the events the client misses, or everything. A client left
        in an earlier hand of the match first gets that hand's remaining events (``missed``:
        how it ended), then the full view of the hand in play."""
        hand = self.match.hand
        number = self.match.number
        if (hand_no is not None and hand_no < number and last_event is not None
                and -1 <= last_event < len(self.match.hands[hand_no].events)):
            old = self.match.hands[hand_no]
            slot.conn.send({"type": "missed", "hand": hand_no,
                            "events": events_for_seat(old, slot.index, last_event + 1),
                            "view": seat_view(old, slot.index),
                            "fairness": self._fairness(hand_no)})
        if hand_no == number and last_event is not None and -1 <= last_event < len(hand.events):
            message = self._update(slot, events_for_seat(hand, slot.index, last_event + 1))
            message["resumed"] = True
        else:
            message = self._update(slot, events_for_seat(hand, slot.index, 0))
            message["type"] = "sync"
            message["totals"] = self.match.totals()
        slot.sent_hand, slot.sent = number, len(hand.events)
        slot.conn.send(message)
        if self.match.over:
            slot.conn.send({"type": "match_end", "match_id": self.match_id,
                            "totals": self.match.totals(),
                            "hands": [h.deltas for h in self.match.hands]})

    def _welcome(self, seat: int) -> dict:
        return {"type": "welcome", "protocol": protocol.PROTOCOL_VERSION, "room": self.code,
                "seat": seat, "status": self.status, "preset": self.preset,
                "rules": self.rules.to_dict(), "settings": self.settings.to_dict(),
                "players": [s.public() for s in self.slots],
                "hand": self.match.number if self.match else None,
                "version": self.version, "commit": self._commit()}

    def _send_players(self) -> None:
        message = {"type": "players", "players": [s.public() for s in self.slots]}
        for slot in self.slots:
            if slot.conn is not None:
                slot.conn.send(message)
