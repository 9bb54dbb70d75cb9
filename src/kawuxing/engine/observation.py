"""What one seat may know, as numbers (RULES.md R13): the input of agents and of views.

:func:`observe` is the one place that decides what a seat sees; :func:`views.seat_view` renders
the same information as JSON for players. Everything is counts vectors and kinds (ints), so
bots can compute with it quickly, and nothing in it depends on another seat's hidden tiles or
on the wall order.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from operator import add, not_

from ..face_down import tile_count, without
from ..melds import MELD_CONCEALED_KONG
from ..rules import RuleSet
from .hand import Hand
from .state import CLAIM, ENDED, PIAO_PHASE, ROB, TURN


@dataclass(frozen=True)
class Observation:
    """One seat's knowledge of the hand.

    - ``seat``, ``dealer``, ``phase``, ``turn`` (seat in turn or None), ``wall_left`` (tiles).
    - ``concealed``: own counts vector (30 ints); ``drawn``: own tile just drawn, or None.
    - ``melds[s]``: seat s's melds as ``(kind, tile)``; another seat's concealed kong has tile
      None unless option ``concealed_kong_visible`` (R6.1).
    - ``discards[s]``: seat s's discards in order (kinds), taken ones included;
      ``claimed[s][i]`` tells whether ``discards[s][i]`` was taken by a pung, kong or win.
    - ``declared[s]``, ``waits[s]`` (kinds), ``revealed[s]``: counts shown by 亮倒 (face-down
      groups of R8.6/R8.11, the tile just drawn, and a kong tile being added, which is on the
      table, excluded) or None; ``hidden_tiles[s]``: how many of a declared seat's concealed
      tiles are face down (never which: not even whether they are pungs or chows, R13.1).
    - ``concealed_count[s]``: tiles in each concealed hand.
    - ``visible``: counts vector of every tile this seat can see anywhere (own hand, discards,
      visible melds, revealed hands): ``4 - visible[k]`` copies of k are unseen.
    - ``table``: ``(seat, tile, robbing)`` of the tile others may take now, or None.
    - ``deltas``: score changes so far; ``piao``: each seat's 漂 once known (else None).
    - ``dice``: the two dice of R17.1 ``dice_doubles`` (shown to all at the deal), else None;
      ``base_factor``: the hand's base ×1, ×2, ×4 … under R17.1 ``after_draw``.
    """

    rules: RuleSet
    seat: int
    dealer: int
    phase: str
    turn: int | None
    wall_left: int
    concealed: tuple[int, ...]
    drawn: int | None
    melds: tuple[tuple[tuple[str, int | None], ...], ...]
    discards: tuple[tuple[int, ...], ...]
    claimed: tuple[tuple[bool, ...], ...]
    declared: tuple[bool, ...]
    waits: tuple[tuple[int, ...], ...]
    revealed: tuple[tuple[int, ...] | None, ...]
    hidden_tiles: tuple[int, ...]
    concealed_count: tuple[int, ...]
    visible: tuple[int, ...]
    table: tuple[int, int, bool] | None
    deltas: tuple[int, ...]
    piao: tuple[int | None, ...]
    dice: tuple[int, int] | None = None
    base_factor: int = 1


def observe(hand: Hand, seat: int | None) -> Observation:
    """The :class:`Observation` of ``seat`` now (R13). After the hand ends everything is shown
    through ``revealed``. ``seat`` None: a spectator's (旁观), public information only — no
    concealed hand of its own (``concealed`` all 0, ``drawn`` None), every seat as another
    seat sees it."""
    phase = hand.phase
    ended = phase == ENDED
    seats, current = hand.seats, hand.current
    own = [0] * len(seats[0].concealed) if seat is None else seats[seat].concealed
    visible = list(own)
    hide_kongs = not ended and not hand.rules.concealed_kong_visible  # R6.1
    melds, revealed, waits = [], [], []
    for i, s in enumerate(seats):
        seat_melds = []
        for m in s.melds:
            if hide_kongs and m.kind == MELD_CONCEALED_KONG and i != seat:
                seat_melds.append((m.kind, None))
            else:
                seat_melds.append((m.kind, m.tile))
                visible[m.tile] += m.size
        melds.append(tuple(seat_melds))
        for tile in compress(s.discards, map(not_, s.claimed)):  # the river, not taken
            visible[tile] += 1
        shown = None
        if i != seat and (s.declared or ended):
            shown = list(s.concealed)
            if not ended:
                shown = without(shown, s.hidden)
                if s.drawn is not None and current == i and shown[s.drawn]:
                    shown[s.drawn] -= 1
                if phase == ROB and hand.pending.seat == i and shown[hand.pending.tile]:
                    # the tile being added (R6.2) is on the table, counted once below
                    shown[hand.pending.tile] -= 1
            visible = list(map(add, visible, shown))
            shown = tuple(shown)
        revealed.append(shown)
        waits.append(tuple(s.waits) if s.declared else ())
    table = None
    if phase in (CLAIM, ROB):
        table = (hand.pending.seat, hand.pending.tile, hand.pending.robbing)
        if hand.pending.robbing and hand.pending.seat != seat:  # the tile being added is shown
            visible[hand.pending.tile] += 1
    piao_known = phase != PIAO_PHASE
    s0, s1, s2 = seats
    return Observation(
        rules=hand.rules, seat=seat, dealer=hand.dealer, phase=phase,
        turn=current if phase not in (PIAO_PHASE, ENDED) else None,
        wall_left=hand.wall_left, concealed=tuple(own),
        drawn=seats[seat].drawn if current == seat and not ended else None,
        melds=tuple(melds), discards=(tuple(s0.discards), tuple(s1.discards), tuple(s2.discards)),
        claimed=(tuple(s0.claimed), tuple(s1.claimed), tuple(s2.claimed)),
        declared=(s0.declared, s1.declared, s2.declared), waits=tuple(waits),
        revealed=tuple(revealed),
        hidden_tiles=tuple(tile_count(s.hidden) if s.hidden and not ended else 0
                           for s in seats),
        concealed_count=(sum(s0.concealed), sum(s1.concealed), sum(s2.concealed)),
        visible=tuple(visible), table=table, deltas=tuple(hand.deltas),
        piao=tuple(s.piao if (i == seat or piao_known) else None
                   for i, s in enumerate(seats)),
        dice=hand.dice, base_factor=hand.base_factor)


def position_observation(rules: RuleSet, concealed: list[int],
                         melds: list[tuple[str, int]], seen: list[int], wall_left: int,
                         seat: int = 0) -> Observation:
    """The :class:`Observation` of a free-standing position (``kawuxing hint``): ``seat`` in
    its turn, having drawn, with ``concealed`` (counts vector) and ``melds`` ``[(kind,
    tile)]``; ``seen``: counts of every tile seen elsewhere (discards, others' melds);
    ``wall_left`` tiles in the wall; nobody declared, the opponents' discards unknown (each
    holds 13 tiles), no 漂. Raises ``ValueError`` for a wall outside 0-43 tiles."""
    if type(wall_left) is not int or not 0 <= wall_left <= 43:
        raise ValueError(f"wall {wall_left!r}: 0-43 tiles are left once the hands are dealt")
    visible = list(concealed)
    for kind, tile in melds:
        visible[tile] += 3 if kind == "pung" else 4
    visible = [a + b for a, b in zip(visible, seen)]
    none = ((), (), ())
    return Observation(
        rules=rules, seat=seat, dealer=seat, phase=TURN, turn=seat, wall_left=wall_left,
        concealed=tuple(concealed), drawn=None,
        melds=tuple(tuple(melds) if s == seat else () for s in range(3)),
        discards=none, claimed=none, declared=(False, False, False), waits=none,
        revealed=(None, None, None), hidden_tiles=(0, 0, 0),
        concealed_count=tuple(sum(concealed) if s == seat else 13 for s in range(3)),
        visible=tuple(visible), table=None, deltas=(0, 0, 0), piao=(0, 0, 0))
