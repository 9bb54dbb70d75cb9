"""The writer on PostgreSQL: a batch that fails for one of its writes is retried one write per
transaction, the bad one fails alone, and no connection is left checked out (one that a failed
transaction had opened leaked: SQLAlchemy's "non-checked-in connection" warning). Skipped,
with the reason, without PostgreSQL."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from kawuxing.server.testing import pg_test_url
from kawuxing.server.writer import Rows, Writer

PG = pg_test_url()
pytestmark = pytest.mark.skipif(PG is None, reason="no PostgreSQL server answers")


def test_a_bad_row_fails_alone_and_no_connection_is_left_out():
    async def main():
        engine = create_async_engine(PG)
        table = f"kwx_writer_{secrets.token_hex(4)}"
        async with engine.begin() as conn:
            await conn.execute(text(f"CREATE TABLE {table} (k int PRIMARY KEY)"))
        writer = Writer(engine)
        writer.start()
        try:
            insert = text(f"INSERT INTO {table} (k) VALUES (:k)")
            for round_ in range(3):  # each round: one batch that fails, then isolated
                writes = [writer.submit(Rows(insert, {"k": 100 * round_ + k}))
                          for k in range(10)] + [writer.submit(Rows(insert, {"k": 100 * round_}))]
                results = await asyncio.gather(*writes, return_exceptions=True)
                failed = [r for r in results if isinstance(r, Exception)]
                assert len(failed) == 1 and "duplicate key" in str(failed[0])
            await writer.close()
            assert engine.pool.checkedout() == 0
            async with engine.connect() as conn:
                count = (await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar()
            assert count == 30
        finally:
            async with engine.begin() as conn:
                await conn.execute(text(f"DROP TABLE {table}"))
            await engine.dispose()
    asyncio.run(main())
