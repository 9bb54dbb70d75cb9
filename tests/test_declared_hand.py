"""A declared (亮倒) hand as it changes: live waits (R8.1, R8.3) and face-down triplets that stay
whole (R8.6). The hands are the examples of issue 9, worked out by hand in each docstring.

Seat 0 deals and draws ``draws[0]`` first; turn order 0 -> 1 -> 2 (R1.2). ``act`` (from
test_engine_rules) lets every seat still answering the tile on the table pass first.
"""

from __future__ import annotations

from kawuxing.engine import ADDED_KONG, CONCEALED_KONG, DISCARD, KONG, PUNG, WIN
from kawuxing.engine.observation import observe
from kawuxing.engine.views import events_for_seat, seat_view
from kawuxing.tiles import parse_tile

from test_engine_rules import act, new_hand, pass_all, refuse

# Seat 0 ends up with 56p 111s 234s 99s + pung 7p after 亮倒: waits 4p 7p (R8.1).
LIVE_HANDS = ["56p 77p 111s 234s 99s 5z",
              "7p 1s 1p 3p 8p 2s 5s 7s 9s 5z 6z 7z 9p",
              "22p 3p 4p 8p 3s 5s 6s 8s 6z 77z 9p"]
#            s0  s1  s1  s2  s0  s0(repl) s1  s0(repl) then spare tiles
LIVE_DRAWS = "6z 3s 4s 8s 7p 5s 9s 1p 3s 2s 8p 1p"


def declared_with_pung() -> object:
    """Seat 0 pungs seat 1's 7p, then discards 6z with 亮倒: 56p 111s 234s 99s + pung 7p."""
    hand = new_hand(LIVE_HANDS, LIVE_DRAWS)
    act(hand, 0, DISCARD, "5z")
    act(hand, 1, DISCARD, "7p")
    act(hand, 0, PUNG)
    act(hand, 0, DISCARD, "6z", declare=True)
    assert [str(w) for w in seat_view(hand, 1)["seats"][0]["waits"]] == ["4p", "7p"]
    act(hand, 1, DISCARD, "4s")
    act(hand, 2, DISCARD, "8s")
    return hand


def test_r8_1_an_added_kong_that_takes_the_last_copy_removes_that_wait():
    """R8.1: after the 7p 补杠 all four 7p are seat 0's, so the only wait left is 4p; every
    seat's view, the observations bots read, and a ``waits`` event say so."""
    hand = declared_with_pung()
    act(hand, 0, ADDED_KONG, "7p")  # R8.3: 补杠 is always allowed after 亮倒
    pass_all(hand)  # nobody robs it (R7.4): the kong counts
    assert hand.seats[0].waits == (parse_tile("4p"),)
    for seat in range(3):
        assert seat_view(hand, seat)["seats"][0]["waits"] == ["4p"]
        assert observe(hand, seat).waits[0] == (parse_tile("4p"),)
    changed = [e for e in events_for_seat(hand, 1) if e["type"] == "waits"]
    assert [(e["seat"], e["waits"]) for e in changed] == [(0, ["4p"])]


def test_r8_3_exposed_kong_judged_against_the_waits_of_now():
    """R8.3: seat 1's 1s may be konged by seat 0: 56p 234s 99s + kongs 7p 1s still waits
    exactly 4p, the waits at that moment (not 4p 7p of the declaration). Before the fix the
    engine compared with the stale 4p 7p and refused."""
    hand = declared_with_pung()
    act(hand, 0, ADDED_KONG, "7p")
    pass_all(hand)
    act(hand, 0, DISCARD, "5s")  # the replacement tile: a declared hand discards its draw
    act(hand, 1, DISCARD, "1s")
    assert [a.verb for a in hand.legal_actions(0)] == [KONG, "pass"]
    act(hand, 0, KONG)
    pass_all(hand)  # seat 2 answers the window too (R13.2); then the kong is made
    assert hand.seats[0].waits == (parse_tile("4p"),)
    assert seat_view(hand, 2)["seats"][0]["waits"] == ["4p"]
    # 直杠 money: seat 1 pays 2 (R6.3); the 补杠 before it cost seats 1 and 2 one each (R6.2)
    assert hand.deltas == [4, -3, -1]


def test_r8_3_concealed_kong_of_a_drawn_fourth_judged_against_the_waits_of_now():
    """R8.3: the same hand drawing the fourth 1s instead: 暗杠 1s keeps exactly 4p, so it is
    offered and pays 2 from each other seat (R6.1)."""
    hands = [LIVE_HANDS[0], LIVE_HANDS[1].replace("1s", "4s"), LIVE_HANDS[2]]
    hand = new_hand(hands, "6z 3s 4s 8s 7p 5s 9s 1p 1s 2s 8p 1p")
    act(hand, 0, DISCARD, "5z")
    act(hand, 1, DISCARD, "7p")
    act(hand, 0, PUNG)
    act(hand, 0, DISCARD, "6z", declare=True)
    act(hand, 1, DISCARD, "4s")
    act(hand, 2, DISCARD, "8s")
    act(hand, 0, ADDED_KONG, "7p")
    pass_all(hand)
    act(hand, 0, DISCARD, "5s")
    act(hand, 1, DISCARD, "9s")
    act(hand, 2, DISCARD, "1p")
    pass_all(hand)
    assert hand.seats[0].drawn == parse_tile("1s")
    assert (CONCEALED_KONG, parse_tile("1s")) in [(a.verb, a.tile) for a in hand.legal_actions(0)]
    act(hand, 0, CONCEALED_KONG, "1s")
    assert hand.seats[0].waits == (parse_tile("4p"),)
    assert hand.deltas == [2 + 4, -1 - 2, -1 - 2]


# R8.6: 3334666789p 789s with 666p face down waits 2p 4p 5p, the waits of the whole hand.
HIDE_HANDS = ["3334666789p 789s", "5p 1p 2s 3s 4s 6s 8s 9s 5z 5z 6z 7z 7z",
              "1p 1p 2p 2p 8p 1s 1s 2s 3s 4s 6s 5z 6z"]


def declared_hiding_666p(draws: str = "6z 5p"):
    hand = new_hand(HIDE_HANDS, draws, declare_hide_triplets=True)
    declares = {a.hidden for a in hand.legal_actions(0) if a.declare and a.tile == parse_tile("6z")}
    assert declares == {(), (parse_tile("6p"),)}  # 333p hidden would leave 4p 5p only
    refuse(hand, 0, DISCARD, "6z", declare=True, hidden=("3p",), rule="R8.6")
    act(hand, 0, DISCARD, "6z", declare=True, hidden=("6p",))
    assert hand.seats[0].waits == tuple(parse_tile(t) for t in ("2p", "4p", "5p"))
    return hand


def test_r8_6_a_face_down_triplet_is_never_split_when_scoring():
    """R8.6 + R8.4: with 666p fixed the 5p win reads 33p 345p 666p 789p 789s: no 456p, so no
    卡五星 (splitting 666p would read 333p 456p 66p 789p 789s with 卡五星, ×4). It is 亮倒 ×2
    only, and seat 1 who discarded pays double: 2 × 2 = 4 (包胡)."""
    hand = declared_hiding_666p()
    act(hand, 1, DISCARD, "5p")
    act(hand, 0, WIN)
    value = hand.values[0]
    assert value.pattern_names == ["亮倒"] and value.multiplier == 2 and value.bao_hu
    assert hand.deltas == [4, -4, 0]


def test_r8_6_a_face_down_triplet_may_be_konged_when_the_waits_stay():
    """R8.6/R8.3: drawing the fourth 6p, 暗杠 6p leaves 3334789p 789s + kong: still 2p 4p 5p,
    so it is offered; the triplet is then a concealed kong, no longer hidden."""
    hand = declared_hiding_666p("6z 1p 2s 6p 1s 3p 9p")
    act(hand, 1, DISCARD, "1p")
    act(hand, 2, DISCARD, "2s")
    pass_all(hand)
    assert hand.seats[0].drawn == parse_tile("6p")
    act(hand, 0, CONCEALED_KONG, "6p")
    assert hand.seats[0].hidden == ()
    assert hand.seats[0].waits == tuple(parse_tile(t) for t in ("2p", "4p", "5p"))
    assert seat_view(hand, 1)["seats"][0]["hidden_tiles"] == 0
