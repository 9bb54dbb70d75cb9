"""Concrete rule tests of the engine (RULES.md R2, R4-R8, R10, R11) on scripted hands.

Each test deals explicit hands and draws with ``Hand(rules, dealer, hands, draws)`` (as the game
cases of CASES.md do), plays actions that must be offered by ``hand.legal_actions``, and checks
the outcome against numbers worked out by hand in the docstring / comments. Seats: the dealer
draws ``draws[0]`` first; turn order is seat i -> seat (i+1) % 3 (R1.2).
"""

from __future__ import annotations

import copy

import pytest

from kawuxing.engine import (ADDED_KONG, CLAIM, CONCEALED_KONG, DISCARD, ENDED, KONG, PASS, PIAO,
                             PIAO_PHASE, PUNG, ROB, TURN, WIN, Action, Hand, IllegalAction)
from kawuxing.engine.views import events_for_seat, seat_view
from kawuxing.rules import RuleSet
from kawuxing.tiles import parse_tile, parse_tiles
from kawuxing.scoring.transfers import KONG_KINDS

from helpers import auto_pass

ANSWERS = (WIN, PUNG, KONG, PASS)


# --- helpers ---------------------------------------------------------------------------------

def new_hand(hands: list[str], draws: str, dealer: int = 0, piao: list[int] | None = None,
             preset: str = "standard", **options: object) -> Hand:
    rules = RuleSet.preset(preset, **options)
    hand = Hand(rules, dealer, [parse_tiles(h) for h in hands], parse_tiles(draws), piao)
    assert hand.tiles_accounted() == 39 + len(hand.draws)
    return hand


def make(seat: int, verb: str, tile: str | None = None, declare: bool = False,
         hidden: tuple[str, ...] = (), piao: int | None = None) -> Action:
    return Action(seat, verb, parse_tile(tile) if tile else None, declare,
                  tuple(sorted(parse_tile(t) for t in hidden)), piao)


def pass_all(hand: Hand) -> None:
    """Every seat still holding an option on the tile on the table passes."""
    if hand.phase in (CLAIM, ROB):
        for seat in hand.to_act():
            hand.apply(Action(seat, PASS))


def act(hand: Hand, seat: int, verb: str, tile: str | None = None, declare: bool = False,
        hidden: tuple[str, ...] = (), piao: int | None = None) -> list[dict]:
    """Apply an action that must be offered; like the game cases, seats with an option on the
    table pass first when the action does not answer it."""
    action = make(seat, verb, tile, declare, hidden, piao)
    if hand.phase in (CLAIM, ROB) and not (verb in ANSWERS and seat in hand.to_act()):
        pass_all(hand)
    assert action in hand.legal_actions(seat), (str(action), [str(a) for a in
                                                             hand.legal_actions(seat)])
    events = hand.apply(action)
    auto_pass(hand)
    assert hand.tiles_accounted() == 39 + len(hand.draws)
    assert sum(hand.deltas) == 0
    return events


def snapshot(hand: Hand) -> tuple:
    return (copy.deepcopy(hand.seats), hand.phase, hand.current, copy.deepcopy(hand.pending),
            list(hand.deltas), len(hand.events), hand.wall_left, len(hand.transfers),
            len(hand.actions), list(hand.winners), hand.result, hand.next_dealer)


def refuse(hand: Hand, seat: int, verb: str, tile: str | None = None, declare: bool = False,
           hidden: tuple[str, ...] = (), piao: int | None = None,
           rule: str | None = None) -> IllegalAction:
    """The action is not offered, is refused with ``rule`` in the message, changes nothing."""
    action = make(seat, verb, tile, declare, hidden, piao)
    assert action not in hand.legal_actions(seat)
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as info:
        hand.apply(action)
    assert snapshot(hand) == before
    if rule is not None:
        assert rule in str(info.value), str(info.value)
    return info.value


def verbs(hand: Hand, seat: int) -> set[str]:
    return {a.verb for a in hand.legal_actions(seat)}


def kong_transfers(hand: Hand) -> list[tuple[int, int, int]]:
    return [(t.payer, t.payee, t.amount) for t in hand.transfers if t.kind in KONG_KINDS]


# Hands of the claim-priority tests (after game case g03): dealer 5p-holder, two 5p waits.
FIVE = "5p 111s 222s 333s 789p"        # holds the 5p that is discarded
WAIT_A = "46p 456s 789s 99s 777z"      # + 5p: 卡五星 ×2
WAIT_B = "46p 888p 555s 66z 123p"      # + 5p: 卡五星 ×2


# --- R4.3 claim priority ---------------------------------------------------------------------

def _win_vs_pung() -> Hand:
    # seat 1 holds 55p (pung), seat 2 waits 46p (win on 5p, 卡五星 ×2)
    hand = new_hand([FIVE, "55p 19p 19s 5z 6z 7z 2468s", WAIT_B], "7z 9s 1p")
    act(hand, 0, DISCARD, "5p")
    assert hand.phase == CLAIM and hand.to_act() == [1, 2]
    assert verbs(hand, 1) == {PUNG, PASS} and verbs(hand, 2) == {WIN, PASS}
    return hand


def test_r4_3_win_beats_pung_whoever_answers_first():
    """R4.3: a win beats a pung. Seat 2 wins 卡五星 ×2 on dealer 0's 5p although seat 1 answered
    pung first: deltas [-2, 0, 2]; R2.2 the winner deals next."""
    hand = _win_vs_pung()
    act(hand, 1, PUNG)
    assert hand.phase == CLAIM and hand.to_act() == [2]  # the pung waits for the win
    act(hand, 2, WIN)
    assert hand.winners == [2] and hand.result == "win"
    assert hand.values[2].pattern_names == ["卡五星"] and hand.values[2].multiplier == 2
    assert hand.deltas == [-2, 0, 2]
    assert hand.next_dealer == 2
    assert hand.seats[1].melds == []


def test_r4_3_pung_taken_only_if_nobody_wins_and_r7_5_the_pass_is_recorded():
    """R4.3: the pung is taken only once the winner passed; the pass is a 漏胡 (R7.5) of ×2."""
    hand = _win_vs_pung()
    act(hand, 2, PASS)
    assert hand.phase == CLAIM and hand.to_act() == [1]
    act(hand, 1, PUNG)
    assert hand.phase == TURN and hand.current == 1
    assert [str(m) for m in hand.seats[1].melds] == ["pung:5p"]
    assert hand.seats[2].missed == [2]
    assert hand.seats[1].drawn is None  # R4.4: discard without drawing
    assert all(a.verb == DISCARD for a in hand.legal_actions(1))


def test_r4_3_double_win_both_win_and_the_discarder_deals_next():
    """R4.3 一炮双响 (double_win true): seats 2 and 0 both win ×2 on seat 1's 5p; seat 1 pays
    2 + 2: deltas [2, -4, 2]; R2.2 the discarder (seat 1) deals next."""
    hand = new_hand([WAIT_B, FIVE, WAIT_A], "5z 9s 1p", dealer=0)
    act(hand, 0, DISCARD, "5z")
    act(hand, 1, DISCARD, "5p")
    assert hand.to_act() == [0, 2]
    act(hand, 0, WIN)
    act(hand, 2, WIN)
    assert sorted(hand.winners) == [0, 2]
    assert hand.deltas == [2, -4, 2]
    assert hand.next_dealer == 1


@pytest.mark.parametrize("order", [(0, 2), (2, 0)])
def test_r4_3_jiehu_without_double_win_nearest_after_the_discarder_wins(order):
    """R4.3 截胡 (double_win false): seat 1 discards, seats 2 and 0 both claim the win; the
    nearest in turn order after the discarder is seat 2 (1 -> 2 -> 0), whatever the answer
    order. Seat 1 pays ×2: deltas [0, -2, 2]; R2.2 the single winner deals next."""
    hand = new_hand([WAIT_B, FIVE, WAIT_A], "5z 9s 1p", dealer=0, double_win=False)
    act(hand, 0, DISCARD, "5z")
    act(hand, 1, DISCARD, "5p")
    for seat in order:
        act(hand, seat, WIN)
    assert hand.winners == [2]
    assert hand.deltas == [0, -2, 2]
    assert hand.next_dealer == 2


def test_r4_3_jiehu_the_farther_winner_wins_when_the_nearest_passes():
    """R4.3 截胡: when the nearest claimant (seat 2) passes, seat 0 wins: deltas [2, -2, 0]."""
    hand = new_hand([WAIT_B, FIVE, WAIT_A], "5z 9s 1p", dealer=0, double_win=False)
    act(hand, 0, DISCARD, "5z")
    act(hand, 1, DISCARD, "5p")
    act(hand, 2, PASS)
    act(hand, 0, WIN)
    assert hand.winners == [0]
    assert hand.deltas == [2, -2, 0]
    assert hand.next_dealer == 0


# --- R5 the end of the wall ------------------------------------------------------------------

# seat 0 (dealer) holds the 4th 9p; seat 1 holds 999p; seat 2 waits 6p/9p with 清一色 (×4).
LAST_HANDS = ["9p 68s 5z 6z 7z 123s 4567p", "999p 1s 3s 5s 7s 9s 5z 6z 7z 2s 4s",
              "11p 123p 456p 345p 78p"]


def test_r5_3_no_pung_or_kong_on_the_last_discard_only_a_win():
    """R5.3: the dealer draws the last tile and discards 9p: seat 2 may win on it, seat 1
    (holding 999p) may neither pung nor kong. Seat 2 passes: 荒庄, deltas [0, 0, 0]; R2.2 the
    dealer stays."""
    hand = new_hand(LAST_HANDS, "5z")
    assert hand.wall_left == 0
    act(hand, 0, DISCARD, "9p")
    assert hand.pending.last and hand.to_act() == [2]
    assert hand.legal_actions(1) == []
    refuse(hand, 1, PUNG, rule="R5.3")
    refuse(hand, 1, KONG, rule="R5.3")
    act(hand, 2, PASS)
    assert hand.result == "draw" and hand.deltas == [0, 0, 0] and hand.next_dealer == 0


def test_r5_3_the_last_discard_may_be_won_on():
    """R5.3: seat 2 wins 清一色 ×4 on the last discard (no 海底 bonus by default): [-4, 0, 4]."""
    hand = new_hand(LAST_HANDS, "5z")
    act(hand, 0, DISCARD, "9p")
    act(hand, 2, WIN)
    assert hand.values[2].pattern_names == ["清一色"]
    assert hand.deltas == [-4, 0, 4] and hand.next_dealer == 2


@pytest.mark.parametrize("pay, deltas", [(2, [-2, 2, 0]), (1, [-1, 1, 0])])
def test_r5_4_kong_whose_replacement_is_the_last_tile_r6_3_direct_kong_pay(pay, deltas):
    """R5.4: one tile is left when the dealer discards 9p, so seat 1 may pung or kong it; the
    kong's replacement (8s) is the last tile. R6.3: the discarder alone pays direct_kong_pay
    (2 default, or 1). R5.2: with the wall empty no further kong; seat 1's discard is the last
    one; 荒庄 and R6.6 the kong money stands: deltas [-pay, pay, 0]."""
    hand = new_hand(LAST_HANDS, "5z 8s", direct_kong_pay=pay)
    act(hand, 0, DISCARD, "9p")
    assert verbs(hand, 1) == {PUNG, KONG, PASS}
    act(hand, 2, PASS)
    act(hand, 1, KONG)
    assert hand.wall_left == 0 and hand.seats[1].drawn == parse_tile("8s")
    assert kong_transfers(hand) == [(0, 1, pay)]
    assert {a.verb for a in hand.legal_actions(1)} == {DISCARD}
    act(hand, 1, DISCARD, "8s")
    assert hand.result == "draw"
    assert hand.deltas == deltas and hand.next_dealer == 0


def test_r5_2_and_r5_4_concealed_kong_needs_a_tile_left_in_the_wall():
    """R5.4: holding 1111s with one tile left the dealer may kong (replacement = last tile);
    R5.2: having drawn the last tile, nobody may kong."""
    hands = ["1111s 2p 4p 6p 8p 5z 6z 7z 3s 5s", "2s 4s 6s 8s 1p 3p 5p 7p 9p 5z 6z 7z 9s",
             "2s 4s 6s 8s 1p 3p 5p 7p 9p 5z 6z 7z 9s"]
    one_left = new_hand(hands, "2p 3p")
    assert one_left.wall_left == 1
    assert make(0, CONCEALED_KONG, "1s") in one_left.legal_actions(0)
    act(one_left, 0, CONCEALED_KONG, "1s")
    assert one_left.wall_left == 0 and one_left.deltas == [4, -2, -2]
    empty = new_hand(hands, "2p")
    assert empty.wall_left == 0
    assert CONCEALED_KONG not in verbs(empty, 0)
    refuse(empty, 0, CONCEALED_KONG, "1s", rule="R5.2")


# --- R6 kongs and kong money -----------------------------------------------------------------

def test_r6_1_no_concealed_kong_in_the_turn_of_a_pung():
    """R6.1: seat 1 holds 1111s and pungs 2p: no 暗杠 in that turn (and no self-draw). On its
    next draw the kong is allowed: each other pays 2, deltas [-2, 4, -2]."""
    hand = new_hand(["2p 5z 6z 7z 3s 5s 7s 9s 4p 6p 8p 9p 1p",
                     "1111s 22p 5p 7p 3p 8s 6s 4s 2s",
                     "5z 6z 7z 9s 8s 3p 5p 7p 9p 1p 4s 6s 3s"], "7s 2s 3s 4p 6p 8p")
    act(hand, 0, DISCARD, "2p")
    act(hand, 1, PUNG)
    assert CONCEALED_KONG not in verbs(hand, 1) and WIN not in verbs(hand, 1)
    refuse(hand, 1, CONCEALED_KONG, "1s", rule="R6.1")
    act(hand, 1, DISCARD, "8s")
    act(hand, 2, DISCARD, "2s")
    act(hand, 0, DISCARD, "3s")
    assert hand.current == 1 and hand.seats[1].drawn == parse_tile("4p")
    act(hand, 1, CONCEALED_KONG, "1s")
    assert hand.deltas == [-2, 4, -2]


def test_r6_4_pung_with_three_in_hand_can_never_kong_later():
    """R6.4 不能碰后再杠: seat 1 holds 222p and is offered both pung and kong of the 4th 2p; it
    pungs, keeps one 2p in hand, and is never offered a kong of 2p afterwards."""
    hand = new_hand(["2p 5z 6z 7z 3s 5s 7s 9s 4p 6p 8p 9p 1p",
                     "222p 5p 7p 3p 8s 6s 4s 2s 11s 9s",
                     "5z 6z 7z 9s 8s 3p 5p 7p 9p 1p 4s 6s 3s"], "7s 2s 3s 4p 6p 8p")
    act(hand, 0, DISCARD, "2p")
    assert verbs(hand, 1) == {PUNG, KONG, PASS}
    act(hand, 1, PUNG)
    act(hand, 1, DISCARD, "8s")
    act(hand, 2, DISCARD, "2s")
    act(hand, 0, DISCARD, "3s")
    assert hand.current == 1
    assert not {CONCEALED_KONG, ADDED_KONG} & verbs(hand, 1)
    refuse(hand, 1, ADDED_KONG, "2p", rule="R6.2")


def test_r6_5_chain_of_three_kongs_pays_1x_2x_4x_and_a_normal_draw_ends_it():
    """R6.5 杠上杠: dealer 0 draws the 4th 9p; 暗杠 1s (each pays 2: [4,-2,-2]); on the
    replacement 暗杠 9p, kong 2 of the chain ×2 (each pays 4: [12,-6,-6]); discards 3s right
    after the kong and seat 1 直杠s it, kong 3 ×4: seat 0 pays 2×4 = 8 ([4,2,-6]). Seat 1
    discards, seat 2 draws normally (the chain ends) and 暗杠s 8p at ×1: each pays 2
    ([2,0,-2]). Its replacement is the last tile; its discard is the last one: 荒庄, the kong
    money stands (R6.6)."""
    hand = new_hand(["1111s 999p 3s 5z 6z 7z 2p 4p",
                     "333s 5p 7p 8s 6s 4s 2s 5z 6z 1p 3p",
                     "888p 7s 9s 5s 7z 5z 6z 1p 3p 6p 2p"], "9p 7s 2s 6s 8p 4p")
    assert {a.tile for a in hand.legal_actions(0) if a.verb == CONCEALED_KONG} == {
        parse_tile("1s"), parse_tile("9p")}
    act(hand, 0, CONCEALED_KONG, "1s")
    assert hand.deltas == [4, -2, -2]
    act(hand, 0, CONCEALED_KONG, "9p")
    assert hand.deltas == [12, -6, -6]
    act(hand, 0, DISCARD, "3s")
    assert hand.pending.after_kong and KONG in verbs(hand, 1)
    act(hand, 1, KONG)
    assert hand.deltas == [4, 2, -6]
    act(hand, 1, DISCARD, "5z")
    act(hand, 2, CONCEALED_KONG, "8p")
    assert kong_transfers(hand) == [(1, 0, 2), (2, 0, 2), (1, 0, 4), (2, 0, 4), (0, 1, 8),
                                    (0, 2, 2), (1, 2, 2)]
    assert hand.deltas == [2, 0, -2]
    assert hand.wall_left == 0
    act(hand, 2, DISCARD, "4p")
    assert hand.result == "draw" and hand.deltas == [2, 0, -2] and hand.next_dealer == 0


def test_r6_6_kong_money_stands_after_gang_shang_pao():
    """R6.6 杠上炮 杠钱照算: dealer 0 暗杠s 1s ([4,-2,-2]) and discards 5p right after; seat 1
    wins 卡五星 ×2 × 杠上炮 ×2 = ×4 and seat 0 pays 4: deltas [0, 2, -2]."""
    hand = new_hand(["1111s 5p 3s 5z 6z 7z 2p 8p 7s 9s", "46p 456s 789s 234p 99p",
                     "1p 3p 7p 9p 2s 3s 8s 5z 6z 7z 6p 8p 5s"], "5z 2s 3p")
    act(hand, 0, CONCEALED_KONG, "1s")
    act(hand, 0, DISCARD, "5p")
    act(hand, 1, WIN)
    assert sorted(hand.values[1].pattern_names) == sorted(["卡五星", "杠上炮"])
    assert hand.values[1].multiplier == 4
    assert hand.deltas == [0, 2, -2] and hand.next_dealer == 1


def test_r7_4_r6_6_a_robbed_kong_pays_no_kong_money():
    """R7.4 (game case g02 played here): seat 0 adds 7s, seat 2 robs it with 抢杠胡 ×2; no kong
    money (the kong never happened): deltas [-2, 0, 2]."""
    hand = new_hand(["77s 123p 456p 99p 5z 6z 7z", "7s 99s 11p 22p 44p 55p 66p",
                     "68s 345s 777p 888p 33p"], "1s 2s 3s 4s 7s 9p 8s")
    act(hand, 0, DISCARD, "5z")
    act(hand, 1, DISCARD, "7s")
    act(hand, 0, PUNG)
    act(hand, 0, DISCARD, "6z")
    act(hand, 1, DISCARD, "3s")
    act(hand, 2, DISCARD, "4s")
    act(hand, 0, ADDED_KONG, "7s")
    assert hand.phase == ROB and hand.to_act() == [2] and verbs(hand, 2) == {WIN, PASS}
    act(hand, 2, WIN)
    assert kong_transfers(hand) == []
    assert hand.deltas == [-2, 0, 2]


def test_r7_4_robbing_kong_off_the_added_kong_stands():
    """R7.4 robbing_kong false: no rob window; the added kong is paid 1 by each other."""
    hand = new_hand(["77s 123p 456p 99p 5z 6z 7z", "7s 99s 11p 22p 44p 55p 66p",
                     "68s 345s 777p 888p 33p"], "1s 2s 3s 4s 7s 9p 8s", robbing_kong=False)
    for seat, verb, tile in [(0, DISCARD, "5z"), (1, DISCARD, "7s"), (0, PUNG, None),
                             (0, DISCARD, "6z"), (1, DISCARD, "3s"), (2, DISCARD, "4s"),
                             (0, ADDED_KONG, "7s")]:
        act(hand, seat, verb, tile)
    assert hand.phase == TURN and hand.current == 0
    assert hand.deltas == [2, -1, -1]


# --- R7.5 漏胡 --------------------------------------------------------------------------------

MISS_HANDS = ["1111s 5p 3s 5z 6z 7z 2p 8p 7s 9s", "46p 456s 789s 234p 99p",
              "5p 1p 3p 7p 9p 2s 3s 8s 5z 6z 7z 6p 8p"]


def _passed_five(option: str) -> Hand:
    # dealer 2 discards 5p; seat 1 (46p, 卡五星 ×2) passes the win
    hand = new_hand(MISS_HANDS, "7z 5z 2s 3p 9s", dealer=2, missed_win_exception=option)
    act(hand, 2, DISCARD, "5p")
    assert verbs(hand, 1) == {WIN, PASS}
    act(hand, 1, PASS)
    assert hand.seats[1].missed == [2]
    return hand


def test_r7_5_bigger_allows_a_bigger_win_before_the_own_draw():
    """R7.5 missed_win_exception bigger: after passing ×2, seat 1 may win on seat 0's 5p
    discarded right after a 暗杠 (卡五星 × 杠上炮 = ×4 > 2). Kong [4,-2,-2], then seat 0 pays 4:
    deltas [0, 2, -2]."""
    hand = _passed_five("bigger")
    act(hand, 0, CONCEALED_KONG, "1s")
    act(hand, 0, DISCARD, "5p")
    assert verbs(hand, 1) == {WIN, PASS}
    act(hand, 1, WIN)
    assert hand.values[1].multiplier == 4
    assert hand.deltas == [0, 2, -2]


def test_r7_5_none_blocks_even_a_bigger_win():
    """R7.5 missed_win_exception none: the ×4 win is refused until seat 1's own draw; nobody
    else can take the 5p, so seat 1 simply draws next. Deltas: only the kong, [4, -2, -2]."""
    hand = _passed_five("none")
    act(hand, 0, CONCEALED_KONG, "1s")
    act(hand, 0, DISCARD, "5p")
    assert hand.phase == TURN and hand.current == 1  # no claim window at all
    assert hand.winners == [] and hand.deltas == [4, -2, -2]
    assert hand.seats[1].missed == []  # the own draw lifted the block


@pytest.mark.parametrize("option", ["bigger", "none"])
def test_r7_5_an_equal_win_is_blocked_under_both_options(option):
    """R7.5: after passing ×2, the same ×2 win on seat 0's plain 5p discard is refused."""
    hand = _passed_five(option)
    act(hand, 0, DISCARD, "5p")
    assert hand.phase == TURN and hand.current == 1 and hand.winners == []


# --- R8 亮倒 ----------------------------------------------------------------------------------

DECLARE_HANDS = ["1p 2p 4p 6p 8p 5z 6z 7z 1s 8s 9s 5p 7p", "2333s 4567s 111p 99p",
                 "2p 3p 5p 7p 9p 1s 8s 9s 5z 6z 7z 4p 8p"]
DECLARE_DRAWS = "3p 7z 5s 6p 5z 6s 4s 3s 7s"


def test_r8_2_r8_3_declared_hand_23334567_may_not_kong_3():
    """R8.1: seat 1 declares 2333s 4567s 111p 99p (waits 9p 3s). R8.3: it may 直杠 the 1p that
    seat 0 discards (waits unchanged; no pung after 亮倒, R8.2): seat 0 pays 2. R8.2: it must
    discard the drawn tile. R8.3 (seed 000: 23334567 may not kong 3): drawing the 4th 3s it may
    win or discard it, never 暗杠 it. 荒庄: R10.2 per_declarer, seat 1 pays 1 to each other:
    deltas [-2+1, 2-2, 0+1] = [-1, 0, 1]."""
    hand = new_hand(DECLARE_HANDS, DECLARE_DRAWS)
    act(hand, 0, DISCARD, "3p")
    act(hand, 1, DISCARD, "7z", declare=True)
    assert hand.seats[1].declared
    assert hand.seats[1].waits == (parse_tile("9p"), parse_tile("3s"))
    act(hand, 2, DISCARD, "5s")
    act(hand, 0, DISCARD, "1p")
    assert verbs(hand, 1) == {KONG, PASS}  # no pung after 亮倒, kong keeps the waits
    act(hand, 1, KONG)
    assert hand.deltas == [-2, 2, 0]
    assert [a for a in hand.legal_actions(1) if a.verb == DISCARD] == [make(1, DISCARD, "5z")]
    refuse(hand, 1, DISCARD, "2s", rule="R8.2")
    refuse(hand, 1, DISCARD, "5z", declare=True, rule="R8.1")
    act(hand, 1, DISCARD, "5z")
    act(hand, 2, DISCARD, "6s")
    act(hand, 0, DISCARD, "4s")
    assert hand.seats[1].drawn == parse_tile("3s") and hand.seats[1].concealed[
        parse_tile("3s")] == 4
    assert verbs(hand, 1) == {WIN, DISCARD}
    refuse(hand, 1, CONCEALED_KONG, "3s", rule="R8.3")
    act(hand, 1, DISCARD, "3s")
    act(hand, 2, DISCARD, "7s")
    assert hand.result == "draw"
    assert hand.deltas == [-1, 0, 1] and hand.next_dealer == 0


def test_r2_2_draw_dealer_declarer_the_single_declarer_deals_next():
    """R2.2 draw_dealer declarer: the hand above ends in 荒庄 with seat 1 the only declarer."""
    hand = new_hand(DECLARE_HANDS, DECLARE_DRAWS, draw_dealer="declarer")
    for seat, verb, tile, declare in [(0, DISCARD, "3p", False), (1, DISCARD, "7z", True),
                                      (2, DISCARD, "5s", False), (0, DISCARD, "1p", False),
                                      (1, KONG, None, False), (1, DISCARD, "5z", False),
                                      (2, DISCARD, "6s", False), (0, DISCARD, "4s", False),
                                      (1, DISCARD, "3s", False), (2, DISCARD, "7s", False)]:
        act(hand, seat, verb, tile, declare)
    assert hand.result == "draw" and hand.next_dealer == 1


def test_r8_3_added_kong_after_declaring_is_always_allowed():
    """R8.3: seat 1 pungs 5z, declares 46p 456s 789s 99p (waits 5p), then draws the 4th 5z:
    补杠 is offered; each other pays 1. draw_compensation none: deltas [-1, 2, -1]."""
    hand = new_hand(["5z 1p 3p 8p 1s 3s 7z 6z 2p 7p 9p 2s 6s", "55z 46p 456s 789s 99p 2s",
                     "1p 3p 8p 1s 3s 7z 6z 2p 7p 9p 8s 5s 4s"], "1s 4p 6p 5z 8s 3s",
                    draw_compensation="none")
    act(hand, 0, DISCARD, "5z")
    act(hand, 1, PUNG)
    act(hand, 1, DISCARD, "2s", declare=True)
    assert hand.seats[1].waits == (parse_tile("5p"),)
    act(hand, 2, DISCARD, "4p")
    act(hand, 0, DISCARD, "6p")
    assert make(1, ADDED_KONG, "5z") in hand.legal_actions(1)
    act(hand, 1, ADDED_KONG, "5z")
    assert hand.deltas == [-1, 2, -1]
    act(hand, 1, DISCARD, "8s")
    act(hand, 2, DISCARD, "3s")
    assert hand.result == "draw" and hand.deltas == [-1, 2, -1]


def test_r8_3_declared_exposed_kong_that_loses_a_wait_is_refused():
    """R8.3: seat 1 declares 333s 4566s 345567p, waits 3s 6s. Seat 0 discards the 4th 3s:
    seat 1 may win on it, but not 直杠 it: after the kong all four 3s are held, the waits are
    6s only (R8.1: a kind whose four copies the player holds is no wait), not the same. (The
    same rule already refused the 暗杠 of a drawn 4th 3s.)"""
    hand = new_hand(["3s 1p 2p 9p 1s 8s 9s 5z 6z 7z 7p 8p 2s", "333s 4566s 345567p",
                     "1p 2p 9p 1s 8s 9s 5z 6z 7z 7p 8p 2s 7s"], "4p 6z 1p 9s 3p 4p")
    act(hand, 0, DISCARD, "4p")
    act(hand, 1, DISCARD, "6z", declare=True)
    assert hand.seats[1].waits == (parse_tile("3s"), parse_tile("6s"))
    act(hand, 2, DISCARD, "1p")
    act(hand, 0, DISCARD, "3s")
    assert verbs(hand, 1) == {WIN, PASS}
    refuse(hand, 1, KONG, rule="R8.3")


def test_r8_3_declared_concealed_kong_that_keeps_the_waits_is_allowed():
    """R8.3: seat 1 declares 111p 46p 123s 456s 99s (waits 5p); the 4th 1p drawn may be
    暗杠ged, the waits staying 5p; each other pays 2: deltas [-2, 4, -2]."""
    hand = new_hand(["2p 4p 9p 1s 2s 8s 8s 9s 5z 6z 7z 6s 3p", "111p 46p 123s 456s 99s",
                     "2p 3p 9p 1s 2s 8s 9s 6z 7z 6s 7s 3p 6p"], "7s 7z 5z 7z 1p 6z 8p")
    act(hand, 0, DISCARD, "7s")
    act(hand, 1, DISCARD, "7z", declare=True)
    assert hand.seats[1].waits == (parse_tile("5p"),)
    act(hand, 2, DISCARD, "5z")
    act(hand, 0, DISCARD, "7z")
    assert make(1, CONCEALED_KONG, "1p") in hand.legal_actions(1)
    act(hand, 1, CONCEALED_KONG, "1p")
    assert hand.deltas == [-2, 4, -2]


# R8.5 / R8.4: seat 1 waits 5p (46p 444s 555s 666s 88s), seat 2 waits 6p 9p (78p 111s ...).
MUTUAL_HANDS = ["1p 3p 9p 2p 7s 8s 9s 55z 66z 77z", "46p 444s 555s 666s 88s",
                "78p 111s 222s 333s 99s"]


@pytest.mark.parametrize("mode, deltas", [("double", [0, 8, -8]), ("single", [0, 4, -4])])
def test_r8_5_mutual_declared(mode, deltas):
    """R8.4/R8.5: seats 1 and 2 both declare; seat 2 draws 5p and must discard it (R8.2); seat
    1 wins 卡五星 ×2 × 亮倒 ×2 = ×4. mutual_declared double: 包胡, seat 2 pays 2×4 = 8;
    single (对亮不包): seat 2 pays 4."""
    hand = new_hand(MUTUAL_HANDS, "7z 6z 5z 7s 8p 5p", mutual_declared=mode)
    act(hand, 0, DISCARD, "7z")
    act(hand, 1, DISCARD, "6z", declare=True)
    act(hand, 2, DISCARD, "5z", declare=True)
    assert hand.seats[2].waits == (parse_tile("6p"), parse_tile("9p"))
    act(hand, 0, DISCARD, "7s")
    act(hand, 1, DISCARD, "8p")
    assert hand.seats[2].drawn == parse_tile("5p")
    assert [a.verb for a in hand.legal_actions(2)] == [DISCARD]
    act(hand, 2, DISCARD, "5p")
    act(hand, 1, WIN)
    assert sorted(hand.values[1].pattern_names) == sorted(["卡五星", "亮倒"])
    assert hand.values[1].multiplier == 4
    assert hand.values[1].bao_hu == (mode == "double")
    assert hand.deltas == deltas and hand.next_dealer == 1


# R8.6: seat 1 declares 3334s 567p 789p 111p (waits 2s 4s 5s).
HIDE_HANDS = ["2p 4p 9p 1s 2s 8s 8s 9s 5z 6z 7z 6s 3p", "3334s 567p 789p 111p",
              "2p 4p 9p 1s 2s 8s 9s 6z 7z 6s 7s 3p 6p"]
HIDE_DRAWS = "7s 5z 9s 1s 1p 6z 8p"


def test_r8_6_hidden_triplets_offered_only_when_the_waits_are_unchanged():
    """R8.6 declare_hide_triplets: 111p may be kept face down (waits stay 2s 4s 5s); hiding
    333s would leave only 4s, so it is neither offered nor accepted, alone or with 111p."""
    hand = new_hand(HIDE_HANDS, HIDE_DRAWS, declare_hide_triplets=True)
    act(hand, 0, DISCARD, "7s")
    declares = {a.hidden for a in hand.legal_actions(1) if a.declare and a.tile ==
                parse_tile("5z")}
    assert declares == {(), (parse_tile("1p"),)}
    refuse(hand, 1, DISCARD, "5z", declare=True, hidden=("3s",), rule="R8.6")
    refuse(hand, 1, DISCARD, "5z", declare=True, hidden=("3s", "1p"), rule="R8.6")
    off = new_hand(HIDE_HANDS, HIDE_DRAWS)
    act(off, 0, DISCARD, "7s")
    assert not any(a.hidden for a in off.legal_actions(1))
    refuse(off, 1, DISCARD, "5z", declare=True, hidden=("1p",), rule="R8.6")


def test_r8_6_hidden_triplet_stays_hidden_in_views_and_can_be_konged():
    """R8.6/R13: the others see 567789p 3334s and one hidden triplet, never 1p; the owner sees
    its whole hand. Drawing the 4th 1p, seat 1 may 暗杠 it ([-2, 4, -2]); neither the drawn 1p
    nor the kong's tile is shown to the others (R6.1, R13: a drawn tile is seen when it is
    discarded). 荒庄 per_declarer: seat 1 pays 1 each: [-1, 2, -1]."""
    hand = new_hand(HIDE_HANDS, HIDE_DRAWS, declare_hide_triplets=True)
    act(hand, 0, DISCARD, "7s")
    act(hand, 1, DISCARD, "5z", declare=True, hidden=("1p",))
    assert hand.seats[1].waits == (parse_tile("2s"), parse_tile("4s"), parse_tile("5s"))
    for seat in (0, 2):
        entry = seat_view(hand, seat)["seats"][1]
        assert entry["revealed"] == "567789p 3334s"
        assert entry["hidden_tiles"] == 3
        assert entry["waits"] == ["2s", "4s", "5s"]
        declare = [e for e in events_for_seat(hand, seat) if e["type"] == "declare"]
        assert declare[0]["tiles"] == "567789p 3334s" and declare[0]["hidden"] == 1
    assert seat_view(hand, 1)["hand"] == "111567789p 3334s"
    act(hand, 2, DISCARD, "9s")
    act(hand, 0, DISCARD, "1s")
    assert hand.seats[1].drawn == parse_tile("1p")
    for seat in (0, 2):  # the drawn 4th 1p is not shown: it would name the hidden triplet
        assert seat_view(hand, seat)["seats"][1]["revealed"] == "567789p 3334s"
    assert make(1, CONCEALED_KONG, "1p") in hand.legal_actions(1)
    act(hand, 1, CONCEALED_KONG, "1p")
    assert hand.deltas == [-2, 4, -2]
    for seat in (0, 2):
        view = seat_view(hand, seat)
        assert view["seats"][1]["melds"] == [{"kind": "concealed_kong", "tile": None}]
        assert view["seats"][1]["revealed"] == "567789p 3334s"  # not the replacement 6z
        assert view["seats"][1]["hidden_tiles"] == 0  # the triplet is a concealed kong now
        assert all("tile" not in e for e in events_for_seat(hand, seat)
                   if e["type"] == "kong")
    act(hand, 1, DISCARD, "6z")
    act(hand, 2, DISCARD, "8p")
    assert hand.result == "draw" and hand.deltas == [-1, 2, -1]
    assert seat_view(hand, 0)["seats"][1]["melds"] == [{"kind": "concealed_kong",
                                                        "tile": "1p"}]


@pytest.mark.parametrize("option", ["allowed", "forbidden_if_safe_tile"])
def test_r8_7_feeding_a_declared_hand(option):
    """R8.7: seat 1 declared waits 6s 9s (game case g04). Seat 2 holds 6s and safe tiles: under
    forbidden_if_safe_tile it may not discard 6s; allowed (default): it may, and pays 包胡
    2×2 = 4 (deltas [0, 4, -4])."""
    hand = new_hand(["111s 333s 444s 999s 7z", "123p 456p 78s 55z 222s",
                     "6s 888p 33p 1245p 7p 66z"], "7z 9p 5z 2p", feeding_declared=option)
    act(hand, 0, DISCARD, "7z")
    act(hand, 1, DISCARD, "9p", declare=True)
    assert hand.seats[1].waits == (parse_tile("6s"), parse_tile("9s"))
    discards = {a.tile for a in hand.legal_actions(2) if a.verb == DISCARD}
    if option == "allowed":
        assert parse_tile("6s") in discards
        act(hand, 2, DISCARD, "6s")
        act(hand, 1, WIN)
        assert hand.deltas == [0, 4, -4]
    else:
        assert parse_tile("6s") not in discards and parse_tile("5z") in discards
        refuse(hand, 2, DISCARD, "6s", rule="R8.7")
        refuse(hand, 2, DISCARD, "6s", declare=True, rule="R8.7")


# --- R10.2 荒庄 compensation, R2.2 next dealer ------------------------------------------------

# Every seat is ready on 5p (none is ever drawn); each may declare with its first discard.
READY = ["46p 111s 222s 333s 99s", "46p 444s 555s 666s 88s", "46p 777p 888p 123s 55z"]
READY_DISCARDS = ["7z", "6z", "7z"]
COMPENSATION = {  # declarers (in declaration order) -> mode -> deltas
    (): {"per_declarer": [0, 0, 0], "first_declarer": [0, 0, 0], "none": [0, 0, 0]},
    (1,): {"per_declarer": [1, -2, 1], "first_declarer": [1, -2, 1], "none": [0, 0, 0]},
    (1, 2): {"per_declarer": [2, -1, -1], "first_declarer": [1, -2, 1], "none": [0, 0, 0]},
    (0, 2): {"per_declarer": [-1, 2, -1], "first_declarer": [-2, 1, 1], "none": [0, 0, 0]},
    (0, 1, 2): {"per_declarer": [0, 0, 0], "first_declarer": [-2, 1, 1], "none": [0, 0, 0]},
}


def _exhaust(declarers: tuple[int, ...], piao: list[int] | None = None, **options) -> Hand:
    hand = new_hand(READY, "7z 6z 7z 6z", piao=piao, **options)
    for seat in (0, 1, 2):
        act(hand, seat, DISCARD, READY_DISCARDS[seat], declare=seat in declarers)
    assert hand.wall_left == 0
    act(hand, 0, DISCARD, "6z")
    assert hand.result == "draw"
    assert hand.declare_order == list(declarers)
    return hand


@pytest.mark.parametrize("declarers", list(COMPENSATION))
@pytest.mark.parametrize("mode", ["per_declarer", "first_declarer", "none"])
def test_r10_2_draw_compensation(declarers, mode):
    """R10.2: per_declarer: each declarer pays each non-declarer 1 (all three declared: nobody
    pays); first_declarer: the first to declare pays each other 1; none. R10.1: no hand value.
    R2.2: 荒庄 the dealer (0) stays."""
    hand = _exhaust(declarers, draw_compensation=mode)
    assert hand.deltas == COMPENSATION[declarers][mode]
    assert hand.next_dealer == 0


@pytest.mark.parametrize("declarers, dealer", [((), 0), ((1,), 1), ((1, 2), 0), ((0, 1, 2), 0)])
def test_r2_2_draw_dealer_declarer(declarers, dealer):
    """R2.2 draw_dealer declarer: exactly one declarer deals next after 荒庄; otherwise stay."""
    assert _exhaust(declarers, draw_dealer="declarer").next_dealer == dealer
    assert _exhaust(declarers).next_dealer == 0


def test_r11_1_compensation_carries_no_piao():
    """R11.1: 荒庄 compensation is not a hand-value payment: no 漂 on it."""
    hand = _exhaust((1,), piao=[1, 2, 5], preset="app")
    assert hand.deltas == [1, -2, 1]


def test_r2_2_self_draw_winner_deals_next():
    """R2.2 and game case g01: seat 0 暗杠s 2p ([4,-2,-2]) and self-draws on the replacement,
    杠上开花 ×2 from each ([8,-4,-4]); the winner deals next."""
    hand = new_hand(["2222p 123s 456s 78s 5z", "1133p 5577p 99p 6z 7z 3s",
                     "4466888p 9p 2s 6z 7z 1s 4s"], "5z 9s 8p")
    act(hand, 0, CONCEALED_KONG, "2p")
    act(hand, 0, WIN)
    assert hand.deltas == [8, -4, -4] and hand.next_dealer == 0


# --- R11.1 漂 ---------------------------------------------------------------------------------

G01 = (["2222p 123s 456s 78s 5z", "1133p 5577p 99p 6z 7z 3s", "4466888p 9p 2s 6z 7z 1s 4s"],
       "5z 9s 8p")


def test_r11_1_piao_phase_choices_and_refusals():
    """R11.1: with piao_choices [0,1,2,5] (preset app) the hand opens with every seat picking a
    漂 from the list; nothing else is legal; a seat picks once; the dealer draws after all."""
    hand = new_hand(*G01, preset="app")
    assert hand.phase == PIAO_PHASE and hand.to_act() == [0, 1, 2]
    assert hand.wall_left == 3 and hand.seats[0].drawn is None
    for seat in (0, 1, 2):
        assert hand.legal_actions(seat) == [Action(seat, PIAO, piao=p) for p in (0, 1, 2, 5)]
    refuse(hand, 0, PIAO, piao=3, rule="R11.1")
    refuse(hand, 0, DISCARD, "5z", rule="R11.1")
    refuse(hand, 0, CONCEALED_KONG, "2p", rule="R11.1")
    act(hand, 0, PIAO, piao=1)
    refuse(hand, 0, PIAO, piao=2, rule="R11.1")
    assert hand.to_act() == [1, 2]
    # R13: a pick stays secret until every seat has picked
    assert seat_view(hand, 1)["seats"][0]["piao"] is None
    assert seat_view(hand, 0)["seats"][0]["piao"] == 1
    act(hand, 2, PIAO, piao=5)
    act(hand, 1, PIAO, piao=2)
    assert hand.phase == TURN and hand.current == 0 and hand.wall_left == 2
    assert [s.piao for s in hand.seats] == [1, 2, 5]
    assert seat_view(hand, 2)["seats"][0]["piao"] == 1
    refuse(hand, 1, PIAO, piao=0, rule="R11.1")


def test_r11_1_piao_on_hand_value_not_on_kong_money():
    """R11.1: piao [1, 2, 5]. 暗杠 2p: each other pays 2, no 漂 ([4,-2,-2]). 杠上开花 ×2
    self-draw: seat 1 pays 2 + (2+1) = 5, seat 2 pays 2 + (5+1) = 8: deltas [17, -7, -10]."""
    hand = new_hand(*G01, preset="app")
    for seat, p in enumerate([1, 2, 5]):
        act(hand, seat, PIAO, piao=p)
    act(hand, 0, CONCEALED_KONG, "2p")
    assert hand.deltas == [4, -2, -2]
    act(hand, 0, WIN)
    assert hand.deltas == [17, -7, -10]
    assert sorted(t.amount for t in hand.transfers if t.rule == "R11.1") == [3, 6]


def test_r11_1_piao_on_a_discard_win():
    """R11.1: piao [1, 2, 5] given to the hand; seat 2 wins ×2 on dealer 0's 5p: seat 0 pays
    2 + (1+5) = 8: deltas [-8, 0, 8]."""
    hand = new_hand([FIVE, "55p 19p 19s 5z 6z 7z 2468s", WAIT_B], "7z 9s 1p", piao=[1, 2, 5],
                    preset="app")
    assert hand.phase == TURN
    act(hand, 0, DISCARD, "5p")
    act(hand, 2, WIN)
    assert hand.deltas == [-8, 0, 8]


def test_r11_1_piao_is_not_doubled_by_bao_hu():
    """R11.1 with R8.4 (game case g04, piao [0, 1, 2]): seat 2 feeds declared seat 1's ×2:
    包胡 2×2 = 4 plus 漂 1+2 = 3 (the 漂 is added to the payment, not doubled): [0, 7, -7]."""
    hand = new_hand(["111s 333s 444s 999s 7z", "123p 456p 78s 55z 222s",
                     "6s 888p 33p 1245p 7p 66z"], "7z 9p 5z 2p", piao=[0, 1, 2], preset="app")
    act(hand, 0, DISCARD, "7z")
    act(hand, 1, DISCARD, "9p", declare=True)
    act(hand, 2, DISCARD, "6s")
    act(hand, 1, WIN)
    assert hand.deltas == [0, 7, -7]


# --- the end --------------------------------------------------------------------------------

def test_nothing_is_legal_once_the_hand_has_ended():
    """R5.5/R7: after the end nobody has anything to do; every action is refused."""
    hand = _exhaust(())
    assert hand.phase == ENDED and hand.to_act() == []
    for seat in (0, 1, 2):
        assert hand.legal_actions(seat) == []
        refuse(hand, seat, DISCARD, "6z")
        refuse(hand, seat, PASS)
        refuse(hand, seat, WIN)
