"""The AI review (复盘, issue 32): ``kawuxing review RECORD --seat N``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kawuxing.agents import make_agent
from kawuxing.engine.match import Match
from kawuxing.engine.observation import observe
from kawuxing.records import hand_record
from kawuxing.review import ReviewError, review
from kawuxing.rules import RuleSet


def played(seed: str, bots=("heuristic:1", "expert", "random"), stop: int | None = None) -> dict:
    hand = Match(RuleSet.preset(), seed, windows=True).hand
    agents = [make_agent(b, f"{seed}/{s}") for s, b in enumerate(bots)]
    while not hand.ended and (stop is None or len(hand.actions) < stop):
        seat = hand.to_act()[0]
        hand.apply(agents[seat].act(observe(hand, seat), hand.legal_actions(seat)))
    return hand_record(hand, seed)


def test_review_values_losses_and_agreement():
    for n in range(3):
        record = played(f"review/{n}")
        for seat in range(3):
            r = review(record, seat)
            assert r["seat"] == seat and r["decisions"]
            for d in r["decisions"]:
                values = [c["value"] for c in d["choices"]]
                assert d["loss"] >= 0 and values == sorted(values, reverse=True)
                assert d["best"] == d["choices"][0]["action"]  # the best is the top value
                assert record["actions"][d["step"]][0] == seat  # the seat's own decision
                assert record["actions"][d["step"]][1:] == d["chosen"]
                if d["chosen"] == d["best"]:
                    assert d["loss"] == 0
            agree = sum(d["chosen"] == d["best"] for d in r["decisions"])
            assert r["agreement"] == round(agree / len(r["decisions"]), 4)
            assert r["total_loss"] == pytest.approx(sum(d["loss"] for d in r["decisions"]),
                                                    abs=0.011)
            losses = {d["step"]: d["loss"] for d in r["decisions"]}
            assert [losses[s] for s in r["costliest"]] == sorted(
                (v for v in losses.values() if v > 0), reverse=True)[:5]
    # the random seat loses more than the expert's model itself would (0 for its own best)
    rand = review(played("review/0"), 2)
    assert rand["total_loss"] > 0 and rand["agreement"] < 1


def test_review_refuses_a_hand_in_play_and_bad_seats(tmp_path):
    with pytest.raises(ReviewError, match="the hand is not over"):
        review(played("review/live", stop=10), 0)
    cut = played("review/3")
    cut["actions"] = cut["actions"][:20]  # a result, but the actions stop early
    with pytest.raises(ReviewError, match="its actions stop before the end"):
        review(cut, 0)
    with pytest.raises(ReviewError, match="a JSON object is expected"):
        review([1, 2], 0)
    with pytest.raises(ReviewError, match="seats are 0, 1 and 2"):
        review(played("review/1"), 3)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(played("review/2")))
    done = subprocess.run([sys.executable, "-m", "kawuxing.cli", "review", str(path), "--seat",
                           "1", "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout)["seat"] == 1
    text = subprocess.run([sys.executable, "-m", "kawuxing.cli", "review", str(path), "--seat",
                           "1"], capture_output=True, text=True, timeout=120)
    assert text.returncode == 0 and "agreement with the review" in text.stdout
    bad = subprocess.run([sys.executable, "-m", "kawuxing.cli", "review", str(path), "--seat",
                          "7"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.strip() == "error: seat 7: seats are 0, 1 and 2"
