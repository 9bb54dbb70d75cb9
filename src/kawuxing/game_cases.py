"""Game cases of ``../shared/CASES.md``: play a scripted hand through the engine.

Each action is ``[seat, verb]``, ``[seat, verb, tile]`` or ``[seat, "discard", tile,
"declare"]``. Draws happen by themselves; when the next action does not answer the discard or
kong on the table, every seat still holding an option on it passes. Every discard opens a
claim window for both other seats (R13.2): a seat with no option may pass (a no-op), and is
passed for when the actions end or one is refused.
"""

from __future__ import annotations

from .engine import CLAIM, ROB, Action, Hand, IllegalAction
from .engine.actions import KONG, PASS, PUNG, WIN, action_from_json
from .rules import RuleSet
from .tiles import parse_tiles

_ANSWERS = (WIN, PUNG, KONG, PASS)
_GAME_KEYS = {"id", "dealer", "hands", "draws", "actions", "rules", "piao", "expect"}


def run_game_case(case: dict) -> dict:
    """Play a game case; the outcome keys of CASES.md (end, rejected, winners, patterns,
    multiplier, deltas, next_dealer)."""
    unknown = sorted(set(case) - _GAME_KEYS)
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} in game case")
    hands = case.get("hands")
    if not isinstance(hands, list) or len(hands) != 3:
        raise ValueError("hands: three MPSZ strings")
    rules = RuleSet.from_dict(case.get("rules"))
    hand = Hand(rules, case.get("dealer", 0), [parse_tiles(h) for h in hands],
                parse_tiles(case.get("draws", "")), case.get("piao"))
    actions = [action_from_json(a, f"actions[{i}]") for i, a in enumerate(case.get("actions", []))]
    rejected = None
    for index, action in enumerate(actions):
        if hand.phase in (CLAIM, ROB) and not (
                action.verb in _ANSWERS and action.seat in hand.to_act()):
            for seat in hand.to_act():
                hand.apply(Action(seat, PASS))
        try:
            hand.apply(action)
        except IllegalAction:
            rejected = index
            break
    hand.pass_idle()  # R13.2: seats with no option on the tile left on the table pass
    out: dict = {"end": hand.result or "open", "rejected": rejected, "deltas": hand.deltas}
    if hand.ended:
        out["next_dealer"] = hand.next_dealer
        out["winners"] = hand.winners
        out["patterns"] = {str(w): v.pattern_names for w, v in hand.values.items()}
        out["multiplier"] = {str(w): v.multiplier for w, v in hand.values.items()}
    return out
