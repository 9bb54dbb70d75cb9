"""``kawuxing verify``: check the provably fair deal of a game record (R3.1, docs/fairness.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..engine import IllegalAction
from ..fairness import FairnessError, verify_record
from ..records import read_record, replay
from .common import fail, out


def verify(
    file: Annotated[Path, typer.Argument(help="a game record (JSON): from kawuxing selfplay, "
                                              "or GET /api/hands/MATCH/N of a server")],
    details: Annotated[bool, typer.Option("--details", "-v", help="also say what was checked")] = False,
) -> None:
    """Recompute a record's commitment and wall from its revealed seed and the players'
    entropy: prints ``verified`` (exit 0), or each mismatch (exit 1). Unreadable input, a
    malformed record or one without fairness data: one ``error:`` line, exit 2."""
    try:
        record = read_record(file)
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror}")
    except ValueError as exc:
        fail(str(exc))
    try:
        problems = verify_record(record)
    except FairnessError as exc:
        fail(f"{file}: {exc}")
    if not problems:
        problems = _replays(record, file)
    if problems:
        for problem in problems:
            out.print(f"mismatch: {problem}", highlight=False, markup=False)
        raise typer.Exit(1)
    out.print("verified", highlight=False)
    if details:
        fair = record["fairness"]
        out.print(f"  hand {fair['hand_id']}, algorithm {fair['algorithm']}", highlight=False,
                  markup=False)
        out.print(f"  commitment {fair['commitment']} = SHA-256 of the seed and hand id",
                  highlight=False, markup=False)
        out.print(f"  the wall from seed {fair['seed'][:16]}… and entropy "
                  f"{json.dumps(fair['entropy'], ensure_ascii=False)} deals the recorded hands "
                  f"and draws (dealer seat {record['dealer']})", highlight=False, markup=False)
        if record.get("result") is not None:
            out.print(f"  the {len(record.get('actions', []))} actions replay to the recorded "
                      f"scores {record['result'].get('deltas')}", highlight=False, markup=False)


def _replays(record: dict, file: Path) -> list[str]:
    """An honest deal: do the recorded actions replay to the recorded scores? An action the
    rules refuse is a mismatch; an unreadable one makes the record malformed (exit 2)."""
    if record.get("result") is None:
        return []
    try:
        hand = replay(record)
    except IllegalAction as exc:
        return [f"actions: the record's actions do not replay on this deal ({exc})"]
    except ValueError as exc:
        fail(f"{file}: malformed record: {exc}")
    result = record["result"]
    if not isinstance(result, dict) or hand.deltas != result.get("deltas"):
        return [f"result: the actions replay to scores {hand.deltas}, the record says "
                f"{result.get('deltas') if isinstance(result, dict) else result!r:.60}"]
    return []
