"""Replays built by the engine (:func:`kawuxing.records.replay_frames`) and the view fields
that spare a client any rule work: ``unseen`` (R13.1), ``declare_waits`` (R8.1, R8.6),
``ready_waits`` (R8.1), the whole-table view (:func:`views.table_view`) and running totals.

The frames are checked against the engine replayed from scratch to every step
(:func:`records.replay` + :func:`seat_view` / :func:`events_for_seat`) over many random hands,
for the three seats and the whole table; the new fields against values computed here from
the true state.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from kawuxing.engine import PASS, Hand, Match
from kawuxing.engine.actions import action_from_json
from kawuxing.engine.views import (events_for_seat, running_totals, seat_view, spectator_view,
                                   table_events, table_view)
from kawuxing.records import PUBLIC, hand_record, replay, replay_frames
from kawuxing.rules import RuleSet
from kawuxing.shapes import waits
from kawuxing.tiles import COPIES, format_tiles, kinds_for_suits, tile_str
from helpers import KIND, make_wall, tiles_in_view, visible_tiles

CONFIGS = [("standard", {}), ("app", {}), ("standard", {"declare_hide_triplets": True}),
           ("capped", {"feeding_declared": "forbidden_if_safe_tile", "direct_kong_pay": 1}),
           ("standard", {"suits": ["m", "p"], "double_win": False}),
           ("strict", {"robbing_kong": False, "concealed_kong_visible": True})]


def random_hand(seed: int) -> Hand:
    """A hand played to its end by random choices that take 亮倒, kongs and wins often (and
    sometimes stay ready without 亮倒), with or without claim windows (R13.2), from a clumpy
    or plain wall."""
    rng = random.Random(seed)
    preset, options = CONFIGS[seed % len(CONFIGS)]
    rules = RuleSet.preset(preset, **options)
    hand = Hand.deal(rules, rng.randrange(3), wall=make_wall(rules, seed, rng.random() < 0.6),
                     windows=rng.random() < 0.5)
    while not hand.ended:
        if rng.random() < 0.5 and hand.idle_seats():
            hand.pass_idle()
            continue
        actions = hand.legal_actions(rng.choice(hand.to_act()))
        strong = [a for a in actions if a.declare or a.verb in ("win", "kong", "concealed_kong",
                                                                "added_kong", "pung")]
        quiet = [a for a in actions if not a.declare and a.verb == "discard"
                 and any(d.declare and d.tile == a.tile for d in actions)]
        if quiet and rng.random() < 0.3:  # ready without 亮倒
            hand.apply(rng.choice(quiet))
            continue
        hand.apply(rng.choice(strong if strong and rng.random() < 0.7 else actions))
    return hand


RECORDS = [hand_record(random_hand(seed)) for seed in range(36)]


def test_the_random_hands_cover_what_replays_must_show():
    """The sample holds 亮倒 (with face-down triplets), every kind of kong, robbing windows,
    wins and 荒庄, with and without claim windows: otherwise the checks below prove little."""
    verbs = Counter(a[1] for r in RECORDS for a in r["actions"])
    assert verbs["pung"] and verbs["kong"] and verbs["concealed_kong"] and verbs["added_kong"]
    assert verbs[PASS] and verbs["win"]
    declares = [a for r in RECORDS for a in r["actions"] if "declare" in a]
    assert declares and any(len(a) == 5 for a in declares)
    assert {r["result"]["result"] for r in RECORDS} == {"win", "draw"}
    assert {r["windows"] for r in RECORDS} == {True, False}


@pytest.mark.parametrize("number", range(len(RECORDS)))
def test_frames_are_the_engine_replayed_to_every_step(number):
    """Frame i = replay(record, i) seen by the seat (or the whole table), with the events of
    step i only; one frame per step, the deal first."""
    record = RECORDS[number]
    steps = len(record["actions"]) + 1
    got = {seat: replay_frames(record, seat)["frames"] for seat in (0, 1, 2, None)}
    before = None
    for i in range(steps):
        hand = replay(record, i)
        since = 0 if before is None else len(before.events)
        for seat in (0, 1, 2):
            assert got[seat][i] == {"step": i, "view": seat_view(hand, seat),
                                    "events": events_for_seat(hand, seat, since)}, (i, seat)
        assert got[None][i] == {"step": i, "view": table_view(hand),
                                "events": table_events(hand, since)}, i
        before = hand
    assert all(len(frames) == steps for frames in got.values())
    assert got[0][-1]["view"]["result"] == record["result"]
    assert got[None][0]["events"][0]["type"] == "deal"
    assert got[None][0]["events"][0]["hands"] == record["hands"]


def test_frames_events_are_each_new_event_once():
    """Over the frames, the events are the hand's whole event log, each event once, in
    order; a seat's copy is filtered (no other seat's draw tile), the table's is not."""
    for record in RECORDS[:8]:
        hand = replay(record)
        table = [e for f in replay_frames(record)["frames"] for e in f["events"]]
        assert table == [{"n": n, **e} for n, e in enumerate(hand.events)]
        for seat in range(3):
            mine = [e for f in replay_frames(record, seat)["frames"] for e in f["events"]]
            assert [e["n"] for e in mine] == list(range(len(hand.events)))
            assert all("tile" not in e for e in mine if e["type"] == "draw" and e["seat"] != seat)
            assert mine[0] == {"n": 0, "type": "deal", "dealer": record["dealer"],
                               "hand": record["hands"][seat], "wall": hand.events[0]["wall"]}


def test_public_frames_show_no_concealed_tile_of_any_seat():
    """R13, issue 16: the public perspective (what a spectator saw) over every sample hand
    (亮倒 with face-down triplets, concealed kongs, robbing windows, 荒庄): frame ``step`` is
    :func:`spectator_view` of the hand replayed to that step; before the end it names no tile
    a spectator cannot see (oracle: ``helpers.visible_tiles`` for seat None, independent of
    views.py), no concealed hand of a seat that has not shown it appears anywhere in the
    frame, no draw has its tile and the deal no hand. At the end the hands are shown, as
    the engine shows them to everyone (R12)."""
    shown_declared = checked = 0
    for record in RECORDS:
        frames = replay_frames(record, PUBLIC)
        assert frames["perspective"] == PUBLIC
        for f in frames["frames"]:
            hand = replay(record, f["step"])
            assert f["view"] == spectator_view(hand), f["step"]
            for e in f["events"]:
                assert not (e["type"] == "draw" and "tile" in e), e
                assert not (e["type"] == "deal" and ({"hand", "hands"} & set(e))), e
            if hand.ended:
                assert all("revealed" in entry for entry in f["view"]["seats"])
                continue
            assert not +(tiles_in_view(f["view"]) - visible_tiles(hand, None)), f["step"]
            text = json.dumps(f)
            for i, s in enumerate(hand.seats):
                public = s.declared and not s.hidden and not (s.drawn is not None
                                                              and hand.current == i)
                if sum(s.concealed) >= 4 and not public:
                    assert f'"{format_tiles(s.concealed_tiles())}"' not in text, (f["step"], i)
                shown_declared += "revealed" in f["view"]["seats"][i]
            checked += 1
    assert checked > 1000 and shown_declared > 50  # 亮倒 hands are shown while in play


def test_public_frames_leave_out_steps_that_show_nothing():
    """R13.2: a step with no public event (a pass in a claim window) has no public frame,
    so the frames tell nobody's options; the frames' events are still the hand's whole
    public event log, each once, in order."""
    dropped = 0
    for record in RECORDS:
        frames = replay_frames(record, PUBLIC)["frames"]
        steps = [f["step"] for f in frames]
        assert steps[0] == 0 and steps == sorted(set(steps))
        assert all(f["events"] for f in frames)
        hand = replay(record)
        assert [e for f in frames for e in f["events"]] == events_for_seat(hand, None)
        dropped += len(record["actions"]) + 1 - len(frames)
    assert dropped > 100


def test_frames_refuse_bad_seats_and_the_whole_table_of_a_hand_in_play():
    record = RECORDS[0]
    for seat in (3, -1, "0", True):
        with pytest.raises(ValueError, match="seats are 0, 1 and 2"):
            replay_frames(record, seat)
    hand = Hand.deal(RuleSet.preset(), 0, seed=5)
    hand.apply(hand.legal_actions(0)[-1])
    unfinished = hand_record(hand)
    assert unfinished["result"] is None
    with pytest.raises(ValueError, match="only for an ended hand"):
        replay_frames(unfinished)
    assert len(replay_frames(unfinished, 1)["frames"]) == 2  # a seat may watch it
    forged = dict(unfinished, result=record["result"])  # a result, but actions short of the end
    with pytest.raises(ValueError, match="stop before the end"):
        replay_frames(forged)
    with pytest.raises(ValueError, match="not a kawuxing-hand record"):
        replay_frames({"format": "other"}, 0)


def test_whole_table_view_shows_every_hand_and_the_wall_as_unseen():
    """table_view: each seat's whole concealed hand (drawn tile and face-down triplets
    included), its drawn tile and legal actions, its concealed kongs with their tiles; unseen
    = the undrawn wall by kind."""
    for record in RECORDS[:12]:
        hand = replay(record, 0)
        for i in range(len(record["actions"]) + 1):
            if i:
                hand.apply(action_from_json(record["actions"][i - 1]))
            view = table_view(hand)
            assert view["seat"] is None and not {"hand", "drawn", "legal"} & set(view)
            wall = Counter(hand.draws[len(hand.draws) - hand.wall_left:])
            assert view["unseen"] == {tile_str(k): wall[k]
                                      for k in kinds_for_suits(hand.rules.suits)}
            for entry, s in zip(view["seats"], hand.seats):
                own = seat_view(hand, entry["seat"])
                assert entry["revealed"] == format_tiles(s.concealed_tiles())
                assert entry["drawn"] == own["drawn"] and entry["legal"] == own["legal"]
                assert [m["tile"] for m in entry["melds"]] == [tile_str(m.tile) for m in s.melds]
                assert entry.get("hidden_tiles", 0) == 0
            assert view["declare_waits"] == {str(s): seat_view(hand, s)["declare_waits"]
                                             for s in range(3)}


def test_unseen_is_four_minus_what_the_seat_sees():
    """R13.1: unseen[k] = 4 − the copies of k the view names (own hand, rivers, melds,
    revealed hands; the tile of a kong being added is shown on the table)."""
    checked = 0
    for record in RECORDS[:12]:
        for seat in range(3):
            for f in replay_frames(record, seat)["frames"]:
                view = f["view"]
                named = tiles_in_view(view)
                table = view["table"]
                if table and table["robbing"] and table["seat"] != seat:
                    named[KIND[table["tile"]]] += 1
                if view["phase"] == "ended":  # the tile won on is in no hand
                    continue
                assert view["unseen"] == {tile_str(k): COPIES - named[k]
                                          for k in kinds_for_suits(RuleSet.from_options(
                                              record["rules"]).suits)}, f["step"]
                checked += 1
    assert checked > 500


def test_declare_and_ready_waits_are_those_of_the_hand_left():
    """declare_waits: exactly the tiles of the legal 亮倒 discards, each with the waits of the
    hand left (R8.1; every R8.6 variant keeps them); ready_waits: the waits of an undeclared
    hand of 3n+1 tiles."""
    declares = readies = 0
    for record in RECORDS:
        hand = replay(record, 0)
        for i in range(len(record["actions"]) + 1):
            if i:
                hand.apply(action_from_json(record["actions"][i - 1]))
            for seat in range(3):
                view = seat_view(hand, seat)
                s = hand.seats[seat]
                tiles = {a[2] for a in view["legal"] if len(a) > 3 and a[3] == "declare"}
                assert set(view["declare_waits"]) == tiles
                for code, found in view["declare_waits"].items():
                    counts = list(s.concealed)
                    counts[KIND[code]] -= 1
                    held = s.held()
                    held[KIND[code]] -= 1
                    assert found == [tile_str(w) for w in waits(counts, held)] != []
                    for a in view["legal"]:
                        if len(a) == 5 and a[2] == code:  # hidden triplets: same waits
                            for k in a[4]:
                                counts[KIND[k]] -= 3
                            assert [tile_str(w) for w in waits(counts, held)] == found
                            for k in a[4]:
                                counts[KIND[k]] += 3
                    declares += 1
                ready = (not s.declared and not hand.ended and sum(s.concealed) % 3 == 1)
                want = [tile_str(w) for w in waits(list(s.concealed), s.held())] if ready else []
                assert view["ready_waits"] == want
                readies += bool(want)
    assert declares > 50 and readies > 50


def test_running_totals_add_the_hand_in_plays_kong_money():
    """R12.1 with R6.6: ended hands' deltas plus the kong money paid so far in the hand in
    play; once it ends, the match totals."""
    match = Match(RuleSet.preset("standard", hands_per_match=3), seed="totals",
                  windows=False)
    rng = random.Random(3)
    seen_kong_money = False
    while True:
        hand = match.hand
        while not hand.ended:
            before = [sum(h.deltas[s] for h in match.hands[:-1]) for s in range(3)]
            assert running_totals(match) == [b + d for b, d in zip(before, hand.deltas)]
            seen_kong_money |= any(hand.deltas)
            seat = hand.to_act()[0]
            actions = hand.legal_actions(seat)
            kongs = [a for a in actions if "kong" in a.verb]
            hand.apply(kongs[0] if kongs else rng.choice(actions))
        assert running_totals(match) == match.totals()
        if match.over:
            break
        match.next_hand()
    assert seen_kong_money
    assert running_totals(match) == [sum(h.deltas[s] for h in match.hands) for s in range(3)]
