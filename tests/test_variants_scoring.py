"""Town hand values (VARIANTS.md R7.6, R7.7, R9.8-R9.18): each option off and on, on hands
whose multipliers are worked out by hand in the parameters' comments. With every option at its
default the values are RULES.md's (tests/test_scoring.py)."""

from __future__ import annotations

import pytest

from kawuxing.melds import Meld
from kawuxing.rules import RuleSet
from kawuxing.scoring import DISCARD, ROBBING_KONG, SELF_DRAW, WinningHand, score_hand
from kawuxing.tiles import parse_tile, parse_tiles

S, D, R = SELF_DRAW, DISCARD, ROBBING_KONG
PIHU = ("34s 678s 123p 789p 55z", "5s")  # + 5s: no pattern, 屁胡 ×1
KA5 = ("46s 123p 789p 555z 11s", "5s")  # + 5s: 卡五星 ×2


def hand(tiles: tuple[str, str], win_by: str = S, melds: str = "", **flags) -> WinningHand:
    """``melds``: space-separated KIND:TILE."""
    concealed, win = tiles
    return WinningHand(tuple(parse_tiles(concealed)), parse_tile(win), win_by,
                       tuple(Meld.parse(m) for m in melds.split()), **flags)


def value(tiles, win_by=S, melds="", options=None, **flags):
    return score_hand(hand(tiles, win_by, melds, **flags), RuleSet.preset(**(options or {})))


def names_and_multiplier(tiles, win_by=S, melds="", options=None, **flags):
    v = value(tiles, win_by, melds, options, **flags)
    return v.pattern_names, v.multiplier


# --- R7.6 / R7.7 minimums ------------------------------------------------------------------

@pytest.mark.parametrize("options, legal", [
    ({}, False),  # R7.3: 屁胡 only by self-draw
    ({"min_multiplier_counts_discarder_declared": True}, False),  # winner: no R8.8 doubling
    ({"min_multiplier_counts_discarder_declared": True, "liang_dao_doubling": "either"}, True),
    ({"min_multiplier_counts_discarder_declared": True, "liang_dao_doubling": "each"}, True),
    ({"liang_dao_doubling": "either"}, False),  # R7.6 off: the doubling is not counted
], ids=["R7.3", "R7.6-winner", "R7.6-either", "R7.6-each", "R8.8-alone"])
def test_r7_6_a_declared_discarders_doubling_counts_for_the_minimum(options, legal):
    """R7.6: 屁胡 ×1 on the discard of a declared player is ×2 by R8.8 (either/each), so it
    may win when R7.6 counts that doubling; the hand's own multiplier stays ×1."""
    v = value(PIHU, D, options=options, discarder_declared=True)
    assert (v.legal, v.multiplier, v.raw_multiplier) == (legal, 1, 1)
    undeclared = value(PIHU, D, options=options)
    assert not undeclared.legal  # the discarder had not declared: no doubling


@pytest.mark.parametrize("tiles, flags, legal", [
    (PIHU, {}, False),  # ×1 self-draw: needs ×2 (R7.7)
    (KA5, {}, True),  # 卡五星 ×2
    (PIHU, {"declared": True}, True),  # the winner's 亮倒 counts: ×2
    (PIHU, {"after_kong": True}, True),  # 杠上开花 ×2, a situational pattern
])
def test_r7_7_self_draw_needs_two(tiles, flags, legal):
    """R7.7 ``min_multiplier_self_draw`` 2: a self-draw needs ×2, situational patterns and the
    winner's 亮倒 included; at the default 1 every self-draw may win."""
    assert value(tiles, S, options={"min_multiplier_self_draw": 2}, **flags).legal is legal
    assert value(tiles, S, **flags).legal


# --- R9.8 全频道 / 半频道 -------------------------------------------------------------------

# two exposed pungs (1p, 2s) with their fourths in the concealed 123p and 234s; + 7z pair
TWO_MING = (("123p 234s 7z", "7z"), "pung:1p pung:2s")
# 1111s held + 999p completed by the winning 9p: 111s 123s 999p 789p 77z
TWO_AN = ("1111s 23s 999p 78p 77z", "9p")


@pytest.mark.parametrize("channel, names, multiplier", [
    ("off", [], 1),  # R9.4 flush: not a flush, so held fourths score nothing
    ("full", ["明四归一", "明四归一"], 4),  # one per exposed pung with its fourth concealed
    ("full_once", ["明四归一"], 2),
    ("half", [], 1),
])
def test_r9_8_ming_si_gui_per_instance(channel, names, multiplier):
    """R9.8: 明四归一 ×2 once per exposed pung whose fourth is concealed (``full``, listed once
    per instance), at most once (``full_once``), only by the winning tile (``half``)."""
    tiles, melds = TWO_MING
    assert names_and_multiplier(tiles, S, melds, {"si_gui_channel": channel}) == (names,
                                                                                 multiplier)


@pytest.mark.parametrize("channel, win_by, an_on_discard, names, multiplier", [
    ("off", S, True, ["暗四归一"], 4),  # the winning tile's own
    ("full", S, True, ["暗四归一", "暗四归一"], 16),  # the winning 9p's and the held 1111s
    ("full_once", S, True, ["暗四归一"], 4),
    ("half", S, True, ["暗四归一"], 4),
    ("full", D, True, ["暗四归一", "暗四归一"], 16),
    ("full", D, False, ["暗四归一"], 4),  # the winning tile's needs an_si_gui_on_discard
])
def test_r9_8_an_si_gui_per_kind(channel, win_by, an_on_discard, names, multiplier):
    """R9.8 ``full``: 暗四归一 ×4 once per kind with all four among the concealed tiles and the
    winning tile; on a discard the winning tile's own still needs ``an_si_gui_on_discard``."""
    options = {"si_gui_channel": channel, "an_si_gui_on_discard": an_on_discard}
    assert names_and_multiplier(TWO_AN, win_by, options=options) == (names, multiplier)


@pytest.mark.parametrize("channel, win_by, bonus, names, multiplier", [
    ("off", S, False, ["海底捞月", "卡五星"], 4),
    ("off", D, False, ["卡五星"], 2),  # last_discard_bonus off
    ("full", D, False, ["海底捞月", "卡五星"], 4),  # 海底炮 ×2 under full
    ("full_once", D, False, ["海底捞月", "卡五星"], 4),
    ("half", S, True, ["卡五星"], 2),  # no 海底捞月 at all, last_discard_bonus ignored
    ("half", D, True, ["卡五星"], 2),
])
def test_r9_8_last_tile(channel, win_by, bonus, names, multiplier):
    """R9.8: ``full``/``full_once`` score 海底捞月 for the last tile and the last discard;
    ``half`` for neither; either way ``last_discard_bonus`` is ignored."""
    options = {"si_gui_channel": channel, "last_discard_bonus": bonus}
    assert names_and_multiplier(KA5, win_by, options=options, last_tile=True) == (names,
                                                                                  multiplier)


# --- R9.9 见四乘二 --------------------------------------------------------------------------

FLUSH_FOUR = ("1111p 23p 456p 789p 9p", "9p")  # 111p 123p 456p 789p 99p: 清一色, 1111p held


@pytest.mark.parametrize("options, names, multiplier", [
    ({}, ["暗四归一", "清一色"], 16),  # R9.4 flush: the held four is 暗四归一 ×4
    ({"flush_four_bonus": "x2_each"}, ["清一色", "见四乘二"], 8),  # ×2 instead
    ({"flush_four_bonus": "x2_each", "si_gui_channel": "full"}, ["清一色", "见四乘二"], 8),
    ({"flush_four_bonus": "x2_each", "si_gui_channel": "half"}, ["清一色", "见四乘二"], 8),
])
def test_r9_9_a_held_four_in_a_flush_doubles(options, names, multiplier):
    """R9.9 ``x2_each``: in a 清一色 each four held before the win doubles once (见四乘二, one
    row per four) and scores nothing under R9.4/R9.8."""
    assert names_and_multiplier(FLUSH_FOUR, options=options) == (names, multiplier)


def test_r9_9_two_held_fours_double_twice():
    """R9.9: two fours held before the win (1111p concealed; the exposed pung 9p with its fourth
    concealed): R9.4 makes them 暗四归一 ×4 and 明四归一 ×2 (清一色 4: 32); ``x2_each`` makes
    each a 见四乘二 ×2: 4 × 2 × 2 = 16."""
    tiles = ("1111p 23p 9p 78p 5p", "5p")  # 111p 123p 789p 55p + [pung 9p]
    assert names_and_multiplier(tiles, S, "pung:9p") == (["明四归一", "暗四归一", "清一色"], 32)
    assert names_and_multiplier(tiles, S, "pung:9p", {"flush_four_bonus": "x2_each"}) == (
        ["清一色", "见四乘二", "见四乘二"], 16)


def test_r9_9_the_winning_tiles_own_si_gui_stays():
    """R9.9: the winning tile's own 四归一 per R9.1: 5p completes 5555p (暗四归一 ×4, 卡五星 ×2),
    the held 1111p is 见四乘二: 清一色 4 × 4 × 2 × 2 = 64 (R9.4 alone: 32, 四归 once)."""
    tiles = ("1111p 23p 555p 46p 99p", "5p")  # 111p 123p 555p 456p 99p
    assert names_and_multiplier(tiles) == (["暗四归一", "清一色", "卡五星"], 32)
    assert names_and_multiplier(tiles, options={"flush_four_bonus": "x2_each"}) == (
        ["暗四归一", "清一色", "卡五星", "见四乘二"], 64)


def test_r9_9_not_for_seven_pairs():
    """R9.9: a seven-pairs 清一色 is not doubled (R9.3: no 四归 either): 龙七对 8 × 清一色 4."""
    tiles = ("1111p 22p 33p 44p 55p 6p", "6p")
    for options in ({}, {"flush_four_bonus": "x2_each"}):
        assert names_and_multiplier(tiles, options=options) == (["龙七对", "清一色"], 32)


# --- R9.10-R9.13 values --------------------------------------------------------------------

ALL_PUNGS = ("111p 222s 333s 777p 5z", "5z")  # 碰碰胡


@pytest.mark.parametrize("tiles, win_by, flags, options, multiplier", [
    (KA5, S, {}, {}, 2),
    (KA5, S, {}, {"ka_wu_xing_value": 4}, 4),  # R9.10
    (ALL_PUNGS, S, {}, {}, 2),
    (ALL_PUNGS, S, {}, {"peng_peng_value": 4}, 4),  # R9.11
    (PIHU, S, {"after_kong": True}, {}, 2),  # 杠上开花
    (PIHU, S, {"after_kong": True}, {"kong_win_value": 4}, 4),  # R9.12
    (PIHU, D, {"after_kong": True}, {"kong_win_value": 4}, 4),  # 杠上炮 too
    (PIHU, R, {}, {"kong_win_value": 4}, 2),  # 抢杠胡 keeps ×2 ...
    (PIHU, R, {}, {"kong_win_value": 4, "kong_win_value_includes_robbing": True}, 4),  # R9.13
])
def test_r9_10_to_r9_13_values(tiles, win_by, flags, options, multiplier):
    """R9.10 卡五星, R9.11 碰碰胡, R9.12 杠上开花/杠上炮 ×2 or ×4; R9.13 抢杠胡 takes R9.12's."""
    assert value(tiles, win_by, options=options, **flags).multiplier == multiplier


# --- R9.14 / R9.15 seven pairs -------------------------------------------------------------

SEVEN = [("11p 22p 33s 44s 55s 66z 7z", "7z"), ("1111p 33s 44s 55s 66z 7z", "7z"),
         ("1111p 3333s 55s 66z 7z", "7z"), ("1111p 3333s 5555s 7z", "7z")]


@pytest.mark.parametrize("values, options, expected", [
    ("standard", {}, [4, 8, 16, 32]),
    ("standard", {"three_quad_seven_pairs": 16}, [4, 8, 16, 16]),
    ("steep", {}, [4, 8, 32, 128]),
    ("doubled", {}, [4, 16, 32, 64]),
])
def test_r9_14_seven_pairs_values(values, options, expected):
    """R9.14: 七对/龙七对/双龙七对/三龙七对 by ``seven_pairs_values`` (``standard``'s 三龙七对
    per ``three_quad_seven_pairs``)."""
    got = [value(t, options={"seven_pairs_values": values, **options}).multiplier for t in SEVEN]
    assert got == expected


@pytest.mark.parametrize("tiles, options, names, multiplier", [
    (("11p 22p 33s 55z 66z 77z 4s", "4s"), {}, ["七对"], 4),
    (("11p 22p 33s 55z 66z 77z 4s", "4s"), {"san_yuan_seven_pairs": 16}, ["三元七对"], 16),
    (("11p 22p 33s 55z 66z 77z 4s", "4s"), {"san_yuan_seven_pairs": 32}, ["三元七对"], 32),
    (("1111p 33s 55z 66z 77z 4s", "4s"), {"san_yuan_seven_pairs": 16}, ["三元七对"], 16),
    # 龙七对 under doubled is 16 already: the larger is no larger, the name stays
    (("1111p 33s 55z 66z 77z 4s", "4s"), {"san_yuan_seven_pairs": 16,
                                          "seven_pairs_values": "doubled"}, ["龙七对"], 16),
    (("11p 22p 33s 44s 55s 66z 7z", "7z"), {"san_yuan_seven_pairs": 32}, ["七对"], 4),
])
def test_r9_15_san_yuan_seven_pairs(tiles, options, names, multiplier):
    """R9.15: seven pairs with pairs of all three dragons score the larger of 16/32 and the
    R9.14 value; 三元七对 replaces the seven-pairs name when it scores."""
    assert names_and_multiplier(tiles, options=options) == (names, multiplier)


# --- R9.16 / R9.17 手抓一 -------------------------------------------------------------------

SHOU_ZHUA_YI = (("5z", "5z"), "pung:1p pung:9s exposed_kong:3p pung:7s")


@pytest.mark.parametrize("options, names, multiplier", [
    ({}, ["碰碰胡", "手抓一"], 8),
    ({"shou_zhua_yi_value": 2}, ["碰碰胡", "手抓一"], 4),  # R9.16
    ({"shou_zhua_yi_with_peng_peng": "exclusive"}, ["手抓一"], 4),  # R9.17
    ({"shou_zhua_yi_with_peng_peng": "exclusive", "shou_zhua_yi_value": 2}, ["手抓一"], 2),
])
def test_r9_16_r9_17_shou_zhua_yi(options, names, multiplier):
    """R9.16 手抓一 ×4 or ×2; R9.17 ``exclusive``: it does not also score 碰碰胡."""
    tiles, melds = SHOU_ZHUA_YI
    assert names_and_multiplier(tiles, D, melds, options) == (names, multiplier)


# --- R9.18 杠上杠 win bonus -----------------------------------------------------------------

@pytest.mark.parametrize("win_by, chain, options, multiplier", [
    (S, 2, {}, 2),  # off: ×2 however long the chain (001 rule 7)
    (S, 2, {"kong_chain_win_bonus": True}, 4),  # 2 × 2^(2-1)
    (S, 3, {"kong_chain_win_bonus": True}, 8),
    (S, 1, {"kong_chain_win_bonus": True}, 2),
    (S, 0, {"kong_chain_win_bonus": True}, 2),  # chain not known: read as 1
    (D, 2, {"kong_chain_win_bonus": True}, 4),  # 杠上炮
    (S, 2, {"kong_chain_win_bonus": True, "kong_win_value": 4}, 8),
])
def test_r9_18_kong_chain_bonus(win_by, chain, options, multiplier):
    """R9.18: 杠上开花 and 杠上炮 are worth their value × 2^(n−1), n the kongs of the chain."""
    v = value(PIHU, win_by, options=options, after_kong=True, kong_chain=chain)
    assert v.legal and v.multiplier == multiplier


def test_winning_hand_refuses_negative_counts():
    """kong_chain and passed_wins are whole numbers >= 0."""
    from kawuxing.scoring import ScoringError
    with pytest.raises(ScoringError, match="kong_chain"):
        value(PIHU, S, kong_chain=-1)
    with pytest.raises(ScoringError, match="passed_wins"):
        value(PIHU, S, passed_wins=True)


# --- presets: every town scores ----------------------------------------------------------------

@pytest.mark.parametrize("preset", ["xiangyang", "xiaogan", "suizhou", "shiyan", "yicheng",
                                    "yingcheng", "yunmeng", "zaoyang"])
def test_every_town_preset_scores_the_flush_four(preset):
    """Each town's values of one hand (清一色 with a held four, + the winning 5p's 四归 and
    卡五星; R9.4/R9.8/R9.9/R9.10 per preset, then the preset's cap)."""
    expected = {  # (raw, after the cap)
        "xiangyang": (128, 8),  # full: 清一色 4 × 卡五星 2 × 暗四归一 4 (5p) × 4 (1111p); cap 8
        "xiaogan": (128, 16),  # half + 见四乘二: 4 × 卡五星 4 × 4 × 2; cap 16
        "suizhou": (32, 8),  # half: 4 × 2 × 4 (the winning tile's only); cap 8
        "shiyan": (256, 8),  # full, 卡五星 4: 4 × 4 × 4 × 4; cap 8
        "yicheng": (32, 32),  # half, no cap
        "yingcheng": (64, 8),  # half + 见四乘二: 4 × 2 × 4 × 2; cap 8
        "yunmeng": (32, 32),  # standard: R9.4 flush, 暗四归一 once
        "zaoyang": (32, 8)}  # capped
    v = score_hand(hand(("1111p 23p 555p 46p 99p", "5p")), RuleSet.preset(preset))
    assert v.legal and (v.raw_multiplier, v.multiplier) == expected[preset]
