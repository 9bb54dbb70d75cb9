"""``kawuxing score``: score a finished hand on the command line (R7-R9, VARIANTS.md R14-R18).

The winner is seat 0; seats 1 and 2 pay a self-draw, seat 1 alone a discard (seat 2 is then
the third player of 包胡)."""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..engine.views import pattern_json
from ..melds import Meld
from ..scoring.payments import WinTable, win_transfers
from ..scoring import DISCARD, ROBBING_KONG, SELF_DRAW, WinningHand, score_hand
from ..shapes import shanten, waits
from ..tiles import counts_of, format_tiles, parse_tile, parse_tiles, tile_chinese, tile_str
from ..scoring.transfers import describe
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
    rules: Annotated[str, typer.Option("--rules", "--preset", help="preset: standard, capped, flat8, strict, app, server_common or a town (xiangyang, xiaogan, suizhou, shiyan, yicheng, yingcheng, yunmeng, zaoyang)")] = "standard",
    option: Annotated[Optional[list[str]], typer.Option("--option", help="rule override name=value; repeat")] = None,
    declared_payer: Annotated[Optional[list[int]], typer.Option("--declared-payer", help="a paying seat (1 or 2) that had declared 亮倒 (R8.8); repeat")] = None,
    piao: Annotated[Optional[str], typer.Option("--piao", help="each seat's 漂, e.g. 1,0,2 (R11)")] = None,
    horses: Annotated[Optional[str], typer.Option("--horses", help="the horse tiles taken after a self-draw, e.g. '8s' (R14; option horse_buy)")] = None,
    kong_chain: Annotated[int, typer.Option("--kong-chain", help="kongs of the 杠上杠 chain before the win (R9.18)")] = 0,
    passed_wins: Annotated[int, typer.Option("--passed-wins", help="wins the declared winner passed (R8.18)")] = 0,
    dice: Annotated[Optional[str], typer.Option("--dice", help="the two 上楼 dice, e.g. 3,3 (R17.1 dice_doubles)")] = None,
    base_factor: Annotated[int, typer.Option("--base-factor", help="the 上楼 base factor 1, 2, 4 … (R17.1 after_draw)")] = 1,
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
                               declared, discarder_declared, kong_chain=kong_chain,
                               passed_wins=passed_wins)
        value = score_hand(finished, ruleset)
        table = _table(ruleset, finished, declared_payer or [], piao, horses, dice, base_factor)
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
        transfers = win_transfers(value, 0, payers, table=table)
        result["transfers"] = [t.to_json() for t in transfers]
        result["received"] = sum(t.amount for t in transfers)
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
    out.print(f"winner receives {result['received']}", highlight=False)


def _table(rules, hand: WinningHand, declared_payers: list[int], piao: str | None,
           horses: str | None, dice: str | None, base_factor: int) -> WinTable:
    """What the payments need beyond the hand (R18.3) from the flags; ``ValueError`` for a bad
    one (a payer not 1 or 2, not three 漂, horses where R14.1 takes none, not two dice)."""
    if any(p not in (1, 2) for p in declared_payers):
        raise ValueError("--declared-payer: the paying seats are 1 and 2 (the winner is 0)")
    declared = (hand.declared, 1 in declared_payers or hand.discarder_declared,
                2 in declared_payers)
    parts = piao.split(",") if piao else ["0"] * 3
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        raise ValueError("--piao: three whole numbers >= 0, e.g. 1,0,2")
    seats = tuple(int(p) for p in parts)
    taken = tuple(parse_tiles(horses)) if horses else ()
    if taken and (rules.horse_buy == "off" or not hand.self_drawn or (
            rules.horse_buy == "declared_self_draw" and not hand.declared)):
        raise ValueError("--horses: horses are taken only after a self-draw with horse_buy on "
                         "(a declared winner under declared_self_draw) (R14.1)")
    rolled = tuple(dice.split(",")) if dice else None
    if rolled is not None and (len(rolled) != 2
                               or not all(d.strip() in tuple("123456") for d in rolled)):
        raise ValueError("--dice: two dice 1-6, e.g. 3,3 (R17.1)")
    rolled = tuple(int(d) for d in rolled) if rolled else None
    if base_factor < 1 or base_factor & (base_factor - 1):
        raise ValueError("--base-factor: 1, 2, 4 … (R17.1)")
    return WinTable(declared, seats, taken, rolled, base_factor)
