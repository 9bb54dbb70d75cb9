"""Bot games under every preset, the towns of VARIANTS.md included (R1.1, R8.11-R8.19, R13).

The random, heuristic and expert bots choose among the legal actions only (they read an
Observation), so whatever a preset's options forbid (R6.7, R8.13-R8.17) they cannot do; at
every step of a whole hand: all 84 tiles are accounted for, the scores are zero-sum, every
chosen action is one of the seat's legal actions and is accepted, an illegal one is refused
with the state untouched, and no seat's view, observation or events names another seat's
concealed or face-down tile (the checks of test_views, R13.1), and each seat's Observation
counts as visible exactly the copies not hidden from it (test_agents' count, R13.1).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from kawuxing.agents import make_agent
from kawuxing.engine import Action, Hand, IllegalAction
from kawuxing.engine.observation import observe
from kawuxing.rules import ALL_PRESETS, RuleSet
from kawuxing.tiles import COPIES, kinds_for_suits

from helpers import make_wall
from test_agents import _hidden_from
from test_views import check_events, check_view, secrets_of

BOTS = ("random", "heuristic:2", "heuristic", "expert")


# whole bot hands are slow to shrink: a failure is reported as found
@settings(max_examples=2 * len(ALL_PRESETS), deadline=None, phases=(Phase.explicit, Phase.reuse,
                                                                    Phase.generate),
          suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(ALL_PRESETS), bots=st.lists(st.sampled_from(BOTS), min_size=3,
                                                          max_size=3),
       dealer=st.integers(0, 2), wall_seed=st.integers(0, 2**32 - 1), clumpy=st.booleans())
def test_bots_play_every_preset_by_the_rules_and_see_nothing_hidden(preset, bots, dealer,
                                                                    wall_seed, clumpy):
    rules = RuleSet.preset(preset)
    hand = Hand.deal(rules, dealer, wall=make_wall(rules, wall_seed, clumpy))
    agents = [make_agent(spec, f"{wall_seed}/{seat}") for seat, spec in enumerate(bots)]
    rng = random.Random(wall_seed)
    since = [0, 0, 0]
    steps = 0
    in_play = kinds_for_suits(rules.suits)
    while True:
        assert hand.tiles_accounted() == 84 and sum(hand.deltas) == 0
        for seat in range(3):
            if not hand.ended:  # what a bot reads: visible + hidden from it = 4 of each kind
                obs, hidden = observe(hand, seat), _hidden_from(hand, seat)
                assert {obs.visible[k] + hidden[k] for k in in_play} == {COPIES}
            secrets = secrets_of(hand, seat)
            check_view(hand, seat, rng, secrets)
            check_events(hand, seat, since[seat], secrets)
            since[seat] = len(hand.events)
        if hand.ended:
            break
        seat = hand.to_act()[0]
        legal = hand.legal_actions(seat)
        action = agents[seat].act(observe(hand, seat), legal)
        assert action in legal
        wrong = Action(seat, rng.choice(["win", "pass", "kong", "discard"]),
                       rng.randrange(30) if rng.random() < 0.5 else None, rng.random() < 0.3)
        if wrong not in legal:  # refused, the state untouched (its event log as a proxy)
            before = (len(hand.events), hand.phase, hand.current, list(hand.deltas))
            try:
                hand.apply(wrong)
            except IllegalAction as error:
                assert error.rule
            else:
                raise AssertionError(f"{wrong} was accepted")
            assert (len(hand.events), hand.phase, hand.current, list(hand.deltas)) == before
        hand.apply(action)
        steps += 1
        assert steps < 600
    assert sum(hand.deltas) == 0
