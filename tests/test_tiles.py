"""Tiles (RULES.md R1.1): kinds, MPSZ / Chinese / Unicode notation, errors, round trips."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kawuxing.tiles import (
    DRAGONS,
    GREEN,
    NUM_KINDS,
    RED,
    WHITE,
    TileError,
    counts_of,
    format_counts,
    format_tiles,
    is_dragon,
    kinds_for_suits,
    make_tile,
    parse_tile,
    parse_tiles,
    tile_chinese,
    tile_rank,
    tile_str,
    tile_suit,
    tile_unicode,
    tiles_of,
)

# Kind indices written out by hand, so the tests do not lean on the code they check.
P = {r: 8 + r for r in range(1, 10)}   # 1p = 9 ... 9p = 17
S = {r: 17 + r for r in range(1, 10)}  # 1s = 18 ... 9s = 26
M = {r: r - 1 for r in range(1, 10)}   # 1m = 0 ... 9m = 8


# --- kinds -------------------------------------------------------------------------------------

def test_kind_layout():
    assert (NUM_KINDS, WHITE, GREEN, RED) == (30, 27, 28, 29)
    assert DRAGONS == (27, 28, 29)
    assert [tile_str(k) for k in (0, 8, 9, 17, 18, 26, 27, 28, 29)] == [
        "1m", "9m", "1p", "9p", "1s", "9s", "5z", "6z", "7z"]
    assert [tile_suit(k) for k in (0, 9, 18, 27)] == ["m", "p", "s", "z"]
    assert [tile_rank(k) for k in (0, 13, 26, 27, 28, 29)] == [1, 5, 9, 5, 6, 7]
    assert [is_dragon(k) for k in (26, 27, 29)] == [False, True, True]


def test_kinds_for_suits():
    default = kinds_for_suits()
    assert default == tuple(range(9, 27)) + (27, 28, 29)
    assert len(default) == 21
    assert kinds_for_suits(("s", "m")) == tuple(range(0, 9)) + tuple(range(18, 27)) + (27, 28, 29)
    assert kinds_for_suits(["m", "p"]) == tuple(range(0, 18)) + (27, 28, 29)


def test_make_tile():
    assert make_tile(5, "p") == 13
    assert make_tile(1, "s") == 18
    assert make_tile(9, "m") == 8
    assert (make_tile(5, "z"), make_tile(6, "z"), make_tile(7, "z")) == (WHITE, GREEN, RED)
    for rank, suit in [(0, "p"), (10, "s"), (1, "z"), (4, "z"), (8, "z")]:
        with pytest.raises(TileError):
            make_tile(rank, suit)
    with pytest.raises(TileError, match="unknown suit 'x'"):
        make_tile(1, "x")


# --- MPSZ --------------------------------------------------------------------------------------

def test_parse_mpsz_example_from_rules():
    # RULES.md: `46p 123s` = 4p 6p 1s 2s 3s; spaces are ignored.
    assert parse_tiles("46p 123s 55z") == [P[4], P[6], S[1], S[2], S[3], WHITE, WHITE]
    assert parse_tiles("46p123s55z") == parse_tiles("46p 123s 55z")
    assert parse_tiles("  46p   123s\t55z \n") == parse_tiles("46p 123s 55z")


def test_parse_keeps_written_order():
    assert parse_tiles("7z 9p 1s 1p") == [RED, P[9], S[1], P[1]]


def test_parse_spaces_inside_a_digit_run_are_ignored():
    assert parse_tiles("4 6 p 1 2 3 s") == [P[4], P[6], S[1], S[2], S[3]]


def test_parse_other_separators_and_upper_case():
    assert parse_tiles("46p,123s，55z") == [P[4], P[6], S[1], S[2], S[3], WHITE, WHITE]
    assert parse_tiles("1p+2p|3p、4p;5p；6p") == [P[1], P[2], P[3], P[4], P[5], P[6]]
    assert parse_tiles("19P 5Z") == [P[1], P[9], WHITE]


def test_parse_all_dragons_and_manzu():
    assert parse_tiles("567z") == [WHITE, GREEN, RED]
    assert parse_tiles("19m") == [M[1], M[9]]


def test_parse_empty():
    assert parse_tiles("") == []
    assert parse_tiles("   ") == []
    assert format_tiles([]) == ""


def test_format_tiles_sorts_and_groups():
    assert format_tiles([P[6], S[3], WHITE, P[4], S[1], WHITE, S[2]]) == "46p 123s 55z"
    assert format_tiles([RED, M[1], S[9], P[1]]) == "1m 1p 9s 7z"
    assert format_tiles([P[1]] * 4) == "1111p"


def test_format_counts():
    counts = [0] * NUM_KINDS
    counts[P[4]] = 1
    counts[P[6]] = 2
    counts[GREEN] = 3
    assert format_counts(counts) == "466p 666z"


@settings(max_examples=300)
@given(st.lists(st.integers(-2, 4), min_size=0, max_size=30))
def test_format_counts_reads_every_kind_in_order(counts):
    """format_counts (a table of names, issue 17) against the plain reading: every kind with a
    positive count as often as counted, the ranks of a suit run together, suits m p s z."""
    groups: dict[str, str] = {}
    for kind, count in enumerate(counts):
        for _ in range(max(count, 0)):
            name = tile_str(kind)
            groups[name[1]] = groups.get(name[1], "") + name[0]
    expected = " ".join(digits + suit for suit, digits in groups.items())
    assert format_counts(counts) == expected == format_counts(tuple(counts))
    assert format_tiles(tiles_of(counts)) == expected


def test_tile_names_refuse_what_is_not_a_kind():
    assert [tile_str(k) for k in (0, 8, 9, 17, 18, 26, 27, 28, 29)] == [
        "1m", "9m", "1p", "9p", "1s", "9s", "5z", "6z", "7z"]
    for bad in (30, -1, "5p", None, 1.0):
        with pytest.raises(TileError, match="is not a tile kind"):
            tile_str(bad)
    with pytest.raises(TileError, match="30 is not a tile kind"):
        format_counts([0] * 30 + [1])
    assert format_counts([0] * 30 + [0, -1]) == ""
    with pytest.raises(TileError):
        format_tiles([3, 31])


def test_counts_of():
    counts = counts_of(parse_tiles("1122p 5z"))
    assert len(counts) == 30
    assert counts[P[1]] == 2 and counts[P[2]] == 2 and counts[WHITE] == 1
    assert sum(counts) == 5
    with pytest.raises(TileError):
        counts_of([30])
    with pytest.raises(TileError):
        counts_of([-1])


def test_tiles_of_is_the_inverse_of_counts_of():
    counts = [0] * NUM_KINDS
    counts[P[4]], counts[S[9]], counts[RED] = 2, 1, 3
    assert tiles_of(counts) == [P[4], P[4], S[9], RED, RED, RED]
    assert tiles_of(counts_of([RED, P[1], RED])) == [P[1], RED, RED]
    assert tiles_of([0] * NUM_KINDS) == []


# --- Chinese names -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, kind", [
    ("五筒", P[5]), ("5筒", P[5]), ("五饼", P[5]), ("五餅", P[5]),
    ("一筒", P[1]), ("九筒", P[9]),
    ("三条", S[3]), ("三索", S[3]), ("三條", S[3]), ("3条", S[3]),
    ("九万", M[9]), ("九萬", M[9]), ("一万", M[1]),
    ("中", RED), ("红中", RED), ("紅中", RED),
    ("发", GREEN), ("發", GREEN), ("发财", GREEN), ("發財", GREEN),
    ("白", WHITE), ("白板", WHITE),
])
def test_parse_chinese_single(text, kind):
    assert parse_tiles(text) == [kind]
    assert parse_tile(text) == kind


def test_parse_chinese_runs_and_mixed():
    assert parse_tiles("一二三万") == [M[1], M[2], M[3]]
    assert parse_tiles("四六筒 三条 中中 发") == [P[4], P[6], S[3], RED, RED, GREEN]
    assert parse_tiles("46p 五筒 🀝 5筒") == [P[4], P[6], P[5], P[5], P[5]]
    assert parse_tiles("白板白") == [WHITE, WHITE]


def test_tile_chinese():
    assert tile_chinese(P[5]) == "五筒"
    assert tile_chinese(S[3]) == "三条"
    assert tile_chinese(M[9]) == "九万"
    assert [tile_chinese(k) for k in DRAGONS] == ["白", "发", "中"]


# --- Unicode -----------------------------------------------------------------------------------

def test_parse_unicode_suits():
    assert parse_tiles("🀙🀚🀛🀜🀝🀞🀟🀠🀡") == [P[r] for r in range(1, 10)]
    assert parse_tiles("🀐🀑🀒🀓🀔🀕🀖🀗🀘") == [S[r] for r in range(1, 10)]
    assert parse_tiles("🀇🀈🀉🀊🀋🀌🀍🀎🀏") == [M[r] for r in range(1, 10)]


def test_parse_unicode_dragons():
    assert parse_tiles("🀄🀅🀆") == [RED, GREEN, WHITE]
    # 🀄 is the one tile with an emoji presentation; keyboards add U+FE0F after it.
    assert parse_tiles("🀄\ufe0f🀄") == [RED, RED]


def test_tile_unicode():
    assert tile_unicode(P[1]) == "🀙"
    assert tile_unicode(P[9]) == "🀡"
    assert tile_unicode(S[1]) == "🀐"
    assert tile_unicode(M[9]) == "🀏"
    assert [tile_unicode(k) for k in (RED, GREEN, WHITE)] == ["🀄", "🀅", "🀆"]


@pytest.mark.parametrize("kind", range(NUM_KINDS))
def test_every_kind_round_trips_in_every_notation(kind):
    assert parse_tile(tile_str(kind)) == kind
    assert parse_tile(tile_chinese(kind)) == kind
    assert parse_tile(tile_unicode(kind)) == kind


# --- errors ------------------------------------------------------------------------------------

def _error(text: str, **kwargs) -> str:
    with pytest.raises(TileError) as info:
        parse_tiles(text, **kwargs)
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_error_names_bad_character_and_position():
    msg = _error("46x")
    assert "'x'" in msg and "position 2" in msg
    msg = _error("46p 12x")
    assert "'x'" in msg and "position 6" in msg
    msg = _error("46p ?")
    assert "'?'" in msg and "position 4" in msg
    msg = _error("abc")
    assert "'a'" in msg and "position 0" in msg


def test_error_digits_without_suit():
    msg = _error("46p 12")
    assert "'12'" in msg and "position 4" in msg and "no suit" in msg


def test_error_bad_suit_after_chinese_numeral():
    msg = _error("五x")
    assert "'x'" in msg and "position 1" in msg


@pytest.mark.parametrize("text, pos", [("1z", 0), ("2z", 0), ("3z", 0), ("4z", 0), ("8z", 0),
                                       ("5z 1z", 3), ("51z", 1), ("5 1z", 2)])
def test_winds_and_other_honours_are_refused(text, pos):
    msg = _error(text)
    bad = re.search(r"\d(?=z)", text[pos:]).group()  # the rank digit at `pos`
    assert f"{bad}z" in msg and f"position {pos}" in msg


def test_rank_zero_is_refused():
    msg = _error("0p")
    assert "0p" in msg and "position 0" in msg


def test_non_decimal_digits_are_tile_errors():
    msg = _error("²p")
    assert "'²'" in msg and "position 0" in msg


def test_fifth_copy_is_an_error():
    assert parse_tiles("1111p") == [P[1]] * 4
    msg = _error("11111p")
    assert "5 copies of 1p" in msg
    msg = _error("1111p 1p")
    assert "5 copies of 1p" in msg
    msg = _error("中中中中 🀄")
    assert "5 copies of 7z" in msg
    msg = _error("五筒 5555p")
    assert "5 copies of 5p" in msg


def test_max_copies_option():
    assert parse_tiles("11111p", max_copies=None) == [P[1]] * 5
    assert parse_tiles("11p", max_copies=2) == [P[1]] * 2
    assert "3 copies of 1p" in _error("111p", max_copies=2)


def test_not_a_string():
    with pytest.raises(TileError, match="expected a tile string"):
        parse_tiles(123)  # type: ignore[arg-type]
    with pytest.raises(TileError, match="expected a tile string"):
        parse_tiles([9, 10])  # type: ignore[arg-type]


def test_parse_tile_needs_exactly_one():
    assert parse_tile("5p") == P[5]
    with pytest.raises(TileError, match="exactly one tile, got 2"):
        parse_tile("55p")
    with pytest.raises(TileError, match="exactly one tile, got 0"):
        parse_tile("")


def test_formatting_bad_kinds():
    for bad in (-1, 30, 1.0, "5p", None):
        with pytest.raises(TileError):
            tile_str(bad)  # type: ignore[arg-type]
        with pytest.raises(TileError):
            format_tiles([bad])  # type: ignore[list-item]
    with pytest.raises(TileError):
        tile_chinese(30)
    with pytest.raises(TileError):
        tile_unicode(-1)


# --- round trips -------------------------------------------------------------------------------

# Random tile multisets: at most 4 copies of each of the 30 kinds (any suits, as option `suits`
# allows), up to 34 tiles.
multisets = st.lists(st.integers(0, NUM_KINDS - 1), max_size=34).filter(
    lambda ts: all(ts.count(k) <= 4 for k in set(ts)))


@settings(max_examples=300, deadline=None)
@given(multisets)
def test_format_parse_round_trip(tiles):
    text = format_tiles(tiles)
    assert parse_tiles(text) == sorted(tiles)
    assert format_tiles(parse_tiles(text)) == text
    assert format_counts(counts_of(tiles)) == text
    assert tiles_of(counts_of(tiles)) == sorted(tiles)


@settings(max_examples=200, deadline=None)
@given(multisets)
def test_chinese_and_unicode_round_trip(tiles):
    assert parse_tiles(" ".join(tile_chinese(k) for k in tiles)) == tiles
    assert parse_tiles("".join(tile_chinese(k) for k in tiles)) == tiles
    assert parse_tiles("".join(tile_unicode(k) for k in tiles)) == tiles


@settings(max_examples=200, deadline=None)
@given(multisets, st.randoms(use_true_random=False))
def test_parse_mixed_notations(tiles, rnd):
    writers = (tile_str, tile_chinese, tile_unicode)
    text = " ".join(rnd.choice(writers)(k) for k in tiles)
    assert parse_tiles(text) == tiles


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, NUM_KINDS - 1), min_size=5, max_size=20))
def test_too_many_copies_is_always_refused(tiles):
    counts = counts_of(tiles)
    text = " ".join(tile_str(k) for k in tiles)
    if max(counts) > 4:
        with pytest.raises(TileError, match="copies of"):
            parse_tiles(text)
    else:
        assert parse_tiles(text) == tiles
    assert parse_tiles(text, max_copies=None) == tiles
