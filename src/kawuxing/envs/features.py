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
"""

from __future__ import annotations

import numpy as np

from ..shapes import draw_shanten, shanten
from ..tiles import NUM_KINDS
from .tensors import COPIES, OWN_CONCEALED, SEAT_BASE, TABLE, VISIBLE

ROWS = 5
_MELD_ROWS = slice(SEAT_BASE, SEAT_BASE + 4)  # the observer's pungs and kongs


def _effective(counts: list[int], melds: int, unseen: list[int]) -> tuple[int, list[int], int]:
    """(shanten, the kinds whose draw lowers it, their unseen copies) of a 3n+1 hand."""
    now, after = draw_shanten(counts, melds)
    kinds = [k for k, s in enumerate(after) if s is not None and s < now]
    return now, kinds, sum(unseen[k] for k in kinds)


def hand_features(planes: np.ndarray) -> np.ndarray:
    """``float32 (ROWS, 30)``: the shape features (module docstring) of one observation's
    ``planes`` ``(≥ 100, 30)`` (any numeric dtype: the env's ``float32`` tensor or a shard's
    ``int8`` rows)."""
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


def shape_features(planes: np.ndarray) -> np.ndarray:
    """``float32 (B, ROWS, 30)``: :func:`hand_features` of each of ``planes`` ``(B, ≥ 100,
    30)``."""
    return np.stack([hand_features(p) for p in planes]) if len(planes) else np.zeros(
        (0, ROWS, NUM_KINDS), np.float32)
