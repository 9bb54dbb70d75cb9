"""``GET /api/hands/{match_id}/{number}/frames``: the replay of an ended hand as the engine
draws it (:func:`kawuxing.records.replay_frames`), for a seat or the whole table (the match's
players only), the public perspective for anyone else, and its refusals with machine-readable
codes (R13: a hand in play is never replayed, no concealed tile reaches a stranger)."""

from __future__ import annotations

import json

import pytest

from kawuxing.records import PUBLIC, TABLE, replay, replay_frames
from kawuxing.server.config import ServerConfig
from kawuxing.server.testing import ServerThread, auto_played_match, http
from kawuxing.tiles import format_tiles
from helpers import tiles_in_view, visible_tiles


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'frames.db'}"
    config = ServerConfig(db_url=url, bot_delay=0, claim_window=0, hand_pause=60,
                          decision_seconds=600, rate=1000, burst=1000)
    with ServerThread(config) as srv:
        yield srv


def ended_record(server) -> tuple[str, dict, str]:
    """A match of one hand, seat 0 a guest (甲) whose seat 托管 plays, the others bots: its
    id, the stored record of hand 0 (as its player gets it) and 甲's seat token."""
    made = auto_played_match(server, {"seats": ["human", "heuristic:2", "random"],
                                      "nickname": "甲", "hands": 1})
    match_id, token = made["room"]["match_id"], made["token"]
    status, record = http("GET", f"{server.url}/api/hands/{match_id}/0", None, token)
    assert status == 200, record
    return match_id, record, token


def test_frames_of_an_ended_hand_for_the_table_and_each_seat(server):
    match_id, record, token = ended_record(server)
    steps = len(record["actions"]) + 1
    base = f"{server.url}/api/hands/{match_id}/0/frames"
    for query in ("", "?perspective=table"):
        status, table = http("GET", base + query, None, token)
        assert status == 200
        assert table == json.loads(json.dumps(replay_frames(record, TABLE)))
    assert table["perspective"] == TABLE
    assert [f["step"] for f in table["frames"]] == list(range(steps))
    first, last = table["frames"][0], table["frames"][-1]
    assert first["view"]["seat"] is None and first["events"][0]["type"] == "deal"
    assert [s["revealed"] for s in first["view"]["seats"]] != [None] * 3
    assert last["view"]["result"] == record["result"]
    assert last["view"]["deltas"] == replay(record).deltas
    for seat in range(3):
        for query in (f"?seat={seat}", f"?perspective={seat}"):
            status, mine = http("GET", base + query, None, token)
            assert status == 200
            assert mine == json.loads(json.dumps(replay_frames(record, seat)))
        assert len(mine["frames"]) == steps
        assert {f["view"]["seat"] for f in mine["frames"]} == {seat}
        deal = mine["frames"][0]["events"][0]
        assert deal["type"] == "deal" and deal["hand"] == record["hands"][seat]
        assert "hands" not in deal  # a seat's frames are its own (R13)


def test_anyone_else_gets_the_public_frames_only(server):
    """R13, issue 16: without a token of the match (none, a stranger's, another match's seat
    token, a made-up one) the record is refused and the frames are the public perspective —
    no concealed hand of any seat before the end (checked on the stored hand step by step)."""
    match_id, record, token = ended_record(server)
    other_match, _, other_token = ended_record(server)
    base = f"{server.url}/api/hands/{match_id}/0"
    public = json.loads(json.dumps(replay_frames(record, PUBLIC)))
    assert public["perspective"] == PUBLIC
    for stranger in (None, other_token, "x" * 43):
        status, body = http("GET", base, None, stranger)
        assert (status, body["detail"]["code"]) == (403, "not_a_player"), stranger
        assert "wall" in body["detail"]["message"]
        for query in ("", "?perspective=public"):
            assert http("GET", f"{base}/frames{query}", None, stranger) == (200, public)
        for query in ("?perspective=table", "?seat=0", "?perspective=1"):
            status, body = http("GET", f"{base}/frames{query}", None, stranger)
            assert (status, body["detail"]["code"]) == (403, "not_a_player"), (query, stranger)
    assert http("GET", f"{base}/frames?perspective=public", None, token) == (200, public)
    assert http("GET", f"{server.url}/api/hands/{other_match}/0", None, other_token)[0] == 200
    # what the public frames show: spectators' views, no tile of a hand not shown (R13)
    for frame in public["frames"]:
        hand = replay(record, frame["step"])
        if hand.ended:
            continue
        text = json.dumps(frame)
        for s in hand.seats:
            if not s.declared:
                assert f'"{format_tiles(s.concealed_tiles())}"' not in text
        assert not +(tiles_in_view(frame["view"]) - visible_tiles(hand, None))
        assert all("tile" not in e for e in frame["events"] if e["type"] == "draw")
    assert public["frames"][0]["events"][0] == {"n": 0, "type": "deal", "dealer": record["dealer"],
                                                "wall": public["frames"][0]["events"][0]["wall"]}
    # the list of hands: public summaries, no record
    status, listed = http("GET", f"{server.url}/api/hands?match={match_id}")
    assert status == 200 and [h["number"] for h in listed["hands"]] == [0]
    assert listed["hands"][0]["result"] == record["result"]
    assert not {"hands", "draws", "actions", "fairness"} & set(listed["hands"][0])


def test_frames_refusals_have_codes(server):
    match_id, _, _ = ended_record(server)
    base = f"{server.url}/api/hands"
    for query in ("?seat=3", "?seat=-1", "?seat=x", "?seat=", "?seat=01", "?perspective=all",
                  "?perspective=", "?perspective=3", "?seat=0&perspective=1",
                  "?seat=0&perspective=public"):
        status, body = http("GET", f"{base}/{match_id}/0/frames{query}")
        assert (status, body["detail"]["code"]) == (422, "bad_seat"), query
    for number in ("x", "-1", "1.0", "99999999"):
        status, body = http("GET", f"{base}/{match_id}/{number}/frames")
        assert (status, body["detail"]["code"]) == (422, "bad_number"), number
    for path in (f"{match_id}/1", "nosuchmatch/0"):
        status, body = http("GET", f"{base}/{path}/frames")
        assert (status, body["detail"]["code"]) == (404, "no_hand"), path
    # a hand in play: the human dealer has not acted yet
    status, made = http("POST", f"{server.url}/api/rooms", {
        "seats": ["human", "heuristic", "heuristic"], "nickname": "甲", "hands": 1,
        "options": {"first_dealer": "seat0"}})
    assert status == 201, made
    playing = made["room"]["match_id"]
    assert playing
    for query in ("", "?seat=0"):
        status, body = http("GET", f"{base}/{playing}/0/frames{query}")
        assert (status, body["detail"]["code"]) == (409, "hand_in_play"), query
        assert "wall" in body["detail"]["message"]


def test_the_review_of_a_seat_for_the_matchs_players_only(server):
    """Issue 32: GET …/review?seat=S is kawuxing.review.review of the stored record, for the
    match's players (R13: it reads the wall and every hand), with coded refusals."""
    from kawuxing.review import review

    match_id, record, token = ended_record(server)
    base = f"{server.url}/api/hands/{match_id}/0/review"
    for seat in (0, 1):
        status, body = http("GET", f"{base}?seat={seat}", None, token)
        assert status == 200, body
        assert body == json.loads(json.dumps(review(record, seat)))
        assert body["seat"] == seat and body["decisions"]
        assert all(d["loss"] >= 0 for d in body["decisions"])
    status, again = http("GET", f"{base}?seat=1", None, token)  # kept: the same answer
    assert status == 200 and again == body
    status, body = http("GET", f"{base}?seat=0")
    assert (status, body["detail"]["code"]) == (403, "not_a_player")
    for query in ("", "?seat=3", "?seat=x"):
        status, body = http("GET", f"{base}{query}", None, token)
        assert (status, body["detail"]["code"]) == (422, "bad_seat"), query
    status, body = http("GET", f"{server.url}/api/hands/{match_id}/5/review?seat=0", None, token)
    assert (status, body["detail"]["code"]) == (404, "no_hand")
