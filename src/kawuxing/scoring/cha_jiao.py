"""查叫 (VARIANTS.md R10.3-R10.6): the 荒庄 compensation paid by the hands left at the end.

At an exhaustive draw each player is 亮 (``declared``), 听 (``ready`` per R8.1, undeclared) or
未听 (``not_ready``). Each 未听 pays each 亮 and 听; each 亮 pays each 听 (R10.4); players of
one class pay each other nothing. Under ``draw_compensation = cha_jiao`` the amount is the
receiver's best value over its waits, each scored as a win on the payer's discard (U13)
without situational patterns and with no minimum; then ×2 if the receiver declared and R8.8's
doubling for the payer (R10.5), R17.2 ``hand_value`` ×2, the cap, × base (never the R17.1
``after_draw`` factor). Under ``cha_jiao_flat`` it is 1 × base. R10.6 ``piao_and_kan`` adds
漂 and the receiver's 坎. Pure: it reads the seats, changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .extras import kan_count
from ..melds import Meld
from ..rules import RuleSet
from . import DISCARD, HandValue, WinningHand, cap_multiplier, declared_doubling, score_hand
from ..shapes import waits
from ..tiles import tile_str, tiles_of
from .transfers import CHA_JIAO, KAN, PIAO, Transfer

__all__ = ["DECLARED", "NOT_READY", "READY", "best_wait", "cha_jiao_transfers", "classes",
           "payers_and_receivers", "seat_waits"]

DECLARED = "declared"  # 亮
READY = "ready"  # 听
NOT_READY = "not_ready"  # 未听


class Seat(Protocol):
    """What 查叫 reads of a seat (:class:`kawuxing.engine.state.SeatState` is one)."""

    concealed: list[int]
    melds: list[Meld]
    declared: bool
    waits: tuple[int, ...]
    hidden: tuple
    piao: int | None

    def held(self) -> list[int]: ...


def seat_waits(seat: Seat) -> tuple[int, ...]:
    """A seat's waits at the end (R8.1): a declared seat's are kept up to date by the engine
    (face-down groups kept whole); an undeclared seat's are those of its concealed hand."""
    if seat.declared:
        return tuple(seat.waits)
    return tuple(waits(seat.concealed, seat.held()))


def classes(seats: Sequence[Seat]) -> list[str]:
    """Each seat's class (R10.3): ``declared`` (亮), ``ready`` (听) or ``not_ready`` (未听)."""
    return [DECLARED if s.declared else READY if seat_waits(s) else NOT_READY for s in seats]


def payers_and_receivers(kinds: list[str], declare_order: Sequence[int],
                         rules: RuleSet) -> list[tuple[int, int]]:
    """The (payer, receiver) pairs of R10.3 with R10.4 ``cha_jiao_declared_pays``, in seat
    order of the payer, then of the receiver."""
    nobody_unready = NOT_READY not in kinds
    mode = rules.cha_jiao_declared_pays
    pairs = []
    for payer in range(3):
        for receiver in range(3):
            if payer == receiver:
                continue
            pk, rk = kinds[payer], kinds[receiver]
            if mode == "first_declarer_all_ready":
                if pk == NOT_READY and rk != NOT_READY:
                    pairs.append((payer, receiver))
                elif nobody_unready and declare_order and payer == declare_order[0]:
                    pairs.append((payer, receiver))  # overrides "one class pays nothing"
            elif pk == NOT_READY and rk != NOT_READY:
                pairs.append((payer, receiver))
            elif pk == DECLARED and rk == READY and (mode == "always" or nobody_unready):
                pairs.append((payer, receiver))
    return pairs


def best_wait(seat: Seat, payer_declared: bool, rules: RuleSet,
              dice_doubles: bool = False) -> tuple[int, HandValue, int] | None:
    """The receiver's best value (R10.3): (wait, its value without situational patterns, the
    payment's multiplier after the R10.5/R8.8 doublings, R17.2 and the cap), the largest
    over its waits; None for a seat with no wait."""
    best = None
    tiles = tuple(tiles_of(seat.concealed))
    for wait in seat_waits(seat):
        value = score_hand(WinningHand(tiles, wait, DISCARD, tuple(seat.melds),
                                       declared=seat.declared, discarder_declared=payer_declared,
                                       hidden=tuple(seat.hidden)), rules, situational=False)
        if value.reading is None:
            continue
        doubling = 1
        if rules.cha_jiao_doubling == "r8_8":  # R10.5
            doubling = (2 if seat.declared else 1) * declared_doubling(
                rules, payer_declared, seat.declared)
        raw, capped, _ = cap_multiplier(value.patterns, rules, 2 if dice_doubles else 1,
                                        doubling)
        if best is None or (capped, raw) > best[0]:
            best = ((capped, raw), wait, value, capped)
    return None if best is None else best[1:]


def cha_jiao_transfers(seats: Sequence[Seat], declare_order: Sequence[int], rules: RuleSet,
                       dice_doubles: bool = False) -> list[Transfer]:
    """The 查叫 payments of an exhaustive draw (R10.3-R10.6), in the order of
    :func:`payers_and_receivers`; each pair: a ``cha_jiao`` transfer, then under R10.6
    ``piao_and_kan`` its ``piao`` and (R15 on) ``kan``. ``dice_doubles``: R17.1 豹子 under
    R17.2 ``hand_value``. Raises ``ValueError`` unless ``rules.draw_compensation`` is
    ``cha_jiao`` or ``cha_jiao_flat``."""
    mode = rules.draw_compensation
    if mode not in ("cha_jiao", "cha_jiao_flat"):
        raise ValueError(f"draw_compensation {mode!r} is not 查叫 (R10.3)")
    kinds = classes(seats)
    out: list[Transfer] = []
    for payer, receiver in payers_and_receivers(kinds, declare_order, rules):
        params: dict = {"mode": mode, "payer_class": kinds[payer],
                        "payee_class": kinds[receiver]}
        best = None
        if mode == "cha_jiao_flat":
            params["multiplier"] = 1
            rule = "R10.3 R10.4"
        else:
            best = best_wait(seats[receiver], seats[payer].declared, rules,
                             dice_doubles and rules.shang_lou_scope == "hand_value")
            if best is None:  # a declared hand whose every wait died (R8.1): no value to pay
                continue
            wait, value, multiplier = best
            params.update(multiplier=multiplier, wait=tile_str(wait),
                          patterns=[p.pattern.key for p in value.pattern_rows])
            rule = "R10.3 R10.4 R10.5"
        out.append(Transfer(payer, receiver, params["multiplier"] * rules.base, CHA_JIAO, rule,
                            params))
        if rules.cha_jiao_extras == "piao_and_kan":
            out += _extras(seats, payer, receiver, best, rules)
    return [t for t in out if t.amount]


def _extras(seats: Sequence[Seat], payer: int, receiver: int,
            best: tuple[int, HandValue, int] | None, rules: RuleSet) -> list[Transfer]:
    """R10.6 ``piao_and_kan``: piao(payer) + piao(receiver) (× base under R11.4) and, with
    R15 ``shu_kan`` on, the receiver's 坎 on its best wait (× base under R18.2)."""
    pp, rp = seats[payer].piao or 0, seats[receiver].piao or 0
    units = (pp + rp) * (rules.base if rules.piao_times_base else 1)
    out = [Transfer(payer, receiver, units, PIAO, "R10.6 R11.1",
                    {"payer_piao": pp, "payee_piao": rp})]
    if rules.shu_kan == "on":
        if best is None:  # cha_jiao_flat: the best wait is still what 坎 is counted on
            best = best_wait(seats[receiver], seats[payer].declared, rules)
        _, value, _ = best
        count = kan_count(value.hand, value.reading, rules)
        unit = rules.base if rules.extras_times_base else 1
        out.append(Transfer(payer, receiver, count * unit, KAN, "R10.6 R15.1",
                            {"count": count, "shares": 1}))
    return out
