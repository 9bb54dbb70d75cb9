"""A duplicate arena of the expert with other Params against another bot or another Params
(issue 11): the registry names only the default expert, so a variant is passed to
:func:`kawuxing.arena.run_arena` as a Python player.

    nice .venv/bin/python tools/expert_arena.py --params '{"mc_rollouts": 64}' \\
        --against expert --deals 200 --seed 17 --workers 2

``--params``: JSON of :class:`~kawuxing.agents.expert.table.Params` fields for the variant
(``mc``); ``--against``: a registry spec (``expert``, ``heuristic:3`` …) or a JSON of Params
for a second variant (``base``). Prints one JSON line: the pair's mean_diff (base units a
hand, the variant minus the other) with its 95% CI over deals, each bot's decision times
(ms: wall mean, p99, CPU mean) and 亮倒 rate.
"""

from __future__ import annotations

import functools
import json
from dataclasses import replace

from kawuxing.agents.expert import ExpertAgent
from kawuxing.agents.expert.table import DEFAULT_PARAMS, params_fields
from kawuxing.agents.registry import parse_bot
from kawuxing.arena import run_arena
from kawuxing.cli.common import ToolParser
from kawuxing.rules import RuleSet


def build(seed: str, **fields) -> ExpertAgent:
    """An expert whose Params differ from the default by ``fields`` (a PlayerFactory)."""
    return ExpertAgent(seed, replace(DEFAULT_PARAMS, **fields))


def main() -> None:
    parser = ToolParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--params", required=True, help="JSON of Params fields")
    parser.add_argument("--against", default="expert")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    try:
        fields = params_fields(json.loads(args.params))
        base = (params_fields(json.loads(args.against))
                if args.against.lstrip().startswith("{") else None)
        bot = parse_bot(args.against)[0] if base is None else None  # ValueError if unknown
    except (ValueError, RecursionError) as exc:  # json.JSONDecodeError is a ValueError
        parser.error(f"--params/--against: {exc}")
    mine = replace(DEFAULT_PARAMS, **fields)
    if (mine == replace(DEFAULT_PARAMS, **base) if base is not None
            else bot.name == "expert" and mine == DEFAULT_PARAMS):
        parser.error(f"--params {args.params} plays as --against {args.against}: "
                     "nothing to compare")
    if min(args.deals, args.workers) < 1:
        parser.error("--deals and --workers must be at least 1")
    players = {"mc": functools.partial(build, **fields)}
    other = args.against
    if base is not None:
        players["base"] = functools.partial(build, **base)
        other = "base"
    report = run_arena(["mc", other], args.deals, RuleSet.preset(), args.seed,
                       workers=args.workers, players=players).to_json()
    pair, bots = report["pairs"][0], report["bots"]
    print(json.dumps({"params": fields, "against": args.against,
                      "seed": args.seed, "deals": args.deals, "mean_diff": pair["mean_diff"],
                      "ci95": pair["ci95"],
                      "decision_ms": {b: bots[b]["decision_ms"] for b in bots},
                      "declare_rate": {b: bots[b]["declare_rate"] for b in bots},
                      "seconds": report["seconds"]}))


if __name__ == "__main__":
    main()
