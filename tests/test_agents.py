"""Agents (kawuxing.agents): what they may see (R13), how the heuristic bot plays concrete
hands (R4-R8, R11), and :func:`make_agent`.

The R13 tests build *twin* hands: the same for one seat S (own tiles, public history) but with
the other seats' concealed tiles and the future wall different. Everything S's agent is given,
``observe(hand, S)`` and ``hand.legal_actions(S)``, must then be equal, and so must the action
every agent chooses.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kawuxing.agents import AGENT_NAMES, HeuristicAgent, RandomAgent, make_agent
from kawuxing.agents.hints import rank_discards
from kawuxing.engine import (ADDED_KONG, CLAIM, CONCEALED_KONG, DISCARD, ENDED, PASS, PIAO,
                             PIAO_PHASE, PUNG, ROB, TURN, WIN, Action, Hand)
from kawuxing.engine.observation import observe
from kawuxing.face_down import without
from kawuxing.melds import MELD_CONCEALED_KONG
from kawuxing.rules import RuleSet
from kawuxing.shapes import shanten
from kawuxing.tiles import COPIES, NUM_KINDS, counts_of, kinds_for_suits, parse_tile, parse_tiles

from helpers import auto_pass, options_strategy

P = parse_tiles
T = parse_tile
RULES = RuleSet.preset()


def agents(seed: object = 11) -> list:
    """One of every agent, seeded alike."""
    return [HeuristicAgent(1, seed), HeuristicAgent(2, seed), HeuristicAgent(3, seed),
            RandomAgent(seed)]


def deal(hands: dict[int, str], draws: str = "", dealer: int = 0, rules: RuleSet = RULES,
         piao: list[int] | None = None) -> Hand:
    """A hand with the given seats' 13 tiles and the first draws given (the dealer's 14th
    first, R3.1); the other seats and the rest of the wall are filled with the tiles left, one
    of each kind before any second copy (few pairs, so few claims), so that the wall is full
    length (R3.2) and ``wall_left`` is realistic."""
    fixed = [t for h in hands.values() for t in P(h)] + P(draws)
    left = counts_of(kinds_for_suits(rules.suits) * COPIES)
    for t in fixed:
        left[t] -= 1
    rest = [k for n in range(COPIES) for k in range(len(left)) if left[k] > n]
    seats = []
    for seat in range(3):
        if seat in hands:
            seats.append(P(hands[seat]))
        else:
            seats.append(rest[:13])
            rest = rest[13:]
    return Hand(rules, dealer, seats, P(draws) + rest, piao)


def step(hand: Hand, action: Action) -> None:
    """Apply ``action``, passing first any claim (R4.3) that stands in its way."""
    while action not in hand.legal_actions(action.seat):
        assert hand.phase in (CLAIM, ROB), f"{action} is not legal in phase {hand.phase}"
        hand.apply(Action(hand.to_act()[0], PASS))
    hand.apply(action)


def tsumogiri(hand: Hand, seat: int) -> None:
    """``seat`` (after passing what stands in the way) discards the tile it just drew."""
    while hand.phase != TURN:
        hand.apply(Action(hand.to_act()[0], PASS))
    assert hand.current == seat
    hand.apply(Action(seat, DISCARD, hand.seats[seat].drawn))


def choose(agent, hand: Hand, seat: int) -> Action:
    action = agent.act(observe(hand, seat), hand.legal_actions(seat))
    assert action in hand.legal_actions(seat)
    return action


# --------------------------------------------------------------------------------------------
# R13: agents use only what their seat can see
# --------------------------------------------------------------------------------------------

# Seat 1's tiles and the first 30 draws are the same in both twins; seats 0 and 2 hold other
# tiles and the wall after the 30th draw is another order (generated once from a shuffle).
TWIN_SEAT = 1
TWIN_OWN = "2366789p 224s 577z"
TWIN_PREFIX = "4p 7p 8s 2s 3s 7p 9s 9p 5p 3s 5p 5p 6s 7p 5s 9s 6p 4s 6z 2p 8s 5z 4s 1p"
TWINS = [
    ("3489p 13677789s 7z", "14569p 112567s 56z",
     "4s 5s 6z 2p 6s 5z 9s 8p 5s 3p 2p 1p 6z 8s 7z 8p 1s 3s 1p 3p 4p"),
    ("1123459p 1667s 77z", "1234889p 2458s 56z",
     "3s 5s 9s 7s 5z 7s 8p 4p 9s 6s 3p 6z 1s 5s 8s 1s 1s 6p 6z 3s 7s"),
]


def twin_hand(seat0: str, seat2: str, tail: str) -> Hand:
    return Hand(RULES, 0, [P(seat0), P(TWIN_OWN), P(seat2)], P(TWIN_PREFIX) + P(tail))


def test_twins_are_the_same_hand_for_the_seat_only():
    """The twins are valid deals of the same 84 tiles (R1.1) that differ where seat 1 cannot
    look: the other concealed hands and the wall order (R13.1)."""
    a, b = (twin_hand(*t) for t in TWINS)
    assert sorted(P(TWINS[0][0] + TWINS[0][1] + TWINS[0][2])) == sorted(
        P(TWINS[1][0] + TWINS[1][1] + TWINS[1][2]))
    assert a.seats[0].concealed != b.seats[0].concealed
    assert a.seats[2].concealed != b.seats[2].concealed
    assert a.draws != b.draws
    assert observe(a, TWIN_SEAT) == observe(b, TWIN_SEAT)
    assert observe(a, 0) != observe(b, 0)  # seat 0 does see the difference


def others_play(hands: list[Hand]) -> None:
    """Seats 0 and 2 of the twins pass every claim and discard what they draw, until seat 1
    (:data:`TWIN_SEAT`) has to decide, so the public history stays the same in both."""
    for h in hands:
        while TWIN_SEAT not in h.to_act() and not h.ended:
            seat = h.to_act()[0]
            h.apply(Action(seat, PASS) if h.phase in (CLAIM, ROB)
                    else Action(seat, DISCARD, h.seats[seat].drawn))


def test_agents_choose_alike_in_twin_hands():
    """R13: seat 1 is played by the level-3 heuristic; seats 0 and 2 pass every claim and
    discard what they draw, so the public history is the same in both twins. At each of seat
    1's decisions (claims included), its observation and legal actions are equal in both,
    and every agent (heuristic 1-3, random with the same seed) chooses the same action."""
    hands = [twin_hand(*t) for t in TWINS]
    players = [HeuristicAgent(3, "x"), HeuristicAgent(3, "x")]
    shadows = [agents("s"), agents("s")]  # asked at each decision, in both twins alike
    decisions = []
    while not hands[0].ended:
        if TWIN_SEAT in hands[0].to_act():
            obs = [observe(h, TWIN_SEAT) for h in hands]
            legal = [h.legal_actions(TWIN_SEAT) for h in hands]
            assert obs[0] == obs[1]
            assert legal[0] == legal[1]
            assert obs[0].wall_left >= len(P(TWINS[0][2]))  # still inside the common draws
            for x, y in zip(*shadows):
                assert x.act(obs[0], legal[0]) == y.act(obs[1], legal[1])
            chosen = [p.act(o, lg) for p, o, lg in zip(players, obs, legal)]
            assert chosen[0] == chosen[1]
            decisions.append((hands[0].phase, chosen[0], len(legal[0])))
            for h in hands:
                h.apply(chosen[0])
        else:
            others_play(hands)
    # the script goes through claims (pung, pass), 亮倒 and a win, the same in both twins
    verbs = [a.verb for _, a, _ in decisions]
    assert verbs.count(PUNG) == 2 and PASS in verbs and verbs[-1] == WIN
    assert any(a.declare for _, a, _ in decisions)
    # R13.2: seat 1 answers a window after each of the 17 discards of seats 0 and 2; in 5 of
    # them it had an option (more than ``pass``)
    others = sum(e["type"] == "discard" and e["seat"] != TWIN_SEAT for e in hands[0].events)
    assert others == 17
    assert sum(phase == CLAIM for phase, _, _ in decisions) == others
    assert sum(phase == CLAIM and n > 1 for phase, _, n in decisions) == 5
    assert hands[1].ended and hands[0].winners == hands[1].winners == [TWIN_SEAT]
    assert hands[0].deltas == hands[1].deltas


# --- a hypothesis version: any deal, any point, the hidden tiles swapped ----------------------

def _signature(hand: Hand) -> tuple:
    pending = hand.pending
    return (hand.phase, hand.current, hand.wall_left,
            (pending.seat, pending.tile, pending.robbing) if pending else None,
            tuple(len(s.discards) for s in hand.seats), tuple(len(s.melds) for s in hand.seats))


def _track(hand: Hand, actions: list[Action]) -> tuple[list[dict], list[tuple]]:
    """Replay ``actions`` on ``hand``; follow where each concealed tile came from. Returns
    (per seat: kind -> positions still concealed, the state signature before each action).
    A position is ("h", seat, i) for the i-th dealt tile or ("d", j) for the j-th draw."""
    tokens: list[dict[int, list]] = [{} for _ in range(3)]
    for seat, tiles in enumerate(hand.initial_hands):
        for i, t in enumerate(tiles):
            tokens[seat].setdefault(t, []).append(("h", seat, i))
    drawn = 0

    def take_draws(events):
        nonlocal drawn
        for e in events:
            if e["type"] == "draw":
                tokens[e["seat"]].setdefault(T(e["tile"]), []).append(("d", drawn))
                drawn += 1

    take_draws(hand.events)
    signatures = []
    for action in actions:
        signatures.append(_signature(hand))
        before = [list(s.concealed) for s in hand.seats]
        events = hand.apply(action)
        got = [[0] * NUM_KINDS for _ in range(3)]
        for e in events:
            if e["type"] == "draw":
                got[e["seat"]][T(e["tile"])] += 1
        for seat, s in enumerate(hand.seats):  # removals happen before the draw of a step
            for k in range(NUM_KINDS):
                for _ in range(before[seat][k] + got[seat][k] - s.concealed[k]):
                    tokens[seat][k].pop()
        take_draws(events)
    return tokens, signatures


def _twin(real: Hand, actions: list[Action], seat: int, rng: random.Random) -> Hand:
    """A hand that ``seat`` cannot tell from ``real`` after ``actions``: the tiles still
    hidden in the other seats' hands (not 亮倒, not answering the tile on the table, the kong
    tile being added kept) and the undrawn wall are permuted among themselves."""
    fresh = Hand(real.rules, real.dealer, real.initial_hands, real.draws, real.initial_piao)
    tokens, signatures = _track(fresh, actions)
    assert _signature(fresh) == _signature(real)
    answering = set(real.pending.answers) if real.pending else set()
    pool = []
    for other in range(3):
        s = real.seats[other]
        if other == seat or s.declared or other in answering:
            continue
        for kind, where in tokens[other].items():
            keep = 1 if (real.phase == ROB and real.pending.seat == other
                         and real.pending.tile == kind) else 0
            pool += where[keep:]
    consumed = len(real.draws) - real.wall_left
    pool += [("d", j) for j in range(consumed, len(real.draws))]
    hands = [list(h) for h in real.initial_hands]
    draws = list(real.draws)

    def tile_at(p):
        return hands[p[1]][p[2]] if p[0] == "h" else draws[p[1]]

    tiles = [tile_at(p) for p in pool]
    rng.shuffle(tiles)
    for p, t in zip(pool, tiles):
        if p[0] == "h":
            hands[p[1]][p[2]] = t
        else:
            draws[p[1]] = t
    twin = Hand(real.rules, real.dealer, hands, draws, real.initial_piao)
    # the same actions, but the other seats' passes: their claim options may differ (their
    # hidden tiles do); whatever they are asked in the twin, they pass, when the twin must
    # move on to the state of the next action
    for action, sig in zip(actions, signatures):
        if action.verb == PASS and action.seat != seat:
            continue
        while _signature(twin) != sig:
            assert twin.phase in (CLAIM, ROB) and seat not in twin.to_act(), "twins diverged"
            twin.apply(Action(twin.to_act()[0], PASS))
        twin.apply(action)
    while _signature(twin) != _signature(real):
        assert twin.phase in (CLAIM, ROB) and seat not in twin.to_act(), "twins diverged"
        twin.apply(Action(twin.to_act()[0], PASS))
    return twin


# options that change what is seen (R6.1, R8.6) or how claims go (R7.4, R4.3)
TWIN_OPTIONS = options_strategy("concealed_kong_visible", "declare_hide_triplets", "robbing_kong",
                                "double_win")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(["standard", "capped", "strict"]),
       options=TWIN_OPTIONS,
       dealer=st.integers(0, 2), wall_seed=st.integers(0, 2**32 - 1),
       play_seed=st.integers(0, 2**32 - 1), point=st.floats(0, 1), swap_seed=st.integers())
def test_agents_choose_alike_when_hidden_tiles_are_swapped(preset, options, dealer, wall_seed,
                                                           play_seed, point, swap_seed):
    """R13 for any deal: play a random hand (random agents, claims taken at random), stop at
    some step; for the seat to act, swap the other seats' hidden tiles and the undrawn wall
    among themselves and replay. The seat's observation and legal actions are the same, and so
    is every agent's choice."""
    rules = RuleSet.preset(preset, **options)
    hand = Hand.deal(rules, dealer, seed=wall_seed)
    rng = random.Random(play_seed)
    while not hand.ended:
        seat = rng.choice(hand.to_act())
        hand.apply(rng.choice(hand.legal_actions(seat)))
    actions = hand.actions[:int(point * (len(hand.actions) - 1))]
    real = Hand(rules, dealer, hand.initial_hands, hand.draws)
    for a in actions:
        real.apply(a)
    seat = real.to_act()[0]
    twin = _twin(real, actions, seat, random.Random(swap_seed))
    assert observe(twin, seat) == observe(real, seat)
    assert twin.legal_actions(seat) == real.legal_actions(seat)
    for x, y in zip(agents(play_seed), agents(play_seed)):
        assert x.act(observe(real, seat), real.legal_actions(seat)) == \
            y.act(observe(twin, seat), twin.legal_actions(seat))


def _hidden_from(hand: Hand, seat: int) -> list[int]:
    """Copies of each kind ``seat`` cannot see, counted from the full state: the wall, others'
    concealed tiles not shown by 亮倒 (R8.1; R8.6 face-down triplets and the tile a declared
    player just drew stay hidden), others' concealed kongs (R6.1 option)."""
    hidden = counts_of(hand.draws[len(hand.draws) - hand.wall_left:])
    for other, s in enumerate(hand.seats):
        if other == seat:
            continue
        shown = [0] * NUM_KINDS
        if s.declared:
            shown = list(s.concealed)
            shown = without(shown, s.hidden)  # face-down groups (R8.6, R8.11)
            if hand.current == other and s.drawn is not None and hand.phase == TURN:
                shown[s.drawn] -= 1
            if hand.phase == ROB and hand.pending.seat == other:
                shown[hand.pending.tile] -= 1  # on the table, not in the shown hand
        for k in range(NUM_KINDS):
            hidden[k] += s.concealed[k] - shown[k]
        if hand.phase == ROB and hand.pending.seat == other:
            hidden[hand.pending.tile] -= 1  # the kong tile being added is on the table
        for m in s.melds:
            if m.kind == MELD_CONCEALED_KONG and not hand.rules.concealed_kong_visible:
                hidden[m.tile] += 4
    return hidden


@settings(max_examples=25, deadline=None)
@given(options=TWIN_OPTIONS,
       wall_seed=st.integers(0, 2**32 - 1), play_seed=st.integers(0, 2**32 - 1))
def test_visible_counts_exactly_what_the_seat_can_see(options, wall_seed, play_seed):
    """R13.1: at every step of a random hand, for every seat, ``visible`` + the copies hidden
    from it (wall, others' unshown concealed tiles, face-down kongs) is 4 for every kind; and
    ``visible`` equals own tiles + discards not taken + shown melds + revealed hands + a kong
    tile on the table."""
    rules = RuleSet.preset(**options)
    hand = Hand.deal(rules, play_seed % 3, seed=wall_seed)
    rng = random.Random(play_seed)
    in_play = kinds_for_suits(rules.suits)
    while not hand.ended:
        for seat in range(3):
            obs = observe(hand, seat)
            hidden = _hidden_from(hand, seat)
            assert [obs.visible[k] + hidden[k] for k in in_play] == [COPIES] * len(in_play)
            again = list(obs.concealed)
            for s, (discards, melds) in enumerate(zip(obs.discards, obs.melds)):
                for tile, taken in zip(discards, hand.seats[s].claimed):
                    again[tile] += not taken
                for kind, tile in melds:
                    if tile is not None:
                        again[tile] += 3 if kind == "pung" else 4
                if obs.revealed[s] is not None:
                    again = [a + b for a, b in zip(again, obs.revealed[s])]
            if obs.table and obs.table[2] and obs.table[0] != seat:
                again[obs.table[1]] += 1
            assert tuple(again) == obs.visible
        seat = rng.choice(hand.to_act())
        legal = hand.legal_actions(seat)
        strong = [a for a in legal if a.verb in (ADDED_KONG, CONCEALED_KONG, PUNG) or a.declare]
        hand.apply(rng.choice(strong if strong and rng.random() < 0.7 else legal))


def test_robbing_a_declared_players_kong_counts_the_tile_once():
    """R13.1 with R7.4/R8.3: a declared player (亮倒) adds a kong of 3p and another player may
    rob it. The third seat sees the pung (3), and the fourth 3p once, on the table: visible 4,
    not 5 (the declared hand shown without the tile being added). A bug fixed in observe()."""
    hand = Hand(RULES, 0, [P("33p 456p 789p 11s 23s 7z"),
                           P("3p 5p 1p 2s 5s 8s 9s 9p 5z 7z 6z 2p 6s"),
                           P("12p 456s 789s 55z 678s")], P("6z 4s 8p 8p 3p 1s 1s"))
    for action in (Action(0, DISCARD, T("6z")), Action(1, DISCARD, T("3p")), Action(0, PUNG),
                   Action(0, DISCARD, T("7z"), True), Action(1, DISCARD, T("8p")),
                   Action(2, DISCARD, T("8p")), Action(0, ADDED_KONG, T("3p"))):
        hand.apply(action)
        auto_pass(hand)  # R13.2: seats with no option pass each window
    assert hand.phase == ROB and hand.legal_actions(2) == [Action(2, WIN), Action(2, PASS)]
    for seat in (1, 2):
        obs = observe(hand, seat)
        assert obs.visible[T("3p")] == 4
        assert obs.revealed[0] == tuple(counts_of(P("456p 789p 11s 23s")))
        assert obs.table == (0, T("3p"), True)
    assert observe(hand, 0).revealed[0] is None  # own hand: in ``concealed``
    # the robber's agent takes the win (R7.4 抢杠胡 ×2)
    for agent in agents()[:3]:
        assert choose(agent, hand, 2) == Action(2, WIN)


# --------------------------------------------------------------------------------------------
# The heuristic bot on concrete hands
# --------------------------------------------------------------------------------------------

KA5 = "46p 234p 123s 789s 99p"  # waits 5p, 卡五星 ×2 (R9.1)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_heuristic_wins_by_self_draw(level):
    """R7.2: a self-drawn win is taken when legal, also a ×1 one (R7.3 allows it), and rather
    than a concealed kong."""
    hand = deal({0: KA5}, "5p")
    assert Action(0, WIN) in hand.legal_actions(0)
    assert choose(HeuristicAgent(level), hand, 0) == Action(0, WIN)
    hand = deal({0: "34p 678p 123s 789s 99p"}, "2p")  # 屁胡 ×1
    assert choose(HeuristicAgent(level), hand, 0) == Action(0, WIN)
    hand = deal({0: "1111p 22p 33s 44s 66s 5z"}, "5z")  # 龙七对 with a kong on offer
    assert Action(0, CONCEALED_KONG, T("1p")) in hand.legal_actions(0)
    assert choose(HeuristicAgent(level), hand, 0) == Action(0, WIN)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_heuristic_wins_on_a_discard(level):
    """R7.2: seat 1 waits 5p (卡五星 ×2, so a discard win is legal, R7.3); seat 0 discards 5p."""
    hand = deal({1: KA5}, "5p")
    step(hand, Action(0, DISCARD, T("5p")))
    assert hand.phase == CLAIM and Action(1, WIN) in hand.legal_actions(1)
    assert choose(HeuristicAgent(level), hand, 1) == Action(1, WIN)


def test_heuristic_level3_never_feeds_a_declared_wait():
    """R8.1/R8.7 (feeding allowed by default): seat 0 declares 亮倒 waiting 5p. Seat 1 holds an
    isolated 5p whose discard would make it ready: levels 1-2 throw it (into the declared
    wait); level 3 keeps it and breaks its shape instead, with other tiles legal."""
    hand = deal({0: KA5, 1: "11p 5p 234s 567s 789s 1s"}, "7z 3s")
    step(hand, Action(0, DISCARD, T("7z"), True))
    while hand.phase != TURN:
        hand.apply(Action(hand.to_act()[0], PASS))
    assert hand.current == 1 and observe(hand, 1).waits[0] == (T("5p"),)
    assert Action(1, DISCARD, T("5p")) in hand.legal_actions(1)
    assert choose(HeuristicAgent(1), hand, 1).tile == T("5p")
    assert choose(HeuristicAgent(2), hand, 1) == Action(1, DISCARD, T("5p"), True)
    safe = choose(HeuristicAgent(3), hand, 1)
    assert safe.verb == DISCARD and safe.tile != T("5p") and not safe.declare


def test_heuristic_level3_feeds_only_when_nothing_else_is_legal():
    """Seat 0 declares waiting 5p; seat 1 declares too (waits 2s). Having declared, seat 1
    must discard each tile it draws (R8.2): it draws 5p, its only legal action is to discard
    it, and level 3 does so (seat 0 may then win on it, R8.4 包胡)."""
    hand = deal({0: KA5, 1: "11p 234s 567s 789s 13s"}, "7z 6z 9p 8p 5p")
    step(hand, Action(0, DISCARD, T("7z"), True))
    step(hand, Action(1, DISCARD, T("6z"), True))
    tsumogiri(hand, 2)
    tsumogiri(hand, 0)
    while hand.phase != TURN:
        hand.apply(Action(hand.to_act()[0], PASS))
    assert hand.current == 1 and hand.seats[1].drawn == T("5p")
    assert hand.legal_actions(1) == [Action(1, DISCARD, T("5p"))]
    assert choose(HeuristicAgent(3), hand, 1) == Action(1, DISCARD, T("5p"))
    hand.apply(Action(1, DISCARD, T("5p")))
    assert choose(HeuristicAgent(3), hand, 0) == Action(0, WIN)


def test_heuristic_declares_with_live_waits_from_level_2():
    """R8.1: KA5 + 7z, discarding 7z leaves a ready hand waiting 5p with 4 copies unseen:
    levels 2 and 3 declare 亮倒 with that discard, level 1 never declares."""
    hand = deal({0: KA5}, "7z")
    assert Action(0, DISCARD, T("7z"), True) in hand.legal_actions(0)
    assert choose(HeuristicAgent(1), hand, 0) == Action(0, DISCARD, T("7z"))
    for level in (2, 3):
        assert choose(HeuristicAgent(level), hand, 0) == Action(0, DISCARD, T("7z"), True)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_heuristic_pungs_only_to_lower_shanten(level):
    """R4.2: 77z + 2p 5p 8p 234s 567s 13s is 2-shanten; punging 7z and dropping 8p leaves it
    1-shanten: pung. 11p 234s 567s 789s 13s is ready (waits 2s): punging 1p leaves it ready at
    best: pass."""
    hand = deal({1: "77z 2p 5p 8p 234s 567s 13s"}, "7z")
    counts = list(hand.seats[1].concealed)
    assert shanten(counts) == 2
    step(hand, Action(0, DISCARD, T("7z")))
    assert choose(HeuristicAgent(level), hand, 1) == Action(1, PUNG)

    hand = deal({1: "11p 234s 567s 789s 13s"}, "1p")
    assert shanten(list(hand.seats[1].concealed)) == 0
    step(hand, Action(0, DISCARD, T("1p")))
    assert Action(1, PUNG) in hand.legal_actions(1)
    assert choose(HeuristicAgent(level), hand, 1) == Action(1, PASS)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_heuristic_takes_an_added_kong(level):
    """R6.2: seat 1 pungs 7p, later draws the fourth 7p: it adds the kong (each other player
    pays 1) at once, as it must be done on that draw or never."""
    hand = deal({1: "77p 123s 456s 11p 5z 6z 8s"}, "7p 9s 9s 7p")
    step(hand, Action(0, DISCARD, T("7p")))
    step(hand, Action(1, PUNG))
    step(hand, Action(1, DISCARD, T("5z")))
    tsumogiri(hand, 2)
    tsumogiri(hand, 0)
    while hand.phase != TURN:
        hand.apply(Action(hand.to_act()[0], PASS))
    assert hand.current == 1 and hand.seats[1].drawn == T("7p")
    assert Action(1, ADDED_KONG, T("7p")) in hand.legal_actions(1)
    assert choose(HeuristicAgent(level), hand, 1) == Action(1, ADDED_KONG, T("7p"))


def _kong_into_a_declared_wait(rules: RuleSet = RULES) -> Hand:
    """Seat 1 pungs 7p; seat 2 declares 亮倒 waiting 7p (68p); seat 1 draws the fourth 7p."""
    hand = deal({1: "77p 123s 456s 11p 5z 6z 8s", 2: "68p 234p 345s 678s 99s"}, "7p 1s 9p 7p",
                rules=rules)
    step(hand, Action(0, DISCARD, T("7p")))
    step(hand, Action(1, PUNG))
    step(hand, Action(1, DISCARD, T("5z")))
    step(hand, Action(2, DISCARD, T("1s"), True))
    tsumogiri(hand, 0)
    while hand.phase != TURN:
        hand.apply(Action(hand.to_act()[0], PASS))
    assert hand.current == 1 and hand.seats[2].waits == (T("7p"),)
    assert Action(1, ADDED_KONG, T("7p")) in hand.legal_actions(1)
    return hand


def test_heuristic_level3_does_not_add_a_kong_a_declared_player_would_rob():
    """R7.4 + R8.4: adding the kong of 7p lets seat 2 rob it: 抢杠胡 ×2 × 亮倒 ×2, paid double
    by the konger (8). Levels 1-2 add it anyway; level 3 keeps the 7p and discards a safe tile
    (a fix: it used to add every kong). Without robbing (option robbing_kong false) the kong
    is safe and level 3 adds it."""
    hand = _kong_into_a_declared_wait()
    for level in (1, 2):
        assert choose(HeuristicAgent(level), hand, 1) == Action(1, ADDED_KONG, T("7p"))
    safe = choose(HeuristicAgent(3), hand, 1)
    assert safe.verb == DISCARD and safe.tile != T("7p")
    hand.apply(Action(1, ADDED_KONG, T("7p")))
    hand.apply(choose(HeuristicAgent(3), hand, 2))
    assert hand.winners == [2] and hand.deltas == [0, -8, 8]
    hand = _kong_into_a_declared_wait(RuleSet.preset(robbing_kong=False))
    assert choose(HeuristicAgent(3), hand, 1) == Action(1, ADDED_KONG, T("7p"))


@pytest.mark.parametrize("level", [1, 2, 3])
def test_heuristic_takes_a_concealed_kong_that_keeps_the_shanten(level):
    """R6.1: 111p 234s 567s 789s 5z + 1p: the 暗杠 of 1p leaves the hand as ready as
    before (each other player pays 2), so the bot declares it."""
    hand = deal({0: "111p 234s 567s 789s 5z"}, "1p")
    assert choose(HeuristicAgent(level), hand, 0) == Action(0, CONCEALED_KONG, T("1p"))


@pytest.mark.parametrize("level", [1, 2, 3])
def test_heuristic_discards_the_isolated_dragon(level):
    """123p 456p 789p 1357s + 7z: discarding 7z leaves 1-shanten with 24 effective tiles;
    breaking a run of p leaves 2-shanten, and 1s/7s/3s/5s fewer effective tiles."""
    hand = deal({0: "123p 456p 789p 1357s"}, "7z")
    assert choose(HeuristicAgent(level), hand, 0) == Action(0, DISCARD, T("7z"))


def test_heuristic_level1_piao_picks_the_lowest_choice():
    """R11.1: with piao_choices [0, 1, 2, 5] (preset app) level 1 never raises the side bet,
    whatever the order of the legal actions; with [2, 5] it picks 2. (Levels 2-3 choose by the
    dealt hand: test_heuristic_decisions.)"""
    hand = deal({}, "", rules=RuleSet.preset("app"))
    assert hand.phase == PIAO_PHASE
    legal = hand.legal_actions(2)
    assert sorted(a.piao for a in legal) == [0, 1, 2, 5]
    assert HeuristicAgent(1).act(observe(hand, 2), legal[::-1]) == Action(2, PIAO, piao=0)
    hand = deal({}, "", rules=RuleSet.preset("app", piao_choices=[2, 5]))
    assert HeuristicAgent(1).act(observe(hand, 0), hand.legal_actions(0)).piao == 2


def test_heuristic_defends_late_when_far_from_ready():
    """Level 3, 20 tiles or fewer in the wall and 2+ shanten: the tiles held are penalised by
    their unseen copies (no ready hand to play for, so do not deal in). 11p 9p 1s 9s 5z 6z 7z
    258p 258s (4-shanten): early it throws 2p; late, with the other three 5p seen, it throws
    the 5p nobody can want. Level 2 does not defend."""
    hand = deal({0: "19p 19s 5z 6z 7z 258p 258s"}, "1p")
    obs, legal = observe(hand, 0), hand.legal_actions(0)
    assert shanten(list(obs.concealed)) == 4
    visible = list(obs.visible)
    visible[T("5p")] = 4
    late = dataclasses.replace(obs, wall_left=5, visible=tuple(visible))
    assert HeuristicAgent(3).act(obs, legal) == Action(0, DISCARD, T("2p"))
    assert HeuristicAgent(3).act(late, legal) == Action(0, DISCARD, T("5p"))
    assert HeuristicAgent(2).act(late, legal) == Action(0, DISCARD, T("2p"))


def test_heuristic_follows_the_hint_ranking():
    """The bot's discard (level 1, no defence) is the top of :func:`rank_discards` for its
    seat's observation (the hint and the bot agree)."""
    hand = deal({0: "123p 456p 789p 1357s"}, "7z")
    obs = observe(hand, 0)
    best = rank_discards(list(obs.concealed), [], obs.visible, RULES)[0]
    assert HeuristicAgent(1).act(obs, hand.legal_actions(0)).tile == best.tile == T("7z")


@pytest.mark.parametrize("spec", ["heuristic", "heuristic:1", "heuristic:3", "random"])
def test_agents_play_whole_hands_legally(spec):
    """Any agent, in every seat, finishes a hand with only legal actions (the engine refuses
    anything else) and the scores sum to zero."""
    for seed in range(3):
        hand = Hand.deal(RULES, seed, seed=f"agents/{seed}")
        players = [make_agent(spec, f"{seed}/{s}") for s in range(3)]
        while not hand.ended:
            seat = hand.to_act()[0]
            hand.apply(players[seat].act(observe(hand, seat), hand.legal_actions(seat)))
        assert sum(hand.deltas) == 0 and hand.phase == ENDED


def test_random_agent_is_seeded():
    """The same seed, the same choices; the choice is always one of the legal actions."""
    hand = deal({0: "123p 456p 789p 1357s"}, "7z")
    obs, legal = observe(hand, 0), hand.legal_actions(0)
    a, b = RandomAgent(5), RandomAgent(5)
    picks = [a.act(obs, legal) for _ in range(30)]
    assert picks == [b.act(obs, legal) for _ in range(30)]
    assert set(picks) <= set(legal) and len(set(picks)) > 3


# --------------------------------------------------------------------------------------------
# make_agent
# --------------------------------------------------------------------------------------------

def test_make_agent_names_and_levels():
    assert AGENT_NAMES == ("random", "learned", "heuristic", "expert", "policy")
    assert isinstance(make_agent("random"), RandomAgent)
    assert make_agent("random").name == "random"
    bot = make_agent("heuristic")
    assert isinstance(bot, HeuristicAgent) and bot.level == 3 and bot.name == "heuristic"
    for level in (1, 2, 3):
        assert make_agent(f"heuristic:{level}").level == level
    assert make_agent(" heuristic:2 ").level == 2


def test_make_agent_seed_seeds_the_agent():
    hand = deal({0: "123p 456p 789p 1357s"}, "7z")
    obs, legal = observe(hand, 0), hand.legal_actions(0)
    a, b = make_agent("random", "s/1"), make_agent("random", "s/1")
    assert [a.act(obs, legal) for _ in range(20)] == [b.act(obs, legal) for _ in range(20)]


@pytest.mark.parametrize("spec", ["heuristic:4", "heuristic:0", "foo", "random:1", "Random",
                                  "heuristic:x", ""])
def test_make_agent_errors(spec):
    with pytest.raises(ValueError):
        make_agent(spec)


def test_heuristic_agent_level_checked():
    with pytest.raises(ValueError):
        HeuristicAgent(4)
