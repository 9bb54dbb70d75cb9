"""Issue 13, "a server that holds": what a hostile test of ``kawuxing serve`` found, each with
a test — a locked database never freezes a room, request bodies are bounded, hostile JSON gets
a coded error (never a traceback), HTTP errors have one shape, per-IP rate limits, headers,
WebSocket Origin, room expiry, a finished room after a restart, the WAL stays small.

Servers run in a thread on 127.0.0.1 (:class:`ServerThread`) or in process on a manual clock.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import urllib.request

import pytest

from kawuxing.server import protocol
from kawuxing.server.clock import ManualClock
from kawuxing.server.config import ServerConfig
from kawuxing.server.db import Store
from kawuxing.server.manager import RoomManager
from kawuxing.server.testing import Player, ServerThread, http, needs_answer


def make_config(tmp_path, name: str = "h.db", **overrides) -> ServerConfig:
    values = dict(db_url=f"sqlite+aiosqlite:///{tmp_path / name}", bot_delay=0, bot_jitter=0,
                  claim_window=0, hand_pause=0, min_decision_seconds=0.05,
                  allow_test_walls=True, rate=1000, burst=1000)
    values.update(overrides)
    return ServerConfig(**values)


def create(server, **body) -> dict:
    status, out = http("POST", f"{server.url}/api/rooms", body)
    assert status == 201, out
    return out


def my_turn(player: Player, timeout: float = 20.0) -> dict:
    """Messages until the player's view asks it to decide; returns that message."""
    return player.until(lambda m: m["type"] in ("update", "sync") and needs_answer(m["view"]),
                        timeout)


def a_discard(view: dict) -> list:
    return next(a for a in view["legal"] if a[1] == "discard" and "declare" not in a)


# --- 1. a storage failure never freezes a room -----------------------------------------------

def test_a_locked_database_never_freezes_a_room(tmp_path):
    """Room [human, heuristic, heuristic]: right after the player's discard is acknowledged,
    another process holds ``BEGIN EXCLUSIVE`` on the SQLite file. The bots' moves cannot be
    stored: after the retries every seat gets an ``error`` with code ``storage``; once the
    lock is gone the same path plays the move again and the player's turn comes back (the
    room froze for good before: the failed bot move was never scheduled again)."""
    db = tmp_path / "lock.db"
    config = make_config(tmp_path, "lock.db", bot_delay=0.3, sqlite_busy_ms=100,
                         store_retries=2, store_backoff=0.05, stalled_retry=0.3)
    with ServerThread(config) as srv:
        room = create(srv, seats=["human", "heuristic", "heuristic"], nickname="ann", hands=1,
                      options={"first_dealer": "seat0"})
        player = Player(srv.ws, room["code"], room["token"])
        player.hello()
        turn = my_turn(player)
        action_id = player.act(a_discard(turn["view"]))
        assert player.answer(action_id).get("ack") == action_id
        lock = sqlite3.connect(db, isolation_level=None, timeout=5)
        try:
            lock.execute("BEGIN EXCLUSIVE")
            error = player.recv_type("error", timeout=20)
            assert error["code"] == protocol.STORAGE and "tries again" in error["message"]
            stuck = player.version
        finally:
            lock.rollback()
            lock.close()
        later = player.until(lambda m: m["type"] in ("update", "match_end")
                             and (m["type"] == "match_end" or m["version"] > stuck), 20)
        assert later is not None
        # every acknowledged event is stored: the server's hand and the database agree
        manager = srv.manager
        live = manager.get(room["code"])
        stored = srv.call(manager.store.count_actions(live.match_id))
        assert stored == sum(len(h.actions) for h in live.match.hands) >= 2


class Sink:
    """A connection that records what it is sent."""

    def __init__(self) -> None:
        self.seat = None
        self.messages: list[dict] = []
        self.closed = None

    def send(self, message: dict) -> None:
        json.dumps(message, allow_nan=False)
        self.messages.append(message)

    def close(self, code: int, reason: str = "") -> None:
        self.closed = (code, reason)


async def settle(room, clock) -> None:
    for _ in range(10000):
        await room.post(lambda: None)
        if clock.advance(0) == 0 and room.queue.empty():
            return
    raise AssertionError("the room never settled")


def test_a_timer_move_that_cannot_be_stored_is_played_again(tmp_path):
    """The decision timer of a player runs out while the writer fails: the timeout move is
    undone, the players are told (``error``, ``storage``) and, once writes work again, the
    same timeout is played at the retry time — not after a new full decision time."""
    async def main():
        config = make_config(tmp_path, decision_seconds=5, reserve_seconds=0,
                             store_retries=1, store_backoff=0.01, stalled_retry=2.0)
        store = await Store.open(config.db_url)
        clock = ManualClock()
        manager = RoomManager(store, config, clock)
        try:
            created = await manager.create_room(seats=["human", "human", "human"],
                                                options={"first_dealer": "seat0"},
                                                decision_seconds=5, reserve_seconds=0)
            room = manager.get(created["code"])
            sinks = []
            for seat in range(3):
                _, token = await room.post(room.join, f"p{seat}", seat)
                sinks.append(Sink())
                await room.post(room.attach, sinks[-1], token, None, None)
            await settle(room, clock)
            version = room.version
            real = store.add_action

            async def broken(*args, **kwargs):
                raise sqlite3.OperationalError("database is locked")

            store.add_action = broken
            clock.advance(5.0)  # seat 0's time is up
            await settle(room, clock)
            assert room.version == version and room.stats["store_failures"] == 1
            errors = [m for m in sinks[1].messages if m["type"] == "error"]
            assert errors and errors[-1]["code"] == protocol.STORAGE
            assert room.seats[0].timeouts == 0  # a timeout not played is not counted
            store.add_action = real
            clock.advance(1.9)  # before the retry time: nothing
            await settle(room, clock)
            assert room.version == version
            clock.advance(0.1)  # the retry time (stalled_retry 2 s): the timeout is played
            await settle(room, clock)
            assert room.version > version and room.seats[0].timeouts == 1
            assert [a.verb for a in room.match.hand.actions][:1] == ["discard"]
            assert await store.count_actions(room.match_id) == len(room.match.hand.actions)
        finally:
            await manager.shutdown()
            await store.close()
    asyncio.run(main())
