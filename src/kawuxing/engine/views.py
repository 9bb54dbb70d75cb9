"""What each seat may see (RULES.md R13): per-seat views and per-seat events.

These are the only things meant to leave the engine for a player. A view never holds another
player's concealed tiles (unless 亮倒 showed them, R8.1, or the hand is over), the tile of
another's concealed kong (unless option ``concealed_kong_visible``, R6.1), who holds an option
on a discard, or the order of the wall. A view also carries what a client would otherwise
compute with the rules (unseen counts, the waits of each 亮倒 discard, the ready waits), so
that clients draw views and derive nothing.

:func:`spectator_view` is what a spectator (旁观) sees: public information only.
:func:`table_view` and :func:`table_events` show the whole table (every hand face up): for
replays of an ended hand and the ``kawuxing replay`` command, never for a player in play.
:func:`running_totals` is the match standing sent with each view.
"""

from __future__ import annotations

from functools import lru_cache

from ..melds import MELD_CONCEALED_KONG
from ..tiles import COPIES, NUM_KINDS, format_counts, kinds_for_suits, tile_str
from . import events as ev
from .hand import Hand
from .legal import declare_waits, live_waits
from .observation import observe
from .state import ENDED


def seat_view(hand: Hand, seat: int) -> dict:
    """The table as ``seat`` sees it now: a JSON-ready rendering of :func:`observe` (R13).

    Keys: ``seat``, ``dealer``, ``phase``, ``turn`` (seat in turn), ``wall`` (tiles left),
    ``hand`` (own concealed tiles, MPSZ), ``drawn``, ``seats`` (public part of each seat:
    melds, discards, ``claimed``, ``concealed_count``, ``declared``, ``piao``, and for a
    declared seat ``revealed``/``hidden_tiles`` (how many face-down tiles, R8.6/R8.11)/
    ``waits``), ``table`` (the discard or kong others may take), ``legal`` (own actions as
    JSON lists), ``deltas`` (score changes so far), ``result`` once the hand is over; and what
    a client would otherwise compute:

    - ``unseen``: MPSZ code -> copies of that kind this seat cannot see (4 − ``visible``,
      R13.1), for the 21 kinds in play;
    - ``declare_waits``: for each tile the seat may discard with 亮倒 now, the waits it leaves
      (R8.1, :func:`legal.declare_waits`; R8.6 variants keep the same waits, under R8.12
      ``still_ready`` a variant may keep fewer), else ``{}``;
    - ``ready_waits``: the waits of the seat's own concealed hand while it holds 3n+1 tiles
      and has not declared (R8.1), else ``[]``.
    """
    obs = observe(hand, seat)
    ended = obs.phase == ENDED
    legal_now = hand.legal_actions(seat)
    view = _public(hand, obs)
    view.update(hand=format_counts(obs.concealed),
                drawn=None if obs.drawn is None else tile_str(obs.drawn),
                legal=[a.to_json() for a in legal_now],
                declare_waits=_declare_waits(hand, seat, legal_now),
                ready_waits=_ready_waits(hand, seat, ended))
    return view


def spectator_view(hand: Hand) -> dict:
    """The table as a spectator (旁观) sees it now: public information only (R13) — what every
    seat may see, :func:`observe` with seat None. The keys of :func:`table_view` (``seat``
    None, no ``hand``/``drawn``/``legal``/``declare_waits``/``ready_waits`` at the top), but
    each entry of ``seats`` is the seat as the other seats see it: ``revealed`` only after
    亮倒 (R8.1, less face-down triplets and the tile just drawn) or once the hand is over, no
    ``drawn``, no ``legal``; ``unseen``: copies of each kind no seat shows (R13.1)."""
    return _public(hand, observe(hand, None))


def _public(hand: Hand, obs) -> dict:
    """The part of a view built from ``obs`` alone (``obs.seat`` may be None, a spectator):
    ``seat``, ``dealer``, ``phase``, ``turn``, ``wall``, ``seats``, ``table``, ``deltas``,
    ``unseen``, ``dice`` and ``base_factor`` under R17.1 (when there are dice, when the base
    is doubled), and ``result`` once the hand is over."""
    seat = obs.seat
    ended = obs.phase == ENDED
    names = _NAMES  # (kinds from the engine: no checks; every tile of every river, each view)
    seats = []
    for i in range(3):
        entry = {"seat": i,
                 "melds": [{"kind": k, "tile": None if t is None else names[t]}
                           for k, t in obs.melds[i]],
                 "discards": [names[t] for t in obs.discards[i]],
                 "claimed": list(obs.claimed[i]), "concealed_count": obs.concealed_count[i],
                 "declared": obs.declared[i], "piao": obs.piao[i]}
        if obs.declared[i]:
            entry["hidden_tiles"] = obs.hidden_tiles[i]
            entry["waits"] = [names[w] for w in obs.waits[i]]
        shown = obs.concealed if i == seat and ended else obs.revealed[i]
        if shown is not None:
            entry["revealed"] = format_counts(shown)
        seats.append(entry)
    table = None
    if obs.table is not None:
        table = {"seat": obs.table[0], "tile": tile_str(obs.table[1]), "robbing": obs.table[2]}
    view = {"seat": seat, "dealer": obs.dealer, "phase": obs.phase, "turn": obs.turn,
            "wall": obs.wall_left, "seats": seats, "table": table, "deltas": list(obs.deltas),
            "unseen": {code: COPIES - obs.visible[k]
                       for k, code in _codes_in_play(hand.rules.suits)}}
    if obs.dice is not None:  # R17.1: shown to all at the deal
        view["dice"] = list(obs.dice)
    if obs.base_factor != 1:
        view["base_factor"] = obs.base_factor
    if ended:
        view["result"] = hand_result(hand)
    return view


_NAMES = tuple(tile_str(k) for k in range(NUM_KINDS))


@lru_cache(maxsize=None)
def _codes_in_play(suits: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """(kind, MPSZ code) of the 21 kinds in play (R1.1), computed once per ``suits``."""
    return tuple((k, tile_str(k)) for k in kinds_for_suits(suits))


def _declare_waits(hand: Hand, seat: int, legal_now: list) -> dict[str, list[str]]:
    """R8.1: tile -> waits for the seat's legal 亮倒 discards (none unless one is legal)."""
    if not any(a.declare for a in legal_now):
        return {}
    return {tile_str(t): [tile_str(w) for w in found]
            for t, found in declare_waits(hand, seat).items()}


def _ready_waits(hand: Hand, seat: int, ended: bool) -> list[str]:
    """R8.1: the waits of an undeclared own hand of 3n+1 tiles now."""
    s = hand.seats[seat]
    if ended or s.declared or sum(s.concealed) % 3 != 1:
        return []
    return [tile_str(w) for w in live_waits(s)]


def table_view(hand: Hand) -> dict:
    """The whole table at once (every seat's hand face up): for replays of an ended hand and
    ``kawuxing replay`` without ``--seat``; never for a player during the hand (R13).

    The three :func:`seat_view` of ``hand`` merged: the keys of a seat view with ``seat``
    None and no ``hand``/``drawn``/``legal`` at the top; each entry of ``seats`` is that
    seat's own entry (its concealed kongs with their tiles) plus ``revealed`` (its whole
    concealed hand, MPSZ, face-down triplets and the tile just drawn included, so
    ``hidden_tiles`` is 0), ``drawn`` (its tile just drawn, or None) and ``legal`` (its
    legal actions). ``unseen``: copies of each kind in play that no seat holds or shows (that
    is, the undrawn wall); ``declare_waits`` and
    ``ready_waits``: seat (str) -> that seat's, as in its seat view.
    """
    views = [seat_view(hand, s) for s in range(3)]
    seats = []
    for s, v in enumerate(views):
        entry = dict(v["seats"][s], revealed=v["hand"], drawn=v["drawn"], legal=v["legal"])
        if "hidden_tiles" in entry:
            entry["hidden_tiles"] = 0
        seats.append(entry)
    shown = [0] * NUM_KINDS
    for s in hand.seats:
        for k, c in enumerate(s.held()):
            shown[k] += c
        for tile, taken in zip(s.discards, s.claimed):
            shown[tile] += not taken
    if hand.won_tile is not None:  # the discard or robbed tile won on is in no hand
        shown[hand.won_tile] += 1
    view = {k: v for k, v in views[0].items() if k not in ("hand", "drawn", "legal")}
    view.update(seat=None, seats=seats,
                unseen={code: COPIES - shown[k]
                        for k, code in _codes_in_play(hand.rules.suits)},
                declare_waits={str(s): v["declare_waits"] for s, v in enumerate(views)},
                ready_waits={str(s): v["ready_waits"] for s, v in enumerate(views)})
    return view


def running_totals(match) -> list[int]:
    """The match standing to show with a view (R12.1, base units): every ended hand's deltas
    plus the kong money of the hand in play (R6.6). ``match``: a
    :class:`~kawuxing.engine.match.Match` (``totals()`` and ``hand``)."""
    totals = match.totals()
    if match.hand.ended:
        return totals
    return [t + d for t, d in zip(totals, match.hand.deltas)]


def hand_result(hand: Hand) -> dict:
    """The settlement of an ended hand: ``result`` (``win``/``draw``), ``winners``,
    ``next_dealer`` (R2.2), ``deltas`` (base units), ``values`` (winner seat as a string ->
    :func:`value_json`) and every payment of the hand in order, ``transfers``, each in the
    JSON form of :class:`~kawuxing.scoring.transfers.Transfer` (``kind``, ``payer``, ``payee``,
    ``amount``, ``rule`` and the kind's parameters)."""
    return {"result": hand.result, "winners": list(hand.winners), "next_dealer": hand.next_dealer,
            "deltas": list(hand.deltas),
            "values": {str(w): value_json(v) for w, v in hand.values.items()},
            "transfers": [t.to_json() for t in hand.transfers]}


def value_json(value) -> dict:
    """A :class:`~kawuxing.scoring.HandValue` as JSON: ``legal``, ``by``, ``reading`` (sets and
    pair, or seven pairs, or None), ``patterns`` (its :attr:`~HandValue.pattern_rows`: the
    屁胡 row ×1 for a winning hand with no pattern, R9.1; see :func:`pattern_json`),
    ``raw_multiplier``, ``multiplier`` (after the cap), ``cap``, ``bao_hu``."""
    reading = value.reading
    if reading is None:
        shape = None
    elif reading.seven_pairs:
        shape = {"seven_pairs": [tile_str(p) for p in reading.pairs]}
    else:
        shape = {"sets": [[s.kind, tile_str(s.tile)] for s in reading.sets],
                 "pair": tile_str(reading.pairs[0])}
    return {"legal": value.legal, "by": value.win_by, "reading": shape,
            "patterns": [pattern_json(p) for p in value.pattern_rows],
            "raw_multiplier": value.raw_multiplier, "multiplier": value.multiplier,
            "cap": value.cap, "bao_hu": value.bao_hu}


def pattern_json(score) -> dict:
    """A :class:`~kawuxing.scoring.PatternScore` as JSON: ``key`` (code name, the client's
    translation key), ``name`` (Chinese), ``gloss`` (English), ``multiplier``, ``rule``,
    ``note``."""
    return {"key": score.pattern.key, "name": score.name, "gloss": score.pattern.gloss,
            "multiplier": score.multiplier, "rule": score.pattern.rule, "note": score.note}


def event_for_seat(event: dict, seat: int | None, hand: Hand) -> dict:
    """``event`` as ``seat`` may see it: others' draws and deal without tiles, another's
    concealed kong without its tile (unless ``concealed_kong_visible``). ``seat`` None: as a
    spectator sees it (R13: no draw's tile, a deal without any hand)."""
    kind = event["type"]
    if kind == ev.DEAL:
        if seat is None:
            return {"type": ev.DEAL, "dealer": event["dealer"], "wall": event["wall"]}
        return {"type": ev.DEAL, "dealer": event["dealer"], "hand": event["hands"][seat],
                "wall": event["wall"]}
    if kind == ev.DRAW and event["seat"] != seat:
        return {k: v for k, v in event.items() if k != "tile"}
    if (kind == ev.KONG and event["kind"] == MELD_CONCEALED_KONG and event["seat"] != seat
            and not hand.rules.concealed_kong_visible):
        return {k: v for k, v in event.items() if k != "tile"}
    return event


def events_for_seat(hand: Hand, seat: int | None, since: int = 0) -> list[dict]:
    """Every event from index ``since`` on, filtered for ``seat`` (None: a spectator, R13),
    each with its ``n``."""
    return [{"n": n, **event_for_seat(e, seat, hand)}
            for n, e in enumerate(hand.events[since:], start=since)]


def table_events(hand: Hand, since: int = 0) -> list[dict]:
    """Every event from index ``since`` on, unfiltered (all tiles), each with its ``n``: the
    events of :func:`table_view`, for after the hand only (R13)."""
    return [{"n": n, **e} for n, e in enumerate(hand.events[since:], start=since)]
