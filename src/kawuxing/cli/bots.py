"""``kawuxing hint`` and ``kawuxing simulate``: the bots on the command line."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from ..agents import bot_help
from ..agents.expert import agent_choices
from ..agents.hints import effective_tiles, wait_values
from ..engine.legal import position_actions
from ..engine.observation import position_observation
from ..melds import Meld
from ..sim import check_bots
from ..sim import simulate as run_simulation
from ..tiles import counts_of, kinds_for_suits, parse_tiles, tile_str
from .common import err, fail, open_output, out, rules_from

def hint(
    hand: Annotated[str, typer.Argument(help="concealed tiles: 14 (or 14 - 3 per meld) to rank discards, 13 to see waits")],
    meld: Annotated[Optional[list[str]], typer.Option("--meld", help="own declared meld KIND:TILE; repeat")] = None,
    visible: Annotated[str, typer.Option("--visible", help="tiles seen elsewhere: discards, others' melds, revealed hands")] = "",
    wall: Annotated[int, typer.Option("--wall", help="tiles left in the wall (0-43)")] = 30,
    rules: Annotated[str, typer.Option("--rules", help="preset")] = "standard",
    option: Annotated[Optional[list[str]], typer.Option("--option", help="rule override name=value; repeat")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Rank the choices of a hand by the expert's expected value in base units (14 tiles:
    discards, 亮倒, concealed kongs, with live tiles, value and danger), or show the shanten,
    effective tiles and waits of 13. The first row is what the expert bot plays: its second
    opinion (heuristic:3's choice when the model rates it nearly as high) says so."""
    try:
        ruleset = rules_from(rules, option)
        if not 0 <= wall <= 43:
            raise ValueError(f"--wall {wall}: 0-43 tiles are left once the hands are dealt")
        melds = [Meld.parse(m) for m in meld or []]
        counts = counts_of(parse_tiles(hand))
        seen = counts_of(parse_tiles(visible, max_copies=None))
    except ValueError as exc:
        fail(str(exc))
    in_play = set(kinds_for_suits(ruleset.suits))
    if any(c and k not in in_play for k, c in enumerate(counts)):
        fail(f"the hand has tiles outside the suits in play ({'+'.join(ruleset.suits)})")
    total = [a + b for a, b in zip(counts, seen)]
    for m in melds:
        total[m.tile] += m.size
    bad = [tile_str(k) for k, c in enumerate(total) if c > 4]
    if bad:
        fail(f"more than four of {', '.join(bad)} between the hand, melds and --visible")
    size = sum(counts) + 3 * len(melds)
    if size not in (13, 14):
        melds_n = f"{len(melds)} meld" + ("" if len(melds) == 1 else "s")
        fail(f"{sum(counts)} tiles with {melds_n}: give 14 - 3 per meld to rank discards, or "
             "13 - 3 per meld to see the waits")
    if size == 13:
        sh, eff = effective_tiles(counts, len(melds), total, kinds_for_suits(ruleset.suits))
        waits = wait_values(counts, melds, total, ruleset) if sh == 0 else []
        result = {"shanten": sh, "effective": [[tile_str(k), n] for k, n in eff],
                  "waits": [{"tile": tile_str(w.tile), "left": w.unseen,
                             "self_draw": w.self_draw, "discard": w.discard} for w in waits]}
        if as_json:
            print(json.dumps(result, ensure_ascii=False))
        else:
            out.print(f"shanten {sh}; effective tiles: "
                      + (" ".join(f"{t}×{n}" for t, n in result["effective"]) or "none"))
            for w in result["waits"]:
                out.print(f"  waits {w['tile']}: {w['left']} left, ×{w['self_draw']} self-draw, "
                          + (f"×{w['discard']} on a discard" if w["discard"] else
                             "self-draw only (R7.3)"), highlight=False)
        return
    seen = [a - b for a, b in zip(total, counts)]
    for m in melds:
        seen[m.tile] -= m.size
    obs = position_observation(ruleset, counts, [(m.kind, m.tile) for m in melds], seen, wall)
    choices = agent_choices(obs, position_actions(ruleset, counts, melds), explain=True)
    rows = [{"rank": i, **c.to_json()} for i, c in enumerate(choices, 1)]
    if as_json:
        print(json.dumps(rows, ensure_ascii=False))
        return
    table = Table("rank", "choice", "expected", "why")
    for row, choice in zip(rows, choices):
        table.add_row(str(row["rank"]), action_label(choice.action), f"{choice.ev:+.2f}",
                      row["text"])
    out.print(table)
    out.print("expected: base units from now to the end of the hand (the expert's valuation)",
              highlight=False)


def action_label(action) -> str:
    """``discard 5p``, ``discard 5p 亮倒``, ``concealed kong 7z`` (what a hint row names)."""
    text = action.verb.replace("_", " ")
    if action.tile is not None:
        text += " " + tile_str(action.tile)
    if action.declare:
        text += " 亮倒"
    if action.hidden:
        text += " hiding " + " ".join(tile_str(t) for t in action.hidden)
    return text


def simulate(
    games: Annotated[int, typer.Option("--games", help="hands to play")] = 600,
    bots: Annotated[str, typer.Option("--bots", help=f"three bots, seats 0,1,2: {bot_help()}")] = "heuristic,random,random",
    rules: Annotated[str, typer.Option("--rules", help="preset")] = "standard",
    option: Annotated[Optional[list[str]], typer.Option("--option", help="rule override name=value; repeat")] = None,
    seed: Annotated[int, typer.Option("--seed", help="the run's seed (same seed, same games)")] = 0,
    workers: Annotated[int, typer.Option("--workers", help="processes (default: all cores)")] = 0,
    out_file: Annotated[Optional[Path], typer.Option("--out", help="write every hand's record here (JSONL)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="end with one JSON summary line")] = False,
) -> None:
    """Play bots against each other and report win, self-draw and deal-in rates, mean score
    per hand with a 95% confidence interval, pattern frequencies and draw rate."""
    names = [b.strip() for b in bots.split(",")]
    try:
        ruleset = rules_from(rules, option)
        if games < 1:
            raise ValueError("--games must be at least 1")
        if workers < 0:
            raise ValueError("--workers must be 0 (all cores) or more")
        check_bots(names)  # before the progress bar, so that an error is one line alone
        sink = open_output(out_file) if out_file is not None else None
        with Progress("[progress.description]{task.description}", BarColumn(),
                      MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                      transient=True) as bar:
            task = bar.add_task("hands", total=games)
            report = run_simulation(games, names, ruleset, seed, workers or os.cpu_count() or 1,
                                    out_file is not None,
                                    lambda n: bar.advance(task, n))
    except ValueError as exc:
        fail(str(exc))
    if sink is not None:
        with sink:
            for record in report.records:
                sink.write(json.dumps(record, ensure_ascii=False) + "\n")
    table = Table("seat", "bot", "mean/hand", "95% CI", "win", "self-draw", "deal-in")
    for seat, s in enumerate(report.per_seat):
        table.add_row(str(seat), s.bot, f"{s.mean:+.3f}", f"[{s.ci95[0]:+.3f}, {s.ci95[1]:+.3f}]",
                      f"{s.win_rate:.1%}", f"{s.self_draw_rate:.1%}", f"{s.deal_in_rate:.1%}")
    out.print(table)
    out.print(f"{report.hands} hands, draws (荒庄) {report.draw_rate:.1%}, "
              f"{report.hands_per_second:.1f} hands/s", highlight=False)
    out.print("patterns (share of hands): " + ", ".join(
        f"{k} {v:.1%}" for k, v in report.patterns.items()), highlight=False)
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
