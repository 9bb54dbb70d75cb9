"""The training run behind ``kawuxing train``: the teacher's self-play → imitation and value
fitting, a gate after every epoch → PPO by self-play (:mod:`.ppo`), a gate every
``rl_gate_every`` iterations → the best weights, with everything needed to resume and
reproduce.

A run lives in one folder::

    RUN/config.json      the config (data, seed, network, epochs, gate) and the commit
    RUN/data/            self-play shards (kawuxing.learn.selfplay), made if missing
    RUN/features.npy     the shards' shape features (encoding 2), computed once
    RUN/last.npz         the latest weights (a policy file) and RUN/last-adam.npz, to resume
    RUN/best.npz         the weights that passed every gate so far (a policy file)
    RUN/log.jsonl        one line a checkpoint (``stage`` imitation or self-play): losses,
                         held-out agreement or PPO's figures, the gate's match, the time
    RUN/curve.png        the learning curve (matplotlib, when installed)

The gate (issue 32): a new checkpoint replaces ``best`` only when it beats it in a duplicate
arena match (:func:`kawuxing.arena.run_arena`) with the 95 % CI's low end above zero; the
first checkpoint is ``best`` once it beats the reference bot (``gate_reference``, default
``heuristic:3``) the same way. Every gate's result is logged.
"""

from __future__ import annotations

import json
import subprocess
import time
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from ..agents.policy import ENCODING, PolicyNet
from ..agents.prior import Prior
from ..arena import run_arena
from ..rules import RuleSet
from .fit import (VALUE_SCALE, FitConfig, Trainer, agreement, features, init_net, input_scale,
                  inputs, masks, new_tile_head)
from .ppo import PPOConfig, SelfPlay
from .selfplay import PRESET_MIX, generate, load_shards


@dataclass
class RunConfig:
    """What a run does (saved as ``config.json``; a resumed run reads it back).

    ``hands``: self-play hands of ``teacher`` to learn from; ``data_seed``; ``epochs``;
    ``fit``: :class:`~.fit.FitConfig`; ``held_out``: the share of decisions kept out of
    training to measure agreement; ``gate_deals``: duplicate deals of each gate (0: no
    gate, every epoch is ``best``); ``gate_reference``: the bot the first checkpoint must
    beat; ``workers``: processes for self-play and the gates; ``rl_iterations``: PPO
    iterations after the epochs (:mod:`.ppo`, ``ppo`` its config), a checkpoint and gate
    every ``rl_gate_every``; ``encoding``: what the network reads (1 the planes, 2 the planes
    and the shape features, :mod:`kawuxing.agents.policy`); ``init``: a policy file the run
    starts from (the imitation epochs, if any, go on fitting it, with a tile head added when
    ``fit.tile`` asks for one and it has none; ``epochs`` 0: self-play only; the file is the
    first ``best``, so the first gate is against it; Adam starts afresh); ``prior``: with
    ``init`` and no epochs,
    ``"expert"`` adds the expert's ranking to the network's logits and zeroes its policy
    head, so the run starts from the expert's play and learns a correction
    (:mod:`kawuxing.agents.prior`; the hidden layers and the value head are ``init``'s)."""

    hands: int = 30000
    teacher: str = "expert"
    data_seed: int = 2026
    epochs: int = 8
    fit: FitConfig = field(default_factory=FitConfig)
    held_out: float = 0.05
    gate_deals: int = 200
    gate_reference: str = "heuristic:3"
    workers: int = 1
    rl_iterations: int = 0
    rl_gate_every: int = 150
    ppo: PPOConfig = field(default_factory=PPOConfig)
    encoding: int = ENCODING
    init: str | None = None
    prior: str | None = None

    def to_json(self) -> dict:
        """The config as JSON."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> RunConfig:
        """The config of ``config.json``."""
        data = dict(data)
        data["fit"] = FitConfig(**data.get("fit", {}))
        data["ppo"] = PPOConfig(**data.get("ppo", {}))
        data.setdefault("encoding", 1)  # a run from before encoding 2
        return cls(**data)


def commit() -> str | None:
    """The git commit of the working tree the run is started from, or None."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).parent, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def gate(candidate: Path, best: Path | None, reference: str, deals: int, workers: int,
         seed: int) -> dict:
    """The duplicate match of ``candidate`` against ``best`` (or ``reference`` when there
    is no best): ``{"against", "diff", "ci95", "deals", "passed"}`` (``passed``: the CI's
    low end above zero)."""
    against = f"policy:{best}" if best is not None else reference
    report = run_arena([f"policy:{candidate}", against], deals, RuleSet.preset(), seed=seed,
                       workers=workers).to_json()
    pair = report["pairs"][0]
    return {"against": "best" if best is not None else reference,
            "diff": pair["mean_diff"], "ci95": pair["ci95"], "deals": deals,
            "passed": pair["ci95"] is not None and pair["ci95"][0] > 0}  # no CI: 1 deal


def chart(log: list[dict], path: Path) -> bool:
    """The learning curve: held-out agreement (imitation) and each gate's difference with its
    CI, over training time. False when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    hours = [row["seconds"] / 3600 for row in log]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    fitted = [(h, row["agreement"]) for h, row in zip(hours, log) if "agreement" in row]
    ax1.plot([h for h, _ in fitted], [a for _, a in fitted], "o-")
    ax1.set_ylabel("agreement with the teacher\n(held-out decisions)")
    gates = [(h, row["gate"]) for h, row in zip(hours, log) if row.get("gate")]
    if gates:
        xs = [h for h, _ in gates]
        diffs = [g["diff"] for _, g in gates]
        errs = [[g["diff"] - g["ci95"][0] for _, g in gates],
                [g["ci95"][1] - g["diff"] for _, g in gates]]
        ax2.errorbar(xs, diffs, yerr=errs, fmt="o", capsize=3)
        for x, (_, g) in zip(xs, gates):
            ax2.annotate(g["against"], (x, g["diff"]), fontsize=7, xytext=(3, 3),
                         textcoords="offset points")
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.set_ylabel("gate: candidate − opponent\n(base units a hand, 95% CI)")
    ax2.set_xlabel("training time (hours)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


class _Run:
    """A run's folder, config, log and network: the two stages share the checkpoint and the
    gate (:meth:`checkpoint`)."""

    def __init__(self, folder: Path, config: RunConfig, log: list[dict],
                 say: Callable[[str], None],
                 progress: Callable[[str, int, int], None] | None) -> None:
        self.folder, self.config, self.log, self.say = folder, config, log, say
        self.progress = progress or (lambda what, done, total: None)
        self.elapsed = log[-1]["seconds"] if log else 0.0
        self.trainer: Trainer | None = None

    def load_last(self, fit: FitConfig) -> bool:
        """The network and Adam's state of ``last.npz``; False when there is none."""
        if not (self.folder / "last.npz").exists():
            return False
        net = PolicyNet.load(self.folder / "last.npz")
        w, b = net.value  # the file holds it in base units; training scales it down
        net.value = (w / VALUE_SCALE, b / VALUE_SCALE)
        self.trainer = Trainer(net, fit)
        adam = self.folder / "last-adam.npz"
        if not adam.exists() and self.config.init and not self.log:
            return True  # the first iteration of a run started from a policy file: fresh Adam
        try:
            with np.load(adam, allow_pickle=False) as state:
                self.trainer.load_state(dict(state))
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{adam}: Adam's state cannot be read to resume ({exc})") from None
        return True

    def checkpoint(self, figures: dict, started: float, seed: int) -> dict:
        """Save ``last``, gate the network against ``best`` (or the reference), log
        ``figures`` with the gate's result and the training time, redraw the curve."""
        config, folder = self.config, self.folder
        best = folder / "best.npz"
        meta = {"config": config.to_json(), "figures": figures}
        if self.trainer.net.prior:
            meta["prior"] = self.trainer.net.prior.to_meta()
        net = self.trainer.net_for_play(meta)
        candidate = folder / "candidate.npz"
        net.save(candidate)
        net.save(folder / "last.npz")
        np.savez(folder / "last-adam.npz", **self.trainer.state())
        if config.gate_deals:
            self.progress("gate", 0, 0)
            result = gate(candidate, best if best.exists() else None, config.gate_reference,
                          config.gate_deals, config.workers, seed)
        else:
            result = {"passed": True}
        if result["passed"]:
            candidate.replace(best)
        else:
            candidate.unlink()
        self.elapsed += time.perf_counter() - started
        figures.update(gate=result if config.gate_deals else None, best=result["passed"],
                       seconds=round(self.elapsed, 1))
        self.log.append(figures)
        with (folder / "log.jsonl").open("a") as f:
            f.write(json.dumps(figures) + "\n")
        if not chart(self.log, folder / "curve.png") and len(self.log) == 1:
            self.say("no learning curve (curve.png): matplotlib is not installed "
                     "(pip install 'kawuxing[train]')")
        self.say(json.dumps(figures))
        return figures

    def imitation(self) -> None:
        """Stage 1: the teacher's self-play (made if missing), fitted epoch by epoch."""
        config = self.config
        done = sum(1 for row in self.log if row.get("stage", "imitation") == "imitation")
        if done >= config.epochs:
            return
        made = 0
        for _, n in generate(self.folder / "data", config.hands, config.data_seed,
                             (config.teacher,) * 3, config.workers):
            made += n
            self.progress("self-play", made, 0)
        data = load_shards(self.folder / "data")
        n = len(data["action"])
        order = np.random.default_rng(config.fit.seed).permutation(n)
        held = order[:int(n * config.held_out)]
        train_rows = np.sort(order[len(held):])
        shape = self.shape_features(data["planes"]) if config.encoding == 2 else None

        def x_of(rows: np.ndarray) -> np.ndarray:
            return inputs(data["planes"][rows], data["standing"][rows],
                          None if shape is None else shape[rows])

        x_held = x_of(held)
        m_held, a_held = masks(data["mask"][held]), data["action"][held].astype(np.int64)
        if done and not self.load_last(config.fit):
            raise FileNotFoundError(f"{self.folder}: {done} epochs are logged but last.npz is "
                                    f"gone: nothing to resume from")
        if not done and config.init:
            self.load_last(config.fit)  # the policy file the run starts from, fresh Adam
            net = self.trainer.net
            if config.fit.tile and net.tile is None:
                net.tile = new_tile_head(net, config.fit.tile,
                                         np.random.default_rng(config.fit.seed))
                self.trainer = Trainer(net, config.fit)
        elif not done:
            sample = train_rows[:20000]
            scale = input_scale(x_of(sample))
            self.trainer = Trainer(init_net(scale, config.fit), config.fit)
        self.say(f"imitation: {n:,} decisions ({len(held):,} held out), network "
                 f"{config.fit.hidden}, epoch {done + 1} of {config.epochs}")
        rng = np.random.default_rng(config.fit.seed + done)
        batch = config.fit.batch
        for epoch in range(done, config.epochs):
            started = time.perf_counter()
            shuffled = rng.permutation(train_rows)
            losses = []
            steps = (len(shuffled) + batch - 1) // batch
            for i in range(steps):
                rows = np.sort(shuffled[i * batch:(i + 1) * batch])
                losses.append(self.trainer.step(
                    x_of(rows), masks(data["mask"][rows]), data["action"][rows].astype(np.int64),
                    data["outcome"][rows]))
                self.progress(f"epoch {epoch + 1}", i + 1, steps)
            net = self.trainer.net_for_play({})
            self.checkpoint({"stage": "imitation", "epoch": epoch + 1,
                             "policy_loss": round(float(np.mean([p for p, _ in losses])), 4),
                             "value_loss": round(float(np.mean([v for _, v in losses])), 4),
                             "agreement": round(agreement(net, x_held, m_held, a_held), 4)},
                            started, seed=1000 + epoch)

    def shape_features(self, planes: np.ndarray) -> np.ndarray:
        """The shape features of every decision (:func:`.fit.features`), kept in
        ``features.npy`` beside the data."""
        path = self.folder / "features.npy"
        if path.exists():
            cached = np.load(path)
            if len(cached) == len(planes):
                return cached
        shape = features(planes, progress=lambda done, total: self.progress(
            "shape features", done, total))
        np.save(path, shape)
        return shape

    def self_play(self) -> None:
        """Stage 2: PPO by self-play (:mod:`.ppo`), a checkpoint and gate every
        ``rl_gate_every`` iterations."""
        config = self.config
        rl = [row for row in self.log if row.get("stage") == "self-play"]
        done = rl[-1]["iteration"] if rl else 0
        if done >= config.rl_iterations:
            return
        ppo = replace(config.ppo, seed=config.ppo.seed + done)
        fit = replace(config.fit, lr=ppo.lr)
        if not self.load_last(fit):
            raise FileNotFoundError(f"{self.folder}: self-play starts from last.npz (run "
                                    f"the imitation epochs first)")
        mix = [name for name, weight in PRESET_MIX for _ in range(weight)]
        play = SelfPlay(self.trainer, ppo, [RuleSet.preset(name) for name in mix])
        critic = self.folder / "critic.npz"  # the oracle critic's last state (training only)
        if play.critic is not None and critic.exists():
            play.critic.load(critic)  # with the warm-up it has left
        self.say(f"self-play: iteration {done + 1} of {config.rl_iterations}, "
                 f"{ppo.envs} hands at once")
        started, stats = time.perf_counter(), []
        for it in range(done, config.rl_iterations):
            batch = play.rollout()
            if batch:
                stats.append(play.update(batch) | {"decisions": len(batch["action"])})
            self.progress("self-play", it + 1 - done, config.rl_iterations - done)
            if (it + 1) % config.rl_gate_every and it + 1 < config.rl_iterations:
                continue
            keys = ("policy_loss", "value_loss", "entropy", "kl", "clipped", "critic_loss")
            figures = {"stage": "self-play", "iteration": it + 1, "hands": play.hands,
                       "decisions": int(sum(s["decisions"] for s in stats))}
            figures.update({k: round(float(np.mean([s[k] for s in stats if k in s])), 4)
                            for k in keys if any(k in s for s in stats)})
            if play.critic is not None:
                play.critic.save(critic)
            self.checkpoint(figures, started, seed=5000 + it)
            started, stats = time.perf_counter(), []


def start(folder: Path, init: Path, config: RunConfig) -> None:
    """Seed a new run's folder with the policy file ``init`` (its ``last`` and its first
    ``best``; with ``config.prior`` the expert's ranking added and the policy head and the
    tile head's outputs zeroed, unless ``init`` has a prior already: a residual goes on as it
    is). Raises ``ValueError`` when ``init`` is not a policy file of the run's encoding and
    hidden widths, when a residual (asked for, or the file's) would have imitation epochs
    (the fit does not add the prior's logits), or when ``fit.tile`` asks for a tile head the
    run would not add (no epochs, or the file has one of another width)."""
    net = PolicyNet.load(init)  # PolicyError (a ValueError) names the file and the fault
    if config.epochs and (config.prior or net.prior):
        raise ValueError(f"{init}: a residual on the expert learns by self-play only "
                         f"(leave --epochs out)")
    widths = [w.shape[1] for w, _ in net.hidden]
    if net.encoding != config.encoding or widths != list(config.fit.hidden):
        raise ValueError(f"{init}: encoding {net.encoding}, hidden {widths}; the run wants "
                         f"encoding {config.encoding}, hidden {list(config.fit.hidden)}")
    if config.fit.tile and not config.epochs:
        raise ValueError("--tile: a tile head is added by imitation epochs (give --epochs)")
    if config.fit.tile and net.tile is not None and net.tile.width != config.fit.tile:
        raise ValueError(f"{init}: has a tile head of {net.tile.width}, not {config.fit.tile}")
    if config.prior and net.prior is None:  # (a residual already is one: it goes on)
        net.pi = (np.zeros_like(net.pi[0]), np.zeros_like(net.pi[1]))
        if net.tile is not None:  # (its scores too: the zero residual plays as the expert)
            net.tile.v[...] = 0.0
        net.meta = net.meta | {"prior": Prior().to_meta()}
        net.save(folder / "last.npz")
        net.save(folder / "best.npz")
        return
    for name in ("last.npz", "best.npz"):
        (folder / name).write_bytes(init.read_bytes())


def run(folder: Path, config: RunConfig | None = None, resume: bool = False,
        say: Callable[[str], None] = print,
        progress: Callable[[str, int, int], None] | None = None,
        epochs: int | None = None, rl_iterations: int | None = None) -> dict:
    """Run (or with ``resume`` continue) the training run in ``folder``: the imitation
    epochs, then the self-play iterations. Returns the last log line. ``say``: a line of
    news; ``progress(task, done, total)``; ``epochs``, ``rl_iterations``: on resume, new
    totals (saved in ``config.json``). Raises ``FileExistsError`` for a new run in a folder
    that holds one, ``FileNotFoundError`` to resume a folder that holds none."""
    config_path = folder / "config.json"
    if resume:
        if not config_path.exists():
            raise FileNotFoundError(f"{folder}: no run to resume (no config.json)")
        try:
            saved = json.loads(config_path.read_text())
            config = RunConfig.from_json(saved["config"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{config_path}: not the config of a run ({exc!r})") from None
        if epochs is not None:
            config.epochs = epochs
        if rl_iterations is not None:
            config.rl_iterations = rl_iterations
        saved["config"] = config.to_json()
        config_path.write_text(json.dumps(saved, indent=1))
    else:
        if config_path.exists():
            raise FileExistsError(f"{folder}: holds a run already (resume it with --resume)")
        config = config or RunConfig()
        made = [p for p in (folder, *folder.parents) if not p.exists()]  # the deepest first
        folder.mkdir(parents=True, exist_ok=True)
        if config.init:
            try:
                start(folder, Path(config.init), config)
            except ValueError:
                for path in made:  # nothing of a run is left behind by a refused start
                    path.rmdir()
                raise
        config_path.write_text(json.dumps({"config": config.to_json(), "commit": commit(),
                                           "started": time.strftime("%Y-%m-%d %H:%M:%S")},
                                          indent=1))
    log_path = folder / "log.jsonl"
    try:
        log = [json.loads(line) for line in log_path.read_text().splitlines()] \
            if resume and log_path.exists() else []
    except ValueError as exc:  # (a line cut short by a stop in mid-write)
        raise ValueError(f"{log_path}: not a run's log ({exc})") from None
    stages = _Run(folder, config, log, say, progress)
    stages.imitation()
    stages.self_play()
    return log[-1] if log else {}
