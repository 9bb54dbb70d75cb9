"""The 番 patterns of 卡五星 (RULES.md R9.1) as data: one place for names, glosses and values.

Pattern names are the field's Chinese terms (RULES.md spelling, simplified); ``key`` is the
code identifier (English where mahjong English has a settled term, pinyin otherwise).

屁胡 (a win with no pattern, ×1, R9.1) is a row too, :data:`PI_HU`: it is what a hand *shows*
when it has no pattern (the settlement, the statistics, the transfers' prose), while the
patterns a hand *has* (:attr:`kawuxing.scoring.HandValue.patterns`) stay empty for it, as the
conformance cases expect (R7.3 speaks of "a hand whose multiplier is 1").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pattern:
    """A hand pattern: Chinese ``name``, code ``key``, English ``gloss``, ``multiplier`` (×),
    and the RULES.md ``rule`` that defines it."""

    key: str
    name: str
    gloss: str
    multiplier: int
    rule: str


PI_HU = Pattern("pi_hu", "屁胡", "plain win (no pattern)", 1, "R9.1")

PATTERNS: tuple[Pattern, ...] = (
    PI_HU,
    Pattern("all_pungs", "碰碰胡", "all pungs", 2, "R9.1"),
    Pattern("ming_si_gui", "明四归一", "fourth tile of an exposed pung", 2, "R9.1 R9.4"),
    Pattern("an_si_gui", "暗四归一", "fourth tile of a concealed three", 4, "R9.1 R9.4"),
    Pattern("seven_pairs", "七对", "seven pairs", 4, "R9.1"),
    Pattern("dragon_seven_pairs", "龙七对", "seven pairs with a four of a kind", 8, "R9.1"),
    Pattern("double_dragon_seven_pairs", "双龙七对", "seven pairs with two fours of a kind", 16,
            "R9.1"),
    Pattern("triple_dragon_seven_pairs", "三龙七对", "seven pairs with three fours of a kind", 32,
            "R9.1 (option three_quad_seven_pairs)"),
    # R9.15: replaces the seven-pairs name when it scores; its value is the option's (16 or 32)
    Pattern("san_yuan_seven_pairs", "三元七对", "seven pairs with pairs of all three dragons", 16,
            "R9.15"),
    Pattern("big_three_dragons", "大三元", "big three dragons", 8, "R9.1"),
    Pattern("little_three_dragons", "小三元", "little three dragons", 4, "R9.1"),
    Pattern("kong_bloom", "杠上开花", "self-draw on a kong replacement", 2, "R9.1"),
    Pattern("kong_discard", "杠上炮", "win on the discard after a kong", 2, "R9.1"),
    Pattern("robbing_kong", "抢杠胡", "robbing the kong", 2, "R9.1 R7.4"),
    Pattern("full_flush", "清一色", "full flush", 4, "R9.1"),
    Pattern("shou_zhua_yi", "手抓一", "four melds, single wait", 4, "R9.1"),
    Pattern("last_tile", "海底捞月", "win on the last tile", 2, "R9.1 R5.1"),
    Pattern("liang_dao", "亮倒", "declared ready (亮倒)", 2, "R9.1 R8.4"),
    Pattern("ka_wu_xing", "卡五星", "closed wait on the five", 2, "R9.1"),
    # R9.9 (option flush_four_bonus): listed once per four held in a 清一色 before the win
    Pattern("jian_si_cheng_er", "见四乘二", "a four held in a full flush doubles", 2, "R9.9"),
)

BY_KEY: dict[str, Pattern] = {p.key: p for p in PATTERNS}
BY_NAME: dict[str, Pattern] = {p.name: p for p in PATTERNS}
# the patterns a hand can have (R9.1's table): every row but 屁胡, which is their absence
SCORED: tuple[Pattern, ...] = tuple(p for p in PATTERNS if p is not PI_HU)
SEVEN_PAIRS_FAMILY = ("seven_pairs", "dragon_seven_pairs", "double_dragon_seven_pairs",
                      "triple_dragon_seven_pairs")
# R9.14 seven_pairs_values: the family's values by option (three fours: None = the option
# three_quad_seven_pairs)
SEVEN_PAIRS_VALUES = {"standard": (4, 8, 16, None), "steep": (4, 8, 32, 128),
                      "doubled": (4, 16, 32, 64)}


@dataclass(frozen=True)
class Example:
    """A finished hand that shows one pattern (the rules page, ``POST /api/rules/patterns``),
    in MPSZ notation with the default suits 筒 ``p`` and 条 ``s`` (another pair of suits is
    mapped in that order, :func:`kawuxing.scoring.pattern_table.example_hand`).

    ``concealed``: the concealed tiles before the winning tile (13 − 3 × len(melds));
    ``melds``: ``KIND:TILE`` (:meth:`kawuxing.melds.Meld.parse`); ``win``: the winning tile;
    ``win_by``: ``self_draw`` | ``discard`` | ``robbing_kong``; ``after_kong``, ``last_tile``,
    ``declared``: as :class:`kawuxing.scoring.WinningHand`. ``also``: the keys of the other
    patterns the hand has under the standard rules (none but where the pattern cannot come
    alone); tests/test_pattern_table.py scores every example."""

    concealed: str
    win: str
    win_by: str = "self_draw"
    melds: tuple[str, ...] = ()
    after_kong: bool = False
    last_tile: bool = False
    declared: bool = False
    also: tuple[str, ...] = ()


# one example per pattern (R9.1, R9.9, R9.15), each showing its pattern alone where it can
EXAMPLES: dict[str, Example] = {
    "pi_hu": Example("123p 456p 789s 23s 66z", "4s"),
    "all_pungs": Example("555s 888p 99s 77z", "9s", "discard", melds=("pung:2p",)),
    "ming_si_gui": Example("12p 456s 789s 66z", "3p", melds=("pung:3p",)),
    "an_si_gui": Example("444s 56s 123p 789p 66z", "4s"),
    "seven_pairs": Example("11p 33p 66p 22s 77s 99s 6z", "6z", "discard"),
    "dragon_seven_pairs": Example("11p 33p 666p 22s 77s 99s", "6p"),
    "double_dragon_seven_pairs": Example("11p 6666p 22s 777s 99s", "7s"),
    "triple_dragon_seven_pairs": Example("1111p 6666p 22s 777s", "7s"),
    "san_yuan_seven_pairs": Example("55z 66z 77z 11p 99p 33s 8s", "8s"),
    "big_three_dragons": Example("555z 666z 777z 23p 99s", "1p", "discard"),
    "little_three_dragons": Example("555z 666z 77z 123p 45s", "6s"),
    "kong_bloom": Example("123p 456p 23s 66z", "4s", melds=("exposed_kong:8s",), after_kong=True),
    "kong_discard": Example("234p 678p 345s 78s 55z", "9s", "discard", after_kong=True),
    "robbing_kong": Example("111p 567p 234s 68s 77z", "7s", "robbing_kong"),
    "full_flush": Example("123p 345p 678p 99p 78p", "9p"),
    "shou_zhua_yi": Example("8s", "8s", "discard", melds=("pung:2p", "pung:7p", "pung:3s",
                                                           "pung:6z"), also=("all_pungs",)),
    "last_tile": Example("123p 789p 456s 12s 77z", "3s", last_tile=True),
    "liang_dao": Example("345p 678p 234s 78s 77z", "9s", declared=True),
    "ka_wu_xing": Example("46p 123s 789s 234p 55z", "5p", "discard"),
    "jian_si_cheng_er": Example("1111p 23p 456p 789p 9p", "9p", also=("full_flush",)),
}


def pattern(name_or_key: str) -> Pattern:
    """The pattern with this Chinese name or code key. Raises ``KeyError`` naming the choices."""
    found = BY_NAME.get(name_or_key) or BY_KEY.get(name_or_key)
    if found is None:
        raise KeyError(f"unknown pattern {name_or_key!r}; known: {', '.join(BY_NAME)}")
    return found
