"""How well the expert's expected values predict what it then collects (issue 11).

The expert plays one seat of each deal against two ``heuristic:3`` (the dealer's, the next
and the one before in turn, as in ``tools/decision_probe.py``). At each of its turns before
亮倒 where it has a choice and plays a discard (亮倒 included), the tool keeps the ``ev`` its
model gave the action played (:func:`kawuxing.agents.expert.agent.agent_choices`: base units
from then to the end of the hand) and, once the hand is over, what the seat received and
paid from then on (every transfer of the hand after the decision: hand values, 包胡, kong
money, 荒庄 compensation, R6-R10). Grouped by the hand left (``shanten``: steps from ready,
0 split into declared and concealed; ``opponents``: how many had declared; ``flush``:
:func:`~kawuxing.agents.expert.value.flush_factor`; ``wall``: tiles left, by tens), each
group's mean ``ev`` and mean realised money show where the model is off. The 95% CI of the
realised mean is clustered by deal (the decisions of one hand are not independent), with
Student's t over deals.

The model leaves out by design what the seat pays for the opponents' self-draws (R7.2, all
but R8.8's doubling of it: :attr:`~kawuxing.agents.expert.table.Table.declared_loss`), so
each group also shows ``self_draws`` (that money, paid after the decision) and ``model``
(the realised money without it: what ``ev`` estimates).

    .venv/bin/python tools/ev_calibration.py --deals 1000 --seed 2000 --workers 2

An analysis tool: it reads nothing a bot does not see until the hand has ended (R13). Prints
one line per group, then one JSON line ``{"seed", "deals", "decisions", "groups": {by:
[{"key", "n", "ev", "real", "ci95", "received", "paid", "self_draws", "model"}]}}``.
``--deals``/``--workers`` below 1, an unknown, empty or repeated ``--by``: one ``error:``
line and exit 2.
"""

from __future__ import annotations

import json
import multiprocessing
import pathlib
import sys

from kawuxing.agents.expert.agent import agent_choices
from kawuxing.agents.expert.value import flush_factor
from kawuxing.arena import t_quantile_975
from kawuxing.cli.common import ToolParser
from kawuxing.engine.actions import DISCARD
from kawuxing.engine.state import TURN
from kawuxing.melds import MELD_PUNG
from kawuxing.scoring import SELF_DRAW
from kawuxing.shapes import shanten
from kawuxing.scoring.transfers import (CHA_JIAO, DRAW_COMPENSATION, KONG_ADDED, KONG_CONCEALED,
                                KONG_EXPOSED)

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from decision_probe import expert_choices  # noqa: E402  (a tool beside this one)

GROUPS = ("shanten", "opponents", "flush", "wall")
NOT_A_WIN = (KONG_ADDED, KONG_CONCEALED, KONG_EXPOSED, DRAW_COMPENSATION, CHA_JIAO)


def play(args: tuple[int, int]) -> list[dict]:
    """One deal (``(seed, deal)``, played as :func:`decision_probe.expert_choices` plays it): a
    row per decision of the expert's seat — ``deal``, ``ev`` and the keys of :data:`GROUPS`,
    then ``received`` and ``paid`` (base units after it) and ``self_draws`` (of ``paid``, the
    money of an opponent's self-drawn win)."""
    seed, deal = args
    rows, kongs = [], 0
    for hand, me, obs, legal, action in expert_choices(seed, deal):
        if obs.phase != TURN or obs.turn != me:
            continue
        # the agent's own test of a turn right after its kong (ExpertAgent.act, R9.1)
        now = sum(1 for kind, _ in obs.melds[me] if kind != MELD_PUNG)
        after_kong, kongs = now > kongs, now
        if len(legal) > 1 and action.verb == DISCARD and not obs.declared[me]:
            choice = next(c for c in agent_choices(obs, legal, after_kong)
                          if c.action == action)
            counts = list(obs.concealed)
            counts[action.tile] -= 1
            melds = tuple((kind, tile) for kind, tile in obs.melds[me])
            steps = shanten(counts, len(melds))
            rows.append({
                "deal": deal, "ev": choice.ev, "start": len(hand.transfers),
                "shanten": ("0 declared" if action.declare else "0 concealed") if steps <= 0
                else str(min(steps, 3)) + ("+" if steps >= 3 else ""),
                "opponents": sum(obs.declared), "flush": flush_factor(counts, melds),
                "wall": f"{obs.wall_left // 10 * 10}-{obs.wall_left // 10 * 10 + 9}"})
    if not rows:
        return rows
    self_drawn = any(v.win_by == SELF_DRAW and winner != me for winner, v in hand.values.items())
    for row in rows:
        later = hand.transfers[row.pop("start"):]
        row["received"] = sum(t.amount for t in later if t.payee == me)
        row["paid"] = sum(t.amount for t in later if t.payer == me)
        row["self_draws"] = sum(t.amount for t in later if t.payer == me and self_drawn
                                and t.kind not in NOT_A_WIN)
    return rows


def clustered_ci(rows: list[dict]) -> tuple[float, tuple[float, float] | None]:
    """The mean realised money of ``rows`` (received − paid) and its 95% CI, mean ± t(0.975,
    deals − 1) × the standard error clustered by ``deal`` (a ratio estimator over deals); None
    for one deal."""
    n = len(rows)
    mean = sum(r["received"] - r["paid"] for r in rows) / n
    sums: dict[int, float] = {}
    for r in rows:
        sums[r["deal"]] = sums.get(r["deal"], 0.0) + r["received"] - r["paid"] - mean
    d = len(sums)
    if d < 2:
        return mean, None
    se = (sum(v * v for v in sums.values()) * d / (d - 1)) ** 0.5 / n
    half = t_quantile_975(d - 1) * se
    return mean, (mean - half, mean + half)


def summary(rows: list[dict], by: str) -> list[dict]:
    """Each value of key ``by`` (sorted): its rows' count and means, the realised money's 95%
    CI (:func:`clustered_ci`)."""
    out = []
    for key in sorted({r[by] for r in rows}, key=str):
        group = [r for r in rows if r[by] == key]
        real, ci = clustered_ci(group)
        n = len(group)
        out.append({"key": key, "n": n, "ev": round(sum(r["ev"] for r in group) / n, 3),
                    "real": round(real, 3), "ci95": [round(x, 3) for x in ci] if ci else None,
                    "received": round(sum(r["received"] for r in group) / n, 3),
                    "paid": round(sum(r["paid"] for r in group) / n, 3),
                    "self_draws": round(sum(r["self_draws"] for r in group) / n, 3),
                    "model": round(real + sum(r["self_draws"] for r in group) / n, 3)})
    return out


def main() -> None:
    parser = ToolParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--by", default=",".join(GROUPS),
                        help=f"comma-separated, of {', '.join(GROUPS)}")
    args = parser.parse_args()
    if min(args.deals, args.workers) < 1:
        parser.error("--deals and --workers must be at least 1")
    by = [b.strip() for b in args.by.split(",")]
    wrong = [b or "an empty name" for b in by if b not in GROUPS]
    if wrong:
        parser.error(f"--by: {', '.join(wrong)}: use {', '.join(GROUPS)}")
    if len(set(by)) < len(by):
        parser.error(f"--by: a group named twice ({args.by})")
    jobs = [(args.seed, deal) for deal in range(args.deals)]
    if args.workers == 1:
        found = [play(job) for job in jobs]
    else:
        with multiprocessing.Pool(args.workers) as pool:
            found = pool.map(play, jobs)
    rows = [row for deal in found for row in deal]
    groups = {b: summary(rows, b) for b in by}
    for b, lines in groups.items():
        print(b)
        for g in lines:
            ci = g["ci95"]
            ci = f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else ""
            print(f"  {str(g['key']):12s} n={g['n']:6d}  ev {g['ev']:+6.2f}  model "
                  f"{g['model']:+6.2f}  real {g['real']:+6.2f}{ci}  (received "
                  f"{g['received']:.2f}, paid {g['paid']:.2f}, of it self-draws "
                  f"{g['self_draws']:.2f})")
    print(json.dumps({"seed": args.seed, "deals": args.deals, "decisions": len(rows),
                      "groups": groups}))


if __name__ == "__main__":
    main()
