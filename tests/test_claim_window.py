"""R13.2 in the engine: every discard (and every added kong that could be robbed) opens a claim
window for both other seats, so nothing a seat receives tells whether another seat could claim.

Twin hands differ only in seat 1's concealed tiles (and so in the wall order): in one seat 1
holds two 5p and may pung seat 0's 5p, in the other it holds none. Seat 2 must get the same
views and events in both, step by step.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kawuxing.engine import CLAIM, DISCARD, PASS, PUNG, ROB, TURN, Action, Hand
from kawuxing.engine.views import events_for_seat, seat_view
from kawuxing.rules import RuleSet
from kawuxing.tiles import parse_tile, parse_tiles

SEAT0 = "5p 19p 19s 5z 6z 7z 2468s 3p"
SEAT2 = "47p 888p 555s 66z 123p"
TWINS = {"option": "55p 23p 2s 3s 4s 7s 7s 8s 9s 1p 2p",  # holds 55p: may pung the 5p
         "none": "3p 4p 23p 2s 3s 4s 7s 7s 8s 9s 1p 2p"}  # holds no 5p
COMMON = "7z 9s 1p 7p"  # the first draws, the same in both twins
REST = {"option": "3p 4p", "none": "5p 5p"}  # the twins' other copies, at the wall's end


def twin(name: str, windows: bool = True) -> Hand:
    return Hand(RuleSet.preset(), 0, [parse_tiles(SEAT0), parse_tiles(TWINS[name]),
                                      parse_tiles(SEAT2)],
                parse_tiles(COMMON + " " + REST[name]), windows=windows)


def test_the_twins_differ_only_where_seat_2_cannot_look():
    a, b = twin("option"), twin("none")
    assert a.seats[1].concealed != b.seats[1].concealed
    assert a.draws != b.draws and a.draws[:4] == b.draws[:4]
    assert seat_view(a, 2) == seat_view(b, 2)


def test_a_seat_with_no_option_sees_the_same_window_whether_or_not_another_can_claim():
    """R13.2: after seat 0 discards 5p, seat 2 (no option in both) sees phase ``claim`` and
    only ``pass``; after its pass, the same view with nothing to do; after seat 1 passes too,
    the same next draw. Its event stream is identical, event numbers included."""
    a, b = twin("option"), twin("none")
    for hand in (a, b):
        hand.apply(Action(0, DISCARD, parse_tile("5p")))
    assert a.legal_actions(1) == [Action(1, PUNG), Action(1, PASS)]
    assert b.legal_actions(1) == [Action(1, PASS)]
    steps = [Action(2, PASS), Action(1, PASS)]
    seen = []
    for step in [None] + steps:
        if step is not None:
            a.apply(step)
            b.apply(step)
        va, vb = seat_view(a, 2), seat_view(b, 2)
        assert va == vb
        assert events_for_seat(a, 2) == events_for_seat(b, 2)
        seen.append((va["phase"], va["legal"]))
    assert seen == [(CLAIM, [[2, "pass"]]), (CLAIM, []), (TURN, [])]
    assert a.current == b.current == 1 and a.seats[1].drawn == b.seats[1].drawn


def test_the_other_seats_answer_reveals_nothing_until_the_window_closes():
    """R13.2: seat 1 pungs in one twin and passes in the other; while seat 2 has not answered,
    seat 2's view is the same (the pung waits for every answer)."""
    a, b = twin("option"), twin("option")
    for hand in (a, b):
        hand.apply(Action(0, DISCARD, parse_tile("5p")))
    a.apply(Action(1, PUNG))
    b.apply(Action(1, PASS))
    assert seat_view(a, 2) == seat_view(b, 2)
    assert events_for_seat(a, 2) == events_for_seat(b, 2)
    a.apply(Action(2, PASS))
    assert a.events[-1]["type"] == "pung"


def test_fast_path_opens_a_window_only_on_an_option():
    """``windows=False`` (self-play): with no option the next draw follows the discard at once;
    with windows every discard is followed by ``claim`` and both other seats answer."""
    fast = twin("none", windows=False)
    fast.apply(Action(0, DISCARD, parse_tile("5p")))
    assert fast.phase == TURN and fast.current == 1
    slow = twin("none")
    slow.apply(Action(0, DISCARD, parse_tile("5p")))
    assert slow.phase == CLAIM and slow.to_act() == [1, 2] and slow.idle_seats() == [1, 2]
    assert slow.pass_idle()[-1]["type"] == "draw"


def test_a_pass_from_a_seat_with_no_option_changes_nothing_else():
    """CASES.md: a pass by a seat with no option is accepted and changes nothing but its own
    answer (no event, the same table)."""
    hand = twin("none")
    hand.apply(Action(0, DISCARD, parse_tile("5p")))
    before = len(hand.events)
    assert hand.apply(Action(2, PASS)) == [] and len(hand.events) == before
    assert hand.to_act() == [1]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(["standard", "capped", "strict"]))
def test_windows_change_no_outcome(seed, preset):
    """The fast path and the windowed hand are the same game: the same choices (passes for the
    seats with no option added) give the same events and the same deltas. With windows, every
    discard is followed by a ``claim`` phase in which both other seats answer (R13.2)."""
    rules = RuleSet.preset(preset)
    fast = Hand.deal(rules, seed % 3, seed=seed, windows=False)
    slow = Hand.deal(rules, seed % 3, seed=seed)
    rng = random.Random(seed)
    windows = 0
    while not fast.ended:
        seat = fast.to_act()[0]
        action = rng.choice(fast.legal_actions(seat))
        fast.apply(action)
        opened = {e["type"] for e in slow.apply(action)}
        if "discard" in opened or ("adding_kong" in opened and rules.robbing_kong):
            assert slow.phase in (CLAIM, ROB)
            assert sorted(slow.pending.options) == sorted({0, 1, 2} - {seat})
            windows += 1
        if fast.phase not in (CLAIM, ROB):
            slow.pass_idle()  # the fast path skipped the rest of this window
    assert slow.ended and windows > 0
    assert slow.events == fast.events
    assert slow.deltas == fast.deltas and sum(slow.deltas) == 0
