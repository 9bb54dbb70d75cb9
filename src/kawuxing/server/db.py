"""The store of the server: rooms, seats, matches, hands and every accepted action, in SQLite
or PostgreSQL through SQLAlchemy (async Core).

One code path for SQLite (``sqlite+aiosqlite``: WAL, busy timeout, ``synchronous=FULL`` or
``NORMAL``, the WAL truncated by the writer between batches) and PostgreSQL
(``postgresql+asyncpg``). The schema (:mod:`.schema`) is created on start (``create_all``)
and its version kept in ``kwx_schema_version``; a database of an older version is upgraded in
place (:mod:`.migrate`), one written by a newer schema is refused.

Writes go through the one :class:`~kawuxing.server.writer.Writer` (group commit) and return
after their commit. Reads use their own pooled connections (SQLite WAL readers do not block
the writer). What a room stores is built by :mod:`.rows`; a hand is rebuilt by
:func:`kawuxing.records.replay` of its record plus its action rows. Rebuilding every room on
start (:meth:`Store.active_rooms`) takes five queries however many rooms and hands there are.
"""

from __future__ import annotations

import json
import logging
import time
from itertools import groupby
from typing import Any

from sqlalchemy import and_, event, func, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from ..rules import RuleSet, RulesError
from .migrate import upgrade
from .playerstore import PlayerStore
from .rows import ActionRow
from .schema import (ACTIVE_ROOMS, HAND_ENDED, MATCH_FINISHED, ROOM_EXPIRED, ROOM_FINISHED,
                     ROOM_PLAYING, ROOM_WAITING, SCHEMA_VERSION, actions, dumps, hands,
                     match_players, matches, metadata, rooms, schema_version, seats)
from .writer import DirectPostgres, DirectSqlite, Group, Rows, Writer

log = logging.getLogger("kawuxing.server.db")

_ACTION_INSERT = insert(actions)
_ACTION_SQL = ('INSERT INTO kwx_actions (match_id, hand_number, idx, seat, action, "by", at) '
               "VALUES (:match_id, :hand_number, :idx, :seat, :action, :by, :at)")
# the end of a hand, of a match and of its room: plain SQL (the writer's direct path), the
# same text for SQLAlchemy on PostgreSQL
_HAND_END_SQL = ("UPDATE kwx_hands SET status = :status, result = :result, ended_at = :at "
                 "WHERE match_id = :match_id AND number = :number")
_TOTALS_SQL = "UPDATE kwx_matches SET totals = :totals WHERE id = :match_id"
_MATCH_END_SQL = ("UPDATE kwx_matches SET totals = :totals, status = :status, "
                  "finished_at = :at WHERE id = :match_id")
_ROOM_END_SQL = "UPDATE kwx_rooms SET status = :status, updated_at = :at WHERE code = :code"
_SCHEMA_LOCK = 0x6B7778  # the advisory lock held while the schema is made or upgraded ("kwx")


def _sql(statement: str, params: dict) -> Rows:
    return Rows(text(statement), params, statement)

__all__ = ["ActionRow", "Store", "dumps", "schema_version"]


class Store:
    """The database of the server. Open with :meth:`open`; every method is a coroutine.

    Writes (``create_room`` … ``add_action``) go through the :class:`Writer` and return after
    their commit; they raise the database's error if the write failed (nothing was stored).
    """

    def __init__(self, engine: AsyncEngine, url: str, schema: str | None,
                 wal_limit: int = 4 * 2**20, synchronous: str = "FULL",
                 busy_ms: int = 5000) -> None:
        self.engine = engine
        self.url = url
        self.schema = schema
        database = engine.url.database if engine.dialect.name == "sqlite" else None
        wal = direct = None
        if database and database != ":memory:" and not database.startswith("file:"):
            wal = f"{database}-wal"
            direct = DirectSqlite(database, lambda c: _sqlite_pragmas(c, synchronous, busy_ms,
                                                                      wal_limit))
        elif engine.dialect.name == "postgresql" and engine.dialect.driver == "asyncpg":
            direct = DirectPostgres()
        self.writer = Writer(engine, wal_path=wal, wal_limit=wal_limit, direct=direct)
        self.players = PlayerStore(self)  # identities, sittings, ratings (issue 16)

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    @classmethod
    async def open(cls, url: str, schema: str | None = None,
                   sqlite_synchronous: str = "FULL", busy_ms: int = 5000,
                   wal_limit: int = 4 * 2**20) -> Store:
        """Connect, create the schema if missing (and the PostgreSQL ``schema`` if given),
        check the schema version (an older one is upgraded, :mod:`.migrate`), start the
        writer. Raises ``RuntimeError`` for a database
        written by a newer (or unknown older) schema version.

        ``sqlite_synchronous``: SQLite's ``synchronous`` in WAL mode. ``FULL`` (default): an
        fsync per commit, so a committed action survives the OS crashing or the power failing.
        ``NORMAL``: a committed action survives the server process being killed, but the OS
        crashing may lose the last commits; commits are cheaper when the disk is busy.
        ``busy_ms``: how long a SQLite connection waits for a lock before failing;
        ``wal_limit``: the WAL size (bytes) at which the writer truncates it between batches
        (also SQLite's ``journal_size_limit``)."""
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
                _sqlite_pragmas(dbapi_connection, synchronous, busy_ms, wal_limit)

            event.listen(engine.sync_engine, "connect", pragmas)
        store = cls(engine, url, schema, wal_limit, sqlite_synchronous.upper(), busy_ms)
        try:
            await store._create_schema()
        except BaseException:
            await engine.dispose()
            raise
        store.writer.start()
        return store

    async def _create_schema(self) -> None:
        # PostgreSQL: processes starting together (a cluster, issue 17) take turns, else two
        # CREATE TABLEs of the same table race (a unique violation in pg_type)
        lock = text(f"SELECT pg_advisory_xact_lock({_SCHEMA_LOCK})")
        if self.schema and self.dialect == "postgresql":
            async with self.engine.begin() as conn:
                await conn.execute(lock)
                await conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{_ident(self.schema)}"'))
        async with self.engine.begin() as conn:
            if self.dialect == "postgresql":
                await conn.execute(lock)
            await conn.run_sync(metadata.create_all)
            found = (await conn.execute(select(schema_version.c.version))).scalars().all()
            if not found:
                await conn.execute(insert(schema_version).values(version=SCHEMA_VERSION,
                                                                 applied_at=time.time()))
            else:
                reached = await upgrade(conn, max(found))
                if reached:
                    log.info("database upgraded from schema version %d to %d", max(found),
                             reached[-1])

    async def close(self) -> None:
        """Finish queued writes, stop the writer, checkpoint (SQLite), close every
        connection."""
        try:
            await self.writer.close()
            if self.dialect == "sqlite":
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
        """Change columns of one seat (kind, bot, nickname, token_hash, vacated, player_id)."""
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

    async def start_match(self, code: str, match: dict, first_hand: dict,
                          sittings: list[dict] = ()) -> None:
        """Insert a match (columns of ``kwx_matches``), its first hand and who sits in it
        (``sittings``: ``kwx_match_players`` rows, :func:`.playerstore.sitting`); the room is
        now ``playing`` with this match."""
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(insert(matches).values(**match))
            await conn.execute(insert(hands).values(**first_hand))
            if sittings:
                await conn.execute(insert(match_players), list(sittings))
            await conn.execute(update(rooms).where(rooms.c.code == code).values(
                status=ROOM_PLAYING, match_id=match["id"], updated_at=time.time()))
        await self.writer.submit(op)

    async def add_hand(self, hand: dict) -> None:
        """Insert a hand (columns of ``kwx_hands``): the record at the deal, status playing."""
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(insert(hands).values(**hand))
        await self.writer.submit(op)

    async def add_action(self, row: ActionRow | tuple[ActionRow, ...],
                         hand_result: dict | None = None, totals: list[int] | None = None,
                         match_over: bool = False, room_code: str | None = None) -> None:
        """Store one accepted action (or several played in one step, a tuple of rows: the
        passes for the seats without an option, R13.2); with ``hand_result`` the hand (of the
        last row) is ended (result and time), the match ``totals`` updated, and with
        ``match_over`` the match and its room (``room_code``) are finished — all in one
        transaction."""
        now = time.time()
        rows = row if isinstance(row, tuple) else (row,)
        writes = [Rows(_ACTION_INSERT, r.params(now), _ACTION_SQL) for r in rows]
        if hand_result is None and totals is None and len(writes) == 1:
            await self.writer.submit(writes[0])
            return
        row = rows[-1]
        if hand_result is not None:
            writes.append(_sql(_HAND_END_SQL, {
                "status": HAND_ENDED, "result": dumps(hand_result), "at": now,
                "match_id": row.match_id, "number": row.hand_number}))
        if totals is not None:
            values = {"totals": dumps(totals), "match_id": row.match_id}
            if match_over:
                writes.append(_sql(_MATCH_END_SQL, {**values, "status": MATCH_FINISHED,
                                                    "at": now}))
            else:
                writes.append(_sql(_TOTALS_SQL, values))
        if match_over and room_code:
            writes.append(_sql(_ROOM_END_SQL, {"status": ROOM_FINISHED, "at": now,
                                               "code": room_code}))
        await self.writer.submit(Group(tuple(writes)))

    async def expire_stale(self, waiting_before: float, idle_before: float) -> int:
        """Mark ``expired`` (epoch seconds): rooms waiting since before ``waiting_before``,
        and rooms playing whose last stored action (or, with none, whose last change) is
        older than ``idle_before`` — their players are gone. Run before rebuilding rooms on
        start, so expired rooms are not rebuilt. Returns how many rooms expired."""
        now = time.time()
        last_action = (select(func.max(actions.c.at))
                       .where(actions.c.match_id == rooms.c.match_id).scalar_subquery())

        async def op(conn: AsyncConnection) -> int:
            waiting = await conn.execute(
                update(rooms).where(and_(rooms.c.status == ROOM_WAITING,
                                         rooms.c.created_at < waiting_before))
                .values(status=ROOM_EXPIRED, updated_at=now))
            playing = await conn.execute(
                update(rooms).where(and_(rooms.c.status == ROOM_PLAYING,
                                         func.coalesce(last_action, rooms.c.updated_at)
                                         < idle_before))
                .values(status=ROOM_EXPIRED, updated_at=now))
            return (waiting.rowcount or 0) + (playing.rowcount or 0)
        return await self.writer.submit(op)

    # --- reads -------------------------------------------------------------------------
    async def finished_room(self, code: str) -> dict | None:
        """A finished room as its players may still ask for it: ``{"match_id", "totals",
        "hands": [deltas of each hand], "token_hashes": [seat's hash or None], "rating": the
        rating outcome or None}``, or None if ``code`` is no finished room."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(rooms.c.status, rooms.c.match_id).where(
                rooms.c.code == code))).first()
            if row is None or row.status != ROOM_FINISHED or row.match_id is None:
                return None
            match = (await conn.execute(select(matches.c.totals, matches.c.rating).where(
                matches.c.id == row.match_id))).first()
            results = (await conn.execute(
                select(hands.c.result).where(hands.c.match_id == row.match_id)
                .order_by(hands.c.number))).scalars().all()
            hashes = (await conn.execute(
                select(seats.c.token_hash).where(seats.c.room_code == code)
                .order_by(seats.c.seat))).scalars().all()
        if match is None:
            return None
        return {"match_id": row.match_id, "totals": json.loads(match.totals),
                "hands": [json.loads(r)["deltas"] for r in results if r],
                "token_hashes": list(hashes), "rating": json.loads(match.rating)
                if match.rating else None}

    async def public_rooms(self, limit: int = 50) -> list[dict]:
        """The public rooms waiting for players (issue 35), oldest first, at most ``limit``:
        ``{"code", "preset", "options", "changed", "hands", "fill_after", "created_at",
        "seats": [{"kind", "bot", "nickname"}], "open": free seats}`` (``changed``: the
        options that differ from the preset's, the number of hands aside); rooms with no open
        seat, or with nobody seated yet, left out. Every process of a cluster reads the same
        list (the database's)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(rooms.c.code, rooms.c.preset, rooms.c.options, rooms.c.rules,
                       rooms.c.settings, rooms.c.created_at)
                .where(and_(rooms.c.status == ROOM_WAITING,
                            rooms.c.settings.like('%"public":true%')))
                .order_by(rooms.c.created_at).limit(limit))).mappings().all()
            codes = [r["code"] for r in rows]
            seat_rows = (await conn.execute(
                select(seats.c.room_code, seats.c.seat, seats.c.kind, seats.c.bot,
                       seats.c.nickname).where(seats.c.room_code.in_(codes))
                .order_by(seats.c.room_code, seats.c.seat))).mappings().all() if codes else []
        by_room: dict[str, list[dict]] = {}
        for s in seat_rows:
            by_room.setdefault(s["room_code"], []).append(
                {"kind": s["kind"], "bot": s["bot"], "nickname": s["nickname"]})
        out = []
        for r in rows:
            settings = json.loads(r["settings"])
            room_seats = by_room.get(r["code"], [])
            free = sum(s["kind"] == "open" for s in room_seats)
            if not settings.get("public") or not free or not any(
                    s["kind"] == "human" for s in room_seats):
                continue
            options = json.loads(r["options"])
            rules = json.loads(r["rules"])
            try:
                own = RuleSet.preset(r["preset"]).to_dict()
            except (RulesError, TypeError):
                own = {}
            out.append({"code": r["code"], "preset": r["preset"], "options": options,
                        "changed": {k: v for k, v in options.items()
                                    if k != "hands_per_match" and own.get(k) != rules.get(k)},
                        "hands": json.loads(r["rules"]).get("hands_per_match"),
                        "fill_after": settings.get("fill_after"), "created_at": r["created_at"],
                        "seats": room_seats, "open": free})
        return out

    async def active_codes(self) -> list[str]:
        """The codes of every room waiting or playing, oldest first (a cluster's process
        claims the free ones before it reads them, issue 17)."""
        async with self.engine.connect() as conn:
            return list((await conn.execute(select(rooms.c.code).where(
                rooms.c.status.in_(ACTIVE_ROOMS)).order_by(rooms.c.created_at))).scalars())

    async def active_rooms(self, codes: list[str] | None = None) -> list[dict]:
        """Every room waiting or playing (``codes``: only those of these codes: a cluster's
        takeover, issue 17), to rebuild on start, oldest first: the room's
        columns plus ``seats`` (its rows in seat order), ``match`` (row or None) and
        ``hands`` (rows in order, each with ``actions``: the stored action lists in order).

        Five queries whatever the number of rooms, hands and actions: rooms, then the seats,
        matches, hands and actions of those rooms, each joined to the active rooms."""
        which = rooms.c.status.in_(ACTIVE_ROOMS)
        if codes is not None:
            if not codes:
                return []
            which = and_(which, rooms.c.code.in_(list(codes)))
        active = select(rooms.c.code, rooms.c.match_id).where(which).subquery()
        async with self.engine.connect() as conn:
            room_rows = (await conn.execute(select(rooms).where(which)
                                            .order_by(rooms.c.created_at))).mappings().all()
            seat_rows = (await conn.execute(
                select(seats).join(active, seats.c.room_code == active.c.code)
                .order_by(seats.c.room_code, seats.c.seat))).mappings().all()
            match_rows = (await conn.execute(
                select(matches).join(active, matches.c.id == active.c.match_id))
                          ).mappings().all()
            hand_rows = (await conn.execute(
                select(hands).join(active, hands.c.match_id == active.c.match_id)
                .order_by(hands.c.match_id, hands.c.number))).mappings().all()
            action_rows = (await conn.execute(
                select(actions.c.match_id, actions.c.hand_number, actions.c.action)
                .join(active, actions.c.match_id == active.c.match_id)
                .order_by(actions.c.match_id, actions.c.hand_number, actions.c.idx))
                           ).all()
        seats_of = {code: [dict(s) for s in group]
                    for code, group in groupby(seat_rows, key=lambda s: s["room_code"])}
        match_of = {m["id"]: dict(m) for m in match_rows}
        actions_of = {key: [json.loads(a.action) for a in group]
                      for key, group in groupby(action_rows,
                                                key=lambda a: (a.match_id, a.hand_number))}
        hands_of: dict[str, list[dict]] = {}
        for h in hand_rows:
            hand = dict(h)
            hand["actions"] = actions_of.get((hand["match_id"], hand["number"]), [])
            hands_of.setdefault(hand["match_id"], []).append(hand)
        out = []
        for r in room_rows:
            room = dict(r)
            room["seats"] = seats_of.get(room["code"], [])
            room["match"] = match_of.get(room["match_id"]) if room["match_id"] else None
            room["hands"] = hands_of.get(room["match_id"], []) if room["match_id"] else []
            out.append(room)
        return out

    async def list_hands(self, limit: int = 50, offset: int = 0,
                         match_id: str | None = None) -> list[dict]:
        """Ended hands, newest first: ``match_id``, ``number``, ``dealer``, ``result``
        (the settlement dict), ``started_at``, ``ended_at``. No walls here."""
        query = (select(hands.c.match_id, hands.c.number, hands.c.dealer, hands.c.result,
                        hands.c.started_at, hands.c.ended_at)
                 .where(hands.c.status == HAND_ENDED))
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


def _sqlite_pragmas(dbapi_connection, synchronous: str, busy_ms: int = 5000,
                    wal_limit: int = 4 * 2**20) -> None:
    """WAL (readers don't block the writer), a busy timeout of ``busy_ms``, ``synchronous`` (see
    :meth:`Store.open`), foreign keys, ``journal_size_limit``; no automatic checkpoint (it
    would run inside a commit and stall it: the writer checkpoints between batches)."""
    cursor = dbapi_connection.cursor()
    for pragma in ("PRAGMA journal_mode=WAL", f"PRAGMA busy_timeout={int(busy_ms)}",
                   f"PRAGMA synchronous={synchronous}", "PRAGMA foreign_keys=ON",
                   f"PRAGMA journal_size_limit={int(wal_limit)}",
                   "PRAGMA wal_autocheckpoint=0"):  # checkpoints: the Writer, between batches
        cursor.execute(pragma)
    cursor.close()


def _ident(name: str) -> str:
    if not name.replace("_", "").isalnum():
        raise ValueError(f"schema name {name!r}: letters, digits and _ only")
    return name
