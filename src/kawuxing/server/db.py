"""Persistence: rooms, seats, matches, hands and every accepted action (SQLAlchemy async Core).

One code path for SQLite (``sqlite+aiosqlite``: WAL, busy timeout, ``synchronous=FULL`` or
``NORMAL``, checkpoints off the commit path) and
PostgreSQL (``postgresql+asyncpg``). The schema is created on start (``create_all``) and its
version kept in ``kwx_schema_version``; a database written by a newer schema is refused.

All writes go through one :class:`Writer` task (one writer: writes never race, and SQLite never
sees two writers). It commits queued writes together (group commit) and resolves each caller's
future only after the commit, so a room can send an action's events knowing the action is
stored. Reads use their own pooled connections (SQLite WAL readers do not block the writer).

What is stored (all JSON as text): a room (code, status, preset and option overrides, the rule
set, its timer settings), its three seats (kind, bot name, nickname, SHA-256 of the token), its
match (players, totals), each hand's record without actions (:func:`kawuxing.records.hand_record`
at the deal: rules, dealer, dealt hands, the draw order) and, one row each, every accepted action.
A hand is rebuilt by :func:`kawuxing.records.replay` of its record plus its action rows.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from sqlalchemy import (Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table,
                        Text, and_, event, insert, select, text, update)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

log = logging.getLogger("kawuxing.server.db")

SCHEMA_VERSION = 1

metadata = MetaData()

schema_version = Table(
    "kwx_schema_version", metadata,
    Column("version", Integer, primary_key=True),
    Column("applied_at", Float, nullable=False))

rooms = Table(
    "kwx_rooms", metadata,
    Column("code", String(16), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("status", String(16), nullable=False),  # waiting | playing | finished | closed
    Column("preset", String(32), nullable=False),
    Column("options", Text, nullable=False),  # the overrides asked for (JSON)
    Column("rules", Text, nullable=False),  # RuleSet.to_dict() (JSON)
    Column("settings", Text, nullable=False),  # RoomSettings (JSON)
    Column("match_id", String(32), nullable=True))

seats = Table(
    "kwx_seats", metadata,
    Column("room_code", String(16), ForeignKey("kwx_rooms.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # open | human | bot
    Column("bot", String(32), nullable=True),
    Column("nickname", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("vacated", Boolean, nullable=False, default=False))

matches = Table(
    "kwx_matches", metadata,
    Column("id", String(32), primary_key=True),
    Column("room_code", String(16), ForeignKey("kwx_rooms.code"), nullable=False),
    Column("rules", Text, nullable=False),
    Column("players", Text, nullable=False),  # [{seat, nickname, kind, bot}] at the start
    Column("hands_planned", Integer, nullable=False),
    Column("status", String(16), nullable=False),  # playing | finished
    Column("totals", Text, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True))

hands = Table(
    "kwx_hands", metadata,
    Column("match_id", String(32), ForeignKey("kwx_matches.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("dealer", Integer, nullable=False),
    Column("record", Text, nullable=False),  # hand_record at the deal: holds the wall (secret)
    Column("status", String(16), nullable=False),  # playing | ended
    Column("result", Text, nullable=True),  # views.hand_result once ended
    Column("started_at", Float, nullable=False),
    Column("ended_at", Float, nullable=True))

actions = Table(
    "kwx_actions", metadata,
    Column("match_id", String(32), primary_key=True),
    Column("hand_number", Integer, primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # Action.to_json()
    Column("by", String(8), nullable=False),  # player | timeout | bot | auto
    Column("at", Float, nullable=False))

Op = Callable[[AsyncConnection], Awaitable[Any]]
_ACTION_INSERT = insert(actions)


def dumps(value: Any) -> str:
    """Compact JSON (UTF-8 text, not ASCII-escaped)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Writer:
    """The one writer: a task that runs queued write operations, several per transaction.

    :meth:`submit` returns once the operation's transaction is committed (its result), or
    raises what the operation raised. A failed batch is retried one operation per transaction,
    so one bad write does not fail the others.
    """

    def __init__(self, engine: AsyncEngine, max_batch: int = 200) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self.queue: asyncio.Queue = asyncio.Queue()
        self.task: asyncio.Task | None = None
        self.commits = 0
        self.recent: deque = deque(maxlen=1000)  # (seconds, writes) of recent commits

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
                if not live:
                    continue
                try:
                    conn = conn or await self.engine.connect()
                    results = await self._commit(conn, [op for op, _ in live])
                except Exception as exc:
                    conn = await _discard(conn)
                    if len(live) == 1:
                        _settle(live[0][1], error=exc)
                        continue
                    for op, fut in live:  # isolate the failing write
                        try:
                            conn = conn or await self.engine.connect()
                            _settle(fut, result=(await self._commit(conn, [op]))[0])
                        except Exception as exc_one:
                            conn = await _discard(conn)
                            _settle(fut, error=exc_one)
                    continue
                for (_, fut), result in zip(live, results):
                    _settle(fut, result=result)
        finally:
            await _discard(conn)

    async def _commit(self, conn: AsyncConnection, ops: list) -> list:
        started = time.perf_counter()
        async with conn.begin():
            results = await _run_ops(conn, ops)
        self.commits += 1
        self.recent.append((time.perf_counter() - started, len(ops)))
        return results

    def health(self) -> dict:
        """Recent commits (the last 1000): count, writes per commit, and commit time in ms
        (p50, p99, max), and writes waiting now."""
        recent = list(self.recent)
        times = sorted(t * 1000 for t, _ in recent)
        out: dict = {"commits": self.commits, "queued": self.queue.qsize()}
        if times:
            out.update(recent=len(times),
                       writes_per_commit=round(sum(n for _, n in recent) / len(recent), 2),
                       commit_ms_p50=round(times[len(times) // 2], 2),
                       commit_ms_p99=round(times[int(0.99 * (len(times) - 1))], 2),
                       commit_ms_max=round(times[-1], 2))
        return out


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
    statement are sent together (``executemany``)."""

    statement: Any
    params: dict


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
        else:
            results.append(await op(conn))
            i += 1
    return results


def _settle(fut: asyncio.Future, result: Any = None, error: BaseException | None = None) -> None:
    if fut.done():
        return
    if error is not None:
        log.warning("database write failed: %r", error)
        fut.set_exception(error)
    else:
        fut.set_result(result)


@dataclass
class ActionRow:
    """One accepted action to store (see :meth:`Store.add_action`)."""

    match_id: str
    hand_number: int
    idx: int
    seat: int
    action: list
    by: str


class Store:
    """The database of the server. Open with :meth:`open`; every method is a coroutine.

    Writes (``create_room`` … ``add_action``) go through the :class:`Writer` and return after
    their commit; they raise the database's error if the write failed (nothing was stored).
    """

    def __init__(self, engine: AsyncEngine, url: str, schema: str | None) -> None:
        self.engine = engine
        self.url = url
        self.schema = schema
        self.writer = Writer(engine)
        self._checkpointer: asyncio.Task | None = None

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    @classmethod
    async def open(cls, url: str, schema: str | None = None,
                   sqlite_synchronous: str = "FULL") -> Store:
        """Connect, create the schema if missing (and the PostgreSQL ``schema`` if given),
        check the schema version, start the writer. Raises ``RuntimeError`` for a database
        written by a newer (or unknown older) schema version.

        ``sqlite_synchronous``: SQLite's ``synchronous`` in WAL mode. ``FULL`` (default): an
        fsync per commit, so a committed action survives the OS crashing or the power failing.
        ``NORMAL``: a committed action survives the server process being killed, but the OS
        crashing may lose the last commits; commits are cheaper when the disk is busy."""
        if sqlite_synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError("sqlite_synchronous: NORMAL, FULL or EXTRA")
        kwargs: dict = {}
        if url.startswith("postgresql"):
            if schema:
                kwargs["connect_args"] = {"server_settings": {"search_path": schema}}
            kwargs.update(pool_size=5, max_overflow=5, pool_pre_ping=True)
        engine = create_async_engine(url, **kwargs)
        if engine.dialect.name == "sqlite":
            synchronous = sqlite_synchronous.upper()

            def pragmas(dbapi_connection, _record) -> None:
                _sqlite_pragmas(dbapi_connection, synchronous)

            event.listen(engine.sync_engine, "connect", pragmas)
        store = cls(engine, url, schema)
        try:
            await store._create_schema()
        except BaseException:
            await engine.dispose()
            raise
        store.writer.start()
        if store.dialect == "sqlite":
            store._checkpointer = asyncio.get_running_loop().create_task(
                store._checkpoints(), name="kawuxing-checkpoints")
        return store

    async def _checkpoints(self, every: float = 2.0) -> None:
        """SQLite: copy the WAL into the database every ``every`` seconds with a PASSIVE
        checkpoint on a connection of its own (writers and readers go on meanwhile)."""
        seen = self.writer.commits
        while True:
            await asyncio.sleep(every)
            if self.writer.commits == seen:
                continue
            seen = self.writer.commits
            try:
                async with self.engine.connect() as conn:
                    await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception as exc:  # retried next time
                log.warning("WAL checkpoint failed: %r", exc)

    async def _create_schema(self) -> None:
        if self.schema and self.dialect == "postgresql":
            async with self.engine.begin() as conn:
                await conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{_ident(self.schema)}"'))
        async with self.engine.begin() as conn:
            await conn.run_sync(metadata.create_all)
            found = (await conn.execute(select(schema_version.c.version))).scalars().all()
            if not found:
                await conn.execute(insert(schema_version).values(version=SCHEMA_VERSION,
                                                                 applied_at=time.time()))
            elif max(found) != SCHEMA_VERSION:
                raise RuntimeError(f"database schema version {max(found)}; this server knows "
                                   f"version {SCHEMA_VERSION} and has no migration for it")

    async def close(self) -> None:
        """Finish queued writes, stop the writer, checkpoint (SQLite), close every
        connection."""
        try:
            await self.writer.close()
            if self._checkpointer is not None:
                self._checkpointer.cancel()
                async with self.engine.connect() as conn:
                    await conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            await self.engine.dispose()

    async def drop_all(self) -> None:
        """Drop every table (tests), and the PostgreSQL schema if one was given."""
        async with self.engine.begin() as conn:
            await conn.run_sync(metadata.drop_all)
        if self.schema and self.dialect == "postgresql":
            async with self.engine.begin() as conn:
                await conn.execute(text(f'DROP SCHEMA IF EXISTS "{_ident(self.schema)}" CASCADE'))

    # --- writes ------------------------------------------------------------------------
    async def create_room(self, room: dict, seat_rows: list[dict]) -> None:
        """Insert a room (columns of ``kwx_rooms``) and its three seats."""
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(insert(rooms).values(**room))
            await conn.execute(insert(seats), [dict(s, room_code=room["code"]) for s in seat_rows])
        await self.writer.submit(op)

    async def update_seat(self, code: str, seat: int, **values: Any) -> None:
        """Change columns of one seat (kind, bot, nickname, token_hash, vacated)."""
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(update(seats).where(and_(seats.c.room_code == code,
                                                        seats.c.seat == seat)).values(**values))
        await self.writer.submit(op)

    async def update_room(self, code: str, **values: Any) -> None:
        """Change columns of a room (``status`` …); ``updated_at`` is set."""
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(update(rooms).where(rooms.c.code == code)
                               .values(updated_at=time.time(), **values))
        await self.writer.submit(op)

    async def start_match(self, code: str, match: dict, first_hand: dict) -> None:
        """Insert a match (columns of ``kwx_matches``) and its first hand; the room is now
        ``playing`` with this match."""
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(insert(matches).values(**match))
            await conn.execute(insert(hands).values(**first_hand))
            await conn.execute(update(rooms).where(rooms.c.code == code).values(
                status="playing", match_id=match["id"], updated_at=time.time()))
        await self.writer.submit(op)

    async def add_hand(self, hand: dict) -> None:
        """Insert a hand (columns of ``kwx_hands``): the record at the deal, status playing."""
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(insert(hands).values(**hand))
        await self.writer.submit(op)

    async def add_action(self, row: ActionRow, hand_result: dict | None = None,
                         totals: list[int] | None = None, match_over: bool = False,
                         room_code: str | None = None) -> None:
        """Store one accepted action; with ``hand_result`` the hand is ended (result and
        time), the match ``totals`` updated, and with ``match_over`` the match and its room
        (``room_code``) are finished — all in one transaction."""
        now = time.time()
        params = {"match_id": row.match_id, "hand_number": row.hand_number, "idx": row.idx,
                  "seat": row.seat, "action": dumps(row.action), "by": row.by, "at": now}
        if hand_result is None and totals is None:
            await self.writer.submit(Rows(_ACTION_INSERT, params))
            return

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(_ACTION_INSERT, params)
            if hand_result is not None:
                await conn.execute(update(hands).where(and_(
                    hands.c.match_id == row.match_id, hands.c.number == row.hand_number)).values(
                    status="ended", result=dumps(hand_result), ended_at=now))
            if totals is not None:
                values: dict = {"totals": dumps(totals)}
                if match_over:
                    values.update(status="finished", finished_at=now)
                await conn.execute(update(matches).where(matches.c.id == row.match_id)
                                   .values(**values))
            if match_over and room_code:
                await conn.execute(update(rooms).where(rooms.c.code == room_code)
                                   .values(status="finished", updated_at=now))
        await self.writer.submit(op)

    # --- reads -------------------------------------------------------------------------
    async def active_rooms(self) -> list[dict]:
        """Every room waiting or playing, to rebuild on start: the room's columns plus
        ``seats`` (3 rows), ``match`` (row or None) and ``hands`` (rows in order, each with
        ``actions``: the stored action lists in order)."""
        async with self.engine.connect() as conn:
            room_rows = (await conn.execute(select(rooms).where(
                rooms.c.status.in_(("waiting", "playing"))).order_by(rooms.c.created_at))
                         ).mappings().all()
            out = []
            for r in room_rows:
                room = dict(r)
                room["seats"] = [dict(s) for s in (await conn.execute(
                    select(seats).where(seats.c.room_code == room["code"])
                    .order_by(seats.c.seat))).mappings().all()]
                room["match"], room["hands"] = None, []
                if room["match_id"]:
                    m = (await conn.execute(select(matches).where(
                        matches.c.id == room["match_id"]))).mappings().first()
                    room["match"] = dict(m) if m else None
                    for h in (await conn.execute(select(hands).where(
                            hands.c.match_id == room["match_id"]).order_by(hands.c.number))
                              ).mappings().all():
                        hand = dict(h)
                        hand["actions"] = [json.loads(a) for a in (await conn.execute(
                            select(actions.c.action).where(and_(
                                actions.c.match_id == room["match_id"],
                                actions.c.hand_number == hand["number"]))
                            .order_by(actions.c.idx))).scalars().all()]
                        room["hands"].append(hand)
                out.append(room)
            return out

    async def list_hands(self, limit: int = 50, offset: int = 0,
                         match_id: str | None = None) -> list[dict]:
        """Ended hands, newest first: ``match_id``, ``number``, ``dealer``, ``result``
        (the settlement dict), ``started_at``, ``ended_at``. No walls here."""
        query = (select(hands.c.match_id, hands.c.number, hands.c.dealer, hands.c.result,
                        hands.c.started_at, hands.c.ended_at)
                 .where(hands.c.status == "ended"))
        if match_id is not None:
            query = query.where(hands.c.match_id == match_id)
        query = query.order_by(hands.c.ended_at.desc(), hands.c.number.desc()) \
            .limit(limit).offset(offset)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).mappings().all()
        return [dict(r, result=json.loads(r["result"])) for r in rows]

    async def hand_record(self, match_id: str, number: int) -> dict | None:
        """The full record (:mod:`kawuxing.records` format, actions and result included) of
        a hand, with ``status`` (``playing``/``ended``), or None if there is no such hand."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(hands).where(and_(
                hands.c.match_id == match_id, hands.c.number == number)))).mappings().first()
            if row is None:
                return None
            acts = (await conn.execute(select(actions.c.action).where(and_(
                actions.c.match_id == match_id, actions.c.hand_number == number))
                .order_by(actions.c.idx))).scalars().all()
        record = json.loads(row["record"])
        record["actions"] = [json.loads(a) for a in acts]
        record["result"] = json.loads(row["result"]) if row["result"] else None
        return {"status": row["status"], "record": record}

    async def list_matches(self, limit: int = 50, offset: int = 0) -> list[dict]:
        """Matches, newest first: ``id``, ``players``, ``hands_planned``, ``status``,
        ``totals``, ``started_at``, ``finished_at`` (no room code: it would let strangers in)."""
        query = (select(matches.c.id, matches.c.players, matches.c.hands_planned,
                        matches.c.status, matches.c.totals, matches.c.started_at,
                        matches.c.finished_at)
                 .order_by(matches.c.started_at.desc()).limit(limit).offset(offset))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).mappings().all()
        return [_match_json(r) for r in rows]

    async def get_match(self, match_id: str) -> dict | None:
        """One match (as in :meth:`list_matches`) with ``hands``: number, dealer, status,
        result (ended hands only)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(matches).where(matches.c.id == match_id))
                   ).mappings().first()
            if row is None:
                return None
            hand_rows = (await conn.execute(
                select(hands.c.number, hands.c.dealer, hands.c.status, hands.c.result,
                       hands.c.started_at, hands.c.ended_at)
                .where(hands.c.match_id == match_id).order_by(hands.c.number))).mappings().all()
        out = _match_json(row)
        out["hands"] = [dict(h, result=json.loads(h["result"]) if h["result"] else None)
                        for h in hand_rows]
        return out

    async def room_row(self, code: str) -> dict | None:
        """The stored room (columns) or None."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(rooms).where(rooms.c.code == code))
                   ).mappings().first()
        return dict(row) if row else None

    async def count_actions(self, match_id: str) -> int:
        """How many actions are stored for a match (tests, diagnostics)."""
        async with self.engine.connect() as conn:
            return len((await conn.execute(select(actions.c.idx).where(
                actions.c.match_id == match_id))).scalars().all())


def _match_json(row) -> dict:
    return {"id": row["id"], "players": json.loads(row["players"]),
            "hands_planned": row["hands_planned"], "status": row["status"],
            "totals": json.loads(row["totals"]), "started_at": row["started_at"],
            "finished_at": row["finished_at"]}


def _sqlite_pragmas(dbapi_connection, synchronous: str) -> None:
    """WAL (readers don't block the writer), a busy timeout of 5 s, ``synchronous`` (see
    :meth:`Store.open`), foreign keys; no automatic checkpoint (it would run inside a
    commit and stall it: the store checkpoints from another connection instead)."""
    cursor = dbapi_connection.cursor()
    for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA busy_timeout=5000",
                   f"PRAGMA synchronous={synchronous}", "PRAGMA foreign_keys=ON",
                   "PRAGMA wal_autocheckpoint=0"):  # checkpoints: Store._checkpoints
        cursor.execute(pragma)
    cursor.close()


def _ident(name: str) -> str:
    if not name.replace("_", "").isalnum():
        raise ValueError(f"schema name {name!r}: letters, digits and _ only")
    return name
