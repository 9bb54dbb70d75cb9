"""What the research environments share (numpy only): the rule set from a name, the checks
of an action index and of a wall, the seat that decides next, and the error of an illegal
action (RULES.md R3.1, R4-R8, R13.2)."""

from __future__ import annotations

import numbers

import numpy as np

from ..engine.hand import Hand
from ..engine.state import CLAIM, ENDED, PIAO_PHASE, ROB
from ..rules import RuleSet, RulesError
from ..tiles import TileError, parse_tiles


class IllegalEnvAction(ValueError):
    """An action the current agent's ``action_mask`` does not allow (R4-R8), or one that is
    not an integer index."""


def ruleset(rules: object) -> RuleSet:
    """``rules`` as a :class:`RuleSet`: None (the ``standard`` preset), a preset name
    (:meth:`RuleSet.preset`, e.g. ``"capped"``) or a RuleSet. Raises ``ValueError`` for
    anything else or an unknown preset."""
    if rules is None:
        return RuleSet.preset()
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        try:
            return RuleSet.preset(rules)
        except RulesError as exc:
            raise ValueError(f"rules: {exc}") from None
    raise ValueError(f"rules: a RuleSet or a preset name such as 'capped', got "
                     f"{type(rules).__name__} {rules!r}")


def is_index(action: object) -> bool:
    """Whether ``action`` is a Python or numpy integer (``bool`` is not): the only actions
    the envs take; a float such as ``11.9`` is refused, not truncated."""
    return isinstance(action, (numbers.Integral, np.integer)) and not isinstance(
        action, (bool, np.bool_))


def wall_kinds(wall: object) -> list[int]:
    """The ``wall`` option of :meth:`KawuxingAEC.reset` as kinds: 84 integer kinds (0-29,
    :mod:`kawuxing.tiles`: 0-8 万, 9-17 筒, 18-26 条, 27-29 白发中; the standard set uses
    9-29) or the same as tile strings (one string ``"1p1p…"`` or a list of ``"1p"``, read by
    :func:`kawuxing.tiles.parse_tiles`). Raises ``ValueError`` saying what is expected; the
    engine then checks they are the rule set's 84 tiles (R1.1)."""
    try:
        if isinstance(wall, str):
            return parse_tiles(wall)
        wall = list(wall)
        if wall and all(isinstance(t, str) for t in wall):
            return parse_tiles("".join(wall))
    except TileError as exc:
        raise ValueError(f"wall: {exc}") from None
    except TypeError:
        raise ValueError(f"wall: 84 tile kinds (integers, 9-29 in the standard set) or tile "
                         f"strings, got {type(wall).__name__}") from None
    if not all(is_index(t) and 0 <= t < 30 for t in wall):
        bad = next(t for t in wall if not (is_index(t) and 0 <= t < 30))
        raise ValueError(f"wall: 84 tile kinds, integers 0-29 (9-29 in the standard set: 筒, "
                         f"条, 白发中), or tile strings such as '1p'; got {bad!r}")
    return [int(t) for t in wall]


def next_seat(hand: Hand) -> int | None:
    """The seat that decides next, or None once the hand has ended: the seat in turn; in a
    claim or rob window (R13.2) the first seat after the one whose tile is on the table that
    has not answered; in the 漂 phase the lowest seat that has not chosen."""
    phase = hand.phase
    if phase == ENDED:
        return None
    if phase in (CLAIM, ROB):
        pending = hand.pending
        for i in (1, 2):
            seat = (pending.seat + i) % 3
            if seat in pending.options and seat not in pending.answers:
                return seat
        raise AssertionError("a claim window with nobody to answer")
    if phase == PIAO_PHASE:
        return hand.to_act()[0]
    return hand.current
