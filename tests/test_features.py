"""Shape features (kawuxing.envs.features, encoding 2 of a policy file): the shanten and
effective tiles of the own hand after each discard, and a pung of the tile on the table,
read from the planes alone (R13)."""

import numpy as np
import pytest

from kawuxing.engine import Action, Hand
from kawuxing.engine.actions import DISCARD
from kawuxing.envs import HandEncoder
from kawuxing.envs import features
from kawuxing.envs.features import ROWS, hand_features, shape_features
from kawuxing.envs.tensors import COPIES, NUM_PLANES, OWN_CONCEALED, SEAT_BASE, TABLE, VISIBLE
from kawuxing.envs.vector import VectorEnv
from kawuxing.rules import RuleSet
from kawuxing.shapes import shanten
from kawuxing.tiles import NUM_KINDS, parse_tile, parse_tiles

# seat 0 deals with 卡五星's wait on 5p (R8.1 ready) and draws 5z
HANDS = [parse_tiles("46p 234p 123s 789s 99p"), parse_tiles("55z 123p 456p 78p 1s 3s 9s"),
         parse_tiles("3s 44s 55s 66s 88s 123p 6z")]
_MELD_ROWS = slice(SEAT_BASE, SEAT_BASE + 4)


# the reference: hand_features as it was before the grid of all draws (one draw_shanten call for
# each kind held), kept in the module for planes that are not 0/1; the grid must give its bits
_reference_hand_features = features._hand_features_general


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


# --- the grid of all draws gives the reference's bits ------------------------------------------

def assert_as_reference(planes: np.ndarray) -> None:
    """shape_features of the batch, and hand_features of each, equal the reference's bits."""
    reference = np.stack([_reference_hand_features(p) for p in planes])
    assert np.array_equal(shape_features(planes), reference)
    for p, r in zip(planes, reference):
        assert np.array_equal(hand_features(p), r)


@pytest.mark.parametrize("seed, rules", list(enumerate([
    RuleSet.preset("standard"), RuleSet.preset("xiaogan"), RuleSet.preset("capped"),
    RuleSet.preset("standard", suits=["m", "s"])])))  # (万: the first component)
def test_random_play_gives_the_reference_bits(seed, rules):
    """About 1,000 decisions of random play (12 hands for 80 steps: deep into the hands)."""
    env = VectorEnv(12, rules=rules, seed=seed)
    obs, mask, _ = env.reset()
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(80):
        seen.append(obs.copy())
        obs, mask, *_ = env.step([rng.choice(np.flatnonzero(m)) for m in mask])
    planes = np.concatenate(seen)
    assert_as_reference(planes)
    assert np.array_equal(shape_features(planes.astype(np.int8)), shape_features(planes))
    melds = set(planes[:, _MELD_ROWS].sum(axis=(1, 2)).astype(int))
    assert {0, 1, 2, 3} <= melds  # (the hands played reach melds)


def planes_from(counts, melds=(), visible=(), table=None) -> np.ndarray:
    """Planes of 0s and 1s: concealed ``counts`` (30), pungs of ``melds`` (kinds), the
    concealed tiles and ``visible`` counted as visible, ``table`` on the table."""
    planes = np.zeros((NUM_PLANES, NUM_KINDS), np.float32)
    seen = np.array(counts) + np.bincount(np.array(visible, int), minlength=NUM_KINDS)
    for j in range(COPIES):
        planes[OWN_CONCEALED + j] = np.array(counts) > j
        planes[VISIBLE + j] = np.minimum(seen, 4) > j
    planes[SEAT_BASE, list(melds)] = 1
    if table is not None:
        planes[TABLE, table] = 1
    return planes


def counts_of(tiles: str) -> list[int]:
    return np.bincount(parse_tiles(tiles), minlength=NUM_KINDS).tolist()


def test_random_planes_of_0s_and_1s_give_the_reference_bits():
    """Any tiles and melds (totals no hand has too: 14 tiles and 4 melds, 16 tiles, 0)."""
    rng = np.random.default_rng(7)
    batch = []
    for _ in range(1500):
        held = rng.integers(0, 17)
        counts = np.bincount(rng.choice(np.repeat(np.arange(NUM_KINDS), 4), held,
                                        replace=False), minlength=NUM_KINDS)
        if rng.random() < 0.3:  # fewer kinds: more pairs, sets and fours
            counts = np.bincount(rng.choice(np.repeat(rng.choice(NUM_KINDS, 6), 4),
                                            min(held, 24), replace=False),
                                 minlength=NUM_KINDS)
        melds = rng.choice(NUM_KINDS, rng.integers(0, 6), replace=False)
        visible = rng.choice(NUM_KINDS, rng.integers(0, 40))
        table = rng.integers(0, NUM_KINDS) if rng.random() < 0.7 else None
        batch.append(planes_from(counts, melds, visible, table))
    assert_as_reference(np.stack(batch))


EDGES = {
    "four of a kind, 14 tiles": (counts_of("1111p 234p 567s 99s 55z"), ()),
    "four of a kind, 13 tiles": (counts_of("1111p 234p 567s 99s 5z"), ()),
    "four of a kind in a 3n+1 hand, table": (counts_of("2222p 34p 567s 789s 5z"), (), "2p"),
    "one meld": (counts_of("23p 456p 789s 11s 5z"), ("7z",)),
    "two melds": (counts_of("23p 456p 11s 5z"), ("7z", "1p")),
    "three melds, table pung": (counts_of("45p 11s"), ("7z", "1p", "9s"), "1s"),
    "four melds": (counts_of("1s 5z"), ("7z", "1p", "9s", "5s")),
    "four melds, no pung": (counts_of("11s 23p"), ("7z", "1p", "9s", "5s"), "1s"),
    "four melds, a pair: a win": (counts_of("11s"), ("7z", "1p", "9s", "5s")),
    "seven pairs: a win": (counts_of("11p 33p 55p 77s 88s 55z 66z"), ()),
    "seven pairs with a four": (counts_of("1111p 55p 77s 88s 55z 66z"), ()),
    "six pairs and a single": (counts_of("11p 33p 55p 77s 88s 55z 6z"), (), "6z"),
    "pairs with a meld": (counts_of("11p 33p 55p 77s 88s"), ("7z",)),
    "a standard win": (counts_of("123p 456p 789s 555z 11s"), ()),
    "a win of pungs": (counts_of("111p 555p 999s 555z 11s"), ()),
    "one tile": (counts_of("5z"), (), "5z"),
    "all honours": (counts_of("5555z 666z 777z"), (), "6z"),
    "one suit, 14 tiles": (counts_of("11112345678999p"), ()),
    "one suit, 13 tiles": (counts_of("1112345678999p"), (), "5p"),
    "万 and dragons": (counts_of("123m 456m 789m 55z 67z"), (), "5z"),
}


@pytest.mark.parametrize("name", EDGES)
def test_edge_cases_give_the_reference_bits(name):
    counts, melds, *table = EDGES[name]
    melds = [parse_tile(m) for m in melds]
    table = parse_tile(table[0]) if table else None
    planes = planes_from(counts, melds, table=table)
    variants = [planes, planes_from(counts, melds, visible=list(range(NUM_KINDS)) * 2,
                                    table=table)]  # (fewer unseen)
    assert_as_reference(np.stack(variants))
    assert hand_features(planes)[4, 2:4].any()  # (an own turn or a 3n+1 hand)


def test_empty_planes_and_the_win_shanten():
    assert not shape_features(np.zeros((3, NUM_PLANES, NUM_KINDS), np.int8)).any()
    assert not hand_features(np.zeros((NUM_PLANES, NUM_KINDS), np.float32)).any()
    win = hand_features(planes_from(counts_of("123p 456p 789s 555z 11s")))
    assert win[4, 0] == np.float32(-1 / 6) and win[4, 2] == 1.0  # shanten −1: a win


def test_planes_not_of_0s_and_1s_take_the_reference_path():
    """Counts above 4 (outside the tables: draw_shanten's search), a fraction, a meld row of
    3, NaN: the reference's bits, alone and in a batch between planes of 0s and 1s."""
    p5, s1 = parse_tile("5p"), parse_tile("1s")
    five = planes_from(counts_of("5555p 123s 456s 77z"), table=p5)
    five[OWN_CONCEALED, p5] = 2  # five of 5p: 13 tiles
    eight = planes_from(counts_of("55z 6z"), table=s1)
    eight[OWN_CONCEALED:OWN_CONCEALED + COPIES, s1] = 2  # eight of 1s: 11 tiles
    half = planes_from(counts_of("123p 456p 789s 55z 6z"))
    half[OWN_CONCEALED:OWN_CONCEALED + 2, parse_tile("9p")] = 0.5  # one 9p of halves: 13
    melds = planes_from(counts_of("123p 55z 6z 7z"), table=parse_tile("5z"))
    melds[SEAT_BASE, s1] = 3  # three melds from one cell: a 3n+1 hand, a pung
    unknown = planes_from(counts_of("123p 456p 789s 55z 67z"))
    unknown[VISIBLE + 2, p5] = np.nan
    odd = [five, eight, half, melds, unknown]
    regular = planes_from(counts_of("123p 456p 789s 55z 67z"), table=parse_tile("5z"))
    with np.errstate(invalid="ignore"):  # (NaN to int)
        reference = np.stack([_reference_hand_features(p) for p in [regular] + odd])
        assert all(r[4, 2:4].any() for r in reference)  # (each an own turn or 3n+1 hand)
        assert reference[4, 4, 6] == 1.0  # (the pung with three melds)
        for p, r in zip(odd, reference[1:]):
            assert np.array_equal(hand_features(p), r)
        mixed = np.stack([regular] + odd + [regular])
        assert np.array_equal(shape_features(mixed), np.concatenate([reference, reference[:1]]))
