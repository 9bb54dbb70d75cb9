"""Scoring a finished hand (RULES.md R7.1-R7.7, R8.4-R8.10, R9, VARIANTS.md R9.8-R9.18).

:func:`score_hand` takes a :class:`WinningHand` and a :class:`~kawuxing.rules.RuleSet` and
returns a :class:`HandValue`: whether the win may be declared, the best reading (R9.2), its
patterns each with its multiplier and rule, the multiplier after the cap, and the amount each
payer owes. :func:`kawuxing.payments.win_transfers` turns that into who pays whom (R18.3).
:func:`cap_multiplier` is the one place that caps a multiplier (R9.5, R9.6), and
:func:`declared_doubling` the one place that applies R8.8.
All amounts are integer base units (底金 × multiplier).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..face_down import GROUP_KINDS, Group, keeps, without
from .extras import kan_count
from ..melds import MELD_PUNG, Meld
from ..patterns import BY_KEY, PI_HU, SEVEN_PAIRS_FAMILY, SEVEN_PAIRS_VALUES, Pattern
from ..rules import RuleSet
from ..shapes import Reading, readings
from ..tiles import COPIES, DRAGONS, NUM_KINDS, counts_of, is_dragon, tile_rank, tile_str, tile_suit

__all__ = ["DISCARD", "ROBBING_KONG", "SELF_DRAW", "WIN_BY", "HandValue", "PatternScore",
           "ScoringError", "WinningHand", "cap_multiplier", "declared_doubling", "score_hand"]

SELF_DRAW = "self_draw"
DISCARD = "discard"
ROBBING_KONG = "robbing_kong"
WIN_BY = (SELF_DRAW, DISCARD, ROBBING_KONG)


class ScoringError(ValueError):
    """A finished hand that cannot exist: wrong tile count, a fifth copy, a tile out of play."""


@dataclass(frozen=True)
class WinningHand:
    """A hand at the moment a win is claimed.

    - ``concealed``: the winner's concealed tile kinds **before** the winning tile
      (13 − 3 × len(melds) tiles).
    - ``melds``: declared melds (:class:`~kawuxing.melds.Meld`).
    - ``win_tile``: the kind won on; ``win_by``: ``self_draw`` | ``discard`` | ``robbing_kong``.
    - ``after_kong``: self-draw on a kong replacement (杠上开花), or a discard made right after
      the discarder's kong (杠上炮). ``last_tile``: the last tile of the wall or the last discard
      (R5, 海底). ``declared``: the winner had declared 亮倒 (R8). ``discarder_declared``: the
      player who discarded (or whose kong was robbed) had declared 亮倒 too (R8.5).
    - ``hidden``: the face-down groups of a declared hand (:class:`~kawuxing.face_down.Group`:
      R8.6 triplets as pungs, R8.11 sets and a pair), among ``concealed``: each is fixed, never
      split, so only readings that hold every one as it is count.
    - ``kong_chain``: the kongs of the R6.5 chain before the win (R9.18; 0 = not known, read
      as 1). ``passed_wins``: wins this declared winner passed earlier in the hand (R8.18:
      ×2 each in every payment, inside the cap; not in :attr:`HandValue.multiplier`).
    """

    concealed: tuple[int, ...]
    win_tile: int
    win_by: str = SELF_DRAW
    melds: tuple[Meld, ...] = ()
    after_kong: bool = False
    last_tile: bool = False
    declared: bool = False
    discarder_declared: bool = False
    hidden: tuple[Group, ...] = ()
    kong_chain: int = 0
    passed_wins: int = 0

    @property
    def self_drawn(self) -> bool:
        """Won by self-draw (R7.2)."""
        return self.win_by == SELF_DRAW

    def validate(self, rules: RuleSet) -> None:
        """Raise :class:`ScoringError` if the hand cannot exist under ``rules`` (R1.1)."""
        if self.win_by not in WIN_BY:
            raise ScoringError(f"win_by {self.win_by!r}: use one of {', '.join(WIN_BY)}")
        if len(self.melds) > 4:
            raise ScoringError(f"{len(self.melds)} melds: a hand has at most 4")
        for meld in self.melds:
            if not isinstance(meld, Meld):
                raise ScoringError(f"melds: {meld!r} is not a Meld (kind and tile)")
        for what, kinds in (("concealed", self.concealed), ("win_tile", (self.win_tile,)),
                            ("meld", tuple(m.tile for m in self.melds))):
            for kind in kinds:
                if not isinstance(kind, int) or isinstance(kind, bool) or \
                        not 0 <= kind < NUM_KINDS:
                    raise ScoringError(f"{what}: {kind!r} is not a tile kind (0-{NUM_KINDS - 1})")
        want = 13 - 3 * len(self.melds)
        if len(self.concealed) != want:
            raise ScoringError(f"{len(self.concealed)} concealed tiles with {len(self.melds)} "
                               f"melds: expected {want} before the winning tile")
        held = self.held_counts()
        for kind, c in enumerate(held):
            if c > COPIES:
                raise ScoringError(f"{c} copies of {tile_str(kind)} in hand, melds and winning "
                                   "tile: there are only 4 (R1.1)")
            if c and not is_dragon(kind) and tile_suit(kind) not in rules.suits:
                raise ScoringError(f"{tile_str(kind)} is not in play: suits are "
                                   f"{'+'.join(rules.suits)} (option suits, R1.1)")
        if self.win_by == ROBBING_KONG:
            if held[self.win_tile] > 1:
                raise ScoringError(f"robbing a kong of {tile_str(self.win_tile)}: the konger holds "
                                   "the other three, so the winner can hold no copy (R6.2, R7.4)")
            if self.after_kong or self.last_tile:
                raise ScoringError("robbing_kong goes with neither after_kong nor last_tile: a kong"
                                   " needs a tile left in the wall (R5.2, R7.4)")
        for group in self.hidden:
            if not (isinstance(group, Group) and group.kind in GROUP_KINDS
                    and all(type(k) is int and 0 <= k < NUM_KINDS for k in group.tiles())):
                raise ScoringError(f"hidden group {group!r}: must be a face_down.Group (pung, "
                                   "chow or pair of tile kinds) (R8.6, R8.11)")
        if without(counts_of(self.concealed), self.hidden) is None:
            raise ScoringError("hidden groups: the concealed tiles do not hold them all (R8.6, "
                               "R8.11)")
        if self.hidden and not self.declared:
            raise ScoringError("face-down groups are kept only by a declared hand (R8.6, R8.11)")
        for name in ("kong_chain", "passed_wins"):
            n = getattr(self, name)
            if type(n) is not int or n < 0:
                raise ScoringError(f"{name} {n!r}: a whole number >= 0")
        if self.win_by == SELF_DRAW and self.discarder_declared:
            raise ScoringError("discarder_declared goes with a win on another player's tile, not "
                               "a self-draw (R8.5)")

    def held_counts(self) -> list[int]:
        """Counts vector of everything the winner holds: concealed, melds and the winning tile."""
        counts = counts_of(self.concealed)
        counts[self.win_tile] += 1
        for meld in self.melds:
            counts[meld.tile] += meld.size
        return counts


@dataclass(frozen=True)
class PatternScore:
    """A pattern present in the chosen reading, with the multiplier it gives under the rules
    (三龙七对 depends on an option) and a ``note`` saying why where it is not obvious."""

    pattern: Pattern
    multiplier: int
    note: str = ""

    @property
    def name(self) -> str:
        """The Chinese name, e.g. ``"卡五星"``."""
        return self.pattern.name


@dataclass(frozen=True)
class HandValue:
    """The value of a finished hand under a RuleSet.

    - ``legal``: the win may be declared (R7.1 shape, R7.3 minimum, R7.4 option); if not,
      ``reason`` says why and the other fields describe the best reading, if any.
    - ``reading``: the chosen :class:`~kawuxing.shapes.Reading` (None if not a winning shape).
    - ``patterns``: the patterns of that reading; empty for 屁胡 (×1), which
      :attr:`pattern_rows` shows as its row of the table.
    - ``raw_multiplier``: product of the patterns (R9.1); ``multiplier``: after the cap
      (R9.5, R9.6); ``cap``: the cap that bound it, else None.
    - ``per_payer``: base × multiplier, what each payer owes (R9.7) before 包胡 and 漂.
    - ``bao_hu``: the single payer pays double (R8.4, R8.5; never under R8.9 ``bao_hu`` none).
    - ``hand``, ``rules``: what was scored, for the payments (R18.3) and the extras
      (R14-R16); not compared.
    """

    legal: bool
    reason: str
    reading: Reading | None
    patterns: tuple[PatternScore, ...] = ()
    raw_multiplier: int = 1
    multiplier: int = 1
    cap: int | None = None
    per_payer: int = 0
    bao_hu: bool = False
    win_by: str = SELF_DRAW
    hand: WinningHand | None = field(default=None, compare=False, repr=False)
    rules: RuleSet | None = field(default=None, compare=False, repr=False)

    @property
    def pattern_names(self) -> list[str]:
        """Chinese names of the patterns, in table order (empty for 屁胡)."""
        return [p.name for p in self.patterns]

    @property
    def pattern_rows(self) -> tuple[PatternScore, ...]:
        """The patterns as a settlement lists them: :attr:`patterns`, or the 屁胡 row ×1
        (R9.1) for a winning shape with none; empty for a hand that is not a winning shape."""
        if self.patterns or self.reading is None:
            return self.patterns
        return (PatternScore(PI_HU, PI_HU.multiplier),)

    @property
    def paid(self) -> int:
        """Total the winner receives, no 漂 or kong money: both others on self-draw (R7.2);
        the one payer otherwise, doubled for 包胡 (R8.4). 0 when not legal. What the town
        options add per payer (R8.8, R8.18, R14-R17) is in the payments
        (:func:`kawuxing.payments.win_transfers`), not here."""
        if not self.legal:
            return 0
        if self.win_by == SELF_DRAW:
            return 2 * self.per_payer
        if not self.bao_hu:
            return self.per_payer
        rules = self.rules
        if rules is not None and rules.bao_hu_cap == "total" and rules.cap is not None:
            # R8.10 total: one cap on the two shares' multipliers summed
            return rules.base * min(2 * self.raw_multiplier, cap_of(self.patterns, rules))
        return 2 * self.per_payer


def score_hand(hand: WinningHand, rules: RuleSet, situational: bool = True) -> HandValue:
    """Value a finished hand: best reading (R9.2), patterns (R9.1, R9.3, R9.4, R9.8-R9.18), cap
    (R9.5, R9.6), legality (R7.1, R7.3, R7.4, R7.6, R7.7) and 包胡 (R8.4, R8.5, R8.9).

    ``situational`` False leaves out the patterns of how the hand was won (亮倒, 杠上开花,
    杠上炮, 抢杠胡, 海底: R10.3's 查叫 value). Between readings of the same value, under
    R15.2 ``shu_kan_triplets`` reading the one with more 坎 is taken (U10).
    Raises :class:`ScoringError` if the hand cannot exist (see :meth:`WinningHand.validate`).
    """
    hand.validate(rules)
    counts = counts_of(hand.concealed)
    counts[hand.win_tile] += 1
    found = [r for r in readings(counts) if keeps(r, hand.hidden)]
    if not found:
        return HandValue(False, "not a winning hand: the tiles are not four sets and a pair, nor"
                                " seven pairs (R7.1)", None, win_by=hand.win_by, hand=hand,
                         rules=rules)
    by_kan = rules.shu_kan_triplets == "reading" and "on" in (rules.shu_kan, rules.pao_qia_mo_ba)
    best: tuple | None = None
    for reading in found:
        pats = _patterns(hand, reading, counts, rules, situational)
        raw, capped, cap = cap_multiplier(pats, rules)
        rank = (capped, raw, kan_count(hand, reading, rules) if by_kan else 0)
        if best is None or rank > best[0]:
            best = (rank, reading, pats, raw, capped, cap)
    _, reading, pats, raw, capped, cap = best
    bao_hu = (rules.bao_hu == "double" and hand.declared and hand.win_by != SELF_DRAW
              and not (rules.mutual_declared == "single" and hand.discarder_declared))
    # R7.6: the discarder's 亮倒 doubling (R8.8) counts towards R7.3's minimum
    seen = raw
    if rules.min_multiplier_counts_discarder_declared and hand.win_by != SELF_DRAW:
        seen *= declared_doubling(rules, hand.discarder_declared, hand.declared)
    legal, reason = True, ""
    if hand.win_by == ROBBING_KONG and not rules.robbing_kong:
        legal, reason = False, "robbing the kong is off (option robbing_kong, R7.4)"
    elif hand.win_by != SELF_DRAW and seen < rules.min_multiplier_discard_win:
        # R7.3 speaks of the hand's multiplier (屁胡 = no pattern), before any cap
        legal, reason = False, (f"×{seen} may win only by self-draw: a win on another "
                                f"player's tile needs ×{rules.min_multiplier_discard_win} "
                                "(R7.3)")
    elif hand.win_by == SELF_DRAW and raw < rules.min_multiplier_self_draw:
        legal, reason = False, (f"×{raw}: a self-draw needs ×{rules.min_multiplier_self_draw} "
                                "(option min_multiplier_self_draw, R7.7)")
    return HandValue(legal, reason, reading, tuple(pats), raw, capped, cap,
                     rules.base * capped, bao_hu, hand.win_by, hand, rules)


def declared_doubling(rules: RuleSet, payer_declared: bool, winner_declared: bool) -> int:
    """R8.8 ``liang_dao_doubling``: the factor (1, 2) of one payment of hand value (one
    share) whose payer (the share's owner under 包胡, U12) had or had not declared, to a
    winner who had or had not: ``winner`` 1 (the winner's own 亮倒 is its R9.1 pattern);
    ``either`` 2 for a declared payer to an undeclared winner; ``each`` 2 for a declared
    payer."""
    mode = rules.liang_dao_doubling
    if not payer_declared or mode == "winner" or (mode == "either" and winner_declared):
        return 1
    return 2


def cap_of(pats: tuple[PatternScore, ...] | list[PatternScore], rules: RuleSet) -> int | None:
    """The cap (R9.5) of a hand with patterns ``pats``: a pattern's own cap
    (``cap_exceptions``, the highest if several) replaces the general ``cap``; None when
    ``cap`` is none."""
    if rules.cap is None:
        return None
    own = [rules.cap_exceptions[p.name] for p in pats if p.name in rules.cap_exceptions]
    return max(own) if own else rules.cap


def cap_multiplier(pats: tuple[PatternScore, ...] | list[PatternScore], rules: RuleSet,
                   doubling: int = 1, declare_doubling: int = 1) -> tuple[int, int, int | None]:
    """(raw, after the cap, the cap that bound it or None) of a payment's multiplier: the
    product of ``pats`` (R9.1) × ``doubling`` (R8.18, R17.2: inside the cap) ×
    ``declare_doubling`` (R8.8), capped per R9.5 (a pattern's own cap replaces the general
    one) and R9.6 (``cap_excludes_declare``: the 亮倒 doublings, the pattern's and R8.8's,
    come after the cap). R18.4: only hand-value and 查叫 multipliers are capped."""
    product = 1
    for p in pats:
        product *= p.multiplier
    raw = product * doubling * declare_doubling
    if rules.cap is None:
        return raw, raw, None
    cap = cap_of(pats, rules)
    outside = declare_doubling
    if any(p.pattern.key == "liang_dao" for p in pats):
        outside *= BY_KEY["liang_dao"].multiplier
    if rules.cap_excludes_declare and outside > 1:
        before = raw // outside
        return raw, min(before, cap) * outside, cap if before > cap else None
    return raw, min(raw, cap), cap if raw > cap else None


def _patterns(hand: WinningHand, reading: Reading, counts: list[int],
              rules: RuleSet, situational: bool = True) -> list[PatternScore]:
    """The patterns of one reading, in PATTERNS table order; a pattern that scores more than
    once (R9.8 ``full``, R9.9) is listed once per instance."""
    found: dict[str, list[PatternScore]] = {}

    def add(key: str, note: str = "", multiplier: int | None = None,
            again: bool = False) -> None:
        pat = BY_KEY[key]
        score = PatternScore(pat, pat.multiplier if multiplier is None else multiplier, note)
        found[key] = found.get(key, []) + [score] if again else [score]

    melds = hand.melds
    win = hand.win_tile
    kinds = {k for k, c in enumerate(counts) if c} | {m.tile for m in melds}
    if not any(is_dragon(k) for k in kinds) and len({tile_suit(k) for k in kinds}) == 1:
        add("full_flush")
    if reading.seven_pairs:
        quads = sum(1 for c in counts if c == 4)
        value = SEVEN_PAIRS_VALUES[rules.seven_pairs_values][quads]  # R9.14
        if value is None:
            value = rules.three_quad_seven_pairs
        san_yuan = rules.san_yuan_seven_pairs  # R9.15: pairs of all three dragons
        if san_yuan != "off" and all(counts[d] >= 2 for d in DRAGONS) and san_yuan > value:
            add("san_yuan_seven_pairs", multiplier=san_yuan)
        else:
            add(SEVEN_PAIRS_FAMILY[quads], multiplier=value)
    else:
        concealed_pungs = [s.tile for s in reading.sets if s.kind == "pung"]
        exclusive = len(melds) == 4 and rules.shou_zhua_yi_with_peng_peng == "exclusive"
        if len(concealed_pungs) == len(reading.sets) and not exclusive:  # R9.17
            add("all_pungs", multiplier=rules.peng_peng_value)  # R9.11
        dragon_pungs = sum(1 for d in DRAGONS if d in concealed_pungs
                           or any(m.tile == d for m in melds))
        if dragon_pungs == 3:
            add("big_three_dragons")
        elif dragon_pungs == 2 and is_dragon(reading.pairs[0]):
            add("little_three_dragons")
        if (not is_dragon(win) and tile_rank(win) == 5
                and any(s.kind == "chow" and s.tile == win - 1 for s in reading.sets)):
            add("ka_wu_xing", multiplier=rules.ka_wu_xing_value)  # R9.10
        if len(melds) == 4:
            add("shou_zhua_yi", multiplier=rules.shou_zhua_yi_value)  # R9.16
    if situational:
        _situational(hand, rules, add)
    if not reading.seven_pairs:  # R9.3: the seven-pairs family never adds 四归
        _si_gui(hand, counts, rules, found, add)
    return [score for key in BY_KEY if key in found for score in found[key]]


def _situational(hand: WinningHand, rules: RuleSet, add) -> None:
    """Patterns of how the hand was won (R9.1): kong (R9.12, R9.18), robbing (R9.13), last
    tile (R9.8), 亮倒."""
    kong_value = rules.kong_win_value
    note = ""
    if rules.kong_chain_win_bonus and hand.kong_chain > 1:  # R9.18: × 2^(n-1)
        kong_value *= 2 ** (hand.kong_chain - 1)
        note = f"kong {hand.kong_chain} of a chain (R9.18)"
    if hand.after_kong and hand.win_by == SELF_DRAW:
        add("kong_bloom", note, kong_value)
    elif hand.after_kong and hand.win_by == DISCARD:
        add("kong_discard", note, kong_value)
    if hand.win_by == ROBBING_KONG:
        add("robbing_kong", multiplier=rules.kong_win_value
            if rules.kong_win_value_includes_robbing else None)
    channel = rules.si_gui_channel
    if hand.last_tile and channel == "off":
        if hand.win_by == SELF_DRAW or (hand.win_by == DISCARD and rules.last_discard_bonus):
            add("last_tile", "" if hand.win_by == SELF_DRAW else "last discard (option "
                "last_discard_bonus)")
    elif hand.last_tile and channel in ("full", "full_once") and hand.win_by != ROBBING_KONG:
        add("last_tile", "" if hand.win_by == SELF_DRAW else "海底炮: the last discard (R9.8)")
    if hand.declared:
        add("liang_dao")


def _si_gui(hand: WinningHand, counts: list[int], rules: RuleSet, found: dict, add) -> None:
    """明四归一 / 暗四归一 (R9.1) by the winning tile, and held in the hand per R9.4, R9.8
    (``si_gui_channel``) or R9.9 (``flush_four_bonus``: a held four in a 清一色 is 见四乘二)."""
    win = hand.win_tile
    pung_tiles = [m.tile for m in hand.melds if m.kind == MELD_PUNG]
    concealed = counts_of(hand.concealed)
    win_ming = win in pung_tiles
    win_an = counts[win] == 4 and (hand.win_by == SELF_DRAW or rules.an_si_gui_on_discard)
    # fours held before the win: an exposed pung whose fourth is concealed, four concealed
    held_ming = [k for k in pung_tiles if concealed[k]]
    held_an = [k for k, c in enumerate(concealed) if c == 4]
    channel = rules.si_gui_channel
    if rules.flush_four_bonus == "x2_each" and "full_flush" in found:  # R9.9
        for k in held_ming + held_an:
            add("jian_si_cheng_er", f"{tile_str(k)} held four (R9.9)", again=True)
        held_ming, held_an = [], []
    elif channel in ("full", "full_once"):  # R9.8: every four, each instance multiplies
        if win_ming:
            add("ming_si_gui", "the winning tile completes an exposed pung")
        for k in held_ming:
            add("ming_si_gui", f"{tile_str(k)} fourth of an exposed pung (R9.8)", again=True)
        if win_an:
            add("an_si_gui", "the winning tile is the fourth of three concealed")
        for k in held_an:
            add("an_si_gui", f"{tile_str(k)} four concealed (R9.8)", again=True)
        if channel == "full_once":
            for key in ("ming_si_gui", "an_si_gui"):
                if key in found:
                    found[key] = found[key][:1]
        return
    if win_ming:
        add("ming_si_gui", "the winning tile completes an exposed pung")
    if win_an:
        add("an_si_gui", "the winning tile is the fourth of three concealed")
    mode = "win_tile_only" if channel == "half" else rules.si_gui_in_hand
    if mode == "win_tile_only":
        return
    if mode == "flush":
        allowed = "full_flush" in found
    else:  # any_pattern: any other pattern, situational ones included
        allowed = any(k not in ("ming_si_gui", "an_si_gui") for k in found)
    if not allowed:
        return
    if "ming_si_gui" not in found and held_ming:
        add("ming_si_gui", "fourth tile of an exposed pung kept in hand (R9.4)")
    if "an_si_gui" not in found and held_an:
        add("an_si_gui", "four of a kind kept in the concealed hand (R9.4)")
