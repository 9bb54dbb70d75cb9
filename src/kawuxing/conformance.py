"""Conformance cases (``../shared/CASES.md``): run one case dict, return its outcome dict.

Hand cases score one finished hand (R7-R9); game cases play a scripted hand through the engine.
Malformed input gives ``{"id": ..., "error": message}`` and never stops a run.

In a game case each action is ``[seat, verb]``, ``[seat, verb, tile]`` or ``[seat, "discard",
tile, "declare"]``. Draws happen by themselves; when the next action does not answer the
discard or kong on the table, every seat still holding an option on it passes. Every discard
opens a claim window for both other seats (R13.2): a seat with no option may pass (a no-op),
and is passed for when the actions end or one is refused. A ``win`` answers the tile on the
table only when its seat holds a win option on it; otherwise it is that seat's self-draw in
its turn, after the window closes and the draws that come first.
"""

from __future__ import annotations

from .engine import CLAIM, ROB, Action, Hand, IllegalAction
from .engine.actions import KONG, PASS, PUNG, WIN, action_from_json
from .melds import Meld
from .rules import RuleSet
from .scoring import WinningHand, score_hand
from .tiles import parse_tile, parse_tiles

_HAND_KEYS = {"id", "concealed", "melds", "win_tile", "win_by", "after_kong", "last_tile",
              "declared", "discarder_declared", "rules", "expect"}
_GAME_KEYS = {"id", "dealer", "hands", "draws", "actions", "rules", "piao", "expect"}
_ANSWERS = (WIN, PUNG, KONG, PASS)


def run_case(case: dict) -> dict:
    """The outcome of one case, keyed as CASES.md says; ``error`` for malformed input."""
    case_id = case.get("id") if isinstance(case, dict) else None
    try:
        if not isinstance(case, dict):
            raise ValueError("a case must be a JSON object")
        if "hands" in case or "actions" in case:
            return {"id": case_id, **run_game_case(case)}
        return {"id": case_id, **run_hand_case(case)}
    except ValueError as err:  # malformed input (TileError, IllegalAction …): its message
        return {"id": case_id, "error": str(err)}
    except Exception as err:  # noqa: BLE001 - every failure of one case is reported, not raised
        return {"id": case_id, "error": f"{type(err).__name__}: {err}"}  # not input's fault


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


def answers_table(hand: Hand, action: Action) -> bool:
    """Whether ``action`` answers the discard or added kong on the table (CASES.md): a
    ``pung``, ``kong`` or ``pass`` by a seat still to answer it, or a ``win`` by one holding a
    win option on it (R7.5, R13.2: the window lists seats with no option too); a ``win`` by
    any other seat is its self-draw, played once the window has closed."""
    if action.verb not in _ANSWERS or action.seat not in hand.to_act():
        return False
    return action.verb != WIN or WIN in hand.pending.options.get(action.seat, ())


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
        if hand.phase in (CLAIM, ROB) and not answers_table(hand, action):
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
