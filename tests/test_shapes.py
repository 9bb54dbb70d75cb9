"""Hand shapes (RULES.md R7.1): win check, readings, waits and shanten.

The table-driven code in :mod:`kawuxing.shapes` is checked against slow, plainly recursive
references written here (no tables, no caches), on hands drawn from the real 84-tile set of
the default suits: 1-9 筒 (kinds 9-17), 1-9 条 (18-26) and 白 发 中 (27-29), four copies each.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kawuxing.shapes import (
    Reading,
    Set,
    draw_shanten,
    is_seven_pairs,
    is_standard_win,
    is_win,
    readings,
    seven_pairs_shanten,
    shanten,
    standard_shanten,
    waits,
)
from kawuxing.tiles import counts_of, parse_tiles

N = 30                                   # kinds in the 30-kind universe
PIN = list(range(9, 18))                 # 1p-9p
SOU = list(range(18, 27))                # 1s-9s
DRAGON = [27, 28, 29]                    # 5z 6z 7z
KINDS = PIN + SOU + DRAGON               # the 21 kinds of the default game
WALL = [k for k in KINDS for _ in range(4)]  # the 84 tiles


def C(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def suited(k: int) -> bool:
    return k < 27


def can_run(k: int) -> bool:
    """k, k+1, k+2 is a run: a suited kind of rank 1-7."""
    return suited(k) and k % 9 <= 6


# --- the references ------------------------------------------------------------------------------

def ref_decompositions(counts: list[int]) -> set[tuple[tuple[tuple[str, int], ...], int]]:
    """Every way to read all the tiles as sets plus exactly one pair: {(sorted sets, pair)}."""
    found = set()
    c = list(counts)

    def rec(sets: list[tuple[str, int]], pair: int | None) -> None:
        i = next((k for k in range(N) if c[k]), None)
        if i is None:
            if pair is not None:
                found.add((tuple(sorted(sets)), pair))
            return
        if c[i] >= 3:
            c[i] -= 3
            rec(sets + [("pung", i)], pair)
            c[i] += 3
        if c[i] >= 2 and pair is None:
            c[i] -= 2
            rec(sets, i)
            c[i] += 2
        if can_run(i) and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            rec(sets + [("chow", i)], pair)
            for k in (i, i + 1, i + 2):
                c[k] += 1

    rec([], None)
    return found


def ref_standard_win(counts: list[int]) -> bool:
    """Four sets and a pair, less three tiles per declared meld (so at most 14 tiles)."""
    return sum(counts) <= 14 and bool(ref_decompositions(counts))


def ref_seven_pairs(counts: list[int]) -> bool:
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def ref_win(counts: list[int]) -> bool:
    return ref_standard_win(counts) or ref_seven_pairs(counts)


def ref_waits(counts: list[int], held: list[int] | None = None) -> list[int]:
    held = counts if held is None else held
    out = []
    for k in range(N):
        if held[k] >= 4:
            continue
        plus = list(counts)
        plus[k] += 1
        if ref_win(plus):
            out.append(k)
    return out


def ref_standard_shanten(counts: list[int], melds: int = 0) -> int:
    """Classic formula, brute force: 2*need - max(2*sets + min(partials, need - sets) + pair).

    Every tile is in a set (pung, run), the head pair, a partial set (pair, two adjacent or
    two-apart tiles of one suit) or left alone; every such split is tried.
    """
    need = 4 - melds
    c = list(counts)
    best = 0

    def rec(m: int, t: int, p: int) -> None:
        nonlocal best
        i = next((k for k in range(N) if c[k]), None)
        if i is None:
            sets = min(m, need)
            best = max(best, 2 * sets + min(t, need - sets) + p)
            return
        # the shapes containing the lowest tile i: (tiles taken, sets, partials, pair)
        shapes = [([i], 0, 0, 0)]
        if c[i] >= 3:
            shapes.append(([i, i, i], 1, 0, 0))
        if c[i] >= 2:
            shapes.append(([i, i], 0, 1, 0))
            if not p:
                shapes.append(([i, i], 0, 0, 1))
        if can_run(i) and c[i + 1] and c[i + 2]:
            shapes.append(([i, i + 1, i + 2], 1, 0, 0))
        if suited(i) and i % 9 <= 7 and c[i + 1]:
            shapes.append(([i, i + 1], 0, 1, 0))
        if can_run(i) and c[i + 2]:
            shapes.append(([i, i + 2], 0, 1, 0))
        for taken, dm, dt, dp in shapes:
            for k in taken:
                c[k] -= 1
            rec(m + dm, t + dt, p + dp)
            for k in taken:
                c[k] += 1

    rec(0, 0, 0)
    return 2 * need - best


def normalise(reading: Reading) -> tuple[tuple[tuple[str, int], ...], int]:
    assert not reading.seven_pairs
    assert len(reading.pairs) == 1
    return tuple(sorted((s.kind, s.tile) for s in reading.sets)), reading.pairs[0]


# --- hands from the 84-tile wall -----------------------------------------------------------------

def from_wall(n: int, kinds: list[int] = KINDS) -> st.SearchStrategy[list[int]]:
    """n distinct tiles of the wall restricted to `kinds`, as a counts vector."""
    wall = [k for k in kinds for _ in range(4)]
    return st.lists(st.integers(0, len(wall) - 1), min_size=n, max_size=n, unique=True).map(
        lambda idx: counts_of(wall[i] for i in idx))


def dense(n: int) -> st.SearchStrategy[list[int]]:
    """n tiles crowded into one suit, or one suit and the dragons: many readings and waits."""
    return st.sampled_from([PIN, SOU, PIN + DRAGON, SOU[:6] + DRAGON, PIN[3:] + SOU[:4]]).flatmap(
        lambda kinds: from_wall(n, kinds))


set_strategy = st.one_of(
    st.sampled_from(KINDS).map(lambda k: [k, k, k]),
    st.sampled_from([k for k in KINDS if can_run(k)]).map(lambda k: [k, k + 1, k + 2]))


def built(n_sets: int) -> st.SearchStrategy[list[int]]:
    """A standard winning shape: n_sets random sets plus a pair, no kind above 4 copies."""
    return st.tuples(st.lists(set_strategy, min_size=n_sets, max_size=n_sets),
                     st.sampled_from(KINDS)).map(
        lambda sp: counts_of([k for s in sp[0] for k in s] + [sp[1], sp[1]])).filter(
        lambda c: max(c) <= 4)


seven_pairs_hands = st.lists(st.sampled_from(KINDS), min_size=7, max_size=7).map(
    lambda ks: counts_of(ks + ks)).filter(lambda c: max(c) <= 4)


def winning(n_sets: int = 4) -> st.SearchStrategy[list[int]]:
    if n_sets == 4:
        return st.one_of(built(4), built(4), seven_pairs_hands)
    return built(n_sets)


def minus_one(hands: st.SearchStrategy[list[int]]) -> st.SearchStrategy[list[int]]:
    """Take one tile out of each hand (a winning hand less one tile is usually ready)."""
    def remove(counts: list[int], kind: int) -> list[int]:
        out = list(counts)
        out[kind] -= 1
        return out
    return hands.flatmap(lambda counts: st.sampled_from([k for k in range(N) if counts[k]]).map(
        lambda kind: remove(counts, kind)))


def hands(n: int) -> st.SearchStrategy[list[int]]:
    """Any n-tile concealed hand, n = 14 - 3 * melds or one less."""
    sets = (n - 1) // 3
    if n % 3 == 2:
        return st.one_of(from_wall(n), dense(n), winning(sets))
    return st.one_of(from_wall(n), dense(n), minus_one(winning(sets)))


FAST = settings(max_examples=150, deadline=None)


# --- the references agree with hand-checked hands ------------------------------------------------

def test_references_on_known_hands():
    assert ref_standard_win(C("123p 456p 789p 123s 55z"))
    assert not ref_standard_win(C("567z 123p 456p 789p 11s"))
    assert ref_seven_pairs(C("1111p 33p 55s 77s 99s 55z"))
    assert ref_waits(C("46p 234p 123s 789s 99p")) == [13]
    assert ref_waits(C("1112345678999p")) == PIN
    assert ref_standard_shanten(C("123p 456p 789p 123s 55z")) == -1
    assert ref_standard_shanten(C("123p 456p 789p 123s 5z")) == 0
    assert ref_standard_shanten(C("147p 258s 567z 369p")) == 5   # 13 46 79 (or 34 67)
    assert ref_standard_shanten(C("159p 159s 567z 2468p")) == 4  # 456 12 89


# --- win check -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "123p 456p 789p 123s 55z",
    "555z 666z 777z 123p 11s",        # dragon pungs
    "111p 111s 999p 999s 77z",
    "11122233344455p",                # one suit, several readings
    "1111p 23p 789s 11s 555z",        # four 1p: pung + run
    "22p",                            # 4 declared melds + a pair
    "123s 55z",                       # 3 declared melds
    "11p 22p 33s 44s 55z 66z 77z",    # seven pairs
    "1111p 33p 55s 77s 99s 55z",      # seven pairs with four of a kind (R7.1)
    "1111p 3333p 5555s 55z",          # three fours of a kind as six pairs + one
])
def test_wins(text):
    assert is_win(C(text))


@pytest.mark.parametrize("text", [
    "567z 123p 456p 789p 11s",        # dragons never run (R7.1)
    "123p 456p 789p 123s 5z 6z",      # no pair
    "891p 456p 789p 11s",             # no wrap-around
    "789p 1s 2s 456p 123s 55z 9p",    # 15 tiles
    "123p 456p 789p 12s 3m 55z",      # runs stay within one suit
    "1111p 33p 55s 77s 99s 5z",       # 13 tiles
    "",
    "5z",
])
def test_not_wins(text):
    assert not is_win(C(text))


def test_seven_pairs_needs_fourteen_concealed_tiles():
    assert not is_seven_pairs(C("11p 22p 33p 44p 55p 66p"))
    assert is_seven_pairs(C("11p 22p 33p 44p 55p 66p 77p"))
    assert is_standard_win(C("11p 22p 33p 44p 55p 66p 77p"))  # also 123 123 456 456 77
    assert not is_standard_win(C("11p 22p 33s 44s 55z 66z 77z"))


def test_more_than_four_sets_is_no_win():
    # 17 tiles: five sets and a pair is not a 卡五星 hand (R7.1), even split over components.
    assert not is_standard_win(C("111222333444p 555s 66z"))
    assert not is_win(C("111222333444p 555s 66z"))


@FAST
@given(st.sampled_from([14, 11, 8, 5, 2]).flatmap(hands))
def test_win_check_matches_reference(counts):
    assert is_standard_win(counts) == ref_standard_win(counts)
    assert is_seven_pairs(counts) == ref_seven_pairs(counts)
    assert is_win(counts) == ref_win(counts)


@FAST
@given(winning(4))
def test_built_hands_win(counts):
    assert is_win(counts)


@FAST
@given(st.sampled_from([13, 12, 15, 10, 9]).flatmap(lambda n: from_wall(n)))
def test_wrong_tile_counts_never_win(counts):
    assert not is_win(counts)


# --- readings ------------------------------------------------------------------------------------

def test_readings_known():
    found = readings(C("111222333p 456s 77z"))
    assert sorted(normalise(r) for r in found) == [
        ((("chow", 9), ("chow", 9), ("chow", 9), ("chow", 21)), 29),
        ((("chow", 21), ("pung", 9), ("pung", 10), ("pung", 11)), 29),
    ]
    assert readings(C("123p 456p 789p 123s 5z")) == []
    (only,) = readings(C("123p 456p 789p 123s 55z"))
    assert only == Reading((Set("chow", 9), Set("chow", 12), Set("chow", 15), Set("chow", 18)),
                           (27,))


def test_readings_seven_pairs_last():
    found = readings(C("11p 22p 33p 44p 55p 66p 77p"))
    assert found[-1] == Reading((), (9, 10, 11, 12, 13, 14, 15), True)
    assert {normalise(r) for r in found[:-1]} == ref_decompositions(C("1122334455667p 7p"))
    quad = readings(C("1111p 33p 55s 77s 99s 55z"))
    assert quad == [Reading((), (9, 9, 11, 22, 24, 26, 27), True)]


def test_readings_no_duplicates():
    assert len(readings(C("11123p"))) == 1               # pair 1 + run 123, found once
    assert len(readings(C("111123p 55s"))) == 1          # pung 1 + run 123, found once
    assert len(readings(C("111122223333p 55s"))) == 3    # 111 123 222 333 | 123 x4 | seven pairs


@FAST
@given(st.sampled_from([14, 11, 8, 5, 2]).flatmap(hands))
def test_readings_match_reference(counts):
    found = readings(counts)
    standard = [r for r in found if not r.seven_pairs]
    ours = [normalise(r) for r in standard]
    assert len(ours) == len(set(ours)), "the same reading twice"
    expected = ref_decompositions(counts) if sum(counts) <= 14 else set()
    assert set(ours) == expected
    sevens = [r for r in found if r.seven_pairs]
    assert len(sevens) == (1 if ref_seven_pairs(counts) else 0)
    if sevens:
        assert found[-1] is sevens[0]
        assert Counter(sevens[0].pairs) == Counter({k: c // 2 for k, c in enumerate(counts) if c})
    for r in standard:  # a reading uses exactly the hand's tiles
        used = Counter({r.pairs[0]: 2})
        for s in r.sets:
            used.update([s.tile] * 3 if s.kind == "pung" else [s.tile, s.tile + 1, s.tile + 2])
        assert used == Counter({k: c for k, c in enumerate(counts) if c})
    assert bool(found) == is_win(counts)


# --- waits ---------------------------------------------------------------------------------------

def test_nine_gates_waits_on_every_pin():
    assert waits(C("1112345678999p")) == PIN


def test_waits_known():
    assert waits(C("46p 234p 123s 789s 99p")) == [13]             # 5p only
    assert waits(C("1111p 33p 55s 77s 99s 5z")) == [27]           # seven pairs, quad = 2 pairs
    assert waits(C("123p 456p 789p 123s 5z")) == [27]
    assert waits(C("23p 456p 789p 123s 55z")) == [9, 12, 15]      # 1p 4p, and 7p: 234 567 789
    assert waits(C("55z 66z 123p 456p 789s")) == [27, 28]         # two pairs, one component
    assert waits(C("11p 123p 456p 22s 789s")) == [9, 12, 15, 19]  # two pairs, two components
    assert waits(C("56z 123p 456p 789s 11s")) == []               # dragons never run
    assert waits(C("159p 159s 567z 2468p")) == []
    assert waits(C("123p 456p 789p 123s 55z")) == []              # 14 tiles: nothing to add


@pytest.mark.parametrize("text, expected", [
    ("5z", [27]),                        # four melds declared: 单钓
    ("45p 55z", [11, 14]),               # 3p 6p
    ("55p 77z", [13, 29]),
    ("123s 45p 55z", [11, 14]),
    ("1p", [9]),
])
def test_waits_small_hands(text, expected):
    assert waits(C(text)) == expected


def test_waits_held_excludes_kinds_all_four_held():
    hand = C("46p 123s 789s 99p")              # 10 tiles; waits 5p
    assert waits(hand) == [13]
    meld = C("5555p")                           # a declared kong of 5p
    held = [a + b for a, b in zip(hand, meld)]
    assert waits(hand, held) == []
    pung = C("555p")                            # a pung leaves the fourth 5p
    assert waits(hand, [a + b for a, b in zip(hand, pung)]) == [13]
    # all four 1p in the hand: the only completing tile would be a fifth 1p
    assert waits(C("1111p 234s 567s 789s")) == []
    # a 1-tile hand beside a pung of the same dragon: held counts melds and hand alike
    assert waits(C("5z"), C("5555z")) == []
    assert waits(C("5z"), C("555z")) == [27]


def test_waits_leaves_counts_unchanged():
    hand = C("1112345678999p")
    before = list(hand)
    waits(hand)
    assert hand == before


@FAST
@given(st.sampled_from([13, 10, 7, 4, 1]).flatmap(hands))
def test_waits_match_reference(counts):
    assert waits(counts) == ref_waits(counts)


@FAST
@given(st.sampled_from([13, 10, 7, 4, 1]).flatmap(hands), st.data())
def test_waits_with_held_match_reference(counts, data):
    """`held` adds the declared melds: pungs and kongs of kinds the hand leaves room for."""
    n_melds = (13 - sum(counts)) // 3
    held = list(counts)
    for _ in range(n_melds):
        kind = data.draw(st.sampled_from(KINDS))
        size = data.draw(st.sampled_from([3, 4]))
        assume(held[kind] + size <= 4)
        held[kind] += size
    assert waits(counts, held) == ref_waits(counts, held)


@FAST
@given(minus_one(winning(4)))
def test_winning_hand_less_a_tile_waits_on_it(counts):
    # the removed tile completes it again: at most three copies of it are left in the hand
    assert waits(counts)
    for k in waits(counts):
        plus = list(counts)
        plus[k] += 1
        assert is_win(plus)


# --- shanten -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("123p 456p 789p 123s 55z", -1),
    ("11p 22p 33s 44s 55z 66z 77z", -1),            # seven pairs
    ("123p 456p 789p 123s 5z", 0),
    ("1112345678999p", 0),
    ("11p 22p 33s 44s 55z 66z 7z", 0),             # seven pairs ready
    ("123p 456p 789p 13s 5z 6z", 1),
    ("147p 258s 567z 369p", 5),                    # three partials; seven pairs 6
    ("159p 159s 567z 2468p", 4),                   # 456p, 12p, 89p
])
def test_shanten_known(text, expected):
    assert shanten(C(text)) == expected


def test_shanten_parts_known():
    hand = C("147p 258s 567z 369p")
    assert standard_shanten(hand) == 5
    assert seven_pairs_shanten(hand) == 6
    hand = C("11p 22p 33s 44s 55z 66z 7z")
    assert standard_shanten(hand) == 3      # a head and four pairs as partials: 8 - 4 - 1
    assert seven_pairs_shanten(hand) == 0
    assert seven_pairs_shanten(C("1111p 33p 55s 77s 99s 5z")) == 0
    assert seven_pairs_shanten(C("1111p 3333p 5555s 5z")) == 0
    assert standard_shanten(C("1111p 234s 567s 789s")) == 0   # classic: ignores that 1p is gone
    assert standard_shanten(C("123s 45p 55z"), melds=2) == 0
    assert standard_shanten(C("123s 456p 55z"), melds=2) == -1
    assert standard_shanten(C("123s 46p 55z 9p 7z"), melds=1) == 2   # 6 - 2 - 1 - 1
    assert shanten(C("5z"), melds=4) == 0
    assert shanten(C("55z"), melds=4) == -1


def test_shanten_with_melds_ignores_seven_pairs():
    hand = C("11p 22p 33s 44s 55z")         # 10 tiles beside one declared meld
    assert standard_shanten(hand, melds=1) == 2
    assert seven_pairs_shanten(hand) == 1   # (meaningless with a meld)
    assert shanten(hand, melds=1) == 2
    hand = C("11p 22p 33s 44s 55z 66z 7z")
    assert shanten(hand) == 0 == seven_pairs_shanten(hand)


@FAST
@given(st.sampled_from([(13, 0), (14, 0), (10, 1), (11, 1), (7, 2), (8, 2), (4, 3), (1, 4)])
       .flatmap(lambda nm: st.tuples(hands(nm[0]), st.just(nm[1]))))
def test_standard_shanten_matches_reference(hand_melds):
    counts, melds = hand_melds
    expected = ref_standard_shanten(counts, melds)
    assert standard_shanten(counts, melds) == expected
    if melds == 0:
        sp = 6 - sum(c // 2 for c in counts)
        assert seven_pairs_shanten(counts) == sp
        assert shanten(counts) == min(expected, sp)
    else:
        assert shanten(counts, melds) == expected


@FAST
@given(st.one_of(hands(14), winning(4)))
def test_shanten_minus_one_exactly_for_wins(counts):
    assert (shanten(counts) == -1) == is_win(counts)
    assert (standard_shanten(counts) == -1) == is_standard_win(counts)


@FAST
@given(st.sampled_from([13, 10, 7, 4, 1]).flatmap(hands))
def test_shanten_zero_means_ready_when_fifth_copies_count(counts):
    """Classic shanten 0 = some tile completes the standard shape, a fifth copy included."""
    melds = (13 - sum(counts)) // 3
    ready = any(ref_standard_win([c + (k == j) for j, c in enumerate(counts)]) for k in KINDS)
    assert (standard_shanten(counts, melds) == 0) == ready
    assert standard_shanten(counts, melds) >= 0


def _each_draw(counts: list[int], melds: int) -> list[int | None]:
    out = []
    for k in range(N):
        if counts[k] >= 4:
            out.append(None)
            continue
        counts[k] += 1
        out.append(shanten(counts, melds))
        counts[k] -= 1
    return out


@FAST
@given(st.sampled_from([(13, 0), (14, 0), (10, 1), (11, 1), (7, 2), (4, 3), (1, 4)])
       .flatmap(lambda nm: st.tuples(st.one_of(hands(nm[0]), winning(4 - nm[1])), st.just(nm[1]))))
def test_draw_shanten_is_shanten_of_every_draw(hand_melds):
    """draw_shanten = shanten of the hand and of the hand with each kind drawn (None where all
    four copies are held, R1.1), winning hands (a fifteenth tile) included."""
    counts, melds = hand_melds
    before = list(counts)
    assert draw_shanten(counts, melds) == (shanten(counts, melds), _each_draw(counts, melds))
    assert counts == before


def test_draw_shanten_known_and_outside_the_tables():
    base, after = draw_shanten(C("123p 456p 789p 13s 5z 6z"))
    assert base == 1
    # 2s completes 123s, 5z or 6z pairs a single; 1s or 3s only trades a single for a pair
    assert [k for k in range(N) if after[k] is not None and after[k] < base] == [19, 27, 28]
    assert after[C("5z").index(1)] == 0 and after[C("9s").index(1)] == 1
    full = C("1111p 2222p 3333p 44p")                # four copies: no fifth draw of 1p-3p
    assert draw_shanten(full)[1][9:12] == [None, None, None]
    big = C("11112222333344p")                       # 14 tiles in a suit: a draw leaves the tables
    assert draw_shanten(big) == (shanten(big), _each_draw(big, 0))
    five = [0] * N
    five[9] = 5                                      # a count above 4: answered by shanten itself
    assert draw_shanten(five, 3) == (shanten(five, 3), _each_draw(five, 3))


# --- the precomputed tables (kawuxing.shapes_tables) against the search code they replace -----

def test_tables_agree_with_search_on_every_suit_and_dragon_key():
    """Exhaustive: every suit of 0-4 copies a rank and at most 14 tiles (405,350 keys, each put
    in one of 万/筒/条 in turn), and every dragon component (125 keys), alone in the hand:
    table shanten = search shanten for 0-4 melds (and with seven pairs), table waits = reference
    waits (≤ 13 tiles)."""
    from itertools import product

    from kawuxing.shapes import standard_shanten_reference, waits_reference

    checked = 0
    for size, bases in ((9, (0, 9, 18)), (3, (27,))):
        for n, digits in enumerate(product(range(5), repeat=size)):
            total = sum(digits)
            if total > 14:
                continue
            base = bases[n % len(bases)]
            counts = [0] * N
            counts[base:base + size] = digits
            for melds in range(5):
                assert standard_shanten(counts, melds) == standard_shanten_reference(counts, melds)
            assert shanten(counts) == min(standard_shanten_reference(counts),
                                          seven_pairs_shanten(counts))
            if total <= 13:
                assert waits(counts) == waits_reference(counts)
            checked += 1
    assert checked == 405_350 + 125


def test_table_fallbacks_for_counts_outside_the_tables():
    """A count of 5 or a 15-tile suit is outside the tables: the search answers instead."""
    from kawuxing.shapes import standard_shanten_reference, waits_reference

    five = [0] * N
    five[0], five[1], five[2] = 5, 1, 1  # 11111m 23m: not a real hand
    assert waits(five) == waits_reference(five)
    fifteen = C("111222333444555m")
    assert standard_shanten(fifteen, 0) == standard_shanten_reference(fifteen, 0) == -1
    assert standard_shanten(C("55m"), 4) == -1  # four melds + the pair: complete
    assert standard_shanten(C("5m"), 4) == 0    # four melds + a single: ready
    short = C("123456789p 1122s")[:27]  # no dragons: 27 counts, a ready hand
    assert shanten(short) == standard_shanten_reference(short) == 0
    assert waits(short) == waits_reference(short) == [18, 19]


def test_tables_load_from_the_cache_as_from_the_package_file(tmp_path, monkeypatch):
    """shapes_tables.load (issue 14): the first load writes the decompressed tables to the
    cache directory, the next maps that file (mmap); both give exactly the tables decoded
    from the package file. A cache file of the wrong size is replaced; a cache directory that
    cannot be written still loads (decompressed in memory)."""
    import mmap
    import zlib
    from importlib import resources

    from kawuxing import shapes_tables

    data = resources.files("kawuxing").joinpath(shapes_tables.DATA_FILE).read_bytes()
    size = int.from_bytes(data[:4], "little")
    expected = shapes_tables.decode(data)

    def same(tables: dict) -> bool:
        return tables.keys() == expected.keys() and all(
            (bytes(v) == bytes(expected[k])) if isinstance(v, memoryview) else v == expected[k]
            for k, v in tables.items())

    monkeypatch.setenv("KAWUXING_CACHE_DIR", str(tmp_path / "cache"))
    first = shapes_tables._cached_raw(data)
    assert isinstance(first, bytes) and len(first) == size
    files = list((tmp_path / "cache").iterdir())
    assert [f.name for f in files] == [f"shapes_tables-{zlib.crc32(data):08x}-{size}.raw"]
    assert files[0].stat().st_size == size
    mapped = shapes_tables._cached_raw(data)
    assert isinstance(mapped, mmap.mmap) and mapped[:] == first
    assert same(shapes_tables.load()) and same(shapes_tables.decode(data, mapped))
    files[0].write_bytes(b"short")  # a damaged cache file is not used, and is written again
    assert shapes_tables._cached_raw(data) == first and files[0].stat().st_size == size
    monkeypatch.setenv("KAWUXING_CACHE_DIR", "/proc/no-such-dir/kawuxing")  # cannot be made
    assert isinstance(shapes_tables._cached_raw(data), bytes) and same(shapes_tables.load())
