"""A duplicate arena against the ``heuristic:3`` of an earlier commit (issue 11): by default
the first version's (7eb9536), the bot against which the issue measured the independent bot's
+0.6 a hand. Its ``agents/heuristic.py`` and the modules of ``agents`` it imports (``hints``;
from later commits also ``declare`` and ``defence``) are read from this clone's git history
into a temporary package, their imports of the project pointed at today's ``kawuxing`` (for
7eb9536 the engine, shapes and scoring it calls are the same functions: it decided as its
original code at 7,825 of 7,825 decisions compared, session 9), and the bot plays as the
Python player ``heuristic:3@COMMIT`` of :func:`kawuxing.arena.run_arena`.

    .venv/bin/python tools/legacy_arena.py --bots expert --deals 300 --seed 2000 --workers 2

``--bots``: registry specs of the bots to measure (one pair each with the old bot). Prints
per pair one line, then one JSON line: ``{"commit": ..., "sha": its full hash, "pairs":
[...], "seed", "deals"}``
(the arena's pairs, base units a hand, 95% CI over deals). Without git, for no commit, a
commit without these files or one whose bot does not import into today's project, no bot to
measure, or ``--deals``/``--workers`` below 1: one ``error:`` line and exit 2.
"""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys
import tempfile

from kawuxing.agents.registry import parse_bot
from kawuxing.arena import run_arena
from kawuxing.cli.common import ToolParser
from kawuxing.rules import RuleSet

FIRST_VERSION = "7eb9536"
ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = "legacy_heuristic"
SIBLING = re.compile(r"^(\s*)from \.(\w+) import", re.M)  # from .hints import ...


def git(*args: str) -> str:
    """The output of ``git -C ROOT args``; ``ValueError`` with git's message if it fails."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
    except OSError as exc:
        raise ValueError(f"git cannot run: {exc}") from None
    if done.returncode:
        raise ValueError(done.stderr.strip() or f"git {args[0]} failed")
    return done.stdout


def resolve(commit: str) -> str:
    """The full hash of ``commit`` (a hash, tag or ``HEAD~3``); ``ValueError`` if it is none."""
    if not commit or commit.startswith("-"):
        raise ValueError("not a commit")
    try:
        return git("rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}").strip()
    except ValueError as exc:
        if str(exc).startswith("git cannot run"):
            raise
        raise ValueError(f"no such commit in this clone ({exc})") from None


def materialize(commit: str, into: pathlib.Path) -> str:
    """Write ``commit``'s ``agents/heuristic.py``, and every module of ``agents`` it imports
    (``hints``, and from later commits ``declare``, ``defence``), into the package
    ``into/legacy_heuristic``, their relative imports made absolute (``..x`` →
    ``kawuxing.x``, ``.hints`` → the package's). Returns the commit's full hash; raises
    ``ValueError`` when git cannot show one (or ``commit`` is no commit)."""
    sha = resolve(commit)
    package = into / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    wanted, done = ["heuristic"], set()
    while wanted:
        name = wanted.pop()
        if name in done:
            continue
        done.add(name)
        path = f"src/kawuxing/agents/{name}.py"
        try:
            source = git("show", f"{sha}:{path}")
        except ValueError as exc:
            raise ValueError(f"git cannot show {path} at {commit}: {exc}") from None
        wanted += [m.group(2) for m in SIBLING.finditer(source)]
        source = re.sub(r"^(\s*)from \.\.", r"\1from kawuxing.", source, flags=re.M)
        source = SIBLING.sub(rf"\1from {PACKAGE}.\2 import", source)
        (package / f"{name}.py").write_text(source)
    return sha


def legacy_level3(seed: str):
    """The old ``heuristic:3`` of one seat (a :data:`~kawuxing.arena.PlayerFactory`)."""
    from legacy_heuristic.heuristic import HeuristicAgent
    return HeuristicAgent(3, seed)


def main() -> None:
    parser = ToolParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="expert", help="registry specs, comma-separated")
    parser.add_argument("--commit", default=FIRST_VERSION)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if min(args.deals, args.workers) < 1:
        parser.error("--deals and --workers must be at least 1")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        parser.error("--bots: name at least one bot to measure")
    seen: dict[tuple, str] = {}
    try:
        for bot in bots:
            found, level = parse_bot(bot)  # ValueError for an unknown name or level
            if (found.name, level) in seen:
                raise ValueError(f"{seen[found.name, level]!r} and {bot!r} are the same bot")
            seen[found.name, level] = bot
    except ValueError as exc:
        parser.error(f"--bots: {exc}")
    old = f"heuristic:3@{args.commit}"
    pairs = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            sha = materialize(args.commit, pathlib.Path(tmp))
            sys.path.insert(0, tmp)  # before the workers fork: they import it too
            legacy_level3("check")
        except (ValueError, ImportError, AttributeError, TypeError, SyntaxError) as exc:
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
    print(json.dumps({"commit": args.commit, "sha": sha, "pairs": pairs, "seed": args.seed,
                      "deals": args.deals}))


if __name__ == "__main__":
    main()
