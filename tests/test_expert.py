"""The expert bot (kawuxing.agents.expert): concrete decisions with their expected values in
base units, its money model against the rules (R6-R10), R13 (it reads only its Observation)
and the hint command built on it."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from test_agents import TWIN_SEAT, TWINS, others_play, twin_hand
from test_hints import run  # noqa: F401,F811  (the kawuxing hint runner fixture)

from kawuxing.agents import make_agent
from kawuxing.agents.expert import ExpertAgent, agent_choices, rank_actions
from kawuxing.agents.expert.danger import discard_danger
from kawuxing.agents.expert.brain import rank_value
from kawuxing.agents.expert.table import DEFAULT_PARAMS, Table
from kawuxing.agents.heuristic import HeuristicAgent
from kawuxing.engine import DISCARD, Action
from kawuxing.engine.legal import position_actions
from kawuxing.engine.observation import Observation, observe, position_observation
from kawuxing.melds import Meld
from kawuxing.rules import RuleSet
from kawuxing.tiles import counts_of, parse_tiles

RULES = RuleSet()
K = {t: parse_tiles(t)[0] for t in ("1p", "3p", "5p", "7z", "1s", "5s", "8s", "9s")}


def position(hand: str, wall: int = 30, seen: str = "", melds=()) -> tuple[Observation, list]:
    """A turn position of seat 0 and its legal actions (engine.legal.position_actions)."""
    counts = counts_of(parse_tiles(hand))
    obs = position_observation(RULES, counts, list(melds),
                               counts_of(parse_tiles(seen, max_copies=None)), wall)
    return obs, position_actions(RULES, counts, [Meld(k, t) for k, t in melds])


def with_declared_opponent(obs: Observation, seat: int, shown: str, waits: str,
                           discards: str) -> Observation:
    """``obs`` where ``seat`` declared 亮倒 showing ``shown`` (13 tiles) waiting on ``waits``
    after discarding ``discards`` (R8.1, R13.1: the shown tiles become visible)."""
    revealed = counts_of(parse_tiles(shown))
    visible = [a + b for a, b in zip(obs.visible, revealed)]
    for k in parse_tiles(discards):
        visible[k] += 1
    def per_seat(value, old):
        return tuple(value if s == seat else old[s] for s in range(3))
    return Observation(**{**obs.__dict__,
                          "declared": per_seat(True, obs.declared),
                          "waits": per_seat(tuple(parse_tiles(waits)), obs.waits),
                          "revealed": per_seat(tuple(revealed), obs.revealed),
                          "discards": per_seat(tuple(parse_tiles(discards)), obs.discards),
                          "claimed": per_seat((False,) * len(parse_tiles(discards)),
                                              obs.claimed),
                          "visible": tuple(visible)})


def best(obs, legal) -> Action:
    return rank_actions(obs, legal)[0].action


def test_a_declaration_that_pays():
    """R8.4: ready on 5p/8p (×1: a discard win is not allowed, R7.3), all eight live, mid
    wall, nobody declared: 亮倒 makes every wait ×2 and winnable on a discard (包胡 double),
    so the expert declares, and says by how much."""
    obs, legal = position("123p 67p 12333s 5678s", wall=30)
    ranked = rank_actions(obs, legal, explain=True)
    top = ranked[0]
    assert top.action.verb == DISCARD and top.action.declare
    assert top.action.tile in (K["5s"], K["8s"])
    reasons = dict(top.reasons)
    assert reasons["ready"]["waits"] == [["5p", 4, 2, 2], ["8p", 4, 2, 2]]
    assert reasons["declare"]["gain"] > 0
    concealed = next(c for c in ranked if c.action == Action(0, DISCARD, top.action.tile))
    assert dict(concealed.reasons)["ready"]["waits"] == [["5p", 4, 1, 0], ["8p", 4, 1, 0]]
    assert top.ev > concealed.ev


def test_a_dead_ready_hand_is_abandoned():
    """A ready hand whose only wait is dead (its four copies seen: 3p) ranks below a discard
    that keeps the hand one from ready with live tiles (R8.1: a wait needs a tile to come)."""
    # 12p 456p 789p 111s 99s + 7z: discarding 7z leaves ready on 3p only; 3p all seen
    obs, legal = position("12p 456p 789p 111s 99s 7z", wall=30, seen="3p3p3p3p")
    ranked = rank_actions(obs, legal, explain=True)
    keep_dead = next(c for c in ranked if c.action == Action(0, DISCARD, K["7z"]))
    assert dict(keep_dead.reasons)["ready"]["waits"] == [["3p", 0, 1, 0]]
    top = ranked[0]
    assert top.action != Action(0, DISCARD, K["7z"]) and not top.action.declare
    assert top.ev > keep_dead.ev
    assert dict(top.reasons)["shanten"]["n"] == 1 and dict(top.reasons)["shanten"]["live"] > 0


def test_a_concealed_kong_is_taken():
    """R6.1: four 9s held: the concealed kong brings 2 from each other player (4 base units)
    at once and a replacement draw; the expert takes it and counts its money."""
    obs, legal = position("123p 456p 9999s 7z 7z 5s 6s", wall=30)
    ranked = rank_actions(obs, legal, explain=True)
    assert ranked[0].action == Action(0, "concealed_kong", K["9s"])
    assert dict(ranked[0].reasons)["kong"] == {"money": 4}
    assert ranked[0].ev >= 4


def test_folding_against_a_declared_hand():
    """R8.4: seat 1 declared, waiting on 5p; a 5p from me is a certain 包胡 at double its
    value (shown hand 46p 123s 456s 789s 11s → 卡五星 ×2 × 亮倒 ×2 = ×4, paid ×2 = 8). Far
    from ready, the expert keeps its 5p; the danger model prices it exactly."""
    obs, legal = position("5p 19p 159s 6z 7z 13p 24s 8s 3s", wall=25)
    obs = with_declared_opponent(obs, 1, "46p 123s 456s 789s 11s", "5p", "5z6z5z")
    table = Table(obs)
    danger = discard_danger(table, K["5p"])
    # 8 from seat 1, and a little from seat 2, a concealed opponent early in the hand
    assert danger.certain and danger.chance == 1.0 and 8 <= danger.cost < 8.2
    ranked = rank_actions(obs, legal, explain=True)
    assert ranked[0].action.tile != K["5p"]
    five = next(c for c in ranked if c.action == Action(0, DISCARD, K["5p"]))
    assert five.ev <= -7


def test_the_heuristic_decides_where_the_model_is_close():
    """The agent's second opinion (Params.heuristic_margin): where heuristic:3's discard is
    rated within the margin of the model's best, the agent plays it; where it is rated far
    below, the model's best; with a margin of 0 always the model's best (R13: both read the
    same Observation)."""
    assert DEFAULT_PARAMS.heuristic_margin > 0
    for hand, close in (("3s 3s 3p 3s 5s 3p 4s 6s 7z 9p 4p 7p 6p 4p", True),
                        ("8p 6p 9p 8p 9p 3p 4p 5p 1p 4p 2p 6s 7p 5s", False)):
        obs, legal = position(hand, wall=30)
        ranked = rank_actions(obs, legal)
        other = HeuristicAgent(3).act(obs, legal)
        assert other != ranked[0].action  # they disagree here
        mine = next(c for c in ranked if c.action == other)
        gap = rank_value(ranked[0])[1] - rank_value(mine)[1]
        assert rank_value(ranked[0])[0] == rank_value(mine)[0]
        assert (gap <= DEFAULT_PARAMS.heuristic_margin) is close
        assert ExpertAgent().act(obs, legal) == (other if close else ranked[0].action)
        alone = ExpertAgent(params=replace(DEFAULT_PARAMS, heuristic_margin=0.0))
        assert alone.act(obs, legal) == ranked[0].action
        # the hint's list (agent_choices) puts the played choice first, says why, and keeps
        # the model's order for the rest
        hint = agent_choices(obs, legal, explain=True)
        assert hint[0].action == ExpertAgent().act(obs, legal)
        second = [p for code, p in hint[0].reasons if code == "second"]
        if close:
            assert second == [{"gap": round(gap, 3), "best": ranked[0].action.to_json()}]
            assert [c.action for c in hint[1:]] == [c.action for c in ranked if c.action != other]
        else:
            assert not second and [c.action for c in hint] == [c.action for c in ranked]


def test_the_hint_is_what_the_agent_plays():
    """Hints from the same brain: at every decision of two expert seats in whole hands, the
    first choice of the table's hint (agent_choices with the engine's own 杠上炮 flag, as
    server/hints.py asks it) is the action the agent plays, and it carries the ``second``
    reason exactly when it is not the model's best (R13: both read the seat's Observation)."""
    from kawuxing.engine import Hand

    taken = decisions = 0
    for seed in ("h1", "h2", "h3", "h4"):
        hand = Hand.deal(RULES, 0, seed=seed, piao=[0, 0, 0], windows=False)
        bots = [make_agent("expert"), make_agent("heuristic:3", "a"), make_agent("expert")]
        while not hand.ended:
            seat = hand.to_act()[0]
            obs, legal = observe(hand, seat), hand.legal_actions(seat)
            action = bots[seat].act(obs, legal)
            if seat != 1 and len(legal) > 1:
                hint = agent_choices(obs, legal, hand.seats[seat].kong_turn, explain=True)
                model = rank_actions(obs, legal, hand.seats[seat].kong_turn)[0].action
                assert hint[0].action == action
                is_second = any(code == "second" for code, _ in hint[0].reasons)
                assert is_second == (action != model)
                taken += is_second
                decisions += 1
            hand.apply(action)
    assert decisions >= 40 and taken >= 1


def test_money_of_a_self_draw_and_of_a_declared_discard_win():
    """Table: a self-drawn ×2 pays 2 from each (R7.2); a declared winner's discard win pays
    double from the discarder alone (包胡, R8.4); 漂 adds piao(payer)+piao(winner) once
    (R11.1)."""
    obs, _ = position("123p 456p 789p 11s 23s 7z", wall=30)
    t = Table(obs)
    assert t.self_draw_money(2) == 4
    assert t.discard_money(2, 1, bao_hu=True) == 4
    assert t.discard_money(2, 1, bao_hu=False) == 2
    obs = Observation(**{**obs.__dict__, "piao": (1, 2, 0)})
    t = Table(obs)
    assert t.self_draw_money(1) == (1 + 2 + 1) + (1 + 0 + 1)
    assert t.discard_money(1, 2, bao_hu=True) == 2 + 1


def test_draw_compensation_share():
    """R10.2 per_declarer: declaring alone costs 1 to each other player at 荒庄; with seat 1
    declared, I receive 1 from it unless I declare too."""
    obs, _ = position("123p 456p 789p 11s 23s 7z", wall=30)
    assert Table(obs).compensation(True) == -2
    assert Table(obs).compensation(False) == 0
    obs = with_declared_opponent(obs, 1, "46p 123s 456s 789s 11s", "5p", "5z")
    assert Table(obs).compensation(False) == 1
    assert Table(obs).compensation(True) == -1  # seat 1 pays seat 2; I pay seat 2


def test_expert_chooses_alike_in_twin_hands():
    """R13: in hands that are the same for its seat (twins of test_agents), the expert's
    observation and choices are the same; it sees nothing else."""
    hands = [twin_hand(*t) for t in TWINS]
    players = [ExpertAgent(), ExpertAgent()]
    common = len(parse_tiles(TWINS[0][2]))  # the draws both twins share
    decisions = 0
    while not hands[0].ended and hands[0].wall_left >= common:
        if TWIN_SEAT in hands[0].to_act():
            decisions += 1
            obs = [observe(h, TWIN_SEAT) for h in hands]
            legal = [h.legal_actions(TWIN_SEAT) for h in hands]
            assert obs[0] == obs[1] and legal[0] == legal[1]
            chosen = [p.act(o, lg) for p, o, lg in zip(players, obs, legal)]
            assert chosen[0] == chosen[1]
            for h in hands:
                h.apply(chosen[0])
        else:
            others_play(hands)
    assert decisions >= 10


def test_expert_plays_legal_and_the_same_for_a_seed():
    """Whole hands against the heuristic: every action is legal (the engine refuses others),
    scores sum to zero, and the same deal gives the same play (no randomness)."""
    from kawuxing.engine import Hand

    def play(seed):
        hand = Hand.deal(RULES, 0, seed=seed, piao=[0, 0, 0], windows=False)
        bots = [make_agent("expert"), make_agent("heuristic:3", "a"), make_agent("expert")]
        while not hand.ended:
            seat = hand.to_act()[0]
            hand.apply(bots[seat].act(observe(hand, seat), hand.legal_actions(seat)))
        return hand.actions, hand.deltas

    for seed in ("e1", "e2", "e3"):
        actions, deltas = play(seed)
        assert sum(deltas) == 0
        assert play(seed) == (actions, deltas)


# --------------------------------------------------------------------------------------------
# kawuxing hint
# --------------------------------------------------------------------------------------------

def test_cli_hint_ranks_by_expected_value(run):
    """14 tiles: every choice with the expert's expected base units, the agent's choice first,
    the rest best first; the 亮倒 of test_a_declaration_that_pays ranks first, with its waits
    in the reasons. The two 亮倒 discards are 0.07 apart and heuristic:3 would discard 5s, but
    the model decides 亮倒 alone (Params.declare_margin 0): 8s first. In a hand where the
    second opinion decides, the first row says so."""
    rows = json.loads(run("123p 67p 12333s 5678s", "--json").stdout)
    assert rows[0]["rank"] == 1 and rows[0]["action"][1:3] in (["discard", "5s"],
                                                               ["discard", "8s"])
    assert rows[0]["action"][3] == "declare"
    assert rows[0]["reasons"][0] == {"code": "ready", "waits": [["5p", 4, 2, 2],
                                                                ["8p", 4, 2, 2]],
                                     "declared": True}
    assert DEFAULT_PARAMS.declare_margin == 0
    assert rows[0]["action"][2] == "8s" and rows[1]["action"][1:4] == ["discard", "5s", "declare"]
    assert [r["ev"] for r in rows] == sorted((r["ev"] for r in rows), reverse=True)
    assert not any(r["code"] == "second" for row in rows for r in row["reasons"])
    obs, legal = position("123p 67p 12333s 5678s")
    other = HeuristicAgent(3).decide(obs, legal)
    assert other.declare and other.tile == K["5s"]  # within heuristic_margin, not taken
    assert ExpertAgent().act(obs, legal) == rank_actions(obs, legal)[0].action != other
    assert len(rows) == 14
    close = json.loads(run("3s 3s 3p 3s 5s 3p 4s 6s 7z 9p 4p 7p 6p 4p", "--json").stdout)
    second = [r for r in close[0]["reasons"] if r["code"] == "second"]
    assert second == [{"code": "second", "best": close[1]["action"],
                       "gap": pytest.approx(close[1]["ev"] - close[0]["ev"], abs=0.002)}]
    assert 0 < second[0]["gap"] <= DEFAULT_PARAMS.heuristic_margin
    assert "heuristic:3's choice" in close[0]["text"]
    assert [r["ev"] for r in close[1:]] == sorted((r["ev"] for r in close[1:]), reverse=True)  # 12 kinds held, 2 of them with 亮倒
    text = run("123p 67p 12333s 5678s").stdout
    assert "亮倒" in text and "expected" in text and "base units" in text
    # --wall changes the race: with one draw left the declared race is worth less
    late = json.loads(run("123p 67p 12333s 5678s", "--wall", "2", "--json").stdout)
    assert late[0]["ev"] < rows[0]["ev"]


@pytest.mark.parametrize("args, message", [
    (["123p 67p 12333s 5678s", "--wall", "44"], "0-43"),
    (["123p 67p 12333s 5678s", "--wall", "-1"], "0-43"),
    (["46x 234p 123s 789s 99p"], "'x' at position 2"),
    (["46p 234p 123s 789s 99p", "--visible", "444p"], "more than four of 4p"),
])
def test_cli_hint_bad_input(run, args, message):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]


def test_piao_is_raised_with_a_good_deal_only():
    """R11.1: 漂 adds piao(payer) + piao(winner) to every payment of a hand value, so it pays
    to raise it with a hand more likely to win than to pay: the top choice at 1 from ready,
    none at 5 from ready."""
    rules = RULES.with_options(piao_choices=[0, 1, 2, 5])
    legal = [Action(0, "piao", piao=p) for p in rules.piao_choices]
    good = position_observation(rules, counts_of(parse_tiles("123p 456p 789p 11s 35s 7z")),
                                [], [0] * 30, 43)
    bad = position_observation(rules, counts_of(parse_tiles("1p 4p 7p 9p 1s 4s 7s 9s 5z 6z 7z 2p 5s")),
                               [], [0] * 30, 43)
    assert rank_actions(good, legal)[0].action.piao == 5
    assert rank_actions(bad, legal)[0].action.piao == 0


# --------------------------------------------------------------------------------------------
# determinised Monte Carlo of close 亮倒 decisions (expert/rollout.py, issue 11)
# --------------------------------------------------------------------------------------------

def _turns_of_played_hands(seeds=("w1", "w2", "w3", "w4")):
    """(hand, seat) at every turn of hands played by the expert (every seat), R4.1."""
    from kawuxing.engine import Hand
    from kawuxing.engine.state import TURN
    for seed in seeds:
        hand = Hand.deal(RULES, 0, seed=seed, windows=False)
        bots = [ExpertAgent() for _ in range(3)]
        while not hand.ended:
            seat = hand.to_act()[0]
            if hand.phase == TURN:
                yield hand, seat
            hand.apply(bots[seat].act(observe(hand, seat), hand.legal_actions(seat)))


def test_a_sampled_world_is_the_observation_with_only_unseen_tiles_dealt():
    """R13: a world (rollout.sample_world) deals only the tiles the seat has not seen: it
    accounts for the 84 tiles, shows the seat exactly its Observation (own hand, melds —
    another's concealed kong face down, R6.1 —, rivers, declared hands, R8.1, counts), and
    its hidden tiles (the concealed opponents' hands, the wall, hidden kongs) are the unseen
    ones; other draws of the RNG give other worlds of the same Observation."""
    import random

    from kawuxing.agents.expert.rollout import sample_world, unseen_counts
    turns = declared_seen = 0
    for hand, seat in _turns_of_played_hands():
        obs = observe(hand, seat)
        worlds = [sample_world(obs, random.Random(n)) for n in (1, 2)]
        for world in worlds:
            assert world.tiles_accounted() == 84
            assert observe(world, seat) == obs
            hidden = [0] * 30
            for k in world.draws:
                hidden[k] += 1
            for s, other in enumerate(world.seats):
                if s == seat:
                    continue
                shown = obs.revealed[s] or (0,) * 30
                for k in range(30):
                    hidden[k] += other.concealed[k] - shown[k]
                for (kind, tile), meld in zip(obs.melds[s], other.melds):
                    if tile is None:
                        hidden[meld.tile] += 4
            assert hidden == unseen_counts(obs)
        turns += 1
        declared_seen += any(obs.declared[s] for s in range(3) if s != seat)
        if obs.wall_left > 8:  # enough unseen tiles that two RNG draws differ
            assert worlds[0].draws != worlds[1].draws
    assert turns > 60 and declared_seen > 5


def test_monte_carlo_declares_or_not_in_a_race_whose_result_is_known():
    """R10.2 per_declarer: declaring 亮倒 with the last discard of the hand (wall empty,
    R5.3) can only cost — the 荒庄 follows and the declarer pays each non-declarer 1 base
    unit. Nobody can win on 7z (its other three copies are seen: no chow of a dragon, and
    nobody holds one to pair it). In every sampled world the paired values are exact: 亮倒
    −2, the plain discard 0, and the agent's Monte Carlo keeps the hand concealed."""
    from kawuxing.agents.expert import agent as agent_module
    from kawuxing.agents.expert.rollout import mc_values
    from kawuxing.tiles import kinds_for_suits
    own = parse_tiles("123p 456p 789p 11s 45s 7z")
    pool = [k for k in kinds_for_suits(RULES.suits) for _ in range(4)]
    for k in own:
        pool.remove(k)
    seen = [K["7z"]] * 3
    for k in seen:
        pool.remove(k)
    seen += [k for k in pool if k != K["7z"]][:41]  # 44 seen; 26 left for the opponents
    counts = counts_of(own)
    obs = position_observation(RULES, counts, [], counts_of(seen), 0)
    legal = position_actions(RULES, counts, [])
    declare = Action(0, DISCARD, K["7z"], True)
    plain = Action(0, DISCARD, K["7z"])
    assert declare in legal and plain in legal
    assert mc_values(obs, [declare, plain], 12) == [-2.0, 0.0]
    ranked = rank_actions(obs, legal)
    mc = replace(DEFAULT_PARAMS, mc_rollouts=12, mc_margin=50.0)
    chosen = agent_module.monte_carlo(obs, ranked, params=mc)
    assert chosen[0].action == plain and sorted(map(str, (c.action for c in chosen))) == \
        sorted(map(str, (c.action for c in ranked)))
    assert dict(chosen[0].reasons)["mc"] == {"declare": -2.0, "rest": 0.0, "rollouts": 12}
    assert ExpertAgent(params=mc).act(obs, legal) == plain
    # off by default, and not where the model's values are farther apart than the margin
    assert agent_module.monte_carlo(obs, ranked) is None
    gap = abs(rank_value(next(c for c in ranked if c.action.declare))[1]
              - rank_value(next(c for c in ranked if not c.action.declare))[1])
    assert agent_module.monte_carlo(obs, ranked, params=replace(mc, mc_margin=gap / 2)) is None


def test_monte_carlo_is_the_same_for_an_observation_and_in_twin_hands():
    """Seeded by the Observation alone (R13): the same Observation gives the same values,
    and in twin hands (test_agents: they differ only in tiles seat 1 cannot see) the expert
    with Monte Carlo on every 亮倒 decision (margin 50) chooses alike and settles some of them
    so."""
    from kawuxing.agents.expert.rollout import mc_values
    mc = replace(DEFAULT_PARAMS, mc_rollouts=6, mc_margin=50.0)
    hands = [twin_hand(*t) for t in TWINS]
    common = len(parse_tiles(TWINS[0][2]))
    settled = 0
    while not hands[0].ended and hands[0].wall_left >= common:
        if TWIN_SEAT in hands[0].to_act():
            obs = [observe(h, TWIN_SEAT) for h in hands]
            legal = [h.legal_actions(TWIN_SEAT) for h in hands]
            assert obs[0] == obs[1]
            chosen = [agent_choices(o, lg, params=mc)[0] for o, lg in zip(obs, legal)]
            assert chosen[0] == chosen[1]
            if "mc" in dict(chosen[0].reasons):
                settled += 1
                pair = [c.action for c in agent_choices(obs[0], legal[0], params=mc)[:1]]
                assert pair == [chosen[0].action]
            for h in hands:
                h.apply(chosen[0].action)
        else:
            others_play(hands)
    assert settled >= 1
    # the same Observation, the same values; another (a deal later) other values
    for hand, seat in _turns_of_played_hands(("w1",)):
        obs = observe(hand, seat)
        declares = [a for a in hand.legal_actions(seat) if a.declare]
        if declares and obs.wall_left > 10:
            plain = Action(seat, DISCARD, declares[0].tile)
            values = mc_values(obs, [declares[0], plain], 10)
            assert mc_values(obs, [declares[0], plain], 10) == values
            break
    else:
        raise AssertionError("no 亮倒 decision in the hand")


def _heuristic_turn(seed: str, dealer: int, nth: int):
    """Seat 0's ``nth`` turn with a choice (undeclared, more than one legal action) in a
    hand dealt from ``seed`` and played by heuristic:3 in every seat: (Observation, legal)."""
    from kawuxing.engine.hand import Hand
    hand = Hand.deal(RULES, dealer, seed=seed, windows=False)
    agents = [HeuristicAgent(3) for _ in range(3)]
    while not hand.ended:
        seat = hand.to_act()[0]
        legal = hand.legal_actions(seat)
        obs = observe(hand, seat)
        if seat == 0 and obs.phase == "turn" and len(legal) > 1 and not obs.declared[0]:
            nth -= 1
            if nth == 0:
                return obs, legal
        hand.apply(agents[seat].act(obs, legal))
    raise AssertionError("the hand ended before that turn")


def test_rollout_policy_improvement_keeps_a_late_hand_concealed():
    """Rollouts by heuristic:3 in every seat (Params.mc_policy "heuristic", mc_switch 12,
    agent.improve; issue 11). Five tiles left (R5.3), seat 0 holds 5p 4s5s7s8s8s8s9s with
    pungs of 6p and 6s; seat 2 declared 亮倒 on 4s/7s (R8.1). The model declares with 5p
    (ready on 3s, 3 live, and a dead 6s: ev 0.185 + the 亮倒 bonus 0.8 above 9s at 0.601),
    heuristic:3 discards 5p concealed. In the same 12 sampled worlds (R13: only unseen tiles
    dealt) the 亮倒 earns −2.0 a hand on average and the concealed 5p 0.0, so the agent plays
    the concealed 5p, with the values as its reason; deterministic for the Observation."""
    from kawuxing.agents.expert.agent import improve
    from kawuxing.agents.expert.rollout import heuristic_rollout, mc_values
    obs, legal = _heuristic_turn("t/19", 1, 15)
    assert obs.wall_left == 5 and obs.declared == (False, False, True)
    declare, plain = Action(0, DISCARD, K["5p"], True), Action(0, DISCARD, K["5p"])
    assert agent_choices(obs, legal)[0].action == declare  # the default: rollouts off
    assert DEFAULT_PARAMS.mc_switch == 0 and DEFAULT_PARAMS.mc_policy == "fast"
    assert HeuristicAgent(3).decide(obs, legal) == plain
    assert mc_values(obs, [declare, plain], 12, policy="heuristic") == [-2.0, 0.0]
    mc = replace(DEFAULT_PARAMS, mc_policy="heuristic", mc_switch=12)
    chosen = agent_choices(obs, legal, params=mc)
    assert chosen[0].action == plain
    assert dict(chosen[0].reasons)["rollout"] == {
        "values": [[[0, "discard", "5p", "declare"], -2.0], [[0, "discard", "5p"], 0.0]],
        "rollouts": 12}
    assert chosen[0].text().endswith("played out 12 times: discard 5p declare -2.00, "
                                     "discard 5p +0.00")
    assert sorted(map(str, (c.action for c in chosen))) == sorted(map(str, legal))
    assert ExpertAgent(params=mc).act(obs, legal) == plain
    # a threshold above the gap keeps the agent's choice; ties keep it too
    assert agent_choices(obs, legal, params=replace(mc, mc_threshold=2.0))[0].action == declare
    ranked = rank_actions(obs, legal)
    assert improve(obs, ranked, [declare], params=mc) == ranked
    with pytest.raises(ValueError, match="policy"):
        mc_values(obs, [declare, plain], 1, policy="random")
    # the close-亮倒 Monte Carlo (mc_rollouts) plays its worlds by the same policy: 亮倒 with
    # 5p against the model's best other discard, 9s (0.38 apart, within mc_margin 1)
    close = replace(DEFAULT_PARAMS, mc_rollouts=12, mc_policy="heuristic")
    settled = agent_choices(obs, legal, params=close)[0]
    assert settled.action == Action(0, DISCARD, K["9s"])
    assert dict(settled.reasons)["mc"] == {"declare": -2.0, "rest": -0.75, "rollouts": 12}
    fast = agent_choices(obs, legal, params=replace(close, mc_policy="fast"))[0]
    assert dict(fast.reasons)["mc"] == {"declare": -1.5, "rest": -1.333, "rollouts": 12}
    # a heuristic rollout of the real hand's state ends with settled money (zero-sum)
    from kawuxing.agents.expert.rollout import sample_world
    import random
    world = sample_world(obs, random.Random(1))
    money = heuristic_rollout(world, 0)
    assert world.ended and money == world.deltas[0] and sum(world.deltas) == 0
