"""Each seat's packed key (issue 14): :meth:`SeatState.key` is ``shapes.pack(concealed)`` after
every change by every path — :meth:`SeatState.add` (the engine's draws, discards, claims and
kongs), an item or slice of ``concealed`` set directly (as tests do), ``concealed`` replaced,
a clone (:meth:`Hand.clone`) — so the engine's win checks on keys (R7.1: self-draw R7.2, a
discard R7.3, a robbed kong R7.4) answer as the counts lists would."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kawuxing.engine import Hand, legal
from kawuxing.engine import state as state_module
from kawuxing.engine.hand import _fresh
from kawuxing.engine.state import SeatState
from kawuxing.face_down import is_fixed_win
from kawuxing.rules import RuleSet
from kawuxing.scoring import DISCARD as BY_DISCARD
from kawuxing.shapes import UNITS, is_win, is_win_key, pack
from kawuxing.tiles import NUM_KINDS, counts_of, parse_tiles

from helpers import make_wall

KIND = st.integers(0, NUM_KINDS - 1)
COUNTS = st.lists(st.integers(0, 4), min_size=NUM_KINDS, max_size=NUM_KINDS)
OPS = st.one_of(
    st.tuples(st.just("add"), KIND, st.integers(-5, 5)),          # SeatState.add
    st.tuples(st.just("item"), KIND, st.integers(0, 6)),          # concealed[k] = v
    st.tuples(st.just("bump"), KIND, st.integers(-2, 2)),         # concealed[k] += n
    st.tuples(st.just("slice"), COUNTS),                          # concealed[:] = new
    st.tuples(st.just("replace"), COUNTS),                        # concealed = new list
    st.tuples(st.just("huge"), KIND),                             # a count a key cannot hold
    st.tuples(st.just("clone"),),                                 # Hand.clone's seat copy
    st.tuples(st.just("key"),),                                   # read the key meanwhile
)


def packed(counts: list[int]) -> int | type[ValueError]:
    try:
        return pack(counts)
    except ValueError:
        return ValueError


def key_of(s: SeatState) -> int | type[ValueError]:
    try:
        return s.key()
    except ValueError:
        return ValueError


@settings(max_examples=300, deadline=None)
@given(COUNTS, st.lists(OPS, max_size=40))
def test_the_key_is_the_packed_counts_after_any_change(counts, ops):
    s = SeatState(list(counts))
    assert s.key() == pack(counts)
    for op in ops:
        if op[0] == "add":
            s.add(op[1], op[2])
        elif op[0] == "item":
            s.concealed[op[1]] = op[2]
        elif op[0] == "bump":
            s.concealed[op[1]] += op[2]
        elif op[0] == "slice":
            s.concealed[:] = op[1]
        elif op[0] == "replace":
            s.concealed = list(op[1])
        elif op[0] == "huge":
            s.add(op[1], 300)
        elif op[0] == "clone":
            s = _fresh(s)
        else:
            key_of(s)
        assert key_of(s) == packed(s.concealed), op  # both raise for a count outside 0-255
    if packed(s.concealed) is not ValueError:  # a tile added as a claim check adds it
        for kind in range(NUM_KINDS):
            plus = list(s.concealed)
            plus[kind] += 1
            if max(plus) <= 255:
                assert s.key() + UNITS[kind] == pack(plus)


def test_add_keeps_the_key_without_packing_again(monkeypatch):
    calls = []
    monkeypatch.setattr(state_module, "pack", lambda c: calls.append(1) or pack(c))
    s = SeatState(counts_of(parse_tiles("123p 456p 789p 123s 5z")))
    assert s.key() == pack(s.concealed) and len(calls) == 1
    s.add(28, 1)
    s.add(28, 1)  # 5z 6z 6z: not a win yet
    assert not is_win_key(s.key())
    s.add(28, -1)
    s.add(27, 1)  # 5z 5z 6z
    s.add(28, -1)
    assert is_win_key(s.key()) and s.key() == pack(s.concealed) and len(calls) == 1
    s.concealed[27] -= 1  # changed behind its back: packed again
    assert s.key() == pack(s.concealed) and len(calls) == 2
    assert not is_win_key(s.key())


PLAY_RULES = (("standard", {}), ("strict", {}),
              ("standard", {"declare_hide_triplets": True, "robbing_kong": True}))


@pytest.mark.parametrize("preset,options", PLAY_RULES)
@pytest.mark.parametrize("seed", range(6))
def test_engine_play_keeps_every_key_current(monkeypatch, preset, options, seed):
    """Random legal play (clumpy walls: kongs, 亮倒, robbing): after every action each seat's
    key is its packed counts, and the engine made it so through add() — a seat's key is packed
    at most once a hand (its first check) — while a clone's keys follow its own play."""
    calls = []
    monkeypatch.setattr(state_module, "pack", lambda c: calls.append(1) or pack(c))
    rules = RuleSet.preset(preset, **options)
    rng = random.Random(seed)
    hand = Hand.deal(rules, seed % 3, wall=make_wall(rules, seed, clumpy=seed % 2 == 0),
                     windows=seed % 3 == 0)
    clone = None
    steps = 0
    while not hand.ended:
        hand.apply(rng.choice(hand.legal_actions(hand.to_act()[0])))
        steps += 1
        if steps == 20:
            clone = hand.clone()
        if clone is not None and not clone.ended:  # the clone plays on its own way
            clone.apply(rng.choice(clone.legal_actions(clone.to_act()[0])))
        for h in (hand, clone):
            for s in (h.seats if h is not None else ()):
                assert s.key() == pack(s.concealed)
    assert steps > 20 and clone is not None
    assert len(calls) == 3  # each seat of the hand once; the clone's seats none


@settings(max_examples=200, deadline=None)
@given(st.permutations([k for k in range(9, 30) for _ in range(4)]).map(lambda w: w[:13]),
       st.integers(9, NUM_KINDS - 1), st.booleans())
def test_a_win_check_after_the_hand_was_set_directly(tiles, tile, in_place):
    """A test that writes a seat's concealed tiles itself (item by item, or a new list) gets
    the engine's answer for the hand it wrote (R7.1, R7.3), not the hand it replaced."""
    rules = RuleSet.preset("standard")
    hand = Hand.deal(rules, 0, seed="key")
    s = hand.seats[1]
    s.key()  # a key made for the dealt hand
    counts = counts_of(tiles)
    if in_place:
        s.concealed[:] = counts
    else:
        s.concealed = counts
    plus = list(counts)
    plus[tile] += 1
    assert is_win_key(s.key() + UNITS[tile]) == is_win(plus) == is_fixed_win(plus, ())
    value = legal.win_value(hand, 1, tile, BY_DISCARD, False, False, False)
    fresh = Hand.deal(rules, 0, seed="key")
    fresh.seats[1] = SeatState(list(counts))
    expected = legal.win_value(fresh, 1, tile, BY_DISCARD, False, False, False)
    assert (value is None) == (expected is None)
    if value is not None:
        assert is_win(plus) and value == expected
