"""The lines of the bot protocol (docs/bot-protocol.md), built from what one seat may see.

Every message a bot receives is made here from a seat's own filtered events
(:func:`kawuxing.engine.views.events_for_seat`) and its view
(:func:`kawuxing.engine.views.seat_view`), so what a bot is told is what a player at that seat
is told (R13): the arena (:mod:`.seat`) and the bridge to the game server (:mod:`.bridge`) both
send these, from the engine's views or from the server's messages, which carry the same ones.

An action is written as a small object of the :class:`~kawuxing.engine.actions.Action` fields
(:func:`action_object`), generically: each field but ``seat`` whose value is not its default,
tile kinds as MPSZ strings (fields of :data:`TILE_FIELDS`), tuples as lists, named tuples
(such as a face-down group) as objects of their fields. A bot answers a
``request`` with one of its ``legal`` objects sent back as is, or ``{"index": i}``
(:func:`read_reply`); nothing is read field by field, so a new field of ``Action`` passes
through unchanged.
"""

from __future__ import annotations

import json

from ..engine.actions import Action
from ..tiles import tile_str

PROTOCOL = "kawuxing-bot"
VERSION = 1
TILE_FIELDS = frozenset({"tile", "hidden"})  # Action fields holding tile kinds (R4.1, R8.6)
MAX_LINE = 200  # characters of a bad reply quoted in an error


class ReplyError(ValueError):
    """A bot's answer that is not one of the legal actions of its request: ``reason`` says
    what was wrong (not JSON, not an object, an index out of range, an action not offered)."""


def hello() -> dict:
    """The first line to a bot: ``{"type": "hello", "protocol": "kawuxing-bot", "version": 1}``
    (no answer)."""
    return {"type": "hello", "protocol": PROTOCOL, "version": VERSION}


def start_hand(seat: int, number: int, rules: dict, totals: list[int]) -> dict:
    """A hand begins for the bot at ``seat`` (0-2): ``hand`` its number in the session
    (0-based), ``rules`` the rule options (:meth:`RuleSet.to_dict`), ``totals`` the standing
    before it (base units, R12.1). The hand's ``deal`` event follows (no answer)."""
    return {"type": "start_hand", "seat": seat, "hand": number, "rules": rules,
            "totals": list(totals)}


def request(request_id: int, view: dict, legal: list[Action]) -> dict:
    """Ask for one action: ``id`` (counts up from 1 in a session), ``phase`` of the hand
    (``piao``/``turn``/``claim``/``rob``), ``legal`` (:func:`action_object` of each legal
    action, in the engine's order) and ``view`` (the seat's :func:`seat_view`). The bot
    answers one line (:func:`read_reply`)."""
    return {"type": "request", "id": request_id, "phase": view["phase"],
            "legal": [action_object(a) for a in legal], "view": view}


def end_hand(view: dict, totals: list[int]) -> dict:
    """The settlement, once the seat's view shows the hand over: ``result`` (its
    :func:`~kawuxing.engine.views.hand_result`: winners, deltas, values, every transfer) and
    ``totals`` after the hand (base units; no answer)."""
    return {"type": "end_hand", "result": view["result"], "totals": list(totals)}


def bye(totals: list[int] | None = None) -> dict:
    """The session is over; ``totals``: the match standing at its end (base units), when the
    session was a match of the game server. The bot's stdin closes next."""
    return {"type": "bye"} if totals is None else {"type": "bye", "totals": list(totals)}


def error(message: str) -> dict:
    """Why the session ends early (the bot's answer was refused or came too late)."""
    return {"type": "error", "message": message}


def action_object(action: Action) -> dict:
    """``action`` as the protocol writes it: ``{"verb": "discard", "tile": "5p"}``,
    ``{"verb": "discard", "tile": "9s", "declare": true, "hidden": ["1p"]}`` (亮倒 keeping 1p
    face down, R8.1, R8.6), ``{"verb": "piao", "piao": 2}`` (R11.1), ``{"verb": "pass"}``.
    Every field but ``seat`` whose value differs from its default, in field order."""
    defaults = Action._field_defaults
    out = {}
    for name, value in zip(Action._fields, action):
        if name == "seat" or (name in defaults and value == defaults[name]):
            continue
        out[name] = _json_value(value, name)
    return out


def _json_value(value: object, name: str) -> object:
    """``value`` of the field ``name`` as JSON: a named tuple (a face-down group) as an object
    of its fields, a tuple as a list, a tile kind of :data:`TILE_FIELDS` as MPSZ."""
    if hasattr(value, "_fields"):
        return {k: _json_value(v, k) for k, v in zip(value._fields, value)}
    if isinstance(value, (tuple, list)):
        return [_json_value(v, name) for v in value]
    if name in TILE_FIELDS and type(value) is int:
        return tile_str(value)
    return value


def read_reply(line: str, legal: list[Action], request_id: int | None = None) -> Action:
    """The action a bot's answer ``line`` names among ``legal`` (the request's actions): the
    object ``{"index": i}`` (0-based) or one of the request's ``legal`` objects as sent (key
    order free), either with an optional ``"id"``: the request's ``request_id``, checked when
    present. Raises :class:`ReplyError` saying what was wrong; nothing is applied."""
    shown = line if len(line) <= MAX_LINE else line[:MAX_LINE] + "…"
    try:
        reply = json.loads(line)
    except ValueError:
        raise ReplyError(f"the answer is not JSON: {shown!r}") from None
    if not isinstance(reply, dict):
        raise ReplyError(f"the answer is not a JSON object: {shown!r}")
    if "id" in reply:
        answered = reply.pop("id")
        if request_id is not None and (type(answered) is not int or answered != request_id):
            raise ReplyError(f"the answer is for request id {answered!r}, not {request_id}: "
                             f"{shown!r}")
    if set(reply) == {"index"}:
        index = reply["index"]
        if type(index) is not int or not 0 <= index < len(legal):
            raise ReplyError(f"index {index!r} is not 0-{len(legal) - 1} "
                             f"({len(legal)} legal actions): {shown!r}")
        return legal[index]
    for action in legal:
        if action_object(action) == reply:
            return action
    offered = dumps([action_object(a) for a in legal])
    if len(offered) > 4 * MAX_LINE:
        offered = offered[:4 * MAX_LINE] + "…"
    raise ReplyError(f"{shown} is not one of the legal actions {offered}")


def dumps(message: object) -> str:
    """One message as one line of compact JSON (UTF-8 text, no newline inside)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
