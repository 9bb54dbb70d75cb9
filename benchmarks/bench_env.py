"""Research environment speed against anchors measured in the same run, in one unit:
**decisions per CPU-second**. A decision is a turn where the agent to act had more than one
legal action; the time is ``time.process_time()`` over the whole loop (the steps with a single
legal action, dealing, building the observation and the mask included; the machine is shared, so
CPU time is the figure to read). Every figure is the median of ``--runs`` runs over the same
seeded hands (games); no reference figure is typed into this script.

Measured, each with uniformly random legal actions picked from the mask:

- the PettingZoo AEC env (:func:`kawuxing.envs.aec_env`, ``standard`` preset) with
  ``skip_forced=True`` (the fast training mode: only decisions with a choice are asked; the
  headline ``decisions_per_cpu_second``), and with ``skip_forced=False`` (PettingZoo's default:
  every seat answers every claim window, R13.2; ``decisions_per_cpu_second_all_steps``, with its
  steps, ``all_steps``), ``--hands`` hands each;
- :class:`kawuxing.envs.VectorEnv` with 64 hands at once (``vector_decisions_per_cpu_second``)
  and with 1 and 16 (``vector_by_n``): one numpy draw picks a legal index for every row, every
  row of every step is a decision (every row of its mask allows 2 or more actions: checked, not
  timed, on the first hands, ``vector_min_legal``); run until ``--hands`` hands have ended;
- Gymnasium's own vector envs, 8 copies of ``kawuxing/Kawuxing-v0`` (one learning seat against
  two ``random`` bots): ``SyncVectorEnv`` in this process and ``AsyncVectorEnv`` in 8 worker
  processes. Only the learner's decisions count (the bots play theirs inside ``step``, their
  time included). The workers' CPU time is added to this process's: ``resource.getrusage
  (RUSAGE_CHILDREN)`` counts children once they have ended, so it is read after ``close()``;
  the cost of starting and closing 8 workers with nothing to play (measured in the same run) is
  taken off. ``--hands // 3`` hands (these are the slowest loops);
- the anchors, when installed (``pip install -e '.[bench]'``): RiichiEnv's three-player game
  (``RiichiEnv(game_mode=3)``: one kyoku per game, its ``encode()`` features and ``mask()``
  built for every seat with legal actions; ``--hands`` games) and RLCard's mahjong (four
  players; its ``state["obs"]`` is built by every step; ``--hands // 3`` games). ``*_ratio``:
  the AEC env's (``skip_forced``) decisions per CPU-second over the anchor's;
  ``riichienv_3p_vector_ratio``: the VectorEnv's (64) over RiichiEnv's;
- the engine alone (``bench_engine.play``, self-play fast path, no env): steps per
  CPU-second, the reference that the machine's load moves alike.

    python benchmarks/bench_env.py [--hands N] [--runs N]

Prints a line per measurement; the last line is one JSON object (rates rounded to integers).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import resource
import statistics
import sys
import time

import numpy as np
from bench_engine import play as engine_play  # benchmarks/ is the script's folder

from kawuxing.envs import ENV_ID, VectorEnv, aec_env
from kawuxing.rules import RuleSet

VECTOR_SIZES = (1, 16, 64)
GYM_COPIES = 8
INSTALL = "pip install -e '.[bench]'"


def play_aec(hands: int, seed: int, skip_forced: bool = True) -> tuple[int, int, float]:
    """Play ``hands`` hands of the AEC env (seeded ``seed``) with random masked actions.
    Returns (decisions, steps with an action, CPU seconds)."""
    env = aec_env(seed=seed, skip_forced=skip_forced)
    rng = random.Random(seed)
    decisions = steps = 0
    cpu = time.process_time()
    for _ in range(hands):
        env.reset()
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if len(legal) > 1:
                decisions += 1
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return decisions, steps, time.process_time() - cpu


def play_vector(n: int, hands: int, seed: int,
                check: bool = False) -> tuple[int, int, float, int | None]:
    """Step a :class:`VectorEnv` of ``n`` hands (seeded ``seed``) with a random legal index
    per row until ``hands`` hands have ended. Returns (decisions, hands ended, CPU seconds,
    the fewest legal actions of any row seen or None): ``check`` computes that last figure,
    which costs time, so timed runs leave it off."""
    env = VectorEnv(n, seed=seed)
    rng = np.random.default_rng(seed)
    fewest = None
    decisions = ended = 0
    cpu = time.process_time()
    obs, mask, seat = env.reset()
    while ended < hands:
        if check:
            low = int(mask.sum(1).min())
            fewest = low if fewest is None else min(fewest, low)
        actions = (rng.random(mask.shape) * mask).argmax(1)
        obs, mask, seat, rewards, dones = env.step(actions)
        decisions += n
        ended += int(dones.sum())
    return decisions, ended, time.process_time() - cpu, fewest


def child_cpu() -> float:
    """CPU seconds (user + system) of this process's ended and waited-for children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def make_gym():
    """One ``kawuxing/Kawuxing-v0``: the learner against two random bots."""
    import gymnasium

    return gymnasium.make(ENV_ID, opponents=("random", "random"))


def play_gym(kind: str, hands: int, seed: int) -> tuple[int, float]:
    """Step Gymnasium's ``kind`` (``"sync"`` or ``"async"``) vector env of ``GYM_COPIES``
    copies with a random legal index per copy until ``hands`` episodes have ended. Returns
    (the learner's decisions, CPU seconds: this process's from the first reset to the last
    step, plus, for ``async``, what the workers used over their lives less the cost of
    starting and closing as many workers with nothing to play). A copy that ended is reset
    by its next step (Gymnasium's default autoreset): its action then is ignored and its mask
    was all zeros, so it counts no decision."""
    from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

    cls = AsyncVectorEnv if kind == "async" else SyncVectorEnv
    overhead = 0.0
    if kind == "async":  # the workers' start and close alone
        before = child_cpu()
        cls([make_gym] * GYM_COPIES).close()
        overhead = child_cpu() - before
    rng = np.random.default_rng(seed)
    children = child_cpu()
    envs = cls([make_gym] * GYM_COPIES)
    decisions = ended = 0
    cpu = time.process_time()
    obs, _ = envs.reset(seed=seed)
    pending = np.zeros(GYM_COPIES, bool)  # ended last step: reset by this one
    while ended < hands:
        mask = obs["action_mask"]
        decisions += int(((mask.sum(1) > 1) & ~pending).sum())
        actions = (rng.random(mask.shape) * mask).argmax(1)
        obs, _, term, trunc, _ = envs.step(actions)
        pending = term | trunc
        ended += int(pending.sum())
    cpu = time.process_time() - cpu
    envs.close()
    if kind == "async":
        cpu += max(0.0, child_cpu() - children - overhead)
    return decisions, cpu


def play_riichienv(games: int, seed: int) -> tuple[int, float] | None:
    """Play ``games`` three-player one-kyoku games of RiichiEnv with random legal actions,
    each seat's features and mask built whenever it has legal actions. Returns (decisions, CPU
    seconds), or None when riichienv is not installed."""
    try:
        from riichienv import RiichiEnv
    except ImportError:
        return None
    env = RiichiEnv(game_mode=3, skip_mjai_logging=True, seed=seed)
    rng = random.Random(seed)
    decisions = 0
    cpu = time.process_time()
    for _ in range(games):
        obs = env.reset()
        while not env.done():
            acts = {}
            for pid, o in obs.items():
                la = o.legal_actions()
                if not la:
                    continue
                _features = np.frombuffer(o.encode(), np.float32)
                _mask = np.frombuffer(o.mask(), np.uint8)
                if len(la) > 1:
                    decisions += 1
                acts[pid] = rng.choice(la)
            obs = env.step(acts)
    return decisions, time.process_time() - cpu


def play_rlcard(games: int, seed: int) -> tuple[int, float] | None:
    """Play ``games`` games of RLCard's mahjong with random legal actions (its observation
    array is built by every step). Returns (decisions, CPU seconds), or None when rlcard is
    not installed. RLCard prints to stdout when a state has no legal action: caught, and the
    game is then left (never seen with the default seed)."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)
    decisions = 0
    chatter = io.StringIO()
    cpu = time.process_time()
    with contextlib.redirect_stdout(chatter):
        for _ in range(games):
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"].keys())
                _obs = state["obs"]  # built by rlcard's step() already
                if not legal:
                    break
                if len(legal) > 1:
                    decisions += 1
                state, _ = env.step(rng.choice(legal))
    cpu = time.process_time() - cpu
    if chatter.getvalue():
        print(f"rlcard printed: {chatter.getvalue().splitlines()[0]!r} ...")
    return decisions, cpu


def median_rate(results: list[tuple], count: int = 0, cpu: int = -1) -> int:
    """The median over runs of ``result[count] / result[cpu]``, rounded."""
    return round(statistics.median(r[count] / r[cpu] for r in results))


def ratio(ours: int | None, theirs: int | None, digits: int = 2) -> float | None:
    """``ours / theirs`` rounded, or None when either is missing."""
    return round(ours / theirs, digits) if ours and theirs else None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=300, help="hands (games) per run")
    ap.add_argument("--runs", type=int, default=3, help="runs; the median counts")
    args = ap.parse_args()
    if args.hands < 1 or args.runs < 1:
        print("error: --hands and --runs must be 1 or more", file=sys.stderr)
        raise SystemExit(2)
    hands, runs = args.hands, args.runs
    few = max(1, hands // 3)  # the slow loops: Gymnasium's vector envs, RLCard

    play_aec(20, 99)  # warm up
    aec = [play_aec(hands, 1) for _ in range(runs)]
    single = median_rate(aec, 0, 2)
    print(f"AEC env, skip_forced=True: {hands} hands, {aec[0][0]:,} decisions: {single:,} "
          f"decisions per CPU-second")
    full = [play_aec(hands, 1, skip_forced=False) for _ in range(runs)]
    all_steps = {"decisions": full[0][0], "steps": full[0][1],
                 "decisions_per_cpu_second": median_rate(full, 0, 2),
                 "steps_per_cpu_second": median_rate(full, 1, 2)}
    print(f"AEC env, skip_forced=False (every seat answers every claim window): "
          f"{all_steps['steps']:,} steps, {all_steps['decisions']:,} decisions: "
          f"{all_steps['decisions_per_cpu_second']:,} decisions per CPU-second "
          f"({all_steps['steps_per_cpu_second']:,} steps)")

    fewest = play_vector(64, min(hands, 100), 1, check=True)[3]  # warm up, and the check
    by_n = {}
    for n in VECTOR_SIZES:
        out = [play_vector(n, hands, 1) for _ in range(runs)]
        by_n[str(n)] = median_rate(out, 0, 2)
        print(f"VectorEnv({n}): {out[0][1]} hands ended, {out[0][0]:,} decisions: "
              f"{by_n[str(n)]:,} decisions per CPU-second")
    vector = by_n["64"]
    print(f"  every row's mask allowed >= {fewest} actions (first hands of VectorEnv(64)); "
          f"VectorEnv(64) is {vector / single:.2f}× the AEC env")

    gym = {}
    for kind in ("sync", "async"):
        out = [play_gym(kind, few, 1) for _ in range(runs)]
        gym[kind] = median_rate(out, 0, 1)
        print(f"Gymnasium {kind.capitalize()}VectorEnv × {GYM_COPIES} (learner vs 2 random "
              f"bots): {few} hands, {out[0][0]:,} learner decisions: {gym[kind]:,} decisions "
              f"per CPU-second" + (" (workers' CPU included)" if kind == "async" else ""))

    anchors = {}
    for name, fn, games, label in (
            ("riichienv_3p", play_riichienv, hands, "RiichiEnv three-player (game_mode=3)"),
            ("rlcard", play_rlcard, few, "RLCard mahjong")):
        if fn(2, 99) is None:  # warm up, or not installed
            anchors[name] = None
            print(f"{label}: not installed ({INSTALL})")
            continue
        out = [fn(games, 1) for _ in range(runs)]
        anchors[name] = median_rate(out, 0, 1)
        print(f"{label}: {games} games, {out[0][0]:,} decisions: {anchors[name]:,} decisions "
              f"per CPU-second; the AEC env is {single / anchors[name]:.2f}× it")

    engine = [engine_play(RuleSet.preset(), hands, 1, windows=False) for _ in range(runs)]
    engine_rate = median_rate(engine, 0, 1)
    print(f"the engine alone (bench_engine, fast path): {engine[0][0]:,} steps, {engine_rate:,} "
          f"steps per CPU-second")

    print(json.dumps({
        "hands": hands, "runs": runs,
        "decisions_per_cpu_second": single, "decisions": aec[0][0],
        "decisions_per_cpu_second_all_steps": all_steps["decisions_per_cpu_second"],
        "all_steps": all_steps,
        "vector_decisions_per_cpu_second": vector, "vector_by_n": by_n,
        "vector_over_single": round(vector / single, 2), "vector_min_legal": fewest,
        "gym_hands": few, "gym_copies": GYM_COPIES,
        "gym_sync_decisions_per_cpu_second": gym["sync"],
        "gym_async_decisions_per_cpu_second": gym["async"],
        "riichienv_3p_decisions_per_cpu_second": anchors["riichienv_3p"],
        "riichienv_3p_ratio": ratio(single, anchors["riichienv_3p"]),
        "riichienv_3p_vector_ratio": ratio(vector, anchors["riichienv_3p"]),
        "rlcard_games": few,
        "rlcard_decisions_per_cpu_second": anchors["rlcard"],
        "rlcard_ratio": ratio(single, anchors["rlcard"]),
        "engine_steps_per_cpu_second": engine_rate}))


if __name__ == "__main__":
    main()
