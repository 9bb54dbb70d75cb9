"""Actions a seat can take, and the error for a refused one (RULES.md R4-R8, R11)."""

from __future__ import annotations

from typing import NamedTuple

from ..tiles import NUM_KINDS, parse_tile, tile_str

PIAO = "piao"  # R11.1 choose a 漂 before the hand
DISCARD = "discard"  # R4.1 (with declare=True: 亮倒, R8.1)
WIN = "win"  # R7: self-draw in one's turn, on the discard on the table, or robbing a kong
PUNG = "pung"  # R4.2
KONG = "kong"  # R6.3 直杠: exposed kong of the discard on the table
PASS = "pass"  # decline every option on the discard or kong on the table
CONCEALED_KONG = "concealed_kong"  # R6.1 暗杠
ADDED_KONG = "added_kong"  # R6.2 补杠
VERBS = (PIAO, DISCARD, WIN, PUNG, KONG, PASS, CONCEALED_KONG, ADDED_KONG)


class Action(NamedTuple):
    """One decision of one seat.

    - ``seat``: 0, 1 or 2; ``verb``: one of :data:`VERBS`.
    - ``tile``: the tile kind for ``discard``, ``concealed_kong`` and ``added_kong``; else None.
    - ``declare``: with ``discard``, declare 亮倒 (R8.1). ``hidden``: with a declaration under
      option ``declare_hide_triplets`` (R8.6), the kinds of concealed triplets kept face down.
    - ``piao``: with ``piao``, the chosen 漂 (R11.1).
    """

    seat: int
    verb: str
    tile: int | None = None
    declare: bool = False
    hidden: tuple[int, ...] = ()
    piao: int | None = None

    def __str__(self) -> str:
        parts = [f"seat {self.seat}", str(self.verb)]
        if self.tile is not None:
            parts.append(tile_str(self.tile) if _is_kind(self.tile) else repr(self.tile))
        if self.declare:
            parts.append("亮倒")
        if self.hidden:
            parts.append("hiding " + " ".join(tile_str(t) if _is_kind(t) else repr(t)
                                              for t in self.hidden))
        if self.piao is not None:
            parts.append(str(self.piao))
        return " ".join(parts)

    def to_json(self) -> list:
        """Compact JSON form, as in game records and CASES.md: ``[seat, verb, tile?, ...]``."""
        out: list = [self.seat, self.verb]
        if self.verb == PIAO:
            out.append(self.piao)
        elif self.tile is not None:
            out.append(tile_str(self.tile))
        if self.declare:
            out.append("declare")
            if self.hidden:
                out.append([tile_str(t) for t in self.hidden])
        return out


def _is_kind(tile: object) -> bool:
    return type(tile) is int and 0 <= tile < NUM_KINDS


def malformed(action: Action) -> str | None:
    """What is wrong with the fields of ``action`` (types, ranges), or None if well formed."""
    if type(action.seat) is not int or action.seat not in (0, 1, 2):
        return f"there is no seat {action.seat!r}"
    if action.verb not in VERBS:
        return f"unknown verb {action.verb!r}"
    if action.tile is not None and not _is_kind(action.tile):
        return f"{action.tile!r} is not a tile kind (0-29)"
    if action.tile is not None and action.verb in (WIN, PUNG, KONG, PASS, PIAO):
        return (f"{action.verb} names no tile (the tile on the table or the one drawn is "
                f"meant): write [{action.seat}, \"{action.verb}\"]")
    if action.tile is None and action.verb in (DISCARD, CONCEALED_KONG, ADDED_KONG):
        return f"{action.verb} needs the tile it is of"
    if type(action.declare) is not bool:
        return "declare must be true or false"
    if not isinstance(action.hidden, tuple) or (
            action.hidden and not all(_is_kind(t) for t in action.hidden)):
        return "hidden must be a tuple of tile kinds"
    if action.piao is not None and type(action.piao) is not int:
        return "piao must be a whole number"
    return None


def action_from_json(raw: object, where: str = "action") -> Action:
    """Read ``[seat, verb, tile?, "declare"?, [hidden tiles]?]`` (``[seat, "piao", n]``), the
    form of :meth:`Action.to_json`, CASES.md and game records. ``ValueError`` naming ``where``
    and the bad part. Legality is not checked here."""
    if not isinstance(raw, list) or not 2 <= len(raw) <= 5:
        raise ValueError(f"{where}: expected [seat, verb, tile?, 'declare'?], got {raw!r}")
    seat, verb = raw[0], raw[1]
    if type(seat) is not int or seat not in (0, 1, 2):
        raise ValueError(f"{where}: seat {seat!r} must be 0, 1 or 2")
    if verb not in VERBS:
        raise ValueError(f"{where}: unknown verb {verb!r}; verbs: {', '.join(VERBS)}")
    if verb == PIAO:
        if len(raw) != 3 or isinstance(raw[2], bool) or not isinstance(raw[2], int):
            raise ValueError(f"{where}: write [seat, 'piao', amount]")
        return Action(seat, verb, piao=raw[2])
    if len(raw) > 2 and not isinstance(raw[2], str):
        raise ValueError(f"{where}: tile {raw[2]!r} must be a string such as '5p'")
    tile = parse_tile(raw[2]) if len(raw) > 2 else None
    declare, hidden = False, ()
    if len(raw) > 3:
        if raw[3] != "declare":
            raise ValueError(f"{where}: the fourth item can only be 'declare', got {raw[3]!r}")
        declare = True
    if len(raw) > 4:
        if not isinstance(raw[4], list) or not all(isinstance(t, str) for t in raw[4]):
            raise ValueError(f"{where}: hidden triplets must be a list of tiles")
        hidden = tuple(sorted(parse_tile(t) for t in raw[4]))
    return Action(seat, verb, tile, declare, hidden)


class IllegalAction(ValueError):
    """An action the rules refuse at this moment. ``rule`` names the RULES.md rule; the state
    of the hand is exactly as it was before the action was offered. ``where``: where the
    action came from, put first in the message (a record's ``actions[12]``)."""

    def __init__(self, action: Action, reason: str, rule: str, where: str | None = None
                 ) -> None:
        super().__init__((f"{where}: " if where else "") + f"{action}: {reason} ({rule})")
        self.action = action
        self.reason = reason
        self.rule = rule
        self.where = where
