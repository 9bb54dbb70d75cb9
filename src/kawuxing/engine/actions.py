"""Actions a seat can take, and the error for a refused one (RULES.md R4-R8, R11)."""

from __future__ import annotations

from typing import NamedTuple

from ..tiles import tile_str

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
        parts = [f"seat {self.seat}", self.verb]
        if self.tile is not None:
            parts.append(tile_str(self.tile))
        if self.declare:
            parts.append("亮倒")
        if self.hidden:
            parts.append("hiding " + " ".join(tile_str(t) for t in self.hidden))
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


class IllegalAction(ValueError):
    """An action the rules refuse at this moment. ``rule`` names the RULES.md rule; the state
    of the hand is exactly as it was before the action was offered."""

    def __init__(self, action: Action, reason: str, rule: str) -> None:
        super().__init__(f"{action}: {reason} ({rule})")
        self.action = action
        self.reason = reason
        self.rule = rule
