"""The HTTP API of players (issue 16): identities, sign-in, profiles and the leaderboard.

``POST /api/players {"name"}`` makes a guest identity: ``{"player_id", "name", "token"}`` —
the token is the identity (keep it; it is shown once, kept hashed). ``GET /api/players/me``
and ``POST /api/players/me/password`` take it as ``Authorization: Bearer <token>``; with a
password, ``POST /api/players/login {"name", "password"}`` gives another device a token of
its own. ``GET /api/players/{id}`` is the public profile (rating, statistics from the stored
hands, matches and hands with their replays); ``GET /api/leaderboard`` the rated players.
Joining or making a room with the player's token in ``Authorization`` seats the player
(:mod:`.api`).

Logins and password changes are limited per client IP (the ``login`` bucket: 10, then one
every 10 s), and failed logins per name from any IPs (:class:`~.identity.LoginFailures`: 5,
then one a minute; 429 ``too_many_attempts``); a wrong name and a wrong password get the same
answer in the same time (:func:`~.identity.password_matches`). Passwords are hashed in a thread and never logged; no
answer about one player carries another's token (nor its own hash).
"""

from __future__ import annotations

import math
import time
from typing import Annotated

from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from .api import _coded, _limit, _manager, player_of
from .ratelimit import resolved
from .identity import (PASSWORD_MAX, check_password, clean_player_name, hash_password,
                       password_matches)
from .stats import outcome, played, recent_players, summary, versus_bots

router = APIRouter()
PROFILE_MATCHES, PROFILE_HANDS = 50, 100  # newest first, at most


class NewPlayer(BaseModel):
    """Body of ``POST /api/players``."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=64)]


class Login(BaseModel):
    """Body of ``POST /api/players/login``."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=64)]
    password: Annotated[str, Field(max_length=PASSWORD_MAX)]


class SetPassword(BaseModel):
    """Body of ``POST /api/players/me/password``: ``old_password`` when one is set."""

    model_config = ConfigDict(extra="forbid")
    password: Annotated[str, Field(max_length=PASSWORD_MAX)]
    old_password: Annotated[str, Field(max_length=PASSWORD_MAX)] | None = None


def _me(player: dict) -> dict:
    return {"player_id": player["player_id"], "name": player["name"],
            "rating": player["rating"], "rated_games": player["rated_games"],
            "has_password": player["has_password"]}


@router.post("/api/players", status_code=201)
async def new_player(body: NewPlayer, request: Request) -> dict:
    """A guest identity named ``name`` (a nickname's rules, no bot's name, unique per
    server): ``{"player_id", "name", "token"}``. 409 ``name_taken``, 422
    ``bad_nickname``/``bot_nickname``."""
    await _limit(request, "create")
    name = clean_player_name(body.name)
    player_id, token = await _manager(request).store.players.create(name)
    return {"player_id": player_id, "name": name, "token": token}


@router.post("/api/players/login")
async def login(body: Login, request: Request) -> dict:
    """A new device token for the player of ``name`` and ``password``: ``{"player_id",
    "name", "token"}``. 401 ``bad_login`` (unknown name, no password set, or a wrong one —
    one answer for all), 429 ``rate_limited`` (this IP) or ``too_many_attempts`` (this name
    failed :data:`~.identity.LOGIN_BURST` times lately, from whatever IPs:
    :class:`~.identity.LoginFailures`)."""
    await _limit(request, "login")
    failures = request.app.state.login_failures
    wait = await resolved(failures.wait(body.name))
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise _coded(429, "too_many_attempts", f"too many failed sign-ins to this name; try "
                     f"again in {seconds} s", {"Retry-After": str(seconds)})
    players = _manager(request).store.players
    found = await players.named(body.name)
    stored = found["password_hash"] if found else None
    if not await run_in_threadpool(password_matches, body.password, stored):
        await resolved(failures.failed(body.name))
        raise _coded(401, "bad_login", "no player with that name and password")
    token = await players.add_token(found["id"])
    return {"player_id": found["id"], "name": found["name"], "token": token}


@router.get("/api/players/me")
async def me(request: Request,
             authorization: Annotated[str | None, Header()] = None) -> dict:
    """The player of the token: ``{"player_id", "name", "rating", "rated_games",
    "has_password"}``. 401 ``no_token``/``bad_player_token``."""
    await _limit(request, "lookup")
    player = await player_of(request, authorization or "")
    return _me(player)


@router.post("/api/players/me/password")
async def set_password(body: SetPassword, request: Request,
                       authorization: Annotated[str | None, Header()] = None) -> dict:
    """Set (or change: ``old_password`` must match) the password that signs the player in on
    another device. 401 ``bad_player_token``, 403 ``bad_login`` (old password wrong),
    422 ``bad_password`` (8-128 characters), 429 ``rate_limited``."""
    await _limit(request, "login")
    player = await player_of(request, authorization or "")
    check_password(body.password)
    players = _manager(request).store.players
    if player["has_password"]:
        stored = (await players.named(player["name"]))["password_hash"]
        if not await run_in_threadpool(password_matches, body.old_password, stored):
            raise _coded(403, "bad_login", "the old password is not right")
    await players.set_password(player["player_id"],
                               await run_in_threadpool(hash_password, body.password))
    return {"ok": True}


@router.get("/api/players/{player_id}")
async def profile(player_id: str, request: Request) -> dict:
    """A player's public profile: ``player_id``, ``name``, ``created_at``, ``rating``,
    ``rated_games``, ``rank`` (None unrated), ``games`` (matches sat in), ``stats``
    (:func:`.stats.summary` of every hand played), ``matches`` (the newest
    :data:`PROFILE_MATCHES`, newest first: ``match_id``, ``seat``, ``players``, ``totals``,
    ``status``, ``hands_planned``, ``started_at``, ``finished_at``, ``place``,
    ``rating_before``, ``rating_after``) and ``hands`` (the newest :data:`PROFILE_HANDS`:
    ``match_id``, ``number``, ``seat``, ``ended_at``, ``result``, ``outcome``, ``delta``),
    ``versus_bots`` (:func:`.stats.versus_bots`: results against each line-up of bots) and
    ``recent_players`` (:func:`.stats.recent_players`: who played with them lately).
    404 ``no_player``."""
    await _limit(request, "lookup")
    players = _manager(request).store.players
    found = await players.get(player_id) if len(player_id) <= 32 else None
    if found is None:
        raise _coded(404, "no_player", "no such player")
    history = await players.history(player_id)
    hands = played(history["sittings"], history["hands"])
    matches = [{"match_id": s["match_id"], "seat": s["seat"], "players": s["players"],
                "totals": s["totals"], "status": s["status"],
                "hands_planned": s["hands_planned"], "started_at": s["started_at"],
                "finished_at": s["finished_at"], "place": s["place"],
                "rating_before": s["rating_before"], "rating_after": s["rating_after"]}
               for s in reversed(history["sittings"][-PROFILE_MATCHES:])]
    recent = [{"match_id": h["match_id"], "number": h["number"], "seat": h["seat"],
               "ended_at": h["ended_at"], "result": h["result"],
               "outcome": outcome(h["result"], h["seat"]),
               "delta": h["result"]["deltas"][h["seat"]]}
              for h in reversed(hands[-PROFILE_HANDS:])]
    return {"player_id": found["player_id"], "name": found["name"],
            "created_at": found["created_at"], "rating": found["rating"],
            "rated_games": found["rated_games"], "rank": await players.rank(player_id),
            "games": len({s["match_id"] for s in history["sittings"]}),
            "stats": summary(hands, history["declared"]), "matches": matches, "hands": recent,
            "versus_bots": versus_bots(hands, history["sittings"], history["made_for"]),
            "recent_players": recent_players(history["sittings"], found["player_id"])}


BOARDS_FRESH = 30.0  # seconds the boards against bots are served from memory


@router.get("/api/leaderboard/bots")
async def leaderboard_bots(request: Request,
                           min_hands: Annotated[int, Query(ge=1, le=10_000)] = 20) -> dict:
    """Results against bots (issue 35), beside the rated ladder: ``{"boards": [{"bots",
    "players": [{"rank", "player_id", "name", "hands", "total", "per_hand"}]}],
    "min_hands"}`` — for each bot spec, the players with at least ``min_hands`` hands
    against two of it, best mean (base units a hand) first
    (:meth:`~.playerstore.PlayerStore.against_bots`). Worked out at most every
    :data:`BOARDS_FRESH` seconds per process; a look-up (429 ``rate_limited``)."""
    await _limit(request, "lookup")
    cache = getattr(request.app.state, "bot_boards", None)
    if cache is None:
        cache = request.app.state.bot_boards = {}
    now = time.monotonic()
    hit = cache.get(min_hands)
    if hit is None or now - hit[0] > BOARDS_FRESH:
        hit = cache[min_hands] = (now, await _manager(request).store.players.against_bots(
            min_hands))
    return {"boards": hit[1], "min_hands": min_hands}


@router.get("/api/leaderboard")
async def leaderboard(request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 100,
                      offset: Annotated[int, Query(ge=0, le=10**9)] = 0) -> dict:
    """Players with a rated match, best rating first: ``{"players": [{"rank", "player_id",
    "name", "rating", "rated_games", "created_at"}]}`` (docs/ratings.md)."""
    await _limit(request, "lookup")
    return {"players": await _manager(request).store.players.leaderboard(limit, offset)}
