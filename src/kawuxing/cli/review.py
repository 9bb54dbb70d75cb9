"""``kawuxing review``: the AI review of one seat's play in a recorded hand
(:mod:`kawuxing.review`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ..records import read_record
from ..review import review as review_hand
from .common import fail, out


def _action(label: list) -> str:
    return " ".join(str(x) if not isinstance(x, list) else "/".join(x) for x in label)


def review(
    file: Annotated[Path, typer.Argument(help="a record of an ended hand (JSON): kawuxing selfplay, or GET /api/hands/MATCH/N")],
    seat: Annotated[int, typer.Option("--seat", help="the seat whose play is reviewed (0-2)")],
    as_json: Annotated[bool, typer.Option("--json", help="print the review as one JSON object")] = False,
) -> None:
    """Review one seat's decisions in an ended hand (复盘): for each decision with a choice,
    the options valued by the expert's model (expected base units to the end of the hand,
    from what the seat could see), the best one and what the choice made cost; the
    agreement rate, the total cost, the five costliest decisions first."""
    try:
        result = review_hand(read_record(file), seat)
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    except ValueError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
        return
    decisions = result["decisions"]
    if not decisions:
        out.print(f"seat {seat} had no decision with a choice in this hand", highlight=False)
        return
    out.print(f"seat {seat}: {len(decisions)} decisions, agreement with the review "
              f"{result['agreement']:.0%}, value lost {result['total_loss']:.2f} base units",
              highlight=False)
    by_step = {d["step"]: d for d in decisions}
    table = Table("step", "phase", "played", "best", "lost", "options (value)",
                  title="the costliest first, then every decision")
    order = result["costliest"] + [d["step"] for d in decisions
                                   if d["step"] not in result["costliest"]]
    for step in order:
        d = by_step[step]
        table.add_row(str(step), d["phase"], _action(d["chosen"]), _action(d["best"]),
                      f"{d['loss']:.2f}", ", ".join(f"{_action(c['action'])} {c['value']:+.2f}"
                                                    for c in d["choices"]))
    out.print(table)
