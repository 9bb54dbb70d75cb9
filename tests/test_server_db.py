"""Persistence on SQLite and on PostgreSQL (when one answers; each run in its own schema):
schema and its version, rooms rebuilt after a restart exactly as they were (hands replayed
from records and stored actions, tokens still good), waiting rooms kept, replay listings."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from sqlalchemy import select, update

from kawuxing.engine.views import seat_view
from kawuxing.records import hand_record, replay
from kawuxing.server import protocol
from kawuxing.server.clock import ManualClock
from kawuxing.server.config import ServerConfig, normalize_db_url
from kawuxing.server.db import Store, schema_version
from kawuxing.server.manager import RoomManager
from kawuxing.server.testing import new_schema_name, pg_test_url

PG_URL = pg_test_url()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'store.db'}", None
        return
    if PG_URL is None:
        pytest.skip("no PostgreSQL at KAWUXING_TEST_PG / 127.0.0.1:5432")
    schema = new_schema_name()
    yield PG_URL, schema

    async def drop():
        store = await Store.open(PG_URL, schema)
        await store.drop_all()
        await store.close()

    asyncio.run(drop())


class Sink:
    def __init__(self):
        self.seat, self.messages, self.closed = None, [], None

    def send(self, message):
        self.messages.append(message)

    def close(self, code, reason=""):
        self.closed = code


async def open_manager(url, schema):
    config = ServerConfig(db_url=url, db_schema=schema, bot_delay=0, claim_window=0,
                          hand_pause=0)
    store = await Store.open(url, schema)
    clock = ManualClock()
    return RoomManager(store, config, clock), store, clock


async def settle(room, clock):
    for _ in range(10000):
        await room.post(lambda: None)
        if clock.advance(0) == 0 and room.queue.empty():
            return


def snapshot(room) -> dict:
    hand = room.match.hand
    return {"version": room.version, "number": room.match.number,
            "record": hand_record(hand), "views": [seat_view(hand, s) for s in range(3)],
            "totals": room.match.totals(), "status": room.status}


def test_schema_version_and_refusal_of_newer(db):
    url, schema = db

    async def main():
        store = await Store.open(url, schema)
        async with store.engine.connect() as conn:
            assert (await conn.execute(select(schema_version.c.version))).scalars().all() == [2]
        async with store.engine.begin() as conn:
            await conn.execute(update(schema_version).values(version=99))
        await store.close()
        with pytest.raises(RuntimeError, match="schema version 99"):
            await Store.open(url, schema)
        # put it back for the fixture's cleanup
        from sqlalchemy.ext.asyncio import create_async_engine

        kwargs = {"connect_args": {"server_settings": {"search_path": schema}}} if schema else {}
        engine = create_async_engine(url, **kwargs)
        async with engine.begin() as conn:
            await conn.execute(update(schema_version).values(version=2))
        await engine.dispose()

    asyncio.run(main())


def test_rooms_are_rebuilt_exactly_after_a_restart(db):
    url, schema = db

    async def first_life():
        manager, store, clock = await open_manager(url, schema)
        playing = await manager.create_room(seats=["human", "human", "heuristic"], hands=3)
        room = manager.get(playing["code"])
        _, t0 = await room.post(room.join, "ann", 0)
        _, t1 = await room.post(room.join, "bob", 1)
        sinks = [Sink(), Sink()]
        await room.post(room.attach, sinks[0], t0, None, None)
        await room.post(room.attach, sinks[1], t1, None, None)
        rng = random.Random(1)
        # play a hand and a half from the views, through the room's own message path
        for step in range(400):
            await settle(room, clock)
            if not room.match.hand.ended and (room.match.number >= 2 or (
                    room.match.number == 1 and len(room.match.hand.actions) >= 10)):
                break
            for seat, sink in enumerate(sinks):
                view = seat_view(room.match.hand, seat)
                if view["legal"]:
                    action = rng.choice(view["legal"])
                    await room.post(room.client_message, sink, protocol.ActionMessage(
                        type="action", id=f"{step}-{seat}", version=room.version,
                        action=action))
                    break
        waiting = await manager.create_room(seats=["human", "human", "random"])
        wroom = manager.get(waiting["code"])
        _, w0 = await wroom.post(wroom.join, "cat", None)
        before = snapshot(room)
        await manager.shutdown()
        await store.close()
        return playing["code"], (t0, t1), before, waiting["code"], w0

    code, tokens, before, wcode, w0 = asyncio.run(first_life())
    assert before["number"] >= 1  # the first hand ended and is stored

    async def second_life():
        manager, store, clock = await open_manager(url, schema)
        assert await manager.restore() == 2
        room = manager.get(code)
        after = snapshot(room)
        assert after == before
        # tokens still good; the same seat comes back, in the same hand
        sink = Sink()
        assert await room.post(room.attach, sink, tokens[1], None, None) == 1
        assert sink.messages[1]["type"] == "sync"
        assert sink.messages[1]["view"] == before["views"][1]
        # a finished hand is listed and replays to its stored result
        listed = await store.list_hands(match_id=room.match_id)
        assert [h["number"] for h in listed] == list(range(before["number"] - 1, -1, -1))
        found = await store.hand_record(room.match_id, 0)
        assert found["status"] == "ended"
        assert replay(found["record"]).deltas == found["record"]["result"]["deltas"]
        # the hand in play: hand 1, or hand 2 when hand 1 ended within its first 10 actions
        # (the wall is the room's own, a new one each run)
        in_play = await store.hand_record(room.match_id, before["number"])
        assert in_play["status"] == "playing" and in_play["record"]["result"] is None
        matches = await store.list_matches()
        assert any(m["id"] == room.match_id for m in matches)
        assert "room_code" not in json.dumps(matches)
        # the waiting room is still waiting with its first player, and can be filled
        wroom = manager.get(wcode)
        assert wroom.status == "waiting" and wroom.slots[0].nickname == "cat"
        assert await wroom.post(wroom.attach, Sink(), w0, None, None) == 0
        seat, _ = await wroom.post(wroom.join, "dog", None)
        assert seat == 1 and wroom.status == "playing"
        await manager.shutdown()
        await store.close()

    asyncio.run(second_life())


def test_db_urls():
    assert normalize_db_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert normalize_db_url("sqlite+aiosqlite:////tmp/x.db") == "sqlite+aiosqlite:////tmp/x.db"
    assert normalize_db_url("postgresql://u@h/d") == "postgresql+asyncpg://u@h/d"
    assert normalize_db_url("postgres://u@h/d") == "postgresql+asyncpg://u@h/d"
    assert normalize_db_url(None).startswith("sqlite+aiosqlite:///")
    assert normalize_db_url(None).endswith("kawuxing.sqlite3")
    for bad in ("mysql://x/y", "x.db"):
        with pytest.raises(ValueError):
            normalize_db_url(bad)


def test_restore_reads_every_room_in_a_fixed_number_of_queries(db):
    """Rebuilding rooms on start reads rooms, seats, matches, hands and actions in five
    queries however many rooms, hands and actions there are (not one query per room and per
    hand), and gives each room exactly its own seats, hands and actions."""
    url, schema = db
    from sqlalchemy import event

    async def busy_room(manager, clock, steps: int, seed: int) -> str:
        created = await manager.create_room(seats=["human", "human", "heuristic"], hands=8)
        room = manager.get(created["code"])
        sinks = []
        for seat in (0, 1):
            _, token = await room.post(room.join, f"p{seat}", seat)
            sinks.append(Sink())
            await room.post(room.attach, sinks[-1], token, None, None)
        rng = random.Random(seed)
        for step in range(steps):
            await settle(room, clock)
            seats = [s for s in (0, 1) if seat_view(room.match.hand, s)["legal"]]
            if not seats:
                continue
            seat = seats[0]
            action = rng.choice(seat_view(room.match.hand, seat)["legal"])
            await room.post(room.client_message, sinks[seat], protocol.ActionMessage(
                type="action", id=f"{step}", version=room.version, action=action))
        await settle(room, clock)
        return created["code"]

    async def queries_to_restore(expected_rooms: int) -> tuple[int, list[dict]]:
        store = await Store.open(url, schema)
        seen: list[str] = []

        def count(conn, cursor, statement, *args) -> None:
            seen.append(statement)

        event.listen(store.engine.sync_engine, "before_cursor_execute", count)
        rows = await store.active_rooms()
        event.remove(store.engine.sync_engine, "before_cursor_execute", count)
        stored = {r["match_id"]: await store.count_actions(r["match_id"])
                  for r in rows if r["match_id"]}
        await store.close()
        assert len(rows) == expected_rooms
        for row in rows:
            assert [s["seat"] for s in row["seats"]] == [0, 1, 2]
            assert all(s["room_code"] == row["code"] for s in row["seats"])
            assert row["match"]["id"] == row["match_id"]
            assert [h["number"] for h in row["hands"]] == list(range(len(row["hands"])))
            assert sum(len(h["actions"]) for h in row["hands"]) == stored[row["match_id"]]
        return len(seen), rows

    async def life(rooms: int, first_seed: int) -> None:
        manager, store, clock = await open_manager(url, schema)
        await manager.restore()
        for i in range(rooms):
            await busy_room(manager, clock, 4 + 2 * i, first_seed + i)
        await manager.shutdown()
        await store.close()

    asyncio.run(life(1, 0))
    one, _ = asyncio.run(queries_to_restore(1))
    asyncio.run(life(4, 10))
    five, rows = asyncio.run(queries_to_restore(5))
    assert one == five == 5
    assert sum(len(h["actions"]) for r in rows for h in r["hands"]) > 30
