"""The research environments (issue 15): the PettingZoo AEC env, the Gymnasium env, the action
table and the observation tensors (RULES.md R13: a seat's tensor is its Observation's)."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from kawuxing.agents import make_agent
from kawuxing.engine.legal import position_actions
from kawuxing.engine.observation import observe
from kawuxing.envs import (ENV_ID, NUM_ACTIONS, SHAPE, EpisodeOver, IllegalEnvAction,
                           UnmappedAction, action_index, aec_env, index_action, legal_indices,
                           own_shown)
from kawuxing.envs import actions as table
from kawuxing.envs import tensors as planes
from kawuxing.rules import ALL_PRESETS, RuleSet
from kawuxing.server.testing import CLAIM_DRAWS, CLAIM_HANDS, build_wall
from kawuxing.tiles import format_tiles, parse_tiles

K = {t: parse_tiles(t)[0] for t in ("1p", "2p", "5p", "9p")}


def wall(hands: list[str], draws: str, seed: int = 0) -> list[int]:
    """84 kinds dealing ``hands`` with seat 0 the dealer, then ``draws`` (R3.1)."""
    return parse_tiles(build_wall(hands, draws, dealer=0, seed=seed))


def play_random(env, rng: random.Random, steps: int | None = None) -> list:
    """Random masked actions until the episode ends (or ``steps``); the trace of
    (agent, observation bytes, action, rewards)."""
    trace = []
    while env.agents and (steps is None or len(trace) < steps):
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        obs, *_ = env.last()
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        env.step(action)
        trace.append((agent, obs["observation"].tobytes(), action, dict(env.rewards)))
    return trace


def test_pettingzoo_api_test_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no render(): nothing to draw
        api_test(aec_env(seed=3), num_cycles=400)


def test_gymnasium_check_env_and_vector_envs():
    env = gymnasium.make(ENV_ID, opponents=("random", "heuristic"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded score planes
        check_env(env.unwrapped)
    results = {}
    for mode in ("sync", "async"):
        vec = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode=mode,
                                 opponents=("random", "heuristic"))
        obs, _ = vec.reset(seed=3)
        assert obs["observation"].shape == (2, *SHAPE)
        total, ends = np.zeros(2), 0
        for _ in range(120):
            masks = obs["action_mask"]
            acts = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks])
            obs, reward, term, trunc, _ = vec.step(acts)
            total += reward
            ends += int(term.sum())
            assert not trunc.any()
        vec.close()
        assert ends >= 2
        results[mode] = total.tolist()
    assert results["sync"] == results["async"]  # same seed, same actions, same episodes


def test_gym_episode_reward_is_the_learner_score_change():
    env = gymnasium.make(ENV_ID, opponents=("expert", "heuristic"), seat=1).unwrapped
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 1  # skip_forced: the learner is asked only with a choice
            obs, reward, done, _, info = env.step(int(legal[0]))
            total += reward
        assert total == env.aec.hand.deltas[1]
        assert info["result"] == env.aec.hand.result
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    actions = len(env.aec.hand.actions)
    _, reward, done, _, info = env.step(illegal)  # refused: state untouched
    assert (reward, done, info) == (0.0, False, {"illegal_action": True})
    assert len(env.aec.hand.actions) == actions


def fresh(seed: int):
    env = aec_env(seed=seed)
    env.reset()
    return env


def test_same_seed_same_episode():
    one = play_random(fresh(5), random.Random(1))
    two = play_random(fresh(5), random.Random(1))
    assert one == two
    env = aec_env()
    env.reset(seed=5)
    assert play_random(env, random.Random(1)) == one  # reset(seed=) as the constructor's
    env.reset(seed=6)
    assert play_random(env, random.Random(1)) != one


def test_rewards_add_up_to_the_scores_per_hand_and_per_match():
    env = aec_env(seed=2)
    for _ in range(4):
        env.reset()
        totals = dict.fromkeys(env.possible_agents, 0)
        for _agent, _obs, _action, rewards in play_random(env, random.Random(0)):
            for a, r in rewards.items():
                totals[a] += r
        assert [totals[a] for a in env.possible_agents] == env.hand.deltas
    env = aec_env(RuleSet.preset(hands_per_match=3), seed=4, per_match=True)
    env.reset()
    totals = dict.fromkeys(env.possible_agents, 0)
    for _agent, _obs, _action, rewards in play_random(env, random.Random(0)):
        for a, r in rewards.items():
            totals[a] += r
    assert len(env.match.hands) == 3 and env.match.over
    assert [totals[a] for a in env.possible_agents] == env.match.totals()


def twin_walls() -> tuple[list[int], list[int]]:
    """Two deals the dealer (seat 0) cannot tell apart: the same own tiles and first three
    draws (5p, 1p, 2p), the other seats' hands and the wall's tail different. In the first,
    seat 1 may pung the dealer's 5p and seat 2 may win on it; in the second nobody may."""
    a = wall(CLAIM_HANDS, CLAIM_DRAWS + " 1p 2p", seed=1)
    b = wall([CLAIM_HANDS[0], "5p 9p 13p 7p 2s 4s 6s 8s 66z 77z", "47p 123s 789s 555z 99p"],
             CLAIM_DRAWS + " 1p 2p", seed=2)
    return a, b


def test_tensor_ignores_hidden_tiles_and_agent_order_ignores_options():
    """R13: seat 0's tensor is the same in both twins at every step; R13.2: after every
    discard both other seats take a turn, next seat first, whether or not one could claim."""
    runs = []
    for deal in twin_walls():
        env = aec_env()
        env.reset(seed=0, options={"wall": deal, "dealer": 0})
        first = env.legal_actions("seat_1")  # not seat 1's turn: nothing
        seen, order, hidden = [], [], []
        # dealer discards 5p, both pass; seat 1 discards its draw 1p, both pass; seat 2 its 2p
        for index in (K["5p"], table.PASS_INDEX, table.PASS_INDEX, K["1p"], table.PASS_INDEX,
                      table.PASS_INDEX, K["2p"]):
            order.append(env.agent_selection)
            seen.append(env.observe("seat_0")["observation"].tobytes())
            hidden.append(env.observe_privileged("seat_0")["hidden"].tobytes())
            env.step(index)
        seen.append(env.observe("seat_0")["observation"].tobytes())
        runs.append((seen, order, hidden, first))
    (seen_a, order_a, hidden_a, first_a), (seen_b, order_b, hidden_b, _) = runs
    assert seen_a == seen_b
    assert order_a == order_b == ["seat_0", "seat_1", "seat_2", "seat_1", "seat_2", "seat_0",
                                  "seat_2"]
    assert hidden_a[0] != hidden_b[0]  # the twins do differ, where seat 0 cannot see
    assert first_a == {}


def test_claim_options_show_only_in_the_claimants_own_mask():
    a, b = twin_walls()
    masks = {}
    for name, deal in (("a", a), ("b", b)):
        env = aec_env()
        env.reset(seed=0, options={"wall": deal, "dealer": 0})
        env.step(K["5p"])
        one = env.observe("seat_1")["action_mask"]
        env.step(table.PASS_INDEX)
        masks[name] = (np.flatnonzero(one).tolist(),
                       np.flatnonzero(env.observe("seat_2")["action_mask"]).tolist(),
                       env.observe("seat_1")["action_mask"].any())
    assert masks["a"] == ([table.PUNG_INDEX, table.PASS_INDEX],
                          [table.WIN_INDEX, table.PASS_INDEX], False)
    assert masks["b"] == ([table.PASS_INDEX], [table.PASS_INDEX], False)


def test_tensor_planes_hold_the_hand_computed_values():
    env = aec_env()
    env.reset(seed=0, options={"wall": twin_walls()[0], "dealer": 0})
    t = env.observe("seat_0")["observation"]
    p5, s = K["5p"], planes.SCALARS
    assert t.shape == (102, 30) and t.dtype == np.float32
    assert t[0:4, p5].tolist() == [1, 0, 0, 0]  # the drawn 5p is the only one held
    assert t[planes.OWN_DRAWN].nonzero()[0].tolist() == [p5]
    assert t[0:4, K["9p"]].tolist() == [1, 0, 0, 0]
    assert t[0].sum() == 14  # 14 tiles, no two alike
    assert t[s, 0] == 84 - 39 - 1  # wall left (R3.2)
    assert t[s, 1:6].tolist() == [0, 1, 0, 0, 0]  # phase turn
    assert t[s, 6] == 1 and t[s, 9] == 1  # dealer and turn: the observer itself
    assert t[s, 19:22].tolist() == [14, 13, 13]
    hidden = env.observe_privileged("seat_0")["hidden"]
    assert hidden.shape == (21, 30)
    assert hidden[0:4, p5].tolist() == [1, 1, 0, 0]  # seat 1 (r = 1) holds 55p
    assert hidden[4:8, parse_tiles("5z")[0]].tolist() == [1, 1, 1, 0]  # seat 2 holds 555z
    assert hidden[planes.WALL_COUNTS:planes.WALL_COUNTS + 4].sum() == 44  # tiles in the wall
    assert [hidden[planes.NEXT_DRAWS + j].argmax() for j in range(2)] == [K["1p"], K["2p"]]
    env.step(p5)
    hidden = env.observe_privileged("seat_0")["hidden"]
    assert hidden[planes.OPTIONS].nonzero()[0].tolist() == [1, 3]  # r = 1 pung, r = 2 win
    t = env.observe("seat_1")["observation"]  # seat 0 is seat 1's r = 2
    river = planes.SEAT_BASE + 2 * planes.SEAT_PLANES + planes.DISCARDS_ROW
    assert t[river].nonzero()[0].tolist() == [p5] and t[river, p5] == 1
    assert t[planes.TABLE].nonzero()[0].tolist() == [p5]
    assert t[s, 1:6].tolist() == [0, 0, 1, 0, 0] and t[s, 14] == 1  # claim; tile of r = 2
    assert t[0:4, p5].tolist() == [1, 1, 0, 0]
    assert t[planes.VISIBLE:planes.VISIBLE + 4, p5].tolist() == [1, 1, 1, 0]
    env.step(table.PUNG_INDEX)
    env.step(table.PASS_INDEX)  # seat 2 passes its win (R7.5)
    t = env.observe("seat_1")["observation"]
    assert t[planes.SEAT_BASE + planes.MELD_ROW["pung"], p5] == 1
    assert t[river, p5] == -1  # taken by the pung
    assert t[s, 1:6].tolist() == [0, 1, 0, 0, 0] and t[s, 9] == 1  # seat 1's turn
    assert t[s, 19:22].tolist() == [11, 13, 13]


def test_illegal_action_is_refused_with_the_state_untouched():
    env = aec_env(seed=1)
    env.reset()
    agent = env.agent_selection
    before = (len(env.hand.actions), env.observe(agent)["observation"].tobytes())
    with pytest.raises(IllegalEnvAction):
        env.step(table.PUNG_INDEX)  # no discard on the table
    with pytest.raises(IllegalEnvAction):
        env.step(NUM_ACTIONS + 3)
    assert (len(env.hand.actions), env.observe(agent)["observation"].tobytes()) == before
    assert env.agent_selection == agent
    assert "hidden" not in env.observe(agent) and "hidden" in env.observe_privileged(agent)


def check_step(env) -> None:
    """The mask of the agent to act is never empty, every legal action of the engine has
    exactly one index that decodes back to it, and the mask is exactly those indices."""
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    hand = env.hand
    legal = hand.legal_actions(seat)
    concealed = hand.seats[seat].concealed
    indices = [action_index(a, concealed, env.rules) for a in legal]
    assert len(set(indices)) == len(legal) > 0
    for a, i in zip(legal, indices):
        assert index_action(i, seat, concealed, env.rules) == a
    mask = env.observe(agent)["action_mask"]
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices)
    for other in env.possible_agents:
        if other != agent:
            assert not env.observe(other)["action_mask"].any()


def heuristic_steps(env, rules: RuleSet, hands: int = 3):
    """Play ``hands`` hands of the AEC ``env`` with a heuristic:2 bot at every seat (dead
    agents stepped with None); yield the agent to act before each of its steps, and None
    once a hand has ended."""
    for hand in range(hands):
        env.reset()
        bots = [make_agent("heuristic:2", f"{hand}/{s}") for s in range(3)]
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            yield agent
            seat = env.possible_agents.index(agent)
            chosen = bots[seat].act(observe(env.hand, seat), env.hand.legal_actions(seat))
            env.step(action_index(chosen, env.hand.seats[seat].concealed, rules))
        yield None


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_every_legal_action_maps_to_one_index_and_back(preset):
    rules = RuleSet.preset(preset)
    env = aec_env(rules, seed=7)
    for agent in heuristic_steps(env, rules, 2):
        if agent is not None:
            check_step(env)


def test_face_down_choices_and_piao_have_their_own_indices():
    """R8.6: discarding 5p from 111p 222s 345s 78s 99p 5p leaves 6s 9s waiting with 111p,
    222s or both face down, each its own index; R11.1: the i-th 漂 choice."""
    rules = RuleSet.preset(declare_hide_triplets=True, piao_choices=[0, 1, 2, 5])
    counts = [0] * 30
    for t in parse_tiles("111p 222s 345s 78s 99p 5p"):
        counts[t] += 1
    legal = position_actions(rules, counts, [], seat=2)
    p1, s2, p5 = parse_tiles("1p 2s 5p")
    assert sorted(a.hidden for a in legal if a.hidden) == [(p1,), (p1, s2), (s2,)]
    mapped = legal_indices(legal, counts, rules)
    assert len(mapped) == len(legal)
    for index, action in mapped.items():
        assert index_action(index, 2, counts, rules) == action
    both = next(a for a in legal if len(a.hidden) == 2)
    assert action_index(both, counts, rules) == 60 + 15 * p5 + 0b11 - 1  # mask: 1p, 2s
    assert action_index(both._replace(hidden=(s2,)), counts, rules) == 60 + 15 * p5 + 0b10 - 1
    from kawuxing.engine.actions import PIAO, Action
    assert action_index(Action(0, PIAO, piao=5), counts, rules) == table.PIAO_BASE + 3
    assert index_action(table.PIAO_BASE + 3, 0, counts, rules) == Action(0, PIAO, piao=5)
    with pytest.raises(UnmappedAction):
        index_action(table.PIAO_BASE + 4, 0, counts, rules)
    with pytest.raises(UnmappedAction):
        action_index(Action(0, PIAO, piao=3), counts, rules)


def reference_tensor(obs, shown=None, standing=None) -> np.ndarray:
    """The module table of kawuxing.envs.tensors, cell by cell (slow and plain)."""
    t = np.zeros(SHAPE, np.float32)
    totals, number, left = (obs.deltas, 0, 0) if standing is None else standing
    t[101, 9:11] = number, left
    me = obs.seat
    for k in range(30):
        for j in range(4):
            t[j, k] = obs.concealed[k] > j
            t[95 + j, k] = obs.visible[k] > j
    if obs.drawn is not None:
        t[4, obs.drawn] = 1
    for s in range(3):
        r = (s - me) % 3
        base = 5 + 30 * r
        for kind, tile in obs.melds[s]:
            if tile is not None:
                t[base + ["pung", "concealed_kong", "added_kong", "exposed_kong"].index(kind),
                  tile] = 1
        for w in obs.waits[s]:
            t[base + 4, w] = 1
        if obs.revealed[s] is not None:
            t[base + 5] = obs.revealed[s]
        elif s == me and shown is not None:
            t[base + 5] = shown
        for i, (tile, taken) in enumerate(zip(obs.discards[s], obs.claimed[s])):
            if i < 24:
                t[base + 6 + i, tile] = -1 if taken else 1
        t[100, 16 + r] = obs.declared[s]
        t[100, 19 + r] = obs.concealed_count[s]
        t[100, 22 + r] = sum(1 for _kind, tile in obs.melds[s] if tile is None)
        t[100, 25 + r] = obs.hidden_tiles[s]
        t[101, r] = obs.deltas[s]
        t[101, 3 + r] = -1 if obs.piao[s] is None else obs.piao[s]
        t[101, 6 + r] = totals[s]
    t[100, 0] = obs.wall_left
    t[100, 1 + ["piao", "turn", "claim", "rob", "ended"].index(obs.phase)] = 1
    t[100, 6 + (obs.dealer - me) % 3] = 1
    if obs.turn is not None:
        t[100, 9 + (obs.turn - me) % 3] = 1
    if obs.table is not None:
        seat, tile, robbing = obs.table
        t[99, tile] = 1
        t[100, 12 + (seat - me) % 3] = 1
        t[100, 15] = robbing
    return t


@pytest.mark.parametrize("preset", ["standard", "app", "suizhou"])
def test_tensor_is_the_table_cell_by_cell(preset):
    """At every step of heuristic hands (亮倒, kongs, 漂 under app, face-down groups in 随州)
    every seat's tensor is the documented one."""
    rules = RuleSet.preset(preset)
    env = aec_env(rules, seed=11)
    for agent in heuristic_steps(env, rules):
        if agent is None:
            continue
        for seat in range(3):
            obs = observe(env.hand, seat)
            assert np.array_equal(planes.observation_tensor(obs), reference_tensor(obs))
            shown = own_shown(env.hand, seat)
            assert np.array_equal(env.observe(env.possible_agents[seat])["observation"],
                                  reference_tensor(obs, shown, (env.hand.deltas, 0, 0)))


def test_piao_modes_fixed_and_first_hand():
    """R11.2: ``fixed`` gives every seat ``piao_fixed`` without a phase; ``first_hand``: the
    漂 chosen before the first hand (the 漂 indices, R11.1) holds all match."""
    env = aec_env(RuleSet.preset(piao_mode="fixed", piao_fixed=2), seed=1)
    env.reset()
    assert [s.piao for s in env.hand.seats] == [2, 2, 2] and env.hand.phase == "turn"
    rules = RuleSet.preset(piao_choices=[0, 1, 2, 5], piao_mode="first_hand", hands_per_match=2)
    env = aec_env(rules, seed=1, per_match=True)
    env.reset()
    assert sorted(env.legal_actions(env.agent_selection)) == list(range(table.PIAO_BASE,
                                                                       table.PIAO_BASE + 4))
    play_random(env, random.Random(3))
    first, second = env.match.hands
    assert [s.piao for s in second.seats] == [s.piao for s in first.seats]


def test_rules_by_preset_name_or_ruleset_else_value_error():
    capped = RuleSet.preset("capped")
    assert aec_env(rules="capped").rules == capped != RuleSet.preset()
    assert aec_env(rules=capped).rules is capped
    gym = gymnasium.make(ENV_ID, rules="capped", opponents=("random", "random"))
    assert gym.unwrapped.aec.rules == capped
    with pytest.raises(ValueError, match="a RuleSet or a preset name such as 'capped', got int"):
        aec_env(rules=3)
    with pytest.raises(ValueError, match="unknown preset 'nope'"):
        gymnasium.make(ENV_ID, rules="nope", opponents=("random", "random"))


def test_per_match_observation_holds_the_match_standing():
    """R12.1: row 101 columns 6-8 are the match totals so far (relative seats), 9 the hand
    number, 10 the hands left; columns 0-2 the hand's own deltas, which restart each hand."""
    env = aec_env(RuleSet.preset(hands_per_match=3), seed=4, per_match=True)
    env.reset()
    seen = []
    rng = random.Random(0)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        me = env.possible_agents.index(agent)
        obs = env.observe(agent)
        row = obs["observation"][planes.SCORES]
        done = env.match.totals()  # the ended hands
        now = [d + h for d, h in zip(done, env.hand.deltas)]
        assert row[6:9].tolist() == [now[(me + r) % 3] for r in range(3)]
        assert row[0:3].tolist() == [env.hand.deltas[(me + r) % 3] for r in range(3)]
        assert row[9:11].tolist() == [env.match.number, 2 - env.match.number]
        assert not row[11:].any()
        seen.append((env.match.number, tuple(done)))
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert {n for n, _ in seen} == {0, 1, 2}
    assert any(n == 2 and any(done) for n, done in seen)  # a standing that is not zero
    one = aec_env(seed=4)
    one.reset()
    row = one.observe(one.agent_selection)["observation"][planes.SCORES]
    assert row[9:11].tolist() == [0, 0]  # a one-hand episode


def test_non_integer_actions_are_refused_not_truncated():
    env = aec_env(seed=1)
    env.reset()
    agent = env.agent_selection
    legal = sorted(env.legal_actions(agent))
    before = (len(env.hand.actions), env.observe(agent)["observation"].tobytes())
    for bad in (legal[0] + 0.9, float(legal[0]), str(legal[0]), True, np.float32(legal[0]),
                [legal[0]]):
        with pytest.raises(IllegalEnvAction):
            env.step(bad)
    assert (len(env.hand.actions), env.observe(agent)["observation"].tobytes()) == before
    env.step(np.int64(legal[0]))  # numpy integers are integers
    assert len(env.hand.actions) == before[0] + 1
    gym = gymnasium.make(ENV_ID, opponents=("random", "random")).unwrapped
    obs, _ = gym.reset(seed=2)
    index = int(np.flatnonzero(obs["action_mask"])[0])
    actions = len(gym.aec.hand.actions)
    assert gym.step(index + 0.9)[1:] == (0.0, False, False, {"illegal_action": True})
    assert len(gym.aec.hand.actions) == actions
    gym.step(np.int32(index))
    assert len(gym.aec.hand.actions) > actions


def test_own_declaration_is_in_the_own_shown_row():
    """R8.1: after its own 亮倒 a seat's row 10 (r = 0) holds the tiles the others see of its
    hand (face-down groups left out, R8.6/R8.11), as their row 10 + 30 r does."""
    rules = RuleSet.preset("suizhou")
    env = aec_env(rules, seed=11)
    checked = face_down = 0
    for agent in heuristic_steps(env, rules):
        if agent is None:  # the hand has ended: row 10 is the whole concealed hand
            for seat in range(3):
                row = env.observe(env.possible_agents[seat])["observation"][10]
                assert row.tolist() == env.hand.seats[seat].concealed
            continue
        assert env.hand.phase != "ended"
        for seat in range(3):
            row = env.observe(env.possible_agents[seat])["observation"][planes.SEAT_BASE
                                                                       + planes.SHOWN_ROW]
            state = env.hand.seats[seat]
            if not state.declared:
                assert not row.any()
                continue
            other = (seat + 1) % 3  # seat is the next seat's r = 2
            seen = env.observe(env.possible_agents[other])["observation"][
                planes.SEAT_BASE + 2 * planes.SEAT_PLANES + planes.SHOWN_ROW]
            assert row.tolist() == seen.tolist() and row.sum() > 0
            assert row.sum() == sum(state.concealed) - observe(env.hand, seat).hidden_tiles[
                seat] - (state.drawn is not None and env.hand.current == seat) - (
                env.hand.phase == "rob" and env.hand.pending.seat == seat)
            checked += 1
            face_down += bool(state.hidden)
    assert checked > 50 and face_down > 0


def test_dealer_and_wall_options_are_checked():
    env = aec_env(seed=0)
    for bad in ("x", 3, -1, True, 1.0):
        with pytest.raises(ValueError, match="dealer must be 0, 1 or 2"):
            env.reset(options={"dealer": bad})
    kinds = twin_walls()[0]
    with pytest.raises(ValueError, match="integers 0-29 .9-29 in the standard set"):
        env.reset(options={"wall": [float(k) for k in kinds]})
    env.reset(options={"wall": kinds, "dealer": 0})
    by_kind = env.observe("seat_0")["observation"].tobytes()
    env.reset(options={"wall": [format_tiles([k]) for k in kinds], "dealer": 0})
    assert env.observe("seat_0")["observation"].tobytes() == by_kind
    env.reset(options={"wall": " ".join(format_tiles([k]) for k in kinds), "dealer": 0})
    assert env.observe("seat_0")["observation"].tobytes() == by_kind
    with pytest.raises(ValueError, match="wall: bad tile string"):
        env.reset(options={"wall": ["1x"] * 84})


def test_stepping_after_the_episode_is_a_clear_error():
    env = aec_env(seed=3)
    with pytest.raises(EpisodeOver, match="call reset"):
        env.step(0)  # before any reset
    env.reset()
    play_random(env, random.Random(0))  # to the end, every agent stepped with None
    assert env.agents == []
    for action in (None, 0):
        with pytest.raises(EpisodeOver, match="the episode is over"):
            env.step(action)
    env.reset()
    assert env.agents == list(env.possible_agents)
