"""What a discard may cost the expert bot: the chance each opponent wins on it and the
money then, in base units (RULES.md R7.2, R7.3, R8.4, R9.1).

Against a declared opponent it is exact: their waits and concealed tiles are shown (R8.1,
R13.1), so a wait is a certain 包胡 win at its own value. Against a concealed opponent it is
a model: the chance they are ready (turns, melds), that this kind is a wait (rank, their own
discards, a suit they collect) and that the win is worth the ×2 a discard win needs (R7.3): a 5
(卡五星), the fourth tile of their exposed pung (明四归一), their flush suit (清一色), two pungs
(碰碰胡), and any tile right after my own kong (杠上炮).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...melds import Meld
from ...rules import RuleSet
from ...scoring import DISCARD, ROBBING_KONG, ScoringError, WinningHand, score_hand
from ...tiles import DRAGON_BASE, tiles_of
from .table import Table

DECLARED_GUESS = 4  # ×: a declared hand whose tiles are not all shown (亮倒 ×2, a pattern)


@dataclass(frozen=True)
class Danger:
    """A discard's risk: ``chance`` that someone wins on it, ``cost`` the expected money I pay
    (chance × payment summed over the opponents, R4.3 一炮双响), ``certain`` when a declared
    opponent waits on it."""

    chance: float
    cost: float
    certain: bool = False


def discard_danger(t: Table, kind: int, after_kong: bool = False,
                   me_declared: bool = False, robbing: bool = False) -> Danger:
    """The :class:`Danger` of giving ``kind`` (a discard, or an added kong that can be robbed
    when ``robbing``, R7.4)."""
    none = 1.0
    cost = 0.0
    certain = False
    for o in t.opponents:
        if t.declared[o]:
            if kind not in t.obs.waits[o]:
                continue
            m = declared_multiplier(t, o, kind, me_declared, robbing)
            if not m:
                continue
            bao = not (t.rules.mutual_declared == "single" and me_declared)
            p, pay = 1.0, t.base * m * (2 if bao else 1) + t.piao_units(o)
            certain = True
        else:
            p = t.ready[o] * wait_chance(t, o, kind) * big_enough(t, o, kind,
                                                                   after_kong or robbing)
            pay = t.base * typical_multiplier(t, o, kind) + t.piao_units(o)
        if not t.rules.double_win and none < 1.0:
            p *= none  # 截胡: only the first in turn order wins (R4.3)
        none *= 1.0 - p
        cost += p * pay
    return Danger(1.0 - none, cost, certain)


def declared_multiplier(t: Table, o: int, kind: int, me_declared: bool,
                        robbing: bool) -> int:
    """The capped multiplier of declared opponent ``o`` winning on my ``kind`` (0 if that win
    is not allowed), from their shown hand (R8.1); :data:`DECLARED_GUESS` when part of it is
    face down (R8.6, R8.11: unknown tiles) or a concealed kong hides its tile (R6.1)."""
    obs = t.obs
    shown = obs.revealed[o]
    melds = obs.melds[o]
    if shown is None or obs.hidden_tiles[o] or any(tile is None for _, tile in melds):
        return DECLARED_GUESS
    return _declared_value(bytes(shown), tuple(melds), kind, me_declared, robbing, t.rules)


@lru_cache(maxsize=4096)
def _declared_value(shown: bytes, melds: tuple, kind: int, me_declared: bool, robbing: bool,
                    rules: RuleSet) -> int:
    try:
        v = score_hand(WinningHand(tuple(tiles_of(list(shown))), kind,
                                   ROBBING_KONG if robbing else DISCARD,
                                   tuple(Meld(k, tile) for k, tile in melds), declared=True,
                                   discarder_declared=me_declared), rules)
    except ScoringError:
        return DECLARED_GUESS
    return v.multiplier if v.legal else 0


def wait_chance(t: Table, o: int, kind: int) -> float:
    """The chance ``kind`` is among the waits of concealed opponent ``o`` if ready."""
    obs = t.obs
    if kind >= DRAGON_BASE:
        base = 0.07 if t.live[kind] else 0.0  # a dragon wait needs a copy in their hand
    else:
        rank = kind % 9 + 1
        base = 0.08 if rank in (1, 9) else 0.10 if rank in (2, 8) else 0.12
        if not t.live[kind]:
            base *= 0.6  # no pair or triplet of it can be theirs: runs only
    if kind in obs.discards[o]:
        base *= 0.35
    suit = flush_suit(t, o)
    if suit is not None:
        base = base * 2.2 if kind < DRAGON_BASE and kind // 9 == suit else base * 0.4
    return min(0.6, base)


def big_enough(t: Table, o: int, kind: int, after_kong: bool) -> float:
    """The chance a win of ``o`` on ``kind`` is allowed on a discard (R7.3: ×2 or more)."""
    if t.rules.min_multiplier_discard_win <= 1 or after_kong:
        return 1.0  # 杠上炮 (or 抢杠胡) is ×2 by itself (R9.1)
    obs = t.obs
    pungs = [tile for kind_, tile in obs.melds[o] if tile is not None]
    if kind in pungs:
        return 1.0  # 明四归一
    suit = flush_suit(t, o)
    if suit is not None and kind < DRAGON_BASE and kind // 9 == suit:
        return 1.0
    chance = 0.3
    if t.is_five(kind):
        chance = 0.7  # 卡五星
    if len(obs.melds[o]) >= 2:
        chance = max(chance, 0.6)  # 碰碰胡 (no chows: every meld is a pung or kong)
    return chance


def typical_multiplier(t: Table, o: int, kind: int) -> float:
    """The multiplier of such a win: ×2.5 typically, ×4 and more in a flush."""
    suit = flush_suit(t, o)
    if suit is not None and kind < DRAGON_BASE and kind // 9 == suit:
        return 5.0
    return 2.5


def flush_suit(t: Table, o: int) -> int | None:
    """The suit (0-2) concealed opponent ``o`` seems to collect for 清一色: every meld in it
    and at least six discards, at most one of them of that suit (once per decision)."""
    if o not in t.flush_suits:
        t.flush_suits[o] = _flush_suit(t, o)
    return t.flush_suits[o]


def _flush_suit(t: Table, o: int) -> int | None:
    obs = t.obs
    melds = [tile for _, tile in obs.melds[o] if tile is not None]
    if not melds or any(m >= DRAGON_BASE for m in melds) or len({m // 9 for m in melds}) != 1:
        return None
    suit = melds[0] // 9
    discards = obs.discards[o]
    if len(discards) < 6 or sum(1 for d in discards if d < DRAGON_BASE and d // 9 == suit) > 1:
        return None
    return suit
