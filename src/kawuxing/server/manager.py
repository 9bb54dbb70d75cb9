"""The rooms of a server: create, find by code, rebuild after a restart, expire, stop.

Rooms expire (issue 13): one that waits ``waiting_expiry`` seconds without starting, or whose
match has had no player connected for ``abandoned_expiry`` seconds (an all-bot match counts as
having none), is stored as ``expired``, its sockets closed (4004) and unloaded; on start,
rooms that expired meanwhile are marked so before the others are rebuilt.
"""

from __future__ import annotations

import asyncio
import logging
import time

from ..agents import DEFAULT_BOT, bot_help, check_bot
from ..rules import RuleSet, RulesError
from ..tiles import parse_tiles
from .clock import Clock, LoopClock
from .config import ServerConfig, default_node_id
from .db import Store
from . import protocol
from .room import (BOT, EXTERNAL, HUMAN, OPEN, PLAYERS, Room, RoomError, RoomSettings,
                   clean_nickname)
from .schema import ROOM_EXPIRED
from .tokens import new_room_code, normalize_code, token_matches

log = logging.getLogger("kawuxing.server.manager")

SEAT_KINDS_HELP = f"each seat is '{HUMAN}', '{EXTERNAL}' or a bot: {bot_help()}"


class RoomManager:
    """Every room in memory, by code. ``store``: the :class:`Store`; ``clock``: the
    :class:`Clock` rooms use (tests inject a fast or manual one)."""

    def __init__(self, store: Store, config: ServerConfig, clock: Clock | None = None) -> None:
        self.store = store
        self.config = config
        self.clock = clock or LoopClock()
        self.rooms: dict[str, Room] = {}
        self._unload: dict[str, asyncio.TimerHandle] = {}
        self._sweeper: asyncio.Task | None = None
        self.node_id = config.node_id or default_node_id()  # /api/health (issue 17)
        self.cluster = None  # the ClusterNode when one of several processes (issue 17)

    def get(self, code: str) -> Room | None:
        """The room of ``code`` (any case) if it is in memory."""
        return self.rooms.get(normalize_code(code))

    async def create_room(self, preset: str = "standard", options: dict | None = None,
                          hands: int | None = None, seats: list[str] | None = None,
                          nickname: str | None = None, decision_seconds: float | None = None,
                          reserve_seconds: float | None = None, auto_bot: str = DEFAULT_BOT,
                          walls: list[str] | None = None, owner: str | None = None,
                          player_id: str | None = None, public: bool = False,
                          fill_after: float | None = None,
                          kept: list[str | None] | None = None) -> dict:
        """Create a room and store it.

        - ``preset`` + ``options``: the rule set, ``RuleSet.preset(preset, **options)``;
          ``hands``: hands in the match (sets ``hands_per_match``, R12.1).
        - ``seats``: three entries, ``"human"``, ``"external"`` or a bot spec of the registry
          (:mod:`kawuxing.agents.registry`; default: one human, two ``DEFAULT_BOT``). Bot
          seats are filled at once; when no human seat is left the match starts. An
          ``external`` seat is taken at once for an outside bot program
          (:meth:`Room.seat_external`, docs/bot-protocol.md): its token is returned.
        - ``nickname``: the creator takes the first human seat (a token is returned);
          ``player_id``: as that player (issue 16).
        - ``decision_seconds``/``reserve_seconds``: the clock (defaults from the config);
          ``auto_bot``: the bot for 托管 and seats players leave.
        - ``walls``: (tests; only with ``config.allow_test_walls``) MPSZ walls of the first
          hands.
        - ``owner``: who asks (the client IP): an all-bot match plays at full speed, so an
          owner may have ``config.max_bot_rooms_per_ip`` of them being played at a time.
        - ``public``: listed in the lobby while it waits; ``fill_after``: seconds (0-600)
          after which bots take the open seats and the match starts (None: never; issue 35);
          ``kept``: 再来一场's seats kept for their players (:class:`RoomSettings`).

        Returns ``{"code", "seat", "token", "room", "external"}`` (seat/token None without a
        nickname; ``external``: ``[{"seat", "token"}]`` of the external seats).
        Raises :class:`RoomError` 422 for bad rules, seats, bots, times or walls, 429
        ``too_many_bot_rooms`` for an all-bot room over the owner's cap.
        """
        options = dict(options or {})
        if hands is not None:
            options["hands_per_match"] = hands
        try:
            rules = RuleSet.preset(preset, **options)
        except (RulesError, TypeError) as exc:
            raise RoomError(422, f"rules: {exc}", "bad_rules") from None
        seats = list(seats) if seats is not None else [HUMAN, DEFAULT_BOT, DEFAULT_BOT]
        if len(seats) != 3:
            raise RoomError(422, f"seats: three entries; {SEAT_KINDS_HELP}", "bad_seats")
        for spec in seats:
            if spec not in PLAYERS:
                try:
                    check_bot(spec, paths=False)
                except ValueError as exc:
                    raise RoomError(422, f"seats: {exc}; {SEAT_KINDS_HELP}", "bad_seats") from None
        try:
            if auto_bot in PLAYERS:
                raise ValueError(f"{auto_bot!r} is not a bot")
            check_bot(auto_bot, paths=False)
        except ValueError as exc:
            raise RoomError(422, f"auto_bot: {exc}", "bad_auto_bot") from None
        settings = RoomSettings(
            decision_seconds=self._seconds("decision_seconds", decision_seconds,
                                           self.config.decision_seconds),
            reserve_seconds=self._seconds("reserve_seconds", reserve_seconds,
                                          self.config.reserve_seconds, minimum=0.0),
            auto_bot=auto_bot, public=bool(public),
            fill_after=None if fill_after is None else self._seconds(
                "fill_after", fill_after, 0.0, minimum=0.0),
            kept=list(kept) if kept is not None else None)
        parsed_walls = None
        if walls is not None:
            if not self.config.allow_test_walls:
                raise RoomError(422, "walls: this server does not take given walls", "bad_walls")
            try:
                parsed_walls = [parse_tiles(w) for w in walls]
            except ValueError as exc:
                raise RoomError(422, f"walls: {exc}", "bad_walls") from None
        if nickname is not None:
            nickname = clean_nickname(nickname)
            if HUMAN not in seats:
                raise RoomError(422, "nickname given but no seat is 'human'", "bad_seats")
        cap = self.config.max_bot_rooms_per_ip
        if not set(PLAYERS) & set(seats) and owner is not None and cap > 0 and sum(
                r.owner == owner and r.playing and not r.seats.humans()
                for r in self.rooms.values()) >= cap:
            raise RoomError(429, f"at most {cap} all-bot matches at a time per address; "
                                 "wait for one to end", "too_many_bot_rooms")
        code = new_room_code()
        while code in self.rooms or await self.store.room_row(code) is not None or (
                self.cluster is not None and not await self.cluster.leases.claim([code])):
            code = new_room_code()  # (in a cluster: the code's lease is this process's)
        room = Room(code, preset, options, rules, settings, self.store, self.config,
                    self.clock, parsed_walls, on_finished=self._finished)
        self._adopt(room)
        room.owner = owner
        for i, spec in enumerate(seats):
            if spec not in PLAYERS:
                room.set_bot(i, spec)
        await self.store.create_room(room.row(), room.seat_rows())
        self.rooms[code] = room
        room.start()
        room.schedule_fill()
        seat = token = None
        external = [{"seat": i, "token": await room.post(room.seat_external, i)}
                    for i, spec in enumerate(seats) if spec == EXTERNAL]
        if nickname is not None:
            seat, token = await room.post(room.join, nickname, seats.index(HUMAN), None, None,
                                          player_id)
        elif all(s != HUMAN for s in seats):
            await room.post(room.resume)  # no seat left open: the match starts now
        return {"code": code, "seat": seat, "token": token, "room": room.public_info(),
                "external": external}

    def _seconds(self, name: str, value: float | None, default: float,
                 minimum: float | None = None) -> float:
        if value is None:
            return default
        low = self.config.min_decision_seconds if minimum is None else minimum
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not low <= value <= 600:
            raise RoomError(422, f"{name}: a number of seconds from {low:g} to 600",
                            "bad_time")
        return float(value)

    def _adopt(self, room: Room) -> None:
        """In a cluster (issue 17) a room writes only while this process holds its lease
        (:meth:`Room.stored` checks ``room.fence``)."""
        if self.cluster is not None:
            room.fence = self.cluster.fence(room.code)
            room.on_conflict = self._conflict

    def _conflict(self, room: Room) -> None:
        """A write of ``room`` collided with a row another process stored for it (a stale
        owner's late write, issue 17): rebuild it from the database, which holds the truth."""
        asyncio.get_running_loop().create_task(self.cluster.rebuild(room.code))

    async def restore(self, codes: list[str] | None = None) -> int:
        """Rebuild every waiting or playing room from the database (hands replayed from
        their records and stored actions), after rating the finished matches not rated yet
        (:meth:`PlayerStore.rate_pending
        <kawuxing.server.playerstore.PlayerStore.rate_pending>`). Returns how many rooms; a
        room that cannot be rebuilt is logged and skipped."""
        # In a cluster (issue 17): on start only the rooms whose lease this process wins
        # (the others are being played by live processes); ``codes``: only those rooms (a
        # takeover, .cluster.takeover: their leases are already held), without the start's
        # expiry and rating passes.
        if codes is not None:
            return await self._rebuild(await self.store.active_rooms(codes))
        now = time.time()
        try:
            expired = 0
            if self.cluster is None:  # (a cluster: each owner's sweeper expires its rooms)
                expired = await self.store.expire_stale(now - self.config.waiting_expiry,
                                                        now - self.config.abandoned_expiry)
            if expired:
                log.info("%d room(s) expired while the server was down", expired)
        except Exception as exc:  # they are expired by the sweeper once rebuilt
            log.warning("could not expire stale rooms: %r", exc)
        try:  # ratings right at once (issue 16): matches that ended just before a stop
            rated = await self.store.players.rate_pending()
            if rated:
                log.info("rated %d match(es) that ended before the server stopped", rated)
        except Exception as exc:  # rated again when a player asks for the room
            log.warning("could not rate finished matches: %r", exc)
        if self.cluster is not None:  # only the rooms no live process plays
            won = await self.cluster.leases.claim(await self.store.active_codes())
            return await self._rebuild(await self.store.active_rooms(won))
        return await self._rebuild(await self.store.active_rooms())

    async def _rebuild(self, rows: list[dict]) -> int:
        """Rebuild, start and resume the rooms of ``rows`` (:meth:`Store.active_rooms`)."""
        count = 0
        for row in rows:
            if row["code"] in self.rooms:
                continue
            try:
                room = Room.restore(row, self.store, self.config, self.clock,
                                    on_finished=self._finished)
            except Exception:
                log.exception("room %s: could not be rebuilt; skipped", row.get("code"))
                continue
            self._adopt(room)
            self.rooms[room.code] = room
            room.start()
            await room.post(room.resume)
            count += 1
        return count

    def start(self) -> None:
        """Start expiring rooms: :meth:`expire` every ``config.expiry_check`` seconds."""
        if self.config.expiry_check > 0 and self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(),
                                                                   name="kawuxing-expiry")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.config.expiry_check)
            try:
                await self.expire()
            except Exception as exc:  # tried again next time
                log.warning("expiring rooms failed: %r", exc)

    def due(self, room: Room, now: float) -> bool:
        """Whether ``room`` has expired at ``now`` (epoch seconds): waiting longer than
        ``waiting_expiry`` since it was made, or playing with no player connected for
        longer than ``abandoned_expiry``."""
        if room.waiting:
            return now - room.created_at > self.config.waiting_expiry
        if room.playing and room.idle_since is not None:
            return now - room.idle_since > self.config.abandoned_expiry
        return False

    async def expire(self, now: float | None = None) -> list[str]:
        """Expire every room :meth:`due` at ``now`` (default: the time): stored as
        ``expired``, connected seats told (``error`` ``room_expired``) and closed with
        4004, unloaded. Returns their codes; a room whose status could not be stored stays
        (tried again next time)."""
        now = time.time() if now is None else now
        gone = []
        for room in [r for r in self.rooms.values() if self.due(r, now)]:
            try:
                await self.store.update_room(room.code, status=ROOM_EXPIRED)
            except Exception as exc:
                log.warning("room %s: could not store its expiry: %r", room.code, exc)
                continue
            room.seats.send_all(protocol.error("room_expired", "the room was closed: it "
                                               "did not start, or nobody played it, for "
                                               "too long"))
            self.rooms.pop(room.code, None)
            await room.stop(protocol.CLOSE_ROOM_GONE, "the room expired")
            await self._release(room.code)
            gone.append(room.code)
        if gone:
            log.info("expired %d room(s)", len(gone))
        return gone

    async def finished_room(self, code: str) -> dict | None:
        """A finished room that is no longer in memory, as its players may still ask for
        it: ``{"match_end": the match_end message, "seat_of": token -> seat or None}``, or
        None (no such room, or not finished)."""
        code = normalize_code(code)
        if len(code) > 16 or code in self.rooms:
            return None
        found = await self.store.finished_room(code)
        if found is None:
            return None
        hashes = found["token_hashes"]

        def seat_of(token: str | None) -> int | None:
            seat = None
            for i, stored in enumerate(hashes):  # every seat compared (constant time)
                if token_matches(token, stored):
                    seat = i
            return seat

        rating = found["rating"]
        if rating is None:  # the server stopped before it was rated
            try:
                rating = await self.store.players.rate(found["match_id"])
            except Exception as exc:
                log.warning("match %s: could not be rated: %r", found["match_id"], exc)
        return {"match_end": protocol.match_end(found["match_id"], found["totals"],
                                                found["hands"], rating),
                "seat_of": seat_of}

    def _finished(self, room: Room) -> None:
        """A match ended: keep the room a while (players see the result), then unload it."""
        loop = asyncio.get_running_loop()
        self._unload[room.code] = loop.call_later(
            self.config.unload_after, lambda: loop.create_task(self.unload(room.code)))

    async def unload(self, code: str) -> None:
        """Stop a room and forget it (its records stay in the database)."""
        handle = self._unload.pop(code, None)
        if handle is not None:
            handle.cancel()
        room = self.rooms.pop(code, None)
        if room is not None:
            await room.stop(1000, "the room is closed")
            await self._release(code)

    async def _release(self, code: str) -> None:
        """In a cluster: the room is over (finished and unloaded, or expired): its lease is
        released and it is never taken over."""
        if self.cluster is not None:
            try:
                await self.cluster.leases.release(code, forget=True)
            except Exception as exc:  # it expires; a takeover finds the room over
                log.warning("room %s: could not release its lease: %r", code, exc)

    async def drop(self, code: str) -> None:
        """In a cluster: this process lost room ``code``'s lease (another owns it now):
        stop it at once, without writing, its sockets closed with 1012 (reconnect: the
        clients reach the new owner)."""
        handle = self._unload.pop(code, None)
        if handle is not None:
            handle.cancel()
        room = self.rooms.pop(code, None)
        if room is not None:
            await room.stop(protocol.CLOSE_RESTART, "the room moved to another server process",
                            timeout=1.0)

    async def shutdown(self) -> None:
        """Stop every room (connections closed with 1012: reconnect later)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for handle in self._unload.values():
            handle.cancel()
        self._unload.clear()
        rooms = list(self.rooms.values())
        self.rooms.clear()
        await asyncio.gather(*(r.stop(timeout=self.config.graceful_seconds) for r in rooms),
                             return_exceptions=True)


__all__ = ["BOT", "HUMAN", "OPEN", "RoomManager"]
