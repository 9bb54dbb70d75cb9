"""R13.2 on the server: what a seat with no option receives after a discard — message types,
phases, legal actions, version and the time each message arrives — is the same whether or
not another seat could claim it, for human and for bot opponents.

Twin rooms differ only in seat 1's concealed tiles (test_claim_window's twins): in "option"
seat 1 holds 55p and may pung seat 0's 5p, in "none" it holds no 5p. Seat 2 watches. Time is a
manual clock moved in 50 ms steps; the claim window is 0.6 s, a bot's pause 0.6 s.
"""

from __future__ import annotations

import asyncio

from kawuxing.server.testing import build_wall
from kawuxing.tiles import parse_tile

from test_claim_window import COMMON, SEAT0, SEAT2, TWINS
from test_server_room import SEAT0 as DEALER_SEAT0
from test_server_room import Sink, act, humans, server, settle

STEP = 0.05


def wall(name: str) -> str:
    return build_wall([SEAT0, TWINS[name], SEAT2], COMMON)


def trace(sink: Sink, since: int, now: float) -> list[tuple]:
    """What seat 2 got: (arrival time, type, version, phase, legal, events without numbers)."""
    out = []
    for m in sink.messages[since:]:
        view = m.get("view") or {}
        out.append((round(now, 2), m["type"], m.get("version"), view.get("phase"),
                    view.get("legal"), [(e["type"], e.get("seat")) for e in m.get("events", [])]))
    return out


async def watch(tmp_path, name: str, seats, seat1_answer_at: float | None) -> list[tuple]:
    """Seat 0 discards 5p at t=0; seat 1 (a human in "option") passes at ``seat1_answer_at``
    if given; seat 2 presses nothing. Returns seat 2's trace over 1.5 s."""
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    async with server(folder, claim_window=0.6, bot_delay=0.6,
                      decision_seconds=20) as (manager, clock):
        room, sinks, _ = await humans(manager, clock, seats, walls=[wall(name)],
                                      options=DEALER_SEAT0)
        await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
        await settle(room, clock)
        return await follow(room, sinks, clock, 1.5,
                            seat1_answer_at if name == "option" else None)


async def follow(room, sinks, clock, seconds: float, seat1_answer_at: float | None
                 ) -> list[tuple]:
    """Seat 2's trace from its last message (the discard's update, t=0) over ``seconds``, the
    clock moved in STEP steps; seat 1 passes at ``seat1_answer_at`` if given."""
    got = trace(sinks[2], len(sinks[2].messages) - 1, 0.0)
    seen, now = len(sinks[2].messages), 0.0
    while now < seconds:
        clock.advance(STEP)
        now += STEP
        if seat1_answer_at is not None and abs(now - seat1_answer_at) < 1e-9:
            await act(room, sinks[1], [1, "pass"], action_id="p")
        await settle(room, clock)
        got += trace(sinks[2], seen, now)
        seen = len(sinks[2].messages)
    return got


def test_no_option_seat_sees_the_same_against_a_fast_human(tmp_path):
    """Seat 1 is a human who passes its pung after 0.1 s; without an option it presses
    nothing and is passed for. Either way seat 2 sees the window at t=0 (phase claim, only
    pass), nothing more until t=0.6, then one update with seat 1's draw."""
    def run(name):
        return asyncio.run(watch(tmp_path, name, ("human",) * 3, 0.1))

    with_option, without = run("option"), run("none")
    assert with_option == without
    assert [(t, kind, phase, legal) for t, kind, _, phase, legal, _ in with_option] == [
        (0.0, "update", "claim", [[2, "pass"]]), (0.6, "update", "turn", [])]
    assert with_option[1][5] == [("draw", 1)]  # the window closed: seat 1 drew


def test_no_option_seat_sees_the_same_against_a_bot(tmp_path):
    """Seat 1 is a bot: with an option it decides (pung or pass), without one it has nothing
    to decide; it answers at the window's end (0.6 s) either way, so seat 2's next message
    comes at t=0.6 in both rooms."""
    def run(name):
        return asyncio.run(watch(tmp_path, name, ("human", "heuristic", "human"), None))

    with_option, without = run("option"), run("none")
    times = [[t for t, *_ in got] for got in (with_option, without)]
    assert times[0] == times[1] and times[0][:2] == [0.0, 0.6]
    assert with_option[0] == without[0]


def test_an_answer_before_the_minimum_is_acknowledged_at_its_end(tmp_path):
    """A pass sent at 0.1 s is kept (refused at once only if illegal) and applied, with its
    ack, at 0.6 s; an illegal answer is refused at once with the state untouched."""
    async def main():
        async with server(tmp_path, claim_window=0.6, bot_delay=0.6,
                          decision_seconds=20) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, ("human",) * 3,
                                          walls=[wall("option")], options=DEALER_SEAT0)
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            await settle(room, clock)
            clock.advance(0.1)
            await act(room, sinks[2], [2, "pung"], action_id="bad")
            assert sinks[2].of("refused")[-1]["code"] == "illegal"
            await act(room, sinks[1], [1, "pass"], action_id="p")
            await settle(room, clock)
            hand = room.match.hand
            assert hand.phase == "claim" and not hand.pending.answers  # kept, not applied
            assert not [m for m in sinks[1].messages if m.get("ack") == "p"]
            await act(room, sinks[1], [1, "pung"], action_id="again")
            assert sinks[1].of("refused")[-1]["code"] == "illegal"  # one answer a seat
            clock.advance(0.49)
            await settle(room, clock)
            assert hand.phase == "claim"
            clock.advance(0.02)
            await settle(room, clock)
            acked = [m for m in sinks[1].messages if m.get("ack") == "p"]
            assert len(acked) == 1 and acked[0]["view"]["phase"] == "turn"
            assert hand.current == 1 and hand.seats[1].drawn == parse_tile(COMMON.split()[1])

    asyncio.run(main())


def test_bots_decide_while_the_window_is_open(tmp_path):
    """R13.2: a bot that must answer a discard starts deciding when the claim window opens
    (in a worker thread), so its answer is ready at the window's end and is played then
    without asking it again: however long a bot holding an option thinks, the window closes
    at its minimum, as for a bot that can only pass."""
    import time

    class Recorder:
        def __init__(self, clock):
            self.clock, self.calls = clock, []

        def act(self, obs, legal):
            self.calls.append((obs.seat, self.clock.now(), [a.verb for a in legal]))
            if len(legal) > 1:
                time.sleep(0.2)  # weighing the pung
            return legal[-1]

    async def main():
        async with server(tmp_path, claim_window=0.6, bot_delay=0.6,
                          decision_seconds=20) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, ("human", "heuristic", "human"),
                                          walls=[wall("option")], options=DEALER_SEAT0)
            bot = room.slots[1].agent = Recorder(clock)
            start = clock.now()
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            await settle(room, clock)
            for _ in range(100):  # the worker thread runs while the clock stands still
                if 1 in room.pacer.thinking and room.pacer.thinking[1][1].done():
                    break
                await asyncio.sleep(0.01)
            assert bot.calls == [(1, start, ["pung", "pass"])]
            hand = room.match.hand
            assert hand.phase == "claim" and len(hand.actions) == 1  # nothing applied yet
            clock.advance(0.6)
            await settle(room, clock)
            assert len(bot.calls) == 1  # not asked again at the window's end
            assert [(a.seat, a.verb) for a in hand.actions[:2]] == [(0, "discard"), (1, "pass")]
            assert hand.phase == "turn" and hand.current == 1
            assert not room.pacer.thinking

    asyncio.run(main())


def recording(room) -> list[list[tuple[int, str, str]]]:
    """Record each write of actions to ``room``'s store as [(seat, verb, by), ...]."""
    writes, real = [], room.store.add_action

    async def add_action(rows, **kw):
        rows = rows if isinstance(rows, tuple) else (rows,)
        writes.append([(r.seat, r.action[1], r.by) for r in rows])
        return await real(rows[0] if len(rows) == 1 else rows, **kw)
    room.store.add_action = add_action
    return writes


def test_the_window_end_answers_are_one_write(tmp_path):
    """R13.2: at the window's end the passes of both seats with no option are stored as one
    write (not one a seat) and sent as one update."""
    async def main():
        async with server(tmp_path, claim_window=0.6, decision_seconds=20) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, ("human",) * 3,
                                          walls=[wall("none")], options=DEALER_SEAT0)
            writes = recording(room)
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            await settle(room, clock)
            seen = len(sinks[2].messages)
            clock.advance(0.6)
            await settle(room, clock)
            assert writes == [[(0, "discard", "player")],
                              [(1, "pass", "window"), (2, "pass", "window")]]
            assert [[e["type"] for e in m["events"]] for m in sinks[2].messages[seen:]] == [
                ["draw"]]

    asyncio.run(main())


def test_a_bot_win_settles_the_window_before_the_other_seat_passes(tmp_path):
    """R4.3: a bot's win on the discard settles the window at its end; the seat after it,
    with no option, is then not passed for (its pass would no longer be legal), and the
    win is stored alone."""
    winner = "123p 46p 789s 234s 77s"  # 4p6p waits on 5p (卡五星)

    async def main():
        async with server(tmp_path, claim_window=0.6, bot_delay=0.6,
                          decision_seconds=20) as (manager, clock):
            room, sinks, _ = await humans(
                manager, clock, ("human", "heuristic", "human"),
                walls=[build_wall([SEAT0, winner, SEAT2], COMMON)], options=DEALER_SEAT0)
            writes = recording(room)
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            await settle(room, clock)
            hand = room.match.hand
            assert hand.idle_seats() == [2] and "win" in [a.verb for a in hand.legal_actions(1)]
            for _ in range(100):  # the bot decides in a worker thread
                if room.pacer.thinking[1][1].done():
                    break
                await asyncio.sleep(0.01)
            clock.advance(0.6)
            await settle(room, clock)
            assert writes == [[(0, "discard", "player")], [(1, "win", "bot")]]
            assert hand.ended and [a.verb for a in hand.actions] == ["discard", "win"]

    asyncio.run(main())


def test_a_bad_bot_answer_at_the_window_end_does_not_stall_the_room(tmp_path):
    """A bot answer the engine refuses (a kong seat 1 cannot make) fails the window end's
    one write with nothing applied; the room does not stall: each seat then answers on its
    own (the seat with no option passed for at once, the bot asked again after its pause)
    and the hand goes on."""
    from kawuxing.engine import Action

    class BadOnce:
        def __init__(self):
            self.calls = 0

        def act(self, obs, legal):
            self.calls += 1
            return Action(obs.seat, "kong") if self.calls == 1 else legal[-1]

    async def main():
        async with server(tmp_path, claim_window=0.6, bot_delay=0.6,
                          decision_seconds=20) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, ("human", "heuristic", "human"),
                                          walls=[wall("option")], options=DEALER_SEAT0)
            bot = room.slots[1].agent = BadOnce()
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            await settle(room, clock)
            for _ in range(100):  # the worker thread decides while the clock stands still
                if room.pacer.thinking[1][1].done():
                    break
                await asyncio.sleep(0.01)
            clock.advance(0.6)
            await settle(room, clock)
            hand = room.match.hand
            assert hand.phase == "claim" and hand.to_act() == [1]  # seat 2 passed for since
            for _ in range(40):  # the bot's usual pause, then its answer again
                clock.advance(0.05)
                await settle(room, clock)
                await asyncio.sleep(0.01)
            assert bot.calls >= 2  # (a third: its own turn, once it drew)
            assert [(a.seat, a.verb) for a in hand.actions[:3]] == [
                (0, "discard"), (2, "pass"), (1, "pass")]
            assert hand.seats[1].discards or hand.current == 1  # seat 1 drew: the hand went on

    asyncio.run(main())


async def _seat2_after_discard(tmp_path, name: str, write) -> list[tuple]:
    """Seat 0 discards 5p with the store's ``add_action`` wrapped by ``write(real, clock)``
    (e.g. failing once, or slow once) and, if that was refused, sends it again 1 s later;
    seat 1 passes at 0.1 s in "option". Returns seat 2's trace from that discard on."""
    folder = tmp_path / name
    folder.mkdir(parents=True, exist_ok=True)
    async with server(folder, claim_window=0.6, bot_delay=0.6, decision_seconds=20,
                      store_retries=0) as (manager, clock):
        room, sinks, _ = await humans(manager, clock, ("human",) * 3, walls=[wall(name)],
                                      options=DEALER_SEAT0)
        room.store.add_action = write(room.store.add_action, clock)
        await act(room, sinks[0], [0, "discard", "5p"], action_id="d1")
        await settle(room, clock)
        if sinks[0].messages[-1].get("code") == "storage":
            clock.advance(1.0)
            await settle(room, clock)
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d2")
            await settle(room, clock)
        return await follow(room, sinks, clock, 1.0, 0.1 if name == "option" else None)


def test_a_discard_stored_late_or_played_again_keeps_the_window_minimum(tmp_path):
    """R13.2 whatever happens to the discard's write: refused once and sent again 1 s later,
    or stored only after 0.7 s (a locked database), the window still lasts its minimum from
    when the discard is stored, so seat 2 (no option) sees the same messages at the same
    times whether or not seat 1 could claim (found by a review: the passes were decided
    before the write and spent the window's minimum on the failed or slow write)."""
    def failing_once(real, clock):
        failed = []

        async def add_action(*args, **kwargs):
            if not failed:
                failed.append(1)
                raise RuntimeError("disk full")
            return await real(*args, **kwargs)
        return add_action

    def slow_once(real, clock):
        slow = [True]

        async def add_action(*args, **kwargs):
            if slow.pop() if slow else False:
                clock.advance(0.7)
            return await real(*args, **kwargs)
        return add_action

    for write in (failing_once, slow_once):
        with_option, without = (asyncio.run(_seat2_after_discard(tmp_path / write.__name__,
                                                                 name, write))
                                for name in ("option", "none"))
        assert with_option == without
        assert [(t, kind, phase) for t, kind, _, phase, _, _ in with_option] == [
            (0.0, "update", "claim"), (0.6, "update", "turn")]
