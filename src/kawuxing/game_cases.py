"""Game cases of ``../shared/CASES.md``: play a scripted hand through the engine.

Each action is ``[seat, verb]``, ``[seat, verb, tile]`` or ``[seat, "discard", tile,
"declare"]``. Draws happen by themselves; when the next action does not answer the discard or
kong on the table, every seat still holding an option on it passes.
"""

from __future__ import annotations

from .engine import CLAIM, ROB, Action, Hand, IllegalAction
from .engine.actions import KONG, PASS, PUNG, VERBS, WIN
from .rules import RuleSet
from .tiles import parse_tile, parse_tiles

_ANSWERS = (WIN, PUNG, KONG, PASS)
_GAME_KEYS = {"id", "dealer", "hands", "draws", "actions", "rules", "piao", "expect"}


def parse_action(raw: object, index: int) -> Action:
    """One scripted action as an :class:`Action`; ``ValueError`` naming ``actions[index]``."""
    where = f"actions[{index}]"
    if not isinstance(raw, list) or len(raw) < 2 or len(raw) > 4:
        raise ValueError(f"{where}: expected [seat, verb, tile?, 'declare'?], got {raw!r}")
    seat, verb = raw[0], raw[1]
    if not isinstance(seat, int) or seat not in (0, 1, 2):
        raise ValueError(f"{where}: seat {seat!r} must be 0, 1 or 2")
    if verb not in VERBS:
        raise ValueError(f"{where}: unknown verb {verb!r}; verbs: {', '.join(VERBS)}")
    if verb == "piao":
        return Action(seat, verb, piao=raw[2] if len(raw) > 2 else None)
    tile = parse_tile(raw[2]) if len(raw) > 2 else None
    declare = False
    if len(raw) > 3:
        if raw[3] != "declare":
            raise ValueError(f"{where}: the fourth item can only be 'declare', got {raw[3]!r}")
        declare = True
    return Action(seat, verb, tile, declare)


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
    actions = [parse_action(a, i) for i, a in enumerate(case.get("actions", []))]
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
    out: dict = {"end": hand.result or "open", "rejected": rejected, "deltas": hand.deltas}
    if hand.ended:
        out["next_dealer"] = hand.next_dealer
        out["winners"] = hand.winners
        out["patterns"] = {str(w): v.pattern_names for w, v in hand.values.items()}
        out["multiplier"] = {str(w): v.multiplier for w, v in hand.values.items()}
    return out
