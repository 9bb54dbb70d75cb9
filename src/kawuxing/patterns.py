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


def pattern(name_or_key: str) -> Pattern:
    """The pattern with this Chinese name or code key. Raises ``KeyError`` naming the choices."""
    found = BY_NAME.get(name_or_key) or BY_KEY.get(name_or_key)
    if found is None:
        raise KeyError(f"unknown pattern {name_or_key!r}; known: {', '.join(BY_NAME)}")
    return found
