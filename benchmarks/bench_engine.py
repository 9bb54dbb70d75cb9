"""Engine speed: random legal agents playing full hands in one process (issue: >= 10,000
steps/s per core). A step is one accepted action, its legal actions listed first as an agent
would. Prints steps/s and hands/s per rule preset, and as the last line one JSON object.
Hands are played on the self-play fast path (``windows=False``: a claim window opens only when
a seat holds an option, as ``kawuxing simulate`` plays); the standard preset is also played
with a window after every discard (R13.2, as the server and the research environment do), where
the seats without an option answer ``pass`` — more steps for the same hand.

    python benchmarks/bench_engine.py [--hands N]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from kawuxing.engine import Hand
from kawuxing.rules import RuleSet

GOAL_STEPS_PER_SECOND = 10_000


def play(rules: RuleSet, hands: int, seed: int,
         windows: bool = False) -> tuple[int, float, dict[str, int]]:
    """Play ``hands`` hands with agents that take a legal action at random (a win when they
    can, so hands end both ways). Returns (steps, seconds, results)."""
    rng = random.Random(seed)
    steps = 0
    results: dict[str, int] = {}
    start = time.perf_counter()
    for n in range(hands):
        hand = Hand.deal(rules, n % 3, seed=f"{seed}/{n}", piao=[0, 0, 0], windows=windows)
        while not hand.ended:
            seat = hand.to_act()[0]
            actions = hand.legal_actions(seat)
            wins = [a for a in actions if a.verb == "win"]
            hand.apply(wins[0] if wins else rng.choice(actions))
            steps += 1
        results[hand.result] = results.get(hand.result, 0) + 1
    return steps, time.perf_counter() - start, results


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=2000)
    args = ap.parse_args()
    summary = {}
    for preset in ("standard", "capped", "strict"):
        play(RuleSet.preset(preset), 50, 99)  # warm the shape caches
        steps, seconds, results = play(RuleSet.preset(preset), args.hands, 1)
        rate = steps / seconds
        print(f"{preset:9s} {args.hands} hands, {steps} steps in {seconds:.2f} s: "
              f"{rate:,.0f} steps/s, {args.hands / seconds:,.1f} hands/s, "
              f"{rate / GOAL_STEPS_PER_SECOND:.2f}× the goal; results {results}")
        summary[preset] = {"steps_per_second": round(rate), "hands_per_second":
                           round(args.hands / seconds, 1)}
    steps, seconds, _ = play(RuleSet.preset(), args.hands, 1, windows=True)
    windowed = {"steps_per_second": round(steps / seconds),
                "hands_per_second": round(args.hands / seconds, 1)}
    std = summary["standard"]
    print(f"standard with a window after every discard (R13.2): {steps} steps, "
          f"{windowed['steps_per_second']:,} steps/s, {windowed['hands_per_second']:,} hands/s "
          f"({windowed['hands_per_second'] / std['hands_per_second']:.2f}× the fast path's hands/s)")
    print(json.dumps({"steps_per_second": std["steps_per_second"],
                      "hands_per_second": std["hands_per_second"],
                      "goal_ratio": round(std["steps_per_second"] / GOAL_STEPS_PER_SECOND, 2),
                      "presets": summary, "windows": windowed}))


if __name__ == "__main__":
    main()
