"""The writer on PostgreSQL: a batch that fails for one of its writes is retried one write per
transaction, the bad one fails alone, and no connection is left checked out (one that a failed
transaction had opened leaked: SQLAlchemy's "non-checked-in connection" warning) — through
SQLAlchemy and through the driver's own path (DirectPostgres, rows with their ``sql``). Skipped,
with the reason, without PostgreSQL."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

from kawuxing.server.testing import pg_test_url
from kawuxing.server.writer import DirectPostgres, Group, Rows, Writer

PG = pg_test_url()
pytestmark = pytest.mark.skipif(PG is None, reason="no PostgreSQL server answers")


@pytest.mark.parametrize("direct", [False, True], ids=["sqlalchemy", "driver"])
def test_a_bad_row_fails_alone_and_no_connection_is_left_out(direct):
    async def main():
        engine = create_async_engine(PG)
        table = f"kwx_writer_{secrets.token_hex(4)}"
        async with engine.begin() as conn:
            await conn.execute(text(f"CREATE TABLE {table} (k int PRIMARY KEY)"))
        writer = Writer(engine, direct=DirectPostgres() if direct else None)
        writer.start()
        try:
            sql = f"INSERT INTO {table} (k) VALUES (:k)"
            insert = text(sql)
            for round_ in range(3):  # each round: one batch that fails, then isolated
                writes = [writer.submit(Rows(insert, {"k": 100 * round_ + k}, sql))
                          for k in range(10)]
                writes.append(writer.submit(Rows(insert, {"k": 100 * round_}, sql)))
                results = await asyncio.gather(*writes, return_exceptions=True)
                failed = [r for r in results if isinstance(r, Exception)]
                assert len(failed) == 1 and "duplicate key" in str(failed[0])
                assert isinstance(failed[0], IntegrityError)  # what Room.stored looks for
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


def test_the_driver_path_commits_a_group_whole_or_not_at_all():
    """A Group (an action and the end of its hand: several statements) goes through
    DirectPostgres in one transaction: when its second statement fails, its first is not
    stored either; the same Group without the fault is stored whole, with :name parameters
    in any order, inside a CAST; in a batch with a coroutine write the rows still go through
    the driver; and the same text is read the same by SQLAlchemy (a writer without it)."""
    async def main():
        engine = create_async_engine(PG)
        table = f"kwx_writer_{secrets.token_hex(4)}"
        async with engine.begin() as conn:
            await conn.execute(text(f"CREATE TABLE {table} (k int PRIMARY KEY, v text)"))
        writer = Writer(engine, direct=DirectPostgres())
        writer.start()

        def row(sql, params):
            return Rows(text(sql), params, sql)
        insert = f"INSERT INTO {table} (v, k) VALUES (CAST(:v AS text), :k)"
        update = f"UPDATE {table} SET v = :v WHERE k = :k"
        nulled = f"UPDATE {table} SET k = NULL WHERE k = :k"  # the primary key: refused
        try:
            with pytest.raises(IntegrityError):
                await writer.submit(Group((row(insert, {"k": 1, "v": "a"}),
                                           row(nulled, {"k": 1}))))
            await writer.submit(Group((row(insert, {"k": 1, "v": "a"}),
                                       row(update, {"v": "c", "k": 1}))))

            async def read(conn):
                return (await conn.execute(text(f"SELECT k, v FROM {table}"))).all()
            # a coroutine write in the batch: the rows still go through the driver, first,
            # the coroutine through SQLAlchemy after them (issue 34)
            direct_batches = []
            through_driver = writer.direct.commit_rows

            async def counted(rows, conn):
                direct_batches.append(len(rows))
                await through_driver(rows, conn)
            writer.direct.commit_rows = counted
            found, _ = await asyncio.gather(writer.submit(read),
                                            writer.submit(row(insert, {"k": 2, "v": "d"})))
            assert direct_batches == [1]
            assert sorted(tuple(r) for r in found) == [(1, "c"), (2, "d")]
            await writer.close()
            # the same text read the same by SQLAlchemy (a writer without the driver path)
            plain = Writer(engine)
            plain.start()
            await plain.submit(Group((row(insert, {"k": 3, "v": "e"}),
                                      row(update, {"v": "f", "k": 3}))))
            await plain.close()
            assert engine.pool.checkedout() == 0
            async with engine.connect() as conn:
                rows = await read(conn)
            assert sorted(tuple(r) for r in rows) == [(1, "c"), (2, "d"), (3, "f")]
        finally:
            async with engine.begin() as conn:
                await conn.execute(text(f"DROP TABLE {table}"))
            await engine.dispose()
    asyncio.run(main())
