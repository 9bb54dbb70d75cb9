"""``kawuxing replay`` and ``kawuxing selfplay``: records on the command line."""

from __future__ import annotations

import json
import random
import secrets
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from .. import fairness
from ..engine import Hand
from ..engine.views import seat_view, table_view
from ..records import hand_record, read_record, replay as replay_record
from ..rules import RuleSet
from ..scoring.transfers import describe
from .common import fail, open_output, out

def replay(
    file: Annotated[Path, typer.Argument(help="a game record (JSON) written by kawuxing")],
    step: Annotated[Optional[int], typer.Option("--step", help="show the table after this many actions (default: the end)")] = None,
    seat: Annotated[Optional[int], typer.Option("--seat", help="show only what this seat sees (R13); default: everything")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the view as JSON")] = False,
) -> None:
    """Show the table of a recorded hand at any step, as one seat sees it or all of it."""
    if seat is not None and seat not in (0, 1, 2):
        fail(f"--seat {seat}: seats are 0, 1 and 2")
    try:
        record = read_record(file)
        hand = replay_record(record, step)
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror}")
    except ValueError as exc:
        fail(str(exc))
    shown = len(hand.actions)
    if seat is not None:
        view = seat_view(hand, seat)
    else:  # the whole table: every hand face up
        view = table_view(hand)
    if as_json:
        print(json.dumps(view, ensure_ascii=False))
        return
    total = len(record.get("actions", []))
    out.print(f"step {shown}/{total} · dealer seat {hand.dealer} · phase {hand.phase} · "
              f"wall {hand.wall_left}", highlight=False)
    if shown:
        out.print(f"last action: {hand.actions[-1]}", highlight=False)
    table = Table("seat", "hand", "melds", "discards", "score")
    for entry in view["seats"]:
        i = entry["seat"]
        tiles = entry.get("revealed") or (view["hand"] if i == view["seat"] else
                                          f"({entry['concealed_count']} hidden)")
        if entry["declared"]:
            tiles += f"  亮倒 waits {' '.join(entry['waits'])}"
        melds = " ".join(f"{m['kind']}:{m['tile'] or '?'}" for m in entry["melds"])
        marker = "*" if view["turn"] == i else ""
        table.add_row(f"{i}{marker}", tiles, melds, " ".join(entry["discards"]),
                      str(view["deltas"][i]))
    out.print(table)
    if view.get("table"):
        t = view["table"]
        out.print(f"on the table: {t['tile']} from seat {t['seat']}"
                  f"{' (kong being added)' if t['robbing'] else ''}", highlight=False)
    if "result" in view:
        res = view["result"]
        out.print(f"result: {res['result']}, winners {res['winners']}, deltas {res['deltas']}, "
                  f"next dealer {res['next_dealer']}", highlight=False)
        for t in res["transfers"]:
            out.print(f"  seat {t['payer']} → seat {t['payee']} {t['amount']}: {describe(t)} "
                      f"({t['rule']})", highlight=False)


def selfplay(
    out_file: Annotated[Path, typer.Option("--out", help="where to write the record (JSON)")],
    seed: Annotated[Optional[int], typer.Option("--seed", help="shuffle and agent seed (a replayable hand, no fairness data); without it: a fresh secret seed, a record kawuxing verify accepts")] = None,
    rules: Annotated[str, typer.Option("--rules", help="preset")] = "standard",
) -> None:
    """Play one hand with three random agents and write its record (for replay)."""
    try:
        ruleset = RuleSet.preset(rules)
    except ValueError as exc:
        fail(str(exc))
    sink = open_output(out_file)
    fair = None
    if seed is not None:
        rng = random.Random(seed)
        hand = Hand.deal(ruleset, rng.randrange(3), seed=seed)
    else:  # the provably fair deal (R3.1, docs/fairness.md): a secret seed, revealed in the record
        secret = secrets.token_bytes(fairness.SEED_BYTES)
        hand_id = fairness.make_hand_id(f"selfplay-{secrets.token_hex(8)}", 0)
        entropy = ["", "", ""]
        rng = random.Random(secrets.randbits(64))
        hand = Hand.deal(ruleset, secrets.randbelow(3),
                         wall=fairness.derive_wall(ruleset, secret, hand_id, entropy))
        fair = fairness.reveal(secret, hand_id, entropy)
    while not hand.ended:
        seat = hand.to_act()[0]
        hand.apply(rng.choice(hand.legal_actions(seat)))
    with sink:
        sink.write(json.dumps(hand_record(hand, seed, fair), ensure_ascii=False, indent=1))
    out.print(f"wrote {out_file}: {len(hand.actions)} actions, {hand.result}, "
              f"deltas {hand.deltas}", highlight=False)
