"""tools/decision_probe.py (issue 11): the variant's gain is the sum of its differing
decisions, each priced by the same reshuffled walls for both choices."""

import importlib.util
import pathlib

import pytest

from kawuxing.engine import Hand
from kawuxing.engine.actions import DISCARD
from kawuxing.rules import RuleSet

spec = importlib.util.spec_from_file_location(
    "decision_probe", pathlib.Path(__file__).parent.parent / "tools" / "decision_probe.py")
probe = importlib.util.module_from_spec(spec)
spec.loader.exec_module(probe)


def test_the_default_against_itself_differs_nowhere():
    gain, compared, rows = probe.probe_deal((5000, 0, {}, 2))
    assert (gain, rows) == (0.0, []) and compared > 5


def test_a_variant_is_priced_where_it_differs_and_the_same_again():
    found = None
    for deal in range(12):  # the first deal where a declare bonus of 3 changes a choice
        gain, compared, rows = probe.probe_deal((5000, deal, {"declare_bonus": 3.0}, 4))
        if rows:
            found = (gain, rows)
            break
    assert found is not None
    gain, rows = found
    assert abs(gain - sum(r["gain"] for r in rows)) < 1e-2
    assert all("亮倒" in r["variant"] and "亮倒" not in r["default"] for r in rows)
    assert probe.probe_deal((5000, deal, {"declare_bonus": 3.0}, 4)) == (gain, compared, rows)


def test_a_play_out_leaves_the_hand_untouched_and_repeats_for_its_order_seed():
    hand = Hand.deal(RuleSet.preset(), 0, seed="probe", windows=False)
    action = next(a for a in hand.legal_actions(0) if a.verb == DISCARD)
    money = [probe.play_out(hand, 0, action, f"w{i}") for i in range(3)]
    assert hand.wall_left == 44 and not hand.actions  # 84 - 40 dealt; nothing applied
    assert money == [probe.play_out(hand, 0, action, f"w{i}") for i in range(3)]


def test_params_fields_names_what_is_wrong():
    from kawuxing.agents.expert.table import params_fields

    assert params_fields({"declare_bonus": 1, "mc_policy": "heuristic"}) == \
        {"declare_bonus": 1, "mc_policy": "heuristic"}  # an int where a float is expected
    for bad, message in (([], "a JSON object"), ({"nope": 1}, "'nope' is no field"),
                         ({"declare_bonus": "x"}, "declare_bonus must be a number, not 'x'"),
                         ({"declare_bonus": True}, "must be a number"),
                         ({"mc_rollouts": 1.5}, "mc_rollouts must be an int, not 1.5"),
                         ({"mc_model": 1}, "mc_model must be true or false, not 1"),
                         ({"__doc__": "x"}, "'__doc__' is no field"),  # an attribute only
                         ({"declare_bonus": float("nan")}, "is a number from 0 to 1000"),
                         ({"declare_bonus": float("inf")}, "is a number from 0 to 1000"),
                         ({"mc_rollouts": -5}, "mc_rollouts is a number from 0 to 1000, not -5"),
                         ({"mc_switch": 10 ** 400}, "mc_switch is a number from 0 to 1000"),
                         ({"far_effective": 1001.5}, "far_effective is a number from 0 to 1000"),
                         ({"mc_policy": "bogus"}, 'mc_policy must be "fast" or "heuristic"'),
                         ({"opp_win": 5}, "opp_win is a chance or a share from 0 to 1, not 5"),
                         ({"pair_wait_live": 1.5}, "pair_wait_live is a chance or a share")):
        with pytest.raises(ValueError, match=message):
            params_fields(bad)


def test_regret_compares_the_experts_choices_with_its_next_best():
    examined, compared, rows = probe.regret_deal((7000, 0, 2, 3))
    assert examined > 3 and 0 < compared <= examined
    assert all(r["ahead"] > probe.AHEAD * r["se"] and r["other"] != r["default"] for r in rows)
    assert probe.regret_deal((7000, 0, 2, 3)) == (examined, compared, rows)


def test_the_ceiling_prices_a_pick_in_other_orders_than_those_that_picked_it():
    gain, examined, switched = probe.ceiling_deal((7000, 0, 2, 2))
    assert examined > 3 and 0 <= switched <= examined
    assert (switched == 0) <= (gain == 0.0)  # no switch, no gain
    assert probe.ceiling_deal((7000, 0, 2, 2)) == (gain, examined, switched)
    # one choice only: the pick is always the expert's own
    assert probe.ceiling_deal((7000, 0, 1, 2)) == (0.0, examined, 0)


def test_the_expert_takes_every_seat_in_turn_round_the_dealer():
    # deals 0-2: the dealer's seat (the dealer is deal % 3); 3-5 the next; 6-8 the one before
    assert [probe.expert_seat(d) for d in range(9)] == [0, 1, 2, 1, 2, 0, 2, 0, 1]
    assert [(probe.expert_seat(d) - d % 3) % 3 for d in range(9)] == [0, 0, 0, 1, 1, 1, 2, 2, 2]

