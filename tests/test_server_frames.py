"""``GET /api/hands/{match_id}/{number}/frames``: the replay of an ended hand as the engine
draws it (:func:`kawuxing.records.replay_frames`), for a seat or the whole table, and its
refusals with machine-readable codes (R13: a hand in play is never replayed)."""

from __future__ import annotations

import json
import time

import pytest

from kawuxing.records import replay, replay_frames
from kawuxing.server.config import ServerConfig
from kawuxing.server.testing import ServerThread, http


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'frames.db'}"
    config = ServerConfig(db_url=url, bot_delay=0, claim_window=0, hand_pause=60,
                          decision_seconds=600, rate=1000, burst=1000)
    with ServerThread(config) as srv:
        yield srv


def ended_record(server) -> tuple[str, dict]:
    """A match of one hand played by bots: its id and the stored record of hand 0."""
    status, made = http("POST", f"{server.url}/api/rooms",
                        {"seats": ["heuristic:2", "random", "heuristic:1"], "hands": 1})
    assert status == 201, made
    match_id = made["room"]["match_id"]
    deadline = time.monotonic() + 30
    while True:
        status, record = http("GET", f"{server.url}/api/hands/{match_id}/0")
        if status == 200:
            return match_id, record
        assert status == 409 and time.monotonic() < deadline, record
        time.sleep(0.05)


def test_frames_of_an_ended_hand_for_the_table_and_each_seat(server):
    match_id, record = ended_record(server)
    steps = len(record["actions"]) + 1
    base = f"{server.url}/api/hands/{match_id}/0/frames"
    status, table = http("GET", base)
    assert status == 200
    assert table == json.loads(json.dumps(replay_frames(record)))
    assert [f["step"] for f in table["frames"]] == list(range(steps))
    first, last = table["frames"][0], table["frames"][-1]
    assert first["view"]["seat"] is None and first["events"][0]["type"] == "deal"
    assert [s["revealed"] for s in first["view"]["seats"]] != [None] * 3
    assert last["view"]["result"] == record["result"]
    assert last["view"]["deltas"] == replay(record).deltas
    for seat in range(3):
        status, mine = http("GET", f"{base}?seat={seat}")
        assert status == 200
        assert mine == json.loads(json.dumps(replay_frames(record, seat)))
        assert len(mine["frames"]) == steps
        assert {f["view"]["seat"] for f in mine["frames"]} == {seat}
        deal = mine["frames"][0]["events"][0]
        assert deal["type"] == "deal" and deal["hand"] == record["hands"][seat]
        assert "hands" not in deal  # a seat's frames are its own (R13)


def test_frames_refusals_have_codes(server):
    match_id, _ = ended_record(server)
    base = f"{server.url}/api/hands"
    for query in ("?seat=3", "?seat=-1", "?seat=x", "?seat=", "?seat=01"):
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
