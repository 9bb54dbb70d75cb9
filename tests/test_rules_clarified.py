"""The rules clarified in RULES.md for issue 9 (R6.2, R8.4, R8.5, R9.5, R11.1), each with values
worked out by hand. R8.1, R8.3 and R8.6 are in test_declared_hand.py, R13.2 in
test_claim_window.py and test_server_window.py; R9.4's clarifications in test_scoring.py.
"""

from __future__ import annotations

import re

import pytest

from kawuxing.engine import ADDED_KONG, CONCEALED_KONG, DISCARD, PUNG, WIN
from kawuxing.scoring.payments import win_transfers
from kawuxing.tiles import parse_tile

from test_engine_rules import act, new_hand, refuse
from test_scoring import D, KA5, S, check, score

# --- R6.2: an added kong on that draw (a replacement draw included) or never ---------------

KONG_HANDS = ["111s 33p 2468p 579s 9p", "3p 1p 5p 9p 2s 4s 6s 8s 5z 5z 6z 7z 9s",
              "1p 2p 7p 8p 9p 3s 3s 7s 8s 6z 7z 5z 2s"]
#              s0 s1 s1 s2 s0 s0(replacement) s1 s2 s0
KONG_DRAWS = "6z 4s 5s 6s 1s 3p 8s 9s 2p 4p 7s"


def punged_3p():
    """Seat 0 pungs seat 1's 3p and discards 9p; seats 1 and 2 discard what they draw; seat 0
    draws the fourth 1s."""
    hand = new_hand(KONG_HANDS, KONG_DRAWS)
    act(hand, 0, DISCARD, "6z")
    act(hand, 1, DISCARD, "3p")
    act(hand, 0, PUNG)
    act(hand, 0, DISCARD, "9p")
    act(hand, 1, DISCARD, "5s")
    act(hand, 2, DISCARD, "6s")
    assert hand.seats[0].drawn == parse_tile("1s")
    act(hand, 0, CONCEALED_KONG, "1s")  # R6.1: each other seat pays 2
    assert hand.seats[0].drawn == parse_tile("3p") and hand.seats[0].replacement
    return hand


def test_r6_2_the_fourth_tile_drawn_as_a_kong_replacement_may_be_added():
    """R6.2 "a kong's replacement draw included": the replacement 3p is added to the 3p pung at
    once: 暗杠 1s 2 + 2, then 补杠 3p (kong 2 of a chain, R6.5: ×2) 2 + 2 → [8, -4, -4]."""
    hand = punged_3p()
    act(hand, 0, ADDED_KONG, "3p")
    assert hand.seats[0].melds[0].kind == "added_kong"
    assert hand.deltas == [8, -4, -4]


def test_r6_2_kept_and_not_added_on_that_draw_never_again():
    """R6.2 必须当时就杠: seat 0 keeps the replacement 3p and discards 2p; on its next turn the
    fourth 3p in its hand may no longer be added."""
    hand = punged_3p()
    act(hand, 0, DISCARD, "2p")
    act(hand, 1, DISCARD, "8s")
    act(hand, 2, DISCARD, "9s")
    assert hand.current == 0 and hand.seats[0].concealed[parse_tile("3p")] == 1
    refuse(hand, 0, ADDED_KONG, "3p", rule="R6.2")
    assert hand.deltas == [4, -2, -2]  # the 暗杠 only


# --- R8.4: the patterns are those of the actual win; only the payment is as if self-drawn ---

def test_r8_4_a_bao_hu_win_on_the_last_discard_scores_no_hai_di():
    """R8.4: a declared winner on the last discard scores no 海底捞月 (a self-draw pattern):
    卡五星 2 × 亮倒 2 = 4, the discarder pays 2 × 4 = 8; self-drawing the last tile it would
    be × 海底捞月 2 = 8, 16 from both."""
    check(score(*KA5, D, declared=True, last_tile=True), 4, ["卡五星", "亮倒"], 8)
    check(score(*KA5, S, declared=True, last_tile=True), 8, ["卡五星", "海底捞月", "亮倒"], 16)


def test_r8_4_self_draw_only_options_do_not_apply_to_bao_hu():
    """R8.4 with an_si_gui_on_discard false: 45556s 123p 789p 55z won on 5s. On a discard (包胡)
    暗四归一 does not count: 卡五星 2 × 亮倒 2 = 4, paid 8. By self-draw it does: 卡五星 2 ×
    暗四归一 4 × 亮倒 2 = 16, 32 from both."""
    rules = {"an_si_gui_on_discard": False}
    hand = ("45556s 123p 789p 55z", "5s")
    value = score(*hand, D, rules=rules, declared=True)
    check(value, 4, ["卡五星", "亮倒"], 8)
    assert value.bao_hu
    check(score(*hand, S, rules=rules, declared=True), 16, ["卡五星", "暗四归一", "亮倒"], 32)


# --- R8.5: a discarder who declares with the very discard won on counts as declared -------

MUTUAL_HANDS = ["5s 9p 234p 567p 888s 22s", "46s 123p 789p 555z 11s",
                "1p 5p 6p 9p 3s 7s 9s 6z 2s 4p 8p 3p 1s"]
MUTUAL_DRAWS = "6z 7z 2p 9p"


def mutual(option: str):
    """Seat 1 declares 46s 123p 789p 555z 11s (waits 5s); seat 0 then discards 5s *with* 亮倒
    (99p 234p 567p 888s 22s is ready) and seat 1 wins on it."""
    hand = new_hand(MUTUAL_HANDS, MUTUAL_DRAWS, mutual_declared=option)
    act(hand, 0, DISCARD, "6z")
    act(hand, 1, DISCARD, "7z", declare=True)
    act(hand, 2, DISCARD, "2p")
    act(hand, 0, DISCARD, "5s", declare=True)
    act(hand, 1, WIN)
    return hand


def test_r8_5_declaring_with_the_discard_won_on_counts_as_declared():
    """R8.5 `single` (对亮不包): seat 0 declared with the 5s seat 1 wins on, so it pays single:
    卡五星 2 × 亮倒 2 = 4 → [-4, 4, 0]. Default `double`: 包胡 8 → [-8, 8, 0]."""
    single = mutual("single")
    assert single.values[1].pattern_names == ["亮倒", "卡五星"]
    assert not single.values[1].bao_hu and single.deltas == [-4, 4, 0]
    double = mutual("double")
    assert double.values[1].bao_hu and double.deltas == [-8, 8, 0]


# --- R9.5: a pattern's own cap replaces the general cap, higher or lower --------------------

def test_r9_5_an_own_cap_lower_than_the_general_cap_replaces_it():
    """R9.5: cap 16 with 清一色 capped at 4: 46p 123p 678p 999p 22p + 5p is 卡五星 2 × 清一色 4 = 8,
    under the general cap but over its own: → 4."""
    rules = {"cap": 16, "cap_exceptions": {"清一色": 4}}
    value = score("46p 123p 678p 999p 22p", "5p", D, rules=rules)
    check(value, 4, ["卡五星", "清一色"], 4)
    assert value.cap == 4 and value.raw_multiplier == 8


def test_r9_5_the_minimum_is_judged_before_the_cap():
    """R9.5/R7.3: with cap 1 a 卡五星 ×2 hand is paid ×1 but may still win on a discard (its
    multiplier before the cap is 2); a 屁胡 ×1 may not."""
    check(score(*KA5, D, rules={"cap": 1}), 1, ["卡五星"], 1)
    check(score("46p 234p 123s 789s 99p", "6p", D, rules={"cap": 1}), 1, [], 0, legal=False)


# --- R11.1: piao is not multiplied by the base, paid once, not doubled by 包胡 ---------------

def test_r11_1_piao_is_not_multiplied_by_base_nor_doubled_by_bao_hu():
    """R11.1 with base 2 and piao [1, 2, 0]: seat 1, declared, wins 卡五星 × 亮倒 = 4 on seat 0's
    discard: hand value 2 × 4 = 8, doubled by 包胡 = 16; piao 1 + 2 = 3, once → 19 in all.
    By self-draw: each pays 8, plus piao(payer) + 2: seat 0 3, seat 2 2."""
    value = score(*KA5, D, rules={"base": 2}, declared=True)
    paid = [(t.payer, t.amount, t.rule) for t in win_transfers(value, 1, [0], [1, 2, 0])]
    assert paid == [(0, 16, "R8.4 R9.7"), (0, 3, "R11.1")]
    value = score(*KA5, S, rules={"base": 2}, declared=True)
    paid = [(t.payer, t.amount) for t in win_transfers(value, 1, [0, 2], [1, 2, 0])]
    assert paid == [(0, 8), (0, 3), (2, 8), (2, 2)]


@pytest.mark.parametrize("winner, payers, piao, words", [
    (1, [7], None, "payer 7: a seat is 0, 1 or 2"),
    (5, [1], None, "winner 5: a seat is 0, 1 or 2"),
    (1, [0], [0, -5, 0], "piao [0, -5, 0]: one whole number of 漂 units (0 or more) a seat"),
    (1, [0], [0, "x", 0], "piao [0, 'x', 0]"),
    (1, [0], [1, 2], "piao [1, 2]"),
])
def test_win_transfers_refuses_bad_seats_and_piao(winner, payers, piao, words):
    """R11.1, R7.2: a seat outside 0-2 or a 漂 that is not a whole number of 0 or more is a
    ValueError naming it, never an IndexError or a negative payment."""
    value = score(*KA5, D, rules={"base": 2}, declared=True)
    with pytest.raises(ValueError, match=re.escape(words)):
        win_transfers(value, winner, payers, piao)
