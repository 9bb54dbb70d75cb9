"""Observation tensors of the research environments (RULES.md R13).

:func:`observation_tensor` turns one seat's :class:`~kawuxing.engine.observation.Observation`
(the one place that decides what a seat sees) into a ``float32`` array of shape
``(NUM_PLANES, 30)``: one row a plane, one column a tile kind (0-8 万, 9-17 筒, 18-26 条,
27-29 白发中). It reads nothing but the Observation, so it cannot leak another seat's concealed
tiles, the wall or anybody's options. Seats are *relative*: ``r = 0`` is the observer, ``1`` the
next seat (who plays after it), ``2`` the one after.

=========  ============================================================================
rows       plane
=========  ============================================================================
0-3        own concealed tiles: row ``j`` is 1 where the seat holds more than ``j`` (R3)
4          own tile just drawn (one-hot)
5 + 30 r   seat ``r``'s pungs (R4.2)
6 + 30 r   seat ``r``'s concealed kongs, where the kind is visible (R6.1)
7 + 30 r   seat ``r``'s added kongs (R6.2)
8 + 30 r   seat ``r``'s exposed kongs (R6.3)
9 + 30 r   seat ``r``'s declared waits (亮倒, R8.1)
10 + 30 r  seat ``r``'s tiles shown by 亮倒: copies per kind, 0-4 (R8.1): what the other
           seats see (face-down groups R8.6/R8.11, the tile just drawn and a kong tile being
           added left out); the whole hand once the hand has ended. For ``r = 0`` (the
           observer's own declaration, which its Observation does not repeat) it is given
           by the env from the seat's own state (``own_shown``)
11-34 +30r seat ``r``'s discards in order, one row a discard (at most 24; later ones are left
           out of the order but counted in ``visible``): 1 where the tile lies in the river,
           -1 where a pung, kong or win took it (R4.4)
95-98      visible tiles (own hand, rivers, visible melds, shown hands): row ``j`` is 1 where
           more than ``j`` copies are visible; ``4 - visible`` copies are unseen (R13.1)
99         the tile on the table (a discard or a kong being added), one-hot
100        scalars, by column (below)
101        scores and 漂, by column (below)
=========  ============================================================================

Row 100 (:data:`SCALARS`): 0 wall left (tiles); 1-5 phase one-hot (piao, turn, claim, rob,
ended); 6-8 dealer (relative seat, one-hot); 9-11 seat in turn; 12-14 seat whose tile is on
the table; 15 the table tile is a kong being added (R7.4); 16-18 declared 亮倒 per seat; 19-21
concealed tiles per seat; 22-24 concealed kongs whose kind is hidden, per seat; 25-27
face-down tiles per seat (R8.6, R8.11; never which); 28-29 unused (0). Row 101
(:data:`STANDING`): 0-2 score change in this hand so far per seat (base units, R6.6); 3-5 漂
per seat (R11.1; -1 while unknown); 6-8 score change in the episode so far per seat (the match
standing with ``per_match``: the ended hands' deltas plus this hand's so far, R12.1; else
equal to 0-2); 9 the hand's 0-based number in the episode; 10 hands left in the episode after
this one (0 for a one-hand episode); 11-29 unused (0).

:func:`privileged_tensor` is the hidden state for centralised critics and oracle training
(Suphx-style): **never an input of a policy that plays**. It reads the :class:`Hand` itself.
"""

from __future__ import annotations

from operator import add

import numpy as np

from ..engine.hand import Hand
from ..engine.observation import Observation
from ..engine.state import CLAIM, ENDED, PIAO_PHASE, ROB, TURN
from ..face_down import without
from ..melds import MELD_ADDED_KONG, MELD_CONCEALED_KONG, MELD_EXPOSED_KONG, MELD_PUNG
from ..tiles import COPIES, NUM_KINDS

OWN_CONCEALED = 0
OWN_DRAWN = 4
SEAT_BASE = 5
SEAT_PLANES = 30
MELD_ROW = {MELD_PUNG: 0, MELD_CONCEALED_KONG: 1, MELD_ADDED_KONG: 2, MELD_EXPOSED_KONG: 3}
WAITS_ROW, SHOWN_ROW, DISCARDS_ROW = 4, 5, 6
MAX_DISCARDS = SEAT_PLANES - DISCARDS_ROW  # 24
VISIBLE = SEAT_BASE + 3 * SEAT_PLANES  # 95
TABLE = VISIBLE + COPIES  # 99
SCALARS = TABLE + 1  # 100
SCORES = SCALARS + 1  # 101
STANDING = {"hand_deltas": 0, "piao": 3, "episode_totals": 6, "hand_number": 9,
            "hands_left": 10}  # columns of row 101
NUM_PLANES = SCORES + 1  # 102
SHAPE = (NUM_PLANES, NUM_KINDS)
PHASES = (PIAO_PHASE, TURN, CLAIM, ROB, ENDED)
_PHASE_COL = {p: 1 + i for i, p in enumerate(PHASES)}
_N = NUM_KINDS
_SIZE = NUM_PLANES * _N
# byte translation tables: count -> 1 if count > j, with the slices of threshold row j of the
# own hand and of the visible tiles
_THRESHOLDS = [(bytes(int(c > j) for c in range(256)),
                slice((OWN_CONCEALED + j) * _N, (OWN_CONCEALED + j + 1) * _N),
                slice((VISIBLE + j) * _N, (VISIBLE + j + 1) * _N)) for j in range(COPIES)]
# a river row: 1 at the tile (in the river), or 255 (-1 as int8: taken by a pung, kong or win)
_RIVER_ROWS = ([bytes(int(k == t) for k in range(NUM_KINDS)) for t in range(NUM_KINDS)]
               + [bytes(255 * (k == t) for k in range(NUM_KINDS)) for t in range(NUM_KINDS)])
_TAKEN_OFFSET = (0, NUM_KINDS)  # claimed False / True -> the first or second half
_SCALAR = SCALARS * _N
_SCORE = slice(SCORES * _N, SCORES * _N + 11)


def _seat_layout(r: int) -> tuple:
    """Flat offsets of relative seat ``r``'s planes and scalar columns."""
    base = (SEAT_BASE + SEAT_PLANES * r) * _N
    return ({kind: base + row * _N for kind, row in MELD_ROW.items()}, base + WAITS_ROW * _N,
            slice(base + SHOWN_ROW * _N, base + (SHOWN_ROW + 1) * _N), base + DISCARDS_ROW * _N,
            _SCALAR + 16 + r, _SCALAR + 19 + r, _SCALAR + 22 + r, _SCALAR + 25 + r)


# observer -> (layout of each absolute seat, absolute seats in relative order, columns of the
# dealer / seat in turn / seat of the table tile, by absolute seat)
_LAYOUT = [([_seat_layout((s - me) % 3) for s in range(3)], [(me + r) % 3 for r in range(3)],
            [_SCALAR + 6 + (s - me) % 3 for s in range(3)],
            [_SCALAR + 9 + (s - me) % 3 for s in range(3)],
            [_SCALAR + 12 + (s - me) % 3 for s in range(3)]) for me in range(3)]


def own_shown(hand: Hand, seat: int) -> tuple[int, ...] | None:
    """The counts of ``seat``'s own tiles shown to the others by its 亮倒 (R8.1), as another
    seat's Observation gives them in ``revealed``: the concealed tiles less the face-down groups
    (R8.6, R8.11), the tile just drawn and a kong tile being added (on the table, R7.4); the
    whole concealed hand once the hand has ended; None before the seat declared. Reads only the
    seat's own state (what its player knows, R13): row ``10`` (``r = 0``) of the tensor."""
    s = hand.seats[seat]
    if hand.phase == ENDED:
        return tuple(s.concealed)
    if not s.declared:
        return None
    shown = list(without(s.concealed, s.hidden))
    if s.drawn is not None and hand.current == seat and shown[s.drawn]:
        shown[s.drawn] -= 1
    if hand.phase == ROB and hand.pending.seat == seat and shown[hand.pending.tile]:
        shown[hand.pending.tile] -= 1
    return tuple(shown)


def observation_tensor(obs: Observation, shown: tuple[int, ...] | None = None,
                       standing: tuple[tuple[int, int, int], int, int] | None = None
                       ) -> np.ndarray:
    """The planes of the module table for ``obs``: ``float32``, shape ``(102, 30)``.

    Depends on nothing but ``obs`` and two things the seat knows that its Observation does
    not carry: ``shown``, its own tiles shown by 亮倒 (:func:`own_shown`; None: row 10 stays
    0 until the hand ends), and ``standing`` = ``(episode score changes by absolute seat,
    0-based hand number, hands left)`` (row 101, columns 6-10; None: this hand alone, i.e.
    ``(obs.deltas, 0, 0)``). Nothing of another seat's concealed tiles or options (R13)."""
    seats, order, dealer_col, turn_col, table_col = _LAYOUT[obs.seat]
    cells = bytearray(_SIZE)  # small whole numbers, as int8; scores and 漂 are set after
    own, visible = bytes(obs.concealed), bytes(obs.visible)
    for above, own_row, visible_row in _THRESHOLDS:
        cells[own_row] = own.translate(above)
        cells[visible_row] = visible.translate(above)
    if obs.drawn is not None:
        cells[OWN_DRAWN * _N + obs.drawn] = 1
    melds, waits, revealed, rivers, claimed = (obs.melds, obs.waits, obs.revealed,
                                               obs.discards, obs.claimed)
    for s, (meld_at, waits_at, shown_at, river_at, declared, count, kongs, hidden) in \
            enumerate(seats):
        hidden_kongs = 0
        for kind, tile in melds[s]:
            if tile is None:
                hidden_kongs += 1
            else:
                cells[meld_at[kind] + tile] = 1
        for w in waits[s]:
            cells[waits_at + w] = 1
        if revealed[s] is not None:
            cells[shown_at] = bytes(revealed[s])
        elif s == obs.seat and shown is not None:
            cells[shown_at] = bytes(shown)
        river = rivers[s]
        if river:  # one 30-byte row a discard, picked from _RIVER_ROWS without a Python loop
            rows = b"".join(map(_RIVER_ROWS.__getitem__, map(
                add, river[:MAX_DISCARDS], map(_TAKEN_OFFSET.__getitem__, claimed[s]))))
            cells[river_at:river_at + len(rows)] = rows
        cells[declared] = obs.declared[s]
        cells[count] = obs.concealed_count[s]
        cells[kongs] = hidden_kongs
        cells[hidden] = obs.hidden_tiles[s]
    cells[_SCALAR] = obs.wall_left
    cells[_SCALAR + _PHASE_COL[obs.phase]] = 1
    cells[dealer_col[obs.dealer]] = 1
    if obs.turn is not None:
        cells[turn_col[obs.turn]] = 1
    if obs.table is not None:
        seat, tile, robbing = obs.table
        cells[TABLE * _N + tile] = 1
        cells[table_col[seat]] = 1
        cells[_SCALAR + 15] = robbing
    out = np.frombuffer(cells, np.int8).astype(np.float32)
    a, b, c = order
    deltas, piao = obs.deltas, obs.piao
    totals, number, left = (deltas, 0, 0) if standing is None else standing
    out[_SCORE] = (deltas[a], deltas[b], deltas[c], -1 if piao[a] is None else piao[a],
                   -1 if piao[b] is None else piao[b], -1 if piao[c] is None else piao[c],
                   totals[a], totals[b], totals[c], number, left)
    return out.reshape(SHAPE)


# --- the hidden state (privileged) --------------------------------------------------------
OTHER_CONCEALED = 0  # rows 0-3: seat r=1's concealed tiles (thresholds), rows 4-7: seat r=2's
OTHER_FACE_DOWN = 8  # rows 8-9: seat r=1 / r=2's face-down tiles, copies per kind (R8.6, R8.11)
OTHER_KONGS = 10  # rows 10-11: seat r=1 / r=2's concealed kongs, kinds (R6.1)
WALL_COUNTS = 12  # rows 12-15: tiles left in the wall (thresholds)
NEXT_DRAWS = 16  # rows 16-19: the next four draws, in order, one-hot
OPTIONS = 20  # row 20: columns 0-2 / 3-5: seat r=1 / r=2 may win / pung / kong the table tile
NUM_HIDDEN_PLANES = OPTIONS + 1  # 21
HIDDEN_SHAPE = (NUM_HIDDEN_PLANES, NUM_KINDS)
_OPTION_COL = {"win": 0, "pung": 1, "kong": 2}


def privileged_tensor(hand: Hand, seat: int) -> np.ndarray:
    """What ``seat`` cannot see, as ``float32`` planes ``(21, 30)`` (rows above): the other
    seats' concealed tiles, face-down groups and concealed kongs, the wall's counts and its
    next four draws, and the other seats' options on the tile on the table. For centralised
    critics and oracle training only: a seat's policy must never read it (R13)."""
    flat = np.zeros(NUM_HIDDEN_PLANES * _N, np.float32)
    ones: list[int] = []
    for i in (1, 2):
        s = hand.seats[(seat + i) % 3]
        for k, c in enumerate(s.concealed):
            for j in range(c):
                ones.append((OTHER_CONCEALED + 4 * (i - 1) + j) * _N + k)
        for group in s.hidden:
            for k in group.tiles():
                flat[(OTHER_FACE_DOWN + i - 1) * _N + k] += 1
        for m in s.melds:
            if m.kind == MELD_CONCEALED_KONG:
                ones.append((OTHER_KONGS + i - 1) * _N + m.tile)
        if hand.pending is not None:
            for verb in hand.pending.options.get((seat + i) % 3, ()):
                ones.append(OPTIONS * _N + 3 * (i - 1) + _OPTION_COL[verb])
    wall = hand.draws[len(hand.draws) - hand.wall_left:]
    counts = [0] * _N
    for tile in wall:
        counts[tile] += 1
    for k, c in enumerate(counts):
        for j in range(c):
            ones.append((WALL_COUNTS + j) * _N + k)
    for j, tile in enumerate(wall[:4]):
        ones.append((NEXT_DRAWS + j) * _N + tile)
    flat[ones] = 1.0
    return flat.reshape(HIDDEN_SHAPE)
