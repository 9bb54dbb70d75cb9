"""The database schema of the server (SQLAlchemy Core tables, ``kwx_`` prefix) and how values
are kept in it (JSON as text).

Tables: ``kwx_schema_version`` (the version of this schema, :data:`SCHEMA_VERSION`),
``kwx_rooms`` (a room: code, status, preset and option overrides, the rule set, its timer
settings, its match), ``kwx_seats`` (three per room: kind, bot, nickname, SHA-256 of the
token, the player who sits there), ``kwx_matches`` (players, totals, the rating outcome),
``kwx_hands`` (the record at the deal — it holds the wall and the fairness seed: never sent
while the hand is played — and the result), ``kwx_actions`` (one row per accepted action,
with who played it), and the players of issue 16: ``kwx_players`` (name, argon2 hash of the
optional password, rating), ``kwx_player_tokens`` (SHA-256 of each device's player token)
and ``kwx_match_players`` (who played which seat of a match from which hand, and the
rating change, docs/ratings.md).

Version 2 (issue 16) added the three player tables and the columns ``kwx_seats.player_id``
and ``kwx_matches.rating``; :mod:`.migrate` upgrades a version 1 database in place.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

from .jsontext import compact

SCHEMA_VERSION = 2

# kwx_rooms.status
ROOM_WAITING, ROOM_PLAYING, ROOM_FINISHED = "waiting", "playing", "finished"
ROOM_EXPIRED = "expired"  # closed unstarted or abandoned (issue 13): never rebuilt
ACTIVE_ROOMS = (ROOM_WAITING, ROOM_PLAYING)  # rebuilt when the server starts
# kwx_matches.status and kwx_hands.status
MATCH_PLAYING, MATCH_FINISHED = "playing", "finished"
HAND_PLAYING, HAND_ENDED = "playing", "ended"

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
    Column("status", String(16), nullable=False),  # waiting | playing | finished | expired
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
    Column("vacated", Boolean, nullable=False, default=False),
    Column("player_id", String(32), nullable=True))  # version 2: the player seated here

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
    Column("finished_at", Float, nullable=True),
    Column("rating", Text, nullable=True))  # version 2: the rating outcome (JSON) once rated

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
    Column("by", String(8), nullable=False),  # player | timeout | bot | auto | window
    Column("at", Float, nullable=False))

players = Table(
    "kwx_players", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False, unique=True),  # players.name_key(name)
    Column("password_hash", Text, nullable=True),  # argon2id, None: a guest identity
    Column("rating", Float, nullable=False),  # Tenhou's R (docs/ratings.md)
    Column("rated_games", Integer, nullable=False),
    Column("created_at", Float, nullable=False))

player_tokens = Table(
    "kwx_player_tokens", metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the token (tokens.py)
    Column("player_id", String(32), ForeignKey("kwx_players.id"), nullable=False, index=True),
    Column("created_at", Float, nullable=False))

match_players = Table(
    "kwx_match_players", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", String(32), ForeignKey("kwx_matches.id"), nullable=False, index=True),
    Column("player_id", String(32), ForeignKey("kwx_players.id"), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("first_hand", Integer, nullable=False),  # the hand the player sat down in
    Column("last_hand", Integer, nullable=True),  # the hand they left in (None: stayed)
    Column("place", Float, nullable=True),  # 1-3 (ties: shared, 1.5) once rated
    Column("rating_before", Float, nullable=True),
    Column("rating_after", Float, nullable=True))


def dumps(value: Any) -> str:
    """A value as stored: compact JSON (UTF-8 text, not ASCII-escaped,
    :func:`.jsontext.compact`)."""
    return compact(value)


def loads(text: str | None) -> Any:
    """A stored JSON text as a value (None stays None)."""
    return None if text is None else json.loads(text)
