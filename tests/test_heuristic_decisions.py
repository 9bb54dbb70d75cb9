"""The heuristic bot's decisions on concrete hands, level by level (kawuxing.agents.heuristic,
.declare, .defence): 亮倒 by expected value (R8, R10.2), live waits over shanten (R8.1), the
concealed kong (R6.1), defence against concealed players (R7.3, R9.1), pungs (R4.2), the
discard after one's own kong (杠上炮) and 漂 (R11.1).

Each test builds a real hand (``deal`` of test_agents: the named seats' tiles, the first
draws, the rest of the wall filled in) and asks the bot for the seat's decision; where a test
needs a later point of the hand, it edits the observation's ``wall_left`` or ``visible`` and
says so.
"""

from __future__ import annotations

import dataclasses

import pytest

from kawuxing.agents import HeuristicAgent
from kawuxing.agents.declare import compensation, declare_gain
from kawuxing.agents.defence import FOURTH_OF_PUNG, KAWUXING, MIDDLE, flush_suit, risk
from kawuxing.agents.hints import rank_discards, wait_values
from kawuxing.engine import CONCEALED_KONG, DISCARD, PASS, PIAO, PUNG, TURN, Action
from kawuxing.engine.observation import observe
from kawuxing.rules import RuleSet

from test_agents import KA5, RULES, T, choose, deal, step, tsumogiri


def _to_turn(hand) -> None:
    while hand.phase != TURN:
        hand.apply(Action(hand.to_act()[0], PASS))


def _gain(obs, tile: int) -> float:
    """declare_gain of discarding ``tile`` from the seat's hand."""
    counts = list(obs.concealed)
    counts[tile] -= 1
    return declare_gain(obs, wait_values(counts, [], obs.visible, obs.rules),
                        wait_values(counts, [], obs.visible, obs.rules, declared=True))


# --- 亮倒 by expected value (R8) --------------------------------------------------------------

def test_declares_after_another_player_declared():
    """Seat 0 declares 亮倒 (KA5, waits 5p). Seat 1 then gets ready by discarding 7z, on 2s 5s
    8s (×1 concealed: self-draw only, R7.3). Declaring is worth more: ×2 for 亮倒 makes its
    waits discard-winnable, and the declared seat 0 must throw every tile it draws (R8.2),
    paying double when it is a wait (包胡, R8.4). Levels 2 and 3 declare (level 3 used to stay
    concealed once anyone had declared); level 1 never declares."""
    hand = deal({0: KA5, 1: "11p 234s 567s 789s 13s"}, "7z 7z")
    step(hand, Action(0, DISCARD, T("7z"), True))
    _to_turn(hand)
    obs = observe(hand, 1)
    assert hand.current == 1 and obs.declared == (True, False, False)
    concealed = list(obs.concealed)
    concealed[T("7z")] -= 1
    assert [(w.tile, w.self_draw, w.discard) for w in wait_values(
        concealed, [], obs.visible, RULES)] == [(T("2s"), 1, 0), (T("5s"), 1, 0), (T("8s"), 1, 0)]
    assert _gain(obs, T("7z")) > 0
    assert choose(HeuristicAgent(1), hand, 1) == Action(1, DISCARD, T("7z"))
    for level in (2, 3):
        assert choose(HeuristicAgent(level), hand, 1) == Action(1, DISCARD, T("7z"), True)


def test_declare_gain_follows_live_waits_and_the_wall():
    """(``visible`` and ``wall_left`` edited.) KA5 + 7z: discarding 7z leaves 46p waiting 5p
    (卡五星). With every 5p seen the waits are dead: no gain, only the R10.2 compensation to
    risk — the bot does not even stay ready (it breaks the hand, see below). With 4 live 5p
    early in the wall the gain is positive and levels 2-3 declare; with 4 tiles left the
    compensation (−2 if nobody wins) outweighs it and they stay concealed."""
    hand = deal({0: KA5}, "7z")
    obs, legal = observe(hand, 0), hand.legal_actions(0)

    def seen(n_5p, wall):
        visible = list(obs.visible)
        visible[T("5p")] = 4 - n_5p
        return dataclasses.replace(obs, visible=tuple(visible), wall_left=wall)
    assert _gain(seen(0, 40), T("7z")) < 0
    assert _gain(seen(4, 40), T("7z")) > 0
    assert _gain(seen(4, 4), T("7z")) < 0
    for level in (2, 3):
        agent = HeuristicAgent(level)
        assert agent.act(seen(4, 40), legal) == Action(0, DISCARD, T("7z"), True)
        assert agent.act(seen(4, 4), legal) == Action(0, DISCARD, T("7z"))
        assert agent.act(seen(0, 40), legal).tile != T("7z")


def test_a_x1_hand_declares_for_the_discard_wins():
    """R7.3 + R8.4: 34p 678p 123s 789s 99p waits 2p / 5p at ×1 (self-draw only). 亮倒 makes
    both ×2, winnable on any discard: levels 2 and 3 declare with the 7z discard."""
    hand = deal({0: "34p 678p 123s 789s 99p"}, "7z")
    obs = observe(hand, 0)
    assert _gain(obs, T("7z")) > 0
    for level in (2, 3):
        assert choose(HeuristicAgent(level), hand, 0) == Action(0, DISCARD, T("7z"), True)


@pytest.mark.parametrize("mode, none, mine, other", [
    ("per_declarer", (0, -2), (1, -1), None),
    ("first_declarer", (0, -2), (1, 1), None),
    ("none", (0, 0), (0, 0), None),
])
def test_compensation_of_a_drawn_hand(mode, none, mine, other):
    """R10.2, the player's net 荒庄 compensation (units), (concealed, declared): with nobody
    declared, ``per_declarer`` and ``first_declarer`` both cost a declarer 1 to each of the
    two others (−2); once another player has declared, ``per_declarer`` pays the concealed
    player 1 (from that declarer) and costs a declarer 1 (to the one player left concealed),
    ``first_declarer`` pays the player 1 from the first declarer either way."""
    rules = RuleSet.preset(draw_compensation=mode)
    hand = deal({0: KA5}, "7z", rules=rules)
    obs = observe(hand, 1)
    assert (compensation(obs, False), compensation(obs, True)) == none
    step(hand, Action(0, DISCARD, T("7z"), True))
    obs = observe(hand, 1)
    assert (compensation(obs, False), compensation(obs, True)) == mine


# --- live waits, not shanten alone (R8.1) ----------------------------------------------------

def test_a_ready_hand_on_dead_waits_is_broken_not_kept():
    """(``visible`` edited: the other three 5p seen.) KA5 + a drawn 5s: throwing the 5s keeps
    the hand ready, but on 5p, which nobody can give any more. Every level now discards 4p
    instead (1-shanten, live effective tiles); the old bot kept the dead wait and threw the
    live 5s, a 卡五星 tile for the others."""
    hand = deal({0: KA5}, "5s")
    obs, legal = observe(hand, 0), hand.legal_actions(0)
    visible = list(obs.visible)
    visible[T("5p")] = 4
    obs = dataclasses.replace(obs, visible=tuple(visible))
    hints = {h.tile: h for h in rank_discards(list(obs.concealed), [], obs.visible, RULES)}
    assert hints[T("5s")].shanten == 0 and sum(w.unseen for w in hints[T("5s")].waits) == 0
    assert hints[T("4p")].shanten == 1 and hints[T("4p")].effective_count > 0
    assert hints[T("4p")].score > hints[T("5s")].score
    for level in (1, 2, 3):
        assert HeuristicAgent(level).act(obs, legal) == Action(0, DISCARD, T("4p"))


# --- 暗杠 (R6.1) ------------------------------------------------------------------------------

def test_takes_the_concealed_kong_rather_than_keep_a_dead_wait():
    """1111p 23p 456s 789s 5z + 7z: ready by throwing 5z or 7z (a single wait on the other)
    or 暗杠 of 1p (+2 from each player, R6.1) to a 1-shanten hand. (``visible`` edited.) With
    both dragons' other copies seen, the single waits are dead: every level takes the kong
    (the old bot kept the dead wait). With the waits live (3 copies), the kong would break a
    live ready hand: no kong."""
    hand = deal({0: "1111p 23p 456s 789s 5z"}, "7z")
    obs, legal = observe(hand, 0), hand.legal_actions(0)
    kong = Action(0, CONCEALED_KONG, T("1p"))
    assert kong in legal
    for level in (1, 2, 3):
        assert HeuristicAgent(level).act(obs, legal).verb == DISCARD
    visible = list(obs.visible)
    visible[T("5z")] = visible[T("7z")] = 4
    dead = dataclasses.replace(obs, visible=tuple(visible))
    for level in (1, 2, 3):
        assert HeuristicAgent(level).act(dead, legal) == kong
    hand.apply(kong)
    assert hand.deltas == [4, -2, -2]


# --- defence against concealed players (level 3) ---------------------------------------------

def test_level3_folds_late_at_one_shanten():
    """Seats 0 and 1 each throw a 9s; seat 2 holds 234p 678p 123s 55s 9s 7z and draws 6z:
    1-shanten whichever single it throws. Early, all levels throw a dragon (fewest effective
    tiles lost). (``wall_left`` edited to 12.) Late, level 3 throws the 9s both others have
    discarded (the dragons have 3 unseen copies each); level 2 does not defend. The old level
    3 defended only at 2-shanten."""
    hand = deal({2: "234p 678p 123s 55s 9s 7z"}, "9s 9s 6z")
    tsumogiri(hand, 0)
    tsumogiri(hand, 1)
    _to_turn(hand)
    obs, legal = observe(hand, 2), hand.legal_actions(2)
    assert hand.current == 2 and obs.discards[:2] == ((T("9s"),), (T("9s"),))
    for level in (2, 3):
        assert HeuristicAgent(level).act(obs, legal).tile in (T("6z"), T("7z"))
    late = dataclasses.replace(obs, wall_left=12)
    assert HeuristicAgent(3).act(late, legal) == Action(2, DISCARD, T("9s"))
    assert HeuristicAgent(2).act(late, legal).tile in (T("6z"), T("7z"))


def test_level3_plays_for_safety_alone_when_it_can_no_longer_win():
    """(``visible`` and ``wall_left`` edited.) KA5 + 5s with every 5p seen, as above: the
    best shape throws 4p (1-shanten). With 2 tiles left the player draws no more: the hand
    cannot get ready, so level 3 throws the safest tile, 9p (a terminal with 2 unseen copies:
    risk 2 opponents × ⅔, against 4p's 2 × ⅔ × MIDDLE), and never the 5s (卡五星); level 2
    still plays the shape."""
    hand = deal({0: KA5}, "5s")
    obs, legal = observe(hand, 0), hand.legal_actions(0)
    visible = list(obs.visible)
    visible[T("5p")] = 4
    end = dataclasses.replace(obs, visible=tuple(visible), wall_left=2)
    assert risk(end, T("9p"), [1, 2]) == pytest.approx(4 / 3)
    assert risk(end, T("4p"), [1, 2]) == pytest.approx(4 / 3 * MIDDLE)
    assert HeuristicAgent(3).act(end, legal) == Action(0, DISCARD, T("9p"))
    assert HeuristicAgent(2).act(end, legal) == Action(0, DISCARD, T("4p"))


def test_risk_of_a_discard_into_concealed_players():
    """The defence's risk figures, seat 0 against concealed seat 1 (module constants): a
    terminal with 3 unseen copies is 1; a 5 between a live 4 and 6 × KAWUXING (卡五星 makes a
    discard win legal, R7.3); a middle tile × MIDDLE; the fourth tile of seat 1's exposed pung
    (明四归一) + FOURTH_OF_PUNG even when no copy is unseen; a kind seat 1 discarded ×¼; the
    suit of a flush-looking seat 1 (a pung of 3s, no s discarded) ×3."""
    hand = deal({0: "19p 5p 22s 5z 6z 7z 11s 8s 4s 3p"}, "9s")
    obs = observe(hand, 0)
    assert risk(obs, T("1p"), [1]) == pytest.approx(1.0)
    assert risk(obs, T("5p"), [1]) == pytest.approx(KAWUXING)
    assert risk(obs, T("4p"), [1]) == pytest.approx(4 / 3 * MIDDLE)
    visible = list(obs.visible)
    visible[T("4p")] = 4  # no 4p left: 46p is impossible, the 5p is an ordinary middle tile
    assert risk(dataclasses.replace(obs, visible=tuple(visible)), T("5p"), [1]) == \
        pytest.approx(MIDDLE)
    melds = list(obs.melds)
    melds[1] = (("pung", T("8s")),)
    visible = list(obs.visible)
    visible[T("8s")] += 3
    with_pung = dataclasses.replace(obs, melds=tuple(melds), visible=tuple(visible))
    assert visible[T("8s")] == 4  # the fourth 8s is in seat 0's hand
    assert flush_suit(with_pung, 1) == 2  # a pung of s, no s discarded: flush-looking
    assert risk(with_pung, T("8s"), [1]) == pytest.approx(FOURTH_OF_PUNG)
    assert risk(with_pung, T("1s"), [1]) == pytest.approx(2 / 3 * 3.0)
    discards = list(obs.discards)
    discards[1] = (T("1p"),)
    assert risk(dataclasses.replace(obs, discards=tuple(discards)), T("1p"), [1]) == \
        pytest.approx(0.25)


def test_level3_plays_safe_right_after_its_own_kong():
    """R9.1 杠上炮: a discard won on right after the discarder's kong is ×2 for the winner, so
    every hand can win on it (R7.3). 1111p 59p 123578s 5z draws 8s and makes the 暗杠; the
    replacement is 5z. A fresh look throws the isolated 5p; the bot that just made the kong
    throws the 9p (fewer ways to wait on a terminal than on a 5 between a live 4 and 6)."""
    hand = deal({0: "1111p 59p 123578s 5z"}, "8s 5z")
    agent = HeuristicAgent(3)
    assert choose(agent, hand, 0) == Action(0, CONCEALED_KONG, T("1p"))
    hand.apply(Action(0, CONCEALED_KONG, T("1p")))
    assert hand.seats[0].drawn == T("5z")
    assert choose(HeuristicAgent(3), hand, 0) == Action(0, DISCARD, T("5p"))
    assert choose(agent, hand, 0) == Action(0, DISCARD, T("9p"))
    assert choose(HeuristicAgent(2), hand, 0) == Action(0, DISCARD, T("5p"))


# --- pungs (R4.2) -----------------------------------------------------------------------------

def test_level2_does_not_pung_into_a_single_wait_with_one_copy_left():
    """(``visible`` edited: three 2s and three 5s seen.) Seat 1: 77z 123p 456p 789s 2s 5s,
    1-shanten with 22 live effective tiles. Punging the 7z discarded makes it ready, but only
    on a single 2s or 5s with one copy left (×1, self-draw only): a hand that would then sit
    on that wait. Level 1 pungs (shanten first); levels 2-3 pass."""
    hand = deal({1: "77z 123p 456p 789s 2s 5s"}, "7z")
    step(hand, Action(0, DISCARD, T("7z")))
    obs, legal = observe(hand, 1), hand.legal_actions(1)
    assert Action(1, PUNG) in legal
    visible = list(obs.visible)
    visible[T("2s")] = visible[T("5s")] = 3
    obs = dataclasses.replace(obs, visible=tuple(visible))
    assert HeuristicAgent(1).act(obs, legal) == Action(1, PUNG)
    for level in (2, 3):
        assert HeuristicAgent(level).act(obs, legal) == Action(1, PASS)


# --- 漂 (R11.1) -------------------------------------------------------------------------------

@pytest.mark.parametrize("tiles, by_level", [
    ("123p 456p 789s 11s 5z 6z", (0, 1, 5)),  # 1-shanten
    ("11p 55p 99s 22s 5z 7z 1s 4p 8s", (0, 0, 5)),  # 2-shanten
    ("55z 147p 36p 258s 19s 6z", (0, 0, 1)),  # 3-shanten with a pair of dragons
    ("99p 147p 36p 258s 19s 6z", (0, 0, 0)),  # 3-shanten, a pair but not of dragons
    ("19p 19s 5z 6z 7z 258p 258s", (0, 0, 0)),  # far from ready
])
def test_piao_by_the_quality_of_the_dealt_hand(tiles, by_level):
    """R11.1, preset app (choices 0 1 2 5), the 13 dealt tiles: level 1 always 0; level 2 one
    step (1) only with a 1-shanten deal; level 3 the highest (5) with a deal of 2-shanten or
    better, one step with a 3-shanten deal holding a pair of dragons, else 0."""
    hand = deal({2: tiles}, "", rules=RuleSet.preset("app"))
    legal = hand.legal_actions(2)
    assert sorted(a.piao for a in legal) == [0, 1, 2, 5]
    got = tuple(HeuristicAgent(level).act(observe(hand, 2), legal[::-1]).piao
                for level in (1, 2, 3))
    assert all(a.verb == PIAO for a in legal)
    assert got == by_level
