"""The patterns of a rule set, each with an example hand scored under it (the rules page of a
room: ``POST /api/rules/patterns``, issue 12).

:func:`pattern_table` scores each :data:`kawuxing.patterns.EXAMPLES` hand with
:func:`kawuxing.scoring.score_hand` under the room's :class:`~kawuxing.rules.RuleSet`, so that
what the page says a pattern is worth (×, cap, whether it scores at all) is what a settlement
of that hand would say: the client derives none of it.

Every R9.1 pattern is listed (one that does not score under these rules says so: 抢杠胡 with
R7.4 off, 海底捞月 under R9.8 ``half``); the town patterns (R9.9 见四乘二, R9.15 三元七对) only
where the rules enable them.
"""

from __future__ import annotations

from ..melds import Meld
from ..patterns import EXAMPLES, PATTERNS, Pattern
from ..rules import RuleSet
from . import ROBBING_KONG, SELF_DRAW, HandValue, WinningHand, score_hand
from ..tiles import SUIT_BASE, is_dragon, parse_tiles, tile_rank, tile_str, tile_suit

EXAMPLE_SUITS = ("p", "s")  # the suits the examples are written in (the default R1.1 pair)

__all__ = ["EXAMPLE_SUITS", "example_hand", "pattern_table"]


def _in_suits(kind: int, suits: tuple[str, str]) -> int:
    """``kind`` of an example (suits p, s) moved to ``suits``, in order; dragons unchanged."""
    if is_dragon(kind):
        return kind
    return SUIT_BASE[suits[EXAMPLE_SUITS.index(tile_suit(kind))]] + tile_rank(kind) - 1


def example_hand(key: str, rules: RuleSet) -> WinningHand:
    """The example hand of pattern ``key`` (:data:`~kawuxing.patterns.EXAMPLES`) as a
    :class:`~kawuxing.scoring.WinningHand` in the suits of ``rules`` (R1.1: 筒 → the first
    suit in play, 条 → the second). Raises ``KeyError`` for a pattern without an example."""
    ex = EXAMPLES[key]
    def move(k: int) -> int:
        return _in_suits(k, rules.suits)

    melds = tuple(Meld(m.kind, move(m.tile)) for m in map(Meld.parse, ex.melds))
    return WinningHand(concealed=tuple(map(move, parse_tiles(ex.concealed))),
                       win_tile=move(parse_tiles(ex.win)[0]), win_by=ex.win_by, melds=melds,
                       after_kong=ex.after_kong, last_tile=ex.last_tile, declared=ex.declared)


def _refusal(value: HandValue, rules: RuleSet) -> dict | None:
    """Why the example may not be won here, as a code the client translates: ``robbing_off``
    (R7.4), ``min_self_draw`` (R7.7) or ``min_discard`` (R7.3) with the ``minimum``."""
    if value.legal:
        return None
    if value.win_by == ROBBING_KONG and not rules.robbing_kong:
        return {"code": "robbing_off", "rule": "R7.4"}
    if value.win_by == SELF_DRAW:
        return {"code": "min_self_draw", "minimum": rules.min_multiplier_self_draw, "rule": "R7.7"}
    return {"code": "min_discard", "minimum": rules.min_multiplier_discard_win, "rule": "R7.3"}


def _row(pat: Pattern, rules: RuleSet) -> dict:
    hand = example_hand(pat.key, rules)
    value = score_hand(hand, rules)
    rows = value.pattern_rows
    mine = [p.multiplier for p in rows if p.pattern.key == pat.key]
    return {
        "key": pat.key, "name": pat.name, "gloss": pat.gloss, "rule": pat.rule,
        "town": pat.rule.split()[0] != "R9.1",
        "scored": bool(mine),
        # its × here (listed twice, e.g. two fours of R9.9: the first); None: not scored here
        "multiplier": mine[0] if mine else None,
        "example": {
            "concealed": [tile_str(k) for k in hand.concealed],
            "melds": [{"kind": m.kind, "tile": tile_str(m.tile)} for m in hand.melds],
            "win_tile": tile_str(hand.win_tile), "win_by": hand.win_by,
            "after_kong": hand.after_kong, "last_tile": hand.last_tile,
            "declared": hand.declared,
        },
        "value": {
            "patterns": [{"key": p.pattern.key, "name": p.name, "multiplier": p.multiplier}
                         for p in rows],
            "raw_multiplier": value.raw_multiplier, "multiplier": value.multiplier,
            "cap": value.cap, "legal": value.legal, "refusal": _refusal(value, rules),
        },
    }


def pattern_table(rules: RuleSet) -> dict:
    """The patterns under ``rules`` as JSON::

        {"cap": int | None, "cap_exceptions": {NAME: int}, "suits": ["p", "s"],
         "patterns": [{"key", "name", "gloss", "rule", "town": bool,
                       "scored": bool, "multiplier": int | None,
                       "example": {"concealed": ["1p", ...], "melds": [{"kind", "tile"}],
                                   "win_tile", "win_by", "after_kong", "last_tile",
                                   "declared"},
                       "value": {"patterns": [{"key", "name", "multiplier"}],
                                 "raw_multiplier", "multiplier", "cap", "legal",
                                 "refusal": None | {"code", "minimum"?, "rule"}}}, ...]}

    in :data:`~kawuxing.patterns.PATTERNS` order: every R9.1 pattern, and a town pattern
    (``town``: its rule is not R9.1) only when its example scores it under ``rules``.
    ``multiplier`` is the pattern's × in its example; ``value`` is the whole example hand
    (R9.1 product, R9.5/R9.6 cap, R7.3/R7.4/R7.7 legality)."""
    rows = [_row(p, rules) for p in PATTERNS]
    return {
        "cap": rules.cap, "cap_exceptions": dict(rules.cap_exceptions),
        "suits": list(rules.suits),
        "patterns": [r for r in rows if r["scored"] or not r["town"]],
    }

