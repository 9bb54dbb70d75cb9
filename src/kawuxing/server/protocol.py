"""The WebSocket protocol, both directions, in one place (docs/protocol.md for client authors).

Every message is one JSON object in one text frame, with a ``type``.

- **Client → server** ("ClientIn"): the pydantic models :class:`Hello` (or :class:`Watch`, a
  spectator's), :class:`ActionMessage`, :class:`Ready`, :class:`Auto`, :class:`Sync`,
  :class:`Entropy`, :class:`HintRequest`, :class:`Chat`, :class:`Ping`, read by
  :func:`parse_client`. They are validated strictly (no extra keys, no type coercion);
  anything else gets an ``error`` message and changes nothing.
- **Server → client** ("ClientOut"): one builder per message type — :func:`welcome`,
  :func:`sync`, :func:`update`, :func:`missed`, :func:`players`, :func:`auto`,
  :func:`entropy_ok`, :func:`refused`, :func:`error`, :func:`match_end`, :func:`chat`,
  :func:`spectators`, :func:`next_hand`, :func:`replaced`, :func:`left`, :func:`pong` — and
  :func:`clock` for the ``clock`` field. Nothing else in the server writes a message dict;
  :func:`encode` turns one into its text frame.

The codes of ``refused`` and ``error``, the reasons of ``auto`` and the close codes are
constants here.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .chat import SAYINGS
from .jsontext import compact

PROTOCOL_VERSION = 1
MAX_DEPTH = 16  # nesting of arrays and objects in a client message at most
MAX_INT = 2**53  # whole numbers a client sends are within ±MAX_INT (exact in JavaScript)

# close codes (4000-4999 are the application's)
CLOSE_BAD_HELLO = 4000  # the first message was not a valid hello
CLOSE_BAD_TOKEN = 4003  # the token is not a seat of this room
CLOSE_REPLACED = 4001  # a newer connection took this seat
CLOSE_ROOM_GONE = 4004  # no such room (or it was closed)
CLOSE_SLOW = 4008  # the client fell too far behind reading
CLOSE_POLICY = 1008  # flood control
CLOSE_RESTART = 1012  # the server is shutting down; reconnect
CLOSE_NORMAL = 1000  # left the room, room unloaded

# refused.code: why an action (or entropy) was not taken; the state is unchanged
DUPLICATE = "duplicate"
NOT_PLAYING = "not_playing"
BAD_ACTION = "bad_action"
NOT_YOUR_SEAT = "not_your_seat"
STALE = "stale"
OUT_OF_TURN = "out_of_turn"
ILLEGAL = "illegal"
STORAGE = "storage"
BAD_ENTROPY = "bad_entropy"
ENTROPY_CLOSED = "entropy_closed"

# auto.reason: why 托管 started or ended
AUTO_TIMEOUTS = "timeouts"
AUTO_ASKED = "asked"


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    """First message: claim a seat with its token; ``hand``/``last_event`` say what the
    client already has (the hand number and the ``n`` of the last event it received)."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=8, max_length=200)]
    hand: Annotated[int, Field(ge=0, le=MAX_INT)] | None = None
    last_event: Annotated[int, Field(ge=-1, le=MAX_INT)] | None = None


class ActionMessage(_Message):
    """Play one action: ``action`` as ``[seat, verb, tile?, "declare"?, [hidden]?]`` (the
    form of :meth:`kawuxing.engine.Action.to_json`), ``version`` the room version of the view
    it answers, ``id`` chosen by the client (unique per seat) to detect duplicates."""

    type: Literal["action"]
    id: Annotated[str, Field(min_length=1, max_length=64)]
    version: Annotated[int, Field(ge=0, le=MAX_INT)]
    action: Annotated[list[Any], Field(min_length=2, max_length=5)]


class Ready(_Message):
    """Ready for the next hand (the pause ends when every connected player is ready)."""

    type: Literal["ready"]


class Auto(_Message):
    """Ask a bot to play this seat (托管, ``on: true``) or take it back (``on: false``)."""

    type: Literal["auto"]
    on: bool


class Sync(_Message):
    """Ask for the full view again."""

    type: Literal["sync"]


class Entropy(_Message):
    """A seat's entropy for hand ``hand`` (0-based), mixed into its wall (R3.1,
    docs/fairness.md): 1-64 printable ASCII characters, sent after that hand's commitment
    and before its deal; the last one sent counts. ``value`` is checked by the room (a bad
    one is ``refused`` with ``bad_entropy``), so any JSON value passes here."""

    type: Literal["entropy"]
    hand: Annotated[int, Field(ge=0, le=MAX_INT)]
    value: Any


class HintRequest(_Message):
    """Ask for the expert's ranking of this seat's choices now (answered by ``hint``)."""

    type: Literal["hint"]


class Watch(_Message):
    """First message of a spectator (旁观), instead of a hello: watch the room (no seat, public
    information only, R13; :mod:`.spectators`)."""

    type: Literal["watch"]


class Chat(_Message):
    """Say one quick phrase or emote to the table: ``say`` is an id of
    :data:`.chat.SAYINGS` (never free text); rate-limited per seat (:mod:`.chat`)."""

    type: Literal["chat"]
    say: Literal[SAYINGS]  # type: ignore[valid-type]


class Ping(_Message):
    """Keep-alive; answered by ``pong`` with the same ``t``: a text of at most 64
    characters, a whole number within ±2^53 or a finite number (never NaN or infinity:
    the frame is refused before)."""

    type: Literal["ping"]
    t: Annotated[str, Field(max_length=64)] | Annotated[int, Field(ge=-MAX_INT, le=MAX_INT)] \
        | Annotated[float, Field(allow_inf_nan=False)] | None = None


ClientMessage = Annotated[Union[Hello, Watch, ActionMessage, Ready, Auto, Sync, Entropy,
                                HintRequest, Chat, Ping], Field(discriminator="type")]
CLIENT_TYPES = ("hello", "watch", "action", "ready", "auto", "sync", "entropy", "hint", "chat",
                "ping")
_adapter: TypeAdapter = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A client message that cannot be used: ``code`` (``malformed``, ``unknown_type``,
    ``too_large``, ``too_deep``, ``bad_number``, ``bad_text``, ``binary``) and a
    human-readable ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _constant(name: str) -> Any:
    raise ProtocolError("bad_number", f"{name} is not a number this server takes")


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ProtocolError("bad_number", "a number out of range")
    return value


def _too_deep(text: str) -> bool:
    """Whether arrays and objects nest more than :data:`MAX_DEPTH` deep (outside strings).
    Scanned only when the frame has that many brackets at all."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth, in_string, escaped = 0, False, False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif c in "]}":
            depth -= 1
    return False


def parse_client(text: str, max_bytes: int) -> BaseModel:
    """One client text frame as a message model. Raises :class:`ProtocolError` for a frame
    over ``max_bytes`` (UTF-8, ``too_large``), nested over :data:`MAX_DEPTH` (``too_deep``),
    invalid JSON (``malformed``), ``NaN``/``Infinity`` or a number out of range
    (``bad_number``), an escaped lone surrogate (``bad_text``: it could not be sent back), a
    non-object, an unknown ``type`` or fields that do not fit the type. Never raises
    anything else, whatever the text."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ProtocolError("too_large", f"messages are at most {max_bytes} bytes")
    if _too_deep(text):
        raise ProtocolError("too_deep", f"arrays and objects nest at most {MAX_DEPTH} deep")
    try:
        raw = json.loads(text, parse_constant=_constant, parse_float=_float)
    except ProtocolError:
        raise
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("malformed", f"not JSON: {str(exc)[:100]}") from None
    if "\\u" in text and not _encodable(raw):
        raise ProtocolError("bad_text", "a text with a lone surrogate (\\ud800-\\udfff)")
    if not isinstance(raw, dict):
        raise ProtocolError("malformed", "a message is a JSON object with a 'type'")
    kind = raw.get("type")
    if kind is None:
        raise ProtocolError("unknown_type", "a message needs a 'type'; types: "
                                            f"{', '.join(CLIENT_TYPES)}")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}; types: "
                                            f"{', '.join(CLIENT_TYPES)}")
    try:
        return _adapter.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or kind
        raise ProtocolError("malformed", f"{kind}: {where}: {first['msg']}") from None


# --- server messages ("ClientOut") ----------------------------------------------------------
# Each builder returns a JSON-ready dict; the fields are those of docs/protocol.md, in order.

def welcome(room: str, seat: int, status: str, preset: str, rules: dict, settings: dict,
            players: list[dict], hand: int | None, version: int, commit: dict | None) -> dict:
    """After a valid hello (and on ``sync`` before the match): the room as this seat joins
    it. ``players``: each seat's public dict; ``hand``: the number of the hand in play (None
    before the match); ``commit``: the open commitment (R3.1) or None."""
    return {"type": "welcome", "protocol": PROTOCOL_VERSION, "room": room, "seat": seat,
            "status": status, "preset": preset, "rules": rules, "settings": settings,
            "players": players, "hand": hand, "version": version, "commit": commit}


def update(hand: int, version: int, events: list[dict], view: dict, totals: list[int],
           clock: dict | None, auto: bool, fairness: dict | None, commit: dict | None,
           ack: str | None = None, resumed: bool = False, kind: str = "update") -> dict:
    """The seat's new ``events`` (filtered, R13) and its ``view`` (:func:`seat_view`) after a
    change it can see. ``totals``: the match's running totals (base units); ``clock``: see
    :func:`clock` (None unless this seat decides); ``auto``: 托管 is on; ``fairness``: the hand's
    commitment, with seed and entropy once ended; ``commit``: the open commitment or None.
    ``ack``: the id of this seat's action now applied; ``resumed``: answer to a hello that said
    what the client had. ``kind`` ``"sync"``: see :func:`sync`."""
    message = {"type": kind, "hand": hand, "version": version, "events": events, "view": view,
               "totals": totals, "clock": clock, "auto": auto, "fairness": fairness,
               "commit": commit}
    if ack is not None:
        message["ack"] = ack
    if resumed:
        message["resumed"] = True
    return message


def sync(hand: int, version: int, events: list[dict], view: dict, totals: list[int],
         clock: dict | None, auto: bool, fairness: dict | None, commit: dict | None) -> dict:
    """The full state of the hand in play: every event of the hand for this seat and its
    view (the fields of :func:`update`, without ``ack``/``resumed``)."""
    return update(hand, version, events, view, totals, clock, auto, fairness, commit,
                  kind="sync")


def missed(hand: int, events: list[dict], view: dict, fairness: dict | None) -> dict:
    """On reconnecting into a later hand: the rest of hand ``hand`` (how it ended) and its
    final view, before the ``sync`` of the hand in play."""
    return {"type": "missed", "hand": hand, "events": events, "view": view,
            "fairness": fairness}


def clock(seconds: float, decision_seconds: float, reserve: float) -> dict:
    """The ``clock`` of a seat that decides: seconds left (decision time plus what is left of
    the reserve), the room's seconds per decision, the reserve left (rounded to 0.01 s)."""
    return {"seconds": round(max(0.0, seconds), 2), "decision_seconds": decision_seconds,
            "reserve": round(reserve, 2)}


def players(seats: list[dict]) -> dict:
    """Seats changed (joined, left, connected, disconnected): each seat's public dict."""
    return {"type": "players", "players": seats}


def auto(on: bool, reason: str) -> dict:
    """托管 for this seat started (``on``) or ended; ``reason`` :data:`AUTO_TIMEOUTS` or
    :data:`AUTO_ASKED`."""
    return {"type": "auto", "on": on, "reason": reason}


def entropy_ok(hand: int, value: str, commitment: str) -> dict:
    """This seat's entropy ``value`` counts for hand ``hand`` of ``commitment`` (R3.1)."""
    return {"type": "entropy_ok", "hand": hand, "value": value, "commitment": commitment}


def match_end(match_id: str | None, totals: list[int], hands: list[list[int]],
              rating: dict | None = None) -> dict:
    """The last hand ended (or a seat connects to a finished room): final ``totals`` and each
    hand's deltas (R12.1), and ``rating`` (issue 16, docs/ratings.md): ``{"rated": false,
    "reason"}`` or ``{"rated": true, "seats": [{"seat", "player_id", "name", "place",
    "before", "after", "delta"}]}``, None when it could not be stored."""
    return {"type": "match_end", "match_id": match_id, "totals": totals, "hands": hands,
            "rating": rating}


def chat(seat: int, say: str) -> dict:
    """Seat ``seat`` says the quick phrase or emote ``say`` (an id of
    :data:`.chat.SAYINGS`)."""
    return {"type": "chat", "seat": seat, "say": say}


def rematch(code: str, by: int | None) -> dict:
    """再来一场 (issue 35): the next match's room ``code``, asked for by seat ``by``: each
    player may take their seat there (``POST /api/rooms/{code}/join``)."""
    return {"type": "rematch", "code": code, "by": by}


def spectators(count: int) -> dict:
    """How many spectators (旁观) watch the room now."""
    return {"type": "spectators", "count": count}


def next_hand(version: int, seconds: float, ready: list[bool]) -> dict:
    """Between hands: the hand that ended at room ``version`` is followed by the next one in
    ``seconds`` (rounded to 0.1 s), or as soon as every seat is ``ready`` (per seat; bots,
    托管 and dropped seats are ready at once)."""
    return {"type": "next_hand", "version": version, "seconds": round(max(0.0, seconds), 1),
            "ready": ready}


def replaced() -> dict:
    """Another connection took this seat; the socket closes with :data:`CLOSE_REPLACED`."""
    return {"type": "replaced"}


def left(seat: int) -> dict:
    """This player left seat ``seat``; the socket closes with :data:`CLOSE_NORMAL`."""
    return {"type": "left", "seat": seat}


def hint(hand: int, version: int, choices: list[dict]) -> dict:
    """The expert's ranking of the seat's legal actions at room ``version`` of hand ``hand``
    (:meth:`kawuxing.agents.expert.Choice.to_json`, best first; ``[]`` when the seat has
    nothing to decide). Built from the seat's own Observation only (R13)."""
    return {"type": "hint", "hand": hand, "version": version, "choices": choices}


RESUMING = "resuming"


def status(state: str) -> dict:
    """A word on the room's server: ``resuming`` (cluster) — the process that owns the room
    has stopped answering; another one takes it over (a ``welcome`` then the full view
    follow within seconds), and an action sent meanwhile may be lost: act again after the
    ``sync``."""
    return {"type": "status", "state": state}


def pong(t: Any) -> dict:
    """The answer to a ``ping``, with its ``t``."""
    return {"type": "pong", "t": t}


def error(code: str, message: str, **extra: Any) -> dict:
    """A message that could not be used; nothing changed."""
    return {"type": "error", "code": code, "message": message, **extra}


def refused(action_id: str | None, code: str, reason: str, version: int,
            rule: str | None = None) -> dict:
    """An action (or entropy) that was not taken; the state is unchanged. ``code``:
    ``stale``, ``duplicate``, ``not_your_seat``, ``out_of_turn``, ``illegal``,
    ``bad_action``, ``not_playing``, ``storage``; for entropy (``id`` null, rule R3.1)
    ``bad_entropy``, ``entropy_closed``; ``rule`` the RULES.md rule."""
    return {"type": "refused", "id": action_id, "code": code, "reason": reason, "rule": rule,
            "version": version}


def _encodable(value: Any) -> bool:
    """Whether ``value`` can be sent back as UTF-8 (no lone surrogate in any text)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, ValueError, RecursionError):
        return False
    return True


def encode(message: dict) -> str:
    """A server message as one compact JSON text frame (:func:`.jsontext.compact`)."""
    return compact(message)
