"""The pace of a room: decision timers, bot moves, 托管, the claim window (R13.2) and the pause
between hands. It decides *when* something is played and *what* an absent player plays; the
room plays it (:meth:`Room.play`: validate, apply, store, broadcast).

Every callback is posted to the room's queue (:meth:`Room.post_nowait`), so it runs in the
room's task like any command, and checks on arrival that the room has not moved on (the
``version`` it was scheduled for).

- **Decisions** (docs/protocol.md "Time"): a player has ``decision_seconds`` plus what is left
  of the hand's reserve; time beyond ``decision_seconds`` comes out of the reserve. When it runs
  out :class:`~kawuxing.agents.timeout.TimeoutAgent` plays for the seat; after ``auto_after``
  timeouts in a row a bot plays it (托管) until the player acts again.
- **Bots** (bot seats and seats under 托管) act after ``bot_delay`` in a room with players
  or spectators (:meth:`Pacer.watched`; a room of bots nobody watches plays at full speed),
  varied by up to ``bot_jitter`` of it (:meth:`Pacer.bot_pause`, the server's own RNG, one
  draw per move whatever the bot could do: R13.2). In a claim window they answer at its end.
- **The claim window** (R13.2): after every discard (and added kong that may be robbed) in a
  room with players, no answer is applied before ``claim_window`` seconds: earlier answers
  are checked and kept (:meth:`Pacer.hold`); at its end (:meth:`Pacer.window_end`) the seats
  with no option are passed for, the bots answer and the kept answers are applied, and each
  seat gets one update. So how fast a window closes never tells who could claim. The bots
  that must answer start deciding when the window opens (:meth:`Pacer.think_ahead`, in worker
  threads), so a bot weighing a pung or a win and one that can only pass are both ready at
  its end: their thinking time does not show either.
- **Between hands**: the next hand is dealt after the ``hand_pause`` countdown (at once in a
  room of bots), or as soon as a player's step — ``ready``, 托管 on, a dropped connection —
  leaves every seat ready (:meth:`Pacer.ready`: bots, 托管 and dropped seats are ready at
  once). Everyone is told (``next_hand``).
- While no player of a room with players is connected, nothing runs.
- **Storage failures**: a bot's, timer's or window's move that could not be stored is undone
  and played again later (:meth:`Pacer.stalled`): after ``stalled_retry`` seconds, doubled
  while storing keeps failing (at most :data:`STALLED_MAX`), so the room never freezes.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..agents.timeout import TimeoutAgent
from ..engine import CLAIM, PASS, ROB, Action, IllegalAction
from ..engine.actions import DISCARD, PIAO
from ..engine.observation import observe
from . import protocol
from .clock import TimerHandle
from .seats import PLAYERS, SEATS

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("kawuxing.server.pacing")

# who played an action (kwx_actions.by)
BY_PLAYER, BY_TIMEOUT, BY_BOT, BY_AUTO, BY_WINDOW = "player", "timeout", "bot", "auto", "window"
RETRY_DEAL = 1.0  # seconds before dealing again when the next hand could not be stored
WINDOW_EPSILON = 1e-3  # seconds: a window this close to its end counts as over
STALLED_MAX = 30.0  # seconds: the longest wait before a move that could not be stored is retried

WindowKey = tuple[int, int]  # (hand number, events so far) of an open claim window
Problem = tuple[str, str, "str | None"]  # (refused code, reason, rule)


@dataclass
class Timer:
    """A decision timer of one seat: set for room ``version``, started at clock time
    ``started``, firing after ``limit`` seconds; ``tid`` tells a timer from its successors."""

    version: int
    handle: TimerHandle
    started: float
    limit: float
    tid: int


class Pacer:
    """The timers, bot moves and claim window of one room (see the module doc). It keeps
    its own state only: each method is given the room (``room``) whose state it reads, and
    asks it to carry out what it decided (:meth:`Room.play`, :meth:`Room.answer_for`,
    :meth:`Room.tell`, :meth:`Room.next_hand`).

    ``timers``: seat -> :class:`Timer`; ``bot_handles``: seat -> (version, handle) of a bot move
    or the pass of a seat without an option; ``held``: seat -> (action, by, action id) of the
    answers kept until the window's minimum is over; ``window``: (key, clock time it opened);
    ``thinking``: seat -> (key, future) of a bot's answer to the open window, decided in a
    worker thread since it opened (:meth:`think_ahead`);
    ``timeout_agent``: what plays for a seat whose time ran out; ``rng``: the bots' pauses
    (``random.Random()``, seeded by the OS: server-side, never the engine's); ``overdue``:
    seats whose timeout could not be stored (played again once ``resume_at`` — the clock
    time before which no automatic move is tried after a storage failure — has come).
    """

    def __init__(self) -> None:
        self.timers: dict[int, Timer] = {}
        self.bot_handles: dict[int, tuple[int, TimerHandle]] = {}
        self.window: tuple[WindowKey, float] | None = None
        self.held: dict[int, tuple[Action, str, str | None]] = {}
        self.window_handle: tuple[WindowKey, TimerHandle] | None = None
        self.thinking: dict[int, tuple[WindowKey, asyncio.Future]] = {}
        self.next_handle: TimerHandle | None = None
        self.next_at: float | None = None  # clock time of the next deal during a countdown
        self.timeout_agent = TimeoutAgent()
        self.rng = random.Random()
        self._timer_seq = 0
        self.overdue: set[int] = set()
        self.resume_at = float("-inf")

    def watched(self, room: Room) -> bool:
        """Whether people follow the room — it has players, or spectators (旁观) watch it:
        then bots pause, claim windows last their minimum and hands have their countdown.
        Else (bots only, nobody watching) it plays at full speed."""
        return bool(room.seats.humans() or room.spectators)

    # --- the claim window (R13.2) ----------------------------------------------------
    def window_key(self, room: Room) -> WindowKey | None:
        """(hand number, events so far) while a claim window is open, else None; answers
        make no event, so the key stays the same until the window closes."""
        match = room.match
        hand = match.hand
        if hand.phase not in (CLAIM, ROB):
            return None
        return match.number, len(hand.events)

    def window_left(self, room: Room) -> float:
        """Seconds until the claim window on the table may close (R13.2): ``claim_window``
        from when it opened, in a room with players; 0 when no window is open."""
        key = self.window_key(room)
        if key is None or room.config.claim_window <= 0 or not self.watched(room):
            return 0.0
        now = room.clock.now()
        if self.window is None or self.window[0] != key:
            self.window = (key, now)
        return max(0.0, self.window[1] + room.config.claim_window - now)

    def holding(self, room: Room) -> bool:
        """True while answers are kept rather than applied: the window's minimum is not over."""
        return self.window_left(room) > WINDOW_EPSILON

    def hold(self, room: Room, seat: int, action: Action, by: str,
             action_id: str | None) -> Problem | None:
        """An answer that came before the window's minimum: refused now if illegal (returns
        the problem), else kept and applied (acknowledged) when the minimum is over, so that
        how fast a window closes never tells whether another seat could claim (R13.2)."""
        if seat in self.held:
            return protocol.ILLEGAL, "this seat already answered", "R4.3"
        try:
            room.match.hand.check(action)
        except IllegalAction as exc:
            return protocol.ILLEGAL, exc.reason, exc.rule
        self.held[seat] = (action, by, action_id)
        self.schedule(room)
        return None

    async def window_end(self, room: Room, key: WindowKey) -> None:
        """The claim window's minimum is over (R13.2). In one step, and sent as one update
        to each seat: the seats with no option are passed for and the bots answer (seat
        order), then the answers kept by :meth:`hold` are applied in the order they came (one
        no longer legal is refused to its seat). A player still deciding keeps the window
        open. Whoever could claim, each seat sees the same messages at the same time."""
        self.window_handle = None
        if room.match is None or self.window_key(room) != key or not room.playing:
            return
        hand = room.match.hand
        acks: dict[int, str | None] = {}
        answers = []
        for seat in hand.to_act():
            if seat in self.held:
                continue
            if room.seats.botted(seat):
                action, by = await self._bot_action(room, seat, self._thought(seat, key))
                answers.append((seat, action, by))
            elif seat in hand.idle_seats():
                answers.append((seat, Action(seat, PASS), BY_WINDOW))
        if answers and self.window_key(room) == key:
            problem, taken = await room.answer_for(answers)
            acks.update((seat, None) for seat, _, by in answers
                        if by != BY_WINDOW and problem is None and seat in taken)
            if problem is not None and problem[0] != protocol.STORAGE:  # (a bot's bad answer)
                log.warning("room %s: the answers at the window's end were refused (%s); "
                            "each seat answers again on its own", room.code, problem[1])
                self.schedule(room)
        self.forget_thinking()  # (a seat that left 托管 meanwhile: its bot's answer is unused)
        held, self.held = self.held, {}
        for seat, (action, by, action_id) in held.items():
            problem: Problem | None = (protocol.STALE,
                                       "the tile on the table was settled meanwhile", None)
            if self.window_key(room) == key:
                problem = await room.play(seat, action, by, action_id, quiet=True)
            if problem is None:
                acks[seat] = action_id
            else:
                room.refuse(room.seats[seat], action_id, *problem)
        await room.tell(acks)

    # --- timers and bots -------------------------------------------------------------
    def bot_pause(self, room: Room) -> float:
        """Seconds a bot waits before a move in a room with players: ``bot_delay`` times a
        uniform factor in ``1 ± bot_jitter`` (jitter clamped to 0-1; 0: exactly
        ``bot_delay``). Called once per scheduled move and never asked what the bot may do,
        so the pause has one distribution with or without a claim option (R13.2)."""
        config = room.config
        jitter = min(1.0, max(0.0, config.bot_jitter))
        if jitter == 0.0 or config.bot_delay <= 0:
            return max(0.0, config.bot_delay)
        return config.bot_delay * (1.0 + self.rng.uniform(-jitter, jitter))

    def think(self, room: Room, seat: int) -> asyncio.Future:
        """Start the bot of ``seat`` deciding now, in a worker thread, on its seat's
        Observation (R13; a snapshot, so the room may go on meanwhile) and the legal actions
        now (:func:`auto_choices` for a player's seat under 托管): a future of its
        :class:`Action` (the expert takes a few ms, tens at worst)."""
        hand = room.match.hand
        agent = room.seats.agent(seat, room.settings.auto_bot)
        legal = hand.legal_actions(seat)
        if room.seats[seat].kind in PLAYERS:
            legal = auto_choices(legal)
        return asyncio.ensure_future(asyncio.to_thread(agent.act, observe(hand, seat), legal))

    def think_ahead(self, room: Room, key: WindowKey) -> None:
        """The claim window ``key`` opened: each bot that must answer it (with an option or
        with only a pass) starts deciding now (:meth:`think`), so that its answer is ready
        when the window's minimum is over and the window closes at the same time whatever the
        bots held (R13.2). Answers cannot change the table before then (:meth:`hold`)."""
        self.forget_thinking()
        for seat in room.match.hand.to_act():
            if room.seats.botted(seat):
                self.thinking[seat] = (key, self.think(room, seat))

    def _thought(self, seat: int, key: WindowKey) -> asyncio.Future | None:
        """The answer :meth:`think_ahead` started for ``seat`` in window ``key``, if any."""
        key_and_future = self.thinking.pop(seat, None)
        if key_and_future is None:
            return None
        if key_and_future[0] != key:
            key_and_future[1].cancel()
            return None
        return key_and_future[1]

    def forget_thinking(self) -> None:
        """Drop the answers being decided for a window (their threads end on their own)."""
        for _, future in self.thinking.values():
            future.cancel()
        self.thinking.clear()

    async def _bot_action(self, room: Room, seat: int,
                          thought: asyncio.Future | None = None) -> tuple[Action, str]:
        """What the bot of ``seat`` plays now (``thought``: its answer already being decided,
        :meth:`think_ahead`; else it decides now, :meth:`think`), and who played it (``bot``
        or, for 托管, ``auto``). The room's task waits for the worker thread, so the room
        cannot move meanwhile and the other rooms keep playing."""
        room.stats["bot"] += 1
        by = BY_AUTO if room.seats[seat].kind in PLAYERS else BY_BOT
        return await (thought if thought is not None else self.think(room, seat)), by

    async def on_timeout(self, room: Room, seat: int, version: int, timer_id: int) -> None:
        """A decision timer fired. Does nothing if the decision was made meanwhile (the
        version moved or the seat has nothing to decide). Else plays what
        :class:`~kawuxing.agents.timeout.TimeoutAgent` chooses; after ``auto_after`` timeouts
        in a row a bot plays the seat (托管) until its player acts again."""
        timer = self.timers.get(seat)
        if (timer is None or timer.version != version or timer.tid != timer_id
                or version != room.version or room.match is None or room.seats.botted(seat)):
            return
        hand = room.match.hand
        legal = hand.legal_actions(seat)
        if not legal:
            return
        slot = room.seats[seat]
        del self.timers[seat]
        slot.reserve = 0.0
        slot.timeouts += 1
        room.stats["timeouts"] += 1
        if slot.timeouts >= room.config.auto_after:
            slot.auto = True
            if slot.conn is not None:
                slot.conn.send(protocol.auto(True, protocol.AUTO_TIMEOUTS))
        problem = await room.play(seat, self.timeout_agent.act(observe(hand, seat), legal),
                                  BY_TIMEOUT)
        if problem is not None and problem[0] == protocol.STORAGE:
            slot.timeouts -= 1  # not played: counted when it is

    async def bot_move(self, room: Room, seat: int, version: int) -> None:
        """A bot's turn (a bot seat, or a human seat under 托管), or the pass of a player who
        holds no option on the tile on the table once the claim window's minimum is over
        (R13.2: passed for automatically). Ignored if stale."""
        self.bot_handles.pop(seat, None)
        if (version != room.version or room.match is None or room.seats.paused()
                or not room.playing):
            return
        hand = room.match.hand
        legal = hand.legal_actions(seat)
        if not legal:
            return
        if not room.seats.botted(seat):
            if seat in hand.idle_seats():
                await self._pass_idle(room, hand)
            return
        action, by = await self._bot_action(room, seat)
        await room.play(seat, action, by)

    async def _pass_idle(self, room: Room, hand) -> None:
        """Pass, in seat order, for every player's seat that holds no option on the tile on
        the table (R13.2), stored as one write (:meth:`Room.answer_for`), and send the result
        as one update (one broadcast, not one a pass: issue 17). Nothing is passed when
        storing failed (the pacer tries again, :meth:`stalled`)."""
        seats = [seat for seat in hand.idle_seats() if not room.seats.botted(seat)]
        if seats and (await room.answer_for([(seat, Action(seat, PASS), BY_WINDOW)
                                             for seat in seats]))[0] is None:
            await room.tell({})

    def passes_at_once(self, room: Room) -> list[int]:
        """The players' seats with no option on the tile on the table (R13.2) to pass for in
        the very write of the move that put it there (:meth:`Room.play`): what
        :meth:`bot_move` would pass a moment later (one write and one update instead of
        two), when no window minimum holds answers (``claim_window`` 0, or nobody watches
        the room), the room is not paused and no storage failure delays automatic moves
        (:meth:`stalled`). Empty otherwise, and when no claim window is open. Asked before
        the move is stored, so it changes nothing (not :meth:`window_left`, which notes when
        a window opened: a move stored late, or played again after a failed write, would
        find its window's minimum already spent and show who could claim, R13.2)."""
        if ((room.config.claim_window > 0 and self.watched(room)) or room.seats.paused()
                or self.resume_at > room.clock.now()):
            return []
        return [seat for seat in room.match.hand.idle_seats() if not room.seats.botted(seat)]

    def played(self, room: Room, seat: int, by: str) -> None:
        """An action of ``seat`` was accepted: its timer stops; a player's own action ends
        托管 and its timeouts in a row, and the time it took beyond ``decision_seconds`` comes
        out of its reserve."""
        slot = room.seats[seat]
        timer = self.timers.pop(seat, None)
        self.overdue.discard(seat)
        if by == BY_PLAYER:
            slot.timeouts = 0
            slot.auto = False
            if timer is not None:
                used = room.clock.now() - timer.started
                over = max(0.0, used - room.settings.decision_seconds)
                slot.reserve = max(0.0, slot.reserve - over)
        if timer is not None:
            timer.handle.cancel()

    def clock_for(self, room: Room, seat: int) -> dict | None:
        """The ``clock`` of ``seat``'s message: None unless it has a decision timer."""
        timer = self.timers.get(seat)
        if timer is None:
            return None
        left = timer.limit - (room.clock.now() - timer.started)
        return protocol.clock(left, room.settings.decision_seconds, room.seats[seat].reserve)

    def stalled(self, room: Room, seat: int, by: str) -> float:
        """A move of ``seat`` played by ``by`` (a bot, a timeout, the window's pass) could
        not be stored and was undone (:meth:`Room.play`): no automatic move is tried for
        ``stalled_retry`` seconds, doubled for each failure in a row (at most
        :data:`STALLED_MAX`); then it is played again (a timeout at once). Returns the wait
        in seconds."""
        failures = max(1, room.stats.get("store_failures", 1))
        wait = min(STALLED_MAX, room.config.stalled_retry * 2 ** (failures - 1))
        self.resume_at = room.clock.now() + wait
        if by == BY_TIMEOUT:
            self.overdue.add(seat)
        self.schedule(room)
        return wait

    # --- between hands ---------------------------------------------------------------
    def ready(self, room: Room) -> list[bool]:
        """Per seat, whether it is ready for the next hand: a player who sent ``ready``, and
        at once a bot seat, a seat under 托管 and a player whose connection dropped. (Told
        only between hands: that a seat is under 托管 — after timeouts, which a seat with no
        option never has — says nothing of a hand still in play, R13.)"""
        seats = room.seats
        return [seats.botted(s.index) or s.conn is None or s.ready for s in seats]

    def between(self, room: Room) -> dict | None:
        """The ``next_hand`` message of the countdown running now (seconds left, who is
        ready), or None when no countdown runs (a hand in play, the match over, no pause)."""
        if self.next_at is None or room.match is None or not room.match.hand.ended:
            return None
        return protocol.next_hand(room.version, self.next_at - room.clock.now(), self.ready(room))

    def all_ready(self, room: Room) -> None:
        """A seat may have become ready: deal now if every seat is (:meth:`ready`)."""
        match = room.match
        if match is None or not match.hand.ended or match.over:
            return
        if all(self.ready(room)):
            room.post_nowait(room.next_hand, room.version)

    def cancel_next(self) -> None:
        """The next hand is being dealt: no other deal is due."""
        if self.next_handle is not None:
            self.next_handle.cancel()
            self.next_handle = None
        self.next_at = None

    def retry_next(self, room: Room, version: int) -> None:
        """The next hand could not be stored: deal again in :data:`RETRY_DEAL` seconds."""
        self.next_handle = room.clock.call_later(
            RETRY_DEAL, lambda: room.post_nowait(room.next_hand, version))

    # --- scheduling ------------------------------------------------------------------
    def schedule(self, room: Room) -> None:
        """Start or cancel the timers and bot moves the state now calls for."""
        match = room.match
        hand = match.hand
        paused = room.seats.paused()
        if hand.ended or not room.playing:
            self.cancel_all(room)
            if not match.over and room.playing and self.next_handle is None and not paused:
                version = room.version
                pause = 0.0 if not self.watched(room) else room.config.hand_pause
                self.next_handle = room.clock.call_later(
                    pause, lambda: room.post_nowait(room.next_hand, version))
                # (runs its course even when every seat is ready already, bots and 托管: the
                # players' entropy for the next deal has time to come, R3.1)
                self.next_at = room.clock.now() + pause if pause > 0 else None
            elif paused and self.next_handle is not None:
                self.cancel_next()
            return
        now = room.clock.now()
        hold = max(0.0, self.resume_at - now)  # after a storage failure (stalled)
        window = self.window_left(room) if not paused else 0.0
        key = self.window_key(room)
        if window > 0 and (self.window_handle is None or self.window_handle[0] != key):
            if self.window_handle is not None:
                self.window_handle[1].cancel()
            self.window_handle = (key, room.clock.call_later(
                window, lambda k=key: room.post_nowait(self.window_end, room, k)))
            self.think_ahead(room, key)
        idle = hand.idle_seats()
        for seat in SEATS:
            deciding = bool(hand.legal_actions(seat)) and not paused and seat not in self.held
            automatic = room.seats.botted(seat) or seat in idle  # a bot, or a pass for no option
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
            version = room.version
            if automatic:
                if bot is None or bot[0] != version:
                    if bot is not None:
                        bot[1].cancel()
                    # a seat without an option is passed for at once (R13.2: once the
                    # window's minimum, if any, is over); a bot waits its usual pause
                    delay = self.bot_pause(room) \
                        if self.watched(room) and room.seats.botted(seat) else 0.0
                    handle = room.clock.call_later(
                        max(delay, hold),
                        lambda s=seat, v=version: room.post_nowait(self.bot_move, room, s, v))
                    self.bot_handles[seat] = (version, handle)
                continue
            if timer is not None and timer.version == version:
                continue
            if timer is not None:
                timer.handle.cancel()
            limit = room.settings.decision_seconds + room.seats[seat].reserve
            if seat in self.overdue:
                limit = hold
            self._timer_seq += 1
            tid = self._timer_seq
            handle = room.clock.call_later(
                limit, lambda s=seat, v=version, t=tid: room.post_nowait(self.on_timeout, room,
                                                                         s, v, t))
            self.timers[seat] = Timer(version, handle, now, limit, tid)

    def cancel_all(self, room: Room) -> None:
        """Cancel every timer, bot move and window end (and the next deal once the match is
        over or not started)."""
        for timer in self.timers.values():
            timer.handle.cancel()
        self.timers.clear()
        for _, handle in self.bot_handles.values():
            handle.cancel()
        self.bot_handles.clear()
        if self.window_handle is not None:
            self.window_handle[1].cancel()
            self.window_handle = None
        self.forget_thinking()
        match = room.match
        if self.next_handle is not None and (match is None or match.over):
            self.cancel_next()


def auto_choices(legal: list[Action]) -> list[Action]:
    """What 托管 may choose for a player who is away (disconnected or timed out): the legal
    actions but the choices that only the player should make (issue 35) — no declaring
    discard (亮倒, R8.1, cannot be taken back and shows the hand), and of the 漂 (R11.1) only
    the smallest offered (a higher stake is the player's to take, as for a timeout); everything
    else as the bot likes. The list as it is when it holds nothing else."""
    piao = [a for a in legal if a.verb == PIAO]
    if piao:
        return [min(piao, key=lambda a: a.piao)]
    kept = [a for a in legal if not (a.verb == DISCARD and a.declare)]
    return kept or legal
