"""The writer's plain sqlite3 path (:class:`kawuxing.server.writer.DirectSqlite`): rows of one
single-row insert are written by one multi-row statement (one SQLite step, so the writer's
thread takes the GIL back once a batch, not once a row, issue 34), in order, atomically."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from kawuxing.server.writer import DirectSqlite, Rows, _many_rows

INSERT = "INSERT INTO t (a, b, \"by\") VALUES (:a, :b, :by)"
UPDATE = "UPDATE t SET b = :b WHERE a = :a"


def test_rows_of_one_insert_are_one_statement_in_order_and_atomic(tmp_path):
    path = str(tmp_path / "w.db")
    with sqlite3.connect(path) as made:
        made.execute('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT, "by" TEXT)')
    statements: list[str] = []

    def setup(conn: sqlite3.Connection) -> None:
        conn.set_trace_callback(statements.append)

    async def main():
        direct = DirectSqlite(path, setup)
        try:
            rows = [Rows(None, {"a": i, "b": f"x{i}", "by": "p"}, INSERT) for i in range(40)]
            rows.append(Rows(None, {"a": 3, "b": "changed"}, UPDATE))
            rows += [Rows(None, {"a": i, "b": "y", "by": "q"}, INSERT) for i in (40, 41)]
            await direct.commit_rows(rows)
            inserts = [s for s in statements if s.startswith("INSERT")]
            # (the traced text has the values bound)
            assert len(inserts) == 2 and inserts[0].count("), (") == 39
            assert inserts[1].endswith("(40, 'y', 'q'), (41, 'y', 'q')")
            # a batch with a row already stored fails whole: nothing of it is kept
            with pytest.raises(sqlite3.IntegrityError):
                await direct.commit_rows([Rows(None, {"a": 100, "b": "z", "by": "p"}, INSERT),
                                          Rows(None, {"a": 5, "b": "z", "by": "p"}, INSERT)])
        finally:
            direct.close()
        with sqlite3.connect(path) as check:
            got = check.execute("SELECT a, b, \"by\" FROM t ORDER BY a").fetchall()
        assert got == [(i, "changed" if i == 3 else f"x{i}", "p") for i in range(40)] + [
            (40, "y", "q"), (41, "y", "q")]
    asyncio.run(main())


def test_only_single_row_inserts_become_one_statement():
    assert _many_rows(UPDATE, [{"a": 1, "b": "x"}] * 2) is None
    assert _many_rows("DELETE FROM t WHERE a = :a", [{"a": 1}] * 2) is None
    sql, values = _many_rows(INSERT, [{"a": 1, "b": "x", "by": "p"},
                                      {"a": 2, "b": "y", "by": "q"}])
    assert sql == 'INSERT INTO t (a, b, "by") VALUES (?, ?, ?), (?, ?, ?)'
    assert values == [1, "x", "p", 2, "y", "q"]
    assert _many_rows(INSERT, [{"a": 1, "b": "x", "by": "p"}] * 20000) is None  # too many values


def test_a_batch_with_another_write_still_sends_its_rows_the_direct_way(tmp_path):
    """A write that is not rows (a coroutine: a new hand, a join) in the same batch as rows of
    play is committed on its own through SQLAlchemy, after them; the rows still go through
    :class:`DirectSqlite` (issue 34: one such write sent the whole batch the slow way)."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from kawuxing.server.writer import Writer

    path = str(tmp_path / "w.db")
    with sqlite3.connect(path) as made:
        made.execute('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT, "by" TEXT)')

    async def main():
        engine = create_async_engine(f"sqlite+aiosqlite:///{path}")
        direct = DirectSqlite(path, lambda conn: None)
        batches: list[int] = []
        through = direct.commit_rows

        async def counted(rows, conn=None):
            batches.append(len(rows))
            await through(rows, conn)
        direct.commit_rows = counted
        writer = Writer(engine, direct=direct)
        writer.start()

        async def other(conn):
            return (await conn.execute(text("SELECT count(*) FROM t"))).scalar_one()
        try:
            results = await asyncio.gather(
                writer.submit(Rows(None, {"a": 1, "b": "x", "by": "p"}, INSERT)),
                writer.submit(other),
                writer.submit(Rows(None, {"a": 2, "b": "y", "by": "p"}, INSERT)))
        finally:
            await writer.close()
            await engine.dispose()
        return batches, results

    batches, results = asyncio.run(main())
    assert batches == [2]  # both rows in one direct commit
    assert results == [None, 2, None]  # the other write ran after them, on its own
    with sqlite3.connect(path) as check:
        assert check.execute("SELECT a, b FROM t ORDER BY a").fetchall() == [(1, "x"), (2, "y")]
