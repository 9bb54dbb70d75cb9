"""Matches (R2, R12) and game records: write, read, replay to any step, `kawuxing replay`."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from kawuxing.cli import app
from kawuxing.engine import Hand, IllegalAction, Match
from kawuxing.engine.views import seat_view, table_view
from kawuxing.records import hand_record, read_record, replay, write_record
from kawuxing.rules import RuleSet


def _play(hand: Hand, rng: random.Random) -> None:
    while not hand.ended:
        seat = hand.to_act()[0]
        actions = hand.legal_actions(seat)
        wins = [a for a in actions if a.verb == "win"]
        hand.apply(wins[0] if wins else rng.choice(actions))


def test_match_rotates_dealer_by_r2_2_and_totals_the_hands():
    """R12.1: hands_per_match hands; R2.2: the next dealer is the winner, the discarder after a
    double win, the same dealer after 荒庄; running totals are the sum of hand deltas."""
    rng = random.Random(5)
    match = Match(RuleSet.preset(hands_per_match=6), seed=11)
    dealers = [match.hand.dealer]
    while True:
        _play(match.hand, rng)
        if match.over:
            break
        previous = match.hand
        match.next_hand()
        assert match.hand.dealer == previous.next_dealer
        dealers.append(match.hand.dealer)
    assert len(match.hands) == 6
    assert match.totals() == [sum(h.deltas[s] for h in match.hands) for s in range(3)]
    assert sum(match.totals()) == 0
    with pytest.raises(RuntimeError):
        match.next_hand()


def test_match_seed_fixes_first_dealer_and_walls_r2_1():
    """R2.1 random first dealer, reproducible for a seed; seat0 option always 0."""
    a, b = Match(RuleSet.preset(), seed="x"), Match(RuleSet.preset(), seed="x")
    assert a.hand.dealer == b.hand.dealer
    assert a.hand.draws == b.hand.draws
    assert Match(RuleSet.preset("strict"), seed="x").hand.dealer == 0


def test_next_hand_refused_while_the_hand_is_in_play():
    match = Match(RuleSet.preset(), seed=1)
    with pytest.raises(RuntimeError, match="not ended"):
        match.next_hand()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_record_replays_every_step_exactly(seed, tmp_path):
    """A record holds rules, tiles and actions: replaying it to step n gives the same views as
    the hand had after n actions, and the full replay the same result."""
    rng = random.Random(seed)
    hand = Hand.deal(RuleSet.preset("app"), seed % 3, seed=seed)
    views_at = []
    while not hand.ended:
        views_at.append([seat_view(hand, s) for s in range(3)])
        seat = hand.to_act()[0]
        hand.apply(rng.choice(hand.legal_actions(seat)))
    views_at.append([seat_view(hand, s) for s in range(3)])
    path = tmp_path / "hand.json"
    write_record(path, hand_record(hand, seed))
    record = read_record(path)
    assert record["result"]["deltas"] == hand.deltas
    for step in (0, len(views_at) // 2, len(views_at) - 1):
        again = replay(record, step)
        assert [seat_view(again, s) for s in range(3)] == views_at[step]
    assert replay(record).events == hand.events


def test_replay_refuses_bad_records_and_steps():
    hand = Hand.deal(RuleSet.preset(), 0, seed=1)
    record = hand_record(hand)
    with pytest.raises(ValueError, match="steps 0-0"):
        replay(record, 3)
    with pytest.raises(ValueError, match="not a kawuxing-hand"):
        replay({"format": "other"})
    bad = json.loads(json.dumps(record))
    bad["actions"] = [[1, "discard", "5p"]]  # seat 1 is not in turn
    with pytest.raises(IllegalAction):
        replay(bad)


def test_replay_cli_shows_one_seat_or_everything(tmp_path):
    runner = CliRunner()
    path = tmp_path / "r.json"
    result = runner.invoke(app, ["selfplay", "--seed", "4", "--out", str(path)])
    assert result.exit_code == 0, result.output
    record = read_record(path)
    hand = replay(record, 5)
    as_seat = runner.invoke(app, ["replay", str(path), "--step", "5", "--seat", "1", "--json"])
    view = json.loads(as_seat.stdout)
    assert view == seat_view(hand, 1)
    everything = json.loads(runner.invoke(app, ["replay", str(path), "--step", "5", "--json"]).stdout)
    assert [e["revealed"] for e in everything["seats"]] == [seat_view(hand, s)["hand"]
                                                            for s in range(3)]
    assert everything == json.loads(json.dumps(table_view(hand)))  # one whole-table view
    bad = runner.invoke(app, ["replay", str(path), "--seat", "7"])
    assert bad.exit_code == 2 and "seats are 0, 1 and 2" in bad.stderr
