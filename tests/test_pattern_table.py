"""The rules page's patterns (issue 12 item 4): every pattern of R9.1 (and the town patterns
R9.9, R9.15) has an example hand (kawuxing.patterns.EXAMPLES); scored with kawuxing.scoring
under every preset, the example has its pattern at the × the rules give it (RULES.md R9.1,
VARIANTS.md R9.8-R9.16), alone where it can be; ``POST /api/rules/patterns`` serves
:func:`kawuxing.scoring.pattern_table.pattern_table` of a room's rules."""

from __future__ import annotations

import pytest

from kawuxing.scoring.pattern_table import example_hand, pattern_table
from kawuxing.patterns import BY_KEY, EXAMPLES, PATTERNS
from kawuxing.rules import ALL_PRESETS, RuleSet
from kawuxing.scoring import score_hand
from kawuxing.server.config import ServerConfig
from kawuxing.server.testing import ServerThread, http
from kawuxing.tiles import tile_str

# VARIANTS.md R9.14: 七对 / 龙七对 / 双龙七对 / 三龙七对 by seven_pairs_values (None: the
# option three_quad_seven_pairs, R9.1)
SEVEN_PAIRS = {"standard": (4, 8, 16, None), "steep": (4, 8, 32, 128),
               "doubled": (4, 16, 32, 64)}
FAMILY = ("seven_pairs", "dragon_seven_pairs", "double_dragon_seven_pairs",
          "triple_dragon_seven_pairs")


def expected(key: str, rules: RuleSet) -> int | None:
    """The × of pattern ``key`` in its example under ``rules``, from the rule text; None when
    the rules do not score it."""
    if key in FAMILY:
        value = SEVEN_PAIRS[rules.seven_pairs_values][FAMILY.index(key)]
        return rules.three_quad_seven_pairs if value is None else value
    fixed = {"pi_hu": 1, "ming_si_gui": 2, "an_si_gui": 4, "big_three_dragons": 8,
             "little_three_dragons": 4, "full_flush": 4, "liang_dao": 2}
    if key in fixed:
        return fixed[key]
    return {
        "all_pungs": rules.peng_peng_value,  # R9.11
        "kong_bloom": rules.kong_win_value,  # R9.12
        "kong_discard": rules.kong_win_value,
        "robbing_kong": rules.kong_win_value if rules.kong_win_value_includes_robbing else 2,
        "shou_zhua_yi": rules.shou_zhua_yi_value,  # R9.16
        "last_tile": None if rules.si_gui_channel == "half" else 2,  # R9.8 half: no 海底
        "ka_wu_xing": rules.ka_wu_xing_value,  # R9.10
        "jian_si_cheng_er": 2 if rules.flush_four_bonus == "x2_each" else None,  # R9.9
        "san_yuan_seven_pairs": (None if rules.san_yuan_seven_pairs == "off"
                                 else rules.san_yuan_seven_pairs),  # R9.15
    }[key]


def found(key: str, rules: RuleSet) -> dict[str, int]:
    value = score_hand(example_hand(key, rules), rules)
    assert value.reading is not None, key
    return {p.pattern.key: p.multiplier for p in value.pattern_rows}


def test_every_pattern_has_an_example():
    assert set(EXAMPLES) == {p.key for p in PATTERNS}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_every_example_scores_its_pattern_at_the_rules_value(preset):
    rules = RuleSet.preset(preset)
    for key in EXAMPLES:
        want = expected(key, rules)
        got = found(key, rules)
        if want is None:
            assert key not in got, (preset, key, got)
        else:
            assert got.get(key) == want, (preset, key, got)


def test_the_examples_show_their_pattern_alone_where_they_can():
    """Under the standard rules (a town pattern: with its option on) each example has its
    own pattern and only the ``also`` ones: 手抓一 comes with 碰碰胡 (R9.17 combine),
    见四乘二 with 清一色 (R9.9); and each may be won as it is (R7.3, R7.7)."""
    towns = {"jian_si_cheng_er": {"flush_four_bonus": "x2_each"},
             "san_yuan_seven_pairs": {"san_yuan_seven_pairs": 16}}
    for key, ex in EXAMPLES.items():
        rules = RuleSet.preset("standard", **towns.get(key, {}))
        assert set(found(key, rules)) == {key, *ex.also}, key
        assert score_hand(example_hand(key, rules), rules).legal, key
    assert EXAMPLES["shou_zhua_yi"].also == ("all_pungs",)
    assert found("shou_zhua_yi", RuleSet.preset("standard")) == {"all_pungs": 2, "shou_zhua_yi": 4}


def test_examples_move_to_the_suits_in_play():
    """R1.1: with 万 and 筒 in play the examples' 筒 become 万 and their 条 筒."""
    rules = RuleSet.preset("standard", suits=["m", "p"])
    hand = example_hand("ka_wu_xing", rules)
    assert [tile_str(k) for k in hand.concealed] == ["4m", "6m", "1p", "2p", "3p", "7p", "8p",
                                                     "9p", "2m", "3m", "4m", "5z", "5z"]
    assert tile_str(hand.win_tile) == "5m"
    for key in EXAMPLES:
        assert found(key, rules).get(key) == expected(key, rules), key


def test_pattern_table_under_a_capped_town_preset():
    """孝感 (VARIANTS.md Presets): cap 16, 碰碰胡/杠上开花/卡五星 ×4, 见四乘二 on, no 海底捞月
    (R9.8 half); the table lists every R9.1 pattern and 见四乘二, not 三元七对 (off)."""
    table = pattern_table(RuleSet.preset("xiaogan"))
    rows = {r["key"]: r for r in table["patterns"]}
    assert table["cap"] == 16 and table["suits"] == ["p", "s"]
    assert list(rows) == [p.key for p in PATTERNS if p.key != "san_yuan_seven_pairs"]
    assert rows["ka_wu_xing"]["multiplier"] == 4 and rows["all_pungs"]["multiplier"] == 4
    assert rows["last_tile"]["scored"] is False and rows["last_tile"]["multiplier"] is None
    jian = rows["jian_si_cheng_er"]
    assert jian["town"] and jian["value"]["patterns"] == [
        {"key": "full_flush", "name": "清一色", "multiplier": 4},
        {"key": "jian_si_cheng_er", "name": "见四乘二", "multiplier": 2}]
    assert jian["value"]["multiplier"] == 8
    # 三龙七对 ×32 over the cap of 16: the hand is worth 16
    triple = rows["triple_dragon_seven_pairs"]
    assert triple["multiplier"] == 32 and triple["value"]["multiplier"] == 16
    assert triple["value"]["cap"] == 16
    assert triple["example"] == {"concealed": ["1p"] * 4 + ["6p"] * 4 + ["2s", "2s", "7s", "7s", "7s"],
                                 "melds": [], "win_tile": "7s", "win_by": "self_draw",
                                 "after_kong": False, "last_tile": False, "declared": False}
    assert rows["shou_zhua_yi"]["example"]["melds"][0] == {"kind": "pung", "tile": "2p"}


def test_pattern_table_says_why_an_example_may_not_win():
    """应城 (R7.7 2番起胡): a 屁胡 may not be won even by self-draw; R7.4 off: no 抢杠胡."""
    rows = {r["key"]: r for r in pattern_table(RuleSet.preset("yingcheng"))["patterns"]}
    assert rows["pi_hu"]["value"]["legal"] is False
    assert rows["pi_hu"]["value"]["refusal"] == {"code": "min_self_draw", "minimum": 2,
                                                 "rule": "R7.7"}
    assert rows["ka_wu_xing"]["value"]["refusal"] is None
    rows = {r["key"]: r for r in pattern_table(RuleSet.preset("standard", robbing_kong=False))["patterns"]}
    assert rows["robbing_kong"]["value"]["refusal"] == {"code": "robbing_off", "rule": "R7.4"}
    assert rows["robbing_kong"]["multiplier"] == BY_KEY["robbing_kong"].multiplier


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'patterns.db'}"
    config = ServerConfig(db_url=url, bot_delay=0, claim_window=0, hand_pause=0)
    with ServerThread(config) as server:
        yield server


def test_the_api_serves_a_rooms_patterns(srv):
    status, room = http("POST", f"{srv.url}/api/rooms", {
        "preset": "xiaogan", "options": {"cap": 8}, "seats": ["human", "human", "human"],
        "nickname": "甲"})
    assert status == 201, room
    _, info = http("GET", f"{srv.url}/api/rooms/{room['code']}")
    status, body = http("POST", f"{srv.url}/api/rules/patterns", {"rules": info["rules"]})
    assert status == 200
    assert body == pattern_table(RuleSet.preset("xiaogan", cap=8))
    assert body["cap"] == 8
    status, body = http("POST", f"{srv.url}/api/rules/patterns",
                        {"rules": {"preset": "standard", "cap": "big"}})
    assert status == 422 and body["detail"]["code"] == "bad_rules"
    assert "cap" in body["detail"]["message"]
    status, body = http("POST", f"{srv.url}/api/rules/patterns", {"rules": {"nope": 1}})
    assert status == 422 and "nope" in body["detail"]["message"]
