"""``kawuxing arena``: duplicate-format bot matches (see :mod:`kawuxing.arena`)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from ..agents import bot_help
from ..arena import ArenaReport, check_arena_bots, run_arena
from ..arena_chart import check_chart_path, write_chart
from ..botproto import BotError
from ..botproto.seat import DEFAULT_TIMEOUT
from .common import err, fail, out, rules_from

MAX_DEALS = 1_000_000  # each deal is six hands: more would run for days


def _ci(ci: tuple[float, float] | None) -> str:
    return "n/a" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"


def arena(
    bots: Annotated[str, typer.Option("--bots", help=f"2 or 3 different bots, comma-separated: {bot_help()}, or cmd:COMMAND (an outside program, docs/bot-protocol.md)")] = "heuristic:3,random",
    deals: Annotated[int, typer.Option("--deals", help="deals (walls); each is played in 6 seat arrangements")] = 100,
    rules: Annotated[str, typer.Option("--rules", help="preset")] = "standard",
    option: Annotated[Optional[list[str]], typer.Option("--option", help="rule override name=value; repeat")] = None,
    seed: Annotated[int, typer.Option("--seed", help="the run's seed (same seed, same games)")] = 0,
    workers: Annotated[int, typer.Option("--workers", help="processes (default 0: all cores)")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="end with one JSON summary line")] = False,
    bot_timeout: Annotated[float, typer.Option("--bot-timeout", help="seconds a cmd: bot may take per decision")] = DEFAULT_TIMEOUT,
    chart: Annotated[Optional[Path], typer.Option("--chart", help="write a bar chart (.png, .svg or .pdf; needs matplotlib)")] = None,
    bot_stderr: Annotated[bool, typer.Option("--bot-stderr", help="show a cmd: bot's stderr as it writes (else kept to quote when it fails)")] = False,
) -> None:
    """Duplicate-format matches: each deal (one wall, one dealer) is played as one hand in six
    seat arrangements (two bots A,B: ABB BAB BBA AAB ABA BAA; three: the six permutations), so
    that the tiles' luck cancels out. Reports per pair the mean difference of seat score per hand with a t-based 95% CI over
    deals; per bot its mean score (95% CI), win, deal-in, 包胡 paid/won and 亮倒 rates, mean
    multiplier of its wins, ms per decision (mean, p99) and an openskill Plackett-Luce rating
    updated once per deal, ranking the bots by their mean seat score of the deal (ties
    allowed). The same seed gives the same games and figures whatever --workers (only the
    times differ). A bot "cmd:COMMAND" is an outside program speaking the JSON-lines bot
    protocol on stdin/stdout (docs/bot-protocol.md); if one fails the run ends with one
    error line (exit 2)."""
    names = [b for b in bots.split(",")]
    try:
        ruleset = rules_from(rules, option)
        names = check_arena_bots(names)
        if not 1 <= deals <= MAX_DEALS:
            raise ValueError(f"--deals must be from 1 to {MAX_DEALS:,}")
        if workers < 0:
            raise ValueError("--workers must be 0 (all cores) or more")
        if not bot_timeout > 0:
            raise ValueError("--bot-timeout must be above 0 seconds")
        if chart is not None:
            check_chart_path(chart)
    except ValueError as exc:
        fail(str(exc))
    # the bar only on a terminal: piped or redirected, stderr holds nothing but errors
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                  transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("deals", total=deals)
        try:
            report = run_arena(names, deals, ruleset, seed, workers or os.cpu_count() or 1,
                               lambda n: bar.advance(task, n), rules, list(option or []),
                               bot_timeout, bot_stderr=bot_stderr)
        except BotError as exc:
            bar.stop()
            fail(str(exc))
    if chart is not None:
        try:
            write_chart(report, chart)
        except OSError as exc:
            fail(f"cannot write {chart}: {exc.strerror or exc}")
    print_report(report)
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))


def print_report(report: ArenaReport) -> None:
    """The rich tables (pairs; bots' play; bots' decisions and rating) and a summary line on
    stdout; piped output is not cut to 80 columns."""
    # piped or redirected: a wide console (rich would cut to 80 columns); a terminal's own width
    console = out if out.is_terminal else Console(soft_wrap=True, width=max(out.width, 160))
    pairs = Table("a", "b", "mean diff/hand", "95% CI", "deals", "hands",
                  title="pairs (a − b, base units per hand)")
    for p in report.pairs:
        pairs.add_row(p.a, p.b, f"{p.mean_diff:+.3f}", _ci(p.ci95), str(p.deals), str(p.hands))
    console.print(pairs)
    play = Table("bot", "mean/hand", "95% CI", "win", "deal-in", "包胡 paid", "包胡 won", "亮倒",
                 "avg ×", title="bots (rates per seat-hand)")
    speed = Table("bot", "ms/decision", "p99 ms", "CPU ms", "rating μ", "σ", "ordinal",
                  title="bots (decision time, openskill rating)")
    for b in report.per_bot.values():
        play.add_row(b.bot, f"{b.mean:+.3f}", _ci(b.ci95), f"{b.win_rate:.1%}",
                     f"{b.deal_in_rate:.1%}", f"{b.bao_hu_paid:.1%}", f"{b.bao_hu_won:.1%}",
                     f"{b.declare_rate:.1%}",
                     "n/a" if b.avg_multiplier is None else f"{b.avg_multiplier:.2f}")
        speed.add_row(b.bot, f"{b.decision_ms:.3f}", f"{b.decision_p99_ms:.3f}",
                      f"{b.cpu_ms:.3f}", f"{b.rating[0]:.2f}", f"{b.rating[1]:.2f}",
                      f"{b.rating[2]:.2f}")
    console.print(play)
    console.print(speed)
    deals = f"{report.deals} deal{'s' if report.deals != 1 else ''}"
    console.print(f"{deals}, {report.hands} hands, rules {report.rules}, "
                  f"seed {report.seed}, {report.seconds:.1f} s", highlight=False)
