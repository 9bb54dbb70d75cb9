"""荒庄 compensation of the towns (VARIANTS.md R10.3-R10.6, R2.3): 查叫 by
:func:`kawuxing.scoring.cha_jiao.cha_jiao_transfers` and through the engine, the worked example of
R10 with its variants and exactly its numbers, ``first_declarer_2``, and the next dealer.
Seats: A 0, B 1, C 2."""

from __future__ import annotations

import pytest

from kawuxing.scoring.cha_jiao import DECLARED, NOT_READY, READY, cha_jiao_transfers, classes
from kawuxing.engine import DISCARD, PASS, Action, Hand
from kawuxing.engine.state import SeatState
from kawuxing.melds import Meld
from kawuxing.rules import RuleSet
from kawuxing.tiles import counts_of, parse_tile, parse_tiles
from kawuxing.scoring.transfers import CHA_JIAO, DRAW_COMPENSATION, KAN, PIAO, draw_compensation

A_TILES = "46p 111p 123s 789s 99s"  # 亮, wait 5p: 卡五星 ×2
B_TILES = "222p 777s 88p 99p"  # 听 with a pung of 6z: waits 8p 9p, 碰碰胡 ×2
C_TILES = "1p 3p 5p 7p 9p 2s 4s 6s 8s 5z 6z 7z 1s"  # 未听


def seat(tiles: str, melds: tuple[Meld, ...] = (), declared: bool = False, piao: int = 0,
         waits: str = "") -> SeatState:
    s = SeatState(counts_of(parse_tiles(tiles)), melds=list(melds))
    s.declared, s.waits, s.piao = declared, tuple(parse_tiles(waits)), piao
    return s


def example_seats(piao=(0, 0, 0)) -> list[SeatState]:
    return [seat(A_TILES, declared=True, waits="5p", piao=piao[0]),
            seat(B_TILES, (Meld("pung", parse_tile("6z")),), piao=piao[1]),
            seat(C_TILES, piao=piao[2])]


def pays(transfers) -> list[tuple[int, int, int]]:
    return [(t.payer, t.payee, t.amount) for t in transfers]


def deltas(transfers) -> list[int]:
    out = [0, 0, 0]
    for t in transfers:
        out[t.payer] -= t.amount
        out[t.payee] += t.amount
    return out


def test_r10_3_classes():
    """R10.3: A declared (亮), B ready and undeclared (听), C not ready (未听)."""
    assert classes(example_seats()) == [DECLARED, READY, NOT_READY]


@pytest.mark.parametrize("options, expected, expected_deltas", [
    # the example: C→A 2 × 2 = 4 (A declared), C→B 2, A→B 2 × 2 = 4 (payer declared)
    ({"liang_dao_doubling": "either"}, [(0, 1, 4), (2, 0, 4), (2, 1, 2)], [0, 6, -6]),
    # R8.8 winner: A→B 2 (A +2, B +4)
    ({}, [(0, 1, 2), (2, 0, 4), (2, 1, 2)], [2, 4, -6]),
    # 孝感: all_ready_only + none: C→A 2, C→B 2
    ({"liang_dao_doubling": "either", "cha_jiao_declared_pays": "all_ready_only",
      "cha_jiao_doubling": "none"}, [(2, 0, 2), (2, 1, 2)], [2, 2, -4]),
    # 随州: cha_jiao_flat + first_declarer_all_ready: C→A 1, C→B 1
    ({"liang_dao_doubling": "either", "draw_compensation": "cha_jiao_flat",
      "cha_jiao_declared_pays": "first_declarer_all_ready"}, [(2, 0, 1), (2, 1, 1)], [1, 1, -2]),
    # each: A→B ×2 for the payer's declaration, C→A ×2 for A's: as either here
    ({"liang_dao_doubling": "each"}, [(0, 1, 4), (2, 0, 4), (2, 1, 2)], [0, 6, -6]),
    # base 3
    ({"liang_dao_doubling": "either", "base": 3}, [(0, 1, 12), (2, 0, 12), (2, 1, 6)],
     [0, 18, -18]),
])
def test_r10_example(options, expected, expected_deltas):
    """VARIANTS.md R10 example (``cha_jiao``, R10.4-R10.6 default, base 1, no cap)."""
    rules = RuleSet.preset(**{"draw_compensation": "cha_jiao", **options})
    paid = cha_jiao_transfers(example_seats(), [0], rules)
    assert pays(paid) == expected and deltas(paid) == expected_deltas
    assert all(t.kind == CHA_JIAO for t in paid)


def test_r10_3_params_name_the_best_wait_and_its_patterns():
    """R10.3: the transfer names the classes, the receiver's best wait (A 5p 卡五星, B 8p or 9p
    碰碰胡: the first of equal value) and the multiplier after the doublings."""
    rules = RuleSet.preset(draw_compensation="cha_jiao", liang_dao_doubling="either")
    paid = {(t.payer, t.payee): t.params for t in cha_jiao_transfers(example_seats(), [0], rules)}
    assert paid[(2, 0)] == {"mode": "cha_jiao", "payer_class": "not_ready",
                            "payee_class": "declared", "multiplier": 4, "wait": "5p",
                            "patterns": ["ka_wu_xing"]}
    assert paid[(0, 1)]["patterns"] == ["all_pungs"] and paid[(0, 1)]["wait"] == "8p"


def test_r10_3_cap_and_dice():
    """R10.3: the cap bounds the 查叫 multiplier (cap 2: C→A 2, not 4); R17.2 ``hand_value``
    豹子 doubles it before the cap (C→B 2 × 2 = 4)."""
    rules = RuleSet.preset(draw_compensation="cha_jiao", liang_dao_doubling="either", cap=2)
    assert pays(cha_jiao_transfers(example_seats(), [0], rules)) == [(0, 1, 2), (2, 0, 2),
                                                                      (2, 1, 2)]
    rules = RuleSet.preset(draw_compensation="cha_jiao")
    assert pays(cha_jiao_transfers(example_seats(), [0], rules, dice_doubles=True)) == [
        (0, 1, 4), (2, 0, 8), (2, 1, 4)]


def test_r10_4_first_declarer_all_ready_when_nobody_is_unready():
    """R10.4 ``first_declarer_all_ready``: with C ready too (46s 123p 789p 555z 11s: waits
    5s, 卡五星) nobody is 未听, so the first declarer A pays each other player (B 碰碰胡 2,
    C 卡五星 2; with R8.8 either A's declaration doubles: 4 each); ``cha_jiao_flat``: 1 each."""
    seats = example_seats()
    seats[2] = seat("46s 123p 789p 555z 11s")
    for mode, amount in (("cha_jiao", 4), ("cha_jiao_flat", 1)):
        rules = RuleSet.preset(draw_compensation=mode, liang_dao_doubling="either",
                               cha_jiao_declared_pays="first_declarer_all_ready")
        assert pays(cha_jiao_transfers(seats, [0], rules)) == [(0, 1, amount), (0, 2, amount)]
    always = RuleSet.preset(draw_compensation="cha_jiao_flat")
    assert pays(cha_jiao_transfers(seats, [0], always)) == [(0, 1, 1), (0, 2, 1)]


def test_r10_6_piao_and_kan():
    """R10.6 ``piao_and_kan``: each payment also carries piao(payer) + piao(receiver) and, with
    R15 on, the receiver's 坎 on its best wait (R15.2 ``kinds``): A 111p and 9s (one in 789s,
    two in 99s) = 2; B 222p 777s and 8p completing 888p on the discard = 3 (R15.3
    ``counts``), the exposed 6z pung none. Piao A 1, B 2, C 0."""
    rules = RuleSet.preset(draw_compensation="cha_jiao", cha_jiao_extras="piao_and_kan",
                           shu_kan="on")
    paid = cha_jiao_transfers(example_seats(piao=(1, 2, 0)), [0], rules)
    assert [(t.payer, t.payee, t.amount, t.kind) for t in paid] == [
        (0, 1, 2, CHA_JIAO), (0, 1, 3, PIAO), (0, 1, 3, KAN),
        (2, 0, 4, CHA_JIAO), (2, 0, 1, PIAO), (2, 0, 2, KAN),
        (2, 1, 2, CHA_JIAO), (2, 1, 2, PIAO), (2, 1, 3, KAN)]


def test_r10_3_first_declarer_2():
    """R10.3 ``first_declarer_2``: as first_declarer, 2 × base to each other player."""
    paid = draw_compensation([2, 0], "first_declarer_2", 3)
    assert pays(paid) == [(2, 0, 6), (2, 1, 6)]
    assert all((t.kind, t.rule, t.params) == (DRAW_COMPENSATION, "R10.3",
                                              {"mode": "first_declarer_2"}) for t in paid)


# --- through the engine ------------------------------------------------------------------------

def example_draw(**options) -> Hand:
    """The example as a hand: dealer A (6z 7z off, a concealed 666z pung for B's meld) draws
    the one tile of the wall, 7z, and declares with its discard; nobody takes it: 荒庄."""
    rules = RuleSet.preset(**{"draw_compensation": "cha_jiao", "liang_dao_doubling": "either",
                              **options})
    hand = Hand(rules, 0, [parse_tiles(A_TILES), parse_tiles(B_TILES + " 666z"),
                           parse_tiles(C_TILES)], parse_tiles("7z"))
    hand.apply(Action(0, DISCARD, parse_tile("7z"), True))
    for other in hand.to_act():
        hand.apply(Action(other, PASS))
    assert hand.result == "draw"
    return hand


def test_r10_3_engine_pays_cha_jiao_at_the_exhaustive_draw():
    """The engine settles 荒庄 by 查叫: A 0, B +6, C −6 (B's concealed 666z is a pung as the
    meld was); the transfers are in the hand's result and sum to zero."""
    hand = example_draw()
    assert hand.deltas == [0, 6, -6] and sum(hand.deltas) == 0
    assert pays(hand.transfers) == [(0, 1, 4), (2, 0, 4), (2, 1, 2)]
    assert [e for e in hand.events if e["type"] == "hand_end"][0]["deltas"] == [0, 6, -6]


@pytest.mark.parametrize("options, dealer", [
    ({}, 0),  # R2.2: the dealer stays
    ({"draw_dealer": "cha_jiao_payer"}, 1),  # C and A paid: B deals
    ({"draw_dealer": "cha_jiao_payer", "draw_compensation": "cha_jiao_flat",
      "cha_jiao_declared_pays": "first_declarer_all_ready"}, 2),  # 随州: only C paid
    ({"draw_dealer": "last_drawer"}, 0),  # A drew the last tile
    ({"draw_dealer": "declarer"}, 0),  # A the one declarer
])
def test_r2_3_next_dealer_after_the_draw(options, dealer):
    """R2.3 ``cha_jiao_payer``: one payer deals, two: the third deals, else the dealer stays;
    ``last_drawer``: who drew the last tile deals."""
    assert example_draw(**options).next_dealer == dealer


def test_r2_3_last_drawer_is_not_the_dealer():
    """R2.3 ``last_drawer``: dealer 0 draws and discards, seat 1 draws the last tile and
    discards it: seat 1 deals next."""
    rules = RuleSet.preset(draw_dealer="last_drawer")
    hand = Hand(rules, 0, [parse_tiles(C_TILES), parse_tiles("1p 3p 5p 7p 9p 2s 4s 6s 8s 5z "
                                                             "6z 7z 3s"),
                           parse_tiles("2p 4p 6p 8p 1s 3s 5s 7s 9s 5z 6z 7z 2p")],
                parse_tiles("9s 8p"))
    for seat, tile in ((0, "9s"), (1, "8p")):
        hand.apply(Action(seat, DISCARD, parse_tile(tile)))
        for other in hand.to_act():  # the claim window: everyone passes
            hand.apply(Action(other, PASS))
    assert hand.result == "draw" and hand.next_dealer == 1


def test_a_declared_hand_whose_waits_all_died_collects_no_cha_jiao():
    """R10.3 with R8.1: A declared on 5p, but every 5p is gone (its waits are empty): A is
    still 亮 — it pays B (R10.4 always, R8.8 winner: B's 碰碰胡 ×2) — yet has no wait to value,
    so C pays A nothing (a random 孝感 game once crashed here); C→B 2."""
    seats = example_seats()
    seats[0].waits = ()
    rules = RuleSet.preset("standard", draw_compensation="cha_jiao")
    assert classes(seats) == [DECLARED, READY, NOT_READY]
    assert pays(cha_jiao_transfers(seats, [0], rules)) == [(0, 1, 2), (2, 1, 2)]
