"""Shape features: rows derived from the observation planes (:mod:`.tensors`) that a small
network finds hard to compute for itself — the shanten and the effective tiles of the seat's
own hand after each discard, and what a pung of the tile on the table does to it.

They read nothing but the planes (the own concealed tiles, rows 0-3; the own melds, rows 5-8;
the visible tiles, rows 95-98; the tile on the table, row 99), so they reveal nothing the
planes do not (R13). :func:`shape_features` gives :data:`ROWS` rows of 30 columns (one a tile
kind), ``float32``:

====  ================================================================================
row   feature (0 everywhere it does not apply)
====  ================================================================================
0     own turn (3n+2 tiles): for each kind held, the shanten after discarding it minus the
      hand's shanten (0 keeps it, 1 loses a step; at most 2), halved
1     own turn: for each kind held, the effective tiles after discarding it: unseen copies
      (4 − visible, R13.1) of the kinds whose draw lowers the shanten, over 20
2     own turn: 1 where discarding the kind leaves the hand ready (shanten 0, R8.1)
3     3n+1 tiles (another seat's turn, a tile on the table): 1 where drawing the kind would
      lower the shanten (the effective tiles; a pung of the table tile: row 4)
4     scalars by column: 0 the hand's shanten over 6 (own turn); 1 the shanten over 6
      (3n+1 tiles); 2 own turn; 3 3n+1 tiles; 4 the effective tiles of the 3n+1 hand over
      40; 5 the shanten after a pung of the tile on the table minus before (−1 … 1), when
      the seat holds two of it; 6 the seat holds two of the table tile
====  ================================================================================

Shanten is :func:`kawuxing.shapes.shanten` (standard or seven pairs, R7.1; −1 a winning
hand). ``encoding`` 2 of a policy file (:mod:`kawuxing.agents.policy`) reads the planes
followed by these rows.

Computed with numpy from the precomputed tables of :mod:`kawuxing.shapes` (the lookups of
:func:`~kawuxing.shapes.draw_shanten`): 3n+1 hands — the own hand after each discard, the
hand of a 3n+1 observation — get the shanten after each of the 30 draws in one (hands × 30)
grid, :func:`_draws`. :func:`shape_features` does a whole batch at once; :func:`hand_features`
one observation (a 3n+1 hand alone by one :func:`~kawuxing.shapes.draw_shanten` call, which is
faster for one). The values are those of :func:`~kawuxing.shapes.shanten` called for each hand
and draw. Planes whose rows read here are not all 0 or 1 (no env's or shard's) are read one
hand at a time by :func:`~kawuxing.shapes.draw_shanten`, whose search answers counts outside
the tables.
"""

from __future__ import annotations

import numpy as np

from .. import shapes
from ..shapes import draw_shanten, shanten
from ..tiles import NUM_KINDS
from .tensors import COPIES, OWN_CONCEALED, SEAT_BASE, TABLE, VISIBLE

ROWS = 5
_MELD_ROWS = slice(SEAT_BASE, SEAT_BASE + 4)  # the observer's pungs and kongs
_READ = np.r_[OWN_CONCEALED:OWN_CONCEALED + COPIES, _MELD_ROWS, VISIBLE:TABLE + 1]  # rows read
_SUMS = np.repeat(np.eye(3, 4, dtype=np.float32), COPIES, axis=1)[:, :len(_READ)]
# _SUMS @ planes[_READ]: by kind, the own concealed tiles, the own melds, the visible tiles

# The tables of kawuxing.shapes as arrays. A component (m, p, s, dragons) is indexed by its
# counts read in base 5, its first rank the top digit; the dragons' indices follow the suits'.
_COMPONENT = np.repeat(np.arange(4), [9, 9, 9, 3])  # (30,): the component of each kind
_UNIT = np.array([5 ** (8 - r) for r in range(9)] * 3 + [25, 5, 1])  # one tile, in its index
_UNITS = np.zeros((NUM_KINDS, 4), np.intp)  # _UNITS[k]: one tile of kind k, in the 4 indices
_UNITS[np.arange(NUM_KINDS), _COMPONENT] = _UNIT
_OFFSET = np.array([0, 0, 0, 5 ** 9])  # counts @ _UNITS + _OFFSET: the 4 indices of a hand
_VEC = np.concatenate([np.frombuffer(shapes._SUIT_VEC, np.uint8),  # index -> value vector id
                       np.frombuffer(shapes._DRAGON_VEC, np.uint8)])
_NV = shapes._NV  # value vectors (ids 0 … _NV − 1); merging them is commutative, associative
_MERGE = np.frombuffer(shapes._MERGE, np.uint8).reshape(_NV, _NV)  # id, id -> id
_MERGE3 = _MERGE[_MERGE[:, :, None], np.arange(_NV)].ravel()  # a·_NV² + b·_NV + c -> id
_PLACES = np.array([[0, _NV * _NV, _NV * _NV, _NV * _NV], [_NV * _NV, 0, _NV, _NV],
                    [_NV, _NV, 0, 1], [1, 1, 1, 0]])  # ids @ _PLACES: _MERGE3 of all but one
_SHANTEN = np.frombuffer(shapes._SHANTEN, np.uint8).reshape(_NV, 5).astype(np.intp) - 1
_FINAL = _SHANTEN[_MERGE]  # [id, id, melds]: the standard shanten (R7.1) of the two merged
_EYE = np.eye(NUM_KINDS, dtype=np.intp)  # _EYE[k]: one tile of kind k
_NO_PAIRS = 16  # added to the seven-pairs shanten of a hand with melds: above any standard one


def _draws(hands: np.ndarray, melds: np.ndarray | int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(now (H,), after (H, 30), better (H, 30) bool)`` of 3n+1 ``hands`` ``(H, 30)``
    (counts 0-4, at most 13 tiles) with ``melds`` (0-4; ``(H, 1)`` or one int for all):
    :func:`~kawuxing.shapes.draw_shanten` of every hand at once — the shanten, the shanten
    after one more tile of each kind, and the kinds whose draw lowers it (not where the hand
    holds four already: no fifth copy, R1.1).

    A draw changes its kind's component only: the new component's vector is merged with
    the other three's, merged once per hand (merging is commutative and associative).
    Shanten is the smaller of the standard and, with no melds, the seven-pairs shanten
    (R7.1; a draw onto an odd count makes a pair); a hand of at most 14 tiles holds at
    most seven pairs, so a standard −1 stays −1."""
    index = hands @ _UNITS + _OFFSET  # (H, 4)
    ids = _VEC.take(index)
    rest = _MERGE3.take(ids @ _PLACES)  # (H, 4): the merge of the other three components
    pairs = 6 + _NO_PAIRS * (melds > 0) - (hands >> 1).sum(axis=1, keepdims=True)
    now = np.minimum(_FINAL[rest[:, :1], ids[:, :1], melds], pairs)
    room = hands < 4
    drawn = _VEC.take(index.take(_COMPONENT, axis=1) + _UNIT * room)  # (no room: unread)
    after = _FINAL[drawn, rest.take(_COMPONENT, axis=1), melds]
    after = np.minimum(after, pairs - (hands & 1))
    return now[:, 0], after, room & (after < now)


def _shanten(hands: np.ndarray, melds: np.ndarray | int) -> np.ndarray:
    """``(H,)``: :func:`~kawuxing.shapes.shanten` of 3n+2 ``hands`` ``(H, 30)`` (2-14
    tiles) with ``melds`` (as :func:`_draws`): the hand less one tile, drawn back."""
    kind = hands.argmax(axis=1)
    return _draws(hands - _EYE[kind], melds)[1][np.arange(len(kind)), kind]


def _effective(counts: list[int], melds: int, unseen: list[int]) -> tuple[int, list[int], int]:
    """(shanten, the kinds whose draw lowers it, their unseen copies) of a 3n+1 hand."""
    now, after = draw_shanten(counts, melds)
    kinds = [k for k, s in enumerate(after) if s is not None and s < now]
    return now, kinds, sum(unseen[k] for k in kinds)


def hand_features(planes: np.ndarray) -> np.ndarray:
    """``float32 (ROWS, 30)``: the shape features (module docstring) of one observation's
    ``planes`` ``(≥ 100, 30)`` (any numeric dtype: the env's ``float32`` tensor or a shard's
    ``int8`` rows)."""
    read = np.asarray(planes)[_READ]  # own concealed 0-3, melds 4-7, visible 8-11, table 12
    if np.count_nonzero(read) != np.count_nonzero(read == 1):  # a value not 0 nor 1
        return _hand_features_general(planes)
    out = np.zeros((ROWS, NUM_KINDS), np.float32)
    counts, melds, seen = (_SUMS @ read).astype(np.intp)  # by kind
    held, melds = int(counts.sum()), int(melds.sum())
    if held % 3 == 0 or held > 14 or melds > 4:
        return out
    unseen = 4 - seen  # R13.1
    if held % 3 == 2:  # one 3n+1 hand for each kind held: the hand after discarding it
        kinds = np.flatnonzero(counts)
        now, after, better = _draws(counts - _EYE[kinds], melds)
        whole = int(after[0, kinds[0]])  # drawing the discard back: the hand itself
        out[:3, kinds] = np.minimum(now - whole, 2) / 2, better @ unseen / 20, now == 0
        out[4, 0], out[4, 2] = whole / 6, 1.0
        return out
    counts = counts.tolist()  # 3n+1 tiles: one hand, which draw_shanten answers faster
    now, kinds, live = _effective(counts, melds, unseen.tolist())
    out[3, kinds] = 1.0
    out[4, 1], out[4, 3], out[4, 4] = now / 6, 1.0, live / 40
    table = np.flatnonzero(read[12])
    if len(table) and counts[table[0]] >= 2 and melds < 4:
        counts[table[0]] -= 2
        out[4, 5], out[4, 6] = max(-1, min(shanten(counts, melds + 1) - now, 1)), 1.0
    return out


def shape_features(planes: np.ndarray) -> np.ndarray:
    """``float32 (B, ROWS, 30)``: :func:`hand_features` of each of ``planes`` ``(B, ≥ 100,
    30)``, the whole batch at once."""
    planes = np.asarray(planes)
    if len(planes) < 2:  # none, or one (a bot's decision: fewer numpy calls)
        return hand_features(planes[0])[None] if len(planes) else np.zeros(
            (0, ROWS, NUM_KINDS), np.float32)
    read = planes[:, _READ]
    irregular = np.flatnonzero(((read != 0) & (read != 1)).any(axis=(1, 2)))
    read[irregular] = 0  # (no tiles here: those are read one at a time, at the end)
    out = np.zeros((len(planes), ROWS, NUM_KINDS), np.float32)
    sums = (_SUMS @ read).astype(np.intp)
    counts, melds, unseen = sums[:, 0], sums[:, 1].sum(axis=1), 4 - sums[:, 2]  # R13.1
    held = counts.sum(axis=1)
    shaped = (held <= 14) & (melds <= 4)
    own = np.flatnonzero(shaped & (held % 3 == 2))
    if len(own):  # one 3n+1 hand for each kind held: the hand after discarding it
        row, kind = np.nonzero(counts[own])
        at = own[row]
        now, after, better = _draws(counts[at] - _EYE[kind], melds[at, None])
        whole = after[np.arange(len(kind)), kind]  # drawing the discard back: the hand
        out[at, 0, kind] = np.minimum(now - whole, 2) / 2
        out[at, 1, kind] = (better * unseen[at]).sum(axis=1) / 20
        out[at, 2, kind] = now == 0
        out[at, 4, 0], out[at, 4, 2] = whole / 6, 1.0
    others = np.flatnonzero(shaped & (held % 3 == 1))
    if len(others):
        hands, m = counts[others], melds[others, None]
        now, _, better = _draws(hands, m)
        out[others, 3] = better
        out[others, 4, 1], out[others, 4, 3] = now / 6, 1.0
        out[others, 4, 4] = (better * unseen[others]).sum(axis=1) / 40
        table = read[others, 12] != 0
        t = table.argmax(axis=1)  # the first kind on the table
        pung = np.flatnonzero(table.any(axis=1) & (hands[np.arange(len(t)), t] >= 2)
                              & (m[:, 0] < 4))
        if len(pung):
            change = _shanten(hands[pung] - 2 * _EYE[t[pung]], m[pung] + 1) - now[pung]
            out[others[pung], 4, 5], out[others[pung], 4, 6] = np.clip(change, -1, 1), 1.0
    for i in irregular:
        out[i] = _hand_features_general(planes[i])
    return out


def _hand_features_general(planes: np.ndarray) -> np.ndarray:
    """:func:`hand_features` of planes of any values: one :func:`~kawuxing.shapes.draw_shanten`
    call for each 3n+1 hand (whose search answers counts outside the tables)."""
    out = np.zeros((ROWS, NUM_KINDS), np.float32)
    counts = planes[OWN_CONCEALED:OWN_CONCEALED + COPIES].sum(axis=0).astype(int).tolist()
    held = sum(counts)
    if held % 3 == 0 or held > 14:
        return out
    melds = int(planes[_MELD_ROWS].sum())
    if melds > 4:
        return out
    unseen = (4 - planes[VISIBLE:VISIBLE + COPIES].sum(axis=0)).clip(0, 4).astype(int).tolist()
    scalars = out[4]
    if held % 3 == 2:
        whole = shanten(counts, melds)
        scalars[0], scalars[2] = whole / 6, 1.0
        for k in range(NUM_KINDS):
            if not counts[k]:
                continue
            counts[k] -= 1
            now, _, live = _effective(counts, melds, unseen)
            counts[k] += 1
            out[0, k] = min(now - whole, 2) / 2
            out[1, k] = live / 20
            out[2, k] = now == 0
        return out
    now, kinds, live = _effective(counts, melds, unseen)
    scalars[1], scalars[3], scalars[4] = now / 6, 1.0, live / 40
    out[3, kinds] = 1.0
    table = np.flatnonzero(planes[TABLE])
    if len(table) and counts[table[0]] >= 2 and melds < 4:
        t = int(table[0])
        counts[t] -= 2
        scalars[5] = max(-1, min(shanten(counts, melds + 1) - now, 1))
        scalars[6] = 1.0
    return out

