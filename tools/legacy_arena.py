"""A duplicate arena against the ``heuristic:3`` of an earlier commit (issue 11): by default
the first version's (7eb9536), the bot against which the issue measured the independent bot's
+0.6 a hand. Its two modules (``agents/heuristic.py`` and ``agents/hints.py``) are read from
this clone's git history into a temporary package, their imports of the project pointed at
today's ``kawuxing`` (the engine, shapes and scoring they call are the same functions), and
the bot plays as the Python player ``heuristic:3@COMMIT`` of :func:`kawuxing.arena.run_arena`.

    .venv/bin/python tools/legacy_arena.py --bots expert --deals 300 --seed 2000 --workers 2

``--bots``: registry specs of the bots to measure (one pair each with the old bot). Prints
per pair one line, then one JSON line: ``{"commit": ..., "pairs": [...], "seed", "deals"}``
(the arena's pairs, base units a hand, 95% CI over deals). Without git, or for a commit
that lacks the two files or whose bot no longer imports, one ``error:`` line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile

from kawuxing.agents import check_bot
from kawuxing.arena import run_arena
from kawuxing.rules import RuleSet

FIRST_VERSION = "7eb9536"
MODULES = ("heuristic", "hints")
ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = "legacy_heuristic"


def materialize(commit: str, into: pathlib.Path) -> None:
    """Write ``commit``'s heuristic modules into the package ``into/legacy_heuristic``, their
    relative imports made absolute (``..x`` → ``kawuxing.x``, ``.hints`` → the package's).
    Raises ``ValueError`` when git cannot show them."""
    package = into / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in MODULES:
        path = f"{commit}:src/kawuxing/agents/{name}.py"
        shown = subprocess.run(["git", "-C", str(ROOT), "show", path], capture_output=True,
                               text=True)
        if shown.returncode:
            raise ValueError(f"git cannot show {path}: {shown.stderr.strip() or 'no git'}")
        source = re.sub(r"^from \.\.", "from kawuxing.", shown.stdout, flags=re.M)
        source = re.sub(r"^from \.(\w)", rf"from {PACKAGE}.\1", source, flags=re.M)
        (package / f"{name}.py").write_text(source)


def legacy_level3(seed: str):
    """The old ``heuristic:3`` of one seat (a :data:`~kawuxing.arena.PlayerFactory`)."""
    from legacy_heuristic.heuristic import HeuristicAgent
    return HeuristicAgent(3, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="expert", help="registry specs, comma-separated")
    parser.add_argument("--commit", default=FIRST_VERSION)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", default="7")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        for bot in bots:
            check_bot(bot)
    except ValueError as exc:
        parser.error(f"--bots: {exc}")
    old = f"heuristic:3@{args.commit}"
    pairs = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            materialize(args.commit, pathlib.Path(tmp))
            sys.path.insert(0, tmp)  # before the workers fork: they import it too
            legacy_level3("check")
        except (ValueError, ImportError, TypeError) as exc:
            parser.error(f"--commit {args.commit}: {exc}")
        for bot in bots:
            report = run_arena([bot, old], args.deals, RuleSet.preset(), args.seed,
                               workers=args.workers, players={old: legacy_level3}).to_json()
            pair = report["pairs"][0]
            ci = pair["ci95"]
            ci = f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci and None not in ci else ""
            print(f"{bot} − {old}: {pair['mean_diff']:+.2f}{ci} a hand, "
                  f"{pair['deals']} deals, {report['seconds']:.0f} s")
            pairs.append(pair)
    seed = int(args.seed) if args.seed.isdigit() else args.seed  # as kawuxing arena prints it
    print(json.dumps({"commit": args.commit, "pairs": pairs, "seed": seed,
                      "deals": args.deals}))


if __name__ == "__main__":
    main()
