"""Hand.clone: a copy whose play never changes the original (the server undoes an action whose
storing failed by keeping the copy made before it), and which plays on exactly like the hand
it was copied from (the same events, views and record as a replay)."""

from __future__ import annotations

import json
import random

import pytest

from kawuxing.engine import Hand
from kawuxing.engine.hand import deal_order
from kawuxing.engine.views import seat_view
from kawuxing.records import hand_record, replay
from kawuxing.rules import RuleSet

from helpers import make_wall

PRESETS = ("standard", "app", "strict")


def snapshot(hand: Hand) -> str:
    """Everything observable of a hand: its record, every seat's view, its deltas, and what
    each seat may do."""
    return json.dumps({"record": hand_record(hand), "views": [seat_view(hand, s) for s in range(3)],
                       "deltas": hand.deltas, "phase": hand.phase, "wall": hand.wall_left,
                       "legal": [[a.to_json() for a in hand.legal_actions(s)] for s in range(3)]},
                      sort_keys=True, default=str)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(12))
def test_a_clone_is_independent_and_plays_on_like_the_original(preset, seed):
    rules = RuleSet.preset(preset, first_dealer="seat0")
    rng = random.Random(seed)
    hand = Hand.deal(rules, seed % 3, wall=make_wall(rules, seed, clumpy=seed % 2 == 0))
    steps = 0
    while not hand.ended:
        before = snapshot(hand)
        twin = hand.clone()
        seat = rng.choice(hand.to_act())
        action = rng.choice(hand.legal_actions(seat))
        # play the action (and a few more) on the clone: the original does not move
        twin.apply(action)
        for _ in range(3):
            if twin.ended:
                break
            s = twin.to_act()[0]
            twin.apply(twin.legal_actions(s)[0])
        assert snapshot(hand) == before
        # ... and the copy taken now plays on exactly like the original
        keep = hand.clone()
        hand.apply(action)
        keep.apply(action)
        assert snapshot(keep) == snapshot(hand)
        steps += 1
    assert steps > 5
    assert snapshot(replay(hand_record(hand))) == snapshot(hand)


@pytest.mark.parametrize("preset", PRESETS + ("xiaogan", "capped"))
@pytest.mark.parametrize("seed", range(6))
def test_a_replayed_hand_is_the_hand_as_it_stood(preset, seed):
    """Hand.replayed(n), the server's undo when storing a move fails (issue 34): after every
    step of a random hand, the replay of the first n actions is, observably, the hand as it
    stood after n actions (a clone kept then), and plays on like it."""
    rules = RuleSet.preset(preset, first_dealer="seat0")
    rng = random.Random(seed)
    hand = Hand.deal(rules, seed % 3, wall=make_wall(rules, seed, clumpy=seed % 2 == 0))
    kept = []  # (actions so far, snapshot then)
    while not hand.ended:
        kept.append((len(hand.actions), snapshot(hand)))
        seat = rng.choice(hand.to_act())
        hand.apply(rng.choice(hand.legal_actions(seat)))
    kept.append((len(hand.actions), snapshot(hand)))
    assert len(kept) > 5
    for count, then in kept:
        assert snapshot(hand.replayed(count)) == then
    middle = hand.replayed(len(hand.actions) // 2)
    for action in hand.actions[len(hand.actions) // 2:]:
        middle.apply(action)
    assert snapshot(middle) == snapshot(hand)
    for bad in (-1, len(hand.actions) + 1, 1.0, None):
        with pytest.raises(ValueError, match="actions of this hand"):
            hand.replayed(bad)


def test_undoing_from_a_clone_restores_mid_window_answers_and_seat_state():
    """A claim window with one answer in (R4.3): the copy made before the second answer
    still waits for it, with the first answer, the river and the missed wins as they were."""
    rules = RuleSet.preset(first_dealer="seat0")
    for seed in range(200):
        hand = Hand.deal(rules, 0, wall=make_wall(rules, seed, clumpy=True))
        while not hand.ended and not (hand.phase == "claim" and len(hand.to_act()) == 2):
            s = hand.to_act()[0]
            hand.apply(hand.legal_actions(s)[0])
        if hand.ended:
            continue
        first, second = hand.to_act()
        hand.apply(hand.legal_actions(first)[-1])
        answers = dict(hand.pending.answers)
        copy = hand.clone()
        hand.apply(hand.legal_actions(second)[0])
        assert hand.pending is None or hand.pending is not copy.pending
        assert copy.phase == "claim" and copy.to_act() == [second]
        assert copy.pending.answers == answers
        assert snapshot(copy) != snapshot(hand)
        return
    pytest.fail("no deal gave a claim window with two seats answering")


def test_deal_order_is_what_hand_deal_deals():
    """R3.1: 4-4-4 from the dealer, then one each; Hand.deal gives seat s the wall tiles that
    deal_order names s, and the draws are the tiles after them."""
    rules = RuleSet.preset()
    for dealer in range(3):
        order = deal_order(dealer)
        assert len(order) == 39 and order[:4] == [dealer] * 4 and order[36:] == [
            dealer, (dealer + 1) % 3, (dealer + 2) % 3]
        wall = make_wall(rules, dealer, clumpy=False)
        hand = Hand.deal(rules, dealer, wall=wall)
        for seat in range(3):
            assert hand.initial_hands[seat] == [t for s, t in zip(order, wall) if s == seat]
        assert hand.draws == wall[39:]


def test_a_clone_copies_list_and_dict_subclasses_and_shares_immutable_values():
    """_fresh (the copy under Hand.clone) makes new containers of lists, dicts and their
    subclasses and keeps the same object for what is never changed in place."""
    from collections import OrderedDict, defaultdict

    from kawuxing.engine.hand import _fresh

    class Thing:
        pass

    thing = Thing()
    thing.counts, thing.by_seat = [1, 2], {0: 1}
    thing.tally, thing.ordered = defaultdict(int, a=1), OrderedDict(b=2)
    thing.waits, thing.name, thing.none = (3, 4), "x", None
    twin = _fresh(thing)
    for name in ("counts", "by_seat", "tally", "ordered"):
        value, copied = getattr(thing, name), getattr(twin, name)
        assert copied == value and copied is not value and type(copied) is type(value)
    twin.counts.append(3)
    twin.tally["a"] += 1
    assert thing.counts == [1, 2] and thing.tally["a"] == 1
    assert twin.waits is thing.waits and twin.name == "x" and twin.none is None
    assert twin.__dict__ is not thing.__dict__
