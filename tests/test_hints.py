"""Discard hints (kawuxing.agents.hints) and ``kawuxing hint``: shanten, effective tiles, the
value of the waits (R7.3, R9.1), unseen copies from what the player sees (R13)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kawuxing.agents.hints import (DiscardHint, WaitValue, effective_tiles, hand_score,
                                   rank_discards, ready_equivalent, unseen, wait_values)
from kawuxing.cli import app
from kawuxing.melds import Meld
from kawuxing.rules import RuleSet
from kawuxing.shapes import shanten
from kawuxing.tiles import counts_of, kinds_for_suits, parse_tile, parse_tiles

RULES = RuleSet.preset()
KINDS = kinds_for_suits(RULES.suits)
T = parse_tile

# 3 runs of p, 1357s and an isolated 中. By hand: discarding 7z leaves 3 sets + 13s + 57s
# (no pair), 1-shanten. Effective: 2s, 4s, 6s complete a run (123s / 345s / 567s: 4 sets, a
# single wait) — 4 unseen each; 1s, 3s, 5s, 7s pair one of the singles (3 sets + pair +
# partial) — 3 unseen each (one in hand). 3×4 + 4×3 = 24. Any p discard breaks a run:
# 2-shanten. Discarding 1s (or 7s) leaves 3s 57s + 7z: 3s 7s 7z pair (3 each), 4s 6s make
# 345s/567s (4 each): 17.
ISOLATED = "123p 456p 789p 1357s 7z"
KA5 = "46p 234p 123s 789s 99p"  # waits 5p; 46p + 5p is 卡五星 ×2 (R9.1)
EDGE = "34p 678p 123s 789s 99p"  # waits 2p / 5p, no pattern: ×1 (屁胡)


def counts(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def tiles(text: str) -> list[int]:
    return parse_tiles(text)


def test_isolated_honour_ranks_first_with_hand_computed_figures():
    hand = counts(ISOLATED)
    hints = rank_discards(hand, [], hand, RULES)
    assert len(hints) == 14  # every kind held, once
    best = hints[0]
    assert best.tile == T("7z") and best.shanten == 1
    assert best.effective == tuple((k, 4 if k in tiles("246s") else 3) for k in tiles("1234567s"))
    assert best.effective_count == 24
    assert best.waits == () and best.value == 0
    assert best.reason().startswith("1-shanten, 24 effective tiles (7 kinds: 1s 2s 3s 4s 5s 6s 7s)")
    by_tile = {h.tile: h for h in hints}
    assert by_tile[T("1s")].shanten == 1 and by_tile[T("1s")].effective_count == 17
    assert by_tile[T("7s")].effective_count == 17
    assert dict(by_tile[T("1s")].effective) == {T("3s"): 3, T("4s"): 4, T("6s"): 4,
                                                T("7s"): 3, T("7z"): 3}
    assert all(by_tile[k].shanten == 2 for k in tiles("123456789p"))
    assert [h.tile for h in hints[:3]] == tiles("7z 1s 7s")  # ties: lower kind first
    assert hand == counts(ISOLATED)  # the counts are left as they were


def test_unseen_counts_come_from_visible():
    """R13: unseen = 4 − seen, own hand included. With two 2s and two 4s seen elsewhere
    (discards, melds), the 7z discard's effective count drops from 24 to 20."""
    hand = counts(ISOLATED)
    seen = [a + b for a, b in zip(hand, counts("22s 44s"))]
    best = rank_discards(hand, [], seen, RULES)[0]
    assert best.tile == T("7z")
    assert dict(best.effective)[T("2s")] == 2 and dict(best.effective)[T("4s")] == 2
    assert best.effective_count == 20
    # a kind with all four seen is no effective tile at all
    seen = [a + b for a, b in zip(hand, counts("2222s"))]
    assert T("2s") not in dict(rank_discards(hand, [], seen, RULES)[0].effective)
    assert unseen(seen, T("2s")) == 0 and unseen(hand, T("2s")) == 4
    assert unseen(hand, T("1s")) == 3


def test_wait_values_kawuxing():
    """R9.1 卡五星: 46p waits 5p, ×2 by self-draw and ×2 on a discard; 4 unseen."""
    assert wait_values(counts(KA5), [], counts(KA5), RULES) == [WaitValue(T("5p"), 4, 2, 2)]
    # 亮倒 doubles it (R8.4): ×4 either way
    assert wait_values(counts(KA5), [], counts(KA5), RULES, declared=True) == [
        WaitValue(T("5p"), 4, 4, 4)]
    seen = [a + b for a, b in zip(counts(KA5), counts("55p"))]
    assert wait_values(counts(KA5), [], seen, RULES) == [WaitValue(T("5p"), 2, 2, 2)]


def test_wait_values_x1_wait_cannot_win_on_a_discard():
    """R7.3: 34p waits 2p / 5p (345p: 5 at the end, no 卡五星), ×1: self-draw only, so the
    discard value is 0. With the option min_multiplier_discard_win = 1 it is ×1."""
    assert wait_values(counts(EDGE), [], counts(EDGE), RULES) == [
        WaitValue(T("2p"), 4, 1, 0), WaitValue(T("5p"), 4, 1, 0)]
    loose = RuleSet.preset(min_multiplier_discard_win=1)
    assert [w.discard for w in wait_values(counts(EDGE), [], counts(EDGE), loose)] == [1, 1]
    hint = rank_discards(counts(EDGE + " 7z"), [], counts(EDGE + " 7z"), RULES)[0]
    assert hint.tile == T("7z") and hint.shanten == 0
    assert "2p (4 left, ×1 self-draw, self-draw only)" in hint.reason()


def test_ready_discard_carries_its_waits_and_value():
    """KA5 + 7z: discarding 7z leaves it ready on 5p (4 unseen, ×2/×2). value = unseen ×
    (2 × self-draw + discard) / 3 (a self-draw is paid by both others) = 4 × 6 / 3 = 8; score
    = −100 + ready_equivalent(4 live) + value = −100 + (5 × 4 + 4³ / 3) + 8."""
    hand = counts(KA5 + " 7z")
    best = rank_discards(hand, [], hand, RULES)[0]
    assert best == DiscardHint(T("7z"), 0, ((T("5p"), 4),), (WaitValue(T("5p"), 4, 2, 2),),
                               8.0, pytest.approx(-100 + 20 + 64 / 3 + 8), ())
    assert best.reason() == "ready, waits 5p (4 left, ×2 self-draw, ×2 on a discard)"


def test_ready_equivalent_counts_live_copies():
    """A ready hand is worth ready_equivalent(live) effective tiles of a 1-shanten hand: −1
    with no live copy (below any 1-shanten hand with a live effective tile), 5 + ⅓ with one,
    24 with three, over 100 (above every 1-shanten hand) from six."""
    assert ready_equivalent(0) == -1
    assert ready_equivalent(1) == pytest.approx(5 + 1 / 3)
    assert ready_equivalent(3) == pytest.approx(24)
    assert ready_equivalent(5) < 100 < ready_equivalent(6)


def test_a_ready_hand_on_dead_waits_ranks_below_a_live_one_shanten_hand():
    """R8.1: KA5 + 5s, with all four 5p seen elsewhere. Throwing 5s keeps the hand ready on 5p
    with no copy left: it ranks below throwing 4p (1-shanten: 3p 5p … live) and 6p. With all
    four 5p still unseen, the ready discard (5s) ranks first again."""
    hand = counts(KA5 + " 5s")
    seen = [a + b for a, b in zip(hand, counts("5555p"))]
    hints = rank_discards(hand, [], seen, RULES)
    by_tile = {h.tile: h for h in hints}
    dead = by_tile[T("5s")]
    assert dead.shanten == 0 and dead.waits == (WaitValue(T("5p"), 0, 2, 2),)
    assert dead.score == -101 and dead.reason().startswith("ready, waits 5p (0 left")
    assert [h.tile for h in hints[:2]] == tiles("4p 6p")
    assert all(h.shanten == 1 for h in hints[:2]) and hints[0].effective_count > 0
    assert rank_discards(hand, [], hand, RULES)[0].tile == T("5s")


def test_hand_score_and_the_speed_only_ranking():
    """hand_score scores 13 tiles as rank_discards scores a discard: KA5 as in the test above
    (tile −1). ``values`` False (heuristic level 1) ranks by shanten and live copies only: no
    multipliers, no 清一色 bonus."""
    ready = hand_score(counts(KA5), [], counts(KA5), RULES)
    assert ready.tile == -1 and ready.shanten == 0 and ready.value == 8.0
    assert ready.score == pytest.approx(-100 + 20 + 64 / 3 + 8)
    fast = hand_score(counts(KA5), [], counts(KA5), RULES, values=False)
    assert fast.value == 0 and fast.score == pytest.approx(-100 + 20 + 64 / 3)
    hand = counts(ISOLATED)
    plain = {h.tile: h for h in rank_discards(hand, [], hand, RULES, values=False)}
    assert plain[T("7z")].score == -100 + 24 and plain[T("7z")].notes == ()


def test_waits_with_melds():
    """Declared melds count as sets (R7.1) and in the value: 46p 234p 123s 99p + pung 7z +
    5z: discard 5z, ready on 5p, 卡五星 ×2."""
    melds = [Meld("pung", T("7z"))]
    hand = counts("46p 234p 123s 99p 5z")
    seen = [a + b for a, b in zip(hand, counts("777z"))]
    best = rank_discards(hand, melds, seen, RULES)[0]
    assert best.tile == T("5z") and best.shanten == 0
    assert best.waits == (WaitValue(T("5p"), 4, 2, 2),)


def test_a_wait_held_four_times_is_no_wait():
    """R8.1: 1234p (with 123p … 4p) would wait 1p and 4p, but with a pung of 4p declared the
    player holds all four 4p: only 1p is a wait (×1, self-draw only, R7.3)."""
    hand = counts("123p 789p 123s 4p")
    seen = [a + b for a, b in zip(hand, counts("444p"))]
    assert wait_values(hand, [Meld("pung", T("4p"))], seen, RULES) == [
        WaitValue(T("1p"), 3, 1, 0)]
    free = counts("1234p 789p 123s 444s")  # no meld: 4p is a wait too
    assert [w.tile for w in wait_values(free, [], free, RULES)] == [T("1p"), T("4p")]


def test_effective_tiles_of_a_13_tile_hand():
    """The 13 tiles left by the 7z discard above: 1-shanten, the same 24 effective copies;
    limited to the kinds asked for."""
    hand = counts("123p 456p 789p 1357s")
    sh, eff = effective_tiles(hand, 0, hand, KINDS)
    assert sh == 1 and sum(n for _, n in eff) == 24
    assert effective_tiles(hand, 0, hand, tiles("2s 9s")) == (1, [(T("2s"), 4)])
    ready = counts(KA5)
    assert effective_tiles(ready, 0, ready, KINDS) == (0, [(T("5p"), 4)])


@settings(max_examples=200, deadline=None)
@given(melds=st.integers(0, 3), seed=st.integers(0, 2**32 - 1))
def test_effective_tiles_skip_only_kinds_that_cannot_help(melds, seed):
    """effective_tiles skips the kinds that do not touch the hand (not held, no held tile of
    their suit within two ranks): the result is that of trying every kind (a random hand of
    13 − 3 × melds tiles, all 84 tiles unseen but the hand)."""
    rng = random.Random(seed)
    hand = counts_of(rng.sample(sorted(KINDS * 4), 13 - 3 * melds))
    base = shanten(hand, melds)
    brute = []
    for kind in KINDS:
        if hand[kind] < 4:
            hand[kind] += 1
            if shanten(hand, melds) < base:
                brute.append((kind, 4 - hand[kind] + 1))
            hand[kind] -= 1
    assert effective_tiles(hand, melds, hand, KINDS) == (base, brute)


def test_danger_and_candidates():
    """``danger`` subtracts from a discard's score and is noted; ``candidates`` limits the
    discards ranked (the bot passes the legal ones)."""
    hand = counts(ISOLATED)
    hints = rank_discards(hand, [], hand, RULES, danger={T("7z"): 1000})
    assert hints[0].tile == T("1s") and hints[-1].tile == T("7z")
    assert "danger 1000" in hints[-1].reason()
    only = rank_discards(hand, [], hand, RULES, candidates=tiles("1p 5s"))
    assert [h.tile for h in only] == tiles("5s 1p")


def test_one_suit_bonus_note():
    """A hand with 9+ tiles of one suit: discarding a dragon or the other suit keeps it on the
    way to 清一色 (R9.1) and says so."""
    hand = counts(ISOLATED)
    hints = {h.tile: h for h in rank_discards(hand, [], hand, RULES)}
    assert "清一色" in hints[T("7z")].reason() and "清一色" in hints[T("1s")].reason()
    assert "清一色" not in hints[T("1p")].reason()


# --------------------------------------------------------------------------------------------
# kawuxing hint
# --------------------------------------------------------------------------------------------

@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, ["hint", *args], env={"COLUMNS": "200", "NO_COLOR": "1"})
    return invoke


def test_cli_hint_shows_the_waits_of_13_tiles(run):
    result = run(KA5)
    assert result.exit_code == 0, result.output
    assert "shanten 0" in result.stdout
    assert "waits 5p: 4 left, ×2 self-draw, ×2 on a discard" in result.stdout
    assert json.loads(run(KA5, "--json").stdout) == {
        "shanten": 0, "effective": [["5p", 4]],
        "waits": [{"tile": "5p", "left": 4, "self_draw": 2, "discard": 2}]}
    out = run(EDGE).stdout
    assert "waits 2p: 4 left, ×1 self-draw, self-draw only (R7.3)" in out
    # --visible lowers the copies left (R13)
    assert json.loads(run(KA5, "--visible", "5p 5p 5p", "--json").stdout)["waits"][0]["left"] == 1
    # melds: 46p 234p 123s 99p + pung 7z is 10 + 3 = 13
    data = json.loads(run("46p 234p 123s 99p", "--meld", "pung:7z", "--json").stdout)
    assert data["waits"] == [{"tile": "5p", "left": 4, "self_draw": 2, "discard": 2}]
    # far from ready: shanten and effective tiles
    data = json.loads(run("123p 456p 789p 1357s", "--json").stdout)
    assert data["shanten"] == 1 and data["waits"] == []
    assert sum(n for _, n in data["effective"]) == 24


@pytest.mark.parametrize("args, message", [
    (["46x 234p 123s 789s 99p"], "'x' at position 2"),
    (["46p 234p 123s 789s 99p", "--visible", "444p"], "more than four of 4p"),
    (["46p 234p 123s 789s 99p", "--visible", "5p5p5p5p5p"], "more than four of 5p"),
    (["46p 234p 123s 789s 9p"], "12 tiles with 0 melds"),
    (["46p 234p 123s 789s 99p 12s"], "15 tiles with 0 melds"),
    (["46p 234p 123s 99p"], "10 tiles with 0 melds"),
    (["46p 234p 123s 789s 99m"], "outside the suits in play"),
    (["46p 234p 123s 99p 7z", "--meld", "exposed_kong:7z"], "more than four of 7z"),
    (["46p 234p 123s 99p", "--meld", "bad"], "bad meld"),
    (["46p 234p 123s 789s 99p", "--rules", "nope"], "nope"),
])
def test_cli_hint_errors(run, args, message):
    """Bad tiles, a fifth copy between the hand, melds and --visible (R1.1), a wrong count:
    exit 2 with one error line on stderr."""
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
