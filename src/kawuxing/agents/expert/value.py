"""The expected value of a hand, in base units, for the expert bot (RULES.md R7-R10,
VARIANTS.md R7.6-R7.7, R8.8-R8.14, R10.3-R10.5, R14-R16).

A *waiting hand* here is my concealed hand between two draws (13 − 3 × melds tiles). Its
value is what I expect to collect from here on by winning it (each win at the room's
settlement, horses expected on a self-draw), less what declaring it costs (feeding a declared
opponent, R8.4/R8.9; R8.8 doubling what I pay), with the money of 荒庄 if the wall runs out
(R10.2 compensation, or 查叫: a ready hand collects, a hand not ready pays, R10.3), under a
simple race:
every round I draw once (one chance in ``unseen`` per live copy), the opponents discard (a
hidden wait is fed more often than a declared one, R8.1) and an opponent may end the hand
(:attr:`Table.hazard`).

- Ready (0 from winning): exact waits, live copies and multipliers (self-draw and on a
  discard: a ×1 wait wins only by self-draw, R7.3), concealed or declared (亮倒 ×2, 包胡);
  declaring later only while the room still allows it (R8.13, R8.14).
- One from ready: every live draw that makes it ready, with the best discard then.
- Farther: a typical path (live effective tiles now, typical ones after) to a typical ready
  hand of the hand's value potential (七对, 清一色, 碰碰胡).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...scoring.cha_jiao import DECLARED, NOT_READY, READY
from ...melds import MELD_PUNG, Meld
from ...rules import RuleSet
from ...scoring import DISCARD, SELF_DRAW, WinningHand, declared_doubling, score_hand
from ...shapes import seven_pairs_shanten, shanten, standard_shanten, waits
from ...tiles import DRAGON_BASE, tiles_of
from .danger import declared_payment
from .table import MoneyKey, Table, cha_jiao_value, win_money

MeldKey = tuple[tuple[str, int], ...]
NO_MONEY = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))


@dataclass(frozen=True)
class WaitEntry:
    """One wait of a ready hand: ``tile``; capped multipliers by self-draw and on a discard
    (0: a discard win is not allowed, R7.3), concealed and after 亮倒 (R8.4); ``pair_wait``:
    the wait of a seven-pairs hand (七对), which pairs a single tile.

    ``money[d]`` (d = 1 after my 亮倒): what I collect, in base units, by the room's
    settlement (:func:`~.table.win_money`, R18.3), for a self-draw and for a win on each
    opponent's discard (``Table.opponents`` order); 0 where the win is not allowed (R7.3,
    R7.6, R7.7). ``cha_jiao[d][p]``: the hand's 查叫 multiplier (R10.3, R10.5) from an
    undeclared (p = 0) or a declared payer — the same in every entry of a hand."""

    tile: int
    self_draw: int
    discard: int
    declared_self_draw: int
    declared_discard: int
    pair_wait: bool = False
    money: tuple[tuple[float, float, float], tuple[float, float, float]] = NO_MONEY
    cha_jiao: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))


@lru_cache(maxsize=1 << 16)
def wait_entries(counts: bytes, melds: MeldKey, rules: RuleSet,
                 key: MoneyKey) -> tuple[WaitEntry, ...]:
    """The waits of a concealed hand (``counts``: 30 bytes) with declared ``melds``, each
    wait's multipliers (R9) and money (``key``: who pays what, :attr:`Table.money_key`);
    ``()`` when not ready. Bounded cache."""
    me, declared, _ = key
    opponents = ((me + 1) % 3, (me + 2) % 3)
    concealed = list(counts)
    held = list(concealed)
    meld_objs = tuple(Meld(kind, tile) for kind, tile in melds)
    for m in meld_objs:
        held[m.tile] += m.size
    tiles = tuple(tiles_of(concealed))
    seven = not melds and seven_pairs_shanten(concealed) == 0 and standard_shanten(concealed) > 0
    found = waits(concealed, held)
    cha_jiao = _cha_jiao(concealed, meld_objs, tuple(found), rules)
    out = []
    for w in found:
        values, money = [], []
        for mine in (False, True):
            v = score_hand(WinningHand(tiles, w, SELF_DRAW, meld_objs, declared=mine), rules)
            row = [win_money(v, key) if v.legal else 0.0]
            values.append(v.multiplier if v.legal else 0)
            on = {}
            for o in opponents:  # R7.6, R8.5, R8.8: the discarder's 亮倒 counts
                if declared[o] not in on:
                    on[declared[o]] = score_hand(WinningHand(
                        tiles, w, DISCARD, meld_objs, declared=mine,
                        discarder_declared=declared[o]), rules)
                v = on[declared[o]]
                row.append(win_money(v, key, o) if v.legal else 0.0)
            v = on[declared[opponents[0]]]
            values.append(v.multiplier if v.legal else 0)
            money.append(tuple(row))
        out.append(WaitEntry(w, *values, pair_wait=seven, money=tuple(money),
                             cha_jiao=cha_jiao))
    return tuple(out)


def _cha_jiao(concealed: list[int], melds: tuple[Meld, ...], found: tuple[int, ...],
              rules: RuleSet) -> tuple[tuple[int, int], tuple[int, int]]:
    """The 查叫 multipliers of a ready hand (:attr:`WaitEntry.cha_jiao`); zeros unless
    ``draw_compensation`` is ``cha_jiao`` (``cha_jiao_flat`` pays 1, R10.3)."""
    if rules.draw_compensation != "cha_jiao" or not found:
        return (0, 0), (0, 0)
    out = []
    for mine in (False, True):
        plain = cha_jiao_value(concealed, melds, found, mine, False, rules)
        doubled = plain
        if rules.cha_jiao_doubling == "r8_8" and declared_doubling(rules, True, mine) > 1:
            doubled = cha_jiao_value(concealed, melds, found, mine, True, rules)  # R10.5
        out.append((plain, doubled))
    return out[0], out[1]


@dataclass(frozen=True)
class Race:
    """One ready hand in the race: per round ``gain`` (expected money won, less expected money
    fed), ``stay`` (chance the hand goes on), and ``draw_money`` (my 荒庄 share, R10.2-R10.3)."""

    gain: float
    stay: float
    draw_money: float

    def value(self, draws: int) -> float:
        """Expected base units over ``draws`` more draws of mine, then 荒庄 (R5.5, R10)."""
        if draws <= 0:
            return self.draw_money
        s = self.stay
        last = s ** draws
        rounds = draws if s >= 1.0 else (1 - last) / (1 - s)  # Σ s^r, r < draws
        return self.gain * rounds + last * self.draw_money


BLIND_WAITS = 2.0  # live tiles per ready concealed opponent that would win on my discard
BLIND_COST = 2.5  # their typical multiplier then


def ready_race(t: Table, entries: tuple[WaitEntry, ...], declared: bool) -> Race:
    """The :class:`Race` of a ready hand with these waits, concealed or declared (R8): its
    wins at their money (expected horses on a self-draw, R14), what declaring costs (feeding
    a declared opponent, R8.2; R8.8's doubling of what I pay) and its 荒庄 money (R10)."""
    p = t.params
    d = int(declared)
    p_self = gain = 0.0
    for e in entries:
        money = e.money[d][0]
        if money:
            c = _chance(t, e)
            p_self += c
            gain += c * (money + t.horse_money(e.tile, declared))
    p_ron = 0.0
    for i, o in enumerate(t.opponents):
        # a declared opponent discards every draw (R8.2); a concealed one avoids a declared wait
        rate = 1.0 if t.declared[o] else (p.ron_declared if declared else p.ron_concealed)
        for e in entries:
            money = e.money[d][1 + i]
            if money:
                c = rate * _chance(t, e)
                p_ron += c
                gain += c * money
    p_loss = 0.0
    mine = {e.tile for e in entries}
    for o in t.opponents:
        if t.declared[o] and declared:
            # I must discard every draw (R8.2): a draw of their wait feeds them
            for w in t.obs.waits[o]:
                if w not in mine:
                    fed = t.draw_chance(w)
                    p_loss += fed
                    gain -= fed * declared_payment(t, o, w, True)[1]
        elif not t.declared[o]:
            blind = t.ready[o] * BLIND_WAITS / t.unseen * (1.0 if declared else 0.7)
            p_loss += blind
            gain -= blind * (t.base * BLIND_COST * declared_doubling(t.rules, declared, False)
                             + t.piao_money(t.me, winner=o))
    if declared:
        gain -= t.declared_loss  # R8.8: the opponents' self-draws cost me double
    hazard = t.hazard * (p.declared_pressure if declared else 1.0)
    stay = max(0.02, 1.0 - p_self - p_ron - p_loss - hazard)
    best = entries[0].cha_jiao[d] if entries else (0, 0)
    return Race(gain, stay, t.end_money(DECLARED if declared else READY, best))


def _chance(t: Table, e: WaitEntry) -> float:
    """The chance one draw (or one discard) is wait ``e``'s tile."""
    c = t.draw_chance(e.tile)
    return c * t.params.pair_wait_live if e.pair_wait else c


class Valuer:
    """Values waiting hands for one decision (memoised within it)."""

    def __init__(self, t: Table, melds: MeldKey, declared: bool) -> None:
        self.t = t
        self.melds = melds
        self.declared = declared
        self._memo: dict[tuple, float] = {}

    def entries(self, counts: list[int], melds: MeldKey | None = None) -> tuple[WaitEntry, ...]:
        """:func:`wait_entries` of a concealed hand."""
        return wait_entries(bytes(counts), self.melds if melds is None else melds,
                            self.t.rules, self.t.money_key)

    def hand(self, counts: list[int], draws: int, melds: MeldKey | None = None) -> float:
        """Expected base units of the waiting hand ``counts`` with ``draws`` draws left, the
        best declaration choice later included."""
        melds = self.melds if melds is None else melds
        key = (bytes(counts), melds, draws)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._hand(counts, draws, melds)
        return found

    def _hand(self, counts: list[int], draws: int, melds: MeldKey) -> float:
        n_melds = len(melds)
        sh = shanten(counts, n_melds)
        t = self.t
        if sh <= 0:
            entries = wait_entries(bytes(counts), melds, t.rules, t.money_key)
            if self.declared:
                return ready_race(t, entries, True).value(draws)
            concealed = ready_race(t, entries, False).value(draws)
            if not t.may_declare_later(len(melds)):  # R8.13, R8.14
                return concealed
            # declaring later (with a later discard) is one draw less of the declared race
            later = ready_race(t, entries, True).value(draws - 1)
            return max(concealed, later)
        if sh == 1:
            return self._one_away(counts, draws, melds)
        return self._far(counts, draws, melds, sh)

    def _one_away(self, counts: list[int], draws: int, melds: MeldKey) -> float:
        """Every live draw that makes the hand ready, each with its best discard (R8.1 waits)."""
        t = self.t
        held = list(counts)
        for kind, tile in melds:
            held[tile] += 3 if kind == MELD_PUNG else 4
        n_melds = len(melds)
        declare = t.may_declare_later(n_melds)  # R8.13, R8.14
        hits: list[tuple[float, Race, Race]] = []
        for d in t.kinds:
            c = t.draw_chance(d)
            if not c or held[d] >= 4:
                continue
            counts[d] += 1
            try:
                if shanten(counts, n_melds) > 0:
                    continue
                best = None
                for k in t.kinds:
                    if not counts[k]:
                        continue
                    counts[k] -= 1
                    entries = wait_entries(bytes(counts), melds, t.rules, t.money_key)
                    counts[k] += 1
                    if not entries:
                        continue
                    conc = ready_race(t, entries, False)
                    decl = ready_race(t, entries, True) if declare else conc
                    score = max(conc.value(draws - 1), decl.value(draws - 1))
                    if best is None or score > best[0]:
                        best = (score, conc, decl)
                if best is not None:
                    hits.append((c, best[1], best[2]))
            finally:
                counts[d] -= 1
        return _series(hits, draws, t.hazard, t.end_money(NOT_READY))

    def _far(self, counts: list[int], draws: int, melds: MeldKey, sh: int) -> float:
        """The better of two routes, each a typical path (live effective tiles now, typical
        ones later) to a typical ready hand: the standard shape at its value potential
        (:func:`potential`: 清一色, 碰碰胡) and, without melds, 七对 (×4, one wait, R9.1)."""
        t = self.t
        p = t.params
        n_melds = len(melds)
        held = list(counts)
        for kind, tile in melds:
            held[tile] += 3 if kind == MELD_PUNG else 4
        m = potential(counts, melds)
        best = self._route(draws, standard_shanten(counts, n_melds),
                           self._live_help(counts, held, lambda c: standard_shanten(c, n_melds)),
                           m, p.typical_waits, p.far_effective)
        if not n_melds:
            sp = seven_pairs_shanten(counts)
            if sp < 3:
                singles = sum(t.live[k] for k in t.kinds if counts[k] == 1)
                quads = any(c == 4 for c in counts)
                seven = self._route(draws, sp, singles, (8 if quads else 4) * flush_factor(
                    counts, melds), 2.5, singles * 0.6)
                best = max(best, seven)
        return best

    def _live_help(self, counts: list[int], held: list[int], measure) -> int:
        """Live copies of the kinds whose draw lowers ``measure`` (a shanten function)."""
        t = self.t
        now = measure(counts)
        live = 0
        for d in t.kinds:
            if t.live[d] and held[d] < 4:
                counts[d] += 1
                if measure(counts) < now:
                    live += t.live[d]
                counts[d] -= 1
        return live

    def _route(self, draws: int, sh: int, live: int, m: int, waits_live: float,
               later_live: float) -> float:
        """A path of ``sh`` steps to ready: the first step hit by ``live`` tiles, the later
        ones by ``later_live``, to a ready hand of ×``m`` with ``waits_live`` live waits."""
        t = self.t
        share = min(waits_live, t.unseen) / t.unseen
        typical = (WaitEntry(-1, m, m if m >= t.rules.min_multiplier_discard_win else 0,
                             2 * m, 2 * m),)
        conc = _typical_race(t, typical, share, False)
        decl = _typical_race(t, typical, share, True) if t.may_declare_later(
            len(self.melds)) else conc
        level = [max(conc.value(n), decl.value(n)) for n in range(draws + 1)]
        if sh <= 0:
            return level[draws]
        comp = t.end_money(NOT_READY)
        for step in range(sh, 0, -1):
            hit = min(0.9, (t.params.first_step * live if step == sh else later_live) / t.unseen)
            stay = max(0.0, 1.0 - hit - t.hazard)
            nxt = [comp] * (draws + 1)
            for n in range(1, draws + 1):
                total, carry = 0.0, 1.0
                for r in range(1, n + 1):
                    total += carry * hit * level[n - r]
                    carry *= stay
                nxt[n] = total + carry * comp
            level = nxt
        return level[draws]


def _typical_race(t: Table, entries: tuple[WaitEntry, ...], share: float,
                  declared: bool) -> Race:
    """A ready race whose one wait stands for ``share`` of the unseen tiles, at the typical
    money of its multipliers (:meth:`Table.self_draw_money`, :meth:`Table.discard_money`)."""
    race = ready_race(t, (), declared)
    e = entries[0]
    m_self = e.declared_self_draw if declared else e.self_draw
    gain = race.gain + share * t.self_draw_money(m_self, declared)
    p_win = share
    m_dis = e.declared_discard if declared else e.discard
    if m_dis:
        for o in t.opponents:
            rate = 1.0 if t.declared[o] else (t.params.ron_declared if declared
                                              else t.params.ron_concealed)
            c = rate * share
            p_win += c
            gain += c * t.discard_money(m_dis, o, t.bao_hu_on(o, declared), declared)
    best = t.typical_cha_jiao(e.self_draw, declared)
    return Race(gain, max(0.02, race.stay - p_win),
                t.end_money(DECLARED if declared else READY, best))


def _series(hits: list[tuple[float, Race, Race]], draws: int, hazard: float,
            draw_money: float) -> float:
    """Σ over my next draws r: (no hit before) × Σ hits (chance × best ready value after r)."""
    p_hit = sum(c for c, _, _ in hits)
    stay = max(0.0, 1.0 - p_hit - hazard)
    total, carry = 0.0, 1.0
    for r in range(1, draws + 1):
        left = draws - r
        total += carry * sum(c * max(conc.value(left), decl.value(left))
                             for c, conc, decl in hits)
        carry *= stay
    return total + carry * draw_money


def flush_factor(counts: list[int], melds: MeldKey) -> int:
    """×4 for a hand all of one suit, ×3 with one tile off it, ×2 with two (toward 清一色,
    R9.1), else ×1 (concealed ``counts`` and declared ``melds``)."""
    suits = [0, 0, 0]
    off = 0
    for k, c in enumerate(counts):
        if c:
            if k >= DRAGON_BASE:
                off += c
            else:
                suits[k // 9] += c
    for kind, tile in melds:
        if tile >= DRAGON_BASE:
            off += 3
        else:
            suits[tile // 9] += 3
    off += sum(suits) - max(suits)
    return 4 - off if off <= 2 else 1


def potential(counts: list[int], melds: MeldKey) -> int:
    """The multiplier the standard shape of a far hand may reach (R9.1): ×2-×4 toward 清一色
    (:func:`flush_factor`), ×2 toward 碰碰胡 (melds, and pairs or triplets enough)."""
    m = flush_factor(counts, melds)
    n_melds = len(melds)
    if n_melds and sum(1 for c in counts if c >= 2) >= 4 - n_melds:
        m *= 2
    return m
