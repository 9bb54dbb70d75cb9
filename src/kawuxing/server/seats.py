"""The three seats of a room: who sits where, with which token, on which connection, and whether
a bot plays the seat (a bot seat, or 托管 for a player). Nothing here knows the game.

:class:`Seats` answers the questions about seats the room asks (the seat of a token, the seat
a join takes, whether the room is paused) and makes the changes of joining and leaving, each
with an undo for when storing the change fails (:meth:`Seats.seat_player`,
:meth:`Seats.unseat`), and attaches connections (:meth:`Seats.connect`). Tokens are made and
checked by :mod:`.tokens` (only their hashes are kept).
"""

from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from ..agents import make_agent
from ..agents.base import Agent
from . import protocol
from .errors import RoomError
from .personas import PERSONAS, Persona, choose, fold, simplified
from .tokens import hash_token, new_token, token_matches

OPEN, HUMAN, BOT = "open", "human", "bot"  # Slot.kind (kwx_seats.kind)
EXTERNAL = "external"  # a seat an outside bot program plays with its token (docs/bot-protocol.md)
PLAYERS = (HUMAN, EXTERNAL)  # the kinds of seat held by a token: a player's
EXTERNAL_NICKNAME = "external bot"
SEATS = (0, 1, 2)
RECENT_IDS = 512  # action ids remembered per seat to refuse duplicates
ACCEPTED, REFUSED = "accepted", "refused"  # what became of a remembered action id
NICKNAME_LENGTH = 24


class Sink(Protocol):
    """A connection as the room sees it: ``send(message dict)`` never blocks;
    ``close(code, reason)``; ``seat`` is set by the room."""

    seat: int | None

    def send(self, message: dict) -> None:
        """Queue one message (a JSON-ready dict) for the client; must not block."""
        ...

    def close(self, code: int, reason: str = "") -> None:
        """Close the connection (after what is queued) with a WebSocket close code."""
        ...


@dataclass
class Slot:
    """One seat of a room. ``kind``: ``open`` (free), ``human`` (has a token) or ``bot``.
    A ``bot`` seat that a player left is ``vacated``: a new player may join it. ``auto``: a
    bot plays this human seat for now (托管); ``agent``: the bot playing it (made when first
    needed). ``timeouts``: decisions timed out in a row; ``reserve``: seconds of the hand's
    reserve left; ``ready``: ready for the next hand; ``recent``: the last action ids and
    their outcome; ``sent_hand``/``sent``: hand number and next event index already sent to
    ``conn``; ``player_id``: the player (issue 16) sitting here, None for a seat taken with a
    nickname only; ``arriving``: the player took the seat and has not connected yet (for at
    most ``join_grace`` seconds: shown as joining, not offline, issue 35)."""

    index: int
    kind: str = OPEN
    bot: str | None = None
    nickname: str | None = None
    token_hash: str | None = None
    vacated: bool = False
    player_id: str | None = None
    conn: Sink | None = None
    agent: Agent | None = None
    auto: bool = False
    away: bool = False  # 托管 because the player's connection dropped (grace or a button)
    arriving: bool = False  # joined, not connected yet (within join_grace of the join)
    timeouts: int = 0
    reserve: float = 0.0
    ready: bool = False
    recent: OrderedDict = field(default_factory=OrderedDict)  # action id -> outcome
    sent_hand: int = -1
    sent: int = 0

    def public(self) -> dict:
        """What everyone may know of the seat: not whether a bot plays a connected human
        seat (a timeout in a claim window would tell that the seat had a claim, R13), only
        ``away_bot``: 托管 plays it because its player dropped (which everyone saw);
        ``arriving``: its player has just taken it and is connecting (not offline)."""
        return {"seat": self.index, "kind": self.kind, "bot": self.bot,
                "nickname": self.nickname, "connected": self.conn is not None,
                "arriving": self.conn is None and self.arriving, "vacated": self.vacated,
                "away_bot": self.conn is None and self.auto and self.away}

    def columns(self) -> dict:
        """The seat's stored columns (``kwx_seats`` without room code and seat number)."""
        return {"kind": self.kind, "bot": self.bot, "nickname": self.nickname,
                "token_hash": self.token_hash, "vacated": self.vacated,
                "player_id": self.player_id}

    def remember(self, action_id: str, outcome: str) -> None:
        """Keep ``action_id`` with its outcome (:data:`ACCEPTED`/:data:`REFUSED`): the last
        :data:`RECENT_IDS` are refused as duplicates."""
        self.recent[action_id] = outcome
        while len(self.recent) > RECENT_IDS:
            self.recent.popitem(last=False)


_UNDONE = ("kind", "bot", "nickname", "token_hash", "vacated", "player_id", "agent", "auto",
           "timeouts", "reserve", "arriving")


def _snapshot(slot: Slot) -> Callable[[], None]:
    """A call that puts back what joining or leaving changes in ``slot``."""
    saved = {name: getattr(slot, name) for name in _UNDONE}

    def undo() -> None:
        for name, value in saved.items():
            setattr(slot, name, value)
    return undo


# letters that show nothing (Hangul fillers, the braille blank, the combining grapheme
# joiner): a nickname made only of these (and spaces or marks) is invisible
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
# a player's nickname may not pass for a bot's: no "bot…" (as a word: "bot", "Bot 2",
# "bot_x"; "Bottle" is fine), no "机器人…"/"電腦…"/"电脑…", and no "… bot"
_BOT_LIKE = re.compile(r"^(bot(?![a-z])|robot(?![a-z])|电脑|電腦)|机器人|機器人|托管|託管|[\s_-]bot$",
                       re.IGNORECASE)


def clean_nickname(raw: object) -> str:
    """A nickname: text of 1-24 characters, control and format characters removed, spaces
    collapsed, with at least one visible character (a letter, digit, punctuation or symbol
    that is not in :data:`INVISIBLE`). Raises :class:`RoomError` 422 ``bad_nickname``
    otherwise, and 422 ``bot_nickname`` for a name that passes for a bot's (:data:`_BOT_LIKE`:
    starting with the word "bot"/"robot" or with 电脑, holding 机器人 or 托管 (the word of a seat
    a bot plays for a player), or ending with " bot", in any width (NFKC: ｂｏｔ is bot); or a
    bot persona's name, Chinese —
    simplified or traditional, :func:`~.personas.simplified` — or English, in any case,
    spacing or width: :func:`name_key`)."""
    problem = f"nickname: a text of 1-{NICKNAME_LENGTH} characters"
    if not isinstance(raw, str):
        raise RoomError(422, problem, "bad_nickname")
    text = "".join(c for c in raw if not unicodedata.category(c).startswith("C"))
    text = " ".join(text.split())
    if not 1 <= len(text) <= NICKNAME_LENGTH:
        raise RoomError(422, problem, "bad_nickname")
    if not any(c not in INVISIBLE and unicodedata.category(c)[0] in "LNPS" for c in text):
        raise RoomError(422, "nickname: it shows nothing (only blank or invisible "
                             "characters)", "bad_nickname")
    if _BOT_LIKE.search(unicodedata.normalize("NFKC", text)):  # (ｂｏｔ is bot, 機器人 too)
        raise RoomError(422, "nickname: players' names may not look like a bot's (bot…, "
                             "robot…, 机器人, 托管, … bot)", "bot_nickname")
    if simplified(name_key(text)) in _PERSONA_NAMES:  # 老張 is 老张
        raise RoomError(422, "nickname: that is the name of one of the server's bots",
                        "bot_nickname")
    return text


def name_key(name: str) -> str:
    """The form names are compared in: NFKC (full-width and compatibility forms as their plain
    letters: ``"Ｌａｏ"`` is ``"Lao"``), then :func:`~.personas.fold` (``"Ann Li"`` →
    ``"annli"``). Letters of other scripts that merely look alike (Cyrillic а) stay apart."""
    return fold(unicodedata.normalize("NFKC", name))


_PERSONA_NAMES = frozenset(name_key(n) for p in PERSONAS for n in (p.zh, p.en))


class Seats:
    """The three :class:`Slot` of a room (``seats[i]``, iterable; ``slots`` the list);
    ``code`` the room code, which picks the bots' personas (:mod:`.personas`); ``kept``:
    再来一场's seats, ``kept[i]`` the player id for whom open seat ``i`` is kept, None for a
    seat anyone may take (:attr:`RoomSettings.kept <kawuxing.server.room.RoomSettings>`)."""

    def __init__(self, code: str = "", kept: list[str | None] | None = None) -> None:
        self.code = code
        self.slots = [Slot(i) for i in SEATS]
        self.kept = list(kept) if kept else [None, None, None]

    def __getitem__(self, seat: int) -> Slot:
        return self.slots[seat]

    def __iter__(self):
        return iter(self.slots)

    # --- reading -----------------------------------------------------------------------
    def personas(self) -> list[Persona | None]:
        """Each seat's bot persona (:func:`.personas.choose`: distinct at the table, never a
        player's nickname), None for a player's seat, an open one and a vacated one."""
        return choose(self.code, [s.columns() for s in self.slots])

    def public(self) -> list[dict]:
        """Every seat's :meth:`Slot.public` with its ``persona`` (``{"id", "key"}`` or None)
        and ``kept``: an open seat kept for the player who sat there in the match before
        (the ``players`` of messages and room state)."""
        return [{**s.public(), "persona": p.public() if p else None,
                 "kept": s.kind == OPEN and self.kept[s.index] is not None}
                for s, p in zip(self.slots, self.personas())]

    def rows(self) -> list[dict]:
        """The three ``kwx_seats`` rows (without the room code)."""
        return [{"seat": s.index, **s.columns()} for s in self.slots]

    def players(self) -> list[dict]:
        """Who plays a match, stored with it: ``[{"seat", "nickname", "kind", "bot",
        "persona", "player_id"}]`` (``persona`` as in :meth:`public`; ``player_id`` the
        player's public id or None)."""
        return [{"seat": s.index, "nickname": s.nickname, "kind": s.kind, "bot": s.bot,
                 "persona": p.public() if p else None, "player_id": s.player_id}
                for s, p in zip(self.slots, self.personas())]

    def seat_of(self, token: str | None) -> int | None:
        """The human seat of ``token``, or None (every seat is compared, in constant time)."""
        found = None
        for slot in self.slots:  # no early exit on a match
            if slot.kind in PLAYERS and token_matches(token, slot.token_hash):
                found = slot.index
        return found

    def humans(self) -> list[Slot]:
        """The seats players hold (with a token: people and external bots)."""
        return [s for s in self.slots if s.kind in PLAYERS]

    def attended(self) -> bool:
        """Whether a player of the room is here: connected, or joining (``arriving``)."""
        return any(s.conn is not None or s.arriving for s in self.humans())

    def connected(self) -> list[Slot]:
        """The seats with a connection."""
        return [s for s in self.slots if s.conn is not None]

    def full(self) -> bool:
        """No seat is open."""
        return all(s.kind != OPEN for s in self.slots)

    def paused(self) -> bool:
        """A room with players, none of them connected, waits (no timers, no bot moves)."""
        humans = self.humans()
        return bool(humans) and all(s.conn is None for s in humans)

    def botted(self, seat: int) -> bool:
        """A bot plays ``seat`` now: a bot seat, or a player's seat under 托管."""
        slot = self.slots[seat]
        return slot.kind == BOT or (slot.kind in PLAYERS and slot.auto)

    def agent(self, seat: int, auto_bot: str) -> Agent:
        """The bot that plays ``seat`` (for 托管: ``auto_bot``, made when first needed)."""
        slot = self.slots[seat]
        if slot.agent is None:
            slot.agent = make_agent(auto_bot)
        return slot.agent

    # --- changing ----------------------------------------------------------------------
    def set_bot(self, seat: int, spec: str, vacated: bool = False) -> None:
        """Make ``seat`` a bot seat playing ``spec`` (a registry spec); a ``vacated`` seat
        keeps the nickname of the player who left it."""
        slot = self.slots[seat]
        slot.kind, slot.bot, slot.vacated = BOT, spec, vacated
        slot.nickname = slot.nickname if vacated else f"{spec} bot"
        slot.token_hash, slot.player_id = None, None
        slot.agent = make_agent(spec)

    def restore(self, rows: list[dict]) -> None:
        """The seats of stored ``kwx_seats`` rows."""
        for row in rows:
            slot = self.slots[row["seat"]]
            if row["kind"] == BOT:
                self.set_bot(row["seat"], row["bot"], bool(row["vacated"]))
            else:
                slot.kind, slot.token_hash = row["kind"], row["token_hash"]
                slot.player_id = row.get("player_id")
            slot.nickname = row["nickname"]

    def pick(self, seat: int | None, player_id: str | None = None) -> Slot:
        """The seat a join (of ``player_id``, or a guest: None) takes: ``seat`` if it is open or
        vacated, else (``seat`` None) the open seat kept for this player, else the first open
        seat kept for nobody, else the first vacated one; an open seat kept for another player
        (:attr:`kept`) is never taken. Raises :class:`RoomError` 422 for a bad seat number,
        409 ``seat_taken`` when it is taken, ``seat_kept`` when it is kept for another player,
        ``room_full`` when no seat is free for this player."""
        kept = self.kept

        def mine(slot: Slot) -> bool:  # an open seat this player may take
            return kept[slot.index] is None or kept[slot.index] == player_id
        if seat is not None:
            if seat not in SEATS:
                raise RoomError(422, "seat: 0, 1 or 2", "bad_seat")
            slot = self.slots[seat]
            if not (slot.kind == OPEN or (slot.kind == BOT and slot.vacated)):
                raise RoomError(409, f"seat {seat} is taken", "seat_taken")
            if slot.kind == OPEN and not mine(slot):
                raise RoomError(409, f"seat {seat} is kept for the player who sat there in "
                                     "the match before (再来一场)", "seat_kept")
            return slot
        open_seats = [s for s in self.slots if s.kind == OPEN and mine(s)]
        free = [s for s in open_seats if player_id is not None and kept[s.index] == player_id] \
            or open_seats or [s for s in self.slots if s.kind == BOT and s.vacated]
        if not free:
            if any(s.kind == OPEN for s in self.slots):
                raise RoomError(409, "the open seats are kept for the players of the match "
                                     "before (再来一场)", "seat_kept")
            raise RoomError(409, "the room is full", "room_full")
        return free[0]

    def take(self, slot: Slot, nickname: str, reserve: float,
             player_id: str | None = None, *,
             kind: str = HUMAN) -> tuple[str, Callable[[], None]]:
        """A player sits in ``slot`` (from :meth:`pick`) with a new token and ``reserve``
        seconds; ``player_id``: their identity, if they have one; ``kind`` :data:`EXTERNAL`
        for an outside bot program. Returns ``(token, undo)``: ``undo()`` puts the seat back
        as it was."""
        undo = _snapshot(slot)
        token = new_token()
        slot.kind, slot.bot, slot.nickname, slot.player_id = kind, None, nickname, player_id
        slot.token_hash, slot.vacated, slot.agent = hash_token(token), False, None
        slot.auto, slot.timeouts, slot.reserve = False, 0, reserve
        slot.arriving = True
        return token, undo

    def release(self, seat: int, in_match: bool, auto_bot: str) -> Callable[[], None]:
        """The player of ``seat`` leaves: before the match the seat is open again; during it
        ``auto_bot`` plays it (``vacated``). Returns ``undo``. The connection is left to the
        caller."""
        undo = _snapshot(self.slots[seat])
        slot = self.slots[seat]
        if in_match:
            self.set_bot(seat, auto_bot, vacated=True)
        else:
            slot.kind, slot.bot, slot.nickname, slot.token_hash = OPEN, None, None, None
            slot.vacated, slot.agent, slot.player_id = False, None, None
        return undo

    def new_hand(self, reserve: float) -> None:
        """A hand is dealt: nobody is ready for the next one; every seat has ``reserve``
        seconds of reserve again."""
        for slot in self.slots:
            slot.ready = False
            slot.reserve = reserve

    # --- players coming and going --------------------------------------------------------
    async def seat_player(self, store: Any, room_code: str, nickname: str, seat: int | None,
                          reserve: float, player_id: str | None = None, *,
                          kind: str = HUMAN,
                          fence: Callable[[], bool] | None = None) -> tuple[Slot, str]:
        """A player (``player_id``: their identity, or None; ``kind``: :data:`HUMAN` or
        :data:`EXTERNAL`) takes a seat (:meth:`pick`, :meth:`take`) and it is stored
        (``store.update_seat``). Returns ``(slot, token)``.
        Raises :class:`RoomError` as :meth:`pick` does, 409 ``already_seated`` when the
        player has a seat here already, and 503 (the seat as it was) when it could not be
        stored (``fence``: see :meth:`_store`)."""
        if player_id is not None and any(s.player_id == player_id for s in self.humans()):
            raise RoomError(409, "you have a seat in this room already", "already_seated")
        slot = self.pick(seat, player_id)
        token, undo = self.take(slot, nickname, reserve, player_id, kind=kind)
        await self._store(store, room_code, slot, undo, fence)
        return slot, token

    @staticmethod
    async def _store(store: Any, room_code: str, slot: Slot, undo: Callable[[], None],
                     fence: Callable[[], bool] | None) -> None:
        """Store ``slot``'s seat row, or ``undo()`` and raise :class:`RoomError` 503:
        ``owner_unavailable`` when ``fence()`` says this process no longer owns the room (a
        cluster, issue 17: nothing is written), ``storage`` when the write failed."""
        if fence is not None and not fence():
            undo()
            raise RoomError(503, "this server process no longer serves the room; try again "
                                 "in a few seconds", "owner_unavailable")
        try:
            await store.update_seat(room_code, slot.index, **slot.columns())
        except Exception:
            undo()
            raise RoomError(503, "could not store the seat; try again", "storage") from None

    async def seat_bot(self, store: Any, room_code: str, seat: int, spec: str,
                       fence: Callable[[], bool] | None = None) -> Slot:
        """An open seat is filled with the bot ``spec`` (a registry spec), stored. Raises
        :class:`RoomError` 422 for a bad seat, 409 when the seat is not open, 503 (the seat as
        it was) when it could not be stored."""
        if seat not in SEATS:
            raise RoomError(422, "seat: 0, 1 or 2", "bad_seat")
        slot = self.slots[seat]
        if slot.kind != OPEN:
            raise RoomError(409, f"seat {seat} is taken", "seat_taken")
        undo = _snapshot(slot)
        self.set_bot(seat, spec)
        await self._store(store, room_code, slot, undo, fence)
        return slot

    async def unseat(self, store: Any, room_code: str, token: str, in_match: bool,
                     auto_bot: str, fence: Callable[[], bool] | None = None) -> Slot:
        """The player of ``token`` leaves (:meth:`release`), stored; its connection is told
        (``left``) and closed. Raises :class:`RoomError` 403 for a token that is no seat
        here, 503 (the seat as it was) when the change could not be stored."""
        seat = self.seat_of(token)
        if seat is None:
            raise RoomError(403, "not a seat of this room", "bad_token")
        slot = self.slots[seat]
        undo = self.release(seat, in_match, auto_bot)
        await self._store(store, room_code, slot, undo, fence)
        conn, slot.conn = slot.conn, None
        if conn is not None:
            conn.send(protocol.left(seat))
            conn.close(protocol.CLOSE_NORMAL, "left the room")
        return slot

    def connect(self, conn: Sink, token: str) -> Slot:
        """Attach ``conn`` to the seat of ``token``; the seat's previous connection is told it
        was ``replaced`` and closed (its later :meth:`disconnect` changes nothing). The player
        is back: 托管 ends. Raises :class:`RoomError` 403 for a bad token."""
        seat = self.seat_of(token)
        if seat is None:
            raise RoomError(403, "this token is not a seat of this room", "bad_token")
        slot = self.slots[seat]
        old, slot.conn, conn.seat = slot.conn, conn, seat
        if old is not None and old is not conn:
            old.send(protocol.replaced())
            old.close(protocol.CLOSE_REPLACED, "replaced by a newer connection")
        slot.auto, slot.timeouts, slot.away, slot.arriving = False, 0, False, False
        return slot

    def disconnect(self, conn: Sink) -> bool:
        """``conn`` closed: True if it was still its seat's connection (now none)."""
        seat = conn.seat
        if seat is None or self.slots[seat].conn is not conn:
            return False
        self.slots[seat].conn = None
        return True

    def send_all(self, message: dict) -> None:
        """Send ``message`` to every connected seat."""
        for slot in self.connected():
            slot.conn.send(message)
