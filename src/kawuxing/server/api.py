"""The HTTP API (JSON): rooms, seats, and finished hands and matches for replays.

Rooms: ``POST /api/rooms`` creates one; ``GET /api/rooms/{code}`` reads it;
``POST /api/rooms/{code}/join`` takes a seat (returns its secret token);
``POST /api/rooms/{code}/leave`` and ``POST /api/rooms/{code}/seats/{seat}/bot`` (with
``Authorization: Bearer <token>``) leave a seat, or fill an open seat with a bot before the
start (``{"bot": spec}``) and hand a disconnected player's seat to a bot during the match.
Schemas: ``GET /api/rules`` (every rule option with its rule number, choices, default and label
keys, and the presets) and ``GET /api/bots`` (the bot registry): forms are built from them;
``GET /api/tutorial``: the guided first hand (:mod:`kawuxing.tutorial`);
``POST /api/rules/patterns`` (a room's patterns, each with an example hand scored under its rules:
the rules page).
Replays: ``GET /api/hands`` (public summaries), ``GET /api/hands/{match_id}/{number}`` (the full
record, only once the hand has ended and only for the match's players: a record holds the wall),
``GET /api/hands/{match_id}/{number}/frames`` (every step as the engine draws it: the public
perspective for anyone, ``?perspective=0-2|table`` for the match's players, R13),
``GET /api/matches``, ``GET /api/matches/{id}``.

Every error is ``{"detail": {"code", "message"}}`` (docs/protocol.md "Errors"). Per client IP,
making rooms, joining (and leaving, handing a seat to a bot) and looking rooms and replays up
are rate limited (token buckets, :class:`~kawuxing.server.ratelimit.IpBuckets`): over the
limit is a 429 ``rate_limited`` with ``Retry-After`` (seconds); ``/api/rules/patterns`` (some
2 ms of CPU a rule set, then kept) counts as a look-up. ``/api/health``, ``/api/rules`` and
``/api/bots`` are never limited.
"""

from __future__ import annotations

import functools
import math
import time
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ..agents import DEFAULT_BOT, bot_help, bots_schema
from ..scoring.pattern_table import pattern_table
from ..records import PUBLIC, TABLE, replay_frames
from ..review import review
from ..rules import ALL_PRESETS, DEFAULT_PRESET, RuleSet, RulesError, rules_schema
from ..tutorial import guided_hand
from .errors import CLUSTER_UNAVAILABLE, redis_errors
from .guard import limit_key
from .hints import run_hint
from .ratelimit import resolved
from .room import EXTERNAL, HUMAN, clean_nickname
from .roomops import ROOM_OPS

router = APIRouter()


class CreateRoom(BaseModel):
    """Body of ``POST /api/rooms`` (strict: ``"hands": "4"`` is refused, not read as 4)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    preset: str = Field(DEFAULT_PRESET, description=f"{', '.join(ALL_PRESETS[:-1])} or "
                                                    f"{ALL_PRESETS[-1]} (GET /api/rules)")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="rule option overrides (RULES.md), e.g. "
                                                '{"cap": 16}')
    hands: Annotated[int, Field(ge=1, le=64)] | None = Field(
        None, description="hands in the match (default: the rule set's hands_per_match)")
    seats: Annotated[list[str], Field(min_length=3, max_length=3)] = Field(
        default_factory=lambda: [HUMAN, DEFAULT_BOT, DEFAULT_BOT],
        description=f"per seat: '{HUMAN}', '{EXTERNAL}' (an outside bot program: its token "
                    f"is returned, docs/bot-protocol.md) or a bot ({bot_help()}; "
                    "GET /api/bots)")
    nickname: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="take the first human seat with this nickname (with a player's "
                          "token in Authorization: as that player, named as they are)")
    decision_seconds: float | None = Field(None, description="time per decision")
    reserve_seconds: float | None = Field(None, description="extra time bank per hand")
    auto_bot: str = Field(DEFAULT_BOT, description="the bot that plays 托管 and left seats")
    public: bool = Field(False, description="listed in the lobby while it waits (GET /api/rooms)")
    fill_after: float | None = Field(None, description="seconds (0-600) after which bots take "
                                                       "the open seats and the match starts")
    walls: list[str] | None = Field(None, description="tests only (refused unless enabled)")


class Join(BaseModel):
    """Body of ``POST /api/rooms/{code}/join`` (strict: ``"seat": "1"`` is refused)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    nickname: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="needed without a player's token in Authorization; with one, "
                          "the player's name is used")
    seat: int | None = None
    entropy: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[\x20-\x7e]+$")] | None = \
        Field(None, description="your entropy for the hand of `commitment` (R3.1, "
                                "docs/fairness.md): 1-64 printable ASCII characters")
    commitment: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = Field(
        None, description="the open commitment (the room's `commit`) the entropy is for")


def _manager(request: Request):
    return request.app.state.manager


def _coded(status: int, code: str, message: str,
           headers: dict[str, str] | None = None) -> HTTPException:
    return HTTPException(status, {"code": code, "message": message}, headers=headers)


async def _limit(request: Request, kind: str) -> None:
    """Spend one token of the client IP's ``kind`` bucket (``create``, ``join``, ``lookup``,
    ``login``): this process's (:class:`~kawuxing.server.ratelimit.IpBuckets`) or, in a
    cluster, every process's together (:class:`~kawuxing.server.cluster.limits.SharedBuckets`,
    a coroutine); raises 429 ``rate_limited`` with ``Retry-After`` when it has none."""
    wait = await resolved(request.app.state.limits[kind].take(limit_key(request.scope)))
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise _coded(429, "rate_limited", f"too many requests; try again in {seconds} s",
                     {"Retry-After": str(seconds)})


async def _on_room(request: Request, code: str, op: str, **args) -> dict | None:
    """Run :data:`~kawuxing.server.roomops.ROOM_OPS` ``op`` on room ``code``: in memory here,
    or (a cluster, issue 17) at the process that owns it. None: no process plays the room."""
    manager = _manager(request)
    room = manager.get(code)
    if room is not None:
        return await ROOM_OPS[op](room, **args)
    if manager.cluster is not None:
        return await manager.cluster.room_call(code, op, args)
    return None


def _known(request: Request, code: str) -> None:
    """A single process answers 404 ``no_room`` for a room not in memory before anything
    else is checked (a cluster finds out where the room is first)."""
    manager = _manager(request)
    if manager.get(code) is None and manager.cluster is None:
        raise _coded(404, "no_room", "no such room (or it is closed)")


async def _room_op(request: Request, code: str, op: str, **args) -> dict:
    """:func:`_on_room`, 404 ``no_room`` when no process plays the room."""
    done = await _on_room(request, code, op, **args)
    if done is None:
        raise _coded(404, "no_room", "no such room (or it is closed)")
    return done


def _bearer(authorization: str | None, what: str = "seat token") -> str:
    """The token of ``Authorization: Bearer <token>``; 401 ``no_token`` (asking for ``what``:
    the seat token or the player token) without one."""
    if not authorization or not authorization.startswith("Bearer "):
        raise _coded(401, "no_token", f"send the {what} as 'Authorization: Bearer <token>'")
    return authorization[len("Bearer "):].strip()


async def player_of(request: Request, authorization: str | None) -> dict | None:
    """The player (issue 16, :meth:`PlayerStore.by_token
    <kawuxing.server.playerstore.PlayerStore.by_token>`) whose token is in ``authorization``
    (``Bearer <token>``), None without the header; 401 ``no_token`` for a header without a
    token, ``bad_player_token`` for a token that is no player's."""
    if authorization is None:
        return None
    player = await _manager(request).store.players.by_token(_bearer(authorization,
                                                                    "player token"))
    if player is None:
        raise _coded(401, "bad_player_token", "this token is no player's of this server")
    return player


async def _seat_name(request: Request, nickname: str | None,
                     player: dict | None) -> tuple[str | None, str | None]:
    """``(nickname, player_id)`` a seat is taken with: the player's name and id, or a
    nickname (:func:`clean_nickname`) that is no player's name (409 ``name_taken``: a guest
    may not pass for a player) nor looks like one (409 ``name_confusable``,
    :func:`~kawuxing.server.identity.skeleton`), and no player."""
    if player is not None:
        return player["name"], player["player_id"]
    if nickname is None:
        return None, None
    nickname = clean_nickname(nickname)
    players = _manager(request).store.players
    if await players.named(nickname) is not None:
        raise _coded(409, "name_taken", "a player of this server has that name; sign in "
                                        "to play as them")
    if await players.lookalike(nickname) is not None:
        raise _coded(409, "name_confusable", "a player of this server has a name that looks "
                                             "like it; choose another")
    return nickname, None


@router.get("/api/health")
async def health(request: Request) -> dict:
    """``{"ok": true, "rooms": N, "db": "sqlite"|"postgresql", "writer": {...}, "loop":
    {...}}``: the writer's recent commit times (ms) and writes per commit, and how late the
    event loop ran over the last minute (``lag_ms_p50``/``p99``/``max``). Never rate
    limited. ``node``: this process's node id; ``cluster``: None for a single process, else
    ``{"nodes": [{"node", "rooms", "url"?}], "owned": n}`` (the live processes, and the rooms
    this one owns; issue 17); while the cluster's Redis does not answer, 503 with ``ok``
    false and ``cluster`` ``{"code": "cluster_unavailable", "error"}``."""
    manager = _manager(request)
    cluster = manager.cluster
    health = {"ok": True, "rooms": len(manager.rooms), "db": manager.store.dialect,
              "writer": manager.store.writer.health(), "loop": request.app.state.lag.health(),
              "node": cluster.node if cluster is not None else manager.node_id,
              "cluster": None}
    if cluster is not None:
        try:
            health["cluster"] = await cluster.health()
        except redis_errors() as exc:  # the rest of the figures still help: 503 with them
            health.update(ok=False, cluster={"code": CLUSTER_UNAVAILABLE,
                                             "error": f"the cluster's Redis: {exc!r}"[:300]})
            return JSONResponse(health, status_code=503)
    return health


@router.get("/api/rules")
async def get_rules() -> dict:
    """Every rule option and preset (:func:`kawuxing.rules.rules_schema`): ``{"options": [{"name",
    "rule", "type", "default", "choices", "minimum", "maximum", "max_items", "label", "help",
    "offered": [{"value", "label"}]}], "presets": {NAME: {"options", "label", "help", "town"}},
    "default_preset", "common", "patterns"}``."""
    return rules_schema()


@router.get("/api/tutorial")
async def get_tutorial() -> dict:
    """The guided first hand (:func:`kawuxing.tutorial.guided_hand`): ``{"rules", "frames":
    [{"step", "view", "events"}], "lessons": [{"step", "lesson", "action"}]}`` — seat 0's
    frames of a scripted hand (the views and events it sees, R13: no record, no wall) and
    the steps where the newcomer plays, each with the action expected there."""
    guided = guided_hand()
    return {key: guided[key] for key in ("rules", "frames", "lessons")}


class RulePatterns(BaseModel):
    """Body of ``POST /api/rules/patterns``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    rules: dict[str, Any] = Field(default_factory=dict,
                                  description="a room's `rules` (GET /api/rooms/{code}), or "
                                              '{"preset": NAME, option: value, ...}')


@router.post("/api/rules/patterns")
async def rule_patterns(request: Request, body: RulePatterns) -> dict:
    """Every pattern under ``rules`` with an example hand scored under them
    (:func:`kawuxing.scoring.pattern_table.pattern_table`: ×, cap, legality; R9, R7.3-R7.7): the
    rules page of a room. 422 ``bad_rules`` naming the option for rules that are not a
    RuleSet. Counted as a look-up (429 ``rate_limited``); each rule set's table is worked
    out once (:func:`patterns_of`)."""
    await _limit(request, "lookup")
    try:
        rules = RuleSet.from_dict(body.rules)
    except (RulesError, TypeError) as exc:
        raise _coded(422, "bad_rules", str(exc)) from None
    return patterns_of(rules)


@functools.lru_cache(maxsize=256)
def patterns_of(rules: RuleSet) -> dict:
    """:func:`~kawuxing.scoring.pattern_table.pattern_table` of ``rules``, kept for the 256 rule sets
    asked for last (about 2 ms of CPU each; a room's rules page is asked for again and
    again). The caller must not change what it gets."""
    return pattern_table(rules)


@router.get("/api/bots")
async def get_bots() -> dict:
    """The bot registry (:func:`kawuxing.agents.registry.bots_schema`): ``{"bots": [{"name",
    "description", "levels", "default_level", "specs"}], "choices": [{"spec", "label"}],
    "default", "suggested"}``."""
    return bots_schema()


@router.post("/api/rooms", status_code=201)
async def create_room(body: CreateRoom, request: Request,
                      authorization: Annotated[str | None, Header()] = None) -> dict:
    """Create a room. Returns ``code`` (share it), and with ``nickname`` (or a player's token
    in ``Authorization``: the player takes the seat) your ``seat`` and secret ``token``
    (keep it: it reclaims the seat). 422 for bad rules, seats or times; 401/409 as
    :func:`join_room`."""
    await _limit(request, "create")
    return await _make_room(request, body, authorization)


async def _make_room(request: Request, body: CreateRoom, authorization: str | None,
                     **extra: Any) -> dict:
    """:func:`create_room` once counted (``extra``: settings only the server sets, such as
    a rematch's ``kept`` seats)."""
    if body.options and "hands_per_match" in body.options:
        raise _coded(422, "bad_rules", "set the number of hands with 'hands' (1-64), not "
                                       "options.hands_per_match")
    nickname, player_id = await _seat_name(request, body.nickname,
                                           await player_of(request, authorization))
    kwargs = dict(body.model_dump(), nickname=nickname, owner=limit_key(request.scope),
                  player_id=player_id, **extra)
    cluster = _manager(request).cluster
    if cluster is not None:  # on the least loaded process (issue 17)
        return await cluster.create(kwargs)
    return await _manager(request).create_room(**kwargs)


@router.get("/api/rooms")
async def list_rooms(request: Request) -> dict:
    """The public rooms waiting for players, oldest first (issue 35): ``{"rooms": [{"code",
    "preset", "options", "changed", "hands", "fill_after", "created_at", "seats": [{"kind",
    "bot", "nickname"}], "open"}]}`` — join one with ``POST /api/rooms/{code}/join``. A room
    is listed while a player sits in it and is there (connected, or joining)."""
    await _limit(request, "lookup")
    return {"rooms": await _public_rooms(request)}


async def _public_rooms(request: Request) -> list[dict]:
    """The stored public rooms waiting (:meth:`Store.public_rooms`) but those of this process
    whose players are all away (none connected nor joining: a table nobody is at, issue 35;
    a room another process of a cluster owns is kept, its presence is that process's)."""
    manager = _manager(request)
    rooms = await manager.store.public_rooms()
    return [r for r in rooms
            if (room := manager.get(r["code"])) is None or room.seats.attended()]


QUICK_FRESH = 600.0  # seconds: a quick match joins only rooms made this recently


class Quick(BaseModel):
    """Body of ``POST /api/quick`` (快速开始)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    preset: str = Field(DEFAULT_PRESET, description="the rules: a preset or town (GET /api/rules)")
    nickname: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="as in POST /api/rooms (or a player's token in Authorization)")
    fill_after: float | None = Field(60.0, description="seconds (0-600) before bots take the "
                                                       "seats nobody took; null: never")


@router.post("/api/quick")
async def quick_match(body: Quick, request: Request,
                      authorization: Annotated[str | None, Header()] = None) -> dict:
    """Quick match (快速开始, issue 35): a room to join — ``{"code", "created"}``, then ``POST
    /api/rooms/{code}/join`` (with your entropy for its open commitment, docs/fairness.md) —
    the oldest public room waiting with ``preset``'s rules as they are, a seat open, a player
    at the table (connected or joining) and the same kind of wait: bots coming no later than
    ``fill_after`` seconds from now, or players only (``fill_after`` null: players who chose
    to wait for people meet each other), ``"created": false``; or, with none, a new public
    room of three open player seats whose open seats bots take ``fill_after`` seconds after
    it was made (never with null), ``"created": true``. Only a
    room made less than :data:`QUICK_FRESH` seconds ago is offered (never a table whose
    players left long ago). Nobody is seated here: the caller joins like anyone else. The
    input is checked first, before any room is looked for or made, so that a name the join
    would refuse opens no room: 422 ``bad_rules`` for an unknown preset, ``bad_time`` for a
    wait outside 0-600 s, ``bad_nickname`` with neither a nickname nor a player's token, and
    the nickname as ``POST /api/rooms/{code}/join`` checks it."""
    await _limit(request, "lookup")
    if body.preset not in ALL_PRESETS:
        raise _coded(422, "bad_rules", f"preset {body.preset!r}: one of "
                                       f"{', '.join(ALL_PRESETS)}")
    if body.fill_after is not None and not 0 <= body.fill_after <= 600:
        raise _coded(422, "bad_time", "fill_after: a number of seconds from 0 to 600, or null")
    nickname, _ = await _seat_name(request, body.nickname,
                                   await player_of(request, authorization))
    if nickname is None:
        raise _coded(422, "bad_nickname", "nickname: needed without a player's token")
    now = time.time()
    for room in await _public_rooms(request):
        waits = room["fill_after"]
        if (room["preset"] == body.preset and not room["changed"] and room["open"]
                and now - room["created_at"] < QUICK_FRESH
                and (waits is None) == (body.fill_after is None)
                and (waits is None or room["created_at"] + waits <= now + body.fill_after)):
            return {"code": room["code"], "created": False}
    made = await create_room(CreateRoom(preset=body.preset, seats=[HUMAN] * 3, public=True,
                                        fill_after=body.fill_after), request, None)
    return {"code": made["code"], "created": True}


@router.get("/api/rooms/{code}")
async def get_room(code: str, request: Request) -> dict:
    """Public state of a room: status, rules, seats (nickname, kind, connected), totals; of a
    room no longer in memory (finished, expired) its code, status and match id."""
    await _limit(request, "lookup")
    info = await _on_room(request, code, "info")
    if info is not None:
        return info
    if len(code) > 16:
        raise _coded(404, "no_room", "no such room")
    row = await _manager(request).store.room_row(code.upper())
    if row is None:
        raise _coded(404, "no_room", "no such room")
    return {"code": row["code"], "status": row["status"], "match_id": row["match_id"]}


@router.post("/api/rooms/{code}/join")
async def join_room(code: str, body: Join, request: Request,
                    authorization: Annotated[str | None, Header()] = None) -> dict:
    """Take a seat (an open one, or one a player left during the match): as the player of
    the token in ``Authorization`` (issue 16: the seat records the player), or as a guest
    with ``nickname``. Returns ``{"seat", "token", "entropy"}``: ``entropy`` true when the
    given entropy counts for the hand of the given commitment (it was still open). 409 if
    full or over, ``already_seated`` (the player sits here), ``name_taken`` (a guest's
    nickname is a player's name); 401 ``bad_player_token``; 422 ``bad_nickname`` without
    either."""
    await _limit(request, "join")
    _known(request, code)
    nickname, player_id = await _seat_name(request, body.nickname,
                                           await player_of(request, authorization))
    if nickname is None:
        raise _coded(422, "bad_nickname", "nickname: needed without a player's token")
    return await _room_op(request, code, "join", nickname=nickname, seat=body.seat,
                          entropy=body.entropy, commitment=body.commitment,
                          player_id=player_id)


@router.post("/api/rooms/{code}/leave")
async def leave_room(code: str, request: Request,
                     authorization: Annotated[str | None, Header()] = None) -> dict:
    """Leave your seat (token in ``Authorization: Bearer``): before the match it is open
    again; during it a bot plays it and a new player may take it. Your token stops working."""
    await _limit(request, "join")
    _known(request, code)
    return await _room_op(request, code, "leave", token=_bearer(authorization))


@router.post("/api/rooms/{code}/rematch")
async def rematch(code: str, request: Request,
                  authorization: Annotated[str | None, Header()] = None) -> dict:
    """再来一场 (issue 35): a seat of a room whose match is over (its token in
    ``Authorization: Bearer``) asks for the next match: one new room with the same rules,
    hands and bots, each player's seat kept for them (a player's seat for that player alone:
    ``seat_kept`` to anyone else; bots take the ones nobody takes within a minute), offered to
    every seat (``rematch`` message); asked again, the same room. It is private, whether the
    old one was public or not (the same table plays again). Answers
    ``{"code", "seat": the asker's seat there to take (POST /api/rooms/{code}/join), "created"}``.
    401 ``no_token``, 403 ``bad_token``, 409 ``not_over``, 404 ``no_room`` once the finished room
    has left memory."""
    token = _bearer(authorization)
    await _limit(request, "join")
    _known(request, code)
    plan = await _room_op(request, code, "rematch_plan", token=token)
    if "code" in plan:
        return {"code": plan["code"], "seat": plan["seat"], "created": False}
    body = dict(plan["plan"])
    kept = body.pop("kept")
    made = await _make_room(request, CreateRoom(**body), None, kept=kept)
    final = await _room_op(request, code, "set_rematch", token=token, new_code=made["code"])
    return {"code": final["code"], "seat": plan["seat"], "created": final["code"] == made["code"]}


class SeatBot(BaseModel):
    """``POST /api/rooms/{code}/seats/{seat}/bot``: the bot for an open seat before the start
    (a spec of ``GET /api/bots``; default the suggested one)."""

    model_config = ConfigDict(extra="forbid")
    bot: str | None = Field(None, max_length=40, description="a bot spec, e.g. expert")


@router.post("/api/rooms/{code}/seats/{seat}/bot")
async def seat_to_bot(code: str, seat: int, request: Request,
                      authorization: Annotated[str | None, Header()] = None,
                      body: SeatBot | None = None) -> dict:
    """A player of the room has a bot play ``seat``: before the match an *open* seat is filled
    with ``body.bot`` (the match starts once no seat is open), during it a *disconnected*
    player's seat is handed to a bot (托管) until that player reconnects with their token.
    Answers ``{"ok": true, "seat": n, "done": "filled"|"auto"}``."""
    await _limit(request, "join")
    _known(request, code)
    return await _room_op(request, code, "seat_to_bot", token=_bearer(authorization),
                          seat=seat, bot=body.bot if body is not None else None)


@router.get("/api/hands")
async def list_hands(request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 50,
                     offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
                     match: str | None = None) -> dict:
    """Ended hands, newest first (``match`` filters by match id): public information only
    (R13) — ``match_id``, ``number``, ``dealer``, ``result`` (the settlement everyone saw),
    ``started_at``, ``ended_at``; no record, no wall. A hand's replay is public frames for
    anyone, its record for its players (:func:`get_hand`)."""
    await _limit(request, "lookup")
    rows = await _manager(request).store.list_hands(limit, offset, match)
    return {"hands": rows}


NOT_A_PLAYER = "not_a_player"


async def _ended_hand(request: Request, match_id: str, number: int) -> dict:
    """The stored ended hand (``{"status", "record"}``): 404 ``no_hand``, 409 ``hand_in_play``
    (a record holds the wall: only ended hands are replayed, R13)."""
    found = await _manager(request).store.hand_record(match_id, number)
    if found is None:
        raise _coded(404, "no_hand", "no such hand")
    if found["status"] != "ended":
        raise _coded(409, "hand_in_play", "the hand is being played; its record holds the wall")
    return found


async def _played(request: Request, match_id: str, authorization: str | None) -> bool:
    """True when the ``Bearer`` token of ``authorization`` is one of the match's players':
    their player token (a seat of the match was theirs) or a seat token of the match
    (:meth:`PlayerStore.seats_in_match <kawuxing.server.playerstore.PlayerStore.seats_in_match>`)."""
    if not authorization or not authorization.startswith("Bearer "):
        return False
    token = authorization[len("Bearer "):].strip()
    return bool(await _manager(request).store.players.seats_in_match(match_id, token))


def _not_a_player(what: str) -> HTTPException:
    return _coded(403, NOT_A_PLAYER, f"{what} is for the match's players only (send your player "
                                     "or seat token as 'Authorization: Bearer <token>'); "
                                     "anyone may replay the public frames")


@router.get("/api/hands/{match_id}/{number}")
async def get_hand(match_id: str, number: Annotated[int, Path(ge=0, le=10**6)],
                   request: Request,
                   authorization: Annotated[str | None, Header()] = None) -> dict:
    """The full record of an ended hand (kawuxing-hand format, wall and every hand: replay it
    with ``kawuxing replay``, check it with ``kawuxing verify``), for the match's players only
    (their player or seat token in ``Authorization: Bearer``, R13). 404 ``no_hand``, 409
    ``hand_in_play``, 403 ``not_a_player``."""
    await _limit(request, "lookup")
    found = await _ended_hand(request, match_id, number)
    if not await _played(request, match_id, authorization):
        raise _not_a_player("the record (it holds the wall and every hand)")
    return found["record"]


@router.get("/api/hands/{match_id}/{number}/frames")
async def get_frames(match_id: str, number: str, request: Request,
                     seat: str | None = None, perspective: str | None = None,
                     authorization: Annotated[str | None, Header()] = None) -> dict:
    """Every step of an ended hand, drawn by the engine (:func:`kawuxing.records.replay_frames`):
    ``{"perspective", "rules", "frames": [{"step", "view", "events"}, ...]}``. ``perspective``:
    ``public`` (what a spectator saw: no concealed tile before 亮倒 or the end, R13) for
    anyone; ``table`` (every hand face up) or a seat ``0``-``2`` (``?seat=`` says the same)
    for the match's players only (their player or seat token in ``Authorization: Bearer``).
    Without either: ``table`` for a player of the match, else ``public``. Errors, as
    ``{"detail": {"code", "message"}}``: 422 ``bad_number``/``bad_seat``, 404 ``no_hand``,
    409 ``hand_in_play``, 403 ``not_a_player``."""
    await _limit(request, "lookup")
    if not number.isascii() or not number.isdigit() or len(number) > 7:
        raise _coded(422, "bad_number", "the hand number is a whole number from 0")
    asked = perspective if perspective is not None else seat
    seats_ok = seat is None or (seat in ("0", "1", "2") and perspective in (None, seat))
    if not seats_ok or asked not in (None, "0", "1", "2", PUBLIC, TABLE):
        raise _coded(422, "bad_seat", "perspective: a seat 0, 1 or 2, 'public' or 'table' "
                                      "(or ?seat=0-2)")
    found = await _ended_hand(request, match_id, int(number))
    played = await _played(request, match_id, authorization)
    if asked is None:
        asked = TABLE if played else PUBLIC
    elif asked != PUBLIC and not played:
        raise _not_a_player("a seat's or the whole table's replay")
    return await run_in_threadpool(replay_frames, found["record"],
                                   asked if asked in (PUBLIC, TABLE) else int(asked))


@router.get("/api/hands/{match_id}/{number}/review")
async def get_review(match_id: str, number: Annotated[int, Path(ge=0, le=10**6)],
                     request: Request, seat: str | None = None,
                     authorization: Annotated[str | None, Header()] = None) -> dict:
    """The AI review (复盘) of ``seat``'s decisions in an ended hand
    (:func:`kawuxing.review.review`: each decision with the expert model's best options and
    their values in base units, the value lost by the choice made, the agreement rate, the
    total lost, the costliest steps first), for the match's players only (it reads the
    record, R13). Worked out once per hand and seat, one at a time with the hints
    (:func:`.hints.run_hint`). 404 ``no_hand``, 409 ``hand_in_play``, 403 ``not_a_player``,
    422 ``bad_seat`` for a ``seat`` that is not 0, 1 or 2."""
    await _limit(request, "lookup")
    if seat not in ("0", "1", "2"):
        raise _coded(422, "bad_seat", "seat: 0, 1 or 2 (?seat=0)")
    found = await _ended_hand(request, match_id, number)
    if not await _played(request, match_id, authorization):
        raise _not_a_player("the review (it reads the record: the wall and every hand)")
    key = (match_id, number, int(seat))
    cached = _REVIEWS.get(key)
    if cached is None:
        cached = await run_hint(lambda: review(found["record"], int(seat)))
        _REVIEWS[key] = cached
        while len(_REVIEWS) > 256:
            _REVIEWS.pop(next(iter(_REVIEWS)))
    return cached


_REVIEWS: dict[tuple[str, int, int], dict] = {}  # ended hands do not change: kept, 256 at most


@router.get("/api/matches")
async def list_matches(request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 50,
                       offset: Annotated[int, Query(ge=0, le=10**9)] = 0) -> dict:
    """Matches, newest first: players, status, totals."""
    await _limit(request, "lookup")
    return {"matches": await _manager(request).store.list_matches(limit, offset)}


@router.get("/api/matches/{match_id}")
async def get_match(match_id: str, request: Request) -> dict:
    """One match with its hands (number, dealer, status, result of the ended ones)."""
    await _limit(request, "lookup")
    found = await _manager(request).store.get_match(match_id)
    if found is None:
        raise _coded(404, "no_match", "no such match")
    return found
