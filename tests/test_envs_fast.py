"""The fast research environments (issue 31): the incremental encoder equals the reference
tensor bit for bit, ``skip_forced`` in the AEC env, the batched :class:`VectorEnv`, and the
planes rebuilt from a bot-protocol view (RULES.md R13, R13.2)."""

from __future__ import annotations

import json
import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from kawuxing.engine.match import Match
from kawuxing.engine.observation import observe
from kawuxing.engine.views import seat_view
from kawuxing.envs import (NUM_ACTIONS, SHAPE, HandEncoder, IllegalEnvAction, VectorEnv,
                           aec_env, observation_tensor, own_shown, view_tensor)
from kawuxing.envs.views import ViewError
from kawuxing.rules import ALL_PRESETS, RuleSet


def face_down_counts(hand, seat: int) -> tuple[int, ...]:
    """Counts of ``seat``'s face-down tiles (R8.6, R8.11): what it chose at its 亮倒."""
    counts = [0] * 30
    for group in hand.seats[seat].hidden:
        for kind in group.tiles():
            counts[kind] += 1
    return tuple(counts)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_encoder_equals_the_observation_tensor_bit_for_bit(preset):
    """Every seat, after every action, of random hands with and without claim windows,
    standing given or not: the incremental planes are the reference planes."""
    rules = RuleSet.preset(preset)
    checked = 0
    for h in range(6):
        rng = random.Random(h)
        hand = Match(rules, f"{preset}/{h}", windows=h % 2 == 0).hand
        encoder = HandEncoder(hand)
        standing = ((3, -5, 2), 1, 2) if h % 3 == 0 else None
        while True:
            for seat in rng.sample(range(3), rng.randint(1, 3)):  # not every seat each step
                want = observation_tensor(observe(hand, seat), own_shown(hand, seat), standing)
                got = encoder.encode(seat, standing)
                assert got.dtype == np.float32 and got.shape == SHAPE
                assert np.array_equal(got, want), (preset, h, seat, hand.phase)
                checked += 1
            if hand.ended:
                break
            seat = hand.to_act()[0]
            hand.apply(rng.choice(hand.legal_actions(seat)))
    assert checked > 100


@pytest.mark.parametrize("preset", ["standard", "xiaogan", "capped", "xiangyang", "suizhou"])
def test_view_tensor_rebuilds_the_env_tensor_from_a_bot_protocol_view(preset):
    """An outside bot that reads only its JSON view (and remembers what it kept face down at
    its 亮倒) gets the very tensor the env gives that seat."""
    rules = RuleSet.preset(preset)
    wire_rules = RuleSet.from_dict(json.loads(json.dumps(rules.to_dict())))
    checked = 0
    for h in range(4):
        rng = random.Random(h)
        hand = Match(rules, f"view/{preset}/{h}", windows=True).hand
        encoder = HandEncoder(hand)
        while True:
            for seat in range(3):
                view = json.loads(json.dumps(seat_view(hand, seat)))
                got = view_tensor(view, wire_rules, face_down_counts(hand, seat))
                assert np.array_equal(got, encoder.encode(seat)), (preset, h, seat)
                checked += 1
            if hand.ended:
                break
            seat = hand.to_act()[0]
            hand.apply(rng.choice(hand.legal_actions(seat)))
    assert checked > 100


def test_view_tensor_refuses_what_is_not_a_seat_view():
    hand = Match(RuleSet.preset(), "bad-view", windows=True).hand
    view = seat_view(hand, 0)
    with pytest.raises(ViewError, match="no key 'hand'"):
        view_tensor({k: v for k, v in view.items() if k != "hand"}, RuleSet.preset())
    with pytest.raises(ViewError, match=r"view.seat: 0, 1 or 2, got None"):
        view_tensor(dict(view, seat=None), RuleSet.preset())
    with pytest.raises(ViewError, match="view.hand"):
        view_tensor(dict(view, hand="99x"), RuleSet.preset())
    for junk, words in ((dict(view, phase="lunch"), "view.phase: one of"),
                        (dict(view, seats=view["seats"][:2]), "view.seats: a list of three"),
                        (dict(view, dealer=7), "view.dealer: 0, 1 or 2, got 7"),
                        (dict(view, turn=1.0), "view.turn: 0, 1 or 2 or null, got 1.0"),
                        (dict(view, unseen=[1, 2]), "view.unseen: an object"),
                        (dict(view, seat=0.0), "view.seat: 0, 1 or 2, got 0.0"),
                        ("a view", "view: a JSON object, got str")):
        with pytest.raises(ViewError, match=words.replace("(", r"\(")):
            view_tensor(junk, RuleSet.preset())
    with pytest.raises(ViewError, match="face_down: 30 counts"):
        view_tensor(view, RuleSet.preset(), face_down=(1, 2))


def test_view_tensor_answers_junk_with_a_view_error_only():
    """Any value of any key of a real view replaced by junk: the planes, or a ViewError —
    never another exception (an outside bot's bad view is its own error, not a crash)."""
    hand = Match(RuleSet.preset("xiaogan"), "junk-view", windows=True).hand
    rng = random.Random(5)
    for _ in range(40):  # play into the hand: melds, discards, a table tile
        seat = hand.to_act()[0]
        hand.apply(rng.choice(hand.legal_actions(seat)))
        if hand.ended:
            break
    view = json.loads(json.dumps(seat_view(hand, hand.to_act()[0] if hand.to_act() else 0)))
    junks = [None, -1, 3, 1.5, "x", "5p", [], [1], {}, {"kind": "pung", "tile": "5p"}, True]

    def paths(node, prefix=()):
        yield prefix
        if isinstance(node, dict):
            for k, v in node.items():
                yield from paths(v, prefix + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from paths(v, prefix + (i,))

    count = 0
    for path in list(paths(view))[1:]:
        for junk in rng.sample(junks, 3):
            broken = json.loads(json.dumps(view))
            node = broken
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = junk
            try:
                planes = view_tensor(broken, RuleSet.preset("xiaogan"))
            except ViewError:
                continue
            assert planes.shape == SHAPE
            count += 1
    assert count > 0  # some junk is harmless (a name, a flag read as a bool)


def test_skip_forced_passes_the_pettingzoo_tests():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no render(): nothing to draw
        api_test(aec_env(seed=3, skip_forced=True), num_cycles=400)
        seed_test(lambda: aec_env(skip_forced=True), num_cycles=300)


def play(env, rng):
    """Random masked actions to the end; returns (decisions, options seen, total rewards)."""
    decisions, sizes, totals = 0, [], {a: 0 for a in env.possible_agents}
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        obs, *_ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        sizes.append(len(legal))
        env.step(int(rng.choice(legal.tolist())))
        decisions += 1
        for a, r in env.rewards.items():
            totals[a] += r
    return decisions, sizes, totals


def test_skip_forced_asks_only_choices_and_rewards_add_up_to_the_scores():
    """Every decision asked has two legal actions or more; each seat's rewards over a hand add
    up to its score change (kong money included, R6.6); the scores sum to zero."""
    for seed in range(12):
        env = aec_env(seed=seed, skip_forced=True)
        env.reset()
        decisions, sizes, totals = play(env, random.Random(seed))
        assert decisions > 0 and min(sizes) >= 2
        assert [totals[a] for a in env.possible_agents] == list(env.hand.deltas)
        assert sum(env.hand.deltas) == 0


def test_skip_forced_asks_fewer_decisions_of_the_same_game():
    """The same seed deals the same hand in both modes; without skip_forced every seat answers
    every discard (R13.2), so far more steps are asked."""
    fast, slow = aec_env(seed=5, skip_forced=True), aec_env(seed=5)
    fast.reset()
    slow.reset()
    assert [s.concealed for s in fast.hand.seats] == [s.concealed for s in slow.hand.seats]
    assert not fast.hand.windows and slow.hand.windows
    n_fast, sizes_fast, _ = play(fast, random.Random(1))
    n_slow, sizes_slow, _ = play(slow, random.Random(1))
    assert sizes_slow.count(1) > 0 and sizes_fast.count(1) == 0


def test_vector_env_steps_n_hands_with_auto_reset():
    """Shapes and dtypes; every row's mask allows 2+ actions and holds the deciding seat's
    legal actions; rewards by seat add up to zero in each hand and to its deltas."""
    env = VectorEnv(8, seed=3)
    obs, mask, seat = env.reset()
    assert obs.shape == (8,) + SHAPE and obs.dtype == np.float32
    assert mask.shape == (8, NUM_ACTIONS) and mask.dtype == bool
    assert seat.shape == (8,)
    rng = np.random.default_rng(0)
    totals = np.zeros((8, 3))
    finished = 0
    for _ in range(400):
        assert (mask.sum(1) >= 2).all()
        for i in range(8):
            assert sorted(env.legal_actions(i)) == np.flatnonzero(mask[i]).tolist()
            hand = env.hands[i]
            want = observation_tensor(observe(hand, int(seat[i])), own_shown(hand, int(seat[i])))
            assert np.array_equal(obs[i], want)
        hands, before = list(env.hands), [h.deltas[:] for h in env.hands]
        actions = (rng.random(mask.shape) * mask).argmax(1)
        obs, mask, seat, rewards, dones = env.step(actions)
        totals += rewards
        assert rewards.sum(1).tolist() == [0.0] * 8  # every payment has a payer (R6.6)
        for i in np.flatnonzero(dones):
            finished += 1
            assert hands[i].ended and env.hands[i] is not hands[i]  # dealt again
            assert totals[i].tolist() == hands[i].deltas  # the hand's rewards: its deltas
            totals[i] = 0
        for i in np.flatnonzero(~dones):
            assert (np.array(env.hands[i].deltas) - before[i]).tolist() == rewards[i].tolist()
    assert finished > 10


def test_vector_env_same_seed_same_hands_and_illegal_batch_refused():
    a, b = VectorEnv(4, seed=9), VectorEnv(4, seed=9)
    oa, ma, sa = a.reset()
    ob, mb, sb = b.reset()
    rng = np.random.default_rng(1)
    for _ in range(60):
        assert np.array_equal(oa, ob) and np.array_equal(ma, mb) and np.array_equal(sa, sb)
        actions = (rng.random(ma.shape) * ma).argmax(1)
        oa, ma, sa, ra, da = a.step(actions)
        ob, mb, sb, rb, db = b.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(da, db)
    snapshot = [len(h.actions) for h in a.hands]
    bad = (rng.random(ma.shape) * ma).argmax(1)
    bad[2] = int(np.flatnonzero(~ma[2])[0])
    with pytest.raises(IllegalEnvAction, match="hand 2: action"):
        a.step(bad)
    assert [len(h.actions) for h in a.hands] == snapshot  # no hand moved
    good = (rng.random(ma.shape) * ma).argmax(1)
    with pytest.raises(IllegalEnvAction, match=r"hand 0: action 0.5 is not an action index"):
        a.step([0.5] + good[1:].tolist())
    assert [len(h.actions) for h in a.hands] == snapshot
    with pytest.raises(ValueError, match="one index for each of the 4 hands, got 3"):
        a.step(bad[:3])
    with pytest.raises(ValueError, match="at least 1"):
        VectorEnv(0)
