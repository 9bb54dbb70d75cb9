"""Town payments through the engine (VARIANTS.md R14 horses, R17 上楼, R18.3) on scripted hands
and a scripted match: what every seat is shown, the money, and that records rebuild it.
Seats: A 0, B 1 (the dealer, who self-draws 卡五星 on the first draw), C 2."""

from __future__ import annotations

import pytest

from kawuxing.conformance import run_case
from kawuxing.engine import DISCARD, PASS, WIN, Action, Hand, Match
from kawuxing.engine.hand import deal_order
from kawuxing.engine.observation import observe
from kawuxing.engine.views import events_for_seat, seat_view, spectator_view, table_view
from kawuxing.records import hand_record, replay
from kawuxing.rules import RuleSet
from kawuxing.tiles import COPIES, kinds_for_suits, parse_tile, parse_tiles

A = "1p 3p 5p 7p 9p 2s 4s 6s 8s 5z 6z 7z 1s"
B = "46p 234s 678s 999p 11s"  # + 5p: 卡五星 ×2
C = "2p 4p 6p 8p 1s 3s 5s 7s 9s 5z 6z 7z 2p"
DRAWS = "5p 8s 2s 9s 7z 8p 3s 6s"  # B's 5p, then the wall


def b_wins(draws: str = DRAWS, dice: tuple[int, int] | None = None, **options) -> Hand:
    hand = Hand(RuleSet.preset(**options), 1, [parse_tiles(h) for h in (A, B, C)],
                parse_tiles(draws), dice=dice)
    hand.apply(Action(1, WIN))
    assert hand.winners == [1] and sum(hand.deltas) == 0
    return hand


def shown(hand: Hand, seat: int, kind: str) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "n"} for e in events_for_seat(hand, seat)
            if e["type"] == kind]


# --- R14 horses --------------------------------------------------------------------------------

@pytest.mark.parametrize("options, tiles, value, deltas", [
    ({"horse_buy": "self_draw"}, ["8s"], 8, [-10, 20, -10]),  # the next tile
    ({"horse_buy": "self_draw", "horse_from": "far_end"}, ["6s"], 6, [-8, 16, -8]),  # R14.3
    # six: 8s 2s 9s 7z 8p 3s; class 2-5-8 of 5p: 8s, 2s, 7z (a dragon), 8p: 4
    ({"horse_buy": "self_draw", "horse_kind": "six"}, ["8s", "2s", "9s", "7z", "8p", "3s"], 4,
     [-6, 12, -6]),
    ({"horse_buy": "self_draw", "horse_kind": "one_plus_one"}, ["8s"], 8, [-10, 20, -10]),
])
def test_r14_engine_takes_and_shows_the_horses(options, tiles, value, deltas):
    """R14.1-R14.3: after B's self-draw the engine takes the horses from the wall (the next
    tiles in drawing order, or the far end last tile first), shows them to every seat in a
    ``horses`` event before the transfers, and each payer pays 2 + their value."""
    hand = b_wins(**options)
    for seat in range(3):
        assert shown(hand, seat, "horses") == [{"type": "horses", "seat": 1, "tiles": tiles,
                                                "value": value}]
    assert hand.deltas == deltas
    kinds = [e["type"] for e in hand.events[-6:]]
    assert kinds.index("horses") < kinds.index("transfer")
    assert replay(hand_record(hand)).deltas == deltas  # the horses come from the wall


@pytest.mark.parametrize("draws, options", [
    (DRAWS, {"horse_buy": "declared_self_draw"}),  # B had not declared
    ("5p", {"horse_buy": "self_draw"}),  # 海底捞月: an empty wall, no horses
    (DRAWS, {}),
])
def test_r14_no_horses(draws, options):
    """R14.1: no horses for an undeclared winner under ``declared_self_draw``, on an empty
    wall, or with the option off: no event, 卡五星 only (海底捞月 ×2 on the last tile)."""
    hand = b_wins(draws, **options)
    assert shown(hand, 0, "horses") == []
    assert hand.deltas == ([-4, 8, -4] if draws == "5p" else [-2, 4, -2])


def test_r14_no_horses_after_a_discard_win():
    """R14.1: B winning on A's 5p takes no horses: A pays 卡五星 2."""
    rules = RuleSet.preset(horse_buy="self_draw")
    hand = Hand(rules, 0, [parse_tiles(A), parse_tiles(B), parse_tiles(C)], parse_tiles("7z 8s"))
    hand.apply(Action(0, DISCARD, parse_tile("5p")))
    hand.apply(Action(1, WIN))
    for seat in hand.to_act():
        hand.apply(Action(seat, PASS))
    assert hand.winners == [1] and hand.deltas == [-2, 2, 0]
    assert not any(e["type"] == "horses" for e in hand.events)


# --- R17 上楼: dice ----------------------------------------------------------------------------

@pytest.mark.parametrize("dice, scope, deltas", [
    ((3, 3), "hand_value", [-4, 8, -4]),  # 豹子: the hand value ×2
    ((2, 5), "hand_value", [-2, 4, -2]),
    ((6, 6), "everything", [-4, 8, -4]),
])
def test_r17_dice_shown_at_the_deal_and_doubling(dice, scope, deltas):
    """R17.1 ``dice_doubles``: the dice are shown to every seat at the deal (a ``shang_lou``
    event after the deal); equal dice double the hand (R17.2)."""
    hand = b_wins(dice=dice, shang_lou="dice_doubles", shang_lou_scope=scope)
    for seat in range(3):
        assert shown(hand, seat, "shang_lou") == [{"type": "shang_lou", "mode": "dice_doubles",
                                                   "dice": list(dice), "base_factor": 1}]
    assert hand.events[1]["type"] == "shang_lou" and hand.deltas == deltas
    again = replay(hand_record(hand))
    assert again.dice == dice and again.deltas == deltas


def test_r17_dice_are_deterministic_and_not_rolled_without_the_option():
    """R17.1: the dice come from the hand's tiles, so the same seed rolls the same dice (and a
    replay the same); different deals roll differently; without 上楼 there are none."""
    rules = RuleSet.preset(shang_lou="dice_doubles")
    rolled = [Hand.deal(rules, 0, seed=s).dice for s in range(40)]
    assert rolled == [Hand.deal(rules, 0, seed=s).dice for s in range(40)]
    assert all(len(d) == 2 and all(1 <= x <= 6 for x in d) for d in rolled)
    assert len(set(rolled)) > 5 and any(a == b for a, b in rolled)  # 豹子 occurs
    hand = Hand.deal(rules, 0, seed=3)
    assert replay(hand_record(hand)).dice == hand.dice
    plain = Hand.deal(RuleSet.preset(), 0, seed=3)
    assert plain.dice is None and "dice" not in hand_record(plain)
    assert all(e["type"] != "shang_lou" for e in plain.events)
    with pytest.raises(ValueError, match="dice"):
        Hand(rules, 1, [parse_tiles(h) for h in (A, B, C)], parse_tiles(DRAWS), dice=(0, 7))


def test_r17_dice_and_base_factor_in_every_view():
    """R17.1: the dice and a doubled base are public: every seat's Observation and view, the
    spectator's and the whole table's carry them (what the table draws in its centre); a hand
    without 上楼 has neither key."""
    hand = Hand.deal(RuleSet.preset("shiyan"), 0, seed=3, base_factor=2)
    views = [seat_view(hand, s) for s in range(3)] + [spectator_view(hand), table_view(hand)]
    assert [v["dice"] for v in views] == [list(hand.dice)] * 5
    assert [v["base_factor"] for v in views] == [2] * 5
    assert observe(hand, 1).dice == hand.dice and observe(hand, None).base_factor == 2
    plain = Hand.deal(RuleSet.preset(), 0, seed=3)
    assert not {"dice", "base_factor"} & set(seat_view(plain, 0))


# --- R17 上楼: after_draw across a match ---------------------------------------------------------

def wall_for(rules: RuleSet, dealer: int, hands: list[str], draws: str) -> list[int]:
    """84 tiles dealing ``hands`` (R3.1 order) with ``draws`` first, then the rest."""
    left = {k: COPIES for k in kinds_for_suits(rules.suits)}
    dealt = [list(parse_tiles(h)) for h in hands]
    head = [dealt[seat].pop(0) for seat in deal_order(dealer)] + list(parse_tiles(draws))
    for tile in head:
        left[tile] -= 1
    return head + [k for k, n in left.items() for _ in range(n)]


def play_to_a_draw(hand: Hand) -> None:
    """Everyone discards the tile just drawn and passes every claim: 荒庄 (R5.5)."""
    while not hand.ended:
        for seat in hand.to_act():
            if hand.phase == "turn":
                hand.apply(Action(seat, DISCARD, hand.seats[seat].drawn))
            else:
                hand.apply(Action(seat, PASS))
    assert hand.result == "draw"


def test_r17_after_draw_base_doubles_after_each_draw_in_a_row():
    """R17.1 ``after_draw``: 荒庄, 荒庄, then B's 卡五星: the base is ×1, ×2, ×4 (B is paid
    2 × 4 = 8 by each, kong money none), then ×1 again; a match rebuilt from the records
    goes on with the same factor."""
    rules = RuleSet.preset(shang_lou="after_draw", hands_per_match=4)
    win = wall_for(rules, 1, [A, B, C], DRAWS)
    match = Match(rules, walls=[win, win, win, win], dealer=1)
    play_to_a_draw(match.hand)
    match.next_hand()
    play_to_a_draw(match.hand)
    match.next_hand()
    match.hand.apply(Action(1, WIN))
    assert match.hand.deltas == [-8, 16, -8]
    assert match.hand.events[1] == {"type": "shang_lou", "mode": "after_draw", "dice": None,
                                    "base_factor": 4}
    assert [t.params.get("base_factor") for t in match.hand.transfers] == [4, 4]
    rebuilt = Match.restore(rules, [replay(hand_record(h)) for h in match.hands])
    assert [h.base_factor for h in rebuilt.hands] == [1, 2, 4]
    match.next_hand()
    assert [h.base_factor for h in match.hands] == [1, 2, 4, 1]
    assert rebuilt.next_base_factor() == 1


def test_r17_after_draw_factor_is_1_when_off():
    """With 上楼 off every hand's base factor is 1, whatever ended the last."""
    rules = RuleSet.preset(hands_per_match=2)
    match = Match(rules, walls=[wall_for(rules, 1, [A, B, C], DRAWS)] * 2, dealer=1)
    play_to_a_draw(match.hand)
    assert match.next_base_factor() == 1 and match.next_hand().base_factor == 1


# --- conformance cases with a town preset --------------------------------------------------------

def test_cases_run_with_a_town_preset():
    """``kawuxing cases`` with ``rules: {"preset": "suizhou"}``: a hand case (半频道: no 海底捞月;
    cap 8) and a game case (B's self-draw, a declared-only horse: none)."""
    hand_case = {"id": "sz-hand", "concealed": "46s 123p 789p 555z 11s", "win_tile": "5s",
                 "win_by": "self_draw", "last_tile": True, "rules": {"preset": "suizhou"}}
    assert run_case(hand_case) == {"id": "sz-hand", "legal": True, "multiplier": 2,
                                   "patterns": ["卡五星"], "paid": 4}
    game_case = {"id": "sz-game", "dealer": 1, "hands": [A, B, C], "draws": DRAWS,
                 "actions": [[1, "win"]], "rules": {"preset": "suizhou"}}
    out = run_case(game_case)
    assert out["end"] == "win" and out["deltas"] == [-2, 4, -2] and out["winners"] == [1]


def test_r17_after_draw_doubles_after_yi_pao_shuang_xiang():
    """R17.1 ``after_draw``: an 一炮双响 (A's 5p won by B and C, 卡五星 each) doubles the next
    hand's base too; A pays 2 + 2 in the first hand, the second hand's factor is 2."""
    rules = RuleSet.preset(shang_lou="after_draw", hands_per_match=2)
    hands = ["5p 1p 3p 7p 9p 2s 4s 6s 8s 5z 6z 7z 3s", B, "46p 123s 789s 555z 99s"]
    match = Match(rules, walls=[wall_for(rules, 0, hands, "7z")] * 2, dealer=0)
    hand = match.hand
    hand.apply(Action(0, DISCARD, parse_tile("5p")))
    for seat in hand.to_act():
        hand.apply(Action(seat, WIN))
    assert hand.winners == [1, 2] and hand.deltas == [-4, 2, 2]
    assert match.next_hand().base_factor == 2


def test_r17_kong_money_with_the_base_factor_and_everything():
    """R17.1: the doubled base applies to kong money (暗杠 2 × base factor 2 = 4 a payer);
    R17.2 ``everything`` with 豹子 doubles it as every other payment (2 × 2 = 4)."""
    tiles = ["1111s 999p 3s 5z 6z 7z 2p 4p", A.replace("1s", "3p"), C.replace("1s", "3p")]
    for options, dice, factor in (({"shang_lou": "after_draw"}, None, 2),
                                  ({"shang_lou": "dice_doubles",
                                    "shang_lou_scope": "everything"}, (4, 4), 1)):
        hand = Hand(RuleSet.preset(**options), 0, [parse_tiles(h) for h in tiles],
                    parse_tiles("9s 8s"), dice=dice, base_factor=factor)
        hand.apply(Action(0, "concealed_kong", parse_tile("1s")))
        assert [(t.payer, t.amount) for t in hand.transfers] == [(1, 4), (2, 4)]
        assert hand.deltas == [8, -4, -4]


# --- random play under every town preset ------------------------------------------------------

@pytest.mark.parametrize("preset", ["xiangyang", "xiaogan", "suizhou", "shiyan", "yicheng",
                                    "yingcheng", "server_common"])
def test_random_hands_of_every_town_sum_to_zero_and_replay(preset):
    """Random legal play (wins taken when offered) under each town preset, with horses,
    上楼 dice and 漂 on: every hand's scores sum to zero, the ``hand_end`` deltas are the
    transfers' sums, and the record replays to the same transfers (R18.3, records)."""
    import random

    rules = RuleSet.preset(preset, horse_buy="self_draw", shang_lou="dice_doubles",
                           piao_choices=[0, 1, 2])
    for seed in range(12):
        rng = random.Random(seed)
        hand = Hand.deal(rules, seed % 3, seed=f"{preset}/{seed}")
        while not hand.ended:
            seat = hand.to_act()[0]
            legal = hand.legal_actions(seat)
            wins = [a for a in legal if a.verb == WIN]
            hand.apply(wins[0] if wins else rng.choice(legal))
        assert sum(hand.deltas) == 0
        totals = [0, 0, 0]
        for t in hand.transfers:
            totals[t.payer] -= t.amount
            totals[t.payee] += t.amount
        assert totals == hand.deltas == hand.events[-1]["deltas"]
        again = replay(hand_record(hand))
        assert [t.to_json() for t in again.transfers] == [t.to_json() for t in hand.transfers]
