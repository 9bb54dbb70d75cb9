"""Research environment speed (issue 15; goal >= 10,000 env steps per second on one core):
random masked actions through the PettingZoo AEC env (:func:`kawuxing.envs.aec_env`, the
``standard`` preset, claim windows after every discard, R13.2), one process. A step is what an
RL loop does: ``env.last()`` (the observation tensor of the agent to act and its action mask
built), a uniformly random index among those its mask allows, ``env.step``. Prints env steps
per second (wall clock) and per CPU-second (``time.process_time``: the machine is shared, so
CPU time is the steadier figure), hands per second, and the same loop without building the
tensor (the engine and the action table alone), and the engine's own loop over the same
number of hands in the same run (``bench_engine.play`` with claim windows: the reference that
the machine's load moves alike), each the median of ``--runs`` runs over the same seeded hands;
the last line is one JSON object (``goal_ratio``: env steps per CPU-second over the goal;
``rlcard_mahjong_ratio``: wall-clock steps per second over RLCard's).

    python benchmarks/bench_env.py [--hands N] [--runs N]

RLCard's mahjong environment, for comparison: about 970 steps/s.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import numpy as np
from bench_engine import play as engine_play  # benchmarks/ is the script's folder

from kawuxing.envs import aec_env
from kawuxing.rules import RuleSet

GOAL_STEPS_PER_SECOND = 10_000
RLCARD_MAHJONG_STEPS_PER_SECOND = 970


def play(hands: int, seed: int, tensors: bool = True) -> tuple[int, float, float]:
    """Play ``hands`` hands (seeded ``seed``) with random masked actions. Returns (steps,
    wall seconds, CPU seconds). ``tensors=False`` skips the observation (picks among the
    legal indices directly)."""
    env = aec_env(seed=seed)
    rng = random.Random(seed)
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(hands):
        env.reset()
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            if tensors:
                obs, _, _, _, _ = env.last()
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            else:
                action = rng.choice(list(env.legal_actions(agent)))
            env.step(action)
            steps += 1
    return steps, time.perf_counter() - wall, time.process_time() - cpu


def measure(hands: int, runs: int, tensors: bool = True) -> dict:
    """Median figures of ``runs`` runs of :func:`play` over the same hands."""
    out = [play(hands, 1, tensors) for _ in range(runs)]
    steps = out[0][0]
    wall = statistics.median(o[1] for o in out)
    cpu = statistics.median(o[2] for o in out)
    return {"steps": steps, "env_steps_per_second": round(steps / wall),
            "env_steps_per_cpu_second": round(steps / cpu),
            "hands_per_second": round(hands / wall, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--runs", type=int, default=3, help="runs; the median counts")
    args = ap.parse_args()
    play(20, 99)  # warm up
    full = measure(args.hands, args.runs)
    bare = measure(args.hands, args.runs, tensors=False)
    engine = [engine_play(RuleSet.preset(), args.hands, 1, windows=True) for _ in range(args.runs)]
    engine_cpu = round(engine[0][0] / statistics.median(e[1] for e in engine))
    print(f"AEC env, random masked actions, tensors built: {args.hands} hands, {full['steps']} "
          f"steps: {full['env_steps_per_second']:,} steps/s "
          f"({full['env_steps_per_second'] / RLCARD_MAHJONG_STEPS_PER_SECOND:.1f}× RLCard's "
          f"mahjong), {full['env_steps_per_cpu_second']:,} per CPU-second "
          f"({full['env_steps_per_cpu_second'] / GOAL_STEPS_PER_SECOND:.2f}× the goal), "
          f"{full['hands_per_second']:,} hands/s")
    share = 1 - full["env_steps_per_cpu_second"] / bare["env_steps_per_cpu_second"]
    print(f"without the observation tensor: {bare['env_steps_per_second']:,} steps/s, "
          f"{bare['env_steps_per_cpu_second']:,} per CPU-second (the tensor and mask cost "
          f"{share:.0%} of a step's CPU time)")
    print(f"the engine alone (bench_engine, windows): {engine[0][0]:,} steps, {engine_cpu:,} steps "
          f"per CPU-second; the env runs at {full['env_steps_per_cpu_second'] / engine_cpu:.0%} "
          f"of it")
    print(json.dumps({"env_steps_per_second": full["env_steps_per_second"],
                      "env_steps_per_cpu_second": full["env_steps_per_cpu_second"],
                      "hands_per_second": full["hands_per_second"],
                      # steps per CPU-second: the shared machine's load does not move it
                      "goal_ratio": round(full["env_steps_per_cpu_second"]
                                          / GOAL_STEPS_PER_SECOND, 2),
                      "rlcard_mahjong_ratio": round(full["env_steps_per_second"]
                                                    / RLCARD_MAHJONG_STEPS_PER_SECOND, 1),
                      "without_tensor": {k: bare[k] for k in ("env_steps_per_second",
                                                              "env_steps_per_cpu_second")},
                      "engine_steps_per_cpu_second": engine_cpu}))


if __name__ == "__main__":
    main()
