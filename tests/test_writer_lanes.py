"""The writer's lanes on PostgreSQL (issue 17): play's row inserts commit on several
connections at once, so a batch does not wait for the commit in flight before it; every
other write stays on the one serial task. Skipped, with the reason, without PostgreSQL."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from kawuxing.server.db import WRITER_LANES
from kawuxing.server.writer import Group, Rows, Writer
from kawuxing.server.testing import pg_test_url

PG = pg_test_url()
pytestmark = pytest.mark.skipif(PG is None, reason="no PostgreSQL server answers")


def with_table(body, lanes: int):
    """Run ``body(writer, table)`` against a scratch table ``(k int primary key, pid int)``
    with a started writer of ``lanes`` lanes; the table is dropped after."""
    async def main():
        engine = create_async_engine(PG)
        table = f"kwx_lanes_{secrets.token_hex(4)}"
        async with engine.begin() as conn:
            await conn.execute(text(f"CREATE TABLE {table} (k int PRIMARY KEY, pid int)"))
        writer = Writer(engine, lanes=lanes)
        writer.start()
        try:
            return await body(writer, table)
        finally:
            await writer.close()
            async with engine.begin() as conn:
                await conn.execute(text(f"DROP TABLE {table}"))
            await engine.dispose()
    return asyncio.run(main())


def insert(table: str, k: int, sleep: float = 0.0) -> Rows:
    """A row insert that records the connection's backend pid (after ``sleep`` s)."""
    return Rows(text(f"INSERT INTO {table} (k, pid) SELECT :k, pg_backend_pid() "
                     f"FROM pg_sleep(:s)"), {"k": k, "s": sleep})


async def stored(writer: Writer, table: str) -> dict[int, int]:
    async with writer.engine.connect() as conn:
        rows = (await conn.execute(text(f"SELECT k, pid FROM {table}"))).all()
    return dict(rows)


@pytest.mark.parametrize("lanes, overtakes", [(WRITER_LANES, True), (1, False)])
def test_a_write_does_not_wait_for_the_slow_commit_before_it(lanes, overtakes):
    async def body(writer, table):
        done: list[str] = []

        async def write(name, op):
            await writer.submit(op)
            done.append(name)

        slow = asyncio.create_task(write("slow", insert(table, 1, sleep=0.5)))
        await asyncio.sleep(0.1)  # a lane has taken it and waits on PostgreSQL
        fast = asyncio.create_task(write("fast", Group((insert(table, 2), insert(table, 3)))))
        await asyncio.gather(slow, fast)
        rows = await stored(writer, table)
        assert sorted(rows) == [1, 2, 3] and rows[2] == rows[3]  # one write, one transaction
        return done, rows[1] != rows[2]

    done, other_connection = with_table(body, lanes)
    assert done == (["fast", "slow"] if overtakes else ["slow", "fast"])
    assert other_connection is overtakes


def test_a_bad_row_fails_alone_and_other_writes_stay_serial():
    async def body(writer, table):
        assert writer.rows_queue is not writer.queue and len(writer.lane_tasks) == WRITER_LANES
        writes = [writer.submit(insert(table, k)) for k in range(30)] + [
            writer.submit(insert(table, 5))]  # a duplicate key
        results = await asyncio.gather(*writes, return_exceptions=True)
        failed = [r for r in results if isinstance(r, Exception)]
        assert len(failed) == 1 and "duplicate key" in str(failed[0])

        async def op(conn):  # a read-then-write: the serial task
            count = (await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar()
            await conn.execute(text(f"INSERT INTO {table} (k, pid) VALUES (:k, -1)"),
                               {"k": 1000 + count})
            return count

        assert await writer.submit(op) == 30
        rows = await stored(writer, table)
        assert sorted(rows) == list(range(30)) + [1030]
        assert writer.health()["queued"] == 0
    with_table(body, WRITER_LANES)
