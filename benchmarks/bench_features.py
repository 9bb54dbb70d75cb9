"""Shape features speed (:mod:`kawuxing.envs.features`): the grid of all draws against the
code before it, in the same run, on the same observations.

Observations come from random self-play: :class:`kawuxing.envs.VectorEnv` with ``--envs``
hands (64, as PPO runs it), seed 5, a random legal action for each of ``--steps`` steps. Timed
per observation, CPU time (``time.process_time``: the machine is shared):

- ``old``: ``features._hand_features_general``, the code before the grid (one
  :func:`~kawuxing.shapes.draw_shanten` call for each kind held), kept verbatim for planes
  that are not 0/1; one observation at a time;
- ``single``: :func:`~kawuxing.envs.features.hand_features`, one observation at a time (a
  bot's decision);
- ``batch``: :func:`~kawuxing.envs.features.shape_features` of each step's ``--envs``
  observations (PPO's self-play, ``kawuxing.learn.fit.features``).

Every output is checked equal to ``old`` first. Each figure is the median of ``--runs`` passes;
within a pass the three take turns on each batch, so that a slow spell of the machine hits all
alike.

    python benchmarks/bench_features.py [--envs N] [--steps N] [--runs N]

The last line is one JSON object: ``{"observations", "old_us", "single_us", "batch_us",
"single_ratio", "batch_ratio"}``, ratios being old time ÷ new (higher is better).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from kawuxing.envs import features
from kawuxing.envs.vector import VectorEnv


def observations(envs: int, steps: int) -> list[np.ndarray]:
    """``steps`` batches of ``envs`` observations of random self-play (copies)."""
    env = VectorEnv(envs, seed=5)
    obs, mask, _ = env.reset()
    rng = np.random.default_rng(5)
    out = []
    for _ in range(steps):
        out.append(obs.copy())
        obs, mask, *_ = env.step([rng.choice(np.flatnonzero(m)) for m in mask])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=64, help="observations a batch")
    parser.add_argument("--steps", type=int, default=50, help="batches")
    parser.add_argument("--runs", type=int, default=3, help="passes; the median counts")
    args = parser.parse_args()
    for name in ("envs", "steps", "runs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")

    batches = observations(args.envs, args.steps)
    every = [o for batch in batches for o in batch]
    old = np.stack([features._hand_features_general(o) for o in every])
    if not (np.array_equal(np.stack([features.hand_features(o) for o in every]), old)
            and np.array_equal(np.concatenate([features.shape_features(b) for b in batches]),
                               old)):
        raise SystemExit("the shape features differ from the code before the grid")

    variants = {
        "old": lambda batch: [features._hand_features_general(o) for o in batch],
        "single": lambda batch: [features.hand_features(o) for o in batch],
        "batch": features.shape_features,
    }
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(args.runs):
        spent = dict.fromkeys(variants, 0.0)
        for batch in batches:  # the three on the same batch, one after the other
            for name, run in variants.items():
                start = time.process_time()
                run(batch)
                spent[name] += time.process_time() - start
        for name in variants:
            times[name].append(spent[name] / len(every) * 1e6)
    us = {name: statistics.median(t) for name, t in times.items()}
    own = sum(1 for o in every if o[:4].sum() % 3 == 2)
    print(f"{len(every)} observations ({own} own turns) of random self-play, VectorEnv"
          f"({args.envs}, seed=5); CPU µs per observation, median of {args.runs} passes")
    for name in variants:
        print(f"  {name:<7}{us[name]:>9.1f} µs  (passes: "
              f"{', '.join(f'{t:.1f}' for t in times[name])})")
    print(json.dumps({"observations": len(every), "old_us": round(us["old"], 1),
                      "single_us": round(us["single"], 1), "batch_us": round(us["batch"], 1),
                      "single_ratio": round(us["old"] / us["single"], 2),
                      "batch_ratio": round(us["old"] / us["batch"], 2)}))


if __name__ == "__main__":
    main()
