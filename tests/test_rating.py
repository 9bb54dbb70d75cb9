"""Tenhou's three-player R (docs/ratings.md, kawuxing.server.rating) with values worked out by
hand, which matches are rated, and a player's statistics from stored settlements
(kawuxing.server.stats)."""

from __future__ import annotations

import pytest

from kawuxing.server.rating import (AUTO, BOTS, CHANGED, GUESTS, changes, games_factor,
                                    place_bonus, places, unrated_reason)
from kawuxing.server.stats import outcome, played, summary


def test_games_factor():
    assert games_factor(0) == 1.0
    assert games_factor(1) == pytest.approx(0.998)
    assert games_factor(250) == pytest.approx(0.5)
    assert games_factor(399) == pytest.approx(0.202)
    assert games_factor(400) == 0.2
    assert games_factor(3000) == 0.2


def test_places_and_bonus_share_ties():
    assert places([10, -4, -6]) == [1, 2, 3]
    assert place_bonus([10, -4, -6]) == [30, 0, -30]
    assert places([-6, 10, -4]) == [3, 1, 2]
    # a self-draw: the two who paid are tied for 2nd and 3rd (R12.1 totals)
    assert places([8, -4, -4]) == [1, 2.5, 2.5]
    assert place_bonus([8, -4, -4]) == [30, -15, -15]
    assert place_bonus([4, 4, -8]) == [15, 15, -30]
    assert place_bonus([0, 0, 0]) == [0, 0, 0]


def test_three_matches_by_hand():
    """Three new players (R 1500, no games), then the same three twice more."""
    # match 1: ann wins by self-draw, bob and cid pay alike: +30, -15, -15 (factor 1)
    r, n = [1500.0, 1500.0, 1500.0], [0, 0, 0]
    d = changes(r, n, [8, -4, -4])
    assert d == [30.0, -15.0, -15.0]
    r = [a + b for a, b in zip(r, d)]  # ann 1530, bob 1485, cid 1485
    n = [1, 1, 1]
    # match 2: bob 1st, ann 2nd, cid 3rd. Average (1530+1485+1485)/3 = 1500; factor 0.998:
    # ann (0 + (1500-1530)/40) * 0.998 = -0.75 * 0.998 = -0.7485
    # bob (30 + (1500-1485)/40) * 0.998 = 30.375 * 0.998 = 30.31425
    # cid (-30 + 15/40) * 0.998 = -29.625 * 0.998 = -29.56575
    d = changes(r, n, [2, 6, -8])
    assert d == pytest.approx([-0.7485, 30.31425, -29.56575])
    assert sum(d) == pytest.approx(0)
    r = [a + b for a, b in zip(r, d)]
    assert r == pytest.approx([1529.2515, 1515.31425, 1455.43425])
    # match 3, with cid at 400 rated matches (factor 0.2) and the others at 2 (0.996):
    # average (1529.2515 + 1515.31425 + 1455.43425)/3 = 1500.0
    # cid wins: (30 + (1500-1455.43425)/40) * 0.2 = (30 + 1.11414375) * 0.2 = 6.22282875
    # ann last: (-30 + (1500-1529.2515)/40) * 0.996 = (-30 - 0.7312875) * 0.996
    #   = -30.6083623...; bob 2nd: (0 + (1500-1515.31425)/40) * 0.996 = -0.38285625 * 0.996
    d = changes(r, [2, 2, 400], [-10, 1, 9])
    assert d == pytest.approx([-30.7312875 * 0.996, -0.38285625 * 0.996, 6.22282875])
    assert d[0] == pytest.approx(-30.60836235)
    with pytest.raises(ValueError):
        changes([1500, 1500], [0, 0], [1, -1])


def sit(seat, player, first=0, last=None):
    return {"seat": seat, "player_id": player, "first_hand": first, "last_hand": last}


def test_which_matches_are_rated():
    three = [sit(0, "a"), sit(1, "b"), sit(2, "c")]
    plain = {s: {"player": 40, "window": 30} for s in (0, 1, 2)}
    humans = ["human"] * 3
    assert unrated_reason(humans, three, plain) is None
    assert unrated_reason(["human", "human", "bot"], three[:2], plain) == BOTS
    assert unrated_reason(humans, three[:2], plain) == GUESTS  # seat 2 took a nickname only
    # b left in hand 3 and d took the seat: not the same three
    assert unrated_reason(humans, [sit(0, "a"), sit(1, "b", 0, 3), sit(2, "c"),
                                   sit(1, "d", 3)], plain) == CHANGED
    assert unrated_reason(humans, [sit(0, "a"), sit(1, "b", 0, 3), sit(2, "c")],
                          plain) == CHANGED
    # one player in two seats (not possible through a room, refused here too)
    assert unrated_reason(humans, [sit(0, "a"), sit(1, "a"), sit(2, "c")], plain) == CHANGED
    # 托管-heavy: more than a third of a seat's decisions made for it (passes of a seat with
    # no option, "window", are no decisions): 14 of 40 is more, 13 of 40 is not
    heavy = {**plain, 2: {"player": 26, "auto": 10, "timeout": 4, "window": 99}}
    assert unrated_reason(humans, three, heavy) == AUTO
    light = {**plain, 2: {"player": 27, "auto": 9, "timeout": 4}}
    assert unrated_reason(humans, three, light) is None


def win_result(winner, by, deltas, patterns, multiplier, payer=None):
    pats = [{"key": k, "name": n} for k, n in patterns]
    payers = [s for s in range(3) if s != winner] if payer is None else [payer]
    return {"result": "win", "winners": [winner], "deltas": deltas,
            "values": {str(winner): {"by": by, "multiplier": multiplier, "patterns": pats}},
            "transfers": [{"kind": "hand_value", "payer": p, "payee": winner, "amount": 1,
                           "win_by": by} for p in payers]}


def test_statistics_from_settlements():
    kawu = ("ka_wu_xing", "卡五星")
    pi = ("pi_hu", "屁胡")
    pengpeng = ("peng_peng_hu", "碰碰胡")
    hands = [  # match m, the player in seat 1 from hand 0, in seat 1 of match n from hand 2
        {"match_id": "m", "number": 0, "result": win_result(1, "self_draw", [-4, 8, -4], [pi], 1)},
        {"match_id": "m", "number": 1, "result": win_result(0, "discard", [8, -8, 0],
                                                            [kawu], 4, payer=1)},
        {"match_id": "m", "number": 2, "result": {"result": "draw", "winners": [],
                                                  "deltas": [0, 0, 0], "values": {},
                                                  "transfers": []}},
        {"match_id": "m", "number": 3, "result": win_result(1, "discard", [0, 16, -16],
                                                            [kawu, pengpeng], 8, payer=2)},
        {"match_id": "n", "number": 1, "result": win_result(2, "self_draw", [-2, -2, 4], [pi], 1)},
        {"match_id": "n", "number": 2, "result": win_result(1, "discard", [0, 4, -4], [kawu], 2,
                                                            payer=2)},
        {"match_id": "x", "number": 0, "result": win_result(1, "discard", [0, 4, -4], [kawu], 2,
                                                            payer=2)},
    ]
    sittings = [{"match_id": "m", "seat": 1, "first_hand": 0, "last_hand": None},
                {"match_id": "n", "seat": 1, "first_hand": 2, "last_hand": None}]
    mine = played(sittings, hands)
    assert [(h["match_id"], h["number"]) for h in mine] == [("m", 0), ("m", 1), ("m", 2),
                                                           ("m", 3), ("n", 2)]
    assert [outcome(h["result"], 1) for h in mine] == ["won", "dealt_in", "draw", "won", "won"]
    assert outcome(hands[4]["result"], 1) == "lost"  # another's self-draw
    # 亮倒 in hands m/1 (then dealt in), m/2 (a draw) and m/3 (won); one of seat 0 in m/1
    stats = summary(mine, [("m", 1, 1), ("m", 2, 1), ("m", 3, 1), ("m", 1, 0)])
    assert stats["hands"] == 5 and stats["wins"] == 3 and stats["win_rate"] == 0.6
    assert stats["deal_ins"] == 1 and stats["deal_in_rate"] == 0.2
    assert stats["declares"] == 3 and stats["declare_rate"] == 0.6
    assert stats["declare_results"] == {"won": 1, "dealt_in": 1, "draw": 1, "lost": 0}
    assert stats["self_draws"] == 1
    assert stats["average_multiplier"] == pytest.approx((1 + 8 + 2) / 3)
    assert stats["patterns"] == [{"key": "ka_wu_xing", "name": "卡五星", "count": 2},
                                 {"key": "peng_peng_hu", "name": "碰碰胡", "count": 1},
                                 {"key": "pi_hu", "name": "屁胡", "count": 1}]
    assert stats["best"] == {"match_id": "m", "number": 3, "delta": 16, "multiplier": 8,
                             "patterns": ["ka_wu_xing", "peng_peng_hu"]}
    assert stats["balance"] == 8 - 8 + 0 + 16 + 4
    empty = summary([], [])
    assert empty["win_rate"] is None and empty["average_multiplier"] is None
    assert empty["best"] is None and empty["hands"] == 0
