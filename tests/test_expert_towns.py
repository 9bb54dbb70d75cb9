"""The bots under the town options (VARIANTS.md R7.6-R18.3; issues 11 and 18): the expert's
money model follows the room's settlement (payments.py, cha_jiao.py, extras.py), and its
decisions change with an option where they should — with the numbers, computed by hand.

Positions are seat 0's turn (position_observation); opponents' declarations and melds are
added to the Observation as a seat would see them (R13.1).
"""

from __future__ import annotations

import pytest
from test_expert import with_declared_opponent

from kawuxing.agents.declare import compensation
from kawuxing.agents.expert import rank_actions
from kawuxing.agents.expert.danger import declared_payment
from kawuxing.agents.expert.table import CHA_JIAO_TYPICAL, Table, ready_chance
from kawuxing.agents.expert.value import Valuer, ready_race, wait_entries
from kawuxing.scoring.cha_jiao import DECLARED, NOT_READY, READY
from kawuxing.engine import DISCARD, Action
from kawuxing.engine.legal import position_actions
from kawuxing.engine.observation import Observation, position_observation
from kawuxing.melds import Meld
from kawuxing.rules import RuleSet
from kawuxing.tiles import counts_of, parse_tiles

STANDARD = RuleSet()


def T(tile: str) -> int:
    return parse_tiles(tile)[0]


def position(rules: RuleSet, hand: str, wall: int = 30, seen: str = "",
             melds=()) -> tuple[Observation, list]:
    """Seat 0 in its turn under ``rules`` and its legal actions (engine.legal)."""
    counts = counts_of(parse_tiles(hand))
    obs = position_observation(rules, counts, list(melds),
                               counts_of(parse_tiles(seen, max_copies=None)), wall)
    return obs, position_actions(rules, counts, [Meld(k, t) for k, t in melds])


def with_pungs(obs: Observation, seat: int, tiles: list[str]) -> Observation:
    """``obs`` where ``seat`` has exposed pungs of ``tiles`` (visible to all, R13)."""
    melds = list(obs.melds)
    melds[seat] = tuple(("pung", T(t)) for t in tiles)
    visible = list(obs.visible)
    for t in tiles:
        visible[T(t)] += 3
    count = list(obs.concealed_count)
    count[seat] -= 3 * len(tiles)
    return Observation(**{**obs.__dict__, "melds": tuple(melds), "visible": tuple(visible),
                          "concealed_count": tuple(count)})


def test_wait_money_is_the_rooms_settlement():
    """R18.3 under 孝感 (卡五星 ×4 R9.10, 数坎 R15 ``kinds``, R8.8 either, R8.9 none, cap 16):
    46p 111p 123s 789s 99s waits on 5p; 坎 = 111p + 999s = 2. Concealed: a self-draw pays
    4 + 2 from each (12), a discard 4 + 2 (6). Declared: 8 + 2 each (20); a discard 8 + 2 —
    one share, no 包胡 (10). With seat 1 declared, R8.8 either doubles its payment to my
    undeclared hand: 8 + 2 (and a self-draw 10 + 6). 漂 1/2/0 adds piao(payer)+piao(me):
    9 and 7. 查叫 (R10.3: no minimum, no 坎 without R10.6): ×4, ×8 from a declared payer
    (R10.5 with R8.8), ×8 once declared."""
    rules = RuleSet.preset("xiaogan")
    counts = bytes(counts_of(parse_tiles("46p 111p 123s 789s 99s")))
    (e,) = wait_entries(counts, (), rules, (0, (False, False, False), (0, 0, 0)))
    assert e.tile == T("5p") and (e.self_draw, e.discard, e.declared_discard) == (4, 4, 8)
    assert e.money == ((12, 6, 6), (20, 10, 10))
    assert e.cha_jiao == ((4, 8), (8, 8))
    (e,) = wait_entries(counts, (), rules, (0, (False, True, False), (0, 0, 0)))
    assert e.money == ((16, 10, 6), (20, 10, 10))
    (e,) = wait_entries(counts, (), rules, (0, (False, False, False), (1, 2, 0)))
    assert e.money[0] == (16, 9, 7)


def test_min_multiplier_self_draw_and_the_discarders_declaration():
    """R7.7 (应城 2番起胡): a 屁胡 wait (5p 8p, ×1) cannot self-draw: no money for it (2 from
    the two payers under standard). R7.6 with R8.8 either: the ×1 wait may win on declared
    seat 1's discard (×1 doubled to ×2 = 2), never on undeclared seat 2's (R7.3)."""
    counts = bytes(counts_of(parse_tiles("123p 67p 12333s 567s")))
    nobody = (0, (False, False, False), (0, 0, 0))
    assert [e.money[0] for e in wait_entries(counts, (), STANDARD, nobody)] == [(2, 0, 0)] * 2
    r7_7 = STANDARD.with_options(min_multiplier_self_draw=2)
    assert [e.money[0] for e in wait_entries(counts, (), r7_7, nobody)] == [(0, 0, 0)] * 2
    r7_6 = STANDARD.with_options(liang_dao_doubling="either",
                                 min_multiplier_counts_discarder_declared=True)
    one = (0, (False, True, False), (0, 0, 0))
    # and a self-draw: 2 from declared seat 1 (R8.8 either), 1 from seat 2
    assert [e.money[0] for e in wait_entries(counts, (), r7_6, one)] == [(3, 2, 0)] * 2
    assert [e.money[0] for e in wait_entries(counts, (), STANDARD, one)] == [(2, 0, 0)] * 2


@pytest.mark.parametrize("options, mine, concealed, declared", [
    ({}, False, 8, 8),  # 包胡: 卡五星 ×2 × 亮倒 ×2 = 4, two shares (R8.4)
    ({"bao_hu": "none"}, False, 4, 4),  # R8.9: one share
    ({"liang_dao_doubling": "each"}, True, 8, 12),  # my share ×2 (R8.8, U12), the third's 4
    ({"liang_dao_doubling": "each", "bao_hu": "none"}, True, 4, 8),
    ({"liang_dao_doubling": "either"}, True, 8, 8),  # the winner declared: no doubling
])
def test_feeding_a_declared_wait_costs_what_the_room_pays(options, mine, concealed, declared):
    """Seat 1 declared 46p 123s 456s 789s 11s on 5p: what my 5p costs, undeclared and
    declared (R8.4, R8.8, R8.9); the danger model prices it the same (certain)."""
    rules = STANDARD.with_options(**options)
    obs, _ = position(rules, "5p 19p 159s 6z 7z 13p 24s 8s 3s", wall=25)
    obs = with_declared_opponent(obs, 1, "46p 123s 456s 789s 11s", "5p", "5z6z5z")
    t = Table(obs)
    assert declared_payment(t, 1, T("5p"), False) == (4, concealed)
    assert declared_payment(t, 1, T("5p"), True) == (4, declared)
    # part face down (R8.11: unknown tiles): a guessed ×4 a share, the same shares and
    # doublings — here the shown hand's own value
    hidden = Table(Observation(**{**obs.__dict__, "hidden_tiles": (0, 3, 0)}))
    assert declared_payment(hidden, 1, T("5p"), mine) == (4, declared if mine else concealed)


def test_each_makes_my_own_declaration_cost_more_late():
    """R8.8 each: once I declare, every payment of mine to a winner is ×2. Both opponents
    show two pungs late in the wall (6 tiles: 12 turns, ready chance 0.73 each, a self-draw
    0.73 × 0.09 × 0.5 a round at ×2.5): declaring adds 2 × 0.0329 × 2.5 = 0.164 a round to my
    losses. With ×1 waits on 5p 8p the expert declares under ``winner`` but not under
    ``each``, and says why (亮倒's gain falls from −0.47 to −0.96)."""
    ranked = {}
    for mode in ("winner", "each"):
        rules = STANDARD.with_options(liang_dao_doubling=mode)
        obs, legal = position(rules, "123p 67p 12333s 5678s", wall=6)
        obs = with_pungs(with_pungs(obs, 1, ["5z", "9p"]), 2, ["6z", "1p"])
        assert ready_chance(12, 2) == pytest.approx(0.73)
        assert Table(obs).declared_loss == pytest.approx(
            0 if mode == "winner" else 2 * 0.73 * 0.09 * 0.5 * 2.5)
        ranked[mode] = rank_actions(obs, legal, explain=True)
    assert ranked["winner"][0].action == Action(0, DISCARD, T("8s"), True)
    assert ranked["each"][0].action == Action(0, DISCARD, T("8s"))
    gains = {mode: next(dict(c.reasons)["declare"]["gain"] for c in ranked[mode]
                        if c.action.declare and c.action.tile == T("8s")) for mode in ranked}
    assert gains["each"] < gains["winner"] - 0.4


def test_cha_jiao_keeps_a_ready_hand_at_the_end_of_the_wall():
    """R10.3 查叫: 12p 456p 789p 111s 99s 7z, 3p all seen: discarding 7z leaves a ready hand on
    a dead wait. Under standard the expert breaks it for a live one-from-ready hand; under
    cha_jiao, 6 tiles from the end, it keeps it: a ready hand (听) collects its ×1 from each
    未听 opponent (each is ready at the end with chance 0.58, turns 14), a hand not ready pays
    each ready one (×2 typically): +2 × 0.42 = 0.84 against −2 × 0.58 × 2 = −2.32."""
    hand, seen = "12p 456p 789p 111s 99s 7z", "3p3p3p3p"
    obs, legal = position(STANDARD, hand, wall=6, seen=seen)
    assert rank_actions(obs, legal)[0].action != Action(0, DISCARD, T("7z"))
    rules = STANDARD.with_options(draw_compensation="cha_jiao")
    obs, legal = position(rules, hand, wall=6, seen=seen)
    assert rank_actions(obs, legal)[0].action == Action(0, DISCARD, T("7z"))
    t = Table(obs)
    q = ready_chance(14, 0)
    assert q == pytest.approx(0.58) and t.end_ready[1] == t.end_ready[2] == q
    assert t.end_money(READY, (1, 1)) == pytest.approx(2 * (1 - q))
    assert t.end_money(NOT_READY) == pytest.approx(-2 * q * CHA_JIAO_TYPICAL)
    # 亮 collects from 未听 and pays 听 (R10.4 always)
    assert t.end_money(DECLARED, (2, 2)) == pytest.approx(2 * ((1 - q) * 2 - q * 2))
    assert t.compensation(True) == 0  # no R10.2 compensation besides
    flat = Table(position(STANDARD.with_options(draw_compensation="cha_jiao_flat"), hand,
                          wall=6, seen=seen)[0])
    assert flat.end_money(NOT_READY) == pytest.approx(-2 * q)  # 1 to each ready one


def test_horses_raise_the_value_of_a_self_draw():
    """R14 horses after a self-draw, both payers paying the horse value × base. Hand 123p 67p
    12333s 5678s: 70 unseen tiles worth 423 (ranks, a dragon 10): ``one`` adds
    2 × 423 / 70 = 12.09 to each self-draw; ``six`` on 5p: 32 of 70 tiles score (2-5-8 and
    dragons), 2 × (6q + 6(1 − q)^6); ``declared_self_draw``: only once declared. The ready
    hand after 8s (×1 on 5p 8p, self-draw only) is worth several units more."""
    values = {}
    for options in ({}, {"horse_buy": "self_draw"}, {"horse_buy": "declared_self_draw"},
                    {"horse_buy": "self_draw", "horse_kind": "six"}):
        rules = STANDARD.with_options(**options)
        obs, legal = position(rules, "123p 67p 12333s 5678s", wall=30)
        t = Table(obs)
        key = options.get("horse_kind", options.get("horse_buy", "off"))
        values[key] = (t.horse_money(T("5p"), False), t.horse_money(T("5p"), True))
        ranked = rank_actions(obs, legal)
        values[key] += (next(c.ev for c in ranked if c.action == Action(0, DISCARD, T("8s"))),)
    q = 32 / 70
    assert values["off"][:2] == (0, 0)
    assert values["self_draw"][:2] == pytest.approx((2 * 423 / 70, 2 * 423 / 70))
    assert values["declared_self_draw"][:2] == pytest.approx((0, 2 * 423 / 70))
    assert values["six"][:2] == pytest.approx((2 * (6 * q + 6 * (1 - q) ** 6),) * 2)
    assert values["self_draw"][2] > values["six"][2] > values["off"][2] + 3


def test_a_later_declaration_the_room_forbids_is_not_planned():
    """R8.13 declare_min_wall 12: at 14 tiles my next turn comes with 11, so a ready hand is
    valued concealed only (no "declare later"; at 15 it may); R8.14: with a declared meld
    never."""
    counts = counts_of(parse_tiles("123p 67p 12333s 567s"))
    values = {}
    for options in ({}, {"declare_min_wall": 12}):
        obs, _ = position(STANDARD.with_options(**options), "123p 67p 12333s 5678s", wall=14)
        # seat 1 declared: it must discard its draws, so my declared ×2 waits would be fed
        obs = with_declared_opponent(obs, 1, "46p 111p 789p 55z 777z", "5p", "6z6z1s")
        t = Table(obs)
        valuer = Valuer(t, (), False)
        entries = valuer.entries(counts)
        draws = t.draws_left(1)
        concealed = ready_race(t, entries, False).value(draws)
        later = ready_race(t, entries, True).value(draws - 1)
        values[bool(options)] = (t.may_declare_later(0), valuer.hand(counts, draws),
                                 concealed, later)
    may, value, concealed, later = values[False]
    assert may and later > concealed and value == later
    may, value, concealed, _ = values[True]
    assert not may and value == concealed
    obs, _ = position(STANDARD.with_options(declare_min_wall=12), "123p 67p 12333s 5678s",
                      wall=15)
    assert Table(obs).may_declare_later(0)
    obs, _ = position(STANDARD.with_options(declare_requires_concealed=True),
                      "123p 67p 12333s 5678s", wall=30)
    assert Table(obs).may_declare_later(0) and not Table(obs).may_declare_later(1)


@pytest.mark.parametrize("mode, alone, after_other", [
    ("per_declarer", (0, -2), (1, -1)),
    ("first_declarer", (0, -2), (1, 1)),
    ("first_declarer_2", (0, -4), (2, 2)),  # R10.3: 2 to each other player
    ("cha_jiao", (0, 0), (0, 0)),  # priced by the hands, not by declaring
])
def test_heuristic_compensation_follows_the_room(mode, alone, after_other):
    """The heuristic's 荒庄 money (concealed, declared) in units, by transfers.draw_compensation
    (R10.2, R10.3): before and after seat 1 declared."""
    rules = STANDARD.with_options(draw_compensation=mode)
    obs, _ = position(rules, "123p 67p 12333s 5678s", wall=30)
    assert (compensation(obs, False), compensation(obs, True)) == alone
    obs = with_declared_opponent(obs, 1, "46p 123s 456s 789s 11s", "5p", "5z")
    assert (compensation(obs, False), compensation(obs, True)) == after_other
