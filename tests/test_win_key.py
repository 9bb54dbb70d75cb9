"""The win check on packed keys (R7.1, issue 14): :func:`kawuxing.shapes.is_win_key` answers
as :func:`kawuxing.shapes.is_win` and the slow reference of ``test_shapes`` on every hand,
with melds (fewer concealed tiles), in all three suits and with a tile added as a claim would."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from kawuxing.shapes import UNITS, is_win, is_win_key, pack
from kawuxing.tiles import NUM_KINDS

from test_shapes import C, FAST, from_wall, hands, ref_win

ALL = list(range(NUM_KINDS))  # 万 too (kinds 0-8): not in the default game


def test_pack_and_units():
    counts = C("123p 55z")
    assert pack(counts) == sum(c * UNITS[k] for k, c in enumerate(counts))
    assert pack(counts) + UNITS[9] == pack(C("1123p 55z"))


def test_known_hands():
    for text in ("123p 456p 789p 123s 55z", "11p 22p 33s 44s 55z 66z 77z",
                 "1111p 33p 55s 77s 99s 55z", "123m 456m 789m 123s 55z", "22p", "123s 55z"):
        assert is_win_key(pack(C(text))), text
    for text in ("567z 123p 456p 789p 11s", "123p 456p 789p 12s 3m 55z", "", "5z",
                 "111222333444p 555s 66z", "1111p 33p 55s 77s 99s 5z", "123m 456m 789m 12s 55z"):
        assert not is_win_key(pack(C(text))), text


@FAST
@given(st.sampled_from([14, 11, 8, 5, 2]).flatmap(hands))
def test_key_check_matches_reference(counts):
    assert is_win_key(pack(counts)) == is_win(counts) == ref_win(counts)


@FAST
@given(st.sampled_from([14, 11, 8, 5, 2, 13, 15]).flatmap(lambda n: from_wall(n, ALL)))
def test_key_check_matches_reference_in_three_suits(counts):
    assert is_win_key(pack(counts)) == is_win(counts) == ref_win(counts)


@FAST
@given(st.sampled_from([13, 10, 7, 4, 1]).flatmap(hands), st.sampled_from(ALL))
def test_a_claimed_tile_added_to_the_key(counts, kind):
    assume(counts[kind] < 4)  # R1.1: four copies of a kind; a hand holding all four claims no fifth
    plus = list(counts)
    plus[kind] += 1
    assert is_win_key(pack(counts) + UNITS[kind]) == is_win(plus) == ref_win(plus)


@FAST
@given(st.lists(st.integers(0, 8), min_size=NUM_KINDS, max_size=NUM_KINDS))
def test_list_check_answers_as_the_key_check_for_any_counts(counts):
    """is_win reads the dragons from the list before packing (issue 14): it still answers as
    is_win_key for counts no game holds (seven pairs with a six of a kind included)."""
    assert is_win(counts) == is_win_key(pack(counts))


def test_list_check_dragon_shortcuts():
    assert is_win(C("123p 456p 789p 11s 555z"))  # dragons a set
    assert is_win(C("11p 22p 33s 44s 55z 55z 66z"))  # dragons only as seven pairs (four 5z)
    assert not is_win(C("123p 456p 789p 11s 567z"))  # three single dragons: no win
    assert not is_win(C("123p 456p 789p 123s 56z"))
