"""Hand shapes (RULES.md R7.1): win check, readings, waits, shanten. No rules, no scoring.

All functions take a *counts vector* (30 ints, see :mod:`kawuxing.tiles`) of **concealed**
tiles only; declared melds are sets already made and are passed as a number where they matter.

Table-driven: each suit's nine counts are packed into one int *key* (3 bits a rank). Two
frozensets built at import hold every key that is four or fewer sets (``_SETS``) and every key
that is sets plus one pair (``_SETS_PAIR``); a hand wins when one component (a suit or the
dragons) is in ``_SETS_PAIR`` and the others are in ``_SETS``. Readings and shanten are computed
per component and memoised by key, so a component already seen costs one dict lookup.
"""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache

from .tiles import DRAGON_BASE, NUM_KINDS

_BITS = 3
_ONES = int("001" * 9, 2)  # one bit at the bottom of each 3-bit rank field
_COMPONENTS = ((0, 9), (9, 9), (18, 9), (DRAGON_BASE, 3))  # (first kind, ranks): m, p, s, z


def _key(counts: list[int], start: int, size: int) -> int:
    key = 0
    for i in range(start + size - 1, start - 1, -1):
        key = (key << _BITS) | counts[i]
    return key


def _build_tables() -> tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int]]:
    """Every suit key of 0-4 sets, and of sets + one pair; the same for the dragons (no chows).

    A key is kept only while no rank field exceeds 4: after adding a set (at most 3 to a field
    of at most 4) a field is 0-7, and 5-7 are exactly the values with bit 2 and bit 0 or 1 set.
    """
    suit_sets = [3 << (_BITS * i) for i in range(9)]  # pungs
    suit_sets += [(1 | 1 << _BITS | 1 << 2 * _BITS) << (_BITS * i) for i in range(7)]  # chows
    level = {0}
    sets = {0}
    for _ in range(4):
        level = {k for k in (a + s for a in level for s in suit_sets)
                 if not ((k >> 2) & (k | (k >> 1)) & _ONES)}
        sets |= level
    sets_pair = {k for k in (a + (2 << (_BITS * i)) for i in range(9) for a in sets)
                 if not ((k >> 2) & (k | (k >> 1)) & _ONES)}
    z_sets = {a | b << _BITS | c << 2 * _BITS for a in (0, 3) for b in (0, 3) for c in (0, 3)}
    z_pair = {k + (2 << (_BITS * i)) for k in z_sets for i in range(3) if not (k >> (_BITS * i)) & 7}
    return frozenset(sets), frozenset(sets_pair), frozenset(z_sets), frozenset(z_pair)


_SETS, _SETS_PAIR, _Z_SETS, _Z_SETS_PAIR = _build_tables()
_TABLES = ((_SETS, _SETS_PAIR),) * 3 + ((_Z_SETS, _Z_SETS_PAIR),)


def is_standard_win(counts: list[int]) -> bool:
    """True when the concealed tiles are some number of sets plus exactly one pair (R7.1).

    ``counts`` holds 14, 11, 8, 5 or 2 tiles (14 minus 3 per declared meld); any other total
    gives False.
    """
    pair_seen = False
    for (start, size), (sets, sets_pair) in zip(_COMPONENTS, _TABLES):
        key = _key(counts, start, size)
        if key in sets:
            continue
        if key in sets_pair and not pair_seen:
            pair_seen = True
            continue
        return False
    return pair_seen


def is_seven_pairs(counts: list[int]) -> bool:
    """True for 14 concealed tiles that are seven pairs; four of a kind is two pairs (R7.1)."""
    total = 0
    for c in counts:
        if c & 1:
            return False
        total += c
    return total == 14


def is_win(counts: list[int]) -> bool:
    """True when the concealed tiles complete a winning hand: standard shape or seven pairs."""
    return is_standard_win(counts) or is_seven_pairs(counts)


Set = namedtuple("Set", "kind tile")
Set.__doc__ = """One set of a reading: ``kind`` is ``"pung"`` or ``"chow"``, ``tile`` its lowest kind."""

Reading = namedtuple("Reading", "sets pairs seven_pairs", defaults=(False,))
Reading.__doc__ = """One decomposition of a winning concealed hand (R9.2).

``seven_pairs`` True: ``pairs`` lists the seven pair kinds (a kind twice for four of a kind) and
``sets`` is empty. Otherwise ``pairs`` is a 1-tuple of the pair kind and ``sets`` the concealed
sets (tuple of :class:`Set`)."""


@lru_cache(maxsize=None)
def _component_readings(key: int, size: int, chows: bool) -> tuple[tuple[tuple, int], ...]:
    """Every way to read one component as sets (+ at most one pair): ((sets...), pair or -1)."""
    if key == 0:
        return (((), -1),)
    i = 0
    while not (key >> (_BITS * i)) & 7:
        i += 1
    c = (key >> (_BITS * i)) & 7
    out = []
    one = 1 << (_BITS * i)
    if c >= 3:
        for sets, pair in _component_readings(key - 3 * one, size, chows):
            out.append(((("pung", i),) + sets, pair))
    if c >= 2:
        for sets, pair in _component_readings(key - 2 * one, size, chows):
            if pair < 0:
                out.append((sets, i))
    if chows and i + 2 < size and (key >> (_BITS * (i + 1))) & 7 and (key >> (_BITS * (i + 2))) & 7:
        for sets, pair in _component_readings(key - one * (1 | 1 << _BITS | 1 << 2 * _BITS),
                                               size, chows):
            out.append(((("chow", i),) + sets, pair))
    return tuple(out)


def readings(counts: list[int]) -> list[Reading]:
    """Every reading of a winning concealed hand (R7.1, R9.2): standard decompositions, then the
    seven-pairs reading when the hand is seven pairs. Empty when the hand is not a win.

    Sets and pairs name kinds of the 30-kind universe; chows by their lowest tile.
    """
    out: list[Reading] = []
    if is_standard_win(counts):
        partial: list[tuple[tuple[Set, ...], int]] = [((), -1)]
        for start, size in _COMPONENTS:
            key = _key(counts, start, size)
            comps = _component_readings(key, size, start < DRAGON_BASE)
            partial = [(sets + tuple(Set(k, start + i) for k, i in csets),
                        cpair + start if cpair >= 0 else pair)
                       for sets, pair in partial for csets, cpair in comps
                       if not (cpair >= 0 and pair >= 0)]
        out = [Reading(sets, (pair,)) for sets, pair in partial if pair >= 0]
    if is_seven_pairs(counts):
        pairs = tuple(k for k in range(NUM_KINDS) for _ in range(counts[k] // 2))
        out.append(Reading((), pairs, True))
    return out


def waits(counts: list[int], held: list[int] | None = None) -> list[int]:
    """The kinds that would complete a concealed hand of 13, 10, 7, 4 or 1 tiles (R7.1, R8.1).

    A kind is left out when the player already holds all four copies: ``held`` is the counts
    vector of everything the player holds (concealed tiles and melds), default ``counts``.
    Returns kinds in index order; ``[]`` when the hand is not ready.
    """
    held = counts if held is None else held
    out = []
    seven = sum(counts) == 13
    for kind in _candidates(counts):
        if held[kind] >= 4:
            continue
        counts[kind] += 1
        try:
            if is_standard_win(counts) or (seven and is_seven_pairs(counts)):
                out.append(kind)
        finally:
            counts[kind] -= 1
    return out


def _candidates(counts: list[int]) -> list[int]:
    """Kinds that could complete the hand: those held, and suited neighbours within two."""
    cand = set()
    for kind in range(NUM_KINDS):
        if counts[kind]:
            cand.add(kind)
            if kind < DRAGON_BASE:
                low = kind - kind % 9
                cand.update(range(max(low, kind - 2), min(low + 9, kind + 3)))
    return sorted(cand)


@lru_cache(maxsize=None)
def _component_blocks(key: int, size: int, chows: bool) -> tuple[tuple[int, int, int], ...]:
    """Pareto-best (sets, partial sets, head pair 0/1) counts one component can be read as."""
    if key == 0:
        return ((0, 0, 0),)
    i = 0
    while not (key >> (_BITS * i)) & 7:
        i += 1
    c = (key >> (_BITS * i)) & 7
    one = 1 << (_BITS * i)
    found: set[tuple[int, int, int]] = set()

    def take(sub: int, dm: int, dt: int, dp: int) -> None:
        for m, t, p in _component_blocks(sub, size, chows):
            if p + dp <= 1:
                found.add((m + dm, t + dt, p + dp))

    take(key - one, 0, 0, 0)  # the tile stays isolated
    if c >= 3:
        take(key - 3 * one, 1, 0, 0)
    if c >= 2:
        take(key - 2 * one, 0, 0, 1)  # head pair
        take(key - 2 * one, 0, 1, 0)  # pair waiting to become a pung
    if chows:
        c1 = (key >> (_BITS * (i + 1))) & 7 if i + 1 < size else 0
        c2 = (key >> (_BITS * (i + 2))) & 7 if i + 2 < size else 0
        if c1 and c2:
            take(key - one * (1 | 1 << _BITS | 1 << 2 * _BITS), 1, 0, 0)
        if c1:
            take(key - one * (1 | 1 << _BITS), 0, 1, 0)
        if c2:
            take(key - one * (1 | 1 << 2 * _BITS), 0, 1, 0)
    best = [b for b in found if not any(o != b and o[0] >= b[0] and o[1] >= b[1] and o[2] >= b[2]
                                        for o in found)]
    return tuple(sorted(best))


def standard_shanten(counts: list[int], melds: int = 0) -> int:
    """Shanten of the standard shape (four sets + a pair, R7.1): -1 when complete, 0 when ready.

    ``counts`` holds 13 or 14 - 3 × ``melds`` concealed tiles; ``melds`` is the number of declared
    melds (each a finished set). Computed as 2 × sets needed − 2 × sets − partial sets − pair,
    with partial sets limited to the sets still missing.
    """
    need = 4 - melds
    combos = [(0, 0, 0)]
    for start, size in _COMPONENTS:
        blocks = _component_blocks(_key(counts, start, size), size, start < DRAGON_BASE)
        merged = {(m + bm, t + bt, p + bp) for m, t, p in combos for bm, bt, bp in blocks
                  if p + bp <= 1}
        combos = [b for b in merged if not any(o != b and o[0] >= b[0] and o[1] >= b[1]
                                               and o[2] >= b[2] for o in merged)]
    best = 0
    for m, t, p in combos:
        m = min(m, need)
        best = max(best, 2 * m + min(t, need - m) + p)
    return 2 * need - best


def seven_pairs_shanten(counts: list[int]) -> int:
    """Shanten of seven pairs (four of a kind counts as two pairs, R7.1) for 13 or 14 tiles."""
    return 6 - sum(c // 2 for c in counts)


def shanten(counts: list[int], melds: int = 0) -> int:
    """The smaller of standard and (with no melds) seven-pairs shanten; -1 = a winning hand."""
    standard = standard_shanten(counts, melds)
    if melds == 0 and standard > -1:
        return min(standard, seven_pairs_shanten(counts))
    return standard
