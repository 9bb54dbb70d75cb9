"""Duplicate-format bot matches (kawuxing.arena) and ``kawuxing arena``: the seat arrangements,
determinism across workers, zero-sum deals (R6.6, R7.2, R10), the statistics on a hand-made
input, the CLI's bad inputs and the chart."""

from __future__ import annotations

import json
import math
import statistics

import pytest
from typer.testing import CliRunner

from kawuxing.arena import (DealResult, HandResult, arrangements, check_arena_bots, deal_means,
                            mean_ci, play_deal, run_arena, summarize, t_quantile_975)
from kawuxing.cli import app
from kawuxing.rules import RuleSet

RULES = RuleSet.preset()
T_975_DF2 = 4.302652729749462  # Student t, 97.5% quantile, 2 degrees of freedom (tables: 4.303)


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, ["arena", *args], env={"COLUMNS": "200", "NO_COLOR": "1"})
    return invoke


def last_json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout.strip().splitlines()[-1])


def without_times(data: dict) -> dict:
    """The report without what the clock decides (wall seconds, decision times)."""
    data = {k: v for k, v in data.items() if k != "seconds"}
    data["bots"] = {b: {k: v for k, v in s.items() if k != "decision_ms"}
                    for b, s in data["bots"].items()}
    return data


def test_arrangements_of_two_bots():
    """A, B: the six arrangements; each bot holds each seat three times, 9 seat-hands a deal."""
    got = arrangements(["A", "B"])
    assert got == [("A", "B", "B"), ("B", "A", "B"), ("B", "B", "A"),
                   ("A", "A", "B"), ("A", "B", "A"), ("B", "A", "A")]
    for seat in range(3):
        assert [a[seat] for a in got].count("A") == 3
    assert sum(a.count("A") for a in got) == sum(a.count("B") for a in got) == 9


def test_arrangements_of_three_bots():
    """A, B, C: the six permutations, each bot once in each seat twice over."""
    assert arrangements(["A", "B", "C"]) == [
        ("A", "B", "C"), ("A", "C", "B"), ("B", "A", "C"),
        ("B", "C", "A"), ("C", "A", "B"), ("C", "B", "A")]
    with pytest.raises(ValueError):
        arrangements(["A"])


def test_check_arena_bots():
    assert check_arena_bots([" random", "heuristic:1 "]) == ["random", "heuristic:1"]
    for bad in (["random"], ["heuristic", "heuristic:3"], ["random", "nope"],
                ["random", "heuristic:1", "heuristic:2", "heuristic:3"]):
        with pytest.raises(ValueError):
            check_arena_bots(bad)


def test_a_deal_is_zero_sum_and_one_wall():
    """Every hand's seat scores sum to zero, so for two bots with 9 seat-hands each a's mean
    is minus b's; the same deal plays the same games again."""
    deal = play_deal(RULES, ["heuristic:2", "random"], 7, 4)
    assert [h.seats for h in deal.hands] == arrangements(["heuristic:2", "random"])
    assert all(sum(h.deltas) == 0 for h in deal.hands)
    means = deal_means(deal, ["heuristic:2", "random"])
    assert math.isclose(9 * means["heuristic:2"] + 9 * means["random"], 0, abs_tol=1e-9)
    assert len(deal.wall["heuristic:2"]) > 0 and len(deal.wall["random"]) > 0
    again = play_deal(RULES, ["heuristic:2", "random"], 7, 4)
    assert [h.deltas for h in again.hands] == [h.deltas for h in deal.hands]


def test_heuristic_beats_random():
    """heuristic:3 against random over 8 deals: a positive mean difference; with two bots the
    difference is twice a's mean (zero-sum hands, equal seat-hands)."""
    report = run_arena(["heuristic:3", "random"], 8, RULES, seed=7, workers=1)
    pair = report.pairs[0]
    assert (pair.a, pair.b, pair.deals, pair.hands) == ("heuristic:3", "random", 8, 48)
    assert pair.mean_diff > 0
    assert math.isclose(pair.mean_diff, 2 * report.per_bot["heuristic:3"].mean)
    assert math.isclose(report.per_bot["random"].mean, -report.per_bot["heuristic:3"].mean)
    assert pair.ci95[0] <= pair.mean_diff <= pair.ci95[1]
    assert report.per_bot["heuristic:3"].seat_hands == 72
    assert report.per_bot["heuristic:3"].rating[0] > report.per_bot["random"].rating[0]


def _hand(seats, deltas, winners=(), dealt_in=None, bao=None, payees=(),
          declared=(False, False, False), multipliers=None) -> HandResult:
    return HandResult(seats, deltas, winners, dealt_in, bao, payees, declared,
                      multipliers or {})


def test_statistics_on_a_tiny_input():
    """Three one-hand deals of A, B worked by hand:

    deal 0 (A,B,B) +4 −2 −2, A wins by self-draw ×2: A 4, B −2, diff 6;
    deal 1 (B,A,B) −1 +2 −1, A wins ×4 on seat 0's discard, 包胡, A declared: A 2, B −1, diff 3;
    deal 2 (B,B,A) 0 0 0, 荒庄: diff 0.
    diffs 6, 3, 0: mean 3, s 3, CI 3 ± t(0.975, 2)·3/√3; A's means 4, 2, 0: mean 2, s 2.
    """
    deals = [
        DealResult(0, [_hand(("A", "B", "B"), (4, -2, -2), (0,), multipliers={0: 2})],
                   {"A": [0.001, 0.003], "B": [0.002]}, {"A": [0.001, 0.001], "B": [0.0]}),
        DealResult(1, [_hand(("B", "A", "B"), (-1, 2, -1), (1,), 0, 0, (1,),
                             (False, True, False), {1: 4})]),
        DealResult(2, [_hand(("B", "B", "A"), (0, 0, 0))]),
    ]
    report = summarize(list(reversed(deals)), ["A", "B"], seed=1, rules="standard")
    pair = report.pairs[0]
    assert (pair.a, pair.b, pair.deals, pair.hands) == ("A", "B", 3, 3)
    assert pair.mean_diff == 3
    half = T_975_DF2 * 3 / math.sqrt(3)
    assert pair.ci95 == pytest.approx((3 - half, 3 + half))
    assert pair.ci95 == pytest.approx((-4.4524, 10.4524), abs=1e-4)
    a, b = report.per_bot["A"], report.per_bot["B"]
    assert a.mean == 2 and a.ci95 == pytest.approx((2 - T_975_DF2 * 2 / math.sqrt(3),
                                                    2 + T_975_DF2 * 2 / math.sqrt(3)))
    assert b.mean == -1
    assert (a.seat_hands, b.seat_hands) == (3, 6)
    assert a.win_rate == pytest.approx(2 / 3) and b.win_rate == 0
    assert a.deal_in_rate == 0 and b.deal_in_rate == pytest.approx(1 / 6)
    assert b.bao_hu_paid == pytest.approx(1 / 6) and a.bao_hu_won == pytest.approx(1 / 3)
    assert a.bao_hu_paid == 0 and b.bao_hu_won == 0
    assert a.declare_rate == pytest.approx(1 / 3) and b.declare_rate == 0
    assert a.avg_multiplier == 3 and b.avg_multiplier is None
    # wall times 1 and 3 ms: mean 2, p99 (linear, inclusive) 1 + 0.99·2 = 2.98; CPU 1 ms
    assert a.decision_ms == pytest.approx(2) and a.decision_p99_ms == pytest.approx(2.98)
    assert a.cpu_ms == pytest.approx(1) and a.decisions == 2
    # A ranked first in two deals, a tie in the third: rated above B; ordinal = mu - 3 sigma
    assert a.rating[0] > 25 > b.rating[0]
    assert a.rating[2] == pytest.approx(a.rating[0] - 3 * a.rating[1])
    data = report.to_json()
    assert data["pairs"][0] == {"a": "A", "b": "B", "mean_diff": 3.0,
                                "ci95": [-4.4524, 10.4524], "deals": 3, "hands": 3}
    assert data["bots"]["B"]["avg_multiplier"] is None
    assert data["bots"]["A"]["decision_ms"] == {"mean": 2.0, "p99": 2.98, "cpu_mean": 1.0}
    one = summarize(deals[:1], ["A", "B"])
    assert one.pairs[0].ci95 is None and one.to_json()["pairs"][0]["ci95"] == [None, None]


def test_cli_same_seed_same_json_whatever_the_workers(run):
    """3 deals of random against heuristic:1: 1 or 2 processes print the same figures (the
    times aside); another seed plays other games."""
    args = ["--bots", "random,heuristic:1", "--deals", "3", "--seed", "5", "--json"]
    one = last_json(run(*args, "--workers", "1"))
    two = last_json(run(*args, "--workers", "2"))
    assert without_times(one) == without_times(two)
    assert (one["deals"], one["hands"], one["seed"], one["rules"]) == (3, 18, 5, "standard")
    assert set(one["bots"]) == {"random", "heuristic:1"}
    assert set(one["bots"]["random"]) == {"mean", "ci95", "win_rate", "deal_in_rate",
                                          "bao_hu_paid", "bao_hu_won", "declare_rate",
                                          "avg_multiplier", "decision_ms", "rating"}
    other = last_json(run(*args[:4], "--seed", "6", "--json", "--workers", "1"))
    assert without_times(other) != without_times(one)


@pytest.mark.parametrize("args, message", [
    (["--bots", "nope,random"], "unknown bot 'nope'"),
    (["--bots", "heuristic:9,random"], "heuristic levels are 1, 2 and 3"),
    (["--bots", "random"], "got 1"),
    (["--bots", "random,,heuristic"], "bot 2 of 3 has no name"),
    (["--bots", "expert,heuristic:3,"], "bot 3 of 3 has no name"),
    (["--bots", "heuristic,heuristic"], "nothing to compare"),
    (["--bots", "heuristic,heuristic:3"], "nothing to compare"),
    (["--bots", "random,heuristic:1,heuristic:2,heuristic:3"], "at most 3 bots"),
    (["--deals", "0"], "--deals must be from 1 to 1,000,000"),
    (["--deals", "-2"], "--deals must be from 1 to 1,000,000"),
    (["--deals", "1000001"], "--deals must be from 1 to 1,000,000"),
    (["--workers", "-1"], "--workers must be 0"),
    (["--rules", "nope"], "unknown preset 'nope'"),
    (["--option", "nope=1"], "unknown option 'nope'"),
    (["--chart", "/no/such/folder/x.png"], "does not exist"),
    (["--chart", "chart.txt"], "must end in .png"),
])
def test_cli_bad_input(run, args, message):
    """Exit status 2, nothing on stdout, one line on stderr starting with error:."""
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and message in lines[0]


def test_cli_chart(run, tmp_path):
    """--chart writes a PNG; the tables and the summary line are printed."""
    pytest.importorskip("matplotlib")
    path = tmp_path / "arena.png"
    result = run("--bots", "random,heuristic:1", "--deals", "2", "--workers", "1",
                 "--chart", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "2 deals, 12 hands" in result.stdout and "mean diff/hand" in result.stdout


def test_a_player_built_in_python_plays_as_the_registry_bot_it_wraps():
    """``players``: a factory called with each seat's seed; a RandomAgent built so plays
    exactly as the registry's ``random`` (same seeds, same actions, same scores)."""
    from kawuxing.agents import RandomAgent

    seeds: list[str] = []

    def build(seed: str) -> RandomAgent:
        seeds.append(seed)
        return RandomAgent(seed)

    rules = RuleSet.preset()
    mine = run_arena(["mine", "heuristic"], 2, rules, seed=3, players={"mine": build})
    theirs = run_arena(["random", "heuristic"], 2, rules, seed=3)
    assert mine.hands == 12
    assert mine.per_bot["mine"].mean == theirs.per_bot["random"].mean
    assert mine.pairs[0].mean_diff == theirs.pairs[0].mean_diff
    assert sorted(set(seeds)) == [f"3/deal/{d}/seat/{s}" for d in (0, 1) for s in range(3)]
    with pytest.raises(ValueError, match="same bot"):
        check_arena_bots(["mine", "mine"], {"mine": build})


@pytest.mark.parametrize("df, quantile", [(1, 12.706205), (2, 4.302653), (9, 2.262157),
                                           (30, 2.042272), (999, 1.962341), (5999, 1.960360)])
def test_the_t_quantile_of_the_95_interval_is_students(df, quantile):
    """The CI's factor without scipy: Student's t 0.975 quantiles as tables print them."""
    assert t_quantile_975(df) == pytest.approx(quantile, abs=1e-6)


def test_mean_ci_of_three_values():
    mean, (low, high) = mean_ci([1.0, 2.0, 6.0])
    half = 4.302653 * statistics.stdev([1.0, 2.0, 6.0]) / 3 ** 0.5
    assert mean == 3.0 and (low, high) == pytest.approx((3 - half, 3 + half), abs=1e-5)
    with pytest.raises(ValueError, match="at least 1"):
        t_quantile_975(0)
