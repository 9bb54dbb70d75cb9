"""What each seat may see (RULES.md R13) over many random hands.

At every step of random hands, for every seat, :func:`seat_view` and :func:`events_for_seat`
must show the seat exactly what R13 lets it see:

- tile accounting: the tiles named by the view (own hand, the river, melds, the revealed
  hands of declared players) are exactly the tiles visible to that seat, computed here from
  the true state: own concealed tiles, every discard not taken, every meld except the tile of
  another's concealed kong (unless ``concealed_kong_visible``), a declared player's concealed
  tiles except triplets kept face down (R8.6) and the tile just drawn; after the end, all;
- indistinguishability: hiding what the seat may not know (reshuffling the other players'
  hidden tiles with the undrawn wall, changing their hidden triplets, concealed kong tiles,
  drawn tiles, 漏胡 records, secret 漂 picks, and who holds which option on the tile on the
  table) leaves the seat's view unchanged;
- no view or event holds another seat's hidden hand, the undrawn wall, others' draws, or any
  ``to_act``-like field; the deal event holds only the seat's own 13 tiles.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kawuxing.engine import (ADDED_KONG, CONCEALED_KONG, DISCARD, KONG, PIAO_PHASE, PUNG, ROB,
                             WIN, Action, Hand)
from kawuxing.engine.views import events_for_seat, seat_view
from kawuxing.face_down import Group
from kawuxing.melds import MELD_CONCEALED_KONG, Meld
from kawuxing.rules import RuleSet
from kawuxing.tiles import counts_of, format_tiles, kinds_for_suits, parse_tiles, tile_str
from helpers import auto_pass, make_wall, rule_sets, tiles_in_view, visible_tiles

games = st.fixed_dictionaries({
    # options that change what a seat sees or may do (R8.6, R6.1, R8.7, R4.3, R7.4, R1.1)
    "rules": rule_sets("declare_hide_triplets", "concealed_kong_visible", "feeding_declared",
                       "double_win", "robbing_kong", "suits"),
    "dealer": st.integers(0, 2),
    "wall_seed": st.integers(0, 2**32 - 1),
    "clumpy": st.booleans(),
    "agent_seed": st.integers(0, 2**32 - 1),
})

# keys that would tell a seat who may act on the tile on the table, or the wall's order
FORBIDDEN_KEYS = {"to_act", "options", "answers", "draws", "wall_tiles", "wall_order", "pending",
                  "missed"}


def choose(hand: Hand, rng: random.Random, declare_bias: float) -> Action:
    """A random legal action, taking wins, kongs and 亮倒 (with hidden triplets) often."""
    seat = rng.choice(hand.to_act())
    actions = hand.legal_actions(seat)
    special = [a for a in actions if a.verb in (WIN, CONCEALED_KONG, ADDED_KONG, KONG, PUNG)]
    declares = [a for a in actions if a.declare]
    if declares and rng.random() < declare_bias:
        hiding = [a for a in declares if a.hidden]
        return rng.choice(hiding if hiding and rng.random() < 0.7 else declares)
    if special and rng.random() < 0.7:
        return rng.choice(special)
    return rng.choice(actions)


# --- what the seat may see, from the true state: helpers.visible_tiles ------------------------


def strings_in(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k] + strings_in(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings_in(v)]
    return []


def keys_in(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, (list, tuple)):
        return {k for v in value for k in keys_in(v)}
    return set()


def lists_in(value: object) -> list[list]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in lists_in(v)]
    if isinstance(value, (list, tuple)):
        return [list(value)] + [x for v in value for x in lists_in(v)]
    return []


def secrets_of(hand: Hand, seat: int) -> tuple[set[str], list[list[str]]]:
    """Strings and tile lists ``seat`` must not meet before the end: each other player's hidden
    concealed tiles (whole), and the undrawn wall in order or sorted."""
    strings, lists = set(), []
    for i, s in enumerate(hand.seats):
        if i == seat or sum(s.concealed) < 5:
            continue
        face_down = bool(s.hidden)  # face-down groups (a konged triplet leaves them)
        if not s.declared or face_down or (s.drawn is not None and hand.current == i):
            strings.add(format_tiles(s.concealed_tiles()))
    # another hand can equal the seat's own tile for tile (seen once): that string is no secret
    strings.discard(format_tiles(hand.seats[seat].concealed_tiles()))
    rest = hand.draws[len(hand.draws) - hand.wall_left:]
    if len(rest) >= 4:
        strings.add(format_tiles(rest))
        strings.add(" ".join(tile_str(t) for t in rest))
        strings.add("".join(tile_str(t) for t in rest))
        lists.append([tile_str(t) for t in rest])
        lists.append(list(rest))
    return strings, lists


# --- a hand like this one in everything the seat cannot see ----------------------------------

def twin(hand: Hand, seat: int, rng: random.Random) -> Hand:
    """A copy of ``hand`` that differs only in what ``seat`` may not know (before the end)."""
    other = copy.copy(hand)
    other.seats = copy.deepcopy(hand.seats)
    other.pending = copy.deepcopy(hand.pending)
    if isinstance(getattr(hand, "_legal", None), dict):
        other._legal = {}  # the legal-action cache belongs to the state
    in_play = list(kinds_for_suits(hand.rules.suits))
    drawn_so_far = len(hand.draws) - hand.wall_left
    pool = hand.draws[drawn_so_far:]
    hidden_seats = [i for i in range(3) if i != seat and not other.seats[i].declared]
    for i in hidden_seats:
        pool += other.seats[i].concealed_tiles()
    rng.shuffle(pool)
    for i in hidden_seats:
        s = other.seats[i]
        n = sum(s.concealed)
        mine, pool = pool[:n], pool[n:]
        s.concealed = counts_of(mine)
        if s.drawn is not None:
            s.drawn = rng.choice(mine)
    other._draws = hand.draws[:drawn_so_far] + pool
    for i, s in enumerate(other.seats):
        if i == seat:
            continue
        s.missed = [rng.choice([1, 2, 4, 8])] if rng.random() < 0.5 else []
        if s.declared:
            if s.drawn is not None and other.current == i:  # another drawn tile
                new = rng.choice(in_play)
                s.concealed[s.drawn] -= 1
                s.concealed[new] += 1
                s.drawn = new
            hidden = []
            for group in s.hidden:  # another face-down triplet
                k = group.tile
                free = [j for j in in_play if s.concealed[j] == 0
                        and all(m.tile != j for m in s.melds)]
                if group.kind == "pung" and k != s.drawn and free:
                    j = rng.choice(free)
                    s.concealed[k] -= 3
                    s.concealed[j] += 3
                    hidden.append(Group("pung", j))
                else:
                    hidden.append(group)
            s.hidden = tuple(sorted(hidden))
        if not hand.rules.concealed_kong_visible:
            s.melds = [Meld(m.kind, rng.choice(in_play)) if m.kind == MELD_CONCEALED_KONG else m
                       for m in s.melds]
        if other.phase == PIAO_PHASE and s.piao is not None:
            s.piao = rng.choice(hand.rules.piao_choices)
    pending = other.pending
    if pending is not None:
        for i in range(3):
            if i == seat or i == pending.seat:
                continue
            if rng.random() < 0.5:
                pending.options.pop(i, None)
                pending.values.pop(i, None)
            else:
                pending.options[i] = rng.choice([[WIN], [PUNG], [PUNG, KONG], [WIN, PUNG]])
            if rng.random() < 0.5:
                pending.answers.pop(i, None)
            elif i in pending.options:
                pending.answers[i] = rng.choice(pending.options[i] + ["pass"])
    return other


# --- the checks ------------------------------------------------------------------------------

def check_view(hand: Hand, seat: int, rng: random.Random,
               secrets: tuple[set[str], list[list]]) -> None:
    view = seat_view(hand, seat)
    json.dumps(view, ensure_ascii=False)
    me = hand.seats[seat]
    assert view["hand"] == format_tiles(me.concealed_tiles())
    assert view["legal"] == [a.to_json() for a in hand.legal_actions(seat)]
    assert view["drawn"] in (None, tile_str(me.drawn) if me.drawn is not None else None)
    # the view names exactly the visible tiles; the tile of a kong being added may be named
    # only on the table (``table``), not in the konger's revealed hand
    named, allowed = tiles_in_view(view), visible_tiles(hand, seat)
    assert not named - allowed, (named - allowed)
    missing = allowed - named
    assert not missing or (hand.phase == ROB and seat != hand.pending.seat
                           and missing == Counter({hand.pending.tile: 1})), missing
    for entry in view["seats"]:
        i = entry["seat"]
        assert entry["concealed_count"] == sum(hand.seats[i].concealed)
        if i != seat and not hand.ended:
            assert not {"hand", "concealed", "drawn"} & set(entry)
            assert ("revealed" in entry) == hand.seats[i].declared
    if hand.ended:
        for entry, s in zip(view["seats"], hand.seats):
            assert entry["revealed"] == format_tiles(s.concealed_tiles())
        return
    assert not FORBIDDEN_KEYS & keys_in(view)
    strings, lists = secrets
    assert not strings & set(strings_in(view))
    assert not any(x in lists for x in lists_in(view))
    assert seat_view(twin(hand, seat, rng), seat) == view


def check_events(hand: Hand, seat: int, since: int,
                 secrets: tuple[set[str], list[list]]) -> None:
    events = events_for_seat(hand, seat, since)
    assert [e["n"] for e in events] == list(range(since, len(hand.events)))
    json.dumps(events, ensure_ascii=False)
    strings, lists = secrets
    for e in events:
        kind = e["type"]
        if kind == "deal":
            assert set(e) == {"n", "type", "dealer", "hand", "wall"}
            assert e["hand"] == format_tiles(sorted(hand.initial_hands[seat]))
        elif kind == "draw":
            assert ("tile" in e) == (e["seat"] == seat)
        elif kind == "kong" and e["kind"] == MELD_CONCEALED_KONG:
            assert ("tile" in e) == (e["seat"] == seat or hand.rules.concealed_kong_visible)
        elif kind == "piao_chosen":
            assert set(e) == {"n", "type", "seat"}
        if kind != "hand_end":
            assert "hands" not in e
            assert not FORBIDDEN_KEYS & keys_in(e)
            if not hand.ended:
                assert not strings & set(strings_in(e))
                assert not any(x in lists for x in lists_in(e))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_views_and_events_show_each_seat_only_what_it_may_see(game):
    """R13.1 (with R6.1, R8.1, R8.6, R11.1) at every step of a random hand, for every seat."""
    rules = game["rules"]
    hand = Hand.deal(rules, game["dealer"],
                     wall=make_wall(rules, game["wall_seed"], game["clumpy"]))
    rng = random.Random(game["agent_seed"])
    declare_bias = rng.choice([0.2, 0.9])
    since = [0, 0, 0]
    while True:
        for seat in range(3):
            secrets = secrets_of(hand, seat)
            check_view(hand, seat, rng, secrets)
            check_events(hand, seat, since[seat], secrets)
            since[seat] = len(hand.events)
        if hand.ended:
            break
        hand.apply(choose(hand, rng, declare_bias))
    for seat in range(3):  # the whole log once more, as a client joining late would get it
        check_events(hand, seat, 0, secrets_of(hand, seat))


def test_claim_window_view_names_no_option_holder():
    """R13/R4.3: while seats answer a discard, no view says who may win, pung or kong it, nor
    who has answered; each seat sees only its own legal answers."""
    hand = Hand(RuleSet.preset(), 0,
                [parse_tiles(h) for h in ["5p 111s 222s 333s 789p", "55p 19p 19s 5z 6z 7z 2468s",
                                          "46p 888p 555s 66z 123p"]], parse_tiles("7z 9s 1p"))
    hand.apply(Action(0, DISCARD, parse_tiles("5p")[0]))
    views = [seat_view(hand, s) for s in range(3)]
    assert [v["legal"] for v in views] == [[], [[1, "pung"], [1, "pass"]],
                                           [[2, "win"], [2, "pass"]]]
    for v in views:
        assert v["table"] == {"seat": 0, "tile": "5p", "robbing": False}
        assert not FORBIDDEN_KEYS & keys_in(v)
    hand.apply(Action(1, PUNG))  # answered, but the pung waits for seat 2
    assert seat_view(hand, 0) == views[0]
    assert seat_view(hand, 2) == views[2]
    assert seat_view(hand, 1) == {**views[1], "legal": []}


def test_declared_players_tile_just_drawn_is_not_shown():
    """R13/R8.2: a declared player's revealed hand never includes the tile just drawn (it is
    seen when discarded); its own view shows it."""
    hand = Hand(RuleSet.preset(), 0,
                [parse_tiles(h) for h in ["111s 333s 444s 999s 7z", "123p 456p 78s 55z 222s",
                                          "6s 888p 33p 1245p 7p 66z"]],
                parse_tiles("7z 9p 5z 2p 1p"))
    for seat, tile, declare in [(0, "7z", False), (1, "9p", True), (2, "5z", False),
                                (0, "2p", False)]:
        hand.apply(Action(seat, DISCARD, parse_tiles(tile)[0], declare))
        auto_pass(hand)
    assert hand.current == 1 and hand.seats[1].drawn == parse_tiles("1p")[0]
    for seat in (0, 2):
        assert seat_view(hand, seat)["seats"][1]["revealed"] == "123456p 22278s 55z"
    assert seat_view(hand, 1)["hand"] == "1123456p 22278s 55z"
    assert seat_view(hand, 1)["drawn"] == "1p"
