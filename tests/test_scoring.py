"""Scoring of finished hands (RULES.md R7-R9, R11) with values computed by hand from RULES.md.

Every expected multiplier is the product of the R9.1 table entries named in the row, then the
cap (R9.5, R9.6); ``paid`` is base × multiplier from both others on a self-draw (R7.2), from the
one payer otherwise, doubled for 包胡 (R8.4, R9.7). Hands are MPSZ strings: the concealed tiles
*before* the winning tile, as in CASES.md.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kawuxing.melds import MELD_KINDS, MELD_PUNG, Meld
from kawuxing.patterns import BY_NAME, SEVEN_PAIRS_FAMILY
from kawuxing.rules import PRESETS, RuleSet
from kawuxing.scoring.payments import win_transfers
from kawuxing.scoring import (DISCARD, ROBBING_KONG, SELF_DRAW, ScoringError, WinningHand,
                              score_hand)
from kawuxing.tiles import DRAGON_BASE, kinds_for_suits, parse_tile, parse_tiles

S, D, R = SELF_DRAW, DISCARD, ROBBING_KONG


def make_hand(concealed: str, win: str, win_by: str = S, melds=(), **flags) -> WinningHand:
    """A WinningHand from MPSZ text; ``melds`` as ``"pung:7p"`` strings. No copy limit here,
    so that invalid hands can be built too (the scorer must reject them)."""
    return WinningHand(tuple(parse_tiles(concealed, max_copies=None)), parse_tile(win), win_by,
                       tuple(Meld.parse(m) for m in melds), **flags)


def score(concealed: str, win: str, win_by: str = S, melds=(), rules=None, **flags):
    ruleset = rules if isinstance(rules, RuleSet) else RuleSet.from_dict(rules)
    return score_hand(make_hand(concealed, win, win_by, melds, **flags), ruleset)


def check(value, multiplier, patterns, paid, legal=True):
    assert value.legal is legal, value.reason
    assert value.multiplier == multiplier
    assert sorted(value.pattern_names) == sorted(patterns)
    assert value.paid == paid


# --------------------------------------------------------------------------------------------
# R9.1: every pattern of the table, with its multiplier
# --------------------------------------------------------------------------------------------

# (concealed, melds, win tile, win_by, flags, rules, multiplier, patterns, paid)
TABLE = [
    # 碰碰胡 ×2: four pungs/kongs + pair, concealed or declared
    pytest.param("111p 999s 555z 22s 33p", [], "3p", D, {}, None, 2, ["碰碰胡"], 2,
                 id="R9.1-pengpenghu-concealed-discard"),
    pytest.param("111p 22s 33p", ["exposed_kong:5z", "concealed_kong:9s"], "3p", S, {}, None,
                 2, ["碰碰胡"], 4, id="R9.1-pengpenghu-with-kongs-selfdraw"),
    # 明四归一 ×2: the winning tile is the fourth of an exposed pung, on a discard or self-draw
    pytest.param("68p 123s 456s 55z", ["pung:7p"], "7p", D, {}, None, 2, ["明四归一"], 2,
                 id="R9.1-ming-si-gui-discard"),
    pytest.param("68p 123s 456s 55z", ["pung:7p"], "7p", S, {}, None, 2, ["明四归一"], 4,
                 id="R9.1-ming-si-gui-selfdraw"),
    pytest.param("78p 123s 456s 55z", ["pung:7p"], "9p", S, {}, None, 1, [], 2,
                 id="R9.1-R9.4-fourth-of-pung-held-not-won-no-si-gui-outside-flush"),
    # 暗四归一 ×4: the winning tile is the fourth of three concealed
    pytest.param("777s 89s 123p 456p 66z", [], "7s", S, {}, None, 4, ["暗四归一"], 8,
                 id="R9.1-an-si-gui-selfdraw"),
    pytest.param("777s 89s 123p 456p 66z", [], "7s", D, {}, None, 4, ["暗四归一"], 4,
                 id="R9.1-an-si-gui-discard-default"),
    pytest.param("777s 89s 123p 456p 66z", [], "7s", D, {}, {"an_si_gui_on_discard": False},
                 1, [], 0, id="R9.1-an-si-gui-on-discard-false-discard-is-pihu-illegal"),
    pytest.param("777s 89s 123p 456p 66z", [], "7s", S, {}, {"an_si_gui_on_discard": False},
                 4, ["暗四归一"], 8, id="R9.1-an-si-gui-on-discard-false-selfdraw-counts"),
    # 七对 family (R9.1, R9.3)
    pytest.param("22p 44p 66p 11s 33s 77s 5z", [], "5z", D, {}, None, 4, ["七对"], 4,
                 id="R9.1-qidui"),
    pytest.param("2222s 44s 66s 88p 99p 6z", [], "6z", S, {}, None, 8, ["龙七对"], 16,
                 id="R9.1-long-qidui"),
    pytest.param("222s 44s 66s 88p 99p 66z", [], "2s", D, {}, None, 8, ["龙七对"], 8,
                 id="R9.1-R9.3-long-qidui-win-makes-quad-no-an-si-gui"),
    pytest.param("3333p 444p 55s 66s 77z", [], "4p", D, {}, None, 16, ["双龙七对"], 16,
                 id="R9.1-R9.3-shuang-long-qidui-no-an-si-gui"),
    pytest.param("1111p 2222p 3333s 5z", [], "5z", S, {}, None, 32, ["三龙七对"], 64,
                 id="R9.1-san-long-qidui-32"),
    pytest.param("1111p 2222p 3333s 5z", [], "5z", S, {}, {"three_quad_seven_pairs": 16},
                 16, ["三龙七对"], 32, id="R9.1-san-long-qidui-option-16"),
    # 大三元 ×8, 小三元 ×4
    pytest.param("666z 234s 8p", ["pung:5z", "exposed_kong:7z"], "8p", S, {}, None, 8,
                 ["大三元"], 16, id="R9.1-da-san-yuan-melds-and-concealed"),
    pytest.param("555z 666z 777z 12p 99s", [], "3p", D, {}, None, 8, ["大三元"], 8,
                 id="R9.1-da-san-yuan-concealed"),
    pytest.param("555z 777z 66z 234s 78s", [], "9s", D, {}, None, 4, ["小三元"], 4,
                 id="R9.1-xiao-san-yuan"),
    # 杠上开花, 杠上炮, 抢杠胡 ×2
    pytest.param("123p 456p 78s 55z", ["concealed_kong:3s"], "9s", S, {"after_kong": True},
                 None, 2, ["杠上开花"], 4, id="R9.1-gang-shang-kai-hua"),
    pytest.param("123p 456p 78s 55z 222s", [], "6s", D, {"after_kong": True}, None, 2,
                 ["杠上炮"], 2, id="R9.1-gang-shang-pao"),
    pytest.param("123p 456p 78s 55z 222s", [], "9s", R, {}, None, 2, ["抢杠胡"], 2,
                 id="R9.1-R7.4-qiang-gang-hu"),
    # 清一色 ×4
    pytest.param("123p 456p 789p 22p 78p", [], "9p", D, {}, None, 4, ["清一色"], 4,
                 id="R9.1-qing-yi-se"),
    pytest.param("123s 456s 78s 11s", ["pung:9s"], "6s", D, {}, None, 4, ["清一色"], 4,
                 id="R9.1-qing-yi-se-melds-included"),
    pytest.param("123s 456s 78s 11s", ["pung:5z"], "6s", S, {}, None, 1, [], 2,
                 id="R9.1-dragon-meld-breaks-qing-yi-se"),
    # 手抓一 ×4 (four declared melds of any kind; with them all pungs/kongs it is also 碰碰胡)
    pytest.param("5z", ["concealed_kong:1p", "exposed_kong:9p", "added_kong:3s", "pung:7s"],
                 "5z", D, {}, None, 8, ["碰碰胡", "手抓一"], 8, id="R9.1-shou-zhua-yi"),
    # 海底捞月 ×2 (option last_discard_bonus)
    pytest.param("123p 456p 78s 55z 222s", [], "9s", S, {"last_tile": True}, None, 2,
                 ["海底捞月"], 4, id="R9.1-hai-di-selfdraw"),
    pytest.param("123p 456p 78s 55z 222s", [], "9s", D, {"last_tile": True}, None, 1, [], 0,
                 id="R9.1-hai-di-last-discard-no-bonus-default"),
    pytest.param("123p 456p 78s 55z 222s", [], "9s", D, {"last_tile": True},
                 {"last_discard_bonus": True}, 2, ["海底捞月"], 2,
                 id="R9.1-hai-di-last-discard-bonus-true"),
    pytest.param("123p 456p 78s 55z 222s", [], "9s", S, {"last_tile": True},
                 {"last_discard_bonus": True}, 2, ["海底捞月"], 4,
                 id="R9.1-hai-di-selfdraw-bonus-true-same"),
    # 亮倒 ×2 (R8.4: on a discard the discarder pays double)
    pytest.param("123p 456p 78s 55z 222s", [], "9s", S, {"declared": True}, None, 2, ["亮倒"],
                 4, id="R9.1-liang-dao-selfdraw"),
    pytest.param("123p 456p 78s 55z 222s", [], "9s", D, {"declared": True}, None, 2, ["亮倒"],
                 4, id="R9.1-R8.4-liang-dao-discard-bao-hu"),
    # 卡五星 ×2: the winning 5 read as the middle of 4-5-6
    pytest.param("46s 123p 789p 555z 11s", [], "5s", D, {}, None, 2, ["卡五星"], 2,
                 id="R9.1-ka-wu-xing-46"),
    pytest.param("4556s 123p 789p 777z", [], "5s", D, {}, None, 2, ["卡五星"], 2,
                 id="R9.1-ka-wu-xing-4556"),
    pytest.param("4688p 123s 789s 555z", [], "5p", D, {}, None, 2, ["卡五星"], 2,
                 id="R9.1-ka-wu-xing-4688"),
    pytest.param("2245667p 789s 555z", [], "5p", S, {}, None, 2, ["卡五星"], 4,
                 id="R9.1-ka-wu-xing-2245667"),
    pytest.param("2245556p 789s 555z", [], "5p", D, {}, None, 8, ["卡五星", "暗四归一"], 8,
                 id="R9.1-ka-wu-xing-2245556-plus-an-si-gui"),
    pytest.param("34s 678s 123p 789p 55z", [], "5s", S, {}, None, 1, [], 2,
                 id="R9.1-edge-wait-34-on-5-not-ka-wu-xing"),
    pytest.param("67p 234s 789s 123p 55z", [], "5p", S, {}, None, 1, [], 2,
                 id="R9.1-edge-wait-67-on-5-not-ka-wu-xing"),
    pytest.param("5p 123p 789p 123s 789s", [], "5p", S, {}, None, 1, [], 2,
                 id="R9.1-pair-wait-on-5-not-ka-wu-xing"),
    pytest.param("46s 123p 789p 555z 11s", [], "5s", S, {"declared": True, "after_kong": True,
                 "last_tile": True}, None, 16, ["卡五星", "亮倒", "杠上开花", "海底捞月"], 32,
                 id="R9.1-patterns-multiply-2x2x2x2"),
]


@pytest.mark.parametrize("concealed, melds, win, win_by, flags, rules, multiplier, patterns, paid",
                         TABLE)
def test_r9_1_pattern_table(concealed, melds, win, win_by, flags, rules, multiplier, patterns,
                            paid):
    """R9.1: each pattern with its multiplier; patterns multiply; none = 屁胡 ×1."""
    value = score(concealed, win, win_by, melds, rules, **flags)
    legal = not (win_by != S and multiplier < 2)  # R7.3 default minimum 2
    check(value, multiplier, patterns, paid, legal)
    assert value.raw_multiplier == math.prod(p.multiplier for p in value.patterns)


def test_r9_1_pattern_multipliers_match_table():
    """R9.1: the pattern data carries the table's multipliers, and 屁胡 (no pattern) ×1."""
    expected = {"屁胡": 1, "碰碰胡": 2, "明四归一": 2, "暗四归一": 4, "七对": 4, "龙七对": 8, "双龙七对": 16,
                "三龙七对": 32, "大三元": 8, "小三元": 4, "杠上开花": 2, "杠上炮": 2,
                "抢杠胡": 2, "清一色": 4, "手抓一": 4, "海底捞月": 2, "亮倒": 2, "卡五星": 2,
                "三元七对": 16, "见四乘二": 2}  # and the town patterns of R9.15, R9.9
    assert {name: p.multiplier for name, p in BY_NAME.items()} == expected


def test_r9_1_ming_si_gui_value_and_note():
    """R9.1 明四归一: the pattern score carries a note saying why."""
    value = score("68p 123s 456s 55z", "7p", D, ["pung:7p"])
    (ming,) = value.patterns
    assert ming.name == "明四归一" and ming.multiplier == 2 and "exposed pung" in ming.note


def test_r9_1_seven_pairs_of_dragons_is_not_xiao_san_yuan():
    """R9.1/R9.2: pairs of the three dragons in seven pairs are just 七对 (小三元 needs pungs)."""
    check(score("55z 66z 77z 11p 22p 33s 4s", "4s", D), 4, ["七对"], 4)


def test_r7_4_robbing_kong_option_false_makes_it_illegal():
    """R7.4: with robbing_kong false a win by robbing the kong is not allowed at all."""
    value = score("123p 456p 78s 55z 222s", "9s", R, rules={"robbing_kong": False})
    assert not value.legal
    assert "robbing_kong" in value.reason and "R7.4" in value.reason
    assert value.paid == 0
    # Even a big hand cannot rob then.
    value = score("46s 123p 789p 555z 11s", "5s", R, rules={"robbing_kong": False},
                  declared=True)
    assert not value.legal


def test_r7_4_robbing_kong_big_hand():
    """R7.4 + R9.1: 抢杠胡 multiplies with the hand: 卡五星 ×2 × 抢杠胡 ×2 = 4, paid by the konger."""
    check(score("46s 123p 789p 555z 11s", "5s", R), 4, ["卡五星", "抢杠胡"], 4)


# --------------------------------------------------------------------------------------------
# R9.2: the best single reading
# --------------------------------------------------------------------------------------------

def test_r9_2_seven_pairs_flush_not_times_ka_wu_xing():
    """R9.2 (001's example): 112233445667p + 5p is 七对 ×4 × 清一色 ×4 = 16; the standard reading
    123 123 456 456 77 (卡五星 × 清一色 = 8) is not combined with it (not 32)."""
    value = score("1122334456677p", "5p", D)
    check(value, 16, ["七对", "清一色"], 16)
    assert value.reading.seven_pairs


def test_r9_2_pungs_reading_beats_chows():
    """R9.2: 111222333p 99s + 7z (77z in hand): as pungs it is 碰碰胡 ×2, as three 123 chows
    屁胡 ×1; the best reading wins, so a discard win is legal."""
    value = score("111222333p 99s 77z", "7z", D)
    check(value, 2, ["碰碰胡"], 2)
    assert all(s.kind == "pung" for s in value.reading.sets)


def test_r9_2_incompatible_readings_do_not_combine():
    """R9.2: 444555666777p 99p after 5p: pungs (碰碰胡 × 清一色 = 8) or 456 ×3 (卡五星 × 清一色
    = 8); never 碰碰胡 × 卡五星 × 清一色 = 16."""
    value = score("444p 55p 666p 777p 99p", "5p", D)
    assert value.multiplier == 8 and value.paid == 8
    assert sorted(value.pattern_names) in (sorted(["碰碰胡", "清一色"]),
                                           sorted(["卡五星", "清一色"]))


# --------------------------------------------------------------------------------------------
# R9.3: the 龙七对 family never adds 暗四归一
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("si_gui", ["flush", "any_pattern", "win_tile_only"])
def test_r9_3_long_qidui_flush_with_quad_held_no_an_si_gui(si_gui):
    """R9.3 (and R9.4 does not override it): 1111p held in a flush 龙七对: 龙七对 ×8 × 清一色 ×4
    = 32, no ×4 for the four in hand under any si_gui_in_hand."""
    value = score("1111p 33p 55p 77p 99p 2p", "2p", D, rules={"si_gui_in_hand": si_gui})
    check(value, 32, ["龙七对", "清一色"], 32)


def test_r9_3_shuang_long_win_tile_quad_self_draw():
    """R9.3: the winning tile making a four in 双龙七对 adds nothing: 16, paid 2 × 16 = 32."""
    check(score("3333p 444p 55s 66s 77z", "4p", S), 16, ["双龙七对"], 32)


# --------------------------------------------------------------------------------------------
# R9.4: 四归 held in the hand, option si_gui_in_hand
# --------------------------------------------------------------------------------------------

SI_GUI_CASES = [
    # flush hand, 2222p kept in hand (not the winning tile): 清一色 4 × 暗四归一 4 = 16
    pytest.param("2222p 34p 567p 888p 9p", [], "9p", D, {},
                 {"flush": 16, "any_pattern": 16, "win_tile_only": 4},
                 id="R9.4-flush-held-quad"),
    # flush hand, the fourth 7p of the exposed pung kept in hand: 清一色 4 × 明四归一 2 = 8
    pytest.param("789p 123p 44p 56p", ["pung:7p"], "4p", D, {},
                 {"flush": 8, "any_pattern": 8, "win_tile_only": 4},
                 id="R9.4-flush-held-fourth-of-exposed-pung"),
    # not flush, 卡五星 and 2222s held: only any_pattern adds the held 暗四归一 (2 × 4 = 8)
    pytest.param("46p 2222s 34s 789s 55z", [], "5p", D, {},
                 {"flush": 2, "any_pattern": 8, "win_tile_only": 2},
                 id="R9.4-ka-wu-xing-held-quad"),
    # 屁胡 with 2222p held: never counts (seed: 屁胡 only the winning tile makes 四归)
    pytest.param("2222p 34p 567s 888s 9s", [], "9s", S, {},
                 {"flush": 1, "any_pattern": 1, "win_tile_only": 1},
                 id="R9.4-pihu-held-quad-never"),
    # situational patterns count as "another pattern" for any_pattern: 亮倒 2 × 暗四归一 4 = 8
    pytest.param("2222p 34p 567s 888s 9s", [], "9s", S, {"declared": True},
                 {"flush": 2, "any_pattern": 8, "win_tile_only": 2},
                 id="R9.4-declared-held-quad-any-pattern"),
    # 海底捞月 2 × held fourth of exposed pung 明四归一 2 = 4 under any_pattern
    pytest.param("789p 123s 44s 56s", ["pung:7p"], "4s", S, {"last_tile": True},
                 {"flush": 2, "any_pattern": 4, "win_tile_only": 2},
                 id="R9.4-hai-di-held-fourth-of-pung-any-pattern"),
]


@pytest.mark.parametrize("concealed, melds, win, win_by, flags, by_option", SI_GUI_CASES)
@pytest.mark.parametrize("option", ["flush", "any_pattern", "win_tile_only"])
def test_r9_4_si_gui_in_hand(concealed, melds, win, win_by, flags, by_option, option):
    """R9.4: held four of a kind / held fourth of an exposed pung count under `flush` only in a
    清一色 hand, under `any_pattern` when the hand has another (non-四归) pattern, situational
    ones included, and never under `win_tile_only`."""
    value = score(concealed, win, win_by, melds, {"si_gui_in_hand": option}, **flags)
    assert value.legal
    assert value.multiplier == by_option[option]
    assert value.paid == by_option[option] * (2 if win_by == S else 1) * (
        2 if flags.get("declared") and win_by != S else 1)


def test_r9_4_only_si_gui_is_not_another_pattern():
    """R9.4 `any_pattern`, reading chosen: a 四归 made by the winning tile is not "another
    pattern" that lets a held 四归 count (the seed: 屁胡 counts only the winning tile's 四归).
    68p 2222s 34s 55z + pung 7p, win 7p: 明四归一 ×2 only, not × 暗四归一."""
    check(score("68p 2222s 34s 55z", "7p", D, ["pung:7p"], {"si_gui_in_hand": "any_pattern"}),
          2, ["明四归一"], 2)


def test_r9_4_discard_quad_is_not_held_when_an_si_gui_on_discard_false():
    """R9.1 an_si_gui_on_discard false + R9.4 flush, reading chosen: 222p in a flush hand won on
    a discarded 2p. By default 清一色 4 × 暗四归一 4 = 16; with the option false the four was
    not *kept in the hand* (one came from the discard), so only 清一色 ×4."""
    check(score("222p 34p 567p 888p 99p", "2p", D), 16, ["清一色", "暗四归一"], 16)
    check(score("222p 34p 567p 888p 99p", "2p", D, rules={"an_si_gui_on_discard": False}),
          4, ["清一色"], 4)
    check(score("222p 34p 567p 888p 99p", "2p", S, rules={"an_si_gui_on_discard": False}),
          16, ["清一色", "暗四归一"], 32)


def test_r9_4_si_gui_counts_once():
    """R9.1 "each pattern counts once" + R9.4: two fours kept in a flush hand (2222p 3333p 44p
    888p + 4p, read 222 234 333 888 44) are one 暗四归一: 清一色 4 × 暗四归一 4 = 16, not 64."""
    value = score("2222p 3333p 44p 888p", "4p", S)
    check(value, 16, ["清一色", "暗四归一"], 32)


# --------------------------------------------------------------------------------------------
# R9.5 cap, R9.6 cap_excludes_declare
# --------------------------------------------------------------------------------------------

FLUSH_SEVEN_PAIRS = ("11p 33p 55p 77p 99p 22p 4p", "4p")  # 七对 4 × 清一色 4 = 16
DOUBLE_DRAGON_FLUSH = ("1111p 2222p 33p 44p 5p", "5p")  # 双龙七对 16 × 清一色 4 = 64
TRIPLE_DRAGON = ("1111p 2222p 3333s 5z", "5z")  # 三龙七对 32
BIG_DRAGONS_ALL_PUNGS = ("8s", "8s", ["pung:5z", "pung:6z", "pung:7z", "pung:2p"])  # 8×2×4 = 64


def test_r9_5_no_cap_by_default():
    """R9.5: cap none by default: 大三元 8 × 碰碰胡 2 × 手抓一 4 = 64."""
    concealed, win, melds = BIG_DRAGONS_ALL_PUNGS
    value = score(concealed, win, D, melds)
    check(value, 64, ["大三元", "碰碰胡", "手抓一"], 64)
    assert value.cap is None and value.raw_multiplier == 64


def test_r9_5_capped_preset_caps_at_8():
    """R9.5 `capped`: 七对 × 清一色 = 16 → 8; self-draw paid 2 × 8 = 16."""
    value = score(*FLUSH_SEVEN_PAIRS, S, rules={"preset": "capped"})
    check(value, 8, ["七对", "清一色"], 16)
    assert value.raw_multiplier == 16 and value.cap == 8


def test_r9_5_capped_big_dragons():
    """R9.5 `capped`: 大三元 hand of 64 → 8 (no exception for 大三元)."""
    concealed, win, melds = BIG_DRAGONS_ALL_PUNGS
    check(score(concealed, win, D, melds, {"preset": "capped"}), 8,
          ["大三元", "碰碰胡", "手抓一"], 8)


def test_r9_5_capped_exception_double_dragon():
    """R9.5 `capped`: 双龙七对 has its own cap 16: 双龙七对 × 清一色 = 64 → 16, paid 32."""
    value = score(*DOUBLE_DRAGON_FLUSH, S, rules={"preset": "capped"})
    check(value, 16, ["双龙七对", "清一色"], 32)
    assert value.raw_multiplier == 64 and value.cap == 16


def test_r9_5_capped_exception_triple_dragon():
    """R9.5 `capped`: 三龙七对 32 → its own cap 16."""
    check(score(*TRIPLE_DRAGON, S, rules={"preset": "capped"}), 16, ["三龙七对"], 32)


def test_r9_5_capped_dragon_seven_pairs_has_no_exception():
    """R9.5 `capped`: 龙七对 is not an exception: 龙七对 8 × 清一色 4 = 32 → 8."""
    check(score("1111p 33p 55p 77p 99p 2p", "2p", D, rules={"preset": "capped"}), 8,
          ["龙七对", "清一色"], 8)


def test_r9_5_capped_under_cap_unchanged():
    """R9.5: a hand under the cap is not touched and reports no binding cap."""
    value = score("46s 123p 789p 555z 11s", "5s", D, rules={"preset": "capped"})
    check(value, 2, ["卡五星"], 2)
    assert value.cap is None


def test_r9_5_flat8_no_exceptions():
    """R9.5 `flat8`: cap 8 for everything: 双龙七对 × 清一色 64 → 8, 三龙七对 32 → 8."""
    check(score(*DOUBLE_DRAGON_FLUSH, S, rules={"preset": "flat8"}), 8, ["双龙七对", "清一色"], 16)
    check(score(*TRIPLE_DRAGON, D, rules={"preset": "flat8"}), 8, ["三龙七对"], 8)


def test_r9_5_numeric_cap_and_custom_exception():
    """R9.5: cap is any number and cap_exceptions any pattern: cap 16 → 大三元 hand 64 → 16;
    with {"大三元": 32} → 32; cap 4 → 清一色 × 卡五星 = 8 → 4."""
    concealed, win, melds = BIG_DRAGONS_ALL_PUNGS
    check(score(concealed, win, D, melds, {"cap": 16}), 16, ["大三元", "碰碰胡", "手抓一"], 16)
    value = score(concealed, win, D, melds, {"cap": 16, "cap_exceptions": {"大三元": 32}})
    check(value, 32, ["大三元", "碰碰胡", "手抓一"], 32)
    assert value.cap == 32
    check(score("46p 123p 678p 999p 22p", "5p", D, rules={"cap": 4}), 4, ["卡五星", "清一色"], 4)


def test_r9_5_exceptions_without_cap_do_nothing():
    """R9.5, reading chosen: cap_exceptions lift (or lower) the table cap for a pattern; with
    cap none (不封顶) there is no cap to except from, so the hand is uncapped: 64."""
    check(score(*DOUBLE_DRAGON_FLUSH, S, rules={"cap_exceptions": {"双龙七对": 16}}), 64,
          ["双龙七对", "清一色"], 128)


def test_r9_6_cap_excludes_declare():
    """R9.6: capped preset, 七对 4 × 清一色 4 × 亮倒 2 = 32 on a discard (包胡 R8.4).
    cap_excludes_declare false: 32 → 8, 包胡 pays 16. True: the cap applies before 亮倒:
    min(16, 8) × 2 = 16, 包胡 pays 32."""
    value = score(*FLUSH_SEVEN_PAIRS, D, rules={"preset": "capped"}, declared=True)
    check(value, 8, ["七对", "清一色", "亮倒"], 16)
    value = score(*FLUSH_SEVEN_PAIRS, D, rules={"preset": "capped", "cap_excludes_declare": True},
                  declared=True)
    check(value, 16, ["七对", "清一色", "亮倒"], 32)
    assert value.raw_multiplier == 32 and value.cap == 8


def test_r9_6_cap_excludes_declare_without_declare_or_under_cap():
    """R9.6: without 亮倒 the option changes nothing (16 → 8); 卡五星 × 亮倒 = 4 is under cap 8
    either way; 清一色 × 卡五星 × 亮倒 = 16: false → 8, true → min(8, 8) × 2 = 16."""
    rules = {"preset": "capped", "cap_excludes_declare": True}
    check(score(*FLUSH_SEVEN_PAIRS, S, rules=rules), 8, ["七对", "清一色"], 16)
    check(score("46s 123p 789p 555z 11s", "5s", S, rules=rules, declared=True), 4,
          ["卡五星", "亮倒"], 8)
    flush_ka5 = ("46p 123p 678p 999p 22p", "5p")
    check(score(*flush_ka5, S, rules={"preset": "capped"}, declared=True), 8,
          ["卡五星", "清一色", "亮倒"], 16)
    check(score(*flush_ka5, S, rules=rules, declared=True), 16, ["卡五星", "清一色", "亮倒"], 32)


# --------------------------------------------------------------------------------------------
# R7.3 minimum for a discard win
# --------------------------------------------------------------------------------------------

PIHU = ("34s 678s 123p 789p 55z", "5s")  # 屁胡 ×1 (edge wait on 5, not 卡五星)


def test_r7_3_pihu_discard_illegal_by_default():
    """R7.3 min_multiplier_discard_win 2: a ×1 hand may not win on a discard."""
    value = score(*PIHU, D)
    assert not value.legal and "R7.3" in value.reason and value.paid == 0
    assert value.multiplier == 1 and value.reading is not None


def test_r7_3_pihu_self_draw_always_legal():
    """R7.3: self-draw needs no minimum: ×1, both pay 1 = 2."""
    check(score(*PIHU, S), 1, [], 2)


def test_r7_3_min_1_allows_pihu_discard():
    """R7.3 option min_multiplier_discard_win 1: the ×1 discard win is legal and pays 1."""
    check(score(*PIHU, D, rules={"min_multiplier_discard_win": 1}), 1, [], 1)


@pytest.mark.parametrize("flags, win_by, pattern", [
    ({"after_kong": True}, D, "杠上炮"),
    ({"declared": True}, D, "亮倒"),
    ({}, R, "抢杠胡"),
])
def test_r7_3_situational_patterns_count_for_minimum(flags, win_by, pattern):
    """R7.3: the multiplier includes 亮倒, 杠上炮, 抢杠胡, so a 屁胡 shape may win with them."""
    value = score(*PIHU, win_by, **flags)
    assert value.legal and value.multiplier == 2 and value.pattern_names == [pattern]


def test_r7_3_uses_multiplier_before_cap():
    """R7.3: 屁胡 is a hand with no pattern (R9.1); with cap 1 (an odd table) a 卡五星 pays ×1
    but is not 屁胡, so it may still win on a discard."""
    value = score("46s 123p 789p 555z 11s", "5s", D, rules={"cap": 1})
    assert value.multiplier == 1 and value.raw_multiplier == 2 and value.legal
    assert value.paid == 1


def test_r7_1_not_a_winning_shape():
    """R7.1: tiles that are not four sets + a pair nor seven pairs are no win, even self-drawn."""
    value = score("34s 678s 123p 789p 55z", "1s", S)
    assert not value.legal and value.reading is None and "R7.1" in value.reason
    assert value.paid == 0


# --------------------------------------------------------------------------------------------
# R8.4 包胡, R8.5 mutual_declared, R9.7 payments
# --------------------------------------------------------------------------------------------

KA5 = ("46s 123p 789p 555z 11s", "5s")  # 卡五星 ×2


def test_r8_4_bao_hu_discard_pays_double():
    """R8.4: declared winner on a discard: 卡五星 2 × 亮倒 2 = 4; the discarder pays 2 × 4 = 8."""
    value = score(*KA5, D, declared=True)
    check(value, 4, ["卡五星", "亮倒"], 8)
    assert value.bao_hu and value.per_payer == 4


def test_r8_4_declared_self_draw_is_not_bao_hu():
    """R8.4/R7.2: declared self-draw: both others pay 4 = 8, no 包胡."""
    value = score(*KA5, S, declared=True)
    check(value, 4, ["卡五星", "亮倒"], 8)
    assert not value.bao_hu


def test_r8_4_bao_hu_robbed_kong():
    """R8.4 "(or robbed)": 卡五星 × 抢杠胡 × 亮倒 = 8, the konger pays double: 16."""
    value = score(*KA5, R, declared=True)
    check(value, 8, ["卡五星", "抢杠胡", "亮倒"], 16)
    assert value.bao_hu


def test_r8_5_mutual_declared_double_default():
    """R8.5 default `double`: the discarder had declared too, still 包胡: 8."""
    value = score(*KA5, D, declared=True, discarder_declared=True)
    assert value.bao_hu and value.paid == 8


def test_r8_5_mutual_declared_single():
    """R8.5 `single` (对亮不包): a declared discarder pays single: 4."""
    value = score(*KA5, D, rules={"mutual_declared": "single"}, declared=True,
                  discarder_declared=True)
    check(value, 4, ["卡五星", "亮倒"], 4)
    assert not value.bao_hu
    # a discarder who had not declared still pays double under `single`
    assert score(*KA5, D, rules={"mutual_declared": "single"}, declared=True).paid == 8


def test_r8_5_discarder_declared_alone_is_no_bao_hu():
    """R8.4: only a declared *winner* makes 包胡; the discarder's own 亮倒 changes nothing."""
    value = score(*KA5, D, discarder_declared=True)
    check(value, 2, ["卡五星"], 2)
    assert not value.bao_hu


def test_r9_7_bao_hu_doubles_after_cap():
    """R9.7: the cap first (flat8: 七对 × 清一色 × 亮倒 = 32 → 8), then 包胡 doubles: 16."""
    value = score(*FLUSH_SEVEN_PAIRS, D, rules={"preset": "flat8"}, declared=True)
    check(value, 8, ["七对", "清一色", "亮倒"], 16)


@pytest.mark.parametrize("base", [1, 2, 5])
def test_r9_7_base_scales_payments(base):
    """R9.7: per payer = 底金 × multiplier: 卡五星 ×2 → discard 2·base, self-draw 4·base,
    declared discard (×4, 包胡) 8·base."""
    rules = {"base": base}
    assert score(*KA5, D, rules=rules).per_payer == 2 * base
    assert score(*KA5, D, rules=rules).paid == 2 * base
    assert score(*KA5, S, rules=rules).paid == 4 * base
    assert score(*KA5, D, rules=rules, declared=True).paid == 8 * base
    assert score(*KA5, D, rules=rules).multiplier == 2  # the multiplier itself is not scaled


# --------------------------------------------------------------------------------------------
# R11 piao and win_transfers
# --------------------------------------------------------------------------------------------

def test_r7_2_transfers_self_draw_both_pay():
    """R7.2: self-draw of 卡五星 ×2 by seat 0: seats 1 and 2 pay 2 each."""
    value = score(*KA5, S)
    transfers = win_transfers(value, 0, [1, 2])
    assert [(t.payer, t.payee, t.amount) for t in transfers] == [(1, 0, 2), (2, 0, 2)]
    assert sum(t.amount for t in transfers) == value.paid == 4


def test_r11_piao_self_draw():
    """R11.1: piao [1, 2, 5], seat 0 self-draws 卡五星 ×2: seat 1 pays 2 + (2+1) = 5, seat 2 pays
    2 + (5+1) = 8; total 13 = paid 4 + piao 9."""
    value = score(*KA5, S)
    transfers = win_transfers(value, 0, [1, 2], piao=[1, 2, 5])
    by_payer = {}
    for t in transfers:
        assert t.payee == 0
        by_payer[t.payer] = by_payer.get(t.payer, 0) + t.amount
    assert by_payer == {1: 5, 2: 8}
    piao = [t for t in transfers if t.rule == "R11.1"]
    assert [(t.payer, t.amount) for t in piao] == [(1, 3), (2, 6)]


def test_r11_piao_not_doubled_by_bao_hu():
    """R11.1 + R8.4, reading chosen: 包胡 doubles the hand value only; the piao is paid once per
    payment of a hand value. Seat 2 declared, wins 卡五星 × 亮倒 = 4 on seat 1's discard, piao
    [0, 2, 1]: hand 8 (包胡) + piao 2+1 = 3."""
    value = score(*KA5, D, declared=True)
    transfers = win_transfers(value, 2, [1], piao=[0, 2, 1])
    assert [(t.payer, t.payee, t.amount, t.rule) for t in transfers] == [
        (1, 2, 8, "R8.4 R9.7"), (1, 2, 3, "R11.1")]


def test_r11_zero_piao_adds_no_transfer():
    """R11.1: piao 0 + 0 pays nothing: no extra transfer."""
    value = score(*KA5, D)
    assert [(t.payer, t.amount) for t in win_transfers(value, 0, [2], piao=[0, 5, 0])] == [(2, 2)]


def test_win_transfers_rejects_illegal_value_and_bad_payers():
    """R7.2: an illegal win pays nothing; payers must be the two others (self-draw) or one."""
    with pytest.raises(ValueError, match="not a legal win"):
        win_transfers(score(*PIHU, D), 0, [1])
    with pytest.raises(ValueError, match="payers"):
        win_transfers(score(*KA5, S), 0, [1])
    with pytest.raises(ValueError, match="payers"):
        win_transfers(score(*KA5, D), 0, [1, 2])
    with pytest.raises(ValueError, match="payers"):
        win_transfers(score(*KA5, D), 0, [0])


# --------------------------------------------------------------------------------------------
# Invalid hands: ScoringError with a clear message
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("concealed, melds, win, message", [
    ("46s 123p 789p 555z 1s", [], "5s", "12 concealed tiles with 0 melds: expected 13"),
    ("46s 123p 789p 555z 111s", [], "5s", "14 concealed tiles"),
    ("46s 123p 789p 555z 11s", ["pung:7s"], "5s", "13 concealed tiles with 1 melds: expected 10"),
    ("", ["pung:1p", "pung:2p", "pung:3p", "pung:4p", "pung:5p"], "6p", "5 melds"),
], ids=["R7.1-too-few", "R7.1-too-many", "R7.1-count-with-melds", "R7.1-five-melds"])
def test_invalid_tile_count(concealed, melds, win, message):
    """R7.1: concealed tiles + 3 per meld = 13 before the winning tile."""
    with pytest.raises(ScoringError, match=message):
        score(concealed, win, S, melds)


@pytest.mark.parametrize("concealed, melds, win", [
    ("1111p 23p 456p 789p 5z", [], "1p"),  # fifth copy by the winning tile
    ("7p 123s 456s 555z", ["pung:7p"], "7p"),  # pung + concealed + winning tile
    ("123p 456p 78s 55z", ["concealed_kong:9s"], "9s"),  # kong + winning tile
    ("11111p 23p 456p 789p", [], "5z"),  # five in the concealed hand
], ids=["R1.1-win-tile", "R1.1-meld-and-win", "R1.1-kong-and-win", "R1.1-concealed"])
def test_fifth_copy(concealed, melds, win):
    """R1.1: four copies of each tile, counting concealed tiles, melds and the winning tile."""
    with pytest.raises(ScoringError, match=r"5 copies of \d[psz].*only 4"):
        score(concealed, win, S, melds)


def test_suit_not_in_play():
    """R1.1 option suits: 万 is out of play by default; with suits m+p, 条 is out instead."""
    with pytest.raises(ScoringError, match=r"1m is not in play: suits are p\+s"):
        score("123m 456p 78p 55z 222s", "9p", S)
    with pytest.raises(ScoringError, match=r"not in play: suits are m\+p"):
        score("123m 456p 78p 55z 222s", "9p", S, rules={"suits": ["m", "p"]})
    check(score("123m 456p 78p 55z 222m", "9p", S, rules={"suits": ["p", "m"]}), 1, [], 2)
    with pytest.raises(ScoringError, match=r"9s is not in play"):
        score("123p 456p 78p 55z 222p", "9s", S, rules={"suits": ["m", "p"]})


def test_bad_win_by():
    """CASES.md/R7.2: win_by must be self_draw, discard or robbing_kong."""
    with pytest.raises(ScoringError, match="win_by 'tsumo': use one of self_draw, discard, "
                                           "robbing_kong"):
        score(*KA5, "tsumo")


def test_bad_tile_kind():
    """R1.1: a tile that is not one of the 30 kinds is a ScoringError naming it."""
    hand = WinningHand(tuple(parse_tiles("46s 123p 789p 555z 11s")), 99, D)
    with pytest.raises(ScoringError, match="win_tile: 99"):
        score_hand(hand, RuleSet())
    hand = WinningHand(tuple(parse_tiles("46s 123p 789p 555z 1s")) + ("5p",), 22, D)
    with pytest.raises(ScoringError, match="concealed: '5p'"):
        score_hand(hand, RuleSet())


# --------------------------------------------------------------------------------------------
# Property test: random legal finished hands
# --------------------------------------------------------------------------------------------

RULE_OVERRIDES = st.fixed_dictionaries({}, optional={
    "suits": st.sampled_from([["p", "s"], ["m", "p"], ["m", "s"]]),
    "min_multiplier_discard_win": st.sampled_from([1, 2]),
    "an_si_gui_on_discard": st.booleans(),
    "three_quad_seven_pairs": st.sampled_from([16, 32]),
    "last_discard_bonus": st.booleans(),
    "si_gui_in_hand": st.sampled_from(["flush", "any_pattern", "win_tile_only"]),
    "cap": st.sampled_from([None, 4, 8, 16]),
    "cap_excludes_declare": st.booleans(),
    "mutual_declared": st.sampled_from(["double", "single"]),
    "robbing_kong": st.booleans(),
    "base": st.integers(1, 5),
})


@st.composite
def finished_hands(draw):
    """(WinningHand, RuleSet): a random winning shape (four sets + pair with 0-4 declared melds,
    or seven pairs) of the rule set's suits, never more than four copies, random win_by/flags."""
    overrides = draw(RULE_OVERRIDES)
    # RULES.md's presets: server_common's town options (VARIANTS.md) change the payments and
    # R7.3 (R7.6, R8.8, R11.5); tests/test_variants_*.py cover them
    rules = RuleSet.preset(draw(st.sampled_from([p for p in PRESETS if p != "server_common"])),
                           **overrides)
    kinds = kinds_for_suits(rules.suits)
    left = {k: 4 for k in kinds}
    concealed: list[int] = []
    melds: list[Meld] = []
    if draw(st.integers(0, 5)) == 0:  # seven pairs (quads allowed: a kind twice)
        for _ in range(7):
            kind = draw(st.sampled_from([k for k in kinds if left[k] >= 2]))
            left[kind] -= 2
            concealed += [kind, kind]
    else:
        n_melds = draw(st.integers(0, 4))
        for i in range(4):
            if i < n_melds:
                kind = draw(st.sampled_from(MELD_KINDS))
                need = 3 if kind == MELD_PUNG else 4
                tile = draw(st.sampled_from([k for k in kinds if left[k] >= need]))
                left[tile] -= need
                melds.append(Meld(kind, tile))
                continue
            chows = [k for k in kinds if k < DRAGON_BASE and k % 9 <= 6
                     and all(left.get(k + d, 0) >= 1 for d in range(3))]
            pungs = [k for k in kinds if left[k] >= 3]
            if chows and draw(st.booleans()):
                start = draw(st.sampled_from(chows))
                tiles = [start, start + 1, start + 2]
            else:
                tile = draw(st.sampled_from(pungs))
                tiles = [tile] * 3
            for t in tiles:
                left[t] -= 1
            concealed += tiles
        pair = draw(st.sampled_from([k for k in kinds if left[k] >= 2]))
        left[pair] -= 2
        concealed += [pair, pair]
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    win_by = draw(st.sampled_from([S, D, R]))
    if win_by == R and (win in concealed or any(m.tile == win for m in melds)):
        win_by = D  # R7.4: the konger holds the other three copies
    robbing = win_by == R
    hand = WinningHand(tuple(draw(st.permutations(concealed))), win, win_by, tuple(melds),
                       after_kong=not robbing and draw(st.booleans()),
                       last_tile=not robbing and draw(st.booleans()),
                       declared=draw(st.booleans()),
                       discarder_declared=win_by != S and draw(st.booleans()))
    return hand, rules


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(finished_hands(), st.data())
def test_property_random_finished_hands(hand_rules, data):
    """R7-R9, R11 invariants on random legal finished hands under random presets and options:
    scoring never crashes; the multiplier is the capped product of the patterns (≤ cap or the
    exception cap, ×2 for 亮倒 under R9.6); paid matches R7.2/R8.4; win transfers sum to paid +
    piao (R11.1); a discard win is legal iff the multiplier before the cap is at least
    min_multiplier_discard_win (R7.3: 屁胡 is a hand with no pattern)."""
    hand, rules = hand_rules
    value = score_hand(hand, rules)
    assert value.reading is not None  # it is a winning shape (R7.1)
    names = value.pattern_names
    assert len(names) == len(set(names)) and set(names) <= set(BY_NAME)  # each once (R9.1)
    assert value.raw_multiplier == math.prod(p.multiplier for p in value.patterns)
    family = {BY_NAME[n].key for n in names} & set(SEVEN_PAIRS_FAMILY)
    if family:  # R9.3, R9.2: seven-pairs readings add no 四归 and no standard-shape pattern
        assert not {"暗四归一", "明四归一", "碰碰胡", "卡五星", "大三元", "小三元", "手抓一"} & set(names)
    # R9.5 / R9.6 cap
    if rules.cap is None:
        assert value.multiplier == value.raw_multiplier
    else:
        limit = max([rules.cap_exceptions[n] for n in names if n in rules.cap_exceptions],
                    default=rules.cap)
        if rules.cap_excludes_declare and "亮倒" in names:
            assert value.multiplier == min(value.raw_multiplier // 2, limit) * 2
            assert value.multiplier <= 2 * limit
        else:
            assert value.multiplier == min(value.raw_multiplier, limit) <= limit
    # R7.3 / R7.4 legality
    if hand.win_by == S:
        assert value.legal
    elif hand.win_by == D:
        assert value.legal == (value.raw_multiplier >= rules.min_multiplier_discard_win)
    else:
        assert value.legal == (rules.robbing_kong
                               and value.raw_multiplier >= rules.min_multiplier_discard_win)
    # R9.7, R8.4, R8.5 payments
    assert value.per_payer == rules.base * value.multiplier
    bao = hand.declared and hand.win_by != S and not (
        rules.mutual_declared == "single" and hand.discarder_declared)
    assert value.bao_hu == bao
    if not value.legal:
        assert value.paid == 0
        return
    if hand.win_by == S:
        assert value.paid == 2 * value.per_payer
    else:
        assert value.paid == value.per_payer * (2 if value.bao_hu else 1)
    # R11.1 transfers
    choices = list(rules.piao_choices) or [0, 1, 2]
    piao = [data.draw(st.sampled_from(choices)) for _ in range(3)]
    winner = data.draw(st.integers(0, 2))
    others = [s for s in range(3) if s != winner]
    payers = others if hand.win_by == S else [data.draw(st.sampled_from(others))]
    transfers = win_transfers(value, winner, payers, piao)
    assert all(t.payee == winner and t.payer in payers and t.amount > 0 for t in transfers)
    assert sum(t.amount for t in transfers) == value.paid + sum(piao[p] + piao[winner]
                                                                for p in payers)

