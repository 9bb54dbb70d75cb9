"""Price a change of the expert's Params decision by decision (issue 11), far more precisely
than a duplicate arena: the expert (default Params) plays seat ``(deal + deal // 3) % 3`` of
each deal (the dealer's, the next and the one before in turn: the dealer is ``deal % 3``)
against two ``heuristic:3``; at every decision where a variant (``--params``) would choose
otherwise, both choices are played out from the *true* position — every hand as it is, only
the wall's order reshuffled (``--worlds`` times, the same orders for both) — with the default
expert in the seat and ``heuristic:3`` in the others, and the game goes on with the default's
choice. The variant's gain is the sum over its differing decisions of (its choice − the
default's), in base units per seat-hand of the expert, with a 95% CI over deals.

With ``--regret N`` it prices the default's own choices instead: at each, its ``N`` best
choices are played out alike, and it counts where another leads by more than 2.5 standard
errors (noise alone gives about 1.5 % of the comparisons with 12 worlds: Student's t, 11
degrees of freedom).

With ``--ceiling N`` it estimates what a one-step improvement could gain knowing the
position: at each of the default's choices its ``N`` best are played out in ``--worlds``
orders, the best mean is picked, and the pick is priced against the default's choice in as
many *other* orders (per seat-hand, 95% CI over deals).

This is an analysis tool: it reads the hidden tiles (the bots themselves never do, R13).

    nice .venv/bin/python tools/decision_probe.py --params '{"mc_rollouts": 32}' \\
        --deals 300 --seed 5000 --workers 2
    nice .venv/bin/python tools/decision_probe.py --regret 4 --worlds 12 --deals 80 \\
        --seed 7000 --workers 2
    nice .venv/bin/python tools/decision_probe.py --ceiling 3 --worlds 12 --deals 100 \\
        --seed 7000 --workers 2
"""

from __future__ import annotations

import json
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from kawuxing.agents import make_agent
from kawuxing.agents.expert import ExpertAgent
from kawuxing.agents.expert.agent import agent_choices
from kawuxing.agents.expert.table import DEFAULT_PARAMS, params_fields
from kawuxing.agents.heuristic import HeuristicAgent
from kawuxing.arena import mean_ci
from kawuxing.cli.common import ToolParser
from kawuxing.engine import Hand
from kawuxing.engine.actions import PASS, Action
from kawuxing.engine.observation import observe
from kawuxing.melds import MELD_PUNG
from kawuxing.rules import RuleSet

AHEAD = 2.5  # standard errors by which another choice must lead (--regret)


def play_out(hand: Hand, me: int, action: Action, order_seed: str) -> int:
    """``me``'s money over the rest of the hand after ``action``, the wall reshuffled by
    ``order_seed`` (base units, ``hand.deltas``)."""
    world = hand.clone()
    rest = world._draws[world._next:]
    random.Random(order_seed).shuffle(rest)
    world._draws = world._draws[:world._next] + rest
    expert = ExpertAgent()
    expert._kongs = sum(1 for kind, _ in observe(hand, me).melds[me] if kind != MELD_PUNG)
    expert._wall = hand.wall_left
    agents = [expert if s == me else HeuristicAgent(3) for s in range(3)]
    world.apply(action)
    while not world.ended:
        seat = world.to_act()[0]
        legal = world.legal_actions(seat)
        world.apply(legal[0] if len(legal) == 1
                    else agents[seat].act(observe(world, seat), legal))
    return world.deltas[me]


def expert_seat(deal: int) -> int:
    """The expert's seat in deal ``deal``: the dealer's (``deal % 3``, the arena's) in deals
    0-2, the next seat's in 3-5, the one before's in 6-8, and so on."""
    return (deal + deal // 3) % 3


def expert_choices(seed: int, deal: int):
    """Play deal ``deal`` of ``seed`` (the arena's wall and dealer) with the default expert in
    seat :func:`expert_seat` and ``heuristic:3`` in the others, yielding ``(hand, seat, obs, legal,
    action)`` before each of the expert's actions is applied."""
    wall_seed = f"{seed}/deal/{deal}"
    me = expert_seat(deal)
    agents = [make_agent("heuristic:3", f"{wall_seed}/seat/{s}") for s in range(3)]
    agents[me] = ExpertAgent()
    hand = Hand.deal(RuleSet.preset(), deal % 3, seed=wall_seed, windows=False)
    while not hand.ended:
        seat = hand.to_act()[0]
        if seat in hand.idle_seats():
            hand.apply(Action(seat, PASS))
            continue
        obs, legal = observe(hand, seat), hand.legal_actions(seat)
        action = agents[seat].act(obs, legal)
        if seat == me:
            yield hand, me, obs, legal, action
        hand.apply(action)


def probe_deal(args: tuple) -> tuple[float, int, list[dict]]:
    """One deal: (gain of the variant, decisions compared, the differing ones)."""
    seed, deal, fields, worlds = args
    variant = ExpertAgent(params=replace(DEFAULT_PARAMS, **fields))
    gain, compared, rows = 0.0, 0, []
    for hand, me, obs, legal, action in expert_choices(seed, deal):
        other = variant.act(obs, legal)
        compared += len(legal) > 1
        if other != action:
            salt = f"{seed}/deal/{deal}/{len(hand.actions)}"
            old = [play_out(hand, me, action, f"{salt}/{w}") for w in range(worlds)]
            new = [play_out(hand, me, other, f"{salt}/{w}") for w in range(worlds)]
            diff = (sum(new) - sum(old)) / worlds
            gain += diff
            rows.append({"deal": deal, "wall": hand.wall_left, "default": str(action),
                         "variant": str(other), "gain": round(diff, 3)})
    return gain, compared, rows


def regret_deal(args: tuple) -> tuple[int, int, list[dict]]:
    """One deal of ``--regret N``: at each choice of the default expert (its seat not
    declared), its ``N`` best choices (its own first, :func:`agent_choices`) are each played
    out in the same ``worlds`` orders; returns (choices examined, other choices compared with
    the expert's, those where the other is ahead by more than :data:`AHEAD` standard errors
    of the paired difference)."""
    seed, deal, n, worlds = args
    examined, compared, rows = 0, 0, []
    for hand, me, obs, legal, action in expert_choices(seed, deal):
        if len(legal) < 2 or obs.declared[me]:
            continue
        examined += 1
        salt = f"{seed}/deal/{deal}/{len(hand.actions)}"
        mine = [play_out(hand, me, action, f"{salt}/{w}") for w in range(worlds)]
        for c in agent_choices(obs, legal)[:n]:
            if c.action == action:
                continue
            compared += 1
            diff = [play_out(hand, me, c.action, f"{salt}/{w}") - m
                    for w, m in zip(range(worlds), mine)]
            mean = statistics.fmean(diff)
            se = statistics.stdev(diff) / worlds ** 0.5 if worlds > 1 else 0.0
            if mean > AHEAD * se and mean > 0:
                rows.append({"deal": deal, "wall": hand.wall_left, "default": str(action),
                             "other": str(c.action), "ahead": round(mean, 3),
                             "se": round(se, 3)})
    return examined, compared, rows


def ceiling_deal(args: tuple) -> tuple[float, int, int]:
    """One deal of ``--ceiling N``: at each choice of the default expert (its seat not
    declared), its ``N`` best choices are played out in ``worlds`` orders and the best by
    their mean is picked; the pick and the expert's choice are then priced in ``worlds``
    *other* orders, so that the luck that picked it does not count. Returns (the pick's gain
    over the expert's choice summed over the deal's choices, in base units; choices examined;
    choices where the pick differed)."""
    seed, deal, n, worlds = args
    gain, examined, switched = 0.0, 0, 0
    for hand, me, obs, legal, action in expert_choices(seed, deal):
        if len(legal) < 2 or obs.declared[me]:
            continue
        examined += 1
        salt = f"{seed}/deal/{deal}/{len(hand.actions)}"
        choices = [action] + [c.action for c in agent_choices(obs, legal)[:n]
                              if c.action != action][:n - 1]
        picked = max(choices, key=lambda a: sum(
            play_out(hand, me, a, f"{salt}/pick/{w}") for w in range(worlds)))
        if picked != action:
            switched += 1
            gain += sum(play_out(hand, me, picked, f"{salt}/price/{w}")
                        - play_out(hand, me, action, f"{salt}/price/{w}")
                        for w in range(worlds)) / worlds
    return gain, examined, switched


def main() -> None:
    parser = ToolParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--params", default="{}", help="JSON of Params fields")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rows", help="write every differing decision here (JSON)")
    parser.add_argument("--regret", type=int, metavar="N",
                        help="instead: play out the default's N best choices at each of its "
                             "choices and count where another is clearly ahead")
    parser.add_argument("--ceiling", type=int, metavar="N",
                        help="instead: the gain of picking the best of the default's N best "
                             "choices by play-outs from the true position (priced in other "
                             "orders), per seat-hand")
    args = parser.parse_args()
    try:
        fields = params_fields(json.loads(args.params))
    except (ValueError, RecursionError) as exc:  # json.JSONDecodeError is a ValueError
        parser.error(f"--params: {exc}")
    if min(args.deals, args.worlds, args.workers) < 1:
        parser.error("--deals, --worlds and --workers must be at least 1")
    for mode in ("ceiling", "regret"):
        if getattr(args, mode) is not None and getattr(args, mode) < 2:
            parser.error(f"--{mode}: at least 2 choices")
    if args.ceiling and args.regret:
        parser.error("--ceiling and --regret are two modes: give one")
    if (args.ceiling or args.regret) and fields:
        parser.error("--params prices a variant: not with --ceiling or --regret")
    if args.regret and args.worlds < 2:
        parser.error("--regret needs --worlds of at least 2 (a standard error)")
    if args.ceiling and args.rows:
        parser.error("--rows: --ceiling keeps no rows")
    parser.check_output(args.rows, "--rows")  # before the run, not after it
    job, extra = ((ceiling_deal, args.ceiling) if args.ceiling else
                  (regret_deal, args.regret) if args.regret else (probe_deal, fields))
    with ProcessPoolExecutor(args.workers) as pool:
        found = list(pool.map(job, [(args.seed, d, extra, args.worlds)
                                    for d in range(args.deals)]))
    out = {"seed": args.seed, "deals": args.deals, "worlds": args.worlds}
    if job is not regret_deal:  # a gain a seat-hand with its 95% CI over deals
        mean, ci = mean_ci([g for g, _, _ in found])
        out.update(gain=round(mean, 4), ci95=[round(x, 4) for x in ci] if ci else None)
    if job is ceiling_deal:
        print(json.dumps({"ceiling": args.ceiling, **out,
                          "choices": sum(e for _, e, _ in found),
                          "switched": sum(s for _, _, s in found)}))
        return
    rows = [r for _, _, rs in found for r in rs]
    if args.rows:
        with open(args.rows, "w") as f:
            json.dump(rows, f)
    if job is regret_deal:
        print(json.dumps({"regret": args.regret, **out,
                          "choices": sum(e for e, _, _ in found),
                          "compared": sum(c for _, c, _ in found),
                          "ahead": len(rows), "ahead_z": AHEAD}))
    else:
        print(json.dumps({"params": fields, **out,
                          "decisions": sum(c for _, c, _ in found), "differing": len(rows)}))

if __name__ == "__main__":
    main()
