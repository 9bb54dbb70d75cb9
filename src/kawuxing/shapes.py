"""Hand shapes (RULES.md R7.1): win check, readings, waits, shanten. No rules, no scoring.

All functions take a *counts vector* (30 ints, see :mod:`kawuxing.tiles`) of **concealed**
tiles only; declared melds are sets already made and are passed as a number where they matter.

Table-driven. A hand splits into four *components*: the three suits (nine ranks each) and the
dragons (three kinds, which never run). A component's counts are packed into one int *key*, one
byte a rank, so one ``int.from_bytes`` packs all four. A dict built at import for each kind of
component (``_SUIT_TABLE``, ``_DRAGON_TABLE``) maps every key that is 0-4 sets, or such sets plus
one pair, to ``_PAIR`` × pairs + sets: a hand is a standard win when each of its components is
in the table and the values add up to one pair and at most four sets; seven pairs is a test
of bits of the whole key. :func:`is_win_key` takes the packed key of the whole hand
(:func:`pack`), :func:`is_win` builds it from the list first (most of its time).

Shanten and waits need no search: :mod:`kawuxing.shapes_tables` holds, for every component
indexed by its counts read in base 5, the id of its shanten value vector (54 distinct) and of
its wait information (state and completing ranks), plus a merge table of value vectors. The
tables ship as package data (``shapes_tables.bin``, about 180 KB, 7 MB loaded). The search
code they were built from stays as the slow reference (:func:`standard_shanten_reference`,
:func:`waits_reference`) and answers the inputs outside the tables (a count above 4, a suit of
more than 14 tiles). Readings are worked out per component and memoised by key
(``lru_cache`` of at most :data:`CACHE_SIZE` entries).
"""

from __future__ import annotations

import sys as _sys
from collections import namedtuple
from functools import lru_cache
from itertools import combinations_with_replacement, product, repeat

CACHE_SIZE = 2**15  # entries per memo (lru_cache): bounded memory in a long-running server

from . import shapes_tables as _shapes_tables
from .tiles import DRAGON_BASE, NUM_KINDS

_BITS = 8                                      # one byte per rank field of a key
_FIELD = (1 << _BITS) - 1
_ONES = int.from_bytes(b"\x01" * 9, "little")  # bit 0 of each of nine rank fields
_UNITS = tuple(1 << (_BITS * r) for r in range(9))  # one tile of each rank
_NINE = (1 << 9 * _BITS) - 1                   # the nine rank fields of a suit key
_COMPONENTS = ((0, 9), (9, 9), (18, 9), (DRAGON_BASE, 3))  # (first kind, ranks): m, p, s, z
_ODD = bytes(c & 1 for c in range(256))        # bytes.translate: count -> count % 2
_HALF = bytes(c // 2 for c in range(256))      # bytes.translate: count -> pairs in it
_PAIR = 16                                     # table values: _PAIR × pairs (0 or 1) + sets
_MISSING = 4 * _PAIR                           # stands for "not in the table" in a sum
_ONES30 = int.from_bytes(b"\x01" * NUM_KINDS, "little")  # bit 0 of every kind's field
_P_SHIFT, _S_SHIFT, _Z_SHIFT = 9 * _BITS, 18 * _BITS, DRAGON_BASE * _BITS  # 筒, 条, dragons
_SUM_SHIFT = (NUM_KINDS - 1) * _BITS  # key × _ONES30: this byte sums every count


def _keys(raw: bytes) -> tuple[int, int, int, int]:
    """The keys of the four components (m, p, s, dragons) of ``bytes(counts)``."""
    whole = int.from_bytes(raw, "little")
    return (whole & _NINE, whole >> 9 * _BITS & _NINE, whole >> 18 * _BITS & _NINE,
            whole >> DRAGON_BASE * _BITS)


def _rank(key: int, i: int) -> int:
    return key >> (_BITS * i) & _FIELD


def _build_tables() -> tuple[dict[int, int], dict[int, int]]:
    """Every key of 0-4 sets, and of such sets + one pair, with its value; suits, dragons."""
    def fits(key: int) -> bool:  # no rank field above 4; fields stay below 16 here
        return not (key >> 3 | key >> 2 & (key | key >> 1)) & _ONES

    one = [1 << (_BITS * r) for r in range(9)]
    shapes = [3 * one[r] for r in range(9)] + [one[r] + one[r + 1] + one[r + 2] for r in range(7)]
    suit_sets = {key: n for n in range(5)
                 for key in map(sum, combinations_with_replacement(shapes, n)) if fits(key)}
    suit = dict(suit_sets)
    for r in range(9):  # the pair goes on a rank that has at most 2
        suit.update({k + 2 * one[r]: _PAIR + n for k, n in suit_sets.items()
                     if k >> (_BITS * r) & _FIELD <= 2})
    dragon = {a | b << _BITS | c << 2 * _BITS: _PAIR * (a, b, c).count(2) + (a, b, c).count(3)
              for a, b, c in product((0, 2, 3), repeat=3) if (a, b, c).count(2) <= 1}
    return suit, dragon


_SUIT_TABLE, _DRAGON_TABLE = _build_tables()
_TABLES = (_SUIT_TABLE,) * 3 + (_DRAGON_TABLE,)


def is_standard_win(counts: list[int]) -> bool:
    """True when the concealed tiles are some number of sets plus exactly one pair (R7.1).

    ``counts`` holds 14, 11, 8, 5 or 2 tiles (14 minus 3 per declared meld); any other total
    gives False.
    """
    whole = int.from_bytes(bytes(counts), "little")  # _keys(), inlined for speed
    get, missing = _SUIT_TABLE.get, _MISSING
    value = (get(whole & _NINE, missing) + get(whole >> 9 * _BITS & _NINE, missing)
             + get(whole >> 18 * _BITS & _NINE, missing)
             + _DRAGON_TABLE.get(whole >> DRAGON_BASE * _BITS, missing))
    return _PAIR <= value <= _PAIR + 4  # exactly one pair, at most four sets


def is_seven_pairs(counts: list[int]) -> bool:
    """True for 14 concealed tiles that are seven pairs; four of a kind is two pairs (R7.1)."""
    return sum(counts) == 14 and not any(bytes(counts).translate(_ODD))


# (白, 发, 中) counts -> the dragons' _DRAGON_TABLE value, or -1 where only seven pairs can use
# them (even counts, 14 tiles at most); a triple not here is in no winning hand (is_win)
_DRAGON_TUPLES = {(c0, c1, c2): -1 for c0 in range(0, 15, 2) for c1 in range(0, 15, 2)
                  for c2 in range(0, 15, 2) if c0 + c1 + c2 <= 14}
_DRAGON_TUPLES.update({(k & _FIELD, k >> _BITS & _FIELD, k >> 2 * _BITS): v
                       for k, v in _DRAGON_TABLE.items()})


def is_win(counts: list[int], _dget=_DRAGON_TUPLES.get, _get=_SUIT_TABLE.get, _nine=_NINE,
           _odd=_ONES30, _p=_P_SHIFT, _s=_S_SHIFT, _sum=_SUM_SHIFT,
           _from_bytes=int.from_bytes, _bytes=bytearray) -> bool:
    """True when the concealed tiles complete a winning hand: standard shape or seven pairs
    (R7.1). ``counts`` is a counts vector of 30 kinds (``ValueError`` for a count outside
    0-255). The three dragon counts first, read from the list as a tuple (no packing): four
    random hands in five hold dragons that no winning hand holds (a single, or two pairs)
    and stop there. Then :func:`is_win_key` of the packed key, inlined (packing is most of
    its time: a caller that keeps the key up to date calls :func:`is_win_key`)."""
    d = _dget((counts[27], counts[28], counts[29]))  # 白 发 中 (DRAGON_BASE 27)
    if d is None:
        return False
    whole = _from_bytes(_bytes(counts), "little")  # pack(counts) (bytearray: faster than bytes)
    if d >= 0:  # the dragons are sets (+ a pair): the standard shape
        c = _get(whole >> _s & _nine)  # 条
        if c is not None:
            b = _get(whole >> _p & _nine)  # 筒
            if b is not None:
                a = whole & _nine  # 万: not in the default game
                if a:
                    d += _get(a, _MISSING)
                if _PAIR <= b + c + d <= _PAIR + 4:
                    return True
    # seven pairs (R7.1): no odd count, 14 tiles; a four of a kind is two pairs
    return not whole & _odd and (whole * _odd >> _sum & 255) == 14


def pack(counts: list[int]) -> int:
    """The *packed key* of a counts vector: one byte a kind, kind 0 lowest (counts 0-255).
    One more copy of kind ``k`` adds ``1 << 8 * k`` (:data:`UNITS`)."""
    return int.from_bytes(bytearray(counts), "little")


UNITS = tuple(1 << (_BITS * k) for k in range(NUM_KINDS))  # UNITS[k]: one tile of kind k, packed


def is_win_key(whole: int, _get=_SUIT_TABLE.get, _dget=_DRAGON_TABLE.get, _nine=_NINE,
               _odd=_ONES30, _p=_P_SHIFT, _s=_S_SHIFT, _z=_Z_SHIFT, _sum=_SUM_SHIFT) -> bool:
    """:func:`is_win` of the hand whose packed key (:func:`pack`) is ``whole``.

    The standard shape first, giving up at the first component not in its table (most hands
    the engine checks are not wins; the dragons first: one shift, a table of 20 keys), then
    seven pairs by bit arithmetic: every count even, 14 tiles (the byte sums of ``whole`` ×
    ``0x0101…01``, no carry below 256 tiles)."""
    d = _dget(whole >> _z)
    if d is not None:
        c = _get(whole >> _s & _nine)
        if c is not None:
            b = _get(whole >> _p & _nine)
            if b is not None:
                a = whole & _nine
                if a:
                    d += _get(a, _MISSING)
                if _PAIR <= b + c + d <= _PAIR + 4:
                    return True
    return not whole & _odd and (whole * _odd >> _sum & 255) == 14


Set = namedtuple("Set", "kind tile")
Set.__doc__ = """One set of a reading: ``kind`` is ``"pung"`` or ``"chow"``, ``tile`` its lowest
kind."""

Reading = namedtuple("Reading", "sets pairs seven_pairs", defaults=(False,))
Reading.__doc__ = """One decomposition of a winning concealed hand (R9.2).

``seven_pairs`` True: ``pairs`` lists the seven pair kinds (a kind twice for four of a kind) and
``sets`` is empty. Otherwise ``pairs`` is a 1-tuple of the pair kind and ``sets`` the concealed
sets (tuple of :class:`Set`)."""


@lru_cache(maxsize=CACHE_SIZE)
def _component_readings(key: int, size: int, chows: bool) -> tuple[tuple[tuple, int], ...]:
    """Every way to read one component as sets (+ at most one pair): ((sets...), pair or -1).

    Each reading comes exactly once: the copies of the lowest rank ``i`` are split into at most
    one pung of ``i``, at most one pair of ``i`` and the rest chows starting at ``i``, and a
    reading fixes that split.
    """
    if key == 0:
        return (((), -1),)
    i = 0
    while not _rank(key, i):
        i += 1
    c = _rank(key, i)
    one = 1 << (_BITS * i)
    chow = one * (1 | 1 << _BITS | 1 << 2 * _BITS)
    out = []
    for pungs in (1, 0):
        for pairs in (0, 1):
            runs = c - 3 * pungs - 2 * pairs
            if runs < 0 or runs and not (chows and i + 2 < size and _rank(key, i + 1) >= runs
                                         and _rank(key, i + 2) >= runs):
                continue
            head = (("pung", i),) * pungs + (("chow", i),) * runs
            for sets, pair in _component_readings(key - c * one - runs * (chow - one), size,
                                                  chows):
                if pairs and pair >= 0:
                    continue
                out.append((head + sets, i if pairs else pair))
    return tuple(out)


def readings(counts: list[int]) -> list[Reading]:
    """Every reading of a winning concealed hand (R7.1, R9.2): standard decompositions, then the
    seven-pairs reading when the hand is seven pairs. Empty when the hand is not a win.

    Sets and pairs name kinds of the 30-kind universe; chows by their lowest tile.
    """
    out: list[Reading] = []
    if is_standard_win(counts):
        partial: list[tuple[tuple[Set, ...], int]] = [((), -1)]
        for key, (start, size) in zip(_keys(bytes(counts)), _COMPONENTS):
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


@lru_cache(maxsize=CACHE_SIZE)
def _completions(key: int, component: int, pair: int) -> tuple[int, ...]:
    """The kinds whose one more copy makes a component (m, p, s, z = 0-3) with this key sets
    (``pair`` 0) or sets + a pair (``pair`` 1): table lookups."""
    start, size = _COMPONENTS[component]
    plus_one = map(key.__add__, _UNITS[:size])  # the key with one more tile of each rank
    values = map(_TABLES[component].get, plus_one, repeat(-_PAIR))  # -_PAIR: not in the table
    return tuple(start + i for i, value in enumerate(values) if value // _PAIR == pair)


def waits_reference(counts: list[int], held: list[int] | None = None) -> list[int]:
    """:func:`waits` by table lookups of every one-tile-more key (the slow reference of the
    precomputed tables). The kinds that would complete a concealed hand of 13, 10, 7, 4 or 1 tiles (R7.1, R8.1).

    A kind is left out when the player already holds all four copies: ``held`` is the counts
    vector of everything the player holds (concealed tiles and melds), default ``counts``.
    Returns kinds in index order; ``[]`` when the hand is not ready.

    One tile changes one component: it must complete that component to sets, or to sets + the
    pair when no other component holds it, while every other component is already in its table.
    """
    held = counts if held is None else held
    total = sum(counts)
    if total > 13:
        return []
    raw = bytes(counts)
    keys = _keys(raw)
    values = list(map(dict.get, _TABLES, keys))  # None: not in the table
    found = set()
    unfinished = values.count(None)
    if unfinished == 1:  # the tile must go there
        i = values.index(None)
        values[i] = 0
        other_pairs = sum(values) // _PAIR  # (the other three hold fewer than _PAIR sets)
        if other_pairs <= 1:
            found.update(_completions(keys[i], i, 1 - other_pairs))
    elif unfinished == 0:  # then two components hold a pair: the tile makes one of them sets
        for i, value in enumerate(values):
            if value >= _PAIR and (sum(values) - value) // _PAIR == 1:
                found.update(_completions(keys[i], i, 0))
    if total == 13:  # seven pairs: six pairs and a single (a third copy makes four of a kind)
        odd = raw.translate(_ODD)
        if odd.count(1) == 1:
            found.add(odd.index(1))
    return [k for k in sorted(found) if held[k] < 4]


# Standard shanten works on *value vectors* of 10 small ints. A *block* is a set or a partial
# set (a pair, or two tiles of one suit one or two ranks apart); the tiles of a hand are read as
# blocks, at most one head pair, and tiles left alone. For w = 0-4, v[w] is the best
# 2 × sets + partial sets over readings with at most w blocks and no head pair, and v[5 + w] the
# best over readings with at most w blocks and at most one head pair, which adds 1. A value of 0
# where no reading fits is harmless: every reading is worth at least 0.
_EMPTY = (0,) * 10  # no tiles, or only lone tiles; the identity of _merge


def _with_block(v: tuple[int, ...], gain: int) -> tuple[int, ...]:
    """The vector of a reading that adds one block worth ``gain`` to the readings of ``v``."""
    return (0, v[0] + gain, v[1] + gain, v[2] + gain, v[3] + gain,
            0, v[5] + gain, v[6] + gain, v[7] + gain, v[8] + gain)


def _with_head(v: tuple[int, ...]) -> tuple[int, ...]:
    """The vector of a reading that adds the head pair to the pairless readings of ``v``."""
    return (0, 0, 0, 0, 0, v[0] + 1, v[1] + 1, v[2] + 1, v[3] + 1, v[4] + 1)


@lru_cache(maxsize=CACHE_SIZE)
def _values(key: int, chows: bool) -> tuple[int, ...]:
    """The value vector of one component or group of ranks: the best over every way to use its
    lowest tile — alone, in a pung, as the head pair, a pair, a chow or a partial chow."""
    if not key:
        return _EMPTY
    i = ((key & -key).bit_length() - 1) // _BITS  # the lowest rank held
    one = 1 << (_BITS * i)
    c = key >> (_BITS * i) & _FIELD
    options = [_values(key - one, chows)]  # the tile stays alone
    if c >= 2:
        rest = _values(key - 2 * one, chows)
        options += [_with_block(rest, 1), _with_head(rest)]
    if c >= 3:
        options.append(_with_block(_values(key - 3 * one, chows), 2))
    if chows:  # fields past the last rank are 0
        next1 = key >> (_BITS * (i + 1)) & _FIELD
        next2 = key >> (_BITS * (i + 2)) & _FIELD
        if next1 and next2:
            options.append(_with_block(_values(key - one * (1 | 1 << _BITS | 1 << 2 * _BITS),
                                               chows), 2))
        if next1:
            options.append(_with_block(_values(key - one * (1 | 1 << _BITS), chows), 1))
        if next2:
            options.append(_with_block(_values(key - one * (1 | 1 << 2 * _BITS), chows), 1))
    return tuple(map(max, *options)) if len(options) > 1 else options[0]


@lru_cache(maxsize=CACHE_SIZE)
def _merge(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The value vector of two parts of a hand together: the best split of the w blocks (and
    of the head pair)."""
    return tuple(max(a[x] + b[w - x] for x in range(w + 1)) for w in range(5)) + tuple(
        max(max(a[5 + x] + b[w - x], a[x] + b[5 + w - x]) for x in range(w + 1))
        for w in range(5))


@lru_cache(maxsize=CACHE_SIZE)
def _component_values(key: int, size: int, chows: bool) -> tuple[int, ...]:
    """The value vector of one component, merged from its groups.

    Tiles two or more empty ranks apart (and any two dragons) share no block, so each group of
    ranks between such gaps is valued on its own: far fewer groups than components occur.
    """
    ranks = key.to_bytes(size, "little")
    groups = ([g.strip(b"\0") for g in ranks.split(b"\0\0")] if chows
              else [bytes([c]) for c in ranks])
    values = _EMPTY
    for group in groups:
        if len(group) > 1 or group and group[0] > 1:  # a lone tile makes no block
            part = _values(int.from_bytes(group, "little"), chows)
            values = part if values is _EMPTY else _merge(values, part)
    return values


def standard_shanten_reference(counts: list[int], melds: int = 0) -> int:
    """:func:`standard_shanten` by search (the slow reference of the precomputed tables).
    Shanten of the standard shape (four sets + a pair, R7.1): -1 when complete, 0 when ready.

    ``counts`` holds 13 or 14 - 3 × ``melds`` concealed tiles; ``melds`` is the number of declared
    melds (each a finished set). Computed as 2 × sets needed − 2 × sets − partial sets − pair,
    with partial sets limited to the sets still missing.
    """
    need = 4 - melds
    values = _EMPTY
    for key, (start, size) in zip(_keys(bytes(counts)), _COMPONENTS):
        if key:
            component = _component_values(key, size, start < DRAGON_BASE)
            values = component if values is _EMPTY else _merge(values, component)
    return 2 * need - values[5 + need]


def seven_pairs_shanten(counts: list[int]) -> int:
    """Shanten of seven pairs (four of a kind counts as two pairs, R7.1) for 13 or 14 tiles."""
    return 6 - sum(bytes(counts).translate(_HALF))


def shanten(counts: list[int], melds: int = 0) -> int:
    """The smaller of standard and (with no melds) seven-pairs shanten; -1 = a winning hand.

    :func:`standard_shanten` and :func:`seven_pairs_shanten` in one pass over the counts."""
    raw = bytearray(counts)  # (faster than bytes)
    try:  # standard_shanten, inlined
        whole = int(raw.translate(_DIGITS), 5)
    except ValueError:
        return _shanten_reference(counts, melds)
    vec = _SUIT_VEC
    a, b, c = vec[whole // _P21], vec[whole // _P12 % _P9], vec[whole // 125 % _P9]
    if (a | b | c) > 127 or not 0 <= melds <= 4 or len(counts) != NUM_KINDS:
        return _shanten_reference(counts, melds)
    n, merge = _NV, _MERGE
    standard = _SHANTEN[merge[merge[merge[a * n + b] * n + c] * n + _DRAGON_VEC[whole % 125]] * 5
                        + melds] - 1
    if melds == 0 and standard > -1:
        return min(standard, 6 - sum(raw.translate(_HALF)))
    return standard


def draw_shanten(counts: list[int], melds: int = 0) -> tuple[int, list[int | None]]:
    """``(shanten(counts, melds), after)`` where ``after[k]`` is ``shanten`` of ``counts``
    with one more tile of kind ``k`` (30 entries; None where ``counts[k]`` is 4 already: no
    fifth copy, R1.1) — the shanten of every draw at once (effective tiles). The same values
    as :func:`shanten` called 31 times, three to four times faster: a draw changes one
    component, so the other three are merged once per component (the merge of value vectors
    is commutative and associative: their ids index a closed table). Inputs outside the
    tables (a count above 4, more than 14 tiles in a suit, ``melds`` outside 0-4) are
    answered by :func:`shanten` itself."""
    raw = bytearray(counts)
    try:
        whole = int(raw.translate(_DIGITS), 5)
    except ValueError:
        whole = -1
    vec, n, merge, table = _SUIT_VEC, _NV, _MERGE, _SHANTEN
    if whole >= 0:
        parts = [whole // _P21, whole // _P12 % _P9, whole // 125 % _P9, whole % 125]
        ids = [vec[parts[0]], vec[parts[1]], vec[parts[2]], _DRAGON_VEC[parts[3]]]
    if (whole < 0 or (ids[0] | ids[1] | ids[2]) > 127 or not 0 <= melds <= 4
            or len(counts) != NUM_KINDS):
        slow: list[int | None] = []
        for k in range(len(counts)):
            if counts[k] >= 4:
                slow.append(None)
                continue
            counts[k] += 1
            slow.append(shanten(counts, melds))
            counts[k] -= 1
        return shanten(counts, melds), slow
    standard = table[merge[merge[merge[ids[0] * n + ids[1]] * n + ids[2]] * n + ids[3]]
                     * 5 + melds] - 1
    pairs = None if melds else 6 - sum(raw.translate(_HALF))  # seven pairs (R7.1), no melds
    base = standard if pairs is None or standard == -1 else min(standard, pairs)
    # a draw into a component with no tiles is a lone tile: it makes no block and no pair
    after: list[int | None] = [base] * NUM_KINDS
    for c, (start, size) in enumerate(_COMPONENTS):
        index = parts[c]
        if not index:
            continue
        others = [ids[j] for j in range(4) if j != c]
        rest = merge[merge[others[0] * n + others[1]] * n + others[2]]
        look = vec if c < 3 else _DRAGON_VEC
        for r, unit in enumerate(_UNITS5[9 - size:]):
            k = start + r
            held = counts[k]
            if held >= 4:
                after[k] = None
                continue
            own = look[index + unit]
            if own > 127:  # a fifteenth tile in the suit: outside the tables
                counts[k] += 1
                after[k] = shanten(counts, melds)
                counts[k] -= 1
                continue
            got = table[merge[own * n + rest] * 5 + melds] - 1
            if pairs is not None and got > -1 and got > pairs - (held & 1):
                got = pairs - (held & 1)
            after[k] = got
    return base, after


def _shanten_reference(counts: list[int], melds: int) -> int:
    standard = standard_shanten_reference(counts, melds)
    if melds == 0 and standard > -1:
        return min(standard, seven_pairs_shanten(counts))
    return standard


# --- precomputed tables (kawuxing.shapes_tables): shanten and waits with no search -------------

try:
    _T = _shapes_tables.load()
except _shapes_tables.LOAD_ERRORS:  # missing or stale (being rebuilt): build it now (~7 s)
    _T = _shapes_tables.decode(_shapes_tables.encode(_shapes_tables.build(_sys.modules[__name__])))
_DIGITS = bytes(48 + c if c <= 4 else 120 for c in range(256))  # count -> ASCII digit; 5+: "x"
_SUIT_VEC, _DRAGON_VEC, _MERGE, _SHANTEN = (_T["suit_vec"], _T["dragon_vec"], _T["merge"],
                                            _T["shanten"])
_NV = len(_T["vectors"])
_P9, _P12, _P21 = 5**9, 5**12, 5**21  # a component's digits in the 30-digit base-5 hand
_UNITS5 = tuple(5 ** (8 - r) for r in range(9))  # one tile of rank r in a suit's base-5 index
_SUIT_WAIT, _DRAGON_WAIT = _T["suit_wait"], _T["dragon_wait"]


def _wait_infos(start: int, size: int) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    return [(state, tuple(start + r for r in range(size) if m0 >> r & 1),
             tuple(start + r for r in range(size) if m1 >> r & 1))
            for state, m0, m1 in _T["wait_infos"]]


_WAIT_INFOS = tuple(_wait_infos(start, size) for start, size in _COMPONENTS)
del _T


def standard_shanten(counts: list[int], melds: int = 0) -> int:
    """Shanten of the standard shape (four sets + a pair, R7.1): -1 when complete, 0 when ready.

    ``counts`` holds 13 or 14 - 3 × ``melds`` concealed tiles; ``melds`` is the number of declared
    melds (each a finished set). Computed as 2 × sets needed − 2 × sets − partial sets − pair,
    with partial sets limited to the sets still missing: each component's value vector comes
    from a precomputed table indexed by its counts read in base 5, and merged vectors from a
    merge table (:mod:`kawuxing.shapes_tables`). Counts above 4, more than 14 tiles in a suit,
    ``melds`` outside 0-4 or a vector not of 30 counts fall back to
    :func:`standard_shanten_reference`.
    """
    try:  # the whole hand in base 5 (1m the top digit), cut into its four components
        whole = int(bytearray(counts).translate(_DIGITS), 5)
    except ValueError:
        return standard_shanten_reference(counts, melds)
    vec = _SUIT_VEC
    a, b, c = vec[whole // _P21], vec[whole // _P12 % _P9], vec[whole // 125 % _P9]
    if (a | b | c) > 127 or not 0 <= melds <= 4 or len(counts) != NUM_KINDS:
        return standard_shanten_reference(counts, melds)
    n, merge = _NV, _MERGE
    return _SHANTEN[merge[merge[merge[a * n + b] * n + c] * n + _DRAGON_VEC[whole % 125]] * 5
                    + melds] - 1


def waits(counts: list[int], held: list[int] | None = None) -> list[int]:
    """The kinds that would complete a concealed hand of 13, 10, 7, 4 or 1 tiles (R7.1, R8.1).

    A kind is left out when the player already holds all four copies: ``held`` is the counts
    vector of everything the player holds (concealed tiles and melds), default ``counts``.
    Returns kinds in index order; ``[]`` when the hand is not ready.

    One tile changes one component: it must complete that component to sets, or to sets + the
    pair when no other component holds it, while every other component is already sets. Each
    component's state and completing kinds come from a precomputed table indexed by its counts
    read in base 5 (:mod:`kawuxing.shapes_tables`); a count above 4 or a vector not of 30
    counts falls back to :func:`waits_reference`.
    """
    total = sum(counts)
    if total > 13:
        return []
    if len(counts) != NUM_KINDS:  # the base-5 cut below needs all 30 kinds
        return waits_reference(counts, held)
    raw = bytearray(counts)  # (faster than bytes)
    try:  # the whole hand in base 5 (1m the top digit), cut into its four components
        whole = int(raw.translate(_DIGITS), 5)
    except ValueError:
        return waits_reference(counts, held)
    table, infos = _SUIT_WAIT, _WAIT_INFOS
    infos = (infos[0][table[whole // _P21]], infos[1][table[whole // _P12 % _P9]],
             infos[2][table[whole // 125 % _P9]], infos[3][_DRAGON_WAIT[whole % 125]])
    states = [info[0] for info in infos]
    unfinished = states.count(0)
    found: tuple[int, ...] | set[int] = ()
    if unfinished == 1:  # the tile must go there
        other_pairs = states.count(2)
        if other_pairs <= 1:
            found = infos[states.index(0)][2 - other_pairs]
    elif unfinished == 0 and states.count(2) == 2:  # the tile makes one of the pairs' parts sets
        found = [k for info in infos if info[0] == 2 for k in info[1]]
    if total == 13:  # seven pairs: six pairs and a single (a third copy makes four of a kind)
        odd = raw.translate(_ODD)
        if odd.count(1) == 1:
            found = set(found)
            found.add(odd.index(1))
    if not found:
        return []
    held = counts if held is None else held
    return [k for k in sorted(found) if held[k] < 4]
