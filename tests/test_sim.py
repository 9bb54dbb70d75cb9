"""Bot-vs-bot simulation (kawuxing.sim) and ``kawuxing simulate``: determinism across workers,
consistent statistics (every hand's scores sum to zero, R6.6/R7.2/R10), records that replay."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from kawuxing.cli import app
from kawuxing.records import replay
from kawuxing.rules import RuleSet
from kawuxing.sim import HandStats, play_match, simulate, summarize

BOTS = ["heuristic", "random", "random"]
RULES = RuleSet.preset()


@pytest.fixture(scope="module")
def report():
    return simulate(60, BOTS, RULES, seed=7, workers=1)


def without_speed(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "hands_per_second"}


def test_same_seed_same_games_whatever_the_workers(report):
    """Match m is shuffled and its agents seeded from f"{seed}/{m}": 1 or 2 processes give
    the same report."""
    two = simulate(60, BOTS, RULES, seed=7, workers=2)
    assert without_speed(two.to_json()) == without_speed(report.to_json())
    assert without_speed(simulate(60, BOTS, RULES, seed=8, workers=1).to_json()) != \
        without_speed(report.to_json())


def test_report_figures_are_consistent(report):
    assert report.hands == 60 and len(report.per_seat) == 3
    assert [s.bot for s in report.per_seat] == BOTS
    for s in report.per_seat:
        for rate in (s.win_rate, s.self_draw_rate, s.deal_in_rate):
            assert 0 <= rate <= 1
        assert s.self_draw_rate <= s.win_rate
        assert s.ci95[0] <= s.mean <= s.ci95[1]
    assert 0 <= report.draw_rate <= 1
    # every hand's deltas sum to zero, so the per-seat means do (up to float error)
    assert math.isclose(sum(s.mean for s in report.per_seat), 0, abs_tol=1e-9)
    # each hand is a draw or has a winner (two on 一炮双响); at most one discarder pays
    assert sum(s.win_rate for s in report.per_seat) + report.draw_rate >= 1 - 1e-9
    assert sum(s.deal_in_rate for s in report.per_seat) <= 1 + 1e-9
    assert all(0 < share <= 1 for share in report.patterns.values())
    assert report.seconds > 0 and report.hands_per_second > 0
    data = report.to_json()
    assert set(data) == {"per_seat", "hands", "draw_rate", "hands_per_second", "patterns"}
    assert set(data["per_seat"][0]) == {"bot", "mean", "ci95", "win_rate", "self_draw_rate",
                                        "deal_in_rate"}


def test_heuristic_beats_random(report):
    """The heuristic seat scores more per hand than either random seat (seed 7, 60 hands:
    the gap is several points per hand)."""
    heuristic, *randoms = report.per_seat
    assert all(heuristic.mean > r.mean for r in randoms)
    assert heuristic.mean > 0 and heuristic.win_rate > max(r.win_rate for r in randoms)


def test_records_replay_to_the_same_scores():
    """keep_records: one record per hand; replaying each (kawuxing.records.replay) gives the
    same deltas and winners, and their means are the report's."""
    progress = []
    report = simulate(20, ["heuristic:2", "random", "heuristic:1"], RULES, seed=3, workers=1,
                      keep_records=True, progress=progress.append)
    assert sum(progress) == 20 and progress == [8, 8, 4]  # matches of hands_per_match = 8
    assert len(report.records) == 20
    totals = [0, 0, 0]
    for record in report.records:
        hand = replay(record)
        assert hand.ended
        assert hand.deltas == record["result"]["deltas"]
        assert hand.winners == record["result"]["winners"]
        assert sum(hand.deltas) == 0
        totals = [t + d for t, d in zip(totals, hand.deltas)]
    assert [round(t / 20, 9) for t in totals] == [round(s.mean, 9) for s in report.per_seat]
    assert simulate(5, BOTS, RULES, seed=3).records == []


def test_dealer_rotates_within_a_match():
    """R2.2 / R12.1: within a match each hand's dealer is the one the previous hand chose."""
    stats = play_match(RULES, BOTS, seed=5, number=0, hands=6, keep_records=True)
    assert len(stats) == 6
    hands = [replay(s.record) for s in stats]
    for before, after in zip(hands, hands[1:]):
        assert after.dealer == before.next_dealer


def test_dealt_in_is_the_payer_of_the_hand_value_by_kind():
    """R7.2/R8.4: a win on a discard (or a robbed kong) is paid by the seat the win event
    names as ``from``; the statistics find it by the transfer's kind (hand_value or bao_hu),
    and every winner's hand counts its pattern rows (屁胡 for none, R9.1)."""
    checked = 0
    for number in range(4):
        for stats in play_match(RULES, BOTS, seed=11, number=number, hands=8, keep_records=True):
            hand = replay(stats.record)
            wins = [e for e in hand.events if e["type"] == "win"]
            if not wins:
                assert stats.dealt_in is None and stats.patterns == ()
                continue
            if wins[0]["by"] == "self_draw":
                assert stats.dealt_in is None
            else:
                assert stats.dealt_in == wins[0]["from"] is not None
                checked += 1
            assert len(stats.patterns) == sum(len(e["patterns"]) or 1 for e in wins)
    assert checked > 0


def test_simulate_errors():
    with pytest.raises(ValueError, match="three bots"):
        simulate(10, ["heuristic", "random"], RULES)
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(10, ["heuristic", "random", "foo"], RULES)
    with pytest.raises(ValueError, match="heuristic levels"):
        simulate(10, ["heuristic:4", "random", "random"], RULES)
    with pytest.raises(ValueError, match="at least 1"):
        simulate(0, BOTS, RULES)
    with pytest.raises(ValueError, match="at least 1"):
        simulate(10, BOTS, RULES, workers=0)


def test_summarize_by_hand():
    """Four hands computed by hand: seat 0 self-draws a 卡五星 (both others pay, R7.2); seat 0
    deals in to seat 1's 亮倒 hand; seat 2 self-draws a 屁胡 (no pattern, R9.1); a draw."""
    stats = [HandStats((4, -2, -2), (0,), True, None, ("卡五星",)),
             HandStats((-2, 2, 0), (1,), False, 0, ("亮倒",)),
             HandStats((-1, -1, 2), (2,), True, None, ("屁胡",)),
             HandStats((0, 0, 0), (), False, None, ())]
    report = summarize(stats, BOTS, 2.0)
    s0, s1, s2 = report.per_seat
    assert (s0.mean, s1.mean, s2.mean) == (0.25, -0.25, 0.0)
    # seat 0 scores 4, -2, -1, 0: squared deviations 14.0625 + 5.0625 + 1.5625 + 0.0625
    # = 20.75, sample variance 20.75 / 3, half-width 1.96 × sqrt(variance / 4)
    half = 1.96 * math.sqrt(20.75 / 3 / 4)
    assert s0.ci95 == pytest.approx((0.25 - half, 0.25 + half))
    assert (s0.win_rate, s0.self_draw_rate, s0.deal_in_rate) == (0.25, 0.25, 0.25)
    assert (s1.win_rate, s1.self_draw_rate, s1.deal_in_rate) == (0.25, 0, 0)
    assert (s2.win_rate, s2.self_draw_rate, s2.deal_in_rate) == (0.25, 0.25, 0)
    assert report.draw_rate == 0.25
    assert report.patterns == {"卡五星": 0.25, "亮倒": 0.25, "屁胡": 0.25}
    assert report.hands_per_second == 2.0


# --------------------------------------------------------------------------------------------
# kawuxing simulate
# --------------------------------------------------------------------------------------------

@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, ["simulate", *args], env={"COLUMNS": "200", "NO_COLOR": "1"})
    return invoke


GAMES = ["--games", "12", "--bots", "heuristic,random,random", "--seed", "1", "--workers", "1"]


def test_cli_simulate_json(run):
    result = run(*GAMES, "--json")
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    data = json.loads(lines[-1])
    assert set(data) == {"per_seat", "hands", "draw_rate", "hands_per_second", "patterns"}
    assert data["hands"] == 12
    assert [s["bot"] for s in data["per_seat"]] == BOTS
    assert "12 hands" in result.stdout and "win" in result.stdout  # the table and summary
    expected = simulate(12, BOTS, RULES, seed=1, workers=1).to_json()
    assert without_speed(data) == without_speed(expected)


def test_cli_simulate_writes_records(run, tmp_path):
    out = tmp_path / "hands.jsonl"
    result = run(*GAMES, "--out", str(out))
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 12
    for line in lines:
        record = json.loads(line)
        assert replay(record).deltas == record["result"]["deltas"]


@pytest.mark.parametrize("args, message", [
    (["--bots", "heuristic,foo,random"], "unknown bot 'foo'"),
    (["--bots", "heuristic,random"], "three bots"),
    (["--bots", "heuristic:4,random,random"], "heuristic levels"),
    (["--games", "0"], "--games must be at least 1"),
    (["--workers", "-1"], "--workers"),
    (["--rules", "nope"], "nope"),
    (["--option", "cap=x"], "cap"),
])
def test_cli_simulate_errors(run, args, message):
    """Bad input: exit 2 with exactly one error line on stderr (no progress-bar residue)."""
    result = run("--games", "3", "--workers", "1", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
