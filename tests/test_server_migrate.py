"""A database of schema version 1 (before players, issue 16) upgrades in place when the new
server opens it, on SQLite and PostgreSQL: the version table says 2, the new tables and columns
are there, and what the old server stored still replays — the finished match's hand from its
record and actions, and the room being played, rebuilt and reclaimed with its old seat token.

The old database is ``tests/fixtures/db_v1.json``: the DDL of version 1 for both databases and
every row a version 1 server (commit 5cb7684) stored for an all-bot one-hand match played to
its end and a room where ann plays two bots (``playing``, ann's seat ``token``)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from sqlalchemy import column, insert, inspect, select, table, text
from sqlalchemy.ext.asyncio import create_async_engine

from kawuxing.records import replay
from kawuxing.server.clock import ManualClock
from kawuxing.server.config import ServerConfig
from kawuxing.server.db import Store
from kawuxing.server.manager import RoomManager
from kawuxing.server.schema import schema_version
from kawuxing.server.testing import new_schema_name, pg_test_url

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "db_v1.json").read_text())
PG_URL = pg_test_url()


@pytest.fixture(params=["sqlite", "postgresql"])
def old_db(request, tmp_path):
    """(url, schema) of a database holding exactly the version 1 fixture."""
    if request.param == "sqlite":
        url, schema = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}", None
    else:
        if PG_URL is None:
            pytest.skip("no PostgreSQL at KAWUXING_TEST_PG / 127.0.0.1:5432")
        url, schema = PG_URL, new_schema_name()
    asyncio.run(_build_v1(url, schema, request.param))
    yield url, schema
    if schema:
        async def drop():
            engine = create_async_engine(url)
            async with engine.begin() as conn:
                await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            await engine.dispose()
        asyncio.run(drop())


async def _build_v1(url: str, schema: str | None, dialect: str) -> None:
    if schema:
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        await engine.dispose()
    kwargs = {"connect_args": {"server_settings": {"search_path": schema}}} if schema else {}
    engine = create_async_engine(url, **kwargs)
    async with engine.begin() as conn:
        for ddl in FIXTURE["ddl"][dialect]:
            await conn.execute(text(ddl))
        for name, rows in FIXTURE["rows"].items():  # in the order of the foreign keys
            if rows:
                t = table(name, *(column(c) for c in rows[0]))
                await conn.execute(insert(t), rows)
    await engine.dispose()


class Sink:
    def __init__(self):
        self.seat, self.messages = None, []

    def send(self, message):
        self.messages.append(message)

    def close(self, code, reason=""):
        pass


def test_a_version_1_database_upgrades_in_place_and_still_replays(old_db):
    url, schema = old_db

    async def main():
        store = await Store.open(url, schema)
        try:
            async with store.engine.connect() as conn:
                versions = (await conn.execute(select(schema_version.c.version)
                                               .order_by(schema_version.c.version))
                            ).scalars().all()
                names = await conn.run_sync(lambda c: inspect(c).get_table_names())
                seat_columns = await conn.run_sync(
                    lambda c: [col["name"] for col in inspect(c).get_columns("kwx_seats")])
            assert versions == [1, 2]
            assert {"kwx_players", "kwx_player_tokens", "kwx_match_players"} <= set(names)
            assert "player_id" in seat_columns
            # the finished match: its hand replays from the stored record and actions
            finished = next(r for r in FIXTURE["rows"]["kwx_rooms"]
                            if r["code"] == FIXTURE["finished"])
            stored = await store.hand_record(finished["match_id"], 0)
            assert stored["status"] == "ended"
            record = stored["record"]
            assert len(record["actions"]) == sum(
                1 for a in FIXTURE["rows"]["kwx_actions"]
                if a["match_id"] == finished["match_id"])
            hand = replay(record)
            assert hand.ended and list(hand.deltas) == record["result"]["deltas"]
            assert (await store.get_match(finished["match_id"]))["status"] == "finished"
            # the room being played is rebuilt, and ann's old token is still her seat
            config = ServerConfig(db_url=url, db_schema=schema, bot_delay=0, claim_window=0,
                                  hand_pause=0, waiting_expiry=10**10, abandoned_expiry=10**10)
            manager = RoomManager(store, config, ManualClock())
            assert await manager.restore() == 1
            room = manager.get(FIXTURE["playing"])
            assert room.playing and room.seats[0].nickname == "ann"
            assert room.seats[0].player_id is None
            sink = Sink()
            assert await room.post(room.attach, sink, FIXTURE["token"], None, None) == 0
            assert [m["type"] for m in sink.messages][:2] == ["welcome", "sync"]
            playing = next(r for r in FIXTURE["rows"]["kwx_rooms"]
                           if r["code"] == FIXTURE["playing"])
            assert room.match_id == playing["match_id"]
            assert len(room.match.hand.actions) == sum(  # every stored action replayed
                1 for a in FIXTURE["rows"]["kwx_actions"] if a["match_id"] == room.match_id)
            assert sink.messages[1]["hand"] == 0 and len(sink.messages[1]["view"]["hand"]) >= 13
            # the old finished match asked for: its match_end, not rated (bots)
            ended = await manager.finished_room(FIXTURE["finished"])
            assert ended["match_end"]["rating"] == {"rated": False, "reason": "bots"}
            await manager.shutdown()
        finally:
            await store.close()
        # opened again: nothing more to do
        again = await Store.open(url, schema)
        async with again.engine.connect() as conn:
            assert (await conn.execute(select(schema_version.c.version))).scalars().all() \
                == [1, 2]
        await again.close()

    asyncio.run(main())
