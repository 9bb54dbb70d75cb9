"""Town options of 亮倒, kongs and 漂 (VARIANTS.md R6.7, R8.12-R8.19, R11.2-R11.3) on scripted
hands. Each test deals explicit hands and draws (seat 0 deals and draws ``draws[0]`` first, turn
order 0 -> 1 -> 2, R1.2), plays actions that must be offered (``act`` lets every seat still
answering the tile on the table pass first), and checks refusals with ``refuse``: not offered,
refused naming the rule, the state untouched. Amounts are worked out by hand (base 1).
"""

from __future__ import annotations

import random

import pytest

from kawuxing.agents.declare import kept_waits
from kawuxing.engine import (ADDED_KONG, CLAIM, CONCEALED_KONG, DISCARD, KONG, PASS, PIAO,
                             PIAO_PHASE, WIN, Action, Match)
from kawuxing.engine.observation import observe
from kawuxing.engine.views import events_for_seat, seat_view
from kawuxing.records import hand_record, replay
from kawuxing.rules import RuleSet
from kawuxing.tiles import parse_tile

from test_engine_rules import act, make, new_hand, pass_all, refuse


def T(*codes: str) -> tuple[int, ...]:
    return tuple(parse_tile(c) for c in codes)


def kong_events(hand) -> list[dict]:
    return [e for e in hand.events if e["type"] == "kong"]


# Seat 0 holds 3334666789p 789s; with 6z drawn, discarding 6z with 亮倒 waits 2p 4p 5p (R8.1).
READY = ["3334666789p 789s", "5p 1p 2s 3s 4s 6s 8s 9s 5z 5z 6z 7z 7z",
         "1p 1p 2p 2p 8p 1s 1s 2s 3s 4s 6s 5z 6z"]


# --- R8.13 declare_min_wall -------------------------------------------------------------------

WALL = "6z 5s 5s 5s 5s 7s 7s 9p 9p 1s 3s 4p 4p"  # 13 draws: 12 left after the dealer's


@pytest.mark.parametrize("draws, offered", [(WALL, True), (WALL[:-3], False)])
def test_r8_13_no_declaring_with_fewer_than_12_tiles_in_the_wall(draws, offered):
    """R8.13 declare_min_wall 12, the wall counted after the declarer's draw ("How results are
    counted"): 12 left, 亮倒 with 6z is offered; 11 left, it is refused (R8.13), the view
    offers no 亮倒 waits, and 6z may still be discarded plainly. Default 0: offered."""
    hand = new_hand(READY, draws, declare_min_wall=12)
    assert hand.wall_left == (12 if offered else 11)
    declare = make(0, DISCARD, "6z", declare=True)
    assert (declare in hand.legal_actions(0)) is offered
    assert make(0, DISCARD, "6z") in hand.legal_actions(0)
    if offered:
        act(hand, 0, DISCARD, "6z", declare=True)
        assert hand.seats[0].waits == T("2p", "4p", "5p")
        return
    error = refuse(hand, 0, DISCARD, "6z", declare=True, rule="R8.13")
    assert "fewer than 12 tiles in the wall" in error.reason
    assert seat_view(hand, 0)["declare_waits"] == {}
    assert declare in new_hand(READY, draws).legal_actions(0)


# --- R8.14 declare_requires_concealed (门清, U11) ---------------------------------------------

# Seat 0: 1111p 234p 567s 78s 5z; draws 6z, 暗杠 1p, replacement 5z: 234p 567s 78s 55z 6z.
KONG_FIRST = ["1111p 234p 567s 78s 5z", "2p 3p 9p 1s 2s 3s 4s 9s 6z 7z 7z 8p 8p",
              "5p 5p 6p 6p 7p 2s 3s 4s 9s 8s 7z 8p 9p"]


@pytest.mark.parametrize("option", [False, True])
def test_r8_14_a_concealed_kong_breaks_men_qing(option):
    """R8.14 (U11): after 暗杠 1p seat 0 holds 234p 567s 78s 55z 6z; discarding 6z leaves
    waits 6s 9s. With declare_requires_concealed the concealed kong is a declared meld, so
    亮倒 is refused (R8.14), the plain discard offered; without it, 亮倒 is offered."""
    hand = new_hand(KONG_FIRST, "6z 5z 1s 1s 9s 9s", declare_requires_concealed=option)
    act(hand, 0, CONCEALED_KONG, "1p")
    assert hand.seats[0].drawn == parse_tile("5z")
    declare = make(0, DISCARD, "6z", declare=True)
    assert (declare in hand.legal_actions(0)) is not option
    if option:
        refuse(hand, 0, DISCARD, "6z", declare=True, rule="R8.14")
        assert make(0, DISCARD, "6z") in hand.legal_actions(0)
    else:
        act(hand, 0, DISCARD, "6z", declare=True)
        assert hand.seats[0].waits == T("6s", "9s")


# --- R8.15 declare_discard_feeds --------------------------------------------------------------

# Seat 1 declares 123p 456p 57s 55z 222s (wait 6s) with 9p; seat 2 then holds 888p 456p 33p
# 66z 6789s: 亮倒 with 6s or 9s leaves waits 3p 6z.
FEEDS = ["111s 333s 444s 999s 7z", "123p 456p 57s 55z 222s", "888p 456p 33p 66z 6s 7s 9s"]


@pytest.mark.parametrize("option", ["allowed", "forbidden"])
def test_r8_15_the_declaring_discard_may_not_be_a_declared_wait(option):
    """R8.15 forbidden: seat 1 waits 6s, so seat 2 may declare with 9s but not with 6s
    (refused, R8.15); a plain 6s stays legal (R8.7 is a separate option). allowed: both."""
    hand = new_hand(FEEDS, "7z 9p 8s 1p 1p", declare_discard_feeds=option)
    act(hand, 0, DISCARD, "7z")
    act(hand, 1, DISCARD, "9p", declare=True)
    assert hand.seats[1].waits == T("6s")
    pass_all(hand)
    declares = {a.tile for a in hand.legal_actions(2) if a.declare}
    assert declares == (set(T("6s", "9s")) if option == "allowed" else set(T("9s")))
    assert make(2, DISCARD, "6s") in hand.legal_actions(2)
    if option == "forbidden":
        refuse(hand, 2, DISCARD, "6s", declare=True, rule="R8.15")
        assert list(seat_view(hand, 2)["declare_waits"]) == ["9s"]
    act(hand, 2, DISCARD, "9s", declare=True)
    assert hand.seats[2].waits == T("3p", "6z")


# --- R6.7 added_kong_on_declared_wait ---------------------------------------------------------

# Seat 0 pungs seat 2's 6s, then (optionally) declares 111p 999p 777s 8s (wait 8s) with 6z;
# seat 1 declares 123p 456p 57s 55z 222s (wait 6s) with 9s; seat 0 then draws the fourth 6s.
ADDED = ["66s 111p 999p 777s 6z 7z", "123p 456p 57s 55z 222s",
         "6s 888p 33p 2s 3s 4s 8s 9s 5z 6z"]
ADDED_DRAWS = "8s 1s 5p 9s 4p 6s 1s 1s 3s"


def added_kong_hand(option: str, declare: bool):
    hand = new_hand(ADDED, ADDED_DRAWS, added_kong_on_declared_wait=option)
    act(hand, 0, DISCARD, "7z")
    act(hand, 1, DISCARD, "1s")
    act(hand, 2, DISCARD, "6s")
    act(hand, 0, "pung")
    act(hand, 0, DISCARD, "6z", declare=declare)
    act(hand, 1, DISCARD, "9s", declare=True)
    act(hand, 2, DISCARD, "4p")
    pass_all(hand)
    assert hand.seats[0].drawn == parse_tile("6s") and hand.seats[1].waits == T("6s")
    return hand


@pytest.mark.parametrize("option, declare, offered", [
    ("allowed", False, True), ("forbidden", False, False), ("forbidden", True, False),
    ("forbidden_undeclared", False, False), ("forbidden_undeclared", True, True)])
def test_r6_7_no_added_kong_with_a_declared_players_wait(option, declare, offered):
    """R6.7: 6s is seat 1's wait. forbidden: nobody may 补杠 it (refused, R6.7);
    forbidden_undeclared: only an undeclared seat 0 is refused; allowed (R7.4 applies): the
    补杠 is offered and seat 1 may rob it (亮倒 ×2 抢杠胡 ×2 = ×4; seat 0 pays as the
    discarder, 包胡 double: 8)."""
    hand = added_kong_hand(option, declare)
    assert (make(0, ADDED_KONG, "6s") in hand.legal_actions(0)) is offered
    if not offered:
        refuse(hand, 0, ADDED_KONG, "6s", rule="R6.7")
        return
    act(hand, 0, ADDED_KONG, "6s")
    if hand.phase == "rob":
        assert WIN in {a.verb for a in hand.legal_actions(1)}
        act(hand, 1, WIN)
        assert hand.values[1].pattern_names == ["抢杠胡", "亮倒"]
        assert hand.deltas == [-8, 8, 0]


# --- R8.16 declared_kong ----------------------------------------------------------------------

# Seat 0 declares 3334666789p 789s with 6z; seat 1 then discards 3p or 6p (seat 1's 5p -> 3p).
KONGS = ["3334666789p 789s", "3p 1p 2s 3s 4s 6s 8s 9s 5z 5z 6z 7z 7z",
         "1p 1p 2p 2p 8p 1s 1s 2s 3s 4s 6s 5z 6z"]


@pytest.mark.parametrize("mode", ["waits_unchanged", "hidden_triplets_only"])
def test_r8_16_a_face_down_triplet_may_be_konged(mode):
    """R8.16: seat 0 keeps 666p face down (R8.6); seat 1's 6p may be konged (直杠) under both
    modes (R8.3: 3334p 789p 789s + kong still waits 2p 4p 5p); the triplet is then the kong,
    nothing is face down, and seat 1 pays 2 (R6.3)."""
    hand = new_hand(KONGS, "6z 6p 9s 9s", declare_hide_triplets=True, declared_kong=mode)
    act(hand, 0, DISCARD, "6z", declare=True, hidden=("6p",))
    act(hand, 1, DISCARD, "6p")
    assert KONG in {a.verb for a in hand.legal_actions(0)}
    act(hand, 0, KONG)
    pass_all(hand)
    assert hand.seats[0].hidden == () and hand.seats[0].waits == T("2p", "4p", "5p")
    assert hand.deltas == [2, -2, 0]


def test_r8_16_a_shown_triplet_is_not_konged_under_hidden_triplets_only():
    """R8.16: seat 0 declares 3334666789p 789s with nothing face down. Drawing the fourth 6p:
    R8.3 (default) offers 暗杠 6p (3334789p 789s + kong still waits 2p 4p 5p); under
    hidden_triplets_only 666p is shown, so the kong is refused naming R8.16."""
    draws = "6z 1p 2s 6p 9s 9s"
    default = new_hand(KONGS, draws)
    strict = new_hand(KONGS, draws, declared_kong="hidden_triplets_only")
    for hand in (default, strict):
        act(hand, 0, DISCARD, "6z", declare=True)
        act(hand, 1, DISCARD, "1p")
        act(hand, 2, DISCARD, "2s")
        pass_all(hand)
        assert hand.seats[0].drawn == parse_tile("6p")
    assert make(0, CONCEALED_KONG, "6p") in default.legal_actions(0)
    refuse(strict, 0, CONCEALED_KONG, "6p", rule="R8.16")
    assert [a.verb for a in strict.legal_actions(0)] == [DISCARD]


# --- R8.17 declared_must_win ------------------------------------------------------------------

def declared_666p_hidden(draws: str, **options):
    hand = new_hand(READY, draws, declare_hide_triplets=True, **options)
    act(hand, 0, DISCARD, "6z", declare=True, hidden=("6p",))
    return hand


def test_r8_17_a_declared_player_who_can_win_on_a_discard_must_win():
    """R8.17: seat 1's 5p completes seat 0's hand: win is seat 0's only legal action, a pass
    is refused (R8.17); seat 2 still answers the window (R13.2: pass only). The win: 亮倒 ×2,
    包胡 4 from seat 1 (R8.4)."""
    hand = declared_666p_hidden("6z 5p 9s", declared_must_win=True)
    act(hand, 1, DISCARD, "5p")
    assert hand.phase == CLAIM and hand.pending.answers == {2: PASS}  # passed for (R13.2)
    assert hand.legal_actions(0) == [Action(0, WIN)]
    refuse(hand, 0, PASS, rule="R8.17")
    refuse(hand, 0, KONG, rule="R8.17")
    act(hand, 0, WIN)
    assert hand.deltas == [4, -4, 0]


def test_r8_17_a_declared_player_who_can_self_draw_must_win():
    """R8.17: seat 0 draws 5p: the only legal action is the win; discarding it is refused
    (R8.17). Self-draw 亮倒 ×2: 2 from each (R7.2)."""
    hand = declared_666p_hidden("6z 1p 2s 5p 9s 9s", declared_must_win=True)
    act(hand, 1, DISCARD, "1p")
    act(hand, 2, DISCARD, "2s")
    pass_all(hand)
    assert hand.legal_actions(0) == [Action(0, WIN)]
    refuse(hand, 0, DISCARD, "5p", rule="R8.17")
    act(hand, 0, WIN)
    assert hand.deltas == [4, -2, -2]


# --- R8.18 pass_win_doubles -------------------------------------------------------------------

def test_r8_18_each_passed_win_doubles_the_later_win():
    """R8.18: seat 0 passes seat 1's 5p (×2 亮倒) and is not blocked on seat 2's 2p (R7.5
    counting the doubling: ×2 × 2 = 4 beats the ×2 passed); the win is worth ×2 × 2: 包胡
    2 × 4 = 8 from seat 2. Under missed_win_exception none the 2p is blocked (R7.5)."""
    hand = declared_666p_hidden("6z 5p 1s", pass_win_doubles=True)
    act(hand, 1, DISCARD, "5p")
    act(hand, 0, PASS)
    pass_all(hand)
    assert hand.seats[0].passed_wins == 1 and hand.seats[0].missed == [2]
    act(hand, 2, DISCARD, "2p")
    assert WIN in {a.verb for a in hand.legal_actions(0)}
    act(hand, 0, WIN)
    assert hand.deltas == [8, 0, -8]
    blocked = declared_666p_hidden("6z 5p 1s", pass_win_doubles=True,
                                   missed_win_exception="none")
    act(blocked, 1, DISCARD, "5p")
    act(blocked, 0, PASS)
    pass_all(blocked)
    act(blocked, 2, DISCARD, "2p")
    assert WIN not in {a.verb for a in blocked.legal_actions(0)}


def test_r8_18_a_passed_self_draw_counts_too():
    """R8.18: seat 0 draws 5p and discards it instead of winning: one win passed (no 漏胡:
    R7.5 concerns others' tiles). Off (default), nothing is counted."""
    for option, passed in ((True, 1), (False, 0)):
        hand = declared_666p_hidden("6z 1p 2s 5p 9s 9s", pass_win_doubles=option)
        act(hand, 1, DISCARD, "1p")
        act(hand, 2, DISCARD, "2s")
        pass_all(hand)
        act(hand, 0, DISCARD, "5p")
        assert hand.seats[0].passed_wins == passed and hand.seats[0].missed == []


# --- R8.19 declared_auto_kong (杀马) ----------------------------------------------------------

def test_r8_19_a_drawn_fourth_and_a_discarded_fourth_are_konged_at_once():
    """R8.19: seat 0 declares 3334666789p 789s (nothing face down). It draws the fourth 6p:
    not a win, so the engine konges it at once (暗杠, 2 from each, R6.1) and draws the
    replacement 1s, which seat 0 discards. Seat 1 discards the fourth 3p: nobody wins, so it
    is konged at once (直杠, seat 1 pays 2, R6.3); the waits are now 4p only (4789p 789s),
    and the replacement 4p is a self-draw: 亮倒 ×2 杠上开花 ×2 = 4 from each. Deltas:
    seat 0 4 + 2 + 8 = 14, seat 1 −2 −2 −4 = −8, seat 2 −2 −4 = −6."""
    hand = new_hand(READY, "6z 9p 9p 6p 1s 3p 4p 9s", declared_auto_kong=True)
    act(hand, 0, DISCARD, "6z", declare=True)
    act(hand, 1, DISCARD, "9p")
    act(hand, 2, DISCARD, "9p")
    pass_all(hand)
    auto = kong_events(hand)
    assert [(e["kind"], e["tile"], e.get("auto")) for e in auto] == [
        ("concealed_kong", "6p", True)]
    assert hand.seats[0].drawn == parse_tile("1s") and hand.deltas == [4, -2, -2]
    assert hand.seats[0].waits == T("2p", "4p", "5p")
    act(hand, 0, DISCARD, "1s")
    act(hand, 1, DISCARD, "3p")
    assert KONG not in {a.verb for a in hand.legal_actions(0)}  # the engine's, not a choice
    pass_all(hand)
    assert [(e["kind"], e["tile"], e.get("from"), e.get("auto")) for e in kong_events(hand)][1:] \
        == [("exposed_kong", "3p", 1, True)]
    assert hand.seats[0].waits == T("4p")
    waits = [e for e in events_for_seat(hand, 2) if e["type"] == "waits"]
    assert waits[-1]["waits"] == ["4p"]
    assert hand.legal_actions(0)[0] == Action(0, WIN)
    act(hand, 0, WIN)
    assert hand.values[0].pattern_names == ["杠上开花", "亮倒"]
    assert hand.deltas == [14, -8, -6]


def test_r8_19_off_the_fourth_is_the_players_choice():
    """R8.19 off (default): the fourth 6p drawn is a choice (R8.3 offers the 暗杠), nothing
    is konged by the engine."""
    hand = new_hand(READY, "6z 9p 9p 6p 1s 3p 4p 9s")
    act(hand, 0, DISCARD, "6z", declare=True)
    act(hand, 1, DISCARD, "9p")
    act(hand, 2, DISCARD, "9p")
    pass_all(hand)
    assert kong_events(hand) == [] and hand.seats[0].drawn == parse_tile("6p")
    assert make(0, CONCEALED_KONG, "6p") in hand.legal_actions(0)


# --- R8.12 hide_triplet_test ------------------------------------------------------------------

@pytest.mark.parametrize("test, choices", [
    ("same_waits", {(), T("6p")}),
    ("still_ready", {(), T("3p"), T("6p"), T("3p", "6p")})])
def test_r8_12_still_ready_lets_a_triplet_hide_that_shrinks_the_waits(test, choices):
    """R8.12: 3334666789p 789s (waits 2p 4p 5p). same_waits: only 666p may hide. still_ready:
    333p may too (VARIANTS.md's example: 4666789p 789s waits 4p 5p; with 666p too, 4789p
    789s waits 4p); the waits are those of the hand with them fixed."""
    hand = new_hand(READY, "6z 5p", declare_hide_triplets=True, hide_triplet_test=test)
    offered = {a.hidden for a in hand.legal_actions(0) if a.declare and a.tile == T("6z")[0]}
    assert offered == choices
    if test == "same_waits":
        refuse(hand, 0, DISCARD, "6z", declare=True, hidden=("3p",), rule="R8.6")
        return
    act(hand, 0, DISCARD, "6z", declare=True, hidden=("3p",))
    assert hand.seats[0].waits == T("4p", "5p")
    assert seat_view(hand, 1)["seats"][0]["waits"] == ["4p", "5p"]


# --- R11.2 piao_mode, R11.3 piao_fixed --------------------------------------------------------

def play_out(hand, rng: random.Random) -> None:
    while not hand.ended:
        seat = hand.to_act()[0]
        hand.apply(rng.choice(hand.legal_actions(seat)))


def test_r11_2_fixed_piao_needs_no_choice_and_is_paid():
    """R11.2 fixed, R11.3 piao_fixed 3, piao_choices empty: no 漂 phase; every hand of the
    match has 漂 3 for everyone; a record replays it."""
    rules = RuleSet.preset(piao_mode="fixed", piao_fixed=3, hands_per_match=2)
    match = Match(rules, seed=5)
    rng = random.Random(1)
    for _ in range(2):
        hand = match.hand
        assert hand.phase != PIAO_PHASE and [s.piao for s in hand.seats] == [3, 3, 3]
        play_out(hand, rng)
        again = replay(hand_record(hand))
        assert again.events == hand.events
        if hand.result == "win":
            piao = [t for t in hand.transfers if t.kind == "piao"]
            assert piao and all(t.amount == 6 for t in piao)  # 3 + 3 (R11.1)
        if not match.over:
            match.next_hand()


@pytest.mark.parametrize("mode, phases", [("first_hand", [True, False, False]),
                                          ("each_hand", [True, True, True])])
def test_r11_2_first_hand_piao_is_kept_all_match(mode, phases):
    """R11.2 first_hand: only the first hand opens with a 漂 phase; the 漂 picked there
    (1, 2, 5) is every later hand's, and records replay it. each_hand (R11.1): each hand
    picks again."""
    rules = RuleSet.preset(piao_mode=mode, piao_choices=[0, 1, 2, 5], hands_per_match=3)
    match = Match(rules, seed=9)
    rng = random.Random(2)
    for number, phase in enumerate(phases):
        hand = match.hand
        assert (hand.phase == PIAO_PHASE) is phase
        if phase:
            for seat, p in enumerate((1, 2, 5)):
                hand.apply(Action(seat, PIAO, piao=p))
        assert [s.piao for s in hand.seats] == [1, 2, 5]
        play_out(hand, rng)
        assert replay(hand_record(hand)).events == hand.events
        if number < len(phases) - 1:
            match.next_hand()


def test_r11_2_a_fixed_hand_refuses_another_piao():
    """R11.2 fixed: a hand given another 漂 than piao_fixed is refused."""
    with pytest.raises(ValueError, match="R11.2"):
        new_hand(READY, "6z", piao=[0, 1, 1], piao_mode="fixed")
    assert [s.piao for s in new_hand(READY, "6z", piao_mode="fixed").seats] == [1, 1, 1]


def test_observation_of_a_bot_never_names_the_face_down_tiles():
    """R13.1: the others' Observation of seat 0 (666p face down) shows 3334789p 789s and 3
    face-down tiles, and counts 666p as unseen."""
    hand = declared_666p_hidden("6z 5p")
    for seat in (1, 2):
        obs = observe(hand, seat)
        assert obs.hidden_tiles[0] == 3
        assert obs.revealed[0][parse_tile("6p")] == 0
        assert obs.visible[parse_tile("6p")] == 0


# Seat 0 declares 111p 23p 456s 789s 55z with 7z: waits 1p 4p 5z; the fourth 1p wins too.
KONG_OR_WIN = ["111p 23p 456s 789s 55z", "2p 3p 9p 9p 2s 3s 4s 6s 8s 9s 6z 7z 7z",
               "2p 8p 8p 3s 4s 6s 1s 1s 2s 5p 6p 6z 6z"]


@pytest.mark.parametrize("choice", [WIN, CONCEALED_KONG])
def test_r8_19_a_drawn_fourth_that_wins_is_won_or_konged(choice):
    """R8.19: seat 0 draws the fourth 1p, which completes 111p 123p 456s 789s 55z: it may win,
    else the tile is konged (暗杠); discarding it is refused (R8.19). Konged: 2 from each
    (R6.1), and 1p is no longer a wait (all four held, R8.1): 4p only."""
    hand = new_hand(KONG_OR_WIN, "7z 9s 3s 1p 5s 5s", declared_auto_kong=True)
    act(hand, 0, DISCARD, "7z", declare=True)
    assert hand.seats[0].waits == T("1p", "4p", "5z")
    act(hand, 1, DISCARD, "9s")
    act(hand, 2, DISCARD, "3s")
    pass_all(hand)
    assert hand.legal_actions(0) == [Action(0, WIN), Action(0, CONCEALED_KONG, T("1p")[0])]
    refuse(hand, 0, DISCARD, "1p", rule="R8.19")
    act(hand, 0, choice, "1p" if choice == CONCEALED_KONG else None)
    if choice == WIN:
        assert hand.result == "win" and hand.winners == [0]
        return
    assert hand.deltas == [4, -2, -2] and hand.seats[0].waits == T("4p")
    assert hand.seats[0].drawn == T("5s")[0]


def test_r8_12_bots_see_the_waits_each_face_down_choice_keeps():
    """R8.12 still_ready: the bots' kept_waits of seat 0's 亮倒 with 6z: plain and hiding 666p
    2p 4p 5p; hiding 333p 4p 5p; both 4p (the waits the engine then sets)."""
    hand = new_hand(READY, "6z 5p", declare_hide_triplets=True, hide_triplet_test="still_ready")
    obs = observe(hand, 0)
    kept = {a.hidden: tuple(kept_waits(obs, a)) for a in hand.legal_actions(0)
            if a.declare and a.tile == T("6z")[0]}
    assert kept == {(): T("2p", "4p", "5p"), T("6p"): T("2p", "4p", "5p"),
                    T("3p"): T("4p", "5p"), T("3p", "6p"): T("4p")}
    act(hand, 0, DISCARD, "6z", declare=True, hidden=("3p", "6p"))
    assert hand.seats[0].waits == T("4p")


def test_r8_19_no_kong_on_the_last_tile():
    """R8.19 with R5.2: the fourth 6p drawn as the last tile of the wall is not konged (nobody
    kongs after drawing the last tile); seat 0 discards it (R5.1, R8.2)."""
    hand = new_hand(READY, "6z 9p 9p 6p", declared_auto_kong=True)
    act(hand, 0, DISCARD, "6z", declare=True)
    act(hand, 1, DISCARD, "9p")
    act(hand, 2, DISCARD, "9p")
    pass_all(hand)
    assert hand.wall_left == 0 and kong_events(hand) == []
    assert hand.legal_actions(0) == [make(0, DISCARD, "6p")]
