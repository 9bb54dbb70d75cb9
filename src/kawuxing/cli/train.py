"""``kawuxing train``: the learned bot's training run (see :mod:`kawuxing.learn.train`)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from ..agents import check_bot
from ..agents.policy import PolicyNet
from ..learn.fit import FitConfig
from ..learn.ppo import PPOConfig
from ..learn.train import RunConfig, run
from .common import err, fail, out

PROGRESS_EVERY = 60.0  # seconds between plain progress lines when stderr is no terminal
MAX_WIDTH = 8192  # units of a hidden layer at most (a few hundred MB of weights and Adam state)
MAX_ENVS = 4096  # self-play hands stepped at once at most


def train(
    folder: Annotated[Path, typer.Argument(help="the run's folder (config, data, weights, log, curve)")],
    hands: Annotated[int, typer.Option("--hands", help="self-play hands of the teacher to learn from")] = 30000,
    teacher: Annotated[str, typer.Option("--teacher", help="the bot whose self-play is imitated")] = "expert",
    epochs: Annotated[Optional[int], typer.Option("--epochs", help="passes over the data in all (default 8; with --resume: the new total)")] = None,
    hidden: Annotated[Optional[str], typer.Option("--hidden", help="hidden layer widths, comma-separated (default 512,256; with --init: the file's)")] = None,
    tile: Annotated[int, typer.Option("--tile", help="the width of a tile head: one small network shared by the 30 kinds scores each kind's discard, 亮倒 and kongs (0: none; encoding 2)")] = 0,
    lr: Annotated[float, typer.Option("--lr", help="Adam's step size")] = 1e-3,
    encoding: Annotated[Optional[int], typer.Option("--encoding", help="what the network reads: 1 the planes, 2 the planes and the shape features (default 2; with --init: the file's)")] = None,
    gate_deals: Annotated[int, typer.Option("--gate-deals", help="duplicate deals of each gate (0: no gate)")] = 200,
    gate_reference: Annotated[str, typer.Option("--gate-reference", help="the bot the first checkpoint must beat")] = "heuristic:3",
    seed: Annotated[int, typer.Option("--seed", help="the seed of the data and of the fit")] = 2026,
    workers: Annotated[int, typer.Option("--workers", help="processes for self-play and gates (0: all cores)")] = 0,
    rl_iterations: Annotated[Optional[int], typer.Option("--rl-iterations", help="PPO self-play iterations after the epochs (default 0; with --resume: the new total)")] = None,
    rl_gate_every: Annotated[int, typer.Option("--rl-gate-every", help="self-play iterations between gates")] = 150,
    rl_lr: Annotated[float, typer.Option("--rl-lr", help="Adam's step size in self-play")] = 3e-5,
    rl_envs: Annotated[int, typer.Option("--rl-envs", help="self-play hands stepped at once (an iteration is 48 steps of them)")] = 64,
    rl_gae_lambda: Annotated[float, typer.Option("--rl-gae-lambda", help="λ of the advantages over a seat's successive decisions (1: the return to the hand's end less the value)")] = 1.0,
    rl_oracle: Annotated[bool, typer.Option("--rl-oracle", help="the advantages' baseline is an oracle critic that also reads the hidden hands and wall (training only; never a bot's input, R13)")] = False,
    rl_opponents: Annotated[Optional[str], typer.Option("--rl-opponents", help="a bot that plays two seats of every self-play hand (the network plays one and learns against it); default: the network in every seat")] = None,
    init: Annotated[Optional[Path], typer.Option("--init", help="start from this policy file (it is the first best): its imitation epochs go on fitting the teacher's data (--epochs), or self-play only (--rl-iterations)")] = None,
    prior: Annotated[Optional[str], typer.Option("--prior", help="with --init: 'expert' adds the expert's ranking to the network's logits and learns a correction to it")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="continue the run in FOLDER where it stopped")] = False,
    export: Annotated[Optional[Path], typer.Option("--export", help="copy the best weights there at the end (a policy file)")] = None,
) -> None:
    """Train a policy network by imitation of a bot's self-play, with a value head, then
    improve it by PPO self-play; every checkpoint is gated by a duplicate match
    (docs/bots.md, "The learned bot"). The run's folder keeps the config,
    the self-play shards, the last and the best weights, one log line an epoch and the
    learning curve; --resume continues it (the config is read back; the other options but
    --epochs, --rl-iterations and --export are then ignored). --init starts from a policy file
    instead (the shipped weights: src/kawuxing/agents/weights/learned.npz): imitation
    epochs go on fitting it; without --epochs, self-play only.
    Play the result with --bots policy:FOLDER/best.npz."""
    try:
        check_bot(teacher)
        check_bot(gate_reference)
        if rl_opponents is not None:
            check_bot(rl_opponents)
        for name, value, low in (("--hands", hands, 1), ("--epochs", 1 if epochs is None else epochs, 1),
                                 ("--gate-deals", gate_deals, 0), ("--workers", workers, 0),
                                 ("--tile", tile, 0),
                                 ("--rl-iterations", rl_iterations or 0, 0),
                                 ("--rl-gate-every", rl_gate_every, 1), ("--rl-envs", rl_envs, 1),
                                 ("--seed", seed, 0)):
            if value < low:
                raise ValueError(f"{name} must be at least {low}, got {value}")
        if rl_envs > MAX_ENVS:
            raise ValueError(f"--rl-envs must be at most {MAX_ENVS}, got {rl_envs}")
        for name, value in (("--lr", lr), ("--rl-lr", rl_lr)):
            if not 0 < value < 1:
                raise ValueError(f"{name} must be between 0 and 1, got {value}")
        if not 0 <= rl_gae_lambda <= 1:
            raise ValueError(f"--rl-gae-lambda must be between 0 and 1, got {rl_gae_lambda}")
        if init is not None and not resume:
            if not rl_iterations and not epochs:
                raise ValueError("--init: say how many imitation epochs (--epochs) or self-play "
                                 "iterations (--rl-iterations) start from it")
            if epochs and prior is not None:
                raise ValueError("--prior: self-play only (leave --epochs out)")
            if not init.is_file():
                raise ValueError(f"--init {init}: no such file")
        if prior is not None and prior != "expert":
            raise ValueError(f"--prior {prior!r}: the one prior is 'expert' (its ranking)")
        if prior is not None and init is None and not resume:
            raise ValueError("--prior needs --init POLICY: the network the residual starts from")
        if folder.exists() and not folder.is_dir():
            raise ValueError(f"{folder}: not a folder")
        if not resume and not next(p for p in folder.absolute().parents if p.exists()).is_dir():
            raise ValueError(f"{folder}: its parent is not a folder")
        if export is not None and export.is_dir():
            raise ValueError(f"--export {export}: a folder; name the file to write")
        if export is not None and not export.parent.is_dir():
            raise ValueError(f"--export {export}: no folder {export.parent}")
        if init is not None and not resume and (hidden is None or encoding is None):
            net = PolicyNet.load(init)  # the network's shape from the file it starts from
            if hidden is None:
                hidden = ",".join(str(w.shape[1]) for w, _ in net.hidden)
            encoding = net.encoding if encoding is None else encoding
        encoding = 2 if encoding is None else encoding
        if encoding not in (1, 2):
            raise ValueError(f"--encoding must be 1 or 2, got {encoding}")
        if tile and encoding != 2:
            raise ValueError("--tile: a network of encoding 2 only")
        if tile > 1024:
            raise ValueError(f"--tile must be at most 1024, got {tile}")
    except ValueError as exc:  # (PolicyError too: a file that is no policy names its fault)
        fail(str(exc))
    hidden = "512,256" if hidden is None else hidden
    try:
        widths = [int(w) for w in hidden.split(",")]
        if not widths or min(widths) < 1 or max(widths) > MAX_WIDTH:
            raise ValueError
    except ValueError:
        fail(f"--hidden {hidden!r}: layer widths, whole numbers from 1 to {MAX_WIDTH}, "
             f"comma-separated")
    config = RunConfig(hands=hands, teacher=teacher, data_seed=seed,
                       epochs=epochs or (0 if init is not None else 8),
                       fit=FitConfig(hidden=widths, lr=lr, seed=seed, tile=tile), gate_deals=gate_deals,
                       gate_reference=gate_reference, workers=workers or os.cpu_count() or 1,
                       rl_iterations=rl_iterations or 0, rl_gate_every=rl_gate_every,
                       encoding=encoding,
                       ppo=PPOConfig(envs=rl_envs, lr=rl_lr, opponents=rl_opponents,
                                     gae_lambda=rl_gae_lambda, oracle=rl_oracle),
                       init=None if init is None else str(init.resolve()), prior=prior)
    terminal = err.file.isatty()  # (not rich's is_terminal: FORCE_COLOR would put the bar in a file)
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=err, transient=True,
                  disable=not terminal) as bar:
        task = bar.add_task("training", total=None)

        quiet = {"said": time.monotonic(), "started": time.monotonic()}

        def progress(what: str, done: int, total: int) -> None:
            bar.update(task, description=what, completed=done, total=total or None)
            now = time.monotonic()
            if not terminal and now - quiet["said"] >= PROGRESS_EVERY:
                # no bar (output to a file, a run in the background): a plain line now and then
                quiet["said"] = now
                count = f"{done:,} of {total:,}" if total else f"{done:,}"
                err.print(f"{what}: {count} ({(now - quiet['started']) / 60:.0f} min)",
                          highlight=False, markup=False, soft_wrap=True)

        try:
            last = run(folder, None if resume else config, resume,
                       say=lambda line: out.print(line, highlight=False, markup=False),
                       progress=progress, epochs=epochs if resume else None,
                       rl_iterations=rl_iterations if resume else None)
        except (FileExistsError, FileNotFoundError, ValueError) as exc:  # ValueError: a
            bar.stop()  # config or checkpoint of the folder that cannot be read
            fail(str(exc))
    best = folder / "best.npz"
    if export is not None and best.exists():
        export.write_bytes(best.read_bytes())
    elif export is not None:
        err.print(f"--export {export}: not written, no checkpoint has passed a gate",
                  highlight=False, markup=False, soft_wrap=True)
    stage = (f"last self-play iteration: {last['iteration']}" if "iteration" in last
             else f"last epoch: {last.get('epoch')}")
    out.print(f"best weights: {best if best.exists() else 'none passed a gate'}; {stage}",
              highlight=False, markup=False)
