"""Where one bot wins or loses money against another in duplicate play (issue 11).

Plays the deals of ``kawuxing arena`` (the same walls, dealers, arrangements and agent seeds
as :func:`kawuxing.arena.play_deal`) and splits each bot's mean seat score per hand into
categories, in base units: ``won`` (what it collects for its wins: hand value, 包胡, 漂,
horses and the extras), ``dealt_in`` (what it pays for a win on its discard or robbed kong,
包胡 included), ``self_draws`` (what it pays for the others' self-draws), ``kongs`` (kong money
net, R6) and ``draw`` (荒庄 compensation or 查叫 net, R10). Per bot also its decisions per
seat-hand: 亮倒 and the wall then, pungs, kongs, wins taken. The duplicate difference of a
category is the mean over deals of (a's mean − b's mean), as the arena's ``mean_diff``.

``--params name=value,...`` overrides the expert's :class:`~kawuxing.agents.expert.table.Params`
and ``--out FILE`` writes each deal's total difference (JSON), to compare two variants on the
same deals (paired); a bot ``mix:turn`` or ``mix:claim`` (``+declare``) plays the expert's
choice in those phases and heuristic:3's in the others (:class:`Mix`).

    .venv/bin/python tools/arena_breakdown.py --bots expert,heuristic:3 --deals 100 --seed 7
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from kawuxing.agents import make_agent
from kawuxing.agents.expert import ExpertAgent
from kawuxing.agents.expert.table import DEFAULT_PARAMS, params_fields
from kawuxing.arena import arrangements, check_arena_bots, mean_ci
from kawuxing.cli.common import ToolParser, rules_from
from kawuxing.engine import Hand
from kawuxing.engine.actions import (ADDED_KONG, CONCEALED_KONG, DISCARD, KONG, PASS, PUNG,
                                     WIN, Action)
from kawuxing.engine.observation import observe
from kawuxing.scoring import SELF_DRAW
from kawuxing.scoring.transfers import (CHA_JIAO, DRAW_COMPENSATION, KONG_ADDED, KONG_CONCEALED,
                                KONG_EXPOSED)

CATEGORIES = ("won", "dealt_in", "self_draws", "kongs", "draw")
KONG_KINDS = (KONG_ADDED, KONG_CONCEALED, KONG_EXPOSED)
DRAW_KINDS = (DRAW_COMPENSATION, CHA_JIAO)
MIX_PHASES = {"turn", "claim", "declare"}  # of a bot ``mix:PHASE[+PHASE]`` (:class:`Mix`)


class Mix:
    """Experiment: the expert for the phases in ``which`` (``turn``, ``claim``, ``declare``),
    ``heuristic:3`` for the others (both are asked every time: they keep state)."""

    def __init__(self, which: str, seed: str, params: dict) -> None:
        self.which = set(which.split("+"))
        self.e = ExpertAgent(seed, replace(DEFAULT_PARAMS, **params))
        self.h = make_agent("heuristic:3", seed)

    def act(self, obs, legal):
        e, h = self.e.act(obs, legal), self.h.act(obs, legal)
        phase = "claim" if obs.phase in ("claim", "rob") else "turn"
        if phase in self.which:
            return e
        if "declare" in self.which and phase == "turn" and (e.declare or h.declare):
            return e
        return h


def agent(spec: str, seed: str, params: dict):
    """The registry's agent of ``spec``; ``expert`` with ``params`` overriding its defaults."""
    if spec.startswith("mix:"):
        return Mix(spec[4:], seed, params)
    if spec == "expert" and params:
        return ExpertAgent(seed, replace(DEFAULT_PARAMS, **params))
    return make_agent(spec, seed)


def seat_money(hand: Hand) -> list[dict[str, float]]:
    """Per seat, its net money of the finished ``hand`` by :data:`CATEGORIES`."""
    out = [dict.fromkeys(CATEGORIES, 0.0) for _ in range(3)]
    self_draw = any(v.win_by == SELF_DRAW for v in hand.values.values())
    for t in hand.transfers:
        if t.kind in KONG_KINDS:
            cat_in = cat_out = "kongs"
        elif t.kind in DRAW_KINDS:
            cat_in = cat_out = "draw"
        else:  # the money of a win: hand value, 包胡, 漂, horses, 坎, 跑恰摸八
            cat_in, cat_out = "won", "self_draws" if self_draw else "dealt_in"
        out[t.payee][cat_in] += t.amount
        out[t.payer][cat_out] -= t.amount
    return out


def play(args: tuple) -> dict:
    """One deal in every arrangement: per bot, its category sums and decision counts."""
    preset, bots, seed, deal, params = args
    rules = rules_from(preset, None)
    wall_seed = f"{seed}/deal/{deal}"
    money = {b: defaultdict(float) for b in bots}
    counts = {b: defaultdict(float) for b in bots}
    for seats in arrangements(bots):
        agents = [agent(spec, f"{wall_seed}/seat/{s}", params) for s, spec in enumerate(seats)]
        hand = Hand.deal(rules, deal % 3, seed=wall_seed, windows=False)
        while not hand.ended:
            seat = hand.to_act()[0]
            if seat in hand.idle_seats():
                hand.apply(Action(seat, PASS))
                continue
            legal = hand.legal_actions(seat)
            action = agents[seat].act(observe(hand, seat), legal)
            c = counts[seats[seat]]
            if action.verb == DISCARD and action.declare:
                c["declare"] += 1
                c["declare_wall"] += hand.wall_left
            if any(a.verb == PUNG for a in legal):
                c["pung_offered"] += 1
            c["pung"] += action.verb == PUNG
            c["kong"] += action.verb in (KONG, CONCEALED_KONG, ADDED_KONG)
            c["win"] += action.verb == WIN
            c["win_passed"] += action.verb != WIN and any(a.verb == WIN for a in legal)
            hand.apply(action)
        for seat, m in enumerate(seat_money(hand)):
            for k, v in m.items():
                money[seats[seat]][k] += v
            money[seats[seat]]["total"] += hand.deltas[seat]
            counts[seats[seat]]["hands"] += 1
    return {"money": {b: dict(v) for b, v in money.items()},
            "counts": {b: dict(v) for b, v in counts.items()}}


def main() -> None:
    ap = ToolParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="expert,heuristic:3")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--params", default="", help="expert Params overrides: name=value,...")
    ap.add_argument("--out", help="write each deal's total difference (JSON list) here")
    ns = ap.parse_args()
    if min(ns.deals, ns.workers) < 1:
        ap.error("--deals and --workers must be at least 1")
    bots = [b.strip() for b in ns.bots.split(",")]
    if len(bots) != 2:
        ap.error(f"--bots: two bots, not {ns.bots!r}")
    params: dict = {}
    try:
        mixes = {}
        for i, b in enumerate(bots):
            if b.startswith("mix:"):
                phases = set(b[4:].split("+"))
                if not phases <= MIX_PHASES:
                    raise ValueError(f"{b!r}: mix: takes {', '.join(sorted(MIX_PHASES))}")
                bots[i] = "mix:" + "+".join(sorted(phases))
                mixes[bots[i]] = Mix
        check_arena_bots(bots, mixes)
        for item in filter(None, ns.params.split(",")):
            name, sep, value = item.partition("=")
            if not sep:
                raise ValueError(f"--params: {item!r} is no name=value")
            try:
                params[name.strip()] = json.loads(value)  # a number, true, false
            except ValueError:
                params[name.strip()] = value.strip()  # a string (mc_policy)
        try:
            params_fields(params)
        except ValueError as exc:
            raise ValueError(f"--params: {exc}") from None
        if params and not any(b == "expert" or b.startswith("mix:") for b in bots):
            raise ValueError("--params: neither bot is the expert")
        rules_from(ns.rules, None)
    except ValueError as exc:  # RulesError is one
        ap.error(str(exc))
    ap.check_output(ns.out, "--out")  # before the run, not after it
    jobs = [(ns.rules, bots, ns.seed, d, params) for d in range(ns.deals)]
    with ProcessPoolExecutor(ns.workers) as pool:
        results = list(pool.map(play, jobs))
    a, b = bots[0], bots[1]
    print(f"{a} − {b}, {ns.deals} deals, seed {ns.seed}, rules {ns.rules} {params or ''} "
          "(base units a hand; 95% CI over deals)")
    for cat in (*CATEGORIES, "total"):
        diffs = []
        for r in results:
            ha, hb = r["counts"][a]["hands"], r["counts"][b]["hands"]
            diffs.append(r["money"][a].get(cat, 0.0) / ha - r["money"][b].get(cat, 0.0) / hb)
        mean, ci = mean_ci(diffs)
        if cat == "total" and ns.out:
            with open(ns.out, "w") as f:
                json.dump(diffs, f)
        per = {x: statistics.fmean(r["money"][x].get(cat, 0.0) / r["counts"][x]["hands"]
                                   for r in results) for x in bots}
        ci_s = f"[{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else ""
        print(f"  {cat:11s} {mean:+.3f} {ci_s:18s} " + "  ".join(
            f"{x}: {v:+.3f}" for x, v in per.items()))
    for x in bots:
        tot = defaultdict(float)
        for r in results:
            for k, v in r["counts"][x].items():
                tot[k] += v
        hands = tot["hands"]
        wall = tot["declare_wall"] / tot["declare"] if tot["declare"] else 0.0
        print(f"  {x}: per hand declare {tot['declare'] / hands:.3f} (wall {wall:.1f}), "
              f"pung {tot['pung'] / hands:.3f} of {tot['pung_offered'] / hands:.3f} offered, "
              f"kong {tot['kong'] / hands:.3f}, win {tot['win'] / hands:.3f} "
              f"(passed {tot['win_passed'] / hands:.3f})")


if __name__ == "__main__":
    main()
