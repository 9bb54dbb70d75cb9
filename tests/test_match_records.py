"""Matches (R2, R12) and game records: write, read, replay to any step, `kawuxing replay`."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from kawuxing.cli import app
from kawuxing.engine import Hand, IllegalAction, Match, new_wall
from kawuxing.engine.views import seat_view, table_view
from kawuxing.records import hand_record, read_record, replay, replay_frames, write_record
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
    with pytest.raises(IllegalAction, match=r"^actions\[0\]: seat 1 discard 5p: ") as err:
        replay(bad)
    assert err.value.where == "actions[0]" and err.value.rule.startswith("R")
    with pytest.raises(IllegalAction, match=r"^actions\[0\]: "):  # the replay page's path too
        replay_frames(bad, 0)


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


# --- the engine reads no OS randomness; a fair match is dealt from what the caller passes ------

def _counter_secret():
    """A stand-in for ``secrets.token_bytes(32)``: 32 distinct, known bytes per call."""
    calls = iter(range(1, 1000))
    return lambda: bytes([next(calls)]) * 32


def test_deal_and_match_need_a_seed_a_wall_or_a_secret_r3_1():
    """The engine never draws randomness itself (R3.1 deals come from the caller)."""
    rules = RuleSet.preset()
    with pytest.raises(TypeError, match="seed .* or the wall"):
        Hand.deal(rules, 0)
    with pytest.raises(TypeError, match="seed is needed"):
        new_wall(rules, None)
    with pytest.raises(TypeError, match="first dealer is random"):
        Match(rules)
    with pytest.raises(TypeError, match="hand 0 has no wall"):
        Match(rules, dealer=2)
    with pytest.raises(ValueError, match="match_id"):
        Match(rules, dealer=1, secret=_counter_secret())
    assert new_wall(rules, 5) == new_wall(rules, 5) != new_wall(rules, 6)


def test_engine_sources_do_not_read_os_randomness():
    """No module of the engine imports ``secrets`` or asks the OS for random bytes."""
    import kawuxing.engine
    from pathlib import Path

    sources = sorted(Path(kawuxing.engine.__file__).parent.glob("*.py"))
    assert len(sources) >= 6
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for needle in ("import secrets", "from secrets", "SystemRandom", "urandom"):
            assert needle not in text, f"{path.name}: {needle}"


def test_fair_match_deals_each_hand_from_its_committed_seed_r3_1():
    """R3.1 (docs/fairness.md): hand n's wall is derive_wall of the n-th secret the caller's
    source returned, with hand id "<match id>/<n>"; the commitment opened by open_next (with
    the entropy sent for it) is the one dealt; the first dealer is the caller's (R2.1)."""
    from kawuxing import fairness

    rules = RuleSet.preset(hands_per_match=3)
    match = Match(rules, secret=_counter_secret(), match_id="m1", dealer=2)
    assert match.number == 0 and match.hand.dealer == 2
    first = match.fair[0]
    assert first.hand_id == "m1/0" and first.seed == bytes([1]) * 32
    dealt = fairness.deal(fairness.derive_wall(rules, first.seed, "m1/0", ["", "", ""]), 2)
    assert match.hand.draws == dealt[1]
    assert sorted(match.hand.seats[0].concealed_tiles()) == sorted(dealt[0][0])
    assert match.open_next() is None  # the hand is in play: nothing to commit to yet
    _play(match.hand, random.Random(3))
    opened = match.open_next()
    assert (opened.number, opened.hand_id, opened.seed) == (1, "m1/1", bytes([2]) * 32)
    assert opened.dealer == match.hand.next_dealer
    assert match.open_next() is opened  # drawn once
    opened.entropy[1] = "abc"
    match.next_hand()
    assert match.number == 1 and match.fair[1] is opened and match.pending is None
    wall = fairness.derive_wall(rules, opened.seed, "m1/1", ["", "abc", ""])
    assert match.hand.draws == fairness.deal(wall, opened.dealer)[1]
    # storing the deal failed: the hand is forgotten and the same commitment is open again
    match.drop_last()
    assert match.number == 0 and match.pending is opened and len(match.fair) == 1
    match.next_hand()
    assert match.hand.draws == fairness.deal(wall, opened.dealer)[1]


def test_fair_match_first_commitment_walls_and_restore():
    """The first hand's HandSeed (announced before the match with its dealer) is dealt; test
    walls come first without fairness data; a restored match goes on fairly."""
    from kawuxing import fairness
    from kawuxing.engine.match import HandSeed

    rules = RuleSet.preset(hands_per_match=3)
    first = HandSeed.for_hand("m2", 0, 1, bytes(range(32)))
    match = Match(rules, secret=_counter_secret(), match_id="m2", first=first, dealer=0)
    assert match.hand.dealer == 1 and match.fair == [first] and match.pending is None
    assert match.hand.draws == fairness.deal(first.wall(rules), 1)[1]
    walled = Match(rules, walls=[new_wall(rules, 9)], secret=_counter_secret(),
                   match_id="m3", dealer=0)
    assert walled.fair == [None]
    assert walled.hand.draws == fairness.deal(new_wall(rules, 9), 0)[1]
    _play(walled.hand, random.Random(4))
    assert walled.open_next().hand_id == "m3/1"
    again = Match.restore(rules, list(walled.hands), [None], "m3", secret=_counter_secret())
    assert again.number == 0 and again.fair == [None]
    assert again.open_next().seed == bytes([1]) * 32
    again.next_hand()
    assert again.number == 1 and again.fair[1].hand_id == "m3/1"
    with pytest.raises(ValueError, match="at least one hand"):
        Match.restore(rules, [])
