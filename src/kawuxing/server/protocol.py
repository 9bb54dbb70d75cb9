"""The WebSocket protocol: client messages (pydantic-validated) and server message builders.

docs/protocol.md describes it for client authors. Every message is one JSON object in one
text frame, with a ``type``. Client messages are validated strictly (no extra keys, no type
coercion); anything else gets an ``error`` message and changes nothing.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

PROTOCOL_VERSION = 1

# close codes (4000-4999 are the application's)
CLOSE_BAD_HELLO = 4000  # the first message was not a valid hello
CLOSE_BAD_TOKEN = 4003  # the token is not a seat of this room
CLOSE_REPLACED = 4001  # a newer connection took this seat
CLOSE_ROOM_GONE = 4004  # no such room (or it was closed)
CLOSE_SLOW = 4008  # the client fell too far behind reading
CLOSE_POLICY = 1008  # flood control
CLOSE_RESTART = 1012  # the server is shutting down; reconnect


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    """First message: claim a seat with its token; ``hand``/``last_event`` say what the
    client already has (the hand number and the ``n`` of the last event it received)."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=8, max_length=200)]
    hand: Annotated[int, Field(ge=0)] | None = None
    last_event: Annotated[int, Field(ge=-1)] | None = None


class ActionMessage(_Message):
    """Play one action: ``action`` as ``[seat, verb, tile?, "declare"?, [hidden]?]`` (the
    form of :meth:`kawuxing.engine.Action.to_json`), ``version`` the room version of the view
    it answers, ``id`` chosen by the client (unique per seat) to detect duplicates."""

    type: Literal["action"]
    id: Annotated[str, Field(min_length=1, max_length=64)]
    version: Annotated[int, Field(ge=0)]
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
    hand: Annotated[int, Field(ge=0)]
    value: Any


class Ping(_Message):
    """Keep-alive; answered by ``pong`` with the same ``t``."""

    type: Literal["ping"]
    t: Annotated[str, Field(max_length=64)] | int | float | None = None


ClientMessage = Annotated[Union[Hello, ActionMessage, Ready, Auto, Sync, Entropy, Ping],
                          Field(discriminator="type")]
CLIENT_TYPES = ("hello", "action", "ready", "auto", "sync", "entropy", "ping")
_adapter: TypeAdapter = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A client message that cannot be used: ``code`` (``malformed``, ``unknown_type``,
    ``too_large``, ``binary``) and a human-readable ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_client(text: str, max_bytes: int) -> BaseModel:
    """One client text frame as a message model. Raises :class:`ProtocolError` for a frame
    over ``max_bytes`` (UTF-8), invalid JSON, a non-object, an unknown ``type`` or fields that
    do not fit the type."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ProtocolError("too_large", f"messages are at most {max_bytes} bytes")
    try:
        raw = json.loads(text)
    except ValueError as exc:
        raise ProtocolError("malformed", f"not JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise ProtocolError("malformed", "a message is a JSON object with a 'type'")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}; types: "
                                            f"{', '.join(CLIENT_TYPES)}")
    try:
        return _adapter.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or kind
        raise ProtocolError("malformed", f"{kind}: {where}: {first['msg']}") from None


# --- server messages -----------------------------------------------------------------------

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


def encode(message: dict) -> str:
    """A server message as one compact JSON text frame."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
