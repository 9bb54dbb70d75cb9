"""Who pays a winner what (RULES.md R7.2, R8.4, R9.7, R11; VARIANTS.md R8.8-R8.10, R8.18,
R11.4-R11.5, R14-R18), in the order of operations of R18.3.

:func:`win_transfers` takes a legal :class:`~kawuxing.scoring.HandValue` (it keeps the hand
and the rules it was scored under) and what the table adds (:class:`WinTable`: each seat's
亮倒 and 漂, the horse tiles, the 上楼 dice and base factor) and returns the
:class:`~kawuxing.transfers.Transfer` s. Amounts are integer base units (漂 units for
``piao``, × base only under R11.4).
"""

from __future__ import annotations

from dataclasses import dataclass

from .extras import horse_value, kan_count, pao_qia_mo_ba
from . import SELF_DRAW, HandValue, cap_multiplier, cap_of, declared_doubling
from ..tiles import tile_str
from .transfers import BAO_HU, HAND_VALUE, HORSE, KAN, PAO_QIA_MO_BA, PIAO, Transfer

__all__ = ["WinTable", "everything_doubled", "hand_base", "shang_lou_doubles", "win_transfers"]


@dataclass(frozen=True)
class WinTable:
    """What a win's payments need beyond its hand value (R18.3).

    - ``declared``: each seat (0-2) had declared 亮倒, the discard won on included (R8.8,
      R8.5); the winner's own is its hand's ``declared``.
    - ``piao``: each seat's 漂 (R11.1), units.
    - ``horses``: the horse tiles the winner took (R14.1-R14.3), kinds; empty for none.
    - ``dice``: the two dice of R17.1 ``dice_doubles`` (None when not rolled).
    - ``base_factor``: R17.1 ``after_draw``: the hand's base ×1, ×2, ×4 …
    """

    declared: tuple[bool, bool, bool] = (False, False, False)
    piao: tuple[int, int, int] = (0, 0, 0)
    horses: tuple[int, ...] = ()
    dice: tuple[int, int] | None = None
    base_factor: int = 1


def shang_lou_doubles(rules, dice: tuple[int, int] | None) -> bool:
    """R17.1 ``dice_doubles``: the hand's dice came up equal (豹子)."""
    return rules.shang_lou == "dice_doubles" and dice is not None and dice[0] == dice[1]


def hand_base(rules, base_factor: int) -> int:
    """The base of a hand's hand value, kong money and extras (R18.1, R17.1 ``after_draw``:
    ``base_factor`` ×2 after each 荒庄 or 一炮双响 in a row)."""
    return rules.base * base_factor


def win_transfers(value: HandValue, winner: int, payers: list[int],
                  piao: list[int] | None = None, table: WinTable | None = None) -> list[Transfer]:
    """Every payment of a legal win ``value`` to seat ``winner``, per R18.3.

    ``payers``: the two other seats for a self-draw, or ``[discarder]`` (the konger for a
    robbed kong). ``table`` (default: nobody else declared — but the discarder as the hand
    says, R8.5 — no 漂, horses or 上楼); ``piao`` alone is the older form of ``table.piao``.
    Per payer, in order: one ``hand_value`` (or ``bao_hu``: both shares, R8.4, R8.9-R8.10)
    transfer; the extras ``horse`` (R14), ``kan`` (R15), ``pao_qia_mo_ba`` (R16), each once
    per share; ``piao`` (R11.1, R11.4-R11.5). Under R17.2 ``everything`` with 豹子 every amount
    is ×2. Transfers of 0 are left out, except the hand value. Raises ``ValueError`` for an
    illegal value, bad payers or a bad ``piao``.
    """
    if not value.legal:
        raise ValueError(f"not a legal win: {value.reason}")
    want = 2 if value.win_by == SELF_DRAW else 1
    for name, seat in [("winner", winner)] + [("payer", p) for p in payers]:
        if type(seat) is not int or not 0 <= seat <= 2:
            raise ValueError(f"{name} {seat!r}: a seat is 0, 1 or 2")
    if len(payers) != want or len(set(payers)) != want or winner in payers:
        raise ValueError(f"payers {payers!r} for seat {winner} winning by {value.win_by}: "
                         f"expected {want} other seat(s) (R7.2)")
    for units in (piao, None if table is None else table.piao):
        if units is not None and (len(units) != 3 or any(
                type(u) is not int or u < 0 for u in units)):
            raise ValueError(f"piao {units!r}: one whole number of 漂 units (0 or more) a seat, "
                             f"3 in all (R11.1)")
    hand, rules = value.hand, value.rules
    if table is None:
        declared = [False, False, False]
        if want == 1:
            declared[payers[0]] = hand.discarder_declared
        table = WinTable(tuple(declared), tuple(piao) if piao else (0, 0, 0))
    elif piao is not None:
        raise ValueError("give piao in the table, not beside it")
    extras = _extras(value, table)
    dice = shang_lou_doubles(rules, table.dice)
    out: list[Transfer] = []
    for payer in payers:
        bao = value.bao_hu and want == 1
        owners = [payer, 3 - winner - payer] if bao else [payer]  # R8.4: both shares
        out.append(_hand_value(value, winner, payer, owners, table, dice))
        for kind, amount, rule, params in extras:
            shares = dict(params, shares=len(owners)) if kind != HORSE else params
            out.append(Transfer(payer, winner, amount * len(owners), kind, rule, shares))
        out += _piao(rules, winner, payer, owners, table.piao)
    out = everything_doubled(rules, table.dice, out)  # R18.3 (7)
    return [t for t in out if t.amount or t.kind in (HAND_VALUE, BAO_HU)]


def everything_doubled(rules, dice: tuple[int, int] | None,
                       transfers: list[Transfer]) -> list[Transfer]:
    """R17.2 ``shang_lou_scope = everything``: with 豹子 (R17.1) every payment of the hand is
    ×2 (kong money, 荒庄 compensation and a win's hand value after the cap, extras and 漂),
    each then naming ``dice: 2``; otherwise ``transfers`` as they are (a new list)."""
    if not (shang_lou_doubles(rules, dice) and rules.shang_lou_scope == "everything"):
        return list(transfers)
    return [Transfer(t.payer, t.payee, t.amount * 2, t.kind, t.rule + " R17.2",
                     dict(t.params, dice=2)) for t in transfers]


def _hand_value(value: HandValue, winner: int, payer: int, owners: list[int],
                table: WinTable, dice: bool) -> Transfer:
    """R18.3 (1)-(4): the hand value ``payer`` pays, one share per owner."""
    hand, rules = value.hand, value.rules
    inside = 2 ** hand.passed_wins  # R8.18, inside the cap
    if dice and rules.shang_lou_scope == "hand_value":
        inside *= 2  # R17.2 hand_value: before the cap
    shares = []
    for owner in owners:
        doubling = declared_doubling(rules, table.declared[owner], hand.declared)
        shares.append((doubling, cap_multiplier(value.patterns, rules, inside, doubling)))
    base = hand_base(rules, table.base_factor)
    keys = [p.pattern.key for p in value.pattern_rows]
    params: dict = {"patterns": keys, "multiplier": shares[0][1][1], "win_by": value.win_by}
    rule = "R8.4 R9.7" if len(owners) == 2 else "R7.2 R9.7"
    total_cap = len(owners) == 2 and rules.bao_hu_cap == "total" and rules.cap is not None
    if total_cap:  # R8.10 total: one cap on the two shares' multipliers summed (R9.6 is not
        # applied to the sum: no source combines the two)
        raws = [raw for _, (raw, _, _) in shares]
        multiplier = min(sum(raws), cap_of(value.patterns, rules))
        params["shares"] = raws
        rule += " R8.10"
    else:
        multiplier = sum(capped for _, (_, capped, _) in shares)
        if len({capped for _, (_, capped, _) in shares}) > 1:
            params["shares"] = [capped for _, (_, capped, _) in shares]
    if shares[0][0] > 1 or (len(shares) > 1 and shares[1][0] > 1):
        params["declared_doubling"] = max(d for d, _ in shares)
        rule += " R8.8"
    if hand.passed_wins:
        params["passed_wins"] = hand.passed_wins
        rule += " R8.18"
    if dice and rules.shang_lou_scope == "hand_value":
        params["dice"] = 2
        rule += " R17.2"
    if table.base_factor > 1:
        params["base_factor"] = table.base_factor
        rule += " R17.1"
    kind = BAO_HU if len(owners) == 2 else HAND_VALUE
    return Transfer(payer, winner, multiplier * base, kind, rule, params)


def _extras(value: HandValue, table: WinTable) -> list[tuple[str, int, str, dict]]:
    """R18.3 (5): (kind, units per share × base, rule, params) of each extra that applies:
    horses (R14), 坎 (R15), 跑恰摸八 (R16); R18.2 ``extras_times_base`` false: flat units."""
    hand, rules = value.hand, value.rules
    unit = hand_base(rules, table.base_factor) if rules.extras_times_base else 1
    out = []
    if table.horses:
        worth = horse_value(rules.horse_kind, table.horses, hand.win_tile)
        out.append((HORSE, worth * unit, "R14.1 R14.2",
                    {"tiles": [tile_str(t) for t in table.horses], "value": worth}))
    if rules.shu_kan == "on":
        count = kan_count(hand, value.reading, rules)
        out.append((KAN, count * unit, "R15.1", {"count": count}))
    if rules.pao_qia_mo_ba == "on":
        parts = pao_qia_mo_ba(hand, value.reading, rules)
        out.append((PAO_QIA_MO_BA, sum(parts.values()) * unit, "R16.1 R16.2", parts))
    if out and not rules.extras_times_base:
        out = [(k, a, r + " R18.2", p) for k, a, r, p in out]
    return out


def _piao(rules, winner: int, payer: int, owners: list[int],
          piao: tuple[int, int, int]) -> list[Transfer]:
    """R18.3 (6): 漂 of one payer: piao(payer) + piao(winner) once (R11.1), or under 包胡 with
    R11.5 ``per_share`` piao(winner) + piao(owner) for each share; × base under R11.4."""
    per_share = len(owners) == 2 and rules.piao_bao_hu == "per_share"
    units = sum(piao[winner] + piao[o] for o in (owners if per_share else [payer]))
    if not units:
        return []
    params = {"payer_piao": piao[payer], "payee_piao": piao[winner]}
    rule = "R11.1"
    if per_share:
        params["third_piao"] = piao[owners[1]]
        rule += " R11.5"
    if rules.piao_times_base:
        units *= rules.base
        rule += " R11.4"
    return [Transfer(payer, winner, units, PIAO, rule, params)]
