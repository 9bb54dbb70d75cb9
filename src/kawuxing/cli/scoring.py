"""``kawuxing score``: score a finished hand on the command line (R7-R9)."""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..engine.views import pattern_json
from ..melds import Meld
from ..payments import win_transfers
from ..scoring import DISCARD, ROBBING_KONG, SELF_DRAW, WinningHand, score_hand
from ..shapes import shanten, waits
from ..tiles import counts_of, format_tiles, parse_tile, parse_tiles, tile_chinese, tile_str
from ..transfers import describe
from .common import fail, out, rules_from


def score(
    hand: Annotated[str, typer.Argument(help="concealed tiles before the winning tile, e.g. '46p 234p 123s 789s 99p'")],
    win: Annotated[Optional[str], typer.Option("--win", help="the winning tile, e.g. 5p")] = None,
    self_draw: Annotated[bool, typer.Option("--self-draw", help="won by self-draw (default)")] = False,
    discard: Annotated[bool, typer.Option("--discard", help="won on another player's discard")] = False,
    robbing_kong: Annotated[bool, typer.Option("--robbing-kong", help="won by robbing an added kong (R7.4)")] = False,
    meld: Annotated[Optional[list[str]], typer.Option("--meld", help="a declared meld KIND:TILE (pung, concealed_kong, exposed_kong, added_kong); repeat")] = None,
    after_kong: Annotated[bool, typer.Option("--after-kong", help="on a kong replacement / the discard after a kong")] = False,
    last_tile: Annotated[bool, typer.Option("--last-tile", help="the last tile of the wall, or the last discard (R5)")] = False,
    declared: Annotated[bool, typer.Option("--declared", help="the winner had declared 亮倒 (R8)")] = False,
    discarder_declared: Annotated[bool, typer.Option("--discarder-declared", help="the discarder (or robbed konger) had declared 亮倒 too (R8.5)")] = False,
    rules: Annotated[str, typer.Option("--rules", help="preset: standard, capped, flat8, strict, app")] = "standard",
    option: Annotated[Optional[list[str]], typer.Option("--option", help="rule override name=value; repeat")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Score a finished hand: reading, patterns (×), cap and who pays what (R7-R9)."""
    if win is None:
        fail("missing --win: the winning tile, e.g. --win 5p")
    if self_draw + discard + robbing_kong > 1:
        fail("choose one of --self-draw, --discard, --robbing-kong")
    win_by = DISCARD if discard else ROBBING_KONG if robbing_kong else SELF_DRAW
    try:
        ruleset = rules_from(rules, option)
        melds = tuple(Meld.parse(m) for m in meld or [])
        concealed = tuple(parse_tiles(hand))
        finished = WinningHand(concealed, parse_tile(win), win_by, melds, after_kong, last_tile,
                               declared, discarder_declared)
        value = score_hand(finished, ruleset)
    except ValueError as exc:
        fail(str(exc))
    held = counts_of(concealed)
    for m in melds:
        held[m.tile] += m.size
    result = {"legal": value.legal, "multiplier": value.multiplier,
              "raw_multiplier": value.raw_multiplier, "cap": value.cap,
              "patterns": [pattern_json(p) for p in value.pattern_rows],
              "paid": value.paid, "reason": value.reason}
    if value.legal:
        payers = [1, 2] if win_by == SELF_DRAW else [1]
        transfers = win_transfers(value, 0, payers)
        result["transfers"] = [t.to_json() for t in transfers]
    if value.reading is None:
        counts = counts_of(concealed)
        result["waits"] = [tile_str(k) for k in waits(counts, held)]
        result["shanten"] = shanten(counts, len(melds))
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
        return
    _print_score(finished, value, result)


def _print_score(hand: WinningHand, value, result: dict) -> None:
    melds = "".join(f" [{m}]" for m in hand.melds)
    out.print(escape(f"hand {format_tiles(hand.concealed)}{melds} + {tile_str(hand.win_tile)} "
                     f"({tile_chinese(hand.win_tile)}) by {hand.win_by}"), highlight=False)
    if value.reading is None:
        out.print(f"[red]not a win[/]: {escape(value.reason)}", highlight=False)
        waits_text = " ".join(result["waits"]) or "none"
        out.print(f"before the winning tile: waits {waits_text}; shanten {result['shanten']}")
        return
    reading = value.reading
    if reading.seven_pairs:
        shape = "seven pairs " + " ".join(format_tiles((p, p)) for p in reading.pairs)
    else:
        sets = [format_tiles((s.tile,) * 3) if s.kind == "pung" else
                format_tiles((s.tile, s.tile + 1, s.tile + 2)) for s in reading.sets]
        sets += [f"[{m}]" for m in hand.melds]
        shape = " ".join(sets + [format_tiles(reading.pairs * 2)])
    out.print(escape(f"reading: {shape}"), highlight=False)
    table = Table("pattern", "gloss", "×", "rule", "note")
    for p in result["patterns"]:
        table.add_row(p["name"], p["gloss"], str(p["multiplier"]), p["rule"], p["note"])
    out.print(table)
    cap = f" (cap {value.cap}, raw ×{value.raw_multiplier})" if value.cap else ""
    out.print(f"multiplier ×{value.multiplier}{cap}", highlight=False)
    if not value.legal:
        out.print(f"[red]not a legal win[/]: {escape(value.reason)}", highlight=False)
        return
    for t in result["transfers"]:
        out.print(f"  seat {t['payer']} pays seat {t['payee']} {t['amount']} — {describe(t)} "
                  f"({t['rule']})", highlight=False)
    out.print(f"winner receives {value.paid}", highlight=False)
