"""The fast observation encoder: the planes of :func:`~.tensors.observation_tensor`, kept per
seat and brought up to date from the hand instead of rebuilt through an Observation.

:class:`HandEncoder` follows one :class:`~kawuxing.engine.hand.Hand`. Each seat has its own
``int8`` buffer of the 102 × 30 planes; a call updates it: the rivers (one row a discard, the
longest part) only by the discards made since the last call and the one that may since have
been taken, the rest (own tiles, melds, 亮倒, visible counts, scalars) from the few numbers it
reads. What it reads of the hand is exactly what :func:`kawuxing.engine.observation.observe`
gives the seat (R13): the seat's own concealed tiles and drawn tile, the public melds (another
seat's concealed kong without its kind unless R6.1 ``concealed_kong_visible``), rivers, 亮倒
hands less their face-down groups (R8.1, R8.6, R8.11), counts of concealed and face-down tiles,
the tile on the table, scores and the 漂 once public (R11.1). The result is bit for bit
``observation_tensor(observe(hand, seat), own_shown(hand, seat), standing)``: the tests
compare the two on random hands of every preset, so the Observation stays the one definition of
what a seat sees and this module only a faster way to the same numbers.
"""

from __future__ import annotations

import numpy as np

from ..engine.hand import Hand
from ..engine.state import CLAIM, ENDED, PIAO_PHASE, ROB
from ..face_down import tile_count, without
from ..melds import MELD_CONCEALED_KONG
from .tensors import (_LAYOUT, _PHASE_COL, _RIVER_ROWS, _SCALAR, _SIZE, _THRESHOLDS, MAX_DISCARDS,
                      OWN_DRAWN, SCORES, SEAT_BASE, SEAT_PLANES, SHAPE, TABLE, _N)

_STANDING = slice(SCORES * _N, SCORES * _N + 11)  # row 101, columns 0-10
_MELD_SPAN = 4 * _N  # the four meld rows of a seat, contiguous
_DRAWN = slice(OWN_DRAWN * _N, (OWN_DRAWN + 1) * _N)
_TABLE = slice(TABLE * _N, (TABLE + 1) * _N)
_SCALARS = slice(_SCALAR, _SCALAR + _N)
_ZERO_ROW = bytes(_N)
_ZERO_MELDS = bytes(_MELD_SPAN)
# per observer and absolute seat: where its meld rows start (the first of the four)
_MELD_START = [[(SEAT_BASE + SEAT_PLANES * ((s - me) % 3)) * _N for s in range(3)]
               for me in range(3)]


class HandEncoder:
    """The observation planes of every seat of ``hand``, kept up to date (module docstring).

    :meth:`encode` returns a new ``float32 (102, 30)`` array; :meth:`encode_into` writes one
    into a given array (a row of a batch). Follows one hand: make a new encoder for the next
    hand (:attr:`hand` tells which it follows). Raises nothing of its own; a seat outside 0-2
    is an ``IndexError``.
    """

    __slots__ = ("hand", "_cells", "_rivers", "_written", "_last_taken", "_river_counts")

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self._cells = [bytearray(_SIZE) for _ in range(3)]
        self._rivers = [bytearray(), bytearray(), bytearray()]  # river rows, absolute seats
        self._written = [0, 0, 0]  # discards read so far, per seat
        self._last_taken = [False, False, False]  # the taken flag of the last discard read
        self._river_counts = [0] * _N  # tiles lying in the rivers, not taken (R4.4)

    def _read_rivers(self) -> None:
        """Bring the rivers (shared by the seats' buffers) up to date: new discards, and the
        last discard read, which a pung, kong or win may have taken since (R4.4)."""
        counts = self._river_counts
        for s, st in enumerate(self.hand.seats):
            discards, taken = st.discards, st.claimed
            n, w = len(discards), self._written[s]
            if w and taken[w - 1] != self._last_taken[s]:  # taken since it was read
                tile = discards[w - 1]
                counts[tile] -= 1
                if w <= MAX_DISCARDS:
                    at = (w - 1) * _N
                    self._rivers[s][at:at + _N] = _RIVER_ROWS[tile + _N]
                self._last_taken[s] = True
            if n > w:
                rows = self._rivers[s]
                for i in range(w, n):
                    tile, took = discards[i], taken[i]
                    if not took:
                        counts[tile] += 1
                    if i < MAX_DISCARDS:
                        rows += _RIVER_ROWS[tile + _N * took]
                self._written[s] = n
                self._last_taken[s] = taken[n - 1]

    def _cells_of(self, seat: int) -> tuple[bytearray, list, list]:
        """``seat``'s int8 planes brought up to date (rows 0-100), the values of row 101
        columns 0-5 (hand deltas and 漂, relative order) and that order (absolute seats)."""
        hand = self.hand
        self._read_rivers()
        cells = self._cells[seat]
        phase, current, seats = hand.phase, hand.current, hand.seats
        ended = phase == ENDED
        me = seats[seat]
        layouts, order, dealer_col, turn_col, table_col = _LAYOUT[seat]
        meld_starts = _MELD_START[seat]
        hide_kongs = not ended and not hand.rules.concealed_kong_visible  # R6.1
        robbing = phase == ROB
        pending = hand.pending
        visible = list(map(int.__add__, me.concealed, self._river_counts))
        cells[_SCALARS] = _ZERO_ROW
        for s, st in enumerate(seats):
            meld_at, waits_at, shown_at, river_at, declared, count, kongs, hidden = layouts[s]
            start = meld_starts[s]
            cells[start:start + _MELD_SPAN] = _ZERO_MELDS
            hidden_kongs = 0
            for m in st.melds:
                if hide_kongs and s != seat and m.kind == MELD_CONCEALED_KONG:
                    hidden_kongs += 1
                else:
                    cells[meld_at[m.kind] + m.tile] = 1
                    visible[m.tile] += m.size
            if st.declared or ended:  # 亮倒 (R8.1), or every hand once the hand has ended
                if st.declared:
                    cells[waits_at:waits_at + _N] = _ZERO_ROW
                    for w in st.waits:
                        cells[waits_at + w] = 1
                shown = list(st.concealed)
                if not ended:
                    shown = without(shown, st.hidden)
                    if st.drawn is not None and current == s and shown[st.drawn]:
                        shown[st.drawn] -= 1
                    if robbing and pending.seat == s and shown[pending.tile]:
                        shown[pending.tile] -= 1  # on the table (R7.4), counted below
                cells[shown_at] = bytes(shown)
                if s != seat:
                    visible = list(map(int.__add__, visible, shown))
            rows = self._rivers[s]
            if rows:
                cells[river_at:river_at + len(rows)] = rows
            cells[declared] = st.declared
            cells[count] = sum(st.concealed)
            cells[kongs] = hidden_kongs
            cells[hidden] = tile_count(st.hidden) if st.hidden and not ended else 0
        cells[_DRAWN] = _ZERO_ROW
        if current == seat and not ended and me.drawn is not None:
            cells[OWN_DRAWN * _N + me.drawn] = 1
        cells[_TABLE] = _ZERO_ROW
        if phase == CLAIM or robbing:
            cells[TABLE * _N + pending.tile] = 1
            cells[table_col[pending.seat]] = 1
            cells[_SCALAR + 15] = pending.robbing
            if pending.robbing and pending.seat != seat:  # the tile being added is shown
                visible[pending.tile] += 1
        own, seen = bytes(me.concealed), bytes(visible)
        for above, own_row, visible_row in _THRESHOLDS:
            cells[own_row] = own.translate(above)
            cells[visible_row] = seen.translate(above)
        cells[_SCALAR] = hand.wall_left
        cells[_SCALAR + _PHASE_COL[phase]] = 1
        cells[dealer_col[hand.dealer]] = 1
        if phase != PIAO_PHASE and not ended:
            cells[turn_col[current]] = 1
        known = phase != PIAO_PHASE
        deltas = hand.deltas
        a, b, c = order
        pa, pb, pc = seats[a].piao, seats[b].piao, seats[c].piao
        if not known:  # the 漂 phase: only the seat's own choice is known (R11.1)
            pb = pc = None
        return cells, [deltas[a], deltas[b], deltas[c], -1 if pa is None else pa,
                       -1 if pb is None else pb, -1 if pc is None else pc], order

    def encode_into(self, out: np.ndarray, seat: int,
                    standing: tuple[tuple[int, int, int], int, int] | None = None) -> None:
        """Write ``seat``'s planes into ``out`` (``float32 (102, 30)``, e.g. a row of a
        batch). ``standing``: as :func:`~.tensors.observation_tensor` (None: this hand
        alone)."""
        out[...] = self._planes(seat, standing).reshape(SHAPE)

    def _planes(self, seat: int, standing: tuple | None) -> np.ndarray:
        """``seat``'s planes, flat: ``float32 (3060,)``."""
        cells, scores, order = self._cells_of(seat)
        flat = np.frombuffer(cells, np.int8).astype(np.float32)  # row 101 of cells is all 0
        if standing is None:
            totals, number, left = self.hand.deltas, 0, 0
        else:
            totals, number, left = standing
        a, b, c = order
        flat[_STANDING] = scores + [totals[a], totals[b], totals[c], number, left]
        return flat

    def encode(self, seat: int,
               standing: tuple[tuple[int, int, int], int, int] | None = None) -> np.ndarray:
        """``seat``'s planes as a new ``float32 (102, 30)`` array (see :meth:`encode_into`)."""
        return self._planes(seat, standing).reshape(SHAPE)
