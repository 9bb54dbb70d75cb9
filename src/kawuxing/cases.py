"""Conformance cases (``../shared/CASES.md``): run one case dict, return its outcome dict.

Hand cases score one finished hand (R7-R9); game cases play a scripted hand through the engine.
Malformed input gives ``{"id": ..., "error": message}`` and never stops a run.
"""

from __future__ import annotations

from .melds import Meld
from .rules import RuleSet
from .scoring import WinningHand, score_hand
from .tiles import parse_tile, parse_tiles

_HAND_KEYS = {"id", "concealed", "melds", "win_tile", "win_by", "after_kong", "last_tile",
              "declared", "discarder_declared", "rules", "expect"}


def run_case(case: dict) -> dict:
    """The outcome of one case, keyed as CASES.md says; ``error`` for malformed input."""
    case_id = case.get("id") if isinstance(case, dict) else None
    try:
        if not isinstance(case, dict):
            raise ValueError("a case must be a JSON object")
        if "hands" in case or "actions" in case:
            from .game_cases import run_game_case  # the engine layer, imported only when needed
            return {"id": case_id, **run_game_case(case)}
        return {"id": case_id, **run_hand_case(case)}
    except Exception as err:  # noqa: BLE001 - every failure of one case is reported, not raised
        return {"id": case_id, "error": f"{type(err).__name__}: {err}"}


def hand_from_case(case: dict) -> tuple[WinningHand, RuleSet]:
    """The :class:`WinningHand` and :class:`RuleSet` a hand case describes.

    Raises ``ValueError`` (or a subclass) naming the bad key.
    """
    unknown = sorted(set(case) - _HAND_KEYS)
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} in hand case")
    for key in ("concealed", "win_tile", "win_by"):
        if key not in case:
            raise ValueError(f"hand case needs {key!r}")
    melds = case.get("melds") or []
    if not isinstance(melds, list):
        raise ValueError("melds must be a list of {kind, tile}")
    parsed = []
    for i, m in enumerate(melds):
        if not isinstance(m, dict) or set(m) != {"kind", "tile"}:
            raise ValueError(f"melds[{i}] must be an object with kind and tile")
        parsed.append(Meld(m["kind"], parse_tile(m["tile"])))
    flags = {}
    for key in ("after_kong", "last_tile", "declared", "discarder_declared"):
        value = case.get(key, False)
        if not isinstance(value, bool):
            raise ValueError(f"{key} must be true or false")
        flags[key] = value
    hand = WinningHand(tuple(parse_tiles(case["concealed"])), parse_tile(case["win_tile"]),
                       case["win_by"], tuple(parsed), **flags)
    return hand, RuleSet.from_dict(case.get("rules"))


def run_hand_case(case: dict) -> dict:
    """``legal``, ``multiplier``, ``patterns`` and ``paid`` of a hand case (CASES.md)."""
    hand, rules = hand_from_case(case)
    value = score_hand(hand, rules)
    return {"legal": value.legal, "multiplier": value.multiplier,
            "patterns": value.pattern_names, "paid": value.paid,
            **({"reason": value.reason} if not value.legal else {})}
