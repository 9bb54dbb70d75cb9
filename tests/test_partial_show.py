"""部分亮 (VARIANTS.md R8.11 ``declare_show = waiting_part``): what stays face down, what the
other seats see (R13.1), and that the face-down groups stay fixed for waits, wins, kongs and
scoring. Seat 0 deals and draws first; turn order 0 -> 1 -> 2 (R1.2).
"""

from __future__ import annotations

import pytest

from kawuxing.engine import CONCEALED_KONG, DISCARD, WIN, Hand
from kawuxing.engine.observation import observe
from kawuxing.engine.views import events_for_seat, seat_view
from kawuxing.face_down import CHOW, PAIR, PUNG, Group, fixed_waits, is_fixed_win, waiting_part
from kawuxing.rules import RuleSet
from kawuxing.scoring import DISCARD as BY_DISCARD
from kawuxing.scoring import ScoringError, WinningHand, score_hand
from kawuxing.shapes import waits
from kawuxing.tiles import counts_of, parse_tile, parse_tiles, tiles_of

from test_engine_rules import act, make, new_hand, pass_all, refuse


def T(*codes: str) -> tuple[int, ...]:
    return tuple(parse_tile(c) for c in codes)


def G(kind: str, code: str) -> Group:
    return Group(kind, parse_tile(code))


def groups_of(hand: str) -> tuple[Group, ...]:
    counts = counts_of(parse_tiles(hand))
    return waiting_part(counts, waits(counts))


# --- the groups, as VARIANTS.md writes them ---------------------------------------------------

def test_the_worked_example_hides_111s_789s_666z():
    """R8.11's example: 2345p 111s 789s 666z waits 2p 5p; the readings 22p·345p·111s·789s·666z
    and 234p·55p·111s·789s·666z have 111s 789s 666z in common, none holding the win."""
    assert groups_of("2345p 111s 789s 666z") == (G(CHOW, "7s"), G(PUNG, "1s"), G(PUNG, "6z"))


def test_a_pair_common_to_every_reading_is_hidden_and_stays_the_pair():
    """23456p 789s 111s 77z waits 1p 4p 7p: every reading (123p·456p, 234p·456p, 234p·567p
    with 789s 111s 77z) holds 789s 111s and the pair 77z apart from the win: all three stay
    face down. With them fixed the waits are the same, and 77z can only be the pair: 23456p +
    77z… never reads 777z."""
    found = groups_of("23456p 789s 111s 77z")
    assert found == (G(CHOW, "7s"), G(PAIR, "7z"), G(PUNG, "1s"))
    counts = counts_of(parse_tiles("23456p 789s 111s 77z"))
    assert fixed_waits(counts, found) == list(T("1p", "4p", "7p"))
    counts[parse_tile("7z")] += 1  # 777z: a win only by reading 77z as part of a pung
    assert not is_fixed_win(counts, found)


def test_u9_a_seven_pairs_reading_hides_nothing():
    """U9: 1122334455667p waits 1p 4p 7p, and 7p completes seven pairs: nothing is hidden."""
    assert groups_of("1122334455667p") == ()


def test_nothing_common_hides_nothing():
    """1112345678999p (nine waits): the readings share no group apart from the win."""
    assert groups_of("1112345678999p") == ()


def test_a_fixed_group_is_never_split_by_the_win_check_or_scoring():
    """11123s 456p 789p 555z wins as 11s·123s; with 111s fixed (R8.6/R8.11) it does not (23s
    is no set). Scoring a hand that does not hold its groups is an error."""
    counts = counts_of(parse_tiles("11123s 456p 789p 555z"))
    assert is_fixed_win(counts, ())
    assert not is_fixed_win(counts, (G(PUNG, "1s"),))
    rules = RuleSet.preset()
    hand = WinningHand(tuple(parse_tiles("1112s 456p 789p 555z")), parse_tile("3s"), BY_DISCARD,
                       declared=True, hidden=(G(PUNG, "1s"),))
    assert not score_hand(hand, rules).legal
    with pytest.raises(ScoringError, match="R8.11"):
        score_hand(WinningHand(tuple(parse_tiles("1112s 456p 789p 555z")), parse_tile("3s"),
                               BY_DISCARD, declared=True, hidden=(G(PUNG, "2s"),)), rules)


# --- in play ----------------------------------------------------------------------------------

OTHERS = ["1p 1p 6p 6p 7p 3s 4s 5s 6s 8s 8s 9p 7z", "1p 8p 8p 9p 6p 3s 4s 5s 6s 7s 9s 7z 4p"]
SHOWN = "2345p"
DRAWS = "7z 3p 3p 1s 9s 7p 8p 9s 5s"


def partial(concealed: str, draws: str = DRAWS, **options) -> Hand:
    """Seat 0 holds ``concealed`` (13), draws 7z and declares with it under waiting_part."""
    hand = new_hand([concealed] + OTHERS, draws, declare_show="waiting_part", **options)
    act(hand, 0, DISCARD, "7z", declare=True)
    return hand


def test_the_others_see_2345p_the_waits_and_nine_face_down_tiles():
    """R8.11/R13.1: seat 0's declaration shows 2345p and the waits 2p 5p; 111s 789s 666z stay
    face down: 9 tiles in views, observations and the declare event (3 groups), none named."""
    hand = partial("2345p 111s 789s 666z")
    s = hand.seats[0]
    assert s.hidden == (G(CHOW, "7s"), G(PUNG, "1s"), G(PUNG, "6z"))
    assert s.waits == T("2p", "5p")
    for seat in (1, 2):
        entry = seat_view(hand, seat)["seats"][0]
        assert entry["revealed"] == SHOWN and entry["hidden_tiles"] == 9
        assert entry["waits"] == ["2p", "5p"]
        obs = observe(hand, seat)
        assert tiles_of(obs.revealed[0]) == list(parse_tiles(SHOWN))
        assert obs.hidden_tiles[0] == 9
        declare = [e for e in events_for_seat(hand, seat) if e["type"] == "declare"][0]
        assert (declare["tiles"], declare["hidden"], declare["hidden_tiles"]) == (SHOWN, 3, 9)
    assert seat_view(hand, 0)["hand"] == "2345p 111789s 666z"


def test_twin_hands_differing_in_the_face_down_groups_look_the_same_to_the_others():
    """R13.1: seat 0 holding 111s 789s 666z or 222s 789s 555z face down (same shown 2345p, same
    waits) gives seats 1 and 2 identical views, observations, legal actions and events at
    every step until the hand ends."""
    a = partial("2345p 111s 789s 666z", DRAWS.replace("1s", "9p"))
    b = partial("2345p 222s 789s 555z", DRAWS.replace("1s", "9p"))
    assert a.seats[0].hidden != b.seats[0].hidden

    def same() -> None:
        for seat in (1, 2):
            assert seat_view(a, seat) == seat_view(b, seat)
            assert observe(a, seat) == observe(b, seat)
            assert events_for_seat(a, seat) == events_for_seat(b, seat)

    same()
    steps = [(1, DISCARD, "3p"), (2, DISCARD, "3p"), (0, DISCARD, "9p"), (1, DISCARD, "9s"),
             (2, DISCARD, "7p"), (0, DISCARD, "8p")]
    for seat, verb, tile in steps:
        act(a, seat, verb, tile)
        act(b, seat, verb, tile)
        same()


def test_a_face_down_pung_may_be_konged_under_hidden_triplets_only():
    """R8.11 + R8.16 hidden_triplets_only: seat 0 draws the fourth 1s: 暗杠 of the face-down
    111s is offered (the example's "A may later kong 111s"); the group becomes the kong, 6
    tiles stay face down, the waits stay 2p 5p; 2 from each (R6.1)."""
    hand = partial("2345p 111s 789s 666z", declared_kong="hidden_triplets_only")
    act(hand, 1, DISCARD, "3p")
    act(hand, 2, DISCARD, "3p")
    pass_all(hand)
    assert hand.seats[0].drawn == parse_tile("1s")
    assert make(0, CONCEALED_KONG, "1s") in hand.legal_actions(0)
    act(hand, 0, CONCEALED_KONG, "1s")
    assert hand.seats[0].hidden == (G(CHOW, "7s"), G(PUNG, "6z"))
    assert hand.seats[0].waits == T("2p", "5p")
    assert seat_view(hand, 1)["seats"][0]["hidden_tiles"] == 6
    assert hand.deltas == [4, -2, -2]


@pytest.mark.parametrize("declared_kong", ["hidden_triplets_only", "waits_unchanged"])
def test_a_face_down_pung_whose_fourth_is_in_a_face_down_run_is_not_konged(declared_kong):
    """R8.11: 3333p 45p 777s 99s 55z waits 9s 5z; every reading holds 333p 345p 777s apart from
    the win, so they stay face down, and the fourth 3p is in the run. A 暗杠 of 3p would split
    the face-down 345p (R8.6: never split): it is not offered and is refused, under R8.16 and
    under R8.3 alike (a suizhou arena game once crashed on it)."""
    hand = partial("3333p 45p 777s 99s 55z", "7z 1s 2s 8s 9p 2p", declared_kong=declared_kong)
    assert hand.seats[0].hidden == (G(CHOW, "3p"), G(PUNG, "3p"), G(PUNG, "7s"))
    act(hand, 1, DISCARD, "1s")
    act(hand, 2, DISCARD, "2s")
    pass_all(hand)
    assert hand.seats[0].drawn == parse_tile("8s")
    refuse(hand, 0, CONCEALED_KONG, "3p")
    act(hand, 0, DISCARD, "8s")
    assert hand.seats[0].waits == T("9s", "5z")


def test_no_triplet_is_chosen_under_waiting_part():
    """R8.11: the engine decides what stays face down: the 亮倒 actions carry no R8.6 choice
    even with declare_hide_triplets on, and one naming a triplet is refused (R8.11)."""
    hand = new_hand(["2345p 111s 789s 666z"] + OTHERS, DRAWS, declare_show="waiting_part",
                    declare_hide_triplets=True)
    declares = [a for a in hand.legal_actions(0) if a.declare]
    assert declares and not any(a.hidden for a in declares)
    refuse(hand, 0, DISCARD, "7z", declare=True, hidden=("1s",), rule="R8.11")


def test_the_win_reads_the_face_down_groups_as_they_are():
    """R8.11: seat 1 discards 5p: seat 0 wins 234p 55p 111s 789s 666z, 亮倒 ×2; 包胡 4 from
    seat 1 (R8.4)."""
    hand = partial("2345p 111s 789s 666z", "7z 5p 3p")
    act(hand, 1, DISCARD, "5p")
    act(hand, 0, WIN)
    assert hand.values[0].pattern_names == ["亮倒"]
    assert hand.deltas == [4, -4, 0]
