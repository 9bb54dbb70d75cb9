"""What the expert bot reads off one :class:`Observation`: live copies, draws left, the
opponents' threat and the money of every payment, in base units (RULES.md R7-R11, R13;
VARIANTS.md R8.8-R8.10, R10.3-R10.4, R11.4-R11.5, R14-R16, R18.3).

A :class:`Table` is built once per decision and shared by the valuation
(:mod:`.value`) and the danger model (:mod:`.danger`). It uses only the seat's Observation:
another player's concealed tiles are known only when that player declared 亮倒 (R8.1, R13.1).
The money of an actual win is the project's own settlement (:func:`win_money`:
:func:`kawuxing.scoring.payments.win_transfers`, R18.3); 查叫 follows :mod:`kawuxing.scoring.cha_jiao`. The
dice and the base factor of R17 are not in the Observation, so 上楼 is not priced.
"""

from __future__ import annotations

from dataclasses import dataclass, fields as dataclass_fields

from ...scoring.cha_jiao import DECLARED, NOT_READY, READY, best_wait, payers_and_receivers
from ...engine.observation import Observation
from ...scoring.extras import SIX_HORSES, horse_tiles, horse_value
from ...melds import Meld
from ...scoring.payments import WinTable, hand_base, win_transfers
from ...scoring import HandValue, ScoringError, declared_doubling
from ...tiles import DRAGON_BASE, kinds_for_suits
from ...scoring.transfers import CHA_JIAO_MODES, draw_compensation

MoneyKey = tuple[int, tuple[bool, ...], tuple[int, ...]]  # (me, declared, piao): who pays what


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
      fold against a shown wait);
    - ``heuristic_margin``: base units within which the agent plays ``heuristic:3``'s choice
      over the model's best (:func:`~.agent.agent_choices`, the second opinion of the agent
      and of its hints; 0: never);
    - ``declare_margin``: the same where the model's best or the heuristic's choice is a 亮倒
      (R8.1): 0, the model decides 亮倒 alone (measured, docs/bots.md);
    - ``mc_rollouts``: sampled worlds (each played out once per candidate) with which the
      agent settles a close 亮倒 decision by determinised Monte Carlo
      (:mod:`.rollout`, :func:`~.agent.agent_choices`; 0: never);
    - ``mc_margin``: base units within which the model's best 亮倒 and best other action
      count as close (ranking values, bonus included);
    - ``mc_policy``: who plays the Monte Carlo's sampled worlds out, every seat:
      ``"fast"`` (:func:`.rollout.fast_policy`) or ``"heuristic"`` (heuristic:3,
      :func:`.rollout.heuristic_rollout`);
    - ``mc_switch``: sampled worlds with which a turn where the agent's choice and
      heuristic:3's (with ``mc_model`` also the model's best) differ is settled by rollouts
      (policy improvement, :func:`~.agent.improve`; 0: never);
    - ``mc_threshold``: base units by which another candidate's mean must beat the agent's
      choice there;
    - ``mc_z``: and by more than this many standard errors of the paired difference over
      the worlds (0: the mean alone decides).
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
    heuristic_margin: float = 0.5
    declare_margin: float = 0.0
    mc_rollouts: int = 0
    mc_margin: float = 1.0
    mc_policy: str = "fast"
    mc_switch: int = 0
    mc_threshold: float = 0.0
    mc_z: float = 0.0
    mc_model: bool = True


DEFAULT_PARAMS = Params()
PARAM_MAX = 1000  # the largest number a Params field may take (rollouts, bonuses, base units)
SHARES = ("ron_concealed", "ron_declared", "opp_win", "first_step", "declared_pressure",
          "pair_wait_live")  # the Params that are chances or shares: at most 1


def params_fields(fields: object) -> dict:
    """``fields`` (parsed JSON) checked as overrides of :class:`Params`: a dict of field
    names to values of each field's type (an int where a float is expected), numbers from 0
    to :data:`PARAM_MAX`, the chances and shares of :data:`SHARES` at most 1, ``mc_policy``
    ``"fast"`` or ``"heuristic"``. Raises ``ValueError`` saying which field is wrong and
    why; returns ``fields``."""
    if not isinstance(fields, dict):
        raise ValueError('a JSON object of Params fields, e.g. {"declare_bonus": 0.4}')
    names = {f.name for f in dataclass_fields(Params)}
    for name, value in fields.items():
        if name not in names:
            raise ValueError(f"{name!r} is no field of Params")
        default = getattr(DEFAULT_PARAMS, name)
        kinds = (int, float) if type(default) is float else (type(default),)
        if not isinstance(value, kinds) or isinstance(value, bool) != isinstance(default, bool):
            kind = {"int": "an int", "float": "a number", "bool": "true or false",
                    "str": "a string"}[type(default).__name__]
            raise ValueError(f"{name} must be {kind}, not {value!r}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            top = 1 if name in SHARES else PARAM_MAX
            if not 0 <= value <= top:  # NaN too
                what = "a chance or a share" if name in SHARES else "a number"
                shown = repr(value) if len(repr(value)) <= 24 else repr(value)[:20] + "..."
                raise ValueError(f"{name} is {what} from 0 to {top}, not {shown}")
        if name == "mc_policy" and value not in ("fast", "heuristic"):
            raise ValueError(f'mc_policy must be "fast" or "heuristic", not {value!r}')
    return fields


DEALT = 40  # tiles out of the wall once the hands are dealt (13 × 3 and the dealer's 14th)
END_TURNS = 14  # a player's turns in a hand that runs to the end of the wall ((84 - 40) / 3)
SELF_DRAWN = 0.5  # the share of a concealed ready opponent's wins that are self-draws
TYPICAL = 2.5  # the multiplier of a concealed opponent's win (danger, R7.3: ×2 and more)
DECLARED_GUESS = 4  # ×: a declared hand whose tiles are not all shown (亮倒 ×2, a pattern)
CHA_JIAO_TYPICAL = 2  # an undeclared ready hand's 查叫 value when its tiles are not seen (R10.3)
KAN_GUESS = 0.6  # 坎 of an unseen winning hand (R15.1), for the danger of a discard
BA_GUESS = 0.5  # 八 of an unseen winning hand (R16.2)


def ready_chance(turns: int, melds: int) -> float:
    """The chance that a concealed opponent is ready (0-0.85) after ``turns`` turns with
    ``melds`` declared melds: rises about 4.5 % a turn and 12 % a meld."""
    return max(0.0, min(0.85, -0.05 + 0.045 * turns + 0.12 * melds))


def win_money(value: HandValue, key: MoneyKey, payer: int | None = None) -> float:
    """What I (``key[0]``) collect for the legal win ``value``, in base units, by the room's
    settlement (R18.3, :func:`~kawuxing.scoring.payments.win_transfers`): R8.8 doubling per payer,
    包胡 or not (R8.4, R8.9), R8.10, 坎 (R15), 跑恰摸八 (R16), 漂 (R11, R11.4-R11.5); no horses
    (their tiles are not known yet: :meth:`Table.horse_money`). ``payer``: the discarder (or
    konger); None for a self-draw (both others pay, R7.2). ``key``: (me, each seat's 亮倒,
    each seat's 漂); my own 亮倒 is the hand's."""
    me, declared, piao = key
    payers = [s for s in range(3) if s != me] if payer is None else [payer]
    seats = tuple(value.hand.declared if s == me else declared[s] for s in range(3))
    paid = win_transfers(value, me, payers, table=WinTable(seats, piao))
    return float(sum(t.amount for t in paid if t.payee == me))


@dataclass(frozen=True)
class _Seat:
    """A seat as :mod:`kawuxing.scoring.cha_jiao` reads it (its ``Seat`` protocol), built from what I
    know: my own hand, or a declared opponent's shown one."""

    concealed: list[int]
    melds: list[Meld]
    declared: bool
    waits: tuple[int, ...]
    hidden: tuple = ()
    piao: int | None = 0

    def held(self) -> list[int]:
        """Concealed tiles and melds (counts vector)."""
        held = list(self.concealed)
        for m in self.melds:
            held[m.tile] += m.size
        return held


def cha_jiao_value(counts: list[int], melds: tuple[Meld, ...], waits: tuple[int, ...],
                   declared: bool, payer_declared: bool, rules) -> int:
    """The 查叫 multiplier (R10.3, R10.5, :func:`kawuxing.scoring.cha_jiao.best_wait`) a ready hand
    collects from one payer; 0 when it has no wait or cannot be scored."""
    try:
        best = best_wait(_Seat(list(counts), list(melds), declared, waits), payer_declared,
                         rules)
    except ScoringError:
        return 0
    return 0 if best is None else best[2]


class Table:
    """Per-decision facts for ``obs.seat`` (called *me* below).

    - ``live[k]``: copies of kind k I have not seen (R13: 4 − visible); ``unseen``: their sum
      (the wall and the concealed opponents' hands), at least 1.
    - ``opponents``: the two other seats; ``declared[s]``, ``waits[s]`` as observed.
    - ``ready[s]``: the chance each opponent is ready (1 for a declared one);
      ``end_ready[s]``: that it is ready when the wall runs out (查叫, R10.3).
    - ``hazard``: chance per round that the hand ends by an opponent's win (not on my tiles);
      ``declared_loss``: what my 亮倒 adds per round to what I pay for the opponents'
      self-draws (R8.8 ``either``/``each``; 0 under ``winner``).
    - ``base``: 底金; ``piao[s]``: each seat's 漂 (0 while unknown); ``money_key``: who pays
      what (:func:`win_money`).
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
        self.money_key: MoneyKey = (self.me, tuple(obs.declared), self.piao)
        self.flush_suits: dict[int, int | None] = {}  # opponent -> suit it collects (danger)
        self._horses: dict[int | None, float] = {}
        self._receivers: dict[tuple[int, bool], float] = {}
        self._ends: dict[tuple[str, tuple[int, int]], float] = {}
        self.ready = {}
        self.end_ready = {}
        hazard = loss = 0.0
        for o in self.opponents:
            if obs.declared[o]:
                self.ready[o] = self.end_ready[o] = 1.0
                # a declared opponent self-draws its waits; the third player may feed it
                chance = sum(live[w] for w in obs.waits[o]) / self.unseen
                hazard += chance * (1.0 + params.ron_declared)
                drawn, typical = chance, DECLARED_GUESS
            else:
                melds = len(obs.melds[o])
                turns = max(len(obs.discards[o]), (84 - DEALT - obs.wall_left) // 3)
                self.ready[o] = ready_chance(turns, melds)
                self.end_ready[o] = ready_chance(max(turns, END_TURNS), melds)
                hazard += self.ready[o] * params.opp_win
                drawn, typical = self.ready[o] * params.opp_win * SELF_DRAWN, TYPICAL
            extra = declared_doubling(self.rules, True, obs.declared[o]) - 1  # R8.8
            loss += drawn * extra * self.base * typical
        self.hazard = min(0.6, hazard)
        self.declared_loss = loss

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

    def piao_money(self, payer: int, shares: int = 1, winner: int | None = None) -> float:
        """漂 ``payer`` adds to a win of ``winner`` (default me), in base units:
        piao(payer) + piao(winner) once, or under 包胡 with R11.5 ``per_share`` once per share
        (the third seat's 漂 in the second); × base under R11.4."""
        winner = self.me if winner is None else winner
        units = self.piao[payer] + self.piao[winner]
        if shares == 2 and self.rules.piao_bao_hu == "per_share":
            units += self.piao[3 - winner - payer] + self.piao[winner]
        return units * (self.base if self.rules.piao_times_base else 1)

    def extras_guess(self) -> float:
        """The extras an unseen hand's win on a discard adds per share (R15 坎, R16 跑恰
        八: :data:`KAN_GUESS`, :data:`BA_GUESS`), in base units (× base unless R18.2)."""
        rules = self.rules
        units = KAN_GUESS if rules.shu_kan == "on" else 0.0
        if rules.pao_qia_mo_ba == "on":
            units += 1 + KAN_GUESS + BA_GUESS
        return units * (self.base if rules.extras_times_base else 1)

    def may_declare_later(self, n_melds: int) -> bool:
        """Whether a 亮倒 with a later discard may still be allowed (the engine decides when it
        comes, engine/legal.py): R8.14 ``declare_requires_concealed`` (no declared meld) and
        R8.13 ``declare_min_wall`` (the wall at my next turn, three tiles on)."""
        rules = self.rules
        if rules.declare_requires_concealed and n_melds:
            return False
        return self.obs.wall_left - 3 >= rules.declare_min_wall

    def horses_for(self, me_declared: bool) -> bool:
        """Whether my self-draw win takes horses (R14.1 ``horse_buy``)."""
        buy = self.rules.horse_buy
        return buy == "self_draw" or (buy == "declared_self_draw" and me_declared)

    def horse_money(self, win_tile: int | None, me_declared: bool) -> float:
        """The expected horses (R14.1-R14.2) both payers add to my self-draw on ``win_tile``
        (None: a typical one), in base units (× base unless R18.2), the horse tiles being
        unseen ones (live copies over unseen): ``one`` the mean value of a tile (a dragon 10),
        ``one_plus_one`` with a 1's extra tile, ``six`` six chances of the winning tile's
        class (1-4-7, 2-5-8, 3-6-9, dragons) and 6 if none scores. 0 without horses."""
        if not self.horses_for(me_declared):
            return 0.0
        if win_tile not in self._horses:
            if win_tile is None:  # a typical winning tile: the three rank classes alike
                worth = sum(self._horse_value(k) for k in (0, 1, 2)) / 3
            else:
                worth = self._horse_value(win_tile)
            unit = hand_base(self.rules, 1) if self.rules.extras_times_base else 1
            self._horses[win_tile] = 2 * worth * unit
        return self._horses[win_tile]

    def _horse_value(self, win_tile: int) -> float:
        """The expected value of the horses of a win on ``win_tile`` (R14.2), in units."""
        kind = self.rules.horse_kind
        chances = [(k, self.draw_chance(k)) for k in self.kinds if self.live[k]]
        if kind == "six":
            q = sum(c * horse_value(kind, (k,), win_tile) for k, c in chances)
            return SIX_HORSES * q + SIX_HORSES * (1 - q) ** SIX_HORSES
        total = 0.0
        for k, c in chances:
            if len(horse_tiles(kind, (k, k))) == 2:  # a 1 brings one more tile (买一送一)
                total += c * sum(d * horse_value(kind, (k, x), win_tile) for x, d in chances)
            else:
                total += c * horse_value(kind, (k,), win_tile)
        return total

    def share_money(self, multiplier: float, payer: int, me_declared: bool) -> float:
        """One share of a typical win of mine of ``multiplier`` paid by ``payer``: × R8.8's
        doubling for a declared payer (:func:`~kawuxing.scoring.declared_doubling`)."""
        return self.base * multiplier * declared_doubling(self.rules, self.declared[payer],
                                                          me_declared)

    def self_draw_money(self, multiplier: float, me_declared: bool = False) -> float:
        """What I collect for a typical self-drawn win of ``multiplier`` (R7.2: both others
        pay; R8.8 per payer, 漂, expected horses R14). An actual hand: :func:`win_money`."""
        return sum(self.share_money(multiplier, o, me_declared) + self.piao_money(o)
                   for o in self.opponents) + self.horse_money(None, me_declared)

    def discard_money(self, multiplier: float, payer: int, bao_hu: bool,
                      me_declared: bool = False) -> float:
        """What ``payer`` pays me for a typical win of ``multiplier`` on their tile (R7.2;
        包胡 two shares, R8.4, R9.7, each share with its owner's R8.8 doubling, U12)."""
        money = self.share_money(multiplier, payer, me_declared)
        if bao_hu:
            money += self.share_money(multiplier, 3 - self.me - payer, me_declared)
        return money + self.piao_money(payer, 2 if bao_hu else 1)

    def bao_hu_on(self, payer: int, me_declared: bool) -> bool:
        """Whether my win on ``payer``'s tile is 包胡 (R8.4, R8.5 ``mutual_declared``, R8.9
        ``bao_hu`` none)."""
        if not me_declared or self.rules.bao_hu == "none":
            return False
        return not (self.rules.mutual_declared == "single" and self.declared[payer])

    def compensation(self, me_declared: bool) -> float:
        """My share of the 荒庄 compensation of R10.2/R10.3 (``per_declarer``,
        ``first_declarer``, ``first_declarer_2``) if the wall runs out now, with or without my
        declaration (the others' as observed; order of declaring: theirs first); 0 under 查叫
        (:meth:`end_money` prices it)."""
        if self.rules.draw_compensation in CHA_JIAO_MODES:
            return 0.0
        declarers = [o for o in self.opponents if self.declared[o]]
        if me_declared:
            declarers.append(self.me)
        total = 0.0
        for t in draw_compensation(declarers, self.rules.draw_compensation, self.base):
            total += t.amount * ((t.payee == self.me) - (t.payer == self.me))
        return total

    def end_money(self, mine: str, best: tuple[int, int] = (0, 0)) -> float:
        """My expected money if the wall runs out with my hand of class ``mine`` (R10.3:
        ``declared`` 亮, ``ready`` 听, ``not_ready`` 未听): :meth:`compensation` outside 查叫;
        under ``cha_jiao``/``cha_jiao_flat`` the payments of
        :func:`kawuxing.scoring.cha_jiao.payers_and_receivers` (R10.4), an undeclared opponent being
        ready with its :attr:`end_ready` chance. ``best``: my 查叫 multiplier from an
        undeclared and from a declared payer (R10.5). A declared opponent's value is its
        shown hand's; an unseen one's :data:`CHA_JIAO_TYPICAL`. Order of declaring: theirs
        first. R10.6 extras are not priced."""
        key = (mine, best)
        found = self._ends.get(key)
        if found is None:
            found = self._ends[key] = self._end_money(mine, best)
        return found

    def _end_money(self, mine: str, best: tuple[int, int]) -> float:
        rules = self.rules
        if rules.draw_compensation not in CHA_JIAO_MODES:
            return self.compensation(mine == DECLARED)
        flat = rules.draw_compensation == "cha_jiao_flat"
        order = [o for o in self.opponents if self.declared[o]]
        if mine == DECLARED:
            order.append(self.me)
        me_declared = mine == DECLARED
        open_ = [o for o in self.opponents if not self.declared[o]]
        total = 0.0
        for mask in range(1 << len(open_)):
            kinds = [mine] * 3
            chance = 1.0
            for o in self.opponents:
                kinds[o] = DECLARED if self.declared[o] else None
            for i, o in enumerate(open_):
                ready = bool(mask >> i & 1)
                kinds[o] = READY if ready else NOT_READY
                chance *= self.end_ready[o] if ready else 1 - self.end_ready[o]
            if not chance:
                continue
            money = 0.0
            for payer, receiver in payers_and_receivers(kinds, order, rules):
                if receiver == self.me:
                    money += self.base * (1 if flat else best[self.declared[payer]])
                elif payer == self.me:
                    money -= self.base if flat else self._receiver_value(receiver, me_declared)
            total += chance * money
        return total

    def _receiver_value(self, o: int, me_declared: bool) -> float:
        """What I pay opponent ``o`` under ``cha_jiao`` (R10.3, R10.5), in base units."""
        key = (o, me_declared)
        if key not in self._receivers:
            obs, rules = self.obs, self.rules
            shown = obs.revealed[o]
            m = 0
            if self.declared[o] and shown is not None and not obs.hidden_tiles[o] \
                    and all(tile is not None for _, tile in obs.melds[o]):
                m = cha_jiao_value(list(shown), tuple(Meld(k, t) for k, t in obs.melds[o]),
                                   obs.waits[o], True, me_declared, rules)
            if not m:
                doubling = 1
                if rules.cha_jiao_doubling == "r8_8":  # R10.5
                    doubling = (2 if self.declared[o] else 1) * declared_doubling(
                        rules, me_declared, self.declared[o])
                m = CHA_JIAO_TYPICAL * doubling
                if rules.cap is not None:
                    m = min(m, rules.cap)
            self._receivers[key] = self.base * m
        return self._receivers[key]

    def typical_cha_jiao(self, multiplier: int, me_declared: bool) -> tuple[int, int]:
        """My 查叫 multiplier (R10.3, R10.5) from an undeclared and a declared payer for a
        typical ready hand of ``multiplier``, capped: :meth:`end_money`'s ``best``."""
        rules = self.rules
        out = []
        for payer_declared in (False, True):
            m = multiplier
            if rules.cha_jiao_doubling == "r8_8":
                m *= (2 if me_declared else 1) * declared_doubling(rules, payer_declared,
                                                                   me_declared)
            out.append(m if rules.cap is None else min(m, rules.cap))
        return out[0], out[1]

    def is_five(self, kind: int) -> bool:
        """A 5 of a suit: the 卡五星 tile (R9.1)."""
        return kind < DRAGON_BASE and kind % 9 == 4
