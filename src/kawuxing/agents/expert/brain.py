"""The expert's decisions: every legal action of a seat with its expected value in base units
and the reasons, best first (RULES.md R4-R11). The bot plays the first; hints show them all.

A discard is worth what the hand left is worth (:class:`.value.Valuer`) if nobody wins on it,
less what it pays if someone does (:func:`.danger.discard_danger`); 亮倒 compares the declared
race with the concealed one (R8); a pung or kong compares the hand after it (and its kong
money, R6) with passing; a win is its money. Only the seat's Observation is read (R13).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...engine.actions import ADDED_KONG, CONCEALED_KONG, DISCARD, KONG, PASS, PIAO, WIN, Action
from ...engine.observation import Observation
from ...engine.state import CLAIM, ROB
from ...melds import MELD_ADDED_KONG, MELD_CONCEALED_KONG, MELD_EXPOSED_KONG, MELD_PUNG, Meld
from ...scoring import DISCARD as BY_DISCARD
from ...scoring import ROBBING_KONG, SELF_DRAW, ScoringError, WinningHand, score_hand
from ...shapes import shanten
from ...tiles import tile_str, tiles_of
from ..declare import kept_waits
from .danger import Danger, discard_danger
from .table import DEFAULT_PARAMS, Params, Table, win_money
from .value import MeldKey, Valuer, ready_race

NO_DANGER = Danger(0.0, 0.0)


@dataclass(frozen=True)
class Choice:
    """One legal action with its expected value ``ev`` (base units, from now to the end of the
    hand) and ``reasons``: ``(code, params)`` pairs a client translates —

    ``win`` {money}; ``ready`` {waits: [[tile, live, ×self-draw, ×discard]], declared};
    ``shanten`` {n, live}; ``danger`` {chance, cost}; ``kong`` {money}; ``declare`` {gain};
    ``pass``; ``piao`` {edge}; ``forced`` (a declared hand discards its draw, R8.2);
    ``second`` {gap, best} (the agent plays heuristic:3's choice, rated ``gap`` base units
    below the model's ``best``, :func:`~.agent.agent_choices`); ``mc`` {declare, rest,
    rollouts} (a close 亮倒 decision settled by Monte Carlo, :func:`~.agent.monte_carlo`);
    ``rollout`` {values: [[action, mean]], rollouts} (a turn settled by rollouts of the
    candidates, :func:`~.agent.improve`).
    """

    action: Action
    ev: float
    reasons: tuple[tuple[str, dict], ...] = field(default=())
    bonus: float = field(default=0.0, compare=False)  # added to ``ev`` for the ranking only
    behind: int = field(default=0, compare=False)  # steps slower than the fastest discard

    def text(self) -> str:
        """The reasons in plain English, e.g. ``"ready on 5p (3 live, ×2/×2); danger 12%"``."""
        parts = []
        for code, p in self.reasons:
            if code == "win":
                parts.append(f"win now: {p['money']:g} base units")
            elif code == "ready":
                waits = ", ".join(f"{w} ({n} live, ×{s}" + (f"/×{d}" if d else ", self-draw only")
                                  + ")" for w, n, s, d in p["waits"])
                parts.append(("declared " if p["declared"] else "") + "ready on "
                             + (waits or "nothing live"))
            elif code == "shanten":
                parts.append(f"{p['n']} from ready, {p['live']} live tiles help")
            elif code == "danger":
                parts.append(f"danger {p['chance']:.0%} (expected loss {p['cost']:.2f})")
            elif code == "kong":
                parts.append(f"kong money {p['money']:g}")
            elif code == "declare":
                parts.append(f"亮倒 gains {p['gain']:+.2f}")
            elif code == "pass":
                parts.append("keep the hand")
            elif code == "piao":
                parts.append(f"漂 edge {p['edge']:+.2f} a unit")
            elif code == "forced":
                parts.append("a declared hand discards its draw (R8.2)")
            elif code == "second":
                parts.append(f"heuristic:3's choice, {p['gap']:.2f} below the model's best: "
                             "that close, the expert plays it")
            elif code == "mc":
                parts.append(f"played out {p['rollouts']} times: 亮倒 {p['declare']:+.2f}, "
                             f"the other {p['rest']:+.2f}")
            elif code == "rollout":
                parts.append(f"played out {p['rollouts']} times: "
                             + ", ".join(" ".join(map(str, a[1:])) + f" {v:+.2f}"
                                         for a, v in p["values"]))
        return "; ".join(parts)

    def to_json(self) -> dict:
        """``{"action": [...], "ev": 1.23, "reasons": [{"code": ..., ...}], "text": "..."}``."""
        return {"action": self.action.to_json(), "ev": round(self.ev, 3),
                "reasons": [{"code": c, **p} for c, p in self.reasons], "text": self.text()}


def rank_actions(obs: Observation, legal: list[Action], after_kong: bool = False,
                 explain: bool = False, params: Params = DEFAULT_PARAMS) -> list[Choice]:
    """Every action of ``legal`` (never empty) with its expected value, best first (ties: the
    order of ``legal``). ``after_kong``: my turn follows my own kong (杠上炮 risk on my
    discard, R9.1). ``explain``: fill the reasons (slower: hints), else only what is cheap."""
    brain = _Brain(obs, after_kong, explain, params)
    choices = brain.rank(legal)
    order = {a: i for i, a in enumerate(legal)}
    choices.sort(key=lambda c: (*(-v for v in rank_value(c)), order[c.action]))
    return choices


def _danger_of(choice: Choice) -> float:
    """The deal-in chance in a choice's reasons (0 if none)."""
    return next((p["chance"] for code, p in choice.reasons if code == "danger"), 0.0)


def rank_value(choice: Choice) -> tuple[int, float]:
    """The sort key, highest first: a discard that is ``behind`` the pace ranks below the
    others (:meth:`_Brain._keep_pace`), then ``ev + bonus``; a win now counts double and one
    more (a win in hand against the model's estimate of waiting, under 漏胡 R7.5)."""
    if choice.action.verb == WIN:
        return 0, 2 * choice.ev + 1
    return -choice.behind, choice.ev + choice.bonus


class _Brain:
    def __init__(self, obs: Observation, after_kong: bool, explain: bool,
                 params: Params) -> None:
        self.obs = obs
        self.t = Table(obs, params)
        self.me = obs.seat
        self.after_kong = after_kong
        self.explain = explain
        self.declared = obs.declared[obs.seat]
        self.melds: MeldKey = tuple((kind, tile) for kind, tile in obs.melds[obs.seat])
        self.valuer = Valuer(self.t, self.melds, self.declared)

    def rank(self, legal: list[Action]) -> list[Choice]:
        verbs = {a.verb for a in legal}
        if PIAO in verbs:
            return [self._piao(a) for a in legal]
        if self.obs.phase in (CLAIM, ROB):
            return [self._answer(a) for a in legal]
        choices = [self._turn(a, len(legal)) for a in legal]
        return self._keep_pace(choices)

    def _keep_pace(self, choices: list[Choice]) -> list[Choice]:
        """Speed first far from ready: a plain discard that leaves the hand farther from ready
        than the fastest one (two or more from ready) is ranked below every fastest discard,
        unless all of those are dangerous (chance 20 % or more): then defence decides."""
        counts = list(self.obs.concealed)
        n_melds = len(self.melds)
        steps: dict[int, int] = {}
        for c in choices:
            a = c.action
            if a.verb == DISCARD and not a.declare and a.tile not in steps:
                counts[a.tile] -= 1
                steps[a.tile] = shanten(counts, n_melds)
                counts[a.tile] += 1
        if not steps:
            return choices
        fastest = min(steps.values())
        if fastest < 1:
            return choices
        quick = [c for c in choices if c.action.verb == DISCARD and not c.action.declare
                 and steps[c.action.tile] == fastest]
        if all(_danger_of(c) >= 0.2 for c in quick):
            return choices
        out = []
        for c in choices:
            a = c.action
            if a.verb == DISCARD and not a.declare and steps[a.tile] > fastest:
                c = Choice(a, c.ev, c.reasons, c.bonus, steps[a.tile] - fastest)
            out.append(c)
        return out

    # --- 漂 (R11.1) -----------------------------------------------------------------------
    def _piao(self, a: Action) -> Choice:
        """漂 is a side bet paid with every hand value: worth raising when my hand is more
        likely to win than to pay. Edge per unit: wins × 1.3 payers − others' wins × 0.8."""
        sh = shanten(list(self.obs.concealed), 0)
        win = {0: 0.45, 1: 0.42, 2: 0.34, 3: 0.26}.get(sh, 0.2)
        edge = win * 1.3 - (0.7 - win) * 0.8
        return Choice(a, (a.piao or 0) * edge, (("piao", {"edge": round(edge, 3)}),))

    # --- my turn --------------------------------------------------------------------------
    def _turn(self, a: Action, n_legal: int) -> Choice:
        obs, t = self.obs, self.t
        counts = list(obs.concealed)
        if a.verb == WIN:
            return self._self_draw(a, counts)
        if a.verb == CONCEALED_KONG:
            return self._kong(a, counts, 4, MELD_CONCEALED_KONG, 2 * 2 * t.base, NO_DANGER)
        if a.verb == ADDED_KONG:
            danger = (discard_danger(t, a.tile, me_declared=self.declared, robbing=True)
                      if t.rules.robbing_kong else NO_DANGER)
            return self._kong(a, counts, 1, MELD_ADDED_KONG, 2 * t.base, danger)
        return self._discard(a, counts, n_legal == 1)

    def _self_draw(self, a: Action, counts: list[int]) -> Choice:
        obs, t = self.obs, self.t
        tile = obs.drawn if obs.drawn is not None else next(k for k, c in enumerate(counts) if c)
        counts[tile] -= 1
        money = self._win_money(counts, tile, SELF_DRAW, None)
        if obs.wall_left:  # R14.1: horses after a self-draw, none on an empty wall
            money += t.horse_money(tile, self.declared)
        return Choice(a, money, (("win", {"money": money}),))

    def _discard(self, a: Action, counts: list[int], forced: bool) -> Choice:
        t = self.t
        counts[a.tile] -= 1
        danger = discard_danger(t, a.tile, self.after_kong, self.declared or a.declare)
        draws = t.draws_left((self.me + 1) % 3)
        if a.declare:
            entries = self.valuer.entries(counts)
            if a.hidden:  # R8.12 still_ready: the face-down triplets may cut the waits
                kept = kept_waits(self.obs, a)
                entries = tuple(e for e in entries if e.tile in kept)
            value = ready_race(t, entries, True).value(draws)
        else:
            value = self.valuer.hand(counts, draws)
        ev = (1 - danger.chance) * value - danger.cost + 0.001 * len(a.hidden)
        bonus = t.params.declare_bonus if a.declare and not danger.certain else 0.0
        reasons = []
        if self.explain or forced:
            reasons = self._hand_reasons(counts, a.declare or self.declared)
            if a.declare:
                concealed = self.valuer.hand(counts, draws)
                reasons.append(("declare", {"gain": round(value - concealed, 3)}))
            if forced and self.declared:
                reasons.append(("forced", {}))
        if danger.chance > 0.005:
            reasons.append(("danger", {"chance": round(danger.chance, 3),
                                       "cost": round(danger.cost, 3)}))
        return Choice(a, ev, tuple(reasons), bonus)

    def _kong(self, a: Action, counts: list[int], taken: int, kind: str, money: float,
              danger: Danger) -> Choice:
        if self.after_kong:
            money *= 2  # 杠上杠 (R6.5), at least the second of the chain
        counts[a.tile] -= taken
        melds = tuple((MELD_ADDED_KONG, tile) if (k == MELD_PUNG and tile == a.tile
                                                  and kind == MELD_ADDED_KONG) else (k, tile)
                      for k, tile in self.melds)
        if kind != MELD_ADDED_KONG:
            melds += ((kind, a.tile),)
        value = self.valuer.hand(counts, self._after_replacement(), melds)
        ev = (1 - danger.chance) * (money + value) - danger.cost
        reasons = [("kong", {"money": money})]
        if self.explain:
            reasons += self._hand_reasons(counts, self.declared, melds)
        if danger.chance > 0.005:
            reasons.append(("danger", {"chance": round(danger.chance, 3),
                                       "cost": round(danger.cost, 3)}))
        return Choice(a, ev, tuple(reasons))

    def _after_replacement(self) -> int:
        """My draws after a kong: the replacement now (R4.4), then one in three of the rest."""
        wall = self.obs.wall_left - 1
        return 1 + (0 if wall <= 2 else (wall - 2 + 2) // 3)

    # --- a discard or a kong on the table -------------------------------------------------
    def _answer(self, a: Action) -> Choice:
        obs, t = self.obs, self.t
        discarder, tile, robbing = obs.table
        counts = list(obs.concealed)
        if a.verb == WIN:
            money = self._win_money(counts, tile, ROBBING_KONG if robbing else BY_DISCARD,
                                    discarder)
            return Choice(a, money, (("win", {"money": money}),))
        if a.verb == PASS:
            value = self.valuer.hand(counts, t.draws_left((discarder + 1) % 3))
            reasons = [("pass", {})] + (self._hand_reasons(counts, self.declared)
                                        if self.explain else [])
            return Choice(a, value, tuple(reasons))
        if a.verb == KONG:
            counts[tile] -= 3
            melds = self.melds + ((MELD_EXPOSED_KONG, tile),)
            money = t.rules.direct_kong_pay * t.base
            value = self.valuer.hand(counts, self._after_replacement(), melds)
            reasons = [("kong", {"money": money})]
            if self.explain:
                reasons += self._hand_reasons(counts, self.declared, melds)
            return Choice(a, money + value, tuple(reasons))
        # PUNG (R4.2): then a discard without a draw (R4.4)
        counts[tile] -= 2
        melds = self.melds + ((MELD_PUNG, tile),)
        draws = t.draws_left((self.me + 1) % 3)
        options = []
        for k in t.kinds:
            if not counts[k]:
                continue
            danger = discard_danger(t, k)
            counts[k] -= 1
            steps = shanten(counts, len(melds))
            ev = (1 - danger.chance) * self.valuer.hand(counts, draws, melds) - danger.cost
            counts[k] += 1
            options.append((steps, ev, k, danger.chance))
        # the same pace rule as in a turn (_keep_pace): far from ready, the fastest discards
        fastest = min((o[0] for o in options), default=0)
        if fastest >= 1 and any(o[3] < 0.2 for o in options if o[0] == fastest):
            options = [o for o in options if o[0] == fastest]
        best = max(((ev, k) for _, ev, k, _ in options), default=None)
        ev, k = best if best is not None else (0.0, None)
        reasons = []
        if self.explain and k is not None:
            counts[k] -= 1
            reasons = self._hand_reasons(counts, False, melds)
            counts[k] += 1
        nearer = fastest < shanten(list(obs.concealed), len(self.melds))
        return Choice(a, ev, tuple(reasons), t.params.pung_bonus if nearer else 0.0)

    # --- helpers --------------------------------------------------------------------------
    def _win_money(self, counts: list[int], tile: int, win_by: str,
                   payer: int | None) -> float:
        """What my legal win on ``tile`` (``counts`` without it) now collects, by the room's
        settlement (:func:`.table.win_money`, R18.3; ``payer`` the discarder or konger, None
        for a self-draw); a ×1 payment if it cannot be scored here."""
        t = self.t
        declared = payer is not None and t.declared[payer]
        try:
            v = score_hand(WinningHand(tuple(tiles_of(counts)), tile, win_by,
                                       tuple(Meld(k, m) for k, m in self.melds),
                                       after_kong=self.after_kong and win_by == SELF_DRAW,
                                       last_tile=self.obs.wall_left == 0,
                                       declared=self.declared, discarder_declared=declared),
                           t.rules)
        except ScoringError:
            v = None
        if v is None or not v.legal:  # the engine listed the win: price it at ×1
            return t.self_draw_money(1) if payer is None else t.discard_money(1, payer, False)
        return win_money(v, t.money_key, payer)

    def _hand_reasons(self, counts: list[int], declared: bool,
                      melds: MeldKey | None = None) -> list[tuple[str, dict]]:
        """``ready`` with its waits, or ``shanten`` with the live tiles that help."""
        t = self.t
        melds = self.melds if melds is None else melds
        sh = shanten(counts, len(melds))
        if sh <= 0:
            entries = self.valuer.entries(counts, melds)
            return [("ready", {"waits": [
                [tile_str(e.tile), t.live[e.tile],
                 e.declared_self_draw if declared else e.self_draw,
                 e.declared_discard if declared else e.discard] for e in entries],
                "declared": declared})]
        live = 0
        for d in t.kinds:
            if t.live[d]:
                counts[d] += 1
                if shanten(counts, len(melds)) < sh:
                    live += t.live[d]
                counts[d] -= 1
        return [("shanten", {"n": sh, "live": live})]
