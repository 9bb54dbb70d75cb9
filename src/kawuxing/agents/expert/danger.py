"""What a discard may cost the expert bot: the chance each opponent wins on it and the
money then, in base units (RULES.md R7.2, R7.3, R8.4, R9.1; VARIANTS.md R7.6, R8.8-R8.10,
R15-R16).

Against a declared opponent it is exact: their waits and concealed tiles are shown (R8.1,
R13.1), so a wait is a certain win at its own value, paid as the room settles it (包胡 or one
share, R8.9; my own 亮倒 doubling it under R8.8 ``each``). Against a concealed opponent it is
a model: the chance they are ready (turns, melds), that this kind is a wait (rank, their own
discards, a suit they collect) and that the win is worth the ×2 a discard win needs (R7.3): a 5
(卡五星), the fourth tile of their exposed pung (明四归一), their flush suit (清一色), two pungs
(碰碰胡), and any tile right after my own kong (杠上炮).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...melds import Meld
from ...scoring.payments import WinTable, win_transfers
from ...rules import RuleSet
from ...scoring import (DISCARD, ROBBING_KONG, ScoringError, WinningHand, declared_doubling,
                         score_hand)
from ...tiles import DRAGON_BASE, tiles_of
from .table import DECLARED_GUESS, TYPICAL, MoneyKey, Table


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
    when ``robbing``, R7.4); ``me_declared``: I had declared (or declare with it), which R8.8
    ``either``/``each`` doubles my payment for and R7.6 counts toward a win's minimum."""
    none = 1.0
    cost = 0.0
    certain = False
    for o in t.opponents:
        if t.declared[o]:
            if kind not in t.obs.waits[o]:
                continue
            m, pay = declared_payment(t, o, kind, me_declared, robbing)
            if not m:
                continue
            p = 1.0
            certain = True
        else:
            p = t.ready[o] * wait_chance(t, o, kind) * big_enough(t, o, kind,
                                                                   after_kong or robbing,
                                                                   me_declared)
            pay = (t.base * typical_multiplier(t, o, kind)
                   * declared_doubling(t.rules, me_declared, False)  # R8.8
                   + t.extras_guess() + t.piao_money(t.me, winner=o))
        if not t.rules.double_win and none < 1.0:
            p *= none  # 截胡: only the first in turn order wins (R4.3)
        none *= 1.0 - p
        cost += p * pay
    return Danger(1.0 - none, cost, certain)


def declared_payment(t: Table, o: int, kind: int, me_declared: bool,
                     robbing: bool = False) -> tuple[int, float]:
    """(capped multiplier, what I pay in base units) of declared opponent ``o`` winning on my
    ``kind``; (0, 0) if that win is not allowed. Exact from their shown hand (R8.1) by the
    room's settlement (R18.3: 包胡 or one share R8.4/R8.9/R8.10, R8.8 per share, 坎, 跑恰摸八,
    漂); :data:`DECLARED_GUESS` per share when part of it is face down (R8.6, R8.11: unknown
    tiles) or a concealed kong hides its tile (R6.1)."""
    obs = t.obs
    shown = obs.revealed[o]
    melds = obs.melds[o]
    me_key: MoneyKey = (t.me, tuple(me_declared if s == t.me else d
                                    for s, d in enumerate(obs.declared)), t.piao)
    if shown is not None and not obs.hidden_tiles[o] \
            and all(tile is not None for _, tile in melds):
        found = _declared_money(bytes(shown), tuple(melds), kind, robbing, t.rules, o, me_key)
        if found is not None:
            return found
    rules = t.rules
    bao = rules.bao_hu == "double" and not (rules.mutual_declared == "single" and me_declared)
    owners = (t.me, 3 - t.me - o) if bao else (t.me,)
    declared = me_key[1]
    pay = sum(t.base * DECLARED_GUESS * declared_doubling(rules, declared[s], True)
              for s in owners)
    return DECLARED_GUESS, pay + t.piao_money(t.me, len(owners), winner=o)


@lru_cache(maxsize=4096)
def _declared_money(shown: bytes, melds: tuple, kind: int, robbing: bool, rules: RuleSet,
                    o: int, key: MoneyKey) -> tuple[int, float] | None:
    """:func:`declared_payment` from a fully shown hand; None if it cannot be scored."""
    me, declared, piao = key
    try:
        v = score_hand(WinningHand(tuple(tiles_of(list(shown))), kind,
                                   ROBBING_KONG if robbing else DISCARD,
                                   tuple(Meld(k, tile) for k, tile in melds), declared=True,
                                   discarder_declared=declared[me]), rules)
    except ScoringError:
        return None
    if not v.legal:
        return 0, 0.0
    paid = win_transfers(v, o, [me], table=WinTable(declared, piao))
    return v.multiplier, float(sum(tr.amount for tr in paid if tr.payer == me))


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


def big_enough(t: Table, o: int, kind: int, after_kong: bool,
               me_declared: bool = False) -> float:
    """The chance a win of ``o`` on ``kind`` is allowed on a discard (R7.3: ×2 or more; R7.6:
    my 亮倒's R8.8 doubling counts, so under ``either``/``each`` any win may take it)."""
    rules = t.rules
    if rules.min_multiplier_discard_win <= 1 or after_kong:
        return 1.0  # 杠上炮 (or 抢杠胡) is ×2 by itself (R9.1)
    if rules.min_multiplier_counts_discarder_declared and declared_doubling(
            rules, me_declared, False) >= rules.min_multiplier_discard_win:
        return 1.0
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
    """The multiplier of such a win: ×2.5 (:data:`TYPICAL`) typically, ×4 and more in a
    flush."""
    suit = flush_suit(t, o)
    if suit is not None and kind < DRAGON_BASE and kind // 9 == suit:
        return 5.0
    return TYPICAL


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
