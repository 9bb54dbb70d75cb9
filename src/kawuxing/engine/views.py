"""What each seat may see (RULES.md R13): per-seat views and per-seat events.

These are the only things meant to leave the engine for a player. A view never holds another
player's concealed tiles (unless 亮倒 showed them, R8.1, or the hand is over), the tile of
another's concealed kong (unless option ``concealed_kong_visible``, R6.1), who holds an option
on a discard, or the order of the wall.
"""

from __future__ import annotations

from ..melds import CONCEALED_KONG
from ..tiles import format_tiles, tile_str
from .hand import Hand
from .observation import observe
from .state import ENDED


def seat_view(hand: Hand, seat: int) -> dict:
    """The table as ``seat`` sees it now: a JSON-ready rendering of :func:`observe` (R13).

    Keys: ``seat``, ``dealer``, ``phase``, ``turn`` (seat in turn), ``wall`` (tiles left),
    ``hand`` (own concealed tiles, MPSZ), ``drawn``, ``seats`` (public part of each seat:
    melds, discards, ``claimed``, ``concealed_count``, ``declared``, ``piao``, and for a
    declared seat ``revealed``/``hidden_triplets``/``waits``), ``table`` (the discard or kong
    others may take), ``legal`` (own actions as JSON lists), ``deltas`` (score changes so
    far), ``result`` once the hand is over.
    """
    obs = observe(hand, seat)
    ended = obs.phase == ENDED
    seats = []
    for i in range(3):
        entry = {"seat": i,
                 "melds": [{"kind": k, "tile": None if t is None else tile_str(t)}
                           for k, t in obs.melds[i]],
                 "discards": [tile_str(t) for t in obs.discards[i]],
                 "claimed": list(obs.claimed[i]), "concealed_count": obs.concealed_count[i],
                 "declared": obs.declared[i], "piao": obs.piao[i]}
        if obs.declared[i]:
            entry["hidden_triplets"] = obs.hidden_triplets[i]
            entry["waits"] = [tile_str(w) for w in obs.waits[i]]
        shown = obs.concealed if i == seat and ended else obs.revealed[i]
        if shown is not None:
            entry["revealed"] = _mpsz(shown)
        seats.append(entry)
    table = None
    if obs.table is not None:
        table = {"seat": obs.table[0], "tile": tile_str(obs.table[1]), "robbing": obs.table[2]}
    view = {"seat": seat, "dealer": obs.dealer, "phase": obs.phase, "turn": obs.turn,
            "wall": obs.wall_left, "hand": _mpsz(obs.concealed),
            "drawn": None if obs.drawn is None else tile_str(obs.drawn),
            "seats": seats, "table": table,
            "legal": [a.to_json() for a in hand.legal_actions(seat)],
            "deltas": list(obs.deltas)}
    if ended:
        view["result"] = hand_result(hand)
    return view


def _mpsz(counts) -> str:
    return format_tiles(k for k, c in enumerate(counts) for _ in range(c))


def hand_result(hand: Hand) -> dict:
    """The settlement of an ended hand: winners, each value explained, every transfer."""
    return {"result": hand.result, "winners": list(hand.winners), "next_dealer": hand.next_dealer,
            "deltas": list(hand.deltas),
            "values": {str(w): value_json(v) for w, v in hand.values.items()},
            "transfers": [dict(t.__dict__) for t in hand.transfers]}


def value_json(value) -> dict:
    """A :class:`~kawuxing.scoring.HandValue` as JSON: reading, patterns with ×, rule, cap."""
    reading = value.reading
    if reading is None:
        shape = None
    elif reading.seven_pairs:
        shape = {"seven_pairs": [tile_str(p) for p in reading.pairs]}
    else:
        shape = {"sets": [[s.kind, tile_str(s.tile)] for s in reading.sets],
                 "pair": tile_str(reading.pairs[0])}
    return {"legal": value.legal, "by": value.win_by, "reading": shape,
            "patterns": [{"name": p.name, "gloss": p.pattern.gloss, "multiplier": p.multiplier,
                          "rule": p.pattern.rule, "note": p.note} for p in value.patterns],
            "raw_multiplier": value.raw_multiplier, "multiplier": value.multiplier,
            "cap": value.cap, "bao_hu": value.bao_hu}


def event_for_seat(event: dict, seat: int, hand: Hand) -> dict:
    """``event`` as ``seat`` may see it: others' draws and deal without tiles, another's
    concealed kong without its tile (unless ``concealed_kong_visible``)."""
    kind = event["type"]
    if kind == "deal":
        return {"type": "deal", "dealer": event["dealer"], "hand": event["hands"][seat],
                "wall": event["wall"]}
    if kind == "draw" and event["seat"] != seat:
        return {k: v for k, v in event.items() if k != "tile"}
    if (kind == "kong" and event["kind"] == CONCEALED_KONG and event["seat"] != seat
            and not hand.rules.concealed_kong_visible):
        return {k: v for k, v in event.items() if k != "tile"}
    return event


def events_for_seat(hand: Hand, seat: int, since: int = 0) -> list[dict]:
    """Every event from index ``since`` on, filtered for ``seat``, each with its ``n``."""
    return [{"n": n, **event_for_seat(e, seat, hand)}
            for n, e in enumerate(hand.events[since:], start=since)]
