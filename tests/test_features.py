"""Shape features (kawuxing.envs.features, encoding 2 of a policy file): the shanten and
effective tiles of the own hand after each discard, and a pung of the tile on the table,
read from the planes alone (R13)."""

import numpy as np
import pytest

from kawuxing.engine import Action, Hand
from kawuxing.engine.actions import DISCARD
from kawuxing.envs import HandEncoder
from kawuxing.envs.features import ROWS, hand_features, shape_features
from kawuxing.envs.vector import VectorEnv
from kawuxing.rules import RuleSet
from kawuxing.shapes import shanten
from kawuxing.tiles import parse_tile, parse_tiles

# seat 0 deals with 卡五星's wait on 5p (R8.1 ready) and draws 5z
HANDS = [parse_tiles("46p 234p 123s 789s 99p"), parse_tiles("55z 123p 456p 78p 1s 3s 9s"),
         parse_tiles("3s 44s 55s 66s 88s 123p 6z")]


def planes_of(hand: Hand, seat: int) -> np.ndarray:
    return HandEncoder(hand).encode(seat)


def test_own_turn_rows_after_each_discard():
    hand = Hand(RuleSet.preset(), 0, [list(h) for h in HANDS], parse_tiles("5z 9s"))
    f = hand_features(planes_of(hand, 0))
    assert f.shape == (ROWS, 30) and f.dtype == np.float32
    z5, p9, p4 = parse_tile("5z"), parse_tile("9p"), parse_tile("4p")
    # discarding 5z keeps the hand ready (shanten 0) on 5p: 4 unseen copies (R13.1)
    assert (f[0, z5], f[1, z5], f[2, z5]) == (0.0, pytest.approx(4 / 20), 1.0)
    # discarding a 9p or a 4p loses the step: shanten 1
    assert f[0, p9] == f[0, p4] == 0.5 and f[2, p9] == f[2, p4] == 0.0
    assert f[0, parse_tile("7z")] == f[1, parse_tile("7z")] == 0.0  # not held: 0
    assert list(f[4, :4]) == [0.0, 0.0, 1.0, 0.0]  # shanten 0 over 6, own turn
    assert not f[3].any()


def test_a_tile_on_the_table_gives_the_effective_tiles_and_the_pung():
    hand = Hand(RuleSet.preset(), 0, [list(h) for h in HANDS], parse_tiles("5z 9s"))
    hand.apply(Action(0, DISCARD, parse_tile("5z")))
    f = hand_features(planes_of(hand, 1))
    counts = [0] * 30
    for t in HANDS[1]:
        counts[t] += 1
    now = shanten(counts, 0)
    assert f[4, 1] == pytest.approx(now / 6) and (f[4, 2], f[4, 3]) == (0.0, 1.0)
    drawn = [k for k in range(30) if counts[k] < 4
             and shanten(counts[:k] + [counts[k] + 1] + counts[k + 1:], 0) < now]
    assert list(np.flatnonzero(f[3])) == drawn and drawn
    z5 = parse_tile("5z")
    counts[z5] -= 2
    assert (f[4, 5], f[4, 6]) == (max(-1, min(shanten(counts, 1) - now, 1)), 1.0)
    assert not f[:3].any()


def test_batches_equal_one_at_a_time_and_read_only_the_planes():
    env = VectorEnv(3, rules=RuleSet.preset(), seed=5)
    obs, mask, _ = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(40):
        batch = shape_features(obs)
        assert np.array_equal(batch, np.stack([hand_features(o) for o in obs]))
        assert np.array_equal(shape_features(obs.astype(np.int8)), batch)  # a shard's dtype
        obs, mask, *_ = env.step([rng.choice(np.flatnonzero(m)) for m in mask])
    assert shape_features(obs[:0]).shape == (0, ROWS, 30)
