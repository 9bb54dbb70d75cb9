"""Filling an open seat with a bot before the start ("start now"), over the room and over HTTP
(issue 12: the waiting room must not depend on a friend who never comes)."""

from __future__ import annotations

import asyncio

import pytest
from test_server_room import server

from kawuxing.server.config import ServerConfig
from kawuxing.server.errors import RoomError
from kawuxing.server.testing import ServerThread, http


def test_an_open_seat_filled_with_a_bot_starts_the_match_and_is_stored(tmp_path):
    async def main():
        async with server(tmp_path) as (manager, clock):
            created = await manager.create_room(seats=["human", "human", "human"])
            room = manager.get(created["code"])
            _, t0 = await room.post(room.join, "ann", None)
            # refused, the seats unchanged: a stranger, a bad bot, a seat taken, a bad seat
            for args, status, code in [(("nope-token", 1, "expert"), 403, "bad_token"),
                                       ((t0, 1, "nobot"), 422, "bad_seats"),
                                       ((t0, 0, "expert"), 409, "seat_taken"),
                                       ((t0, 5, "expert"), 422, "bad_seat")]:
                with pytest.raises(RoomError) as err:
                    await room.post(room.seat_to_bot, *args)
                assert (err.value.status, err.value.code) == (status, code)
                assert [s.kind for s in room.seats] == ["human", "open", "open"]
            assert await room.post(room.seat_to_bot, t0, 1, "expert") == "filled"
            assert room.match is None  # seat 2 is still open
            assert await room.post(room.seat_to_bot, t0, 2, None) == "filled"
            assert room.match is not None  # no seat left open: the match started
            assert [(s.kind, s.bot) for s in room.seats] == [
                ("human", None), ("bot", "expert"), ("bot", "heuristic:2")]
            rows = await manager.store.active_rooms()
            stored = next(r for r in rows if r["code"] == room.code)
            assert [(s["kind"], s["bot"]) for s in stored["seats"]] == [
                ("human", None), ("bot", "expert"), ("bot", "heuristic:2")]
    asyncio.run(main())


def test_seat_bot_over_http(tmp_path):
    config = ServerConfig(db_url=f"sqlite+aiosqlite:///{tmp_path / 'seat.db'}", claim_window=0,
                          bot_delay=0, bot_jitter=0, hand_pause=0)
    with ServerThread(config) as srv:
        status, room = http("POST", f"{srv.url}/api/rooms",
                            {"seats": ["human", "human", "heuristic"], "nickname": "ann"})
        assert status == 201, room
        url = f"{srv.url}/api/rooms/{room['code']}/seats/1/bot"
        status, out = http("POST", url, {"bot": "expert"}, token=room["token"])
        assert (status, out) == (200, {"ok": True, "seat": 1, "done": "filled"})
        status, info = http("GET", f"{srv.url}/api/rooms/{room['code']}")
        assert info["status"] == "playing" and info["seats"][1]["bot"] == "expert"
        status, out = http("POST", url, {"bot": "expert", "x": 1}, token=room["token"])
        assert status == 422
        status, out = http("POST", f"{srv.url}/api/rooms/{room['code']}/seats/1/bot",
                           {"bot": "expert"}, token="not-a-token-of-this-room")
        assert status == 403 and out["detail"]["code"] == "bad_token"


def test_a_dropped_player_is_played_by_toguan_after_the_grace_until_back(tmp_path):
    """Issue 12: a friend who closes the browser does not stall the table: after
    ``drop_grace`` seconds (10 by default) 托管 plays the seat; reconnecting ends it; a
    reconnection within the grace cancels it."""
    from test_server_room import Sink, settle

    async def main():
        async with server(tmp_path, drop_grace=10) as (manager, clock):
            created = await manager.create_room(seats=["human", "human", "heuristic"])
            room = manager.get(created["code"])
            _, t0 = await room.post(room.join, "ann", 0)
            _, t1 = await room.post(room.join, "bob", 1)
            s0, s1 = Sink(), Sink()
            await room.post(room.attach, s0, t0, None, None)
            await room.post(room.attach, s1, t1, None, None)
            await settle(room, clock)
            assert room.match is not None and not room.seats[1].auto
            # away for 9 s, back: no 托管
            await room.post(room.detach, s1)
            clock.advance(9)
            await settle(room, clock)
            s1 = Sink()
            await room.post(room.attach, s1, t1, None, None)
            clock.advance(5)
            await settle(room, clock)
            assert not room.seats[1].auto
            # away for good: 托管 after 10 s, and the seat is played
            await room.post(room.detach, s1)
            clock.advance(9.9)
            await settle(room, clock)
            assert not room.seats[1].auto
            assert not room.seats.public()[1]["away_bot"]
            clock.advance(0.2)
            await settle(room, clock)
            assert room.seats[1].auto and room.seats[1].conn is None
            # the others are told: 托管 plays the dropped seat (public: they saw it drop)
            assert room.seats.public()[1]["away_bot"] is True
            assert s0.of("players")[-1]["players"][1]["away_bot"] is True
            # back again: 托管 ends
            await room.post(room.attach, Sink(), t1, None, None)
            assert not room.seats[1].auto and room.seats.public()[1]["away_bot"] is False
            # 托管 of a connected seat (asked, or after timeouts) is never shown (R13)
            room.seats[0].auto = True
            assert room.seats.public()[0]["away_bot"] is False
    asyncio.run(main())


def test_a_player_who_has_just_joined_is_arriving_until_connected_or_the_grace(tmp_path):
    """Issue 35: a seat whose player has joined but not connected yet is ``arriving`` (shown
    as joining, not offline, and not to be handed to a bot) for at most ``join_grace``
    seconds (a page connecting on a slow line); connecting ends it at once; a seat that
    connected and dropped is never arriving again."""
    from test_server_room import Sink, settle

    from kawuxing.server.errors import RoomError

    async def main():
        async with server(tmp_path, drop_grace=10, join_grace=30) as (manager, clock):
            created = await manager.create_room(seats=["human", "human", "heuristic"])
            room = manager.get(created["code"])
            _, t0 = await room.post(room.join, "ann", 0)
            s0 = Sink()
            await room.post(room.attach, s0, t0, None, None)
            _, t1 = await room.post(room.join, "bob", 1)  # the hand is dealt
            await settle(room, clock)
            public = room.seats.public()
            assert (public[0]["arriving"], public[1]["arriving"]) == (False, True)
            assert s0.of("players")[-1]["players"][1]["arriving"] is True
            try:
                await room.post(room.give_to_bot, t0, 1)
                raise AssertionError("an arriving seat was handed to a bot")
            except RoomError as exc:
                assert exc.code == "seat_connected"
            clock.advance(29.9)
            await settle(room, clock)
            assert room.seats.public()[1]["arriving"] is True
            clock.advance(0.2)
            await settle(room, clock)
            assert room.seats.public()[1] == dict(room.seats.public()[1], arriving=False,
                                                  connected=False)
            assert s0.of("players")[-1]["players"][1]["arriving"] is False  # told: offline
            s1 = Sink()
            await room.post(room.attach, s1, t1, None, None)
            await room.post(room.detach, s1)
            assert room.seats.public()[1]["arriving"] is False
            # an outside bot program's seat (external) is arriving as long, not for ever
            made = await manager.create_room(seats=["human", "external", "heuristic"])
            other = manager.get(made["code"])
            assert other.seats.public()[1]["arriving"] is True
            clock.advance(30.1)
            await settle(other, clock)
            assert other.seats.public()[1]["arriving"] is False
    asyncio.run(main())


def test_a_bot_thinks_off_the_event_loop(tmp_path):
    """A bot's decision runs in a worker thread while its room waits (the expert takes tens of
    ms, with its rollouts hundreds): the event loop keeps running meanwhile, and the move is
    played as the bot chose it (R13: the bot gets its seat's Observation)."""
    import threading
    import time

    from test_server_room import CLAIM_WALL, SEAT0, humans, msg, settle

    ticks = [0]

    class Slow:
        def __init__(self):
            self.seen = []  # (thread, loop ticks while thinking, seat of the Observation)

        def act(self, obs, legal):
            before = ticks[0]
            time.sleep(0.1)
            self.seen.append((threading.get_ident(), ticks[0] - before, obs.seat))
            return legal[0]

    async def tick():
        while True:
            await asyncio.sleep(0.002)
            ticks[0] += 1

    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, ("human", "heuristic", "heuristic"),
                                          walls=[CLAIM_WALL], options=SEAT0)
            slow = Slow()
            room.slots[1].agent = room.slots[2].agent = slow
            ticker = asyncio.get_running_loop().create_task(tick())
            hand = room.match.hand
            await room.post(room.client_message, sinks[0],
                            msg("action", id="x", action=[0, "discard", "5p"],
                                version=room.version))
            await settle(room, clock)
            ticker.cancel()
            assert slow.seen, "no bot was asked"
            loop_thread = threading.get_ident()
            for thread, loop_ticks, seat in slow.seen:
                assert thread != loop_thread and loop_ticks >= 5 and seat in (1, 2)
            # the discard, then the bots' answers as they chose them (legal[0]: pung, win)
            assert [(a.seat, a.verb) for a in hand.actions[:3]] == [
                (0, "discard"), (1, "pung"), (2, "win")]
    asyncio.run(main())


def test_toguan_never_declares_for_a_player_who_is_away(tmp_path):
    """Issue 35: 亮倒 (R8.1) cannot be taken back: 托管 plays a player's seat without the
    declaring discards (a bot's own seat keeps them); with nothing else legal, as it is."""
    from kawuxing.engine import Action
    from kawuxing.engine.actions import DISCARD
    from kawuxing.server.pacing import auto_choices
    from kawuxing.tiles import parse_tile

    five, nine = parse_tile("5p"), parse_tile("9s")
    legal = [Action(0, DISCARD, five), Action(0, DISCARD, five, True),
             Action(0, DISCARD, nine, True)]
    assert auto_choices(legal) == [Action(0, DISCARD, five)]
    assert auto_choices(legal[1:]) == legal[1:]

    class Recording:
        def __init__(self) -> None:
            self.seen: list = []

        def act(self, obs, offered):
            self.seen.append(list(offered))
            return offered[0]

    async def main():
        async with server(tmp_path) as (manager, clock):
            created = await manager.create_room(seats=["human", "human", "heuristic"])
            room = manager.get(created["code"])
            await room.post(room.join, "ann", 0)
            await room.post(room.join, "bob", 1)
            assert room.match is not None
            bot = Recording()
            room.seats.agent = lambda seat, auto_bot: bot
            room.match.hand.legal_actions = lambda seat: list(legal)
            for seat in (0, 2):  # a player's seat under 托管, then the bot's own seat
                await room.pacer.think(room, seat)
            assert bot.seen == [[Action(0, DISCARD, five)], legal]
    asyncio.run(main())


def test_toguan_takes_the_smallest_piao_for_a_player_who_is_away(tmp_path):
    """Issue 35: 托管 never raises a stake for a player who is away: of the 漂 (R11.1) it is
    offered only the smallest (as a timeout chooses); a bot's own seat keeps them all. Under
    the app preset (漂 0-5) a player's seat handed to a bot before it ever connected."""
    from kawuxing.engine import Action
    from kawuxing.engine.actions import PIAO
    from kawuxing.server.pacing import auto_choices

    offered = [Action(1, PIAO, piao=p) for p in (3, 0, 5, 1)]
    assert auto_choices(offered) == [Action(1, PIAO, piao=0)]

    class Recording:
        def __init__(self) -> None:
            self.seen: list = []

        def act(self, obs, legal):
            self.seen.append(list(legal))
            return max(legal, key=lambda a: a.piao or 0)  # it would take the highest

    async def main():
        async with server(tmp_path) as (manager, clock):
            created = await manager.create_room(seats=["human", "human", "heuristic"],
                                                preset="app")
            room = manager.get(created["code"])
            await room.post(room.join, "ann", 0)
            await room.post(room.join, "bob", 1)
            hand = room.match.hand
            assert hand.phase == "piao" and len(hand.legal_actions(1)) > 2
            bot = Recording()
            room.seats.agent = lambda seat, auto_bot: bot
            chosen = [await room.pacer.think(room, seat) for seat in (1, 2)]
            assert chosen[0] == Action(1, PIAO, piao=0)  # bob's seat under 托管
            assert bot.seen[1] == hand.legal_actions(2)  # the bot's own seat: every 漂
            assert chosen[1].piao == max(a.piao for a in hand.legal_actions(2))
    asyncio.run(main())
