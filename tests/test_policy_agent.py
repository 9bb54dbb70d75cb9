"""Trained policies as bots (issue 31 item 4, issue 32): the policy file, numpy inference
against a plain reference, clear errors for bad files, ``policy:PATH`` and ``learned`` in the
registry, bots of other packages (entry points), legal and repeatable play (R13: only the
Observation is read)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from kawuxing.agents import check_bot, make_agent
from kawuxing.agents.expert import ExpertAgent
from kawuxing.agents.policy import FEATURES, INPUTS, PolicyAgent, PolicyError, PolicyNet
from kawuxing.agents.registry import LEARNED_WEIGHTS, _plugin_bots, bots_schema
from kawuxing.engine.match import Match
from kawuxing.engine.observation import observe
from kawuxing.envs import NUM_ACTIONS, HandEncoder
from kawuxing.learn.fit import FitConfig, init_net
from kawuxing.rules import ALL_PRESETS, RuleSet


def small_net(seed: int = 0, hidden=(24, 12), encoding: int = 1, tile: int = 0) -> PolicyNet:
    """A seeded network with non-zero biases and tile head outputs (so that every term
    counts)."""
    net = init_net(np.full(INPUTS[encoding], 0.5, np.float32),
                   FitConfig(hidden=list(hidden), seed=seed, tile=tile))
    rng = np.random.default_rng(seed + 1)
    for w, b in net.hidden + [net.pi, net.value]:
        b += rng.standard_normal(b.shape).astype(np.float32) * 0.1
    if tile:
        net.tile.b[...] = rng.standard_normal(net.tile.b.shape) * 0.1
        net.tile.v[...] = rng.standard_normal(net.tile.v.shape)
    return net


def reference_forward(net: PolicyNet, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The network by plain float64 sums, one unit at a time."""
    h = [float(v) * float(s) for v, s in zip(x, net.in_scale)]
    for w, b in net.hidden:
        h = [max(0.0, sum(h[i] * float(w[i, j]) for i in range(len(h)) if h[i]) + float(b[j]))
             for j in range(w.shape[1])]
    logits = [sum(h[i] * float(net.pi[0][i, j]) for i in range(len(h))) + float(net.pi[1][j])
              for j in range(NUM_ACTIONS)]
    value = sum(h[i] * float(net.value[0][i, 0]) for i in range(len(h))) + float(net.value[1][0])
    if net.tile is not None:  # kind k's column: planes 0-99 then shape rows 0-3 (3,000 on)
        a, b, c, v = net.tile.arrays()
        scaled = [float(x_) * float(s) for x_, s in zip(x, net.in_scale)]
        for k in range(30):
            col = [scaled[r * 30 + k] for r in range(100)] + [scaled[3060 + r * 30 + k]
                                                             for r in range(4)]
            u = [max(0.0, sum(col[i] * float(a[i, j]) for i in range(104))
                     + sum(h[i] * float(c[i, j]) for i in range(len(h))) + float(b[k, j]))
                 for j in range(a.shape[1])]
            discard, declare, kong = (sum(u[j] * float(v[j, o]) for j in range(len(u)))
                                      for o in range(3))
            logits[k] += discard  # discard k (R4.1)
            for i in [30 + k] + [60 + 15 * k + m for m in range(15)]:  # 亮倒 (R8.1, R8.6)
                logits[i] += discard + declare
            logits[514 + k] += kong  # concealed kong (R6.1)
            logits[544 + k] += kong  # added kong (R6.2)
    return np.array(logits), value


@pytest.mark.parametrize("encoding, tile", [(1, 0), (2, 0), (2, 3)])
def test_inference_equals_a_plain_reference_on_fixed_inputs(tmp_path, encoding, tile):
    net = small_net(encoding=encoding, tile=tile)
    path = tmp_path / "p.npz"
    net.save(path)
    loaded = PolicyNet.load(path)
    hand = Match(RuleSet.preset(), "fixed", windows=False).hand
    planes = HandEncoder(hand).encode(hand.dealer)  # the dealer's first decision
    x = loaded.inputs(planes[None])[0]
    assert x.shape == (INPUTS[encoding],) and np.array_equal(x[:FEATURES], planes.reshape(-1))
    logits, value = loaded.forward(x[None])
    want_logits, want_value = reference_forward(net, x)
    assert np.allclose(logits[0], want_logits, atol=1e-4)
    assert value[0] == pytest.approx(want_value, abs=1e-4)
    assert loaded.meta["format"] == "kawuxing-policy" and loaded.meta["hidden"] == [24, 12]
    assert (loaded.encoding, loaded.meta["encoding"]) == (encoding, encoding)
    assert loaded.meta.get("tile") == (tile or None)


def test_bad_policy_files_are_one_clear_error(tmp_path):
    good = small_net().arrays()
    tiled = small_net(encoding=2, tile=4).arrays()
    cases = {
        "missing.npz": (None, "no such policy file"),
        "text.npz": (b"not a zip", "not a policy file"),
        "format.npz": (dict(good, meta=np.array(json.dumps({"format": "other"}))),
                       "format 'other', expected 'kawuxing-policy'"),
        "encoding.npz": (dict(good, meta=np.array(json.dumps(
            json.loads(str(good["meta"])) | {"encoding": 3}))), "observation encoding 3"),
        "inputs.npz": (dict(good, meta=np.array(json.dumps(
            json.loads(str(good["meta"])) | {"encoding": 2}))),
            "w0 has shape (3060, 24), expected (3210, 24)"),
        "shape.npz": (dict(good, w1=np.zeros((24, 13), np.float32)),
                      "w1 has shape (24, 13), expected (24, 12)"),
        "nan.npz": (dict(good, pi_b=np.full(NUM_ACTIONS, np.nan, np.float32)),
                    "pi_b must hold finite floats"),
        "huge.npz": (dict(good, pi_b=np.full(NUM_ACTIONS, 1e300, np.float64)),
                     "pi_b must hold finite floats (of float32's range)"),
        "nometa.npz": ({k: v for k, v in good.items() if k != "meta"}, "no 'meta' entry"),
        "tile1.npz": (dict(good, meta=np.array(json.dumps(
            json.loads(str(good["meta"])) | {"tile": 4}))), "meta.tile must be the tile head's"),
        "tilea.npz": (dict(tiled, tile_a=np.zeros((100, 4), np.float32)),
                      "tile_a has shape (100, 4), expected (104, 4)"),
        "tilev.npz": ({k: v for k, v in tiled.items() if k != "tile_v"}, "no array 'tile_v'"),
        "folder": ("dir", "a folder, not a policy file"),
    }
    for name, (content, words) in cases.items():
        path = tmp_path / name
        if content == "dir":
            path.mkdir()
        elif isinstance(content, bytes):
            path.write_bytes(content)
        elif content is not None:
            np.savez(path, **content)
        with pytest.raises(PolicyError, match=words.replace("(", r"\(").replace(")", r"\)")):
            PolicyNet.load(path)
        with pytest.raises(ValueError, match=str(path)):  # the same error through the registry
            check_bot(f"policy:{path}")


def test_policy_spec_plays_in_the_arena_and_a_bad_one_is_an_error_line(tmp_path):
    path = tmp_path / "net.npz"
    small_net().save(path)
    done = subprocess.run([sys.executable, "-m", "kawuxing.cli", "arena", "--bots",
                           f"policy:{path},random", "--deals", "2", "--workers", "1",
                           "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["pairs"][0]["a"] == f"policy:{path}" and report["pairs"][0]["hands"] == 12
    bad = subprocess.run([sys.executable, "-m", "kawuxing.cli", "arena", "--bots",
                          f"policy:{tmp_path}/none.npz,random", "--deals", "2"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip() == f"error: {tmp_path}/none.npz: no such policy file"


def test_a_room_refuses_policy_files_without_reading_them(tmp_path):
    with pytest.raises(ValueError, match="a room seats the listed bots only"):
        check_bot("policy:/etc/passwd", paths=False)
    assert check_bot("learned", paths=False) == "learned"
    names = [b["name"] for b in bots_schema()["bots"]]
    assert "learned" in names and "policy" not in names
    assert {"spec": "learned", "label": "seatkind_learned"} in bots_schema()["choices"]


def test_bots_of_other_packages_register_through_entry_points(tmp_path, monkeypatch):
    dist = tmp_path / "kawuxing_plugin_demo-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: kawuxing-plugin-demo\n"
                                   "Version: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[kawuxing.bots]\ndemo = kawuxing.agents.random_agent:RandomAgent\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    bots = {b.name: b for b in _plugin_bots()}
    assert "demo" in bots
    agent = bots["demo"].build(None, 7)
    assert type(agent).__name__ == "RandomAgent"
    assert "a bot of another package" in bots["demo"].description


def play_hand(rules: RuleSet, seed: str, agents) -> tuple[list, list[int]]:
    """One hand of ``agents`` (without claim windows); the actions and the deltas. The
    engine refuses an illegal action (IllegalAction), so a finished hand is a legal one."""
    hand = Match(rules.with_options(hands_per_match=1), seed, windows=False).hand
    while not hand.ended:
        seat = hand.to_act()[0]
        hand.apply(agents[seat].act(observe(hand, seat), hand.legal_actions(seat)))
    return [str(a) for a in hand.actions], hand.deltas


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_policy_plays_only_legal_actions_the_same_for_the_same_seed(preset):
    rules = RuleSet.preset(preset)
    net = small_net(3, encoding=2, tile=4)
    for h in range(3):
        first = play_hand(rules, f"{preset}/{h}", [PolicyAgent(net) for _ in range(3)])
        again = play_hand(rules, f"{preset}/{h}", [PolicyAgent(net) for _ in range(3)])
        assert first == again and sum(first[1]) == 0


def test_policy_agent_reads_the_env_tensor_own_declaration_included():
    """At every decision the agent's planes are the env's for its seat (R13: built from the
    Observation and its own 亮倒), in hands where seats declare."""
    rules = RuleSet.preset()
    checked = declared = 0
    for h in range(30):
        hand = Match(rules, f"own/{h}", windows=False).hand
        encoder = HandEncoder(hand)
        agents = [make_agent("heuristic:2", f"{h}/{s}") for s in range(3)]
        watcher = PolicyAgent(small_net())
        while not hand.ended:
            seat = hand.to_act()[0]
            legal = hand.legal_actions(seat)
            obs = observe(hand, seat)
            if seat == 0:
                assert np.array_equal(watcher.tensor(obs), encoder.encode(0))
                checked += 1
                declared += obs.declared[0]
            action = agents[seat].act(obs, legal)
            if seat == 0:
                watcher.remember(action)
            hand.apply(action)
    assert checked > 150 and declared > 5


@pytest.mark.skipif(not LEARNED_WEIGHTS.exists(), reason="no shipped weights")
def test_learned_bot_loads_the_shipped_weights_and_plays():
    agent = make_agent("learned", 1)
    assert agent.name == "learned" and agent.net.meta["format"] == "kawuxing-policy"
    actions, deltas = play_hand(RuleSet.preset("xiaogan"), "learned/1",
                                [agent, make_agent("expert", 2), make_agent("learned", 3)])
    assert len(actions) > 10 and sum(deltas) == 0


def test_the_learned_bot_without_its_weights_is_refused_by_name(tmp_path, monkeypatch):
    """An arena or a room refuses ``learned`` before its first deal when its weights are
    gone (one error naming the file), instead of a traceback in a worker."""
    from kawuxing.agents import registry

    monkeypatch.setattr(registry, "LEARNED_WEIGHTS", tmp_path / "gone.npz")
    with pytest.raises(PolicyError, match="gone.npz: no such policy file"):
        check_bot("learned")
    text = tmp_path / "notes.npz"
    text.write_text("weights? no: words")
    monkeypatch.setattr(registry, "LEARNED_WEIGHTS", text)
    with pytest.raises(PolicyError, match=r"notes.npz: not a policy file \(an .npz archive"):
        check_bot("learned")


def residual_net(seed: int = 0) -> PolicyNet:
    """A network with the expert's prior and a zero policy head (a residual before training,
    issue 32)."""
    net = small_net(seed, encoding=2)
    net.pi = (np.zeros_like(net.pi[0]), np.zeros_like(net.pi[1]))
    net.meta = {"prior": {"bot": "expert", "pick": 3.0, "ev": 0.5}}
    return net


class Shadow:
    """Plays ``agent`` and asks an expert of the same seat the same question: the two
    choices are kept."""

    def __init__(self, agent, pairs: list) -> None:
        self.agent, self.expert, self.pairs = agent, ExpertAgent(), pairs

    def act(self, obs, legal):
        mine, theirs = self.agent.act(obs, legal), self.expert.act(obs, legal)
        self.pairs.append((str(mine), str(theirs)))
        return mine


@pytest.mark.parametrize("preset", ["standard", "xiaogan", "capped"])
def test_a_residual_with_a_zero_head_plays_as_the_expert(preset, tmp_path):
    """R13: the prior reads the seat's Observation only, so with the network's logits all
    zero every decision is the expert's (kong turns included, R9.1); a saved file keeps the
    prior."""
    net = residual_net(4)
    net.save(tmp_path / "r.npz")
    loaded = PolicyNet.load(tmp_path / "r.npz")
    assert loaded.prior.pick == 3.0 and loaded.prior.ev == 0.5
    pairs: list = []
    for h in range(3):
        play_hand(RuleSet.preset(preset), f"resid/{preset}/{h}",
                  [Shadow(PolicyAgent(loaded), pairs) for _ in range(3)])
    assert len(pairs) > 40 and all(mine == theirs for mine, theirs in pairs)


def test_a_residual_head_changes_the_choice_where_its_logits_outweigh_the_prior():
    """The network's logits are added to the prior's: a large logit on one legal action that
    the expert ranks below another makes it the choice."""
    hand = Match(RuleSet.preset("standard"), "resid/turn", windows=False).hand
    seat = hand.to_act()[0]
    while len(hand.legal_actions(seat)) < 3:
        hand.apply(hand.legal_actions(seat)[0])
        seat = hand.to_act()[0]
    obs, legal = observe(hand, seat), hand.legal_actions(seat)
    expert = ExpertAgent().act(obs, legal)
    net = residual_net(5)
    agent = PolicyAgent(net)
    mapped, masked, _ = agent.evaluate(obs, legal)
    other = next(i for i, a in mapped.items() if a != expert)
    assert mapped[int(np.argmax(masked))] == expert
    net.pi[1][other] = 100.0
    assert PolicyAgent(net).act(obs, legal) == mapped[other]


@pytest.mark.parametrize("prior, words", [
    ({"bot": "heuristic", "pick": 3.0, "ev": 0.5}, "meta.prior must be"),
    ({"bot": "expert", "pick": "3", "ev": 0.5}, "pick and ev must be finite numbers"),
    ({"bot": "expert", "pick": 3.0}, "pick and ev must be finite numbers"),
    ("expert", "meta.prior must be"),
])
def test_a_bad_prior_is_one_clear_error_naming_the_file(tmp_path, prior, words):
    net = residual_net()
    net.meta = {"prior": prior}
    net.save(tmp_path / "bad.npz")
    with pytest.raises(PolicyError, match=words) as err:
        PolicyNet.load(tmp_path / "bad.npz")
    assert str(tmp_path / "bad.npz") in str(err.value)
