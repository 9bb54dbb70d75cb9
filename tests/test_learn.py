"""The training pipeline of the learned bot (issue 32): self-play records, the numpy fit's
gradients, and a tiny run of ``kawuxing train`` end to end, resumed."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from kawuxing.agents.policy import INPUTS, PolicyNet
from kawuxing.envs.actions import NUM_ACTIONS
from kawuxing.learn.fit import FitConfig, Trainer, init_net, inputs, masks
from kawuxing.learn.selfplay import PRESET_MIX, generate, load_shards, play_hand


def test_self_play_records_choices_with_the_hand_outcome():
    rows = play_hand("t/1", ("heuristic", "heuristic:2", "random"))
    again = play_hand("t/1", ("heuristic", "heuristic:2", "random"))
    assert len(rows) > 10 and len(rows) == len(again)
    outcomes = {}
    for (planes, standing, mask, action, seat, preset, outcome), other in zip(rows, again):
        assert np.array_equal(planes, other[0]) and action == other[3]  # same seed, same data
        assert planes.shape == (101, 30) and planes.dtype == np.int8
        assert mask.sum() >= 2 and mask[action]  # a choice, and the action chosen is legal
        assert 0 <= preset < len(PRESET_MIX)
        outcomes[seat] = outcome
    assert len(outcomes) == 3 and sum(outcomes.values()) == 0  # the hand's deltas


def test_shards_hold_what_the_module_says(tmp_path):
    written = list(generate(tmp_path, 3, seed=5, bots=("random",) * 3, per_shard=2))
    assert [p.name for p, _ in written] == ["shard-00000.npz", "shard-00001.npz"]
    assert list(generate(tmp_path, 3, seed=5, bots=("random",) * 3, per_shard=2)) == []
    (tmp_path / "shard-00002.tmp.npz").write_bytes(b"half written")  # another process's
    data = load_shards(tmp_path)
    n = sum(k for _, k in written)
    assert data["planes"].shape == (n, 101, 30) and data["mask"].shape == (n, 73)
    m = masks(data["mask"])
    assert m.shape == (n, NUM_ACTIONS) and m[np.arange(n), data["action"]].all()
    x = inputs(data["planes"][:5], data["standing"][:5])
    assert x.shape == (5, 3060) and np.array_equal(x[:, 3030:3041], data["standing"][:5])


def finite_difference(param: np.ndarray, at: tuple, loss, eps: float) -> float:
    """The central difference of ``loss()`` along ``param[at]`` (left as it was)."""
    old = float(param[at])
    param[at] = old + eps
    up = loss()
    param[at] = old - eps
    down = loss()
    param[at] = old
    return (up - down) / (2 * eps)


def fit_loss(trainer: Trainer, x, mask, action, outcome):
    """The loss the trainer's gradients are of: the policy's plus the weighted value's."""
    def loss() -> float:
        p, v, _ = trainer.loss_and_grads(x, mask, action, outcome)
        return p + trainer.config.value_weight * v
    return loss


def test_fit_gradients_match_finite_differences():
    rng = np.random.default_rng(0)
    config = FitConfig(hidden=[8, 6], value_weight=0.5)
    net = init_net(np.ones(3060, np.float32), config)
    for _, b in net.hidden:
        b += rng.standard_normal(b.shape).astype(np.float32) * 0.1
    x = rng.standard_normal((5, 3060)).astype(np.float32)
    mask = rng.random((5, NUM_ACTIONS)) < 0.05
    mask[:, :3] = True
    action = np.array([0, 1, 2, 1, 0])
    outcome = rng.standard_normal(5).astype(np.float32) * 10
    trainer = Trainer(net, config)
    _, _, grads = trainer.loss_and_grads(x, mask, action, outcome)
    loss = fit_loss(trainer, x, mask, action, outcome)
    for param, grad in zip(trainer.params, grads):
        for _ in range(3):
            at = tuple(int(rng.integers(0, s)) for s in param.shape)
            if param.ndim == 2 and param.shape[1] == NUM_ACTIONS:
                at = (at[0], int(rng.integers(0, 3)))  # a legal column: a gradient not 0
            assert finite_difference(param, at, loss, 1e-2) == pytest.approx(
                float(grad[at]), rel=0.05, abs=1e-4)


def test_tile_head_gradients_match_finite_differences():
    """The tile head (kawuxing.agents.tile_head): every weight's gradient, and the trunk's
    through it, equal finite differences of the loss; its logits land on each kind's
    discard, declaring discards (R8.1, R8.6) and kongs (R6.1, R6.2) only."""
    rng = np.random.default_rng(1)
    config = FitConfig(hidden=[8, 6], value_weight=0.5, tile=5)
    net = init_net(np.ones(INPUTS[2], np.float32), config)
    net.tile.v[...] = rng.standard_normal(net.tile.v.shape) * 0.5  # (zero when new)
    net.tile.b[...] = rng.standard_normal(net.tile.b.shape) * 0.1
    x = rng.standard_normal((4, INPUTS[2])).astype(np.float32)
    mask = np.zeros((4, NUM_ACTIONS), bool)
    mask[:, [3, 12, 40, 60 + 15 * 12 + 2, 513, 520, 550]] = True
    action = np.array([3, 12, 40 + 0, 550])
    outcome = rng.standard_normal(4).astype(np.float32) * 10
    trainer = Trainer(net, config)
    _, _, grads = trainer.loss_and_grads(x, mask, action, outcome)
    assert len(grads) == len(trainer.params) == 2 * 2 + 4 + 4
    loss = fit_loss(trainer, x, mask, action, outcome)
    for param, grad in zip(trainer.params, grads):
        for _ in range(4):
            flat = int(np.argmax(np.abs(grad))) if _ == 0 else int(rng.integers(0, grad.size))
            at = np.unravel_index(flat, param.shape)
            assert finite_difference(param, at, loss, 1e-3) == pytest.approx(
                float(grad[at]), rel=0.05, abs=1e-4)
    logits, _ = net.forward(x)
    net.tile = None
    base, _ = net.forward(x)
    moved = np.flatnonzero(np.abs(logits - base).max(0) > 0)
    kinds = set(range(0, 510)) | set(range(514, 574))  # discards, 亮倒 discards, kongs
    assert set(moved.tolist()) <= kinds and len(moved) == len(kinds)


def test_a_tiny_training_run_end_to_end_and_resumed(tmp_path):
    run = tmp_path / "run"
    base = [sys.executable, "-m", "kawuxing.cli", "train", str(run), "--hands", "6",
            "--teacher", "heuristic:2", "--hidden", "16", "--gate-deals", "2",
            "--gate-reference", "random", "--workers", "1", "--seed", "3", "--rl-envs", "8"]
    done = subprocess.run(base + ["--epochs", "1"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    config = json.loads((run / "config.json").read_text())
    assert config["config"]["teacher"] == "heuristic:2" and config["config"]["epochs"] == 1
    assert "commit" in config
    lines = [json.loads(x) for x in (run / "log.jsonl").read_text().splitlines()]
    assert [(x["stage"], x["epoch"]) for x in lines] == [("imitation", 1)]
    gate = lines[0]["gate"]
    assert gate["against"] == "random" and gate["deals"] == 2
    assert lines[0]["best"] == gate["passed"] == (gate["ci95"][0] > 0)
    assert (run / "best.npz").exists() == gate["passed"]
    assert PolicyNet.load(run / "last.npz").encoding == 2  # a policy file the registry seats
    shape = np.load(run / "features.npy")  # the shape features, computed once for the data
    assert shape.shape[1] == 150 and len(shape) == sum(
        len(np.load(p)["action"]) for p in (run / "data").glob("shard-*.npz"))
    again = subprocess.run(base[:5] + ["--resume", "--epochs", "2", "--rl-iterations", "2"],
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    lines = [json.loads(x) for x in (run / "log.jsonl").read_text().splitlines()]
    assert [(x["stage"], x.get("epoch"), x.get("iteration")) for x in lines] == [
        ("imitation", 1, None), ("imitation", 2, None), ("self-play", None, 2)]
    assert lines[1]["seconds"] > lines[0]["seconds"]
    assert lines[2]["hands"] > 0 and lines[2]["decisions"] > 0 and lines[2]["entropy"] > 0
    saved = json.loads((run / "config.json").read_text())["config"]
    assert saved["epochs"] == 2 and saved["rl_iterations"] == 2
    assert (run / "curve.png").stat().st_size > 1000
    fresh = subprocess.run(base + ["--epochs", "1"], capture_output=True, text=True, timeout=60)
    assert fresh.returncode == 2 and "holds a run already" in fresh.stderr
    # a run from a policy file (the shipped weights' way): self-play only, gated against it
    start = tmp_path / "from-policy"
    init = subprocess.run(base[:4] + [str(start)] + base[5:] + [
        "--init", str(run / "last.npz"), "--rl-iterations", "2", "--rl-gate-every", "1",
        "--rl-lr", "0.0002"], capture_output=True, text=True, timeout=300)
    assert init.returncode == 0, init.stderr
    lines = [json.loads(x) for x in (start / "log.jsonl").read_text().splitlines()]
    assert [(x["stage"], x["iteration"], x["gate"]["against"]) for x in lines] == [
        ("self-play", 1, "best"), ("self-play", 2, "best")]
    saved = json.loads((start / "config.json").read_text())["config"]
    assert saved["epochs"] == 0 and saved["ppo"]["lr"] == 0.0002
    assert saved["init"] == str((run / "last.npz").resolve())
    assert not (start / "data").exists()  # no teacher's self-play for a run from a policy
    if not any(x["best"] for x in lines):  # the start stays best until a gate is passed
        assert (start / "best.npz").read_bytes() == (run / "last.npz").read_bytes()
    # a residual on the expert's ranking (issue 32): the head starts at zero, so the first
    # best plays as the expert; the prior stays in every checkpoint; PPO moves the head
    resid = tmp_path / "residual"
    done = subprocess.run(base[:4] + [str(resid)] + base[5:] + [
        "--init", str(run / "last.npz"), "--prior", "expert", "--rl-iterations", "2",
        "--rl-gate-every", "2", "--rl-lr", "0.001", "--gate-deals", "0"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    first, last = PolicyNet.load(resid / "last.npz"), PolicyNet.load(run / "last.npz")
    assert first.meta["prior"] == {"bot": "expert", "pick": 3.0, "ev": 0.5}
    assert json.loads((resid / "config.json").read_text())["config"]["prior"] == "expert"
    assert np.abs(first.pi[0]).max() > 0  # trained from zero (iteration 2's update)
    assert np.array_equal(first.hidden[0][0].shape, last.hidden[0][0].shape)
    same = subprocess.run(base[:4] + [str(tmp_path / "same"), "--init", str(run / "last.npz"),
                                      "--rl-iterations", "1", "--rl-envs", "2", "--gate-deals",
                                      "0", "--workers", "1"], capture_output=True, text=True,
                          timeout=120)
    assert same.returncode == 0, same.stderr  # the widths and encoding are the file's
    saved = json.loads((tmp_path / "same" / "config.json").read_text())["config"]
    assert saved["fit"]["hidden"] == [16] and saved["encoding"] == 2
    wider = subprocess.run(base[:4] + [str(tmp_path / "w"), "--hidden", "8", "--init",
                                       str(run / "last.npz"), "--rl-iterations", "1"],
                           capture_output=True, text=True, timeout=60)
    assert wider.returncode == 2 and "hidden [16]; the run wants encoding 2, hidden [8]" \
        in wider.stderr


def test_self_play_against_opponents_trains_only_the_networks_seat():
    """``PPOConfig.opponents``: the network plays one seat of each hand (drawn in turn at
    each deal), the bot the other two; only the network's decisions are in the batch, and
    their returns are that seat's score changes (base units)."""
    from kawuxing.agents.policy import INPUTS
    from kawuxing.learn.ppo import PPOConfig, SelfPlay

    config = FitConfig(hidden=[16], seed=1)
    trainer = Trainer(init_net(np.ones(INPUTS[2], np.float32), config), config)
    mine, theirs = [], []
    play = SelfPlay(trainer, PPOConfig(envs=3, steps=60, opponents="heuristic:1", seed=4),
                    "standard")
    assert list(play.learner) == [0, 1, 2]
    assert [[b is None for b in bots] for bots in play.bots] == [
        [True, False, False], [False, True, False], [False, False, True]]
    assert {type(b).__name__ for bots in play.bots for b in bots if b} == {"HeuristicAgent"}
    step = play.env.step

    def counting(actions):  # who decided each step, before the env moves on
        for i in range(3):
            (mine if play.seat[i] == play.learner[i] else theirs).append(i)
        return step(actions)

    play.env.step = counting
    batch = play.rollout()
    assert play.hands > 0 and len(batch["action"]) > 0
    assert len(mine) + len(theirs) == 3 * 60 and len(theirs) > len(mine)
    assert len(batch["action"]) <= len(mine)  # (a hand still running is not in the batch)
    assert play.dealt == 3 + play.hands  # a new network seat for every hand dealt
    assert batch["mask"][np.arange(len(batch["action"])), batch["action"]].all()


def test_advantages_by_gae_over_a_seats_decisions():
    """GAE(λ) over each seat's successive decisions in a hand, in training units (base units
    over VALUE_SCALE 16): λ 1 is the return to the hand's end less the value; λ 0 the reward
    up to the seat's next decision plus that decision's value, less the value. Hand 0: seat 0
    decides at rows 0 and 2 (8 base units to come at both: no reward between), seat 1 at
    row 1; hand 1: seat 0 once."""
    from kawuxing.learn.ppo import advantages

    def row(value, seat, ret, hand):
        return [None, None, None, None, value, seat, ret, None, hand]

    rows = [row(0.1, 0, 8.0, 0), row(0.2, 1, -4.0, 0), row(0.3, 0, 8.0, 0), row(0.0, 0, 16.0, 1)]
    expected = {1.0: [0.4, -0.45, 0.2, 1.0], 0.5: [0.3, -0.45, 0.2, 1.0],
                0.0: [0.2, -0.45, 0.2, 1.0]}
    for lam, adv in expected.items():
        got, target = advantages(rows, lam)
        assert got == pytest.approx(adv, abs=1e-6)
        assert target == pytest.approx(np.array(adv) + [0.1, 0.2, 0.3, 0.0], abs=1e-6)


def test_self_play_batch_advantages_are_the_return_less_the_value_at_lambda_one():
    """The rollout's batch carries each decision's advantage and value target; with the
    default λ 1 they are the return (base units / VALUE_SCALE) less the value, and the
    return."""
    from kawuxing.agents.policy import INPUTS
    from kawuxing.learn.fit import VALUE_SCALE
    from kawuxing.learn.ppo import PPOConfig, SelfPlay

    config = FitConfig(hidden=[16], seed=1)
    trainer = Trainer(init_net(np.ones(INPUTS[2], np.float32), config), config)
    batch = SelfPlay(trainer, PPOConfig(envs=4, steps=80, seed=2), "standard").rollout()
    assert len(batch["action"]) > 0
    assert batch["adv"] == pytest.approx(batch["ret"] / VALUE_SCALE - batch["value"], abs=1e-5)
    assert batch["target"] == pytest.approx(batch["ret"] / VALUE_SCALE, abs=1e-5)


@pytest.mark.parametrize("args, words", [
    (["--rl-gae-lambda", "1.5"], "--rl-gae-lambda must be between 0 and 1, got 1.5"),
    (["--hidden", "0"], "--hidden '0': layer widths"),
    (["--epochs", "0"], "--epochs must be at least 1, got 0"),
    (["--teacher", "nobody"], "unknown bot 'nobody'"),
    (["--lr", "2"], "--lr must be between 0 and 1, got 2.0"),
    (["--resume"], "no run to resume"),
    (["--rl-gate-every", "0"], "--rl-gate-every must be at least 1, got 0"),
    (["--encoding", "3"], "--encoding must be 1 or 2, got 3"),
    (["--rl-lr", "0"], "--rl-lr must be between 0 and 1, got 0.0"),
    (["--init", "missing.npz", "--rl-iterations", "2"], "--init missing.npz: no such file"),
    (["--init", "pyproject.toml"], "--init: say how many imitation epochs (--epochs) or"),
    (["--init", "pyproject.toml", "--prior", "expert", "--epochs", "3"],
     "--prior: self-play only"),
    (["--tile", "8", "--encoding", "1"], "--tile: a network of encoding 2 only"),
    (["--init", "pyproject.toml", "--rl-iterations", "2"], "not a policy file"),
    (["--prior", "expert"], "--prior needs --init POLICY"),
    (["--rl-opponents", "nobody"], "unknown bot 'nobody'"),
    (["--rl-envs", "0"], "--rl-envs must be at least 1, got 0"),
    (["--rl-envs", "100000000"], "--rl-envs must be at most 4096, got 100000000"),
    (["--seed", "-1"], "--seed must be at least 0, got -1"),
    (["--hidden", "100000000"], "--hidden '100000000': layer widths, whole numbers from 1 to 8192"),
    (["--hidden", ""], "--hidden '': layer widths"),
    (["--prior", "heuristic", "--init", "pyproject.toml", "--rl-iterations", "2"],
     "--prior 'heuristic': the one prior is 'expert'"),
])
def test_train_refuses_bad_input_with_one_line(tmp_path, args, words):
    code, said = train_here(str(tmp_path / "r"), *args)
    assert code == 2 and len(said.strip().splitlines()) == 1 and words in said, said
    assert not (tmp_path / "r").exists()  # a refused run leaves no folder behind


def train_here(*args: str) -> tuple[int, str]:
    """``kawuxing train ARGS`` in this process (typer's CliRunner: no second of imports a
    case, as a subprocess costs): (exit status, stderr). An exception other than the exit
    (a traceback) fails the test."""
    from typer.testing import CliRunner

    from kawuxing.cli import app

    done = CliRunner().invoke(app, ["train", *args])
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    return done.exit_code, done.stderr


def test_a_run_under_a_file_or_with_a_cut_log_is_one_error_line(tmp_path):
    (tmp_path / "afile").write_text("x")
    code, said = train_here(str(tmp_path / "afile" / "run"), "--hands", "2")
    assert code == 2 and said.strip() == f"error: {tmp_path / 'afile' / 'run'}: its parent is not a folder"
    run = tmp_path / "cut"
    code, said = train_here(str(run), "--hands", "2", "--teacher", "heuristic:1", "--hidden", "8",
                            "--epochs", "1", "--gate-deals", "0", "--workers", "1")
    assert code == 0, said
    log = run / "log.jsonl"
    log.write_text(log.read_text()[:30])  # a stop in mid-write
    code, said = train_here(str(run), "--resume", "--epochs", "2")
    assert code == 2 and said.startswith(f"error: {log}: not a run's log"), said


def test_resume_of_a_folder_whose_config_is_not_a_runs_is_one_error_line(tmp_path):
    run = tmp_path / "r"
    run.mkdir()
    (run / "config.json").write_text("{not json")
    done = subprocess.run([sys.executable, "-m", "kawuxing.cli", "train", str(run), "--resume"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"error: {run}/config.json: not the config of a run")


def test_the_oracle_critic_learns_what_only_the_hidden_state_tells():
    """The critic reads the privileged planes beside the seat's inputs: a target that is a
    function of the hidden planes alone (here: the count of one hidden row) is fitted, its
    error falling to a fraction of the target's variance."""
    from kawuxing.learn.critic import OracleCritic

    rng = np.random.default_rng(3)
    critic = OracleCritic(8, widths=(32,), lr=3e-3, seed=1)
    x = rng.standard_normal((256, 8)).astype(np.float32)
    hidden = (rng.random((256, 21, 30)) < 0.2).astype(np.int8)
    target = hidden[:, 4].sum(1).astype(np.float32) / 6 - 1
    first = critic.fit(x, hidden, target)
    for _ in range(300):
        last = critic.fit(x, hidden, target)
    assert first > 0.5 * target.var() and last < 0.1 * target.var()
    assert critic.value(x, hidden).shape == (256,)


def test_self_play_with_the_oracle_critic_as_baseline(tmp_path):
    """With ``oracle`` the batch's value is the critic's (it reads each deciding seat's hidden
    planes, recorded beside the decision, never the policy), the advantage the return less
    it; during the warm-up only the critic moves, after it the policy too; the critic saves
    and loads (to resume a run) and refuses a file of another shape."""
    from kawuxing.learn.fit import VALUE_SCALE
    from kawuxing.learn.ppo import PPOConfig, SelfPlay

    config = FitConfig(hidden=[16], seed=1)
    trainer = Trainer(init_net(np.ones(INPUTS[2], np.float32), config), config)
    play = SelfPlay(trainer, PPOConfig(envs=4, steps=80, seed=2, oracle=True, oracle_warmup=1),
                    "standard")
    batch = play.rollout()
    n = len(batch["action"])
    assert n > 0 and batch["hidden"].shape == (n, 21, 30) and batch["hidden"].any()
    x = batch["x"] * trainer.net.in_scale
    assert batch["value"] == pytest.approx(play.critic.value(x, batch["hidden"]), abs=1e-5)
    assert batch["adv"] == pytest.approx(batch["ret"] / VALUE_SCALE - batch["value"], abs=1e-5)
    policy = [p.copy() for p in trainer.params]
    critic = [w.copy() for w, _ in play.critic.layers]
    stats = play.update(batch)
    assert set(stats) == {"critic_loss"}  # the warm-up: only the critic is fitted
    assert all(np.array_equal(a, b) for a, b in zip(policy, trainer.params))
    assert not np.array_equal(critic[0], play.critic.layers[0][0])
    stats = play.update(batch)
    assert {"policy_loss", "critic_loss"} <= set(stats)
    assert not np.array_equal(policy[0], trainer.params[0])
    play.critic.save(tmp_path / "critic.npz")
    again = SelfPlay(trainer, PPOConfig(envs=1, steps=1, seed=2, oracle=True), "standard").critic
    again.load(tmp_path / "critic.npz")
    assert np.array_equal(again.value(x, batch["hidden"]), play.critic.value(x, batch["hidden"]))
    from kawuxing.learn.critic import OracleCritic
    with pytest.raises(ValueError, match="critic.npz: not this run's critic"):
        OracleCritic(10).load(tmp_path / "critic.npz")


def test_a_run_with_the_oracle_critic_keeps_it_beside_the_weights_and_resumes(tmp_path):
    """``kawuxing train --rl-oracle``: the critic's state is saved in the run's folder (not
    in the policy file, which a bot reads), the log carries its error, --resume reads it."""
    init = tmp_path / "init.npz"
    init_net(np.ones(INPUTS[2], np.float32), FitConfig(hidden=[16], seed=1)).save(init)
    run = tmp_path / "run"
    base = [sys.executable, "-m", "kawuxing.cli", "train", str(run)]
    done = subprocess.run(base + ["--init", str(init), "--rl-iterations", "2", "--rl-oracle",
                                  "--rl-envs", "4", "--rl-gate-every", "1", "--gate-deals", "0",
                                  "--workers", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in (run / "log.jsonl").read_text().splitlines()]
    assert [x["iteration"] for x in lines] == [1, 2] and all("critic_loss" in x for x in lines)
    assert "policy_loss" not in lines[0]  # the first iterations fit the critic only
    assert (run / "critic.npz").exists()
    assert not any(k.startswith("p0") for k in np.load(run / "last.npz").files)
    again = subprocess.run(base + ["--resume", "--rl-iterations", "3"], capture_output=True,
                           text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    lines = [json.loads(x) for x in (run / "log.jsonl").read_text().splitlines()]
    assert [x["iteration"] for x in lines] == [1, 2, 3]
    assert "policy_loss" not in lines[-1]  # the warm-up (20) goes on where it stopped
    assert int(np.load(run / "critic.npz")["warmup"]) == 17


def test_imitation_epochs_from_a_policy_file_add_a_tile_head(tmp_path):
    """``--init FILE --epochs E --tile T``: the teacher's data fitted from the file's network
    (its input scale kept), a tile head added; the file is the first best, so the epoch's gate
    is against it."""
    init = tmp_path / "init.npz"
    start = init_net(np.full(INPUTS[2], 0.25, np.float32), FitConfig(hidden=[16], seed=1))
    start.save(init)
    run = tmp_path / "run"
    done = subprocess.run([sys.executable, "-m", "kawuxing.cli", "train", str(run), "--init",
                           str(init), "--epochs", "1", "--tile", "4", "--hands", "4",
                           "--teacher", "heuristic:1", "--gate-deals", "2", "--workers", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    net = PolicyNet.load(run / "last.npz")
    assert net.tile is not None and net.tile.width == 4 and net.meta["tile"] == 4
    assert np.array_equal(net.in_scale, start.in_scale)
    assert not np.array_equal(net.hidden[0][0], start.hidden[0][0])  # fitted from it
    line = json.loads((run / "log.jsonl").read_text().splitlines()[0])
    assert line["stage"] == "imitation" and line["gate"]["against"] == "best"


def test_runs_from_a_policy_file_refuse_what_they_would_not_do(tmp_path):
    """A residual file (its meta has a prior) is not fitted by imitation epochs (the fit does
    not add the prior's logits); --tile without epochs, or of another width than the file's,
    is refused; --prior zeroes the tile head's scores too, so the residual starts as the
    expert's play. Each refusal is one error line, exit 2, and no folder left."""
    from kawuxing.agents.prior import Prior

    plain, tiled, residual = (tmp_path / f"{n}.npz" for n in ("plain", "tiled", "residual"))
    init_net(np.ones(INPUTS[2], np.float32), FitConfig(hidden=[16], seed=1)).save(plain)
    init_net(np.ones(INPUTS[2], np.float32), FitConfig(hidden=[16], seed=1, tile=3)).save(tiled)
    net = init_net(np.ones(INPUTS[2], np.float32), FitConfig(hidden=[16], seed=1))
    net.meta = {"prior": Prior().to_meta()}
    net.save(residual)
    refused = {
        (str(residual), "--epochs", "1"): "a residual on the expert learns by self-play only",
        (str(plain), "--tile", "4", "--rl-iterations", "1"): "--tile: a tile head is added by "
                                                            "imitation epochs",
        (str(tiled), "--tile", "4", "--epochs", "1"): "has a tile head of 3, not 4",
        (str(plain), "--tile", "5000", "--epochs", "1"): "--tile must be at most 1024",
    }
    for args, words in refused.items():
        run = tmp_path / "new" / "runs" / "r"  # (the folders a refused run made go too)
        code, said = train_here(str(run), "--init", *args, "--hands", "2", "--gate-deals", "0",
                                "--workers", "1")
        assert code == 2 and len(said.strip().splitlines()) == 1 and words in said, said
        assert not (tmp_path / "new").exists()
    from kawuxing.learn.train import RunConfig, start

    folder = tmp_path / "resid"
    folder.mkdir()
    start(folder, tiled, RunConfig(epochs=0, fit=FitConfig(hidden=[16]), prior="expert",
                                   rl_iterations=1))
    zero = PolicyNet.load(folder / "best.npz")
    assert zero.prior is not None and not zero.pi[0].any() and not zero.tile.v.any()


def test_a_run_without_a_terminal_says_how_far_it_is_in_plain_lines(tmp_path, monkeypatch):
    """Output to a file (a run in the background): no bar, a progress line every
    ``PROGRESS_EVERY`` seconds on stderr (here every call)."""
    from typer.testing import CliRunner

    import kawuxing.cli.train as command
    from kawuxing.cli import app

    monkeypatch.setattr(command, "PROGRESS_EVERY", 0.0)
    done = CliRunner().invoke(app, [
        "train", str(tmp_path / "run"), "--hands", "2", "--teacher", "heuristic:1", "--hidden",
        "8", "--epochs", "1", "--gate-deals", "0", "--workers", "1", "--rl-iterations", "2",
        "--rl-envs", "2"])
    assert done.exit_code == 0, done.stderr
    lines = done.stderr.splitlines()
    assert "epoch 1: 1 of 1 (0 min)" in lines
    assert lines[-2:] == ["self-play: 1 of 2 (0 min)", "self-play: 2 of 2 (0 min)"]
    assert not any("\x1b" in line for line in lines)  # plain text, no bar's escapes
