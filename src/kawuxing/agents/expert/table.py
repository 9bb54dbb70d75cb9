"""What the expert bot reads off one :class:`Observation`: live copies, draws left, the
opponents' threat and the money of every payment, in base units (RULES.md R7-R11, R13).

A :class:`Table` is built once per decision and shared by the valuation
(:mod:`.value`) and the danger model (:mod:`.danger`). It uses only the seat's Observation:
another player's concealed tiles are known only when that player declared 亮倒 (R8.1, R13.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.observation import Observation
from ...tiles import DRAGON_BASE, kinds_for_suits
from ...transfers import CHA_JIAO_MODES, draw_compensation


@dataclass(frozen=True)
class Params:
    """The constants of the model (rates per round of play; see :class:`Table`).

    - ``ron_concealed``: chance per round that a concealed opponent discards a given live tile
      into a *hidden* wait, as a fraction of that tile's draw chance;
    - ``ron_declared``: the same into a *declared* wait (they see it and keep it, unless forced);
    - ``opp_win``: chance per round that a concealed opponent who is ready wins;
    - ``far_effective``: typical live effective tiles of a hand two or more from ready;
    - ``typical_waits``: typical live waits of the ready hand a far hand reaches;
    - ``first_step``: the share of a far hand's helping draws that lead to a good shape;
    - ``pair_wait_live``: the share of a 七对 wait's live copies that can still come (the
      others are likely kept in an opponent's hand: it is a tile nobody let go);
    - ``declare_bonus``, ``pung_bonus``: base units added to the ranking (not the shown value)
      of a 亮倒 and of a pung that brings the hand nearer to ready: the model undervalues both
      (measured by paired rollouts of the decisions where the expert and the heuristic differ,
      see docs/bots.md);
    - ``declared_pressure``: how much of the opponents' threat is left once I declare (they
      fold against a shown wait).
    """

    ron_concealed: float = 0.45
    ron_declared: float = 0.06
    opp_win: float = 0.09
    far_effective: float = 12.0
    typical_waits: float = 3.0
    first_step: float = 0.6
    declared_pressure: float = 0.7
    pair_wait_live: float = 0.6
    declare_bonus: float = 0.8
    pung_bonus: float = 0.8


DEFAULT_PARAMS = Params()


DEALT = 40  # tiles out of the wall once the hands are dealt (13 × 3 and the dealer's 14th)


def ready_chance(turns: int, melds: int) -> float:
    """The chance that a concealed opponent is ready (0-0.85) after ``turns`` turns with
    ``melds`` declared melds: rises about 4.5 % a turn and 12 % a meld."""
    return max(0.0, min(0.85, -0.05 + 0.045 * turns + 0.12 * melds))


class Table:
    """Per-decision facts for ``obs.seat`` (called *me* below).

    - ``live[k]``: copies of kind k I have not seen (R13: 4 − visible); ``unseen``: their sum
      (the wall and the concealed opponents' hands), at least 1.
    - ``opponents``: the two other seats; ``declared[s]``, ``waits[s]`` as observed.
    - ``ready[s]``: the chance each opponent is ready (1 for a declared one).
    - ``hazard``: chance per round that the hand ends by an opponent's win (not on my tiles).
    - ``base``: 底金; ``piao[s]``: each seat's 漂 (0 while unknown).
    """

    def __init__(self, obs: Observation, params: Params = DEFAULT_PARAMS) -> None:
        self.obs = obs
        self.rules = obs.rules
        self.params = params
        self.me = obs.seat
        self.kinds = kinds_for_suits(obs.rules.suits)
        live = [0] * len(obs.visible)
        for k in self.kinds:
            live[k] = max(0, 4 - obs.visible[k])
        self.live = live
        self.unseen = max(1, sum(live))
        self.base = obs.rules.base
        self.opponents = ((obs.seat + 1) % 3, (obs.seat + 2) % 3)
        self.declared = obs.declared
        self.piao = tuple(p or 0 for p in obs.piao)
        self.flush_suits: dict[int, int | None] = {}  # opponent -> suit it collects (danger)
        self.ready = {}
        hazard = 0.0
        for o in self.opponents:
            if obs.declared[o]:
                self.ready[o] = 1.0
                # a declared opponent self-draws its waits; the third player may feed it
                chance = sum(live[w] for w in obs.waits[o]) / self.unseen
                hazard += chance * (1.0 + params.ron_declared)
            else:
                melds = len(obs.melds[o])
                turns = max(len(obs.discards[o]), (84 - DEALT - obs.wall_left) // 3)
                self.ready[o] = ready_chance(turns, melds)
                hazard += self.ready[o] * params.opp_win
        self.hazard = min(0.6, hazard)

    def draws_left(self, next_drawer: int) -> int:
        """My draws before the wall is empty, if ``next_drawer`` draws next (R3.2): one in
        three of the ``wall_left`` tiles, pungs and kongs aside."""
        offset = (self.me - next_drawer) % 3
        wall = self.obs.wall_left
        return 0 if wall <= offset else (wall - offset + 2) // 3

    def draw_chance(self, kind: int) -> float:
        """The chance that one draw is ``kind`` (its live copies over all unseen tiles)."""
        return self.live[kind] / self.unseen

    def piao_units(self, payer: int) -> int:
        """漂 units a payer adds to a payment of a hand value to me (R11.1)."""
        return self.piao[payer] + self.piao[self.me]

    def self_draw_money(self, multiplier: int) -> float:
        """What I collect for a self-drawn win of ``multiplier`` (R7.2: both others pay)."""
        return sum(self.base * multiplier + self.piao_units(o) for o in self.opponents)

    def discard_money(self, multiplier: int, payer: int, bao_hu: bool) -> float:
        """What ``payer`` pays me for a win on their tile (R7.2; 包胡 doubles it, R8.4, R9.7)."""
        return self.base * multiplier * (2 if bao_hu else 1) + self.piao_units(payer)

    def bao_hu_on(self, payer: int, me_declared: bool) -> bool:
        """Whether my win on ``payer``'s tile is 包胡 (R8.4, R8.5 ``mutual_declared``)."""
        if not me_declared:
            return False
        return not (self.rules.mutual_declared == "single" and self.declared[payer])

    def compensation(self, me_declared: bool) -> float:
        """My share of the 荒庄 compensation (R10.2) if the wall runs out now, with or without
        my declaration (the others' as observed; order of declaring: theirs first). 0 under
        查叫 (R10.3 ``cha_jiao``/``cha_jiao_flat``): it depends on hands the bot cannot see."""
        if self.rules.draw_compensation in CHA_JIAO_MODES:
            return 0.0
        declarers = [o for o in self.opponents if self.declared[o]]
        if me_declared:
            declarers.append(self.me)
        total = 0.0
        for t in draw_compensation(declarers, self.rules.draw_compensation, self.base):
            total += t.amount * ((t.payee == self.me) - (t.payer == self.me))
        return total

    def is_five(self, kind: int) -> bool:
        """A 5 of a suit: the 卡五星 tile (R9.1)."""
        return kind < DRAGON_BASE and kind % 9 == 4
