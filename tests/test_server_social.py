"""Social play at a room (issue 12): quick phrases and emotes (rate-limited per seat),
spectators (旁观: public information only, R13) and the ready step between hands.

The room task runs in process with a manual clock (the helpers of test_server_room); the
spectator leak check plays whole matches through test_server_leak's scanner.
"""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from kawuxing.engine.views import spectator_view
from kawuxing.server import protocol
from kawuxing.server.chat import SAYINGS
from kawuxing.server.errors import RoomError
from test_server_leak import Leak, check_message, play_rooms
from test_server_room import CLAIM_WALL, SEAT0, Sink, act, humans, msg, server, settle


def chats(sink: Sink) -> list[tuple[int, str]]:
    return [(m["seat"], m["say"]) for m in sink.of("chat")]


def test_quick_phrases_reach_everyone_and_are_limited_per_seat(tmp_path):
    """A phrase id is relayed to every seat and spectator; a seat says at most chat_burst (3)
    at once, then one every 1 / chat_rate (2) seconds; the limit is the seat's (another seat
    still talks; reconnecting does not refill it); free text never passes."""
    async def main():
        async with server(tmp_path, chat_rate=0.5, chat_burst=3) as (manager, clock):
            room, sinks, tokens = await humans(manager, clock, walls=[CLAIM_WALL],
                                               options=SEAT0)
            watcher = Sink()
            await room.post(room.watch, watcher)
            for say in ("hurry", "nice", "thumbs", "again"):
                await room.post(room.client_message, sinks[0], msg("chat", say=say))
            said = [(0, "hurry"), (0, "nice"), (0, "thumbs")]
            for sink in (sinks[0], sinks[1], sinks[2], watcher):
                assert chats(sink) == said  # the fourth was over the limit
            assert [m["code"] for m in sinks[0].of("error")] == ["chat_limited"]
            assert not sinks[1].of("error")
            await room.post(room.client_message, sinks[1], msg("chat", say="thanks"))
            assert chats(watcher)[-1] == (1, "thanks")  # seat 1 has its own bucket
            clock.advance(1.9)  # not yet a whole phrase back (0.5 a second)
            await room.post(room.client_message, sinks[0], msg("chat", say="bye"))
            assert len(sinks[0].of("error")) == 2 and len(chats(sinks[2])) == 4
            again = Sink()  # seat 0 reconnects: its bucket is the seat's, not refilled
            await room.post(room.attach, again, tokens[0], None, None)
            clock.advance(0.2)  # 2.1 s since the burst: one phrase back
            await room.post(room.client_message, again, msg("chat", say="bye"))
            await room.post(room.client_message, again, msg("chat", say="bye"))
            assert chats(sinks[1])[-1] == (0, "bye") and len(chats(sinks[1])) == 5
            assert [m["code"] for m in again.of("error")] == ["chat_limited"]
            # a spectator may not chat
            await room.post(room.spectator_message, watcher, msg("chat", say="hello"))
            assert watcher.of("error")[-1]["code"] == "spectator"
            assert len(chats(sinks[1])) == 5
    asyncio.run(main())


def test_a_chat_names_only_a_listed_id():
    """The server never relays text: only an id of chat.SAYINGS is a chat message."""
    assert protocol.parse_client('{"type": "chat", "say": "hurry"}', 4096).say == "hurry"
    for bad in ('{"type": "chat", "say": "I hold 5p"}', '{"type": "chat", "say": 3}',
                '{"type": "chat", "say": "hurry", "to": 1}', '{"type": "chat"}'):
        with pytest.raises(protocol.ProtocolError) as err:
            protocol.parse_client(bad, 4096)
        assert err.value.code == "malformed"
    assert len(SAYINGS) == len(set(SAYINGS)) == 14


def test_a_spectator_sees_the_public_table_and_may_not_act(tmp_path):
    """R13: a spectator's sync holds the spectator view (no hand, no options, no clock) and
    the events without any tile drawn or dealt; the seats are told how many watch; a
    spectator's action, ready or hint is refused; the room takes at most max_spectators."""
    async def main():
        async with server(tmp_path, max_spectators=1, claim_window=0.5,
                          hand_pause=30) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, walls=[CLAIM_WALL], options=SEAT0)
            watcher = Sink()
            await room.post(room.watch, watcher)
            welcome, sync = watcher.messages[:2]
            assert welcome["type"] == "welcome" and welcome["seat"] is None
            hand = room.match.hand
            assert sync["type"] == "sync" and sync["view"] == spectator_view(hand)
            assert sync["clock"] is None and "hand" not in sync["view"]
            assert "legal" not in sync["view"] and sync["view"]["seat"] is None
            deal, draw = sync["events"]
            assert deal == {"n": 0, "type": "deal", "dealer": 0, "wall": deal["wall"]}
            assert draw["type"] == "draw" and "tile" not in draw
            for sink in sinks.values():
                assert sink.of("spectators")[-1] == {"type": "spectators", "count": 1}
            with pytest.raises(RoomError) as err:
                await room.post(room.watch, Sink())
            assert err.value.code == "no_spectators"
            for kind, fields in (("action", {"id": "s", "version": room.version,
                                             "action": [0, "discard", "5p"]}),
                                 ("ready", {}), ("hint", {}), ("auto", {"on": True})):
                await room.post(room.spectator_message, watcher, msg(kind, **fields))
            assert [m["code"] for m in watcher.of("error")] == ["spectator"] * 4
            # the discard opens a claim window (R13.2): seat 1 may pung, seat 2 win; their
            # answers are kept till its end, and the spectator hears nothing meanwhile
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            before = len(watcher.messages)
            await act(room, sinks[2], [2, "win"], action_id="w")
            await act(room, sinks[1], [1, "pass"], action_id="p")
            await settle(room, clock)
            assert len(watcher.messages) == before and not room.match.hand.ended
            clock.advance(0.5)
            await settle(room, clock)
            end = watcher.of("update")[-1]
            assert end["view"]["phase"] == "ended" and end["view"] == spectator_view(hand)
            check_message(room, None, end, Counter())
            await room.post(room.unwatch, watcher)
            assert sinks[0].of("spectators")[-1]["count"] == 0
    asyncio.run(main())


def test_the_scanner_catches_a_seat_view_sent_to_a_spectator(tmp_path):
    """The leak scanner is not blind for seat None: a seat's own view fails it."""
    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, walls=[CLAIM_WALL], options=SEAT0)
            with pytest.raises(Leak):
                check_message(room, None, sinks[0].last, Counter())
    asyncio.run(main())


def test_spectators_receive_nothing_hidden_over_whole_matches(tmp_path):
    """Every message to a spectator (watching from the start, and again mid-hand after each
    reconnection) passes test_server_leak's scanner for seat None: 4 rooms of 8 hands."""
    stats = asyncio.run(play_rooms(str(tmp_path / "s.db"), 0, 4))
    assert stats["hands"] == 32
    assert stats["spectator_views_in_play"] > 32 * 20
    assert stats["spectator_messages"] > stats["spectator_views_in_play"]


def test_spectators_at_the_same_event_share_one_update(tmp_path):
    """Spectators who have the same events get one message, built once (the spectator view
    is public, R13): the same object for both, and equal to what a spectator is owed."""
    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, walls=[CLAIM_WALL], options=SEAT0)
            a, b = Sink(), Sink()
            for watcher in (a, b):
                await room.post(room.watch, watcher)
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            await settle(room, clock)
            ua, ub = a.of("update"), b.of("update")
            assert ua and len(ua) == len(ub)
            assert all(x is y for x, y in zip(ua, ub))
            assert ua[-1]["view"] == spectator_view(room.match.hand)
            assert [e["type"] for e in ua[0]["events"]][:1] == ["discard"]
    asyncio.run(main())


def test_between_hands_the_countdown_or_everyone_ready(tmp_path):
    """The next hand comes hand_pause (30 s) after the end, or once every seat is ready;
    next_hand tells everyone (spectators too) the seconds left and who is ready: a bot seat
    and a seat under 托管 at once, a player once they send ready; a dropped seat at once."""
    async def main():
        async with server(tmp_path, hand_pause=30) as (manager, clock):
            room, sinks, tokens = await humans(
                manager, clock, seats=("human", "heuristic", "human"), walls=[CLAIM_WALL] * 3,
                options=SEAT0, hands=3)
            watcher = Sink()
            await room.post(room.watch, watcher)
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            await act(room, sinks[2], [2, "win"], action_id="w")
            await settle(room, clock)
            assert room.match.hand.ended and room.match.number == 0
            version = room.version
            first = {"type": "next_hand", "version": version, "seconds": 30.0,
                     "ready": [False, True, False]}
            for sink in (sinks[0], sinks[2], watcher):
                assert sink.of("next_hand") == [first]
            clock.advance(12)
            await room.post(room.client_message, sinks[0], msg("ready"))
            await settle(room, clock)
            assert sinks[2].of("next_hand")[-1] == {**first, "seconds": 18.0,
                                                     "ready": [True, True, False]}
            assert room.match.number == 0
            await room.post(room.client_message, sinks[2], msg("auto", on=True))  # 托管
            await settle(room, clock)
            assert room.match.number == 1  # every seat ready: dealt at once
            assert watcher.of("update")[-1]["hand"] == 1
            # hand 1: nobody presses ready; seat 2 drops (ready at once), the countdown deals
            hand = room.match.hand
            await room.post(room.client_message, sinks[2], msg("auto", on=False))
            while not hand.ended:
                seat = hand.to_act()[0]
                if seat == 1:
                    clock.advance(1)
                    await settle(room, clock)
                    continue
                await act(room, sinks[seat], hand.legal_actions(seat)[0].to_json(),
                          action_id=f"x{len(hand.actions)}-{seat}")
                await settle(room, clock)
            await settle(room, clock)
            assert sinks[0].of("next_hand")[-1]["ready"] == [False, True, False]
            await room.post(room.detach, sinks[2])
            assert sinks[0].of("next_hand")[-1]["ready"] == [False, True, True]
            clock.advance(29.9)
            await settle(room, clock)
            assert room.match.number == 1
            clock.advance(0.2)
            await settle(room, clock)
            assert room.match.number == 2
    asyncio.run(main())


def test_no_countdown_message_without_a_pause(tmp_path):
    """hand_pause 0 (the tests' setting): the next hand is dealt at once and no next_hand
    message is sent."""
    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, walls=[CLAIM_WALL] * 2,
                                          options=SEAT0, hands=2)
            await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
            await act(room, sinks[2], [2, "win"], action_id="w")
            await settle(room, clock)
            assert room.match.number == 1 and not sinks[0].of("next_hand")
    asyncio.run(main())


async def watched_bot_room(manager):
    """A one-hand room of three heuristic bots on CLAIM_WALL, watched by a spectator (a Sink)
    from the start; its bots are scheduled."""
    created = await manager.create_room(seats=["heuristic"] * 3, walls=[CLAIM_WALL],
                                        options=SEAT0, hands=1)
    room = manager.get(created["code"])
    watcher = Sink()
    await room.post(room.watch, watcher)
    room.pacer.schedule(room)
    return room, watcher


def test_a_watched_room_of_bots_plays_at_a_pace_people_can_follow(tmp_path):
    """A room of bots nobody watches plays at full speed; while a spectator watches, its bots
    wait bot_delay (0.5 s here) before each move, as in a room with players."""
    async def main():
        async with server(tmp_path, bot_delay=0.5) as (manager, clock):
            room, watcher = await watched_bot_room(manager)
            await settle(room, clock)
            hand = room.match.hand
            moves = len(hand.actions)
            assert moves <= 1 and not hand.ended  # (a move due before the spectator came)
            clock.advance(0.4)
            await settle(room, clock)
            assert len(hand.actions) == moves  # the bots wait their pause
            clock.advance(0.1)
            await settle(room, clock)
            assert len(hand.actions) > moves
            await room.post(room.unwatch, watcher)  # nobody watches: full speed again
            clock.advance(0.5)  # (the moves already due keep their pause)
            await settle(room, clock)
            assert room.finished  # the rest at once, with no time passing
    asyncio.run(main())


def test_a_spectator_is_told_the_match_is_over(tmp_path):
    """When the match ends, a spectator watching gets the same ``match_end`` as the seats
    (totals and each hand's deltas: public once the hands have ended)."""
    async def main():
        async with server(tmp_path, bot_delay=0) as (manager, clock):
            room, watcher = await watched_bot_room(manager)
            for _ in range(200):
                if room.finished:
                    break
                clock.advance(1)
                await settle(room, clock)
            assert room.finished
            [end] = watcher.of("match_end")
            assert end["totals"] == room.match.totals() and sum(end["totals"]) == 0
            assert end["hands"] == [room.match.hands[0].deltas]
    asyncio.run(main())
