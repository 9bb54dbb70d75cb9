"""Rule sets (RULES.md and VARIANTS.md: every option with its default; both Presets tables,
the town presets with their alternatives; R9.5 presets)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from kawuxing.rules import (ALL_PRESETS, PRESETS, TOWNS, RuleSet, RulesError, option_schema,
                            option_specs, parse_option, preset_town, rules_schema,
                            value_label_key)

# RULES.md and VARIANTS.md: every option and its default (VARIANTS.md: "(default)", the first
# value), in field order, with the rule that defines it.
DEFAULTS = {
    "suits": ["p", "s"],  # R1.1
    "first_dealer": "random",  # R2.1
    "draw_dealer": "stay",  # R2.2
    "double_win": True,  # R4.3
    "concealed_kong_visible": False,  # R6.1
    "direct_kong_pay": 2,  # R6.3
    "added_kong_on_declared_wait": "allowed",  # R6.7
    "min_multiplier_discard_win": 2,  # R7.3
    "robbing_kong": True,  # R7.4
    "missed_win_exception": "bigger",  # R7.5
    "min_multiplier_counts_discarder_declared": False,  # R7.6
    "min_multiplier_self_draw": 1,  # R7.7
    "mutual_declared": "double",  # R8.5
    "declare_hide_triplets": False,  # R8.6
    "feeding_declared": "allowed",  # R8.7
    "liang_dao_doubling": "winner",  # R8.8
    "bao_hu": "double",  # R8.9
    "bao_hu_cap": "per_share",  # R8.10
    "declare_show": "all",  # R8.11
    "hide_triplet_test": "same_waits",  # R8.12
    "declare_min_wall": 0,  # R8.13
    "declare_requires_concealed": False,  # R8.14
    "declare_discard_feeds": "allowed",  # R8.15
    "declared_kong": "waits_unchanged",  # R8.16
    "declared_must_win": False,  # R8.17
    "pass_win_doubles": False,  # R8.18
    "declared_auto_kong": False,  # R8.19
    "an_si_gui_on_discard": True,  # R9.1
    "three_quad_seven_pairs": 32,  # R9.1
    "last_discard_bonus": False,  # R9.1
    "si_gui_in_hand": "flush",  # R9.4
    "cap": None,  # R9.5
    "cap_exceptions": {},  # R9.5
    "cap_excludes_declare": False,  # R9.6
    "base": 1,  # R9.7 (R18.1)
    "si_gui_channel": "off",  # R9.8
    "flush_four_bonus": "off",  # R9.9
    "ka_wu_xing_value": 2,  # R9.10
    "peng_peng_value": 2,  # R9.11
    "kong_win_value": 2,  # R9.12
    "kong_win_value_includes_robbing": False,  # R9.13
    "seven_pairs_values": "standard",  # R9.14
    "san_yuan_seven_pairs": "off",  # R9.15
    "shou_zhua_yi_value": 4,  # R9.16
    "shou_zhua_yi_with_peng_peng": "combine",  # R9.17
    "kong_chain_win_bonus": False,  # R9.18
    "draw_compensation": "per_declarer",  # R10.2 (R10.3)
    "cha_jiao_declared_pays": "always",  # R10.4
    "cha_jiao_doubling": "r8_8",  # R10.5
    "cha_jiao_extras": "none",  # R10.6
    "piao_choices": [],  # R11.1
    "piao_mode": "each_hand",  # R11.2
    "piao_fixed": 1,  # R11.3
    "piao_times_base": False,  # R11.4
    "piao_bao_hu": "once",  # R11.5
    "hands_per_match": 8,  # R12.1
    "horse_buy": "off",  # R14.1
    "horse_kind": "one",  # R14.2
    "horse_from": "next",  # R14.3
    "shu_kan": "off",  # R15.1
    "shu_kan_triplets": "kinds",  # R15.2
    "shu_kan_discard_triplet": "counts",  # R15.3
    "shu_kan_seven_pairs": 0,  # R15.4
    "pao_qia_mo_ba": "off",  # R16.1
    "ba_count": "all_tiles",  # R16.2
    "shang_lou": "off",  # R17.1
    "shang_lou_scope": "hand_value",  # R17.2
    "extras_times_base": True,  # R18.2
}

# RULES.md "Presets": exactly what each preset changes from the defaults.
PRESET_DIFFS = {
    "standard": {},
    "capped": {"cap": 8, "cap_exceptions": {"双龙七对": 16, "三龙七对": 16}},
    "flat8": {"cap": 8},
    "strict": {"an_si_gui_on_discard": False, "si_gui_in_hand": "win_tile_only",
               "missed_win_exception": "none", "draw_dealer": "declarer",
               "first_dealer": "seat0"},
    "app": {"piao_choices": [0, 1, 2, 5]},
}

# VARIANTS.md "Presets": server_common, and each town with a server = server_common + its row
# ("differs from `standard`"); 云梦 = standard, 枣阳 = capped.
SERVER_COMMON = {
    "liang_dao_doubling": "either", "min_multiplier_counts_discarder_declared": True,
    "declare_hide_triplets": True, "hide_triplet_test": "still_ready",
    "declare_discard_feeds": "forbidden", "declared_kong": "hidden_triplets_only",
    "declared_must_win": True, "added_kong_on_declared_wait": "forbidden",
    "piao_bao_hu": "per_share",
}
DRAGON_PAIRS_16 = {"双龙七对": 16, "三龙七对": 16}
PRESET_DIFFS |= {
    "server_common": SERVER_COMMON,
    "xiangyang": SERVER_COMMON | {"si_gui_channel": "full", "draw_compensation": "first_declarer",
                                  "mutual_declared": "single", "cap": 8,
                                  "cap_exceptions": DRAGON_PAIRS_16},
    "xiaogan": SERVER_COMMON | {"shu_kan": "on", "si_gui_channel": "half",
                                "draw_compensation": "cha_jiao", "bao_hu": "none",
                                "flush_four_bonus": "x2_each", "ka_wu_xing_value": 4,
                                "peng_peng_value": 4, "kong_win_value": 4, "cap": 16},
    # horse_kind one is its default: no difference
    "suizhou": SERVER_COMMON | {"horse_buy": "declared_self_draw", "declare_show": "waiting_part",
                                "si_gui_channel": "half", "draw_compensation": "cha_jiao_flat",
                                "cha_jiao_declared_pays": "first_declarer_all_ready",
                                "declared_auto_kong": True, "bao_hu": "none", "cap": 8,
                                "cap_exceptions": DRAGON_PAIRS_16},
    "shiyan": SERVER_COMMON | {"ka_wu_xing_value": 4, "shang_lou": "dice_doubles",
                               "si_gui_channel": "full", "draw_compensation": "first_declarer_2",
                               "cap": 8},
    "yicheng": SERVER_COMMON | {"pao_qia_mo_ba": "on", "si_gui_channel": "half",
                                "draw_compensation": "cha_jiao", "bao_hu": "none"},
    # bao_hu unset (U4): the default
    "yingcheng": SERVER_COMMON | {"cap": 8, "si_gui_channel": "half",
                                  "draw_compensation": "cha_jiao", "draw_dealer": "cha_jiao_payer",
                                  "min_multiplier_self_draw": 2, "declare_min_wall": 12,
                                  "flush_four_bonus": "x2_each",
                                  "shou_zhua_yi_with_peng_peng": "exclusive"},
    "yunmeng": {},
    "zaoyang": {"cap": 8, "cap_exceptions": DRAGON_PAIRS_16},
}

# VARIANTS.md "Presets": each town's name and its "selectable" column (option -> the values a
# room there may also pick)
TOWN_TABLES = {
    "xiangyang": ("襄阳", {"si_gui_channel": ["half"], "draw_compensation": ["cha_jiao"],
                         "bao_hu_cap": ["total"]}),
    "xiaogan": ("孝感", {"liang_dao_doubling": ["each"], "ka_wu_xing_value": [2],
                       "peng_peng_value": [2], "kong_win_value": [2],
                       "declare_requires_concealed": [True],
                       "cha_jiao_declared_pays": ["all_ready_only"], "cha_jiao_doubling": ["none"]}),
    "suizhou": ("随州", {"horse_buy": ["self_draw"], "horse_kind": ["six", "one_plus_one"],
                       "draw_compensation": ["cha_jiao"], "declare_min_wall": [12],
                       "declare_show": ["all"]}),
    "shiyan": ("十堰", {"shang_lou": ["after_draw", "off"], "shang_lou_scope": ["everything"],
                      "si_gui_channel": ["half"], "draw_compensation": ["cha_jiao"],
                      "bao_hu_cap": ["total"]}),
    "yicheng": ("宜城", {"draw_compensation": ["first_declarer"], "horse_kind": ["one_plus_one"],
                       "ba_count": ["per_suit", "concealed"]}),
    "yingcheng": ("应城", {"liang_dao_doubling": ["each"], "shu_kan": ["on"],
                         "shu_kan_triplets": ["reading"],
                         "shu_kan_discard_triplet": ["not_counted"], "pass_win_doubles": [True],
                         "declared_must_win": [False], "ka_wu_xing_value": [4],
                         "peng_peng_value": [4], "kong_win_value": [4],
                         "piao_mode": ["first_hand"], "piao_times_base": [True],
                         "cha_jiao_extras": ["piao_and_kan"]}),
    "yunmeng": ("云梦", {}),
    "zaoyang": ("枣阳", {}),
}

# option -> (every allowed value per RULES.md, a bad value)
CHOICES = {
    "first_dealer": (["random", "seat0"], "east"),  # R2.1
    "draw_dealer": (["stay", "declarer", "last_drawer", "cha_jiao_payer"], "winner"),  # R2.2-3
    "double_win": ([True, False], 1),  # R4.3 (1 is not a boolean)
    "concealed_kong_visible": ([False, True], "no"),  # R6.1
    "direct_kong_pay": ([2, 1], 3),  # R6.3
    "added_kong_on_declared_wait": (["allowed", "forbidden", "forbidden_undeclared"],
                                    "never"),  # R6.7
    "min_multiplier_discard_win": ([2, 1], 4),  # R7.3
    "robbing_kong": ([True, False], "true"),  # R7.4
    "missed_win_exception": (["bigger", "none"], None),  # R7.5
    "min_multiplier_counts_discarder_declared": ([False, True], "true"),  # R7.6
    "min_multiplier_self_draw": ([1, 2], 3),  # R7.7
    "mutual_declared": (["double", "single"], "triple"),  # R8.5
    "declare_hide_triplets": ([False, True], 0),  # R8.6
    "feeding_declared": (["allowed", "forbidden_if_safe_tile"], "forbidden"),  # R8.7
    "liang_dao_doubling": (["winner", "either", "each"], "both"),  # R8.8
    "bao_hu": (["double", "none"], "single"),  # R8.9
    "bao_hu_cap": (["per_share", "total"], "each"),  # R8.10
    "declare_show": (["all", "waiting_part"], "half"),  # R8.11
    "hide_triplet_test": (["same_waits", "still_ready"], "ready"),  # R8.12
    "declare_min_wall": ([0, 12], 8),  # R8.13
    "declare_requires_concealed": ([False, True], 1),  # R8.14
    "declare_discard_feeds": (["allowed", "forbidden"], "never"),  # R8.15
    "declared_kong": (["waits_unchanged", "hidden_triplets_only"], "none"),  # R8.16
    "declared_must_win": ([False, True], "yes"),  # R8.17
    "pass_win_doubles": ([False, True], 0),  # R8.18
    "declared_auto_kong": ([False, True], "on"),  # R8.19
    "an_si_gui_on_discard": ([True, False], "false"),  # R9.1
    "three_quad_seven_pairs": ([32, 16], 64),  # R9.1
    "last_discard_bonus": ([False, True], 2),  # R9.1
    "si_gui_in_hand": (["flush", "any_pattern", "win_tile_only"], "always"),  # R9.4
    "cap_excludes_declare": ([False, True], "yes"),  # R9.6
    "si_gui_channel": (["off", "full", "full_once", "half"], "quarter"),  # R9.8
    "flush_four_bonus": (["off", "x2_each"], "x2"),  # R9.9
    "ka_wu_xing_value": ([2, 4], 3),  # R9.10
    "peng_peng_value": ([2, 4], 8),  # R9.11
    "kong_win_value": ([2, 4], "4"),  # R9.12
    "kong_win_value_includes_robbing": ([False, True], None),  # R9.13
    "seven_pairs_values": (["standard", "steep", "doubled"], "flat"),  # R9.14
    "san_yuan_seven_pairs": (["off", 16, 32], "16"),  # R9.15 (the string "16" is not 16)
    "shou_zhua_yi_value": ([4, 2], 8),  # R9.16
    "shou_zhua_yi_with_peng_peng": (["combine", "exclusive"], "both"),  # R9.17
    "kong_chain_win_bonus": ([False, True], 2),  # R9.18
    "draw_compensation": (["per_declarer", "first_declarer", "none", "first_declarer_2",
                           "cha_jiao", "cha_jiao_flat"], "all"),  # R10.2, R10.3
    "cha_jiao_declared_pays": (["always", "all_ready_only", "first_declarer_all_ready"],
                               "never"),  # R10.4
    "cha_jiao_doubling": (["r8_8", "none"], "R8.8"),  # R10.5
    "cha_jiao_extras": (["none", "piao_and_kan"], "piao"),  # R10.6
    "piao_mode": (["each_hand", "first_hand", "fixed"], "once"),  # R11.2
    "piao_times_base": ([False, True], "no"),  # R11.4
    "piao_bao_hu": (["once", "per_share"], "twice"),  # R11.5
    "horse_buy": (["off", "self_draw", "declared_self_draw"], "discard"),  # R14.1
    "horse_kind": (["one", "six", "one_plus_one"], "two"),  # R14.2
    "horse_from": (["next", "far_end"], "last"),  # R14.3
    "shu_kan": (["off", "on"], True),  # R15.1
    "shu_kan_triplets": (["kinds", "reading"], "all"),  # R15.2
    "shu_kan_discard_triplet": (["counts", "not_counted"], "no"),  # R15.3
    "shu_kan_seven_pairs": ([0, "fours"], "0"),  # R15.4
    "pao_qia_mo_ba": (["off", "on"], 1),  # R16.1
    "ba_count": (["all_tiles", "per_suit", "concealed"], "suit"),  # R16.2
    "shang_lou": (["off", "dice_doubles", "after_draw"], "on"),  # R17.1
    "shang_lou_scope": (["hand_value", "everything"], "all"),  # R17.2
    "extras_times_base": ([True, False], "true"),  # R18.2
}


def test_defaults_match_rules_md():
    """RULES.md: the defaults of every option (the `standard` preset)."""
    assert RuleSet().to_dict() == DEFAULTS


def test_default_constructors_agree():
    """RuleSet(), preset('standard'), preset(), from_dict(None) and from_dict({}) are the same."""
    rules = RuleSet()
    assert rules == RuleSet.preset("standard") == RuleSet.preset() == RuleSet.from_dict(None) \
        == RuleSet.from_dict({}) == RuleSet.from_dict({"preset": "standard"})


def test_presets_list():
    """RULES.md Presets: five presets; VARIANTS.md Presets: server_common and eight towns."""
    assert set(PRESETS) == {"standard", "capped", "flat8", "strict", "app", "server_common"}
    assert TOWNS == ("xiangyang", "xiaogan", "suizhou", "shiyan", "yicheng", "yingcheng",
                     "yunmeng", "zaoyang")
    assert ALL_PRESETS == PRESETS + TOWNS and set(ALL_PRESETS) == set(PRESET_DIFFS)


@pytest.mark.parametrize("name", TOWNS)
def test_town_name_and_alternatives(name):
    """VARIANTS.md Presets: each town preset names its town and the values a room there may
    also pick ("selectable"); other presets have no town."""
    town, alternatives = TOWN_TABLES[name]
    assert preset_town(name) == {"name": town, "alternatives": alternatives}
    for option, values in alternatives.items():
        for value in values:  # R8.18 pass_win_doubles true needs R8.17 declared_must_win false
            extra = {"declared_must_win": False} if option == "pass_win_doubles" else {}
            rules = RuleSet.preset(name, **{option: value}, **extra)
            assert getattr(rules, option) == value
    for other in PRESETS:
        assert preset_town(other) is None
    with pytest.raises(RulesError, match="unknown preset 'wuhan'"):
        preset_town("wuhan")


def test_pass_win_doubles_needs_declared_must_win_off():
    """R8.18: 过胡翻番 needs R8.17 亮倒必胡 off; server_common has it on."""
    assert RuleSet(pass_win_doubles=True).pass_win_doubles is True
    with pytest.raises(RulesError, match="option pass_win_doubles: true needs "
                                         "declared_must_win false"):
        RuleSet.preset("server_common", pass_win_doubles=True)
    rules = RuleSet.preset("yingcheng", pass_win_doubles=True, declared_must_win=False)
    assert (rules.pass_win_doubles, rules.declared_must_win) == (True, False)


@pytest.mark.parametrize("name", sorted(PRESET_DIFFS))
def test_preset_differs_exactly_as_table(name):
    """RULES.md Presets table (R9.5 for capped/flat8, R11.1 for app) and VARIANTS.md Presets
    (server_common and the towns, R2.3-R18.2): each preset changes exactly the listed options
    and nothing else."""
    preset = RuleSet.preset(name).to_dict()
    diff = {k: v for k, v in preset.items() if v != DEFAULTS[k]}
    assert diff == PRESET_DIFFS[name]


@pytest.mark.parametrize("name", sorted(PRESET_DIFFS))
def test_preset_via_from_dict(name):
    """CASES.md `rules`: {"preset": NAME} is the same rule set as RuleSet.preset(NAME)."""
    assert RuleSet.from_dict({"preset": name}) == RuleSet.preset(name)


def test_preset_with_overrides():
    """A preset plus overrides: other preset options stay (capped keeps its R9.5 exceptions)."""
    rules = RuleSet.from_dict({"preset": "capped", "cap": 16, "base": 2})
    assert rules.cap == 16 and rules.base == 2
    assert rules.cap_exceptions == {"双龙七对": 16, "三龙七对": 16}
    rules = RuleSet.preset("strict", an_si_gui_on_discard=True)
    assert rules.an_si_gui_on_discard is True and rules.si_gui_in_hand == "win_tile_only"
    assert RuleSet.from_dict({"preset": "flat8", "cap": None}).cap is None
    assert RuleSet.from_dict({"preset": "app", "piao_choices": []}).piao_choices == ()


@pytest.mark.parametrize("option", sorted(CHOICES))
def test_every_listed_value_is_accepted(option):
    """RULES.md: every alternative of every option can be chosen."""
    for value in CHOICES[option][0]:
        assert getattr(RuleSet.from_dict({option: value}), option) == value


@pytest.mark.parametrize("option", sorted(CHOICES))
def test_bad_value_names_the_option(option):
    """A value not listed in RULES.md is a RulesError naming the option and the choices."""
    bad = CHOICES[option][1]
    with pytest.raises(RulesError, match=f"option {option}: ") as info:
        RuleSet.from_dict({option: bad})
    for allowed in CHOICES[option][0]:
        assert json.dumps(allowed) in str(info.value)


@pytest.mark.parametrize("option, value", [
    ("cap", 0), ("cap", -8), ("cap", "8"), ("cap", True), ("cap", 8.0),
    ("base", 0), ("base", 1.5), ("base", None),
    ("hands_per_match", 0), ("hands_per_match", "8"),
    ("piao_fixed", 0), ("piao_fixed", 1001), ("piao_fixed", "1"), ("piao_fixed", True),
    ("suits", ["p", "p"]), ("suits", ["p", "z"]), ("suits", ["p"]), ("suits", ["m", "p", "s"]),
    ("suits", 5), ("suits", [["p"], "s"]), ("suits", None),
    ("piao_choices", [1, 1]), ("piao_choices", [-1]), ("piao_choices", [True]),
    ("piao_choices", [0.5]), ("piao_choices", 5), ("piao_choices", None),
    ("cap_exceptions", "双龙七对=16"), ("cap_exceptions", {"双龙七对": 0}),
    ("cap_exceptions", {"双龙七对": "16"}),
])
def test_bad_numeric_and_list_values(option, value):
    """R1.1 suits, R9.5 cap/cap_exceptions, R9.7 base, R11.1 piao, R11.3 piao_fixed, R12.1
    hands_per_match: bad
    values are a RulesError naming the option (never a TypeError)."""
    with pytest.raises(RulesError, match=f"option {option}"):
        RuleSet.from_dict({option: value})


def test_unknown_option():
    """An unknown option is a RulesError naming it and listing the known ones."""
    with pytest.raises(RulesError, match="unknown option 'kap'; options: .*cap") as info:
        RuleSet.from_dict({"kap": 8})
    assert "si_gui_in_hand" in str(info.value)
    with pytest.raises(RulesError, match="unknown option 'kap'"):
        RuleSet.preset("capped", kap=8)
    with pytest.raises(RulesError, match="unknown option 'kap'"):
        RuleSet().with_options(kap=8)


def test_unknown_preset():
    """An unknown preset is a RulesError naming it and the presets."""
    with pytest.raises(RulesError, match="unknown preset 'wuhan'; presets: standard, capped"):
        RuleSet.preset("wuhan")
    with pytest.raises(RulesError, match="unknown preset 'wuhan'"):
        RuleSet.from_dict({"preset": "wuhan"})


def test_rules_not_an_object():
    """CASES.md `rules` must be an object of options."""
    with pytest.raises(RulesError, match="rules must be an object"):
        RuleSet.from_dict(["capped"])


def test_bad_cap_exceptions_pattern():
    """R9.5: cap_exceptions keys are RULES.md pattern names; an unknown one is named."""
    with pytest.raises(RulesError, match="option cap_exceptions: unknown pattern '双龙'; "
                                         "known: .*双龙七对"):
        RuleSet.from_dict({"cap": 8, "cap_exceptions": {"双龙": 16}})
    # pattern code keys are not RULES.md names either
    with pytest.raises(RulesError, match="option cap_exceptions"):
        RuleSet.from_dict({"cap": 8, "cap_exceptions": {"double_dragon_seven_pairs": 16}})


def test_cap_exceptions_any_pattern():
    """R9.5: any R9.1 pattern may have its own cap."""
    rules = RuleSet.from_dict({"cap": 16, "cap_exceptions": {"大三元": 32, "清一色": 8}})
    assert rules.cap_exceptions == {"大三元": 32, "清一色": 8}


def test_suits_are_normalised():
    """R1.1: suits any two of m/p/s, kept in m-p-s order, as a tuple."""
    assert RuleSet.from_dict({"suits": ["s", "m"]}).suits == ("m", "s")
    assert RuleSet.from_dict({"suits": ["p", "m"]}).suits == ("m", "p")
    assert RuleSet(suits=("s", "p")) == RuleSet()


def test_with_options_validates():
    """with_options: a changed copy, validated like the constructor; the original is unchanged."""
    rules = RuleSet()
    capped = rules.with_options(cap=8)
    assert capped.cap == 8 and rules.cap is None
    with pytest.raises(RulesError, match="option cap"):
        rules.with_options(cap=0)
    with pytest.raises(RulesError, match="option robbing_kong"):
        rules.with_options(robbing_kong="no")


def test_frozen_hashable_round_trip():
    """A RuleSet is immutable, hashable (usable as a dict key) and round-trips through JSON."""
    rules = RuleSet.preset("capped", piao_choices=[0, 1])
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.cap = 16  # type: ignore[misc]
    assert hash(rules) == hash(RuleSet.preset("capped", piao_choices=(0, 1)))
    assert len({rules, RuleSet.preset("capped", piao_choices=[0, 1]), RuleSet()}) == 2
    data = json.loads(json.dumps(rules.to_dict(), ensure_ascii=False))
    assert RuleSet.from_options(data) == rules
    for name in ALL_PRESETS:
        assert RuleSet.from_options(RuleSet.preset(name).to_dict()) == RuleSet.preset(name)


@pytest.mark.parametrize("text, expected", [
    ("cap=8", ("cap", 8)),
    ("cap=none", ("cap", None)),
    ("cap=None", ("cap", None)),
    ("cap=null", ("cap", None)),
    (" cap = 16 ", ("cap", 16)),
    ("robbing_kong=false", ("robbing_kong", False)),
    ("double_win=true", ("double_win", True)),
    ("first_dealer=seat0", ("first_dealer", "seat0")),
    ('first_dealer="seat0"', ("first_dealer", "seat0")),
    ("piao_choices=[0,1,2,5]", ("piao_choices", [0, 1, 2, 5])),
    ('suits=["m","p"]', ("suits", ["m", "p"])),
    ('cap_exceptions={"双龙七对": 16}', ("cap_exceptions", {"双龙七对": 16})),
    ("si_gui_in_hand=any_pattern", ("si_gui_in_hand", "any_pattern")),
    # R7.5 / R10.2 have a choice spelled `none`: it stays a string there
    ("missed_win_exception=none", ("missed_win_exception", "none")),
    ("draw_compensation=none", ("draw_compensation", "none")),
    ("draw_compensation=null", ("draw_compensation", None)),
])
def test_parse_option(text, expected):
    """parse_option: name=value, JSON when it parses, none/null = None, else a string."""
    assert parse_option(text) == expected


@pytest.mark.parametrize("text", ["cap", "=8", " =8", ""])
def test_parse_option_bad(text):
    """parse_option without a name or '=' is a RulesError showing the expected form."""
    with pytest.raises(RulesError, match="name=value"):
        parse_option(text)


@pytest.mark.parametrize("text, words", [
    ('cap_exceptions={"双龙七对": 32', "option cap_exceptions: '{\"双龙七对\": 32' is not valid JSON"),
    ("piao_choices=[0,1,", "option piao_choices: '[0,1,' is not valid JSON"),
])
def test_parse_option_broken_json_is_said(text, words):
    """A value that starts as JSON (an object or a list) but does not parse is a RulesError
    saying so, not taken as a string that fails later for another reason."""
    with pytest.raises(RulesError) as caught:
        parse_option(text)
    assert words in str(caught.value)


def test_none_choices_from_command_line():
    """R7.5 missed_win_exception none, R10.2 draw_compensation none, R9.5 cap none: all can be
    set with `name=none` (the strict preset's R7.5 value included)."""
    opts = dict(parse_option(t) for t in ["missed_win_exception=none", "draw_compensation=none",
                                            "cap=none"])
    rules = RuleSet.preset("flat8", **opts)
    assert rules.missed_win_exception == "none" and rules.draw_compensation == "none"
    assert rules.cap is None
    assert rules.missed_win_exception == RuleSet.preset("strict").missed_win_exception


def test_cap_none_spelled_as_in_rules_md():
    """R9.5 writes the default cap as `none`: {"cap": "none"} in a case's rules means no cap."""
    assert RuleSet.from_dict({"preset": "flat8", "cap": "none"}).cap is None


def test_parse_option_feeds_preset():
    """parse_option output goes straight into RuleSet.preset (as the CLI does)."""
    opts = dict(parse_option(t) for t in ["cap=16", 'cap_exceptions={"大三元": 32}',
                                            "mutual_declared=single"])
    rules = RuleSet.preset("capped", **opts)
    assert rules.cap == 16 and rules.cap_exceptions == {"大三元": 32}
    assert rules.mutual_declared == "single"
    with pytest.raises(RulesError, match="option mutual_declared"):
        RuleSet.preset("standard", **dict([parse_option("mutual_declared=both")]))


# --- the option schema (Option metadata of each RuleSet field) -------------------------------

# RULES.md and VARIANTS.md: the rule that defines each option (an option VARIANTS.md gives new
# values keeps its RULES.md number: draw_dealer R2.2 (R2.3), draw_compensation R10.2 (R10.3),
# base R9.7 (R18.1))
RULE_OF = {
    "suits": "R1.1", "first_dealer": "R2.1", "draw_dealer": "R2.2", "double_win": "R4.3",
    "concealed_kong_visible": "R6.1", "direct_kong_pay": "R6.3",
    "added_kong_on_declared_wait": "R6.7",
    "min_multiplier_discard_win": "R7.3", "robbing_kong": "R7.4",
    "missed_win_exception": "R7.5", "min_multiplier_counts_discarder_declared": "R7.6",
    "min_multiplier_self_draw": "R7.7",
    "mutual_declared": "R8.5", "declare_hide_triplets": "R8.6",
    "feeding_declared": "R8.7", "liang_dao_doubling": "R8.8", "bao_hu": "R8.9",
    "bao_hu_cap": "R8.10", "declare_show": "R8.11", "hide_triplet_test": "R8.12",
    "declare_min_wall": "R8.13", "declare_requires_concealed": "R8.14",
    "declare_discard_feeds": "R8.15", "declared_kong": "R8.16", "declared_must_win": "R8.17",
    "pass_win_doubles": "R8.18", "declared_auto_kong": "R8.19",
    "an_si_gui_on_discard": "R9.1",
    "three_quad_seven_pairs": "R9.1", "last_discard_bonus": "R9.1", "si_gui_in_hand": "R9.4",
    "cap": "R9.5", "cap_exceptions": "R9.5", "cap_excludes_declare": "R9.6", "base": "R9.7",
    "si_gui_channel": "R9.8", "flush_four_bonus": "R9.9", "ka_wu_xing_value": "R9.10",
    "peng_peng_value": "R9.11", "kong_win_value": "R9.12",
    "kong_win_value_includes_robbing": "R9.13", "seven_pairs_values": "R9.14",
    "san_yuan_seven_pairs": "R9.15", "shou_zhua_yi_value": "R9.16",
    "shou_zhua_yi_with_peng_peng": "R9.17", "kong_chain_win_bonus": "R9.18",
    "draw_compensation": "R10.2", "cha_jiao_declared_pays": "R10.4",
    "cha_jiao_doubling": "R10.5", "cha_jiao_extras": "R10.6",
    "piao_choices": "R11.1", "piao_mode": "R11.2", "piao_fixed": "R11.3",
    "piao_times_base": "R11.4", "piao_bao_hu": "R11.5", "hands_per_match": "R12.1",
    "horse_buy": "R14.1", "horse_kind": "R14.2", "horse_from": "R14.3", "shu_kan": "R15.1",
    "shu_kan_triplets": "R15.2", "shu_kan_discard_triplet": "R15.3",
    "shu_kan_seven_pairs": "R15.4", "pao_qia_mo_ba": "R16.1", "ba_count": "R16.2",
    "shang_lou": "R17.1", "shang_lou_scope": "R17.2", "extras_times_base": "R18.2",
}


def test_every_option_has_its_rule_number():
    """Each RuleSet field carries the RULES.md rule that defines it."""
    assert {name: spec.rule for name, spec in option_specs().items()} == RULE_OF
    assert list(option_specs()) == list(DEFAULTS)


def test_schema_choices_are_the_rules_md_alternatives():
    """The closed choices of the schema are exactly RULES.md's alternatives, default first."""
    specs = option_specs()
    for name, (allowed, _bad) in CHOICES.items():
        assert list(specs[name].choices) == allowed, name
        assert specs[name].choices[0] == DEFAULTS[name]
    assert [list(s) for s in specs["suits"].choices] == [["p", "s"], ["m", "p"], ["m", "s"]]
    closed = {name for name, spec in specs.items() if spec.choices}
    assert closed == set(CHOICES) | {"suits"}


def test_value_label_keys():
    """i18n keys of option values: opt_<name>_<the value's JSON, letters/digits/_ only>."""
    assert value_label_key("cap", None) == "opt_cap_null"
    assert value_label_key("cap", 16) == "opt_cap_16"
    assert value_label_key("suits", ("m", "s")) == "opt_suits_ms"
    assert value_label_key("piao_choices", ()) == "opt_piao_choices_"
    assert value_label_key("piao_choices", [0, 1, 2, 5]) == "opt_piao_choices_0125"
    assert value_label_key("double_win", False) == "opt_double_win_false"
    assert value_label_key("feeding_declared", "forbidden_if_safe_tile") == \
        "opt_feeding_declared_forbidden_if_safe_tile"


def test_option_schema_is_json():
    """option_schema: one option as JSON (tuples as lists); an unknown name is a KeyError."""
    assert option_schema("direct_kong_pay") == {
        "name": "direct_kong_pay", "rule": "R6.3", "type": "integer", "default": 2,
        "choices": [2, 1], "minimum": None, "maximum": None, "max_items": None,
        "label": "optname_direct_kong_pay", "help": "opthelp_direct_kong_pay",
        "offered": [{"value": 2, "label": "opt_direct_kong_pay_2"},
                    {"value": 1, "label": "opt_direct_kong_pay_1"}]}
    assert json.loads(json.dumps(rules_schema(), ensure_ascii=False)) == rules_schema()
    with pytest.raises(KeyError):
        option_schema("kap")


def test_piao_bounds_come_from_the_schema():
    """R11.1: the limits the schema serves (10 choices, each 0-1000) are the ones enforced."""
    spec = option_specs()["piao_choices"]
    assert (spec.minimum, spec.maximum, spec.max_items) == (0, 1000, 10)
    assert RuleSet(piao_choices=tuple(range(10))).piao_choices == tuple(range(10))
    assert RuleSet(piao_choices=(0, 1000)).piao_choices == (0, 1000)
    with pytest.raises(RulesError, match="at most 10 choices"):
        RuleSet(piao_choices=tuple(range(11)))
    with pytest.raises(RulesError, match="of at most 1000"):
        RuleSet(piao_choices=(1001,))


def test_base_and_cap_are_bounded():
    """R9.5/R9.7: base 1-10000 and caps 1-65536 (a fresh-clone test made a room with base
    10^20, whose scores no JSON client shows exactly); the schema serves the bounds."""
    from kawuxing.rules import MAX_BASE, MAX_MULTIPLIER, RulesError, rules_schema
    assert (MAX_BASE, MAX_MULTIPLIER) == (10_000, 65_536)
    assert RuleSet.preset(base=10_000, cap=65_536).base == 10_000
    for option in ({"base": 10_001}, {"cap": 65_537}, {"cap_exceptions": {"清一色": 65_537}}):
        with pytest.raises(RulesError, match="1-"):
            RuleSet.preset(**option)
    served = {o["name"]: o for o in rules_schema()["options"]}
    assert served["base"]["maximum"] == 10_000 and served["cap"]["maximum"] == 65_536
