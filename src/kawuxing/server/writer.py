"""The one writer of the database: a task that commits queued writes together (group commit).

All writes of the server go through one :class:`Writer` (writes never race, and SQLite never
sees two writers). Each caller's future is resolved only after the commit that holds its
write, so a room can send an action's events knowing the action is stored. A write is an
``async def op(conn)``, a :class:`Rows` (one row for a prepared insert: consecutive ones are
sent together with ``executemany``) or a :class:`Group` of them (one write).

SQLite: the writes of a batch that are :class:`Rows` and :class:`Group` with their ``sql``
(accepted actions, and the end of a hand: every write of play) go through
:class:`DirectSqlite` — a plain ``sqlite3`` connection in a thread of its own, the whole
transaction in one hand-off — rather than SQLAlchemy and aiosqlite (a thread hand-off per
cursor, statement and commit: stalls of the event loop under load); the batch's other writes
(a new hand, a join) are committed after them, in a transaction of their own, so one of them
does not send the play of every room in the batch through SQLAlchemy (issue 34).
PostgreSQL (asyncpg): such writes go through
:class:`DirectPostgres` — the driver's ``executemany`` on the writer's connection, one round
trip for rows of one statement instead of ``BEGIN``, the insert and ``COMMIT`` through
SQLAlchemy (issue 17: the writer was a seventh of a cluster member's CPU).

SQLite (``wal_path`` given): between batches the writer truncates the WAL (``PRAGMA
wal_checkpoint(TRUNCATE)``) on its own connection — at once when the WAL has grown to
``wal_limit`` bytes, else when the queue is empty and :data:`CHECKPOINT_EVERY` seconds have
passed since the last one — so the WAL stays small under sustained load (issue 13: it grew
from 3 to 73 MB in 150 s with passive checkpoints that readers kept from finishing).
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import re
import sqlite3
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from sqlalchemy.exc import DatabaseError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

log = logging.getLogger("kawuxing.server.db")

Op = Callable[[AsyncConnection], Awaitable[Any]]
MAX_BATCH = 200  # writes per transaction at most
RECENT_COMMITS = 1000  # commits kept for health()
CHECKPOINT_EVERY = 1.0  # seconds between checkpoints when the writer is idle (SQLite)


class Writer:
    """The one writer: a task that runs queued write operations, several per transaction.

    :meth:`submit` returns once the operation's transaction is committed (its result), or
    raises what the operation raised. A batch that failed for one of its writes (a constraint,
    a bad value) is retried one operation per transaction, so one bad write does not fail the
    others; a batch that failed because the database could not be written at all (locked,
    gone: :func:`transient`) fails as a whole at once — each caller retries, and a lock is
    not waited for once per write.
    """

    def __init__(self, engine: AsyncEngine, max_batch: int = MAX_BATCH,
                 wal_path: str | None = None, wal_limit: int = 4 * 2**20,
                 direct: DirectSqlite | DirectPostgres | None = None) -> None:
        self.engine = engine
        self.direct = direct
        self.max_batch = max_batch
        self.wal_path = wal_path
        self.wal_limit = wal_limit
        self.checkpoints = 0
        self.wal_max = 0  # the largest WAL size seen before a checkpoint (bytes)
        self._checkpointed_at = (0, time.monotonic())  # (commits, when) of the last one
        self.queue: asyncio.Queue = asyncio.Queue()
        self.task: asyncio.Task | None = None
        self.commits = 0
        self.recent: deque = deque(maxlen=RECENT_COMMITS)  # (seconds, writes) of commits

    def start(self) -> None:
        """Start the writer task (in the running loop)."""
        self.task = asyncio.get_running_loop().create_task(self._run(), name="kawuxing-writer")

    async def submit(self, op: Op | Rows) -> Any:
        """Queue ``op`` (an ``async def op(conn)``, or :class:`Rows`) and wait for its
        commit."""
        if self.task is None or self.task.done():
            raise RuntimeError("the database writer is not running")
        future = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((op, future))
        return await future

    async def close(self) -> None:
        """Finish every queued write, then stop."""
        if self.task is None:
            return
        self.queue.put_nowait(None)
        await self.task

    async def _run(self) -> None:
        conn: AsyncConnection | None = None  # the writer's own connection, kept open
        stop = False
        try:
            while not stop:
                item = await self.queue.get()
                if item is None:
                    break
                batch = [item]
                while len(batch) < self.max_batch and not self.queue.empty():
                    nxt = self.queue.get_nowait()
                    if nxt is None:
                        stop = True
                        break
                    batch.append(nxt)
                live = [(op, fut) for op, fut in batch if not fut.cancelled()]
                if self.direct is not None:  # the rows of play, then the rest: two commits
                    parts = [[w for w in live if _direct(w[0])],
                             [w for w in live if not _direct(w[0])]]
                else:
                    parts = [live]
                for part in parts:
                    if part:
                        conn = await self._commit_settle(conn, part)
                if live and self.wal_path is not None:
                    conn = await self._maybe_checkpoint(conn)
        finally:
            await _discard(conn)
            if self.direct is not None:
                self.direct.close()

    async def _commit_settle(self, conn: AsyncConnection | None,
                             live: list) -> AsyncConnection | None:
        """Commit the writes of ``live`` (``(op, future)``) in one transaction and settle
        their futures; when that fails for one of them (not :func:`transient`), each is tried
        alone. Returns the connection (None once dropped)."""
        try:
            conn, results = await self._commit_any(conn, [op for op, _ in live])
        except Exception as exc:
            conn = await _discard(conn)
            if len(live) == 1 or transient(exc):
                for _, fut in live:
                    _settle(fut, error=exc)
                return conn
            for op, fut in live:  # isolate the failing write
                try:
                    conn, results = await self._commit_any(conn, [op])
                    _settle(fut, result=results[0])
                except Exception as exc_one:
                    conn = await _discard(conn)
                    _settle(fut, error=exc_one)
            return conn
        for (_, fut), result in zip(live, results):
            _settle(fut, result=result)
        return conn

    async def _commit_any(self, conn: AsyncConnection | None,
                          ops: list) -> tuple[AsyncConnection | None, list]:
        """Commit ``ops`` in one transaction: directly (:class:`DirectSqlite`) when every
        one is a :class:`Rows` with its ``sql``, else through SQLAlchemy (the connection is
        made if needed). Returns the connection and the ops' results."""
        if self.direct is not None and all(_direct(op) for op in ops):
            started = time.perf_counter()
            rows = [r for op in ops for r in (op.rows if isinstance(op, Group) else (op,))]
            if self.direct.needs_connection:
                conn = conn or await self.engine.connect()
            try:
                await self.direct.commit_rows(rows, conn)
            except BaseException:  # (the caller drops its connection: this one is closed too)
                await _discard(conn)
                raise
            self.commits += 1
            self.recent.append((time.perf_counter() - started, len(ops)))
            return conn, [None] * len(ops)
        conn = conn or await self.engine.connect()
        try:
            return conn, await self._commit(conn, ops)
        except BaseException:  # (the caller drops its connection: this one is closed too)
            await _discard(conn)
            raise

    async def _commit(self, conn: AsyncConnection, ops: list) -> list:
        started = time.perf_counter()
        async with conn.begin():
            results = await _run_ops(conn, ops)
        self.commits += 1
        self.recent.append((time.perf_counter() - started, len(ops)))
        return results

    async def _maybe_checkpoint(self, conn: AsyncConnection | None) -> AsyncConnection | None:
        """Truncate the WAL between batches when it is over ``wal_limit``, or when idle
        (nothing queued) :data:`CHECKPOINT_EVERY` seconds after the last checkpoint with
        commits since. Returns the connection (None if it had to be dropped)."""
        try:
            size = os.path.getsize(self.wal_path)
        except OSError:
            return conn
        commits, when = self._checkpointed_at
        idle = self.queue.empty() and self.commits > commits \
            and time.monotonic() - when >= CHECKPOINT_EVERY
        if size < self.wal_limit and not (idle and size > 0):
            return conn
        self.wal_max = max(self.wal_max, size)
        try:
            if self.direct is not None:
                await self.direct.checkpoint()
            else:
                conn = conn or await self.engine.connect()
                await conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
                await conn.rollback()
            self.checkpoints += 1
        except Exception as exc:  # tried again after the next batch
            log.warning("WAL checkpoint failed: %r", exc)
            conn = await _discard(conn)
        self._checkpointed_at = (self.commits, time.monotonic())
        return conn

    def health(self) -> dict:
        """Recent commits (the last 1000): count, writes per commit, and commit time in ms
        (p50, p99, max), and writes waiting now."""
        recent = list(self.recent)
        times = sorted(t * 1000 for t, _ in recent)
        out: dict = {"commits": self.commits, "queued": self.queue.qsize()}
        if self.wal_path is not None:
            out.update(checkpoints=self.checkpoints, wal_max_bytes=self.wal_max)
        if times:
            out.update(recent=len(times),
                       writes_per_commit=round(sum(n for _, n in recent) / len(recent), 2),
                       commit_ms_p50=round(times[len(times) // 2], 2),
                       commit_ms_p99=round(times[int(0.99 * (len(times) - 1))], 2),
                       commit_ms_max=round(times[-1], 2))
        return out


def transient(exc: BaseException) -> bool:
    """True for a failure of the database rather than of one write: SQLite locked or busy,
    the connection lost (SQLAlchemy ``OperationalError``/``InterfaceError``, or a connection
    invalidated), a timeout."""
    if isinstance(exc, (OperationalError, InterfaceError, TimeoutError, OSError,
                        sqlite3.OperationalError)):
        return True
    return bool(getattr(exc, "connection_invalidated", False))


async def _discard(conn: AsyncConnection | None) -> None:
    """Close a connection after an error (a new one is made for the next batch)."""
    if conn is not None:
        try:
            await conn.close()
        except Exception:
            pass
    return None


@dataclass(frozen=True)
class Rows:
    """A write that is one row for a prepared insert: consecutive ones with the same
    statement are sent together (``executemany``). ``sql``: the same insert as SQLite text
    with ``:name`` parameters, for :class:`DirectSqlite` (None: SQLAlchemy only)."""

    statement: Any
    params: dict
    sql: str | None = None


@dataclass(frozen=True)
class Group:
    """Several statements that are one write (committed together, in order): each a
    :class:`Rows` (its ``statement`` any SQLAlchemy executable taking ``params``)."""

    rows: tuple[Rows, ...]


def _direct(op: Any) -> bool:
    """Whether ``op`` can go through :class:`DirectSqlite` (rows with their ``sql``)."""
    if isinstance(op, Rows):
        return op.sql is not None
    return isinstance(op, Group) and all(r.sql is not None for r in op.rows)


class DirectSqlite:
    """The writer's own plain ``sqlite3`` connection to the database file ``path``, used in
    one thread of its own (``setup(connection)`` sets its pragmas): :meth:`commit_rows`
    runs a whole transaction of row inserts in one hand-off to that thread."""

    needs_connection = False  # its own sqlite3 connection, not the writer's

    def __init__(self, path: str, setup: Callable[[sqlite3.Connection], None]) -> None:
        self.path = path
        self.setup = setup
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()  # (fn, args, future, loop) or None
        self.thread: threading.Thread | None = None
        self.conn: sqlite3.Connection | None = None

    def _serve(self) -> None:
        """The connection's thread: runs each job, and settles its future in its loop (one
        ``call_soon_threadsafe`` a job: a third of an executor's hand-off, issue 34)."""
        while True:
            job = self.jobs.get()
            if job is None:  # close(): after every job queued before
                self._drop()
                return
            fn, args, future, loop = job
            try:
                outcome = (future.set_result, fn(*args))
            except BaseException as exc:
                outcome = (future.set_exception, exc)
            try:
                loop.call_soon_threadsafe(_resolve, future, *outcome)
            except RuntimeError:  # the loop is closed: nobody waits for it
                pass

    def _run(self, fn: Callable, *args: Any) -> asyncio.Future:
        """``fn(*args)`` in the connection's thread (started at the first call): a future of
        the running loop for its result."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._serve, name="kawuxing-sqlite",
                                           daemon=True)
            self.thread.start()
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.jobs.put((fn, args, future, loop))
        return future

    def _connection(self) -> sqlite3.Connection:
        if self.conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.setup(conn)
            self.conn = conn
        return self.conn

    def _commit(self, groups: list[tuple[str, list[dict]]]) -> None:
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in groups:
                many = _many_rows(sql, params) if len(params) > 1 else None
                if many is not None:
                    conn.execute(*many)
                else:
                    conn.executemany(sql, params)
            conn.execute("COMMIT")
        except BaseException:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                self._drop()
            raise

    def _drop(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except sqlite3.Error:
                pass
            self.conn = None

    async def commit_rows(self, rows: list[Rows], conn: AsyncConnection | None = None) -> None:
        """Insert every row (consecutive ones with the same ``sql`` with one
        ``executemany``) in one transaction; raises the ``sqlite3`` error (rolled back).
        ``conn`` (the writer's) is not used."""
        await self._run(self._commit, _grouped(rows))

    async def checkpoint(self) -> None:
        """``PRAGMA wal_checkpoint(TRUNCATE)`` on this connection."""
        def run() -> None:
            self._connection().execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        await self._run(run)

    def close(self) -> None:
        """Close the connection (in its thread, after the jobs queued) and stop the
        thread."""
        if self.thread is None:
            self._drop()
            return
        self.jobs.put(None)
        self.thread.join()
        self.thread = None


class DirectPostgres:
    """The writer's plain ``asyncpg`` path on PostgreSQL for a batch of :class:`Rows` with
    their ``sql``: on the driver's connection under the writer's SQLAlchemy connection (the
    same pool, ``search_path`` and credentials), rows of one statement are one
    ``executemany`` — atomic by itself (asyncpg ≥ 0.22: one implicit transaction, one
    round trip), with no ``BEGIN``/``COMMIT`` round trips; rows of several statements (the
    end of a hand) are one explicit transaction. The ``:name`` parameters become ``$n``
    once per statement. Errors are raised as SQLAlchemy's (:func:`_sqlalchemy_error`:
    ``IntegrityError`` for a row already stored, ``OperationalError`` for a lost
    connection), as from the SQLAlchemy path."""

    needs_connection = True  # the writer's SQLAlchemy connection, for its driver's

    def __init__(self) -> None:
        self._texts: dict[str, tuple[str, tuple[str, ...]]] = {}

    def _text(self, sql: str) -> tuple[str, tuple[str, ...]]:
        found = self._texts.get(sql)
        if found is None:
            names: list[str] = []

            def number(match: re.Match) -> str:
                names.append(match.group(1))
                return f"${len(names)}"
            found = self._texts[sql] = (_PARAM.sub(number, sql), tuple(names))
        return found

    async def commit_rows(self, rows: list[Rows], conn: AsyncConnection) -> None:
        """Insert (or update) every row in one transaction on ``conn``'s driver connection;
        raises SQLAlchemy's error (nothing is stored)."""
        groups = []
        for sql, params in _grouped(rows):
            text, names = self._text(sql)
            groups.append((text, [tuple(p[n] for n in names) for p in params]))
        driver = (await conn.get_raw_connection()).driver_connection
        statement = groups[0][0]  # the one being run, for the error
        try:
            if len(groups) == 1:
                await driver.executemany(statement, groups[0][1])
            else:
                async with driver.transaction():
                    for statement, args in groups:
                        await driver.executemany(statement, args)
        except Exception as exc:
            error = _sqlalchemy_error(exc, statement)
            if isinstance(error, OperationalError):
                await conn.invalidate()
            raise error from exc

    def close(self) -> None:
        """Nothing to close (the connection is the writer's)."""


# a :name parameter as SQLAlchemy's text() reads one (not part of a ::cast, not after a
# backslash), so that the same sql means the same on both paths
_PARAM = re.compile(r"(?<![:\w\\]):(\w+)(?!:)")


def _sqlalchemy_error(exc: Exception, statement: str) -> Exception:
    """``exc`` from asyncpg as SQLAlchemy's error of the same meaning (what the callers
    look for: ``IntegrityError``, and :func:`transient`'s ``OperationalError``)."""
    import asyncpg

    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return IntegrityError(statement, None, exc)
    if isinstance(exc, (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError)):
        return OperationalError(statement, None, exc)
    if isinstance(exc, asyncpg.PostgresError):
        return DatabaseError(statement, None, exc)
    return exc


_INSERT = re.compile(r"^(INSERT INTO [^(]+\([^)]*\) VALUES )\(((?::\w+(?:, )?)+)\)$")
_MANY_LIMIT = 32766 // 2  # host parameters in one statement (SQLite's limit is 32766)
_inserts: dict[str, tuple[str, str, tuple[str, ...]] | None] = {}


def _many_rows(sql: str, params: list[dict]) -> tuple[str, list] | None:
    """``(sql, values)``: one ``INSERT … VALUES (…), (…), …`` statement for the rows
    ``params`` of the single-row insert ``sql`` (``:name`` parameters), or None for any
    other statement or too many values. One step of SQLite instead of one a row: the
    writer's thread gives up and takes back the GIL once, not once a row — under load each
    taking waited for the event loop's thread (issue 34: commits of 20 rows took 100 ms)."""
    shape = _inserts.get(sql, False)
    if shape is False:
        found = _INSERT.match(sql)
        shape = _inserts[sql] = None if found is None else (
            found.group(1), "(" + ", ".join("?" * len(found.group(2).split(", "))) + ")",
            tuple(name.strip()[1:] for name in found.group(2).split(", ")))
    if shape is None or len(params) * len(shape[2]) > _MANY_LIMIT:
        return None
    head, row, names = shape
    return head + ", ".join([row] * len(params)), [p[n] for p in params for n in names]


def _grouped(rows: list[Rows]) -> list[tuple[str, list[dict]]]:
    """``rows`` as ``(sql, [params])``, consecutive rows of the same ``sql`` together."""
    groups: list[tuple[str, list[dict]]] = []
    for row in rows:
        if groups and groups[-1][0] is row.sql:
            groups[-1][1].append(row.params)
        else:
            groups.append((row.sql, [row.params]))
    return groups


async def _run_ops(conn: AsyncConnection, ops: list) -> list:
    results: list = []
    i = 0
    while i < len(ops):
        op = ops[i]
        if isinstance(op, Rows):
            j = i
            while j < len(ops) and isinstance(ops[j], Rows) and ops[j].statement is op.statement:
                j += 1
            group = [o.params for o in ops[i:j]]
            await conn.execute(op.statement, group if len(group) > 1 else group[0])
            results += [None] * (j - i)
            i = j
        elif isinstance(op, Group):
            for row in op.rows:
                await conn.execute(row.statement, row.params)
            results.append(None)
            i += 1
        else:
            results.append(await op(conn))
            i += 1
    return results


def _resolve(future: asyncio.Future, setter: Callable[[Any], None], value: Any) -> None:
    """Set ``future``'s result or exception (``setter`` one of its two methods) unless it
    was cancelled meanwhile."""
    if not future.done():
        setter(value)


def _settle(fut: asyncio.Future, result: Any = None, error: BaseException | None = None) -> None:
    if fut.done():
        return
    if error is not None:
        log.warning("database write failed: %r", error)
        fut.set_exception(error)
    else:
        fut.set_result(result)
