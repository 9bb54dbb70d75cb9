"""Scoring a finished hand (RULES.md R7.1-R7.4, R8.4-R8.5, R9, R11): patterns, cap, payments.

:func:`score_hand` takes a :class:`WinningHand` and a :class:`~kawuxing.rules.RuleSet` and
returns a :class:`HandValue`: whether the win may be declared, the best reading (R9.2), its
patterns each with its multiplier and rule, the multiplier after the cap, and the amount each
payer owes. :func:`win_transfers` turns that into who pays whom (with 包胡 and 漂) as
:class:`~kawuxing.transfers.Transfer` s of kind ``hand_value``/``bao_hu``/``piao``.
All amounts are integer base units (底金 × multiplier).
"""

from __future__ import annotations

from dataclasses import dataclass

from .melds import MELD_PUNG, Meld
from .patterns import BY_KEY, PI_HU, SEVEN_PAIRS_FAMILY, Pattern
from .rules import RuleSet
from .shapes import Reading, readings
from .tiles import (COPIES, DRAGONS, NUM_KINDS, counts_of, is_dragon, tile_rank, tile_str,
                    tile_suit)
from .transfers import BAO_HU, HAND_VALUE, PIAO, Transfer

__all__ = ["DISCARD", "ROBBING_KONG", "SELF_DRAW", "WIN_BY", "HandValue", "PatternScore",
           "ScoringError", "Transfer", "WinningHand", "score_hand", "win_transfers"]

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
    - ``hidden``: kinds of concealed triplets kept face down at 亮倒 (R8.6): each is a fixed
      pung, never split, so only readings that hold it as a pung count.
    """

    concealed: tuple[int, ...]
    win_tile: int
    win_by: str = SELF_DRAW
    melds: tuple[Meld, ...] = ()
    after_kong: bool = False
    last_tile: bool = False
    declared: bool = False
    discarder_declared: bool = False
    hidden: tuple[int, ...] = ()

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
        concealed = counts_of(self.concealed)
        for kind in self.hidden:
            if not isinstance(kind, int) or not 0 <= kind < NUM_KINDS or concealed[kind] < 3 \
                    or self.hidden.count(kind) > 1:
                raise ScoringError(f"hidden triplet {kind!r}: must be a kind held three times in "
                                   "the concealed tiles, once (R8.6)")
        if self.hidden and not self.declared:
            raise ScoringError("hidden triplets are kept face down only by a declared hand (R8.6)")
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
    - ``bao_hu``: the single payer pays double (R8.4, R8.5).
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
        the one payer otherwise, doubled for 包胡 (R8.4). 0 when not legal."""
        if not self.legal:
            return 0
        if self.win_by == SELF_DRAW:
            return 2 * self.per_payer
        return self.per_payer * (2 if self.bao_hu else 1)


def score_hand(hand: WinningHand, rules: RuleSet) -> HandValue:
    """Value a finished hand: best reading (R9.2), patterns (R9.1, R9.3, R9.4), cap (R9.5,
    R9.6), legality (R7.1, R7.3, R7.4) and 包胡 (R8.4, R8.5).

    Raises :class:`ScoringError` if the hand cannot exist (see :meth:`WinningHand.validate`).
    """
    hand.validate(rules)
    counts = counts_of(hand.concealed)
    counts[hand.win_tile] += 1
    found = [r for r in readings(counts) if _keeps_hidden(r, hand.hidden)]
    if not found:
        return HandValue(False, "not a winning hand: the tiles are not four sets and a pair, nor"
                                " seven pairs (R7.1)", None, win_by=hand.win_by)
    best: tuple | None = None
    for reading in found:
        pats = _patterns(hand, reading, counts, rules)
        raw, capped, cap = _multiplier(pats, rules)
        rank = (capped, raw)
        if best is None or rank > best[0]:
            best = (rank, reading, pats, raw, capped, cap)
    _, reading, pats, raw, capped, cap = best
    bao_hu = (hand.declared and hand.win_by != SELF_DRAW
              and not (rules.mutual_declared == "single" and hand.discarder_declared))
    legal, reason = True, ""
    if hand.win_by == ROBBING_KONG and not rules.robbing_kong:
        legal, reason = False, "robbing the kong is off (option robbing_kong, R7.4)"
    elif hand.win_by != SELF_DRAW and raw < rules.min_multiplier_discard_win:
        # R7.3 speaks of the hand's multiplier (屁胡 = no pattern), before any cap
        legal, reason = False, (f"×{raw} may win only by self-draw: a win on another "
                                f"player's tile needs ×{rules.min_multiplier_discard_win} "
                                "(R7.3)")
    return HandValue(legal, reason, reading, tuple(pats), raw, capped, cap,
                     rules.base * capped, bao_hu, hand.win_by)


def _keeps_hidden(reading: Reading, hidden: tuple[int, ...]) -> bool:
    """R8.6: a face-down triplet is a fixed pung, so a reading must hold each as a pung (a
    seven-pairs reading holds none)."""
    if not hidden:
        return True
    pungs = {s.tile for s in reading.sets if s.kind == "pung"}
    return not reading.seven_pairs and all(k in pungs for k in hidden)


def _patterns(hand: WinningHand, reading: Reading, counts: list[int],
              rules: RuleSet) -> list[PatternScore]:
    """The patterns of one reading, in PATTERNS table order."""
    found: dict[str, PatternScore] = {}

    def add(key: str, note: str = "", multiplier: int | None = None) -> None:
        pat = BY_KEY[key]
        found[key] = PatternScore(pat, pat.multiplier if multiplier is None else multiplier, note)

    melds = hand.melds
    win = hand.win_tile
    kinds = {k for k, c in enumerate(counts) if c} | {m.tile for m in melds}
    if not any(is_dragon(k) for k in kinds) and len({tile_suit(k) for k in kinds}) == 1:
        add("full_flush")
    if reading.seven_pairs:
        quads = sum(1 for c in counts if c == 4)
        family = SEVEN_PAIRS_FAMILY[quads]
        add(family, multiplier=rules.three_quad_seven_pairs if quads == 3 else None)
    else:
        concealed_pungs = [s.tile for s in reading.sets if s.kind == "pung"]
        if len(concealed_pungs) == len(reading.sets):
            add("all_pungs")
        dragon_pungs = sum(1 for d in DRAGONS if d in concealed_pungs
                           or any(m.tile == d for m in melds))
        if dragon_pungs == 3:
            add("big_three_dragons")
        elif dragon_pungs == 2 and is_dragon(reading.pairs[0]):
            add("little_three_dragons")
        if (not is_dragon(win) and tile_rank(win) == 5
                and any(s.kind == "chow" and s.tile == win - 1 for s in reading.sets)):
            add("ka_wu_xing")
        if len(melds) == 4:
            add("shou_zhua_yi")
    _situational(hand, rules, add)
    if not reading.seven_pairs:  # R9.3: the seven-pairs family never adds 四归
        _si_gui(hand, counts, rules, found, add)
    return [found[p] for p in BY_KEY if p in found]


def _situational(hand: WinningHand, rules: RuleSet, add) -> None:
    """Patterns of how the hand was won (R9.1): kong, robbing, last tile, 亮倒."""
    if hand.after_kong and hand.win_by == SELF_DRAW:
        add("kong_bloom")
    elif hand.after_kong and hand.win_by == DISCARD:
        add("kong_discard")
    if hand.win_by == ROBBING_KONG:
        add("robbing_kong")
    if hand.last_tile and (hand.win_by == SELF_DRAW
                           or (hand.win_by == DISCARD and rules.last_discard_bonus)):
        add("last_tile", "" if hand.win_by == SELF_DRAW else "last discard (option "
            "last_discard_bonus)")
    if hand.declared:
        add("liang_dao")


def _si_gui(hand: WinningHand, counts: list[int], rules: RuleSet, found: dict, add) -> None:
    """明四归一 / 暗四归一 (R9.1) by the winning tile, and held in the hand per R9.4."""
    win = hand.win_tile
    pung_tiles = {m.tile for m in hand.melds if m.kind == MELD_PUNG}
    if win in pung_tiles:
        add("ming_si_gui", "the winning tile completes an exposed pung")
    if counts[win] == 4 and (hand.win_by == SELF_DRAW or rules.an_si_gui_on_discard):
        add("an_si_gui", "the winning tile is the fourth of three concealed")
    if rules.si_gui_in_hand == "win_tile_only":
        return
    if rules.si_gui_in_hand == "flush":
        allowed = "full_flush" in found
    else:  # any_pattern: any other pattern, situational ones included
        allowed = any(k not in ("ming_si_gui", "an_si_gui") for k in found)
    if not allowed:
        return
    if "ming_si_gui" not in found and any(counts[t] for t in pung_tiles):
        add("ming_si_gui", "fourth tile of an exposed pung kept in hand (R9.4)")
    if "an_si_gui" not in found and any(c == 4 for k, c in enumerate(counts) if k != win):
        add("an_si_gui", "four of a kind kept in the concealed hand (R9.4)")


def _multiplier(pats: list[PatternScore], rules: RuleSet) -> tuple[int, int, int | None]:
    """(raw product, after the cap, the cap that bound it or None) per R9.1, R9.5, R9.6."""
    raw = 1
    for p in pats:
        raw *= p.multiplier
    if rules.cap is None:
        return raw, raw, None
    cap = rules.cap
    own = [rules.cap_exceptions[p.name] for p in pats if p.name in rules.cap_exceptions]
    if own:
        cap = max(own)
    declared = any(p.pattern.key == "liang_dao" for p in pats)
    if rules.cap_excludes_declare and declared:
        before = raw // BY_KEY["liang_dao"].multiplier
        capped = min(before, cap) * BY_KEY["liang_dao"].multiplier
        return raw, capped, cap if before > cap else None
    return raw, min(raw, cap), cap if raw > cap else None


def win_transfers(value: HandValue, winner: int, payers: list[int],
                  piao: list[int] | None = None) -> list[Transfer]:
    """Who pays the winner what for a legal hand ``value`` (R7.2, R8.4, R9.7, R11.1).

    ``payers``: the two other seats for a self-draw, or ``[discarder]`` (the konger for a robbed
    kong). ``piao``: each seat's 漂 (R11.1), default none. Returns per payer one transfer of
    kind ``hand_value`` (``bao_hu`` when 包胡 doubles it, R8.4), with the pattern keys
    (``["pi_hu"]`` for 屁胡), the multiplier and ``win_by``, and one of kind ``piao`` (with
    ``payer_piao`` and ``payee_piao``) where 漂 is not zero. Raises ``ValueError`` for an
    illegal value or bad payers.
    """
    if not value.legal:
        raise ValueError(f"not a legal win: {value.reason}")
    want = 2 if value.win_by == SELF_DRAW else 1
    if len(payers) != want or len(set(payers)) != want or winner in payers:
        raise ValueError(f"payers {payers!r} for seat {winner} winning by {value.win_by}: "
                         f"expected {want} other seat(s) (R7.2)")
    if piao is not None and len(piao) != 3:
        raise ValueError(f"piao {piao!r}: expected one value per seat (3)")
    keys = [p.pattern.key for p in value.pattern_rows]
    out = []
    for payer in payers:
        params = {"patterns": list(keys), "multiplier": value.multiplier,
                  "win_by": value.win_by}
        if value.bao_hu and len(payers) == 1:  # R8.4: the single payer pays double
            out.append(Transfer(payer, winner, 2 * value.per_payer, BAO_HU, "R8.4 R9.7",
                                params))
        else:
            out.append(Transfer(payer, winner, value.per_payer, HAND_VALUE, "R7.2 R9.7",
                                params))
        if piao and piao[payer] + piao[winner]:  # R11.1: once per payment, never doubled
            out.append(Transfer(payer, winner, piao[payer] + piao[winner], PIAO, "R11.1",
                                {"payer_piao": piao[payer], "payee_piao": piao[winner]}))
    return out
