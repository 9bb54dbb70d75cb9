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
