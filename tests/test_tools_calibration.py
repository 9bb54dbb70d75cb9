"""tools/ev_calibration.py (issue 11): the expert's ev at each of its decisions against the
money its seat then received and paid, grouped, with a CI clustered by deal."""

import importlib.util
import json
import pathlib
import subprocess
import sys

import pytest

from kawuxing.arena import play_deal
from kawuxing.rules import RuleSet

TOOL = pathlib.Path(__file__).parent.parent / "tools" / "ev_calibration.py"
spec = importlib.util.spec_from_file_location("ev_calibration", TOOL)
calibration = importlib.util.module_from_spec(spec)
spec.loader.exec_module(calibration)


def test_the_first_decision_of_the_dealer_collects_the_whole_hand():
    # deal 0: the expert is the dealer, seat 0 (the arena's arrangement expert, heuristic:3,
    # heuristic:3); its first discard comes before any transfer of the hand
    rows = calibration.play((7, 0))
    arena = play_deal(RuleSet.preset(), ["expert", "heuristic:3"], 7, 0).hands[0]
    assert arena.seats == ("expert", "heuristic:3", "heuristic:3")
    first = rows[0]
    assert first["received"] - first["paid"] == arena.deltas[0]
    assert all(r["received"] >= 0 and r["paid"] >= r["self_draws"] >= 0 and r["deal"] == 0
               for r in rows)
    assert len(rows) >= 3 and all(r["shanten"] in ("0 declared", "0 concealed", "1", "2", "3+")
                                  for r in rows)
    assert rows == calibration.play((7, 0))  # the same seed, the same hand


def test_the_seats_turn_round_the_dealer():
    # deal 3: the dealer is seat 0 and the expert seat 1; nothing is transferred before its
    # first discard, so that decision collects the seat's whole score of the arena's
    # arrangement (heuristic:3, expert, heuristic:3)
    rows = calibration.play((7, 3))
    arena = play_deal(RuleSet.preset(), ["expert", "heuristic:3"], 7, 3).hands[1]
    assert arena.seats == ("heuristic:3", "expert", "heuristic:3")
    assert rows[0]["received"] - rows[0]["paid"] == arena.deltas[1]


def test_an_opponents_self_draw_is_what_the_model_leaves_out():
    # deal 1: the dealer and the expert are seat 1; seat 2 self-draws a ×2 hand (R7.2: both
    # others pay 2) and nothing else is paid, so the expert's first decision pays 2, all of it
    # for that self-draw (the arena's arrangement heuristic:3, expert, heuristic:3)
    arena = play_deal(RuleSet.preset(), ["expert", "heuristic:3"], 7, 1).hands[1]
    assert arena.seats == ("heuristic:3", "expert", "heuristic:3")
    assert (arena.winners, arena.dealt_in, arena.multipliers, arena.deltas) == (
        (2,), None, {2: 2}, (-2, -2, 4))
    first = calibration.play((7, 1))[0]
    assert (first["received"], first["paid"], first["self_draws"]) == (0, 2, 2)


def test_the_ci_is_clustered_by_deal():
    rows = [{"deal": 0, "received": 4, "paid": 0, "self_draws": 0},
            {"deal": 0, "received": 4, "paid": 0, "self_draws": 0},
            {"deal": 1, "received": 0, "paid": 2, "self_draws": 2},
            {"deal": 1, "received": 0, "paid": 2, "self_draws": 2}]
    mean, ci = calibration.clustered_ci(rows)
    # mean 1; deal sums of (x - mean): +6 and -6; se = sqrt(72 * 2 / 1) / 4 = 3; two deals:
    # Student's t(0.975, 1) = 12.706
    assert mean == 1.0 and ci == pytest.approx((1.0 - 12.706 * 3, 1.0 + 12.706 * 3), abs=0.01)
    assert calibration.clustered_ci(rows[:2]) == (4.0, None)
    groups = calibration.summary([dict(r, ev=1.5) for r in rows], "deal")
    assert [(g["key"], g["n"], g["ev"], g["real"], g["ci95"], g["paid"], g["model"])
            for g in groups] == [(0, 2, 1.5, 4.0, None, 0.0, 4.0),
                                 (1, 2, 1.5, -2.0, None, 2.0, 0.0)]


def test_a_small_run_prints_every_group():
    done = subprocess.run([sys.executable, str(TOOL), "--deals", "2", "--workers", "1",
                           "--by", "shanten,wall"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert set(report["groups"]) == {"shanten", "wall"} and report["deals"] == 2
    assert sum(g["n"] for g in report["groups"]["wall"]) == report["decisions"] > 0
    for g in report["groups"]["shanten"]:
        assert abs(g["model"] - g["real"] - g["self_draws"]) < 0.002
