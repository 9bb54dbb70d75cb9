"""Engine speed: random legal agents playing full hands in one process (goal, issue 14:
>= 50,000 steps per CPU-second). A step is one accepted action, its legal actions listed first
as an agent would. Prints steps per CPU-second (``time.process_time``: the machine is shared,
so CPU time is the figure to read; wall-clock steps/s too) and hands per CPU-second per rule
preset, each the median of ``--runs`` runs; hands per CPU-second of three heuristic bots (the
simulator's loop); and as the last line one JSON object.
Hands are played on the self-play fast path (``windows=False``: a claim window opens only when
a seat holds an option, as ``kawuxing simulate`` plays); the standard preset is also played
with a window after every discard (R13.2, as the server and the research environment do), where
the seats without an option answer ``pass`` — more steps for the same hand.

    python benchmarks/bench_engine.py [--hands N] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from kawuxing.engine import Hand
from kawuxing.rules import RuleSet

GOAL_STEPS_PER_SECOND = 50_000  # per CPU-second


def play(rules: RuleSet, hands: int, seed: int,
         windows: bool = False) -> tuple[int, float, float, dict[str, int]]:
    """Play ``hands`` hands with agents that take a legal action at random (a win when they
    can, so hands end both ways). Returns (steps, CPU seconds, wall seconds, results)."""
    rng = random.Random(seed)
    steps = 0
    results: dict[str, int] = {}
    cpu, start = time.process_time(), time.perf_counter()
    for n in range(hands):
        hand = Hand.deal(rules, n % 3, seed=f"{seed}/{n}", piao=[0, 0, 0], windows=windows)
        while not hand.ended:
            seat = hand.to_act()[0]
            actions = hand.legal_actions(seat)
            wins = [a for a in actions if a.verb == "win"]
            hand.apply(wins[0] if wins else rng.choice(actions))
            steps += 1
        results[hand.result] = results.get(hand.result, 0) + 1
    return steps, time.process_time() - cpu, time.perf_counter() - start, results


def measure(rules: RuleSet, hands: int, runs: int, windows: bool = False) -> dict:
    """Median figures of ``runs`` runs of :func:`play` (the same seeded hands each run)."""
    out = [play(rules, hands, 1, windows) for _ in range(runs)]
    steps, results = out[0][0], out[0][3]
    cpu = statistics.median(o[1] for o in out)
    wall = statistics.median(o[2] for o in out)
    return {"steps": steps, "results": results, "steps_per_cpu_second": round(steps / cpu),
            "steps_per_second": round(steps / wall), "hands_per_cpu_second": round(hands / cpu, 1),
            "hands_per_second": round(hands / wall, 1)}


def heuristic(hands: int, runs: int) -> float:
    """Hands per CPU-second of three heuristic bots (the simulator's loop, one match), the
    median of ``runs`` runs."""
    from kawuxing.sim import play_match

    times = []
    for _ in range(runs):
        cpu = time.process_time()
        play_match(RuleSet.preset(), ["heuristic"] * 3, 7, 0, hands)
        times.append(time.process_time() - cpu)
    return round(hands / statistics.median(times), 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3, help="runs; the median counts")
    ap.add_argument("--heuristic-hands", type=int, default=100)
    args = ap.parse_args()
    summary = {}
    for preset in ("standard", "capped", "strict"):
        play(RuleSet.preset(preset), 50, 99)  # warm up
        m = measure(RuleSet.preset(preset), args.hands, args.runs)
        print(f"{preset:9s} {args.hands} hands, {m['steps']} steps: "
              f"{m['steps_per_cpu_second']:,} steps per CPU-second "
              f"({m['steps_per_cpu_second'] / GOAL_STEPS_PER_SECOND:.2f}× the goal), "
              f"{m['hands_per_cpu_second']:,} hands per CPU-second; wall {m['steps_per_second']:,} "
              f"steps/s; results {m['results']}")
        summary[preset] = {k: m[k] for k in ("steps_per_cpu_second", "steps_per_second",
                                             "hands_per_cpu_second", "hands_per_second")}
    bots = heuristic(args.heuristic_hands, args.runs)
    print(f"heuristic bots (kawuxing.sim.play_match, 3 × heuristic): {args.heuristic_hands} "
          f"hands, {bots:,.1f} hands per CPU-second")
    w = measure(RuleSet.preset(), args.hands, args.runs, windows=True)
    windowed = {k: w[k] for k in ("steps_per_cpu_second", "steps_per_second",
                                  "hands_per_cpu_second", "hands_per_second")}
    std = summary["standard"]
    print(f"standard with a window after every discard (R13.2): {w['steps']} steps, "
          f"{w['steps_per_cpu_second']:,} steps per CPU-second, {w['hands_per_cpu_second']:,} "
          f"hands per CPU-second ({w['hands_per_cpu_second'] / std['hands_per_cpu_second']:.2f}× "
          f"the fast path's)")
    print(json.dumps({"steps_per_cpu_second": std["steps_per_cpu_second"],
                      "steps_per_second": std["steps_per_second"],
                      "hands_per_cpu_second": std["hands_per_cpu_second"],
                      "goal_ratio": round(std["steps_per_cpu_second"] / GOAL_STEPS_PER_SECOND, 2),
                      "heuristic_hands_per_cpu_second": bots,
                      "presets": summary, "windows": windowed}))


if __name__ == "__main__":
    main()
