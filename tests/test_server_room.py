"""The room task in process (no sockets): timers on a manual clock, 托管, refusals with the
state untouched, claims resolved by the engine (R4.3), replaced connections, storage failure.

Each test runs its own event loop (``asyncio.run``) with a SQLite file store.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager

import pytest

from kawuxing.records import hand_record
from kawuxing.server import protocol
from kawuxing.server.clock import ManualClock
from kawuxing.server.config import ServerConfig
from kawuxing.server.db import Store
from kawuxing.server.manager import RoomManager
from kawuxing.agents.timeout import TimeoutAgent
from kawuxing.engine.observation import observe
from kawuxing.server.errors import RoomError
from kawuxing.server.testing import CLAIM_DRAWS, CLAIM_HANDS, build_wall
from kawuxing.engine.views import seat_view

CLAIM_WALL = build_wall(CLAIM_HANDS, CLAIM_DRAWS)
SEAT0 = {"first_dealer": "seat0"}


class Sink:
    """A connection that records what it is sent."""

    def __init__(self) -> None:
        self.seat = None
        self.messages: list[dict] = []
        self.closed = None

    def send(self, message: dict) -> None:
        json.dumps(message, allow_nan=False)  # what the server sends must be strict JSON
        self.messages.append(message)

    def close(self, code: int, reason: str = "") -> None:
        self.closed = (code, reason)

    def of(self, kind: str) -> list[dict]:
        return [m for m in self.messages if m["type"] == kind]

    @property
    def last(self) -> dict:
        return [m for m in self.messages if m["type"] in ("update", "sync")][-1]


@asynccontextmanager
async def server(tmp_path, **overrides):
    values = dict(db_url=f"sqlite+aiosqlite:///{tmp_path / 'room.db'}", bot_delay=0, claim_window=0,
                  bot_jitter=0, hand_pause=0, min_decision_seconds=0.01, allow_test_walls=True)
    values.update(overrides)
    config = ServerConfig(**values)
    store = await Store.open(config.db_url)
    clock = ManualClock()
    manager = RoomManager(store, config, clock)
    try:
        yield manager, clock
    finally:
        await manager.shutdown()
        await store.close()


async def settle(room, clock) -> None:
    """Run queued commands and due zero-delay callbacks until nothing is left."""
    for _ in range(10000):
        await room.post(lambda: None)
        if clock.advance(0) == 0 and room.queue.empty():
            return
    raise AssertionError("the room never settled")


async def humans(manager, clock, seats=("human",) * 3, **create):
    """A room of the given seats with every human seat joined and connected to a Sink."""
    created = await manager.create_room(seats=list(seats), **create)
    room = manager.get(created["code"])
    sinks, tokens = {}, {}
    for seat, kind in enumerate(seats):
        if kind != "human":
            continue
        got, token = await room.post(room.join, f"p{seat}", seat)
        sink = Sink()
        await room.post(room.attach, sink, token, None, None)
        sinks[seat], tokens[seat] = sink, token
    await settle(room, clock)
    return room, sinks, tokens


def msg(kind: str, **fields):
    return protocol.parse_client(json.dumps({"type": kind, **fields}), 4096)


async def act(room, sink, action, version=None, action_id="x"):
    await room.post(room.client_message, sink,
                    msg("action", id=action_id, action=action,
                        version=room.version if version is None else version))


def state(room) -> tuple:
    hand = room.match.hand
    return (room.version, json.dumps(hand_record(hand), sort_keys=True),
            [json.dumps(seat_view(hand, s), sort_keys=True) for s in range(3)])


def test_timeout_plays_the_drawn_tile_then_auto_then_back(tmp_path):
    async def main():
        async with server(tmp_path, decision_seconds=5, reserve_seconds=0,
                          auto_after=2) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, walls=[CLAIM_WALL], options=SEAT0)
            hand = room.match.hand
            assert hand.current == 0 and sinks[0].last["clock"]["seconds"] == 5
            drawn = hand.seats[0].drawn
            clock.advance(4.9)
            await settle(room, clock)
            assert len(hand.actions) == 0  # not yet
            clock.advance(0.2)
            await settle(room, clock)
            # R4.1: the server discarded the drawn tile (5p) for seat 0 ...
            assert hand.actions[0].verb == "discard" and hand.actions[0].tile == drawn
            assert room.slots[0].timeouts == 1 and not room.slots[0].auto
            # ... and now seats 1 and 2 have a claim; their timeouts pass (seat 2 passes a win)
            clock.advance(5.1)
            await settle(room, clock)
            assert [a.verb for a in hand.actions[1:3]] == ["pass", "pass"]
            assert hand.current == 1 and hand.phase == "turn"
            # second timeout of seat 1 in a row? it has one; let it time out again: 托管
            clock.advance(5.1)
            await settle(room, clock)
            assert room.slots[1].timeouts == 2 and room.slots[1].auto
            assert sinks[1].of("auto")[-1] == {"type": "auto", "on": True, "reason": "timeouts"}
            # the bot now plays seat 1 whenever it has a decision, without waiting for timers
            before = len(hand.actions)
            for _ in range(30):
                clock.advance(5.1)
                await settle(room, clock)
                if hand.legal_actions(1) and not hand.ended:
                    break
            assert len(hand.actions) > before
            assert any(a.seat == 1 for a in hand.actions[before:])  # played by the bot
            assert room.stats["bot"] >= 1 and room.slots[1].auto
            if hand.ended:
                return
            # seat 1 acts itself: 托管 ends
            legal = hand.legal_actions(1)
            await act(room, sinks[1], legal[0].to_json(), action_id="mine")
            assert not room.slots[1].auto and room.slots[1].timeouts == 0
    asyncio.run(main())


def test_late_timer_does_nothing_and_reserve_is_used(tmp_path):
    async def main():
        async with server(tmp_path, decision_seconds=5, reserve_seconds=10) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, walls=[CLAIM_WALL], options=SEAT0)
            hand = room.match.hand
            assert sinks[0].last["clock"] == {"seconds": 15.0, "decision_seconds": 5.0,
                                              "reserve": 10.0}
            timer = room.pacer.timers[0]
            clock.advance(8)  # 3 s into the reserve
            await act(room, sinks[0], [0, "discard", "5p"])
            assert len(hand.actions) == 1 and room.slots[0].reserve == pytest.approx(7)
            # the old timer fires after the decision was made: nothing happens
            await room.post(room.pacer.on_timeout, room, 0, timer.version, timer.tid)
            clock.advance(20)  # the cancelled handle must not fire either
            await settle(room, clock)
            assert [a.seat for a in hand.actions[:1]] == [0]
            assert all(a.seat != 0 for a in hand.actions[1:])
    asyncio.run(main())


def test_refusals_leave_the_state_untouched(tmp_path):
    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, tokens = await humans(manager, clock, walls=[CLAIM_WALL],
                                               options=SEAT0)
            before = state(room)
            checks = [
                (sinks[0], [0, "discard", "5p"], room.version - 1, "stale", None),
                (sinks[1], [1, "discard", "5p"], None, "out_of_turn", "R4.1"),
                (sinks[0], [0, "discard", "4p"], None, "illegal", "R4.1"),
                (sinks[0], [0, "pung"], None, "illegal", "R4.2"),
                (sinks[0], [1, "discard", "5p"], None, "not_your_seat", None),
                (sinks[0], [0, "fly", "5p"], None, "bad_action", None),
                (sinks[0], [0, "discard", "5x"], None, "bad_action", None),
            ]
            for i, (sink, action, version, code, rule) in enumerate(checks):
                await act(room, sink, action, version, action_id=f"r{i}")
                answer = sink.messages[-1]
                assert answer["type"] == "refused" and answer["code"] == code, answer
                assert answer["id"] == f"r{i}" and answer["reason"]
                if rule:
                    assert answer["rule"] == rule
                assert state(room) == before
            # a legal action is accepted once; the same id again is a duplicate
            await act(room, sinks[0], [0, "discard", "5p"], action_id="ok")
            assert sinks[0].messages[-1]["ack"] == "ok"
            after = state(room)
            await act(room, sinks[0], [0, "discard", "5p"], action_id="ok")
            assert sinks[0].messages[-1]["code"] == "duplicate"
            assert state(room) == after
            # a refused id is remembered too
            await act(room, sinks[0], [0, "discard", "5p"], action_id="r0")
            assert sinks[0].messages[-1]["code"] == "duplicate"
    asyncio.run(main())


@pytest.mark.parametrize("order", [(1, 2), (2, 1)])
def test_simultaneous_claims_win_beats_pung(tmp_path, order):
    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, walls=[CLAIM_WALL], options=SEAT0)
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            version = room.version
            answers = {1: [1, "pung"], 2: [2, "win"]}
            # both answers are queued before either is processed: the same moment
            futures = [room.post(room.client_message, sinks[s],
                                 msg("action", id=f"c{s}", version=version, action=answers[s]))
                       for s in order]
            await asyncio.gather(*futures)
            hand = room.match.hand
            assert hand.ended and hand.winners == [2]  # R4.3: a win beats a pung
            assert not any(m.kind == "pung" for m in hand.seats[1].melds)
            last1 = [m for m in sinks[1].messages if m.get("id") == "c1" or
                     m.get("ack") == "c1"][-1]
            if order[0] == 1:  # the pung was accepted as an answer, then lost to the win
                assert last1.get("ack") == "c1"
            else:  # the hand was over when the pung arrived
                assert last1["type"] == "refused" and last1["code"] == "not_playing"
    asyncio.run(main())


def test_replaced_connection_and_old_detach(tmp_path):
    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, tokens = await humans(manager, clock, walls=[CLAIM_WALL],
                                               options=SEAT0)
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            old = sinks[1]
            new = Sink()
            # reconnect in the claim window, telling what we have
            have = old.last
            await room.post(room.attach, new, tokens[1], have["hand"], have["events"][-1]["n"]
                            if have["events"] else None)
            assert old.messages[-1] == {"type": "replaced"} and old.closed[0] == 4001
            resumed = new.last
            assert resumed["resumed"] and resumed["events"] == []
            assert resumed["view"]["legal"] == [[1, "pung"], [1, "pass"]]
            await room.post(room.detach, old)  # the old socket's close comes late
            assert room.slots[1].conn is new
            await act(room, new, [1, "pass"], action_id="p")
            assert new.messages[-1]["ack"] == "p"
            await act(room, old, [1, "pung"], action_id="q")  # the old socket is ignored
            assert not any(m.get("id") == "q" for m in old.messages)
            # an unknown token is refused
            with pytest.raises(RoomError) as err:
                await room.post(room.attach, Sink(), "not-a-token-at-all", None, None)
            assert err.value.status == 403
    asyncio.run(main())


def test_storage_failure_undoes_the_action(tmp_path, monkeypatch):
    """An action whose storing fails is refused (``storage``) and undone from the copy of the
    hand made before it (Hand.clone), never by replaying the record: at the deal, and in a
    claim window after a pung answer (R4.3). Nobody is sent its events; retried, it plays."""
    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, walls=[CLAIM_WALL], options=SEAT0)
            real = room.store.add_action

            async def broken(*args, **kwargs):
                raise RuntimeError("disk full")

            def no_replay(*args, **kwargs):
                raise AssertionError("the undo replayed the record")

            monkeypatch.setattr("kawuxing.records.replay", no_replay)
            monkeypatch.setattr("kawuxing.server.rows.replay", no_replay)
            for seat, action, then in (
                    (0, [0, "discard", "5p"], [0, "discard", "5p"]),
                    (1, [1, "pung"], [1, "pass"]),  # seat 2 may still win on 5p
            ):
                before = state(room)
                hand_object = room.match.hand
                sent = [len(sinks[s].messages) for s in range(3)]
                room.store.add_action = broken
                await act(room, sinks[seat], action, action_id=f"s{seat}")
                assert sinks[seat].messages[-1]["code"] == "storage"
                assert state(room) == before
                assert room.match.hand is not hand_object  # the copy made before the action
                for other in range(3):  # nothing else was sent to anyone
                    assert len(sinks[other].messages) == sent[other] + (other == seat)
                room.store.add_action = real
                await act(room, sinks[seat], then, action_id=f"t{seat}")
                assert sinks[seat].messages[-1]["ack"] == f"t{seat}"
            hand = room.match.hand
            assert [a.verb for a in hand.actions] == ["discard", "pass"]
            assert hand.phase == "claim" and hand.to_act() == [2]
            stored = await room.store.count_actions(room.match_id)
            assert stored == 2  # the refused actions were never stored
    asyncio.run(main())


def test_seats_without_an_option_are_passed_for_with_the_discard(tmp_path):
    """With no claim window (claim_window 0) both seats that cannot take a discard are passed
    for at once (R13.2), in the discard's own write and update: one write of three rows
    (discard, pass, pass, by ``player``, ``window``, ``window``) and one broadcast, each seat
    getting the discard and the next draw in one ``update`` (not a write and an update for
    the passes after the discard's)."""
    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, options=SEAT0)
            await settle(room, clock)
            hand = room.match.hand
            for action in hand.legal_actions(0):
                twin = hand.clone()
                twin.apply(action)
                if action.verb == "discard" and twin.idle_seats() == [1, 2]:
                    break
            else:
                raise AssertionError("no discard that nobody can claim")
            broadcasts, writes = [], []
            real, real_add = room.broadcast, room.store.add_action

            async def add_action(rows, **kw):
                writes.append(rows if isinstance(rows, tuple) else (rows,))
                return await real_add(rows, **kw)
            room.broadcast = lambda acks=None: (broadcasts.append(acks), real(acks))
            room.store.add_action = add_action
            stored = await room.store.count_actions(room.match_id)
            sent = [len(sinks[s].messages) for s in range(3)]
            await act(room, sinks[0], action.to_json(), action_id="d")
            await settle(room, clock)
            assert broadcasts == [{0: "d"}]
            assert [[(r.seat, r.by) for r in rows] for rows in writes] == [
                [(0, "player"), (1, "window"), (2, "window")]]
            assert await room.store.count_actions(room.match_id) == stored + 3
            assert [a.verb for a in room.match.hand.actions[-3:]] == ["discard", "pass", "pass"]
            assert room.match.hand.phase == "turn" and room.match.hand.current == 1
            for s in range(3):
                new = sinks[s].messages[sent[s]:]
                assert [m["type"] for m in new] == ["update"]
                assert [e["type"] for e in new[0]["events"]] == ["discard", "draw"]
                assert new[0].get("ack") == ("d" if s == 0 else None)
    asyncio.run(main())


def test_leave_and_give_to_bot(tmp_path):
    async def main():
        async with server(tmp_path) as (manager, clock):
            created = await manager.create_room(seats=["human", "human", "heuristic"])
            room = manager.get(created["code"])
            _, t0 = await room.post(room.join, "ann", None)
            # before the match: leaving frees the seat
            await room.post(room.leave, t0)
            assert room.slots[0].kind == "open" and room.match is None
            _, t0 = await room.post(room.join, "ann", 0)
            _, t1 = await room.post(room.join, "bob", 1)
            assert room.match is not None  # three seats filled: the match started
            s0 = Sink()
            await room.post(room.attach, s0, t0, None, None)
            # seat 1 is disconnected (no longer arriving, issue 35): seat 0 hands it to a bot
            clock.advance(manager.config.join_grace)
            await settle(room, clock)
            await room.post(room.give_to_bot, t0, 1)
            assert room.slots[1].auto
            with pytest.raises(RoomError) as err:
                await room.post(room.give_to_bot, t1, 0)  # seat 0 is connected
            assert (err.value.status, err.value.code) == (409, "seat_connected")
            with pytest.raises(RoomError) as err:
                await room.post(room.give_to_bot, t0, 2)  # seat 2 is a bot's
            assert (err.value.status, err.value.code) == (409, "seat_is_bot")
            assert "played by a bot already" in str(err.value)
            # seat 1 comes back: its token still works and 托管 ends
            s1 = Sink()
            await room.post(room.attach, s1, t1, None, None)
            assert not room.slots[1].auto
            # seat 1 leaves during the match: a bot plays it; a newcomer may take it
            await room.post(room.leave, t1)
            assert room.slots[1].kind == "bot" and room.slots[1].vacated
            assert s1.closed[0] == 1000
            with pytest.raises(RoomError):
                await room.post(room.attach, Sink(), t1, None, None)
            seat, t2 = await room.post(room.join, "cid", None)
            assert seat == 1 and room.slots[1].kind == "human"
            with pytest.raises(RoomError) as err:
                await room.post(room.join, "dan", None)
            assert err.value.status == 409
    asyncio.run(main())


def test_timeout_agent_choices():
    """What the server plays for a seat whose time ran out, from its Observation (R4.1, R4.3,
    R11.1): the drawn tile, a pass on a discard, the smallest 漂."""
    from kawuxing.engine import Action, Hand
    from kawuxing.rules import RuleSet
    from kawuxing.tiles import parse_tiles

    agent = TimeoutAgent()
    hand = Hand.deal(RuleSet.preset(first_dealer="seat0"), 0, wall=parse_tiles(CLAIM_WALL))
    legal = hand.legal_actions(0)
    chosen = agent.act(observe(hand, 0), legal)
    assert chosen == Action(0, "discard", parse_tiles("5p")[0])  # the tile just drawn
    assert chosen != legal[0]  # not merely the first legal discard
    hand.apply(chosen)
    assert agent.act(observe(hand, 2), hand.legal_actions(2)) == Action(2, "pass")
    piao = RuleSet.preset("app")
    h2 = Hand.deal(piao, 0, seed=1)
    assert agent.act(observe(h2, 1), h2.legal_actions(1)).piao == min(piao.piao_choices)
    with pytest.raises(ValueError):
        agent.act(observe(h2, 1), [])


def test_next_hand_after_the_pause_or_when_everyone_is_ready(tmp_path):
    async def main():
        async with server(tmp_path, hand_pause=30) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, walls=[CLAIM_WALL, CLAIM_WALL],
                                          options=SEAT0, hands=3)
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            await act(room, sinks[2], [2, "win"], action_id="w")
            assert room.match.hand.ended and room.match.number == 0
            clock.advance(10)
            await settle(room, clock)
            assert room.match.number == 0  # still pausing
            for seat in (0, 1):
                await room.post(room.client_message, sinks[seat], msg("ready"))
                await settle(room, clock)
            assert room.match.number == 0  # seat 2 is not ready yet
            await room.post(room.client_message, sinks[2], msg("ready"))
            await settle(room, clock)
            assert room.match.number == 1  # everyone ready: dealt at once
            assert room.match.hand.dealer == 2  # R2.2: the winner deals
            assert sinks[1].last["hand"] == 1 and sinks[1].last["events"][0]["type"] == "deal"
            # the second hand: nobody is ready (a ready sent in play is not kept for the
            # countdown after it); the pause deals the third hand
            await room.post(room.client_message, sinks[1], msg("ready"))
            assert not room.seats[1].ready
            hand = room.match.hand
            while not hand.ended:
                seat = hand.to_act()[0]
                await act(room, sinks[seat], hand.legal_actions(seat)[0].to_json(),
                          action_id=f"x{len(hand.actions)}-{seat}")
            clock.advance(29)
            await settle(room, clock)
            assert room.match.number == 1
            clock.advance(2)
            await settle(room, clock)
            assert room.match.number == 2
    asyncio.run(main())


def test_a_seat_change_that_cannot_be_stored_is_undone(tmp_path):
    """Joining or leaving whose seat row cannot be stored is refused (503) and the seat is as
    it was: still open after a failed join, still the player's (token working) after a failed
    leave."""
    async def main():
        async with server(tmp_path) as (manager, clock):
            created = await manager.create_room(seats=["human", "human", "heuristic"])
            room = manager.get(created["code"])
            real = room.store.update_seat

            async def broken(*args, **kwargs):
                raise RuntimeError("disk full")

            room.store.update_seat = broken
            with pytest.raises(RoomError) as err:
                await room.post(room.join, "ann", 0)
            assert err.value.status == 503
            assert room.slots[0].kind == "open" and room.slots[0].nickname is None
            assert room.slots[0].token_hash is None
            room.store.update_seat = real
            _, t0 = await room.post(room.join, "ann", 0)
            _, t1 = await room.post(room.join, "bob", 1)
            assert room.match is not None
            sink = Sink()
            await room.post(room.attach, sink, t1, None, None)
            room.store.update_seat = broken
            with pytest.raises(RoomError) as err:
                await room.post(room.leave, t1)
            assert err.value.status == 503
            slot = room.slots[1]
            assert (slot.kind, slot.nickname, slot.vacated, slot.conn) == ("human", "bob", False,
                                                                           sink)
            assert sink.closed is None
            room.store.update_seat = real
            assert await room.post(room.attach, Sink(), t1, None, None) == 1  # token good
            assert await room.post(room.leave, t1) == 1
            assert room.slots[1].kind == "bot" and room.slots[1].vacated
            assert room.slots[1].nickname == "bob"
            row = [s for s in (await room.store.active_rooms()) if s["code"] == room.code][0]
            assert row["seats"][1]["kind"] == "bot" and row["seats"][1]["vacated"]
    asyncio.run(main())
