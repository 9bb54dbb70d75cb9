"""The fixed action table of the research environments: one ``Discrete(NUM_ACTIONS)`` index per
kind of decision (RULES.md R4-R8, R11), the same for every rule set.

==========  ======================================================================  =========
index       action                                                                  rule
==========  ======================================================================  =========
0-29        discard tile kind ``k`` (``i``)                                         R4.1
30-59       discard ``k`` and declare 亮倒, every concealed triplet shown            R8.1
60-509      discard ``k``, 亮倒, keeping face down the triplets of bit mask ``m``    R8.6
            (1-15): index ``60 + 15 k + m - 1``
510         pung the discard on the table                                           R4.2
511         kong the discard on the table (直杠)                                     R6.3
512         win (self-draw, on the discard, or robbing the kong)                    R7
513         pass (the only legal action of a seat with no option, R13.2)             R4.3
514-543     concealed kong of kind ``k`` (暗杠)                                       R6.1
544-573     added kong of kind ``k`` (补杠)                                           R6.2
574-583     the ``i``-th 漂 of ``rules.piao_choices`` (at most 10 choices)            R11.1
==========  ======================================================================  =========

Kinds ``k`` are the 30 of :mod:`kawuxing.tiles` (0-8 万, 9-17 筒, 18-26 条, 27-29 白发中); the
ones not in play are never legal. The face-down bit mask ``m`` (R8.6) numbers the seat's own
concealed triplets *after the declaring discard* in ascending kind order (bit 0 the lowest); a
13-tile hand holds at most four, so four bits suffice. The mask is relative to the seat's own
hand, which the seat sees, so decoding needs only its concealed counts.

:func:`action_index` and :func:`index_action` are inverse on every legal action;
:func:`legal_indices` turns a seat's legal actions into the index -> action map behind its
``action_mask``. Nothing here decides legality (engine/legal.py does).
"""

from __future__ import annotations

from ..engine.actions import (ADDED_KONG, CONCEALED_KONG, DISCARD, KONG, PASS, PIAO, PUNG, WIN,
                              Action)
from ..rules import RuleSet
from ..tiles import NUM_KINDS

DISCARD_BASE = 0
DECLARE_BASE = DISCARD_BASE + NUM_KINDS  # 30
MAX_HIDDEN_TRIPLETS = 4  # concealed triplets a 13-tile hand can hold (R8.6)
HIDE_MASKS = (1 << MAX_HIDDEN_TRIPLETS) - 1  # 15 non-empty subsets
HIDE_BASE = DECLARE_BASE + NUM_KINDS  # 60
PUNG_INDEX = HIDE_BASE + NUM_KINDS * HIDE_MASKS  # 510
KONG_INDEX = PUNG_INDEX + 1
WIN_INDEX = PUNG_INDEX + 2
PASS_INDEX = PUNG_INDEX + 3
CONCEALED_KONG_BASE = PUNG_INDEX + 4  # 514
ADDED_KONG_BASE = CONCEALED_KONG_BASE + NUM_KINDS  # 544
MAX_PIAO_CHOICES = 10  # RuleSet.piao_choices holds at most 10 values (R11.1)
PIAO_BASE = ADDED_KONG_BASE + NUM_KINDS  # 574
NUM_ACTIONS = PIAO_BASE + MAX_PIAO_CHOICES  # 584

_ANSWERS = {PUNG: PUNG_INDEX, KONG: KONG_INDEX, WIN: WIN_INDEX, PASS: PASS_INDEX}
_BY_INDEX = {i: v for v, i in _ANSWERS.items()}


class UnmappedAction(ValueError):
    """A legal action of the engine with no index in the table (a bug of the table), or an
    index that names no action of this seat now."""


def triplets_after(concealed: list[int] | tuple[int, ...], tile: int) -> list[int]:
    """Kinds of which the hand ``concealed`` (counts vector, 30 ints) holds three or more
    after discarding one ``tile``, ascending: the bits of a face-down mask (R8.6)."""
    return [k for k in range(NUM_KINDS) if concealed[k] - (k == tile) >= 3]


def action_index(action: Action, concealed: list[int] | tuple[int, ...],
                 rules: RuleSet) -> int:
    """The table index of ``action`` taken by a seat holding ``concealed`` (its counts
    vector) under ``rules`` (for the 漂 position). Raises :class:`UnmappedAction` for an
    action the table cannot name (a fifth face-down triplet, a 漂 not among the choices,
    a field the table does not know)."""
    verb = action.verb
    if verb == DISCARD:
        tile = action.tile
        if not action.declare:
            if action.hidden:
                raise UnmappedAction(f"{action}: face-down triplets without 亮倒")
            return DISCARD_BASE + tile
        if not action.hidden:
            return DECLARE_BASE + tile
        bits = triplets_after(concealed, tile)
        mask = 0
        for kind in action.hidden:
            if kind not in bits:
                raise UnmappedAction(f"{action}: {kind} is not a concealed triplet")
            mask |= 1 << bits.index(kind)
        if mask > HIDE_MASKS or len(set(action.hidden)) != len(action.hidden):
            raise UnmappedAction(f"{action}: no index for these face-down triplets")
        return HIDE_BASE + HIDE_MASKS * tile + mask - 1
    if verb in _ANSWERS:
        return _ANSWERS[verb]
    if verb == CONCEALED_KONG:
        return CONCEALED_KONG_BASE + action.tile
    if verb == ADDED_KONG:
        return ADDED_KONG_BASE + action.tile
    if verb == PIAO:
        if action.piao not in rules.piao_choices:
            raise UnmappedAction(f"{action}: 漂 {action.piao} is not one of the choices")
        return PIAO_BASE + rules.piao_choices.index(action.piao)
    raise UnmappedAction(f"{action}: no index for verb {verb!r}")


def index_action(index: int, seat: int, concealed: list[int] | tuple[int, ...],
                 rules: RuleSet) -> Action:
    """The :class:`Action` that table ``index`` names for ``seat`` holding ``concealed``
    under ``rules`` (whether it is legal now is the engine's question). Raises
    :class:`UnmappedAction` for an index outside the table, a face-down mask naming a
    triplet the hand does not hold, or a 漂 position beyond the choices."""
    if not 0 <= index < NUM_ACTIONS:
        raise UnmappedAction(f"action {index}: the table has indices 0-{NUM_ACTIONS - 1}")
    if index < DECLARE_BASE:
        return Action(seat, DISCARD, index - DISCARD_BASE)
    if index < HIDE_BASE:
        return Action(seat, DISCARD, index - DECLARE_BASE, True)
    if index < PUNG_INDEX:
        tile, mask = divmod(index - HIDE_BASE, HIDE_MASKS)
        mask += 1
        bits = triplets_after(concealed, tile)
        if mask >> len(bits):
            raise UnmappedAction(f"action {index}: the hand holds {len(bits)} triplets")
        hidden = tuple(k for i, k in enumerate(bits) if mask >> i & 1)
        return Action(seat, DISCARD, tile, True, hidden)
    if index in _BY_INDEX:
        return Action(seat, _BY_INDEX[index])
    if index < ADDED_KONG_BASE:
        return Action(seat, CONCEALED_KONG, index - CONCEALED_KONG_BASE)
    if index < PIAO_BASE:
        return Action(seat, ADDED_KONG, index - ADDED_KONG_BASE)
    position = index - PIAO_BASE
    if position >= len(rules.piao_choices):
        raise UnmappedAction(f"action {index}: {len(rules.piao_choices)} 漂 choices")
    return Action(seat, PIAO, piao=rules.piao_choices[position])


def legal_indices(legal: list[Action], concealed: list[int] | tuple[int, ...],
                  rules: RuleSet) -> dict[int, Action]:
    """Index -> action for every action of ``legal`` (one seat's legal actions now), in the
    order given. Raises :class:`UnmappedAction` if one has no index or two share one."""
    out: dict[int, Action] = {}
    for action in legal:
        index = action_index(action, concealed, rules)
        if index in out:
            raise UnmappedAction(f"{action} and {out[index]} share index {index}")
        out[index] = action
    return out

