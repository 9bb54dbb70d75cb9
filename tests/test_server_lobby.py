"""Finding opponents (issue 35): public rooms listed in the lobby (``GET /api/rooms``), quick
match (``POST /api/quick``) and the open seats bots take after the wait a room was made with
(``fill_after``)."""

from __future__ import annotations

import time

from kawuxing.server.config import ServerConfig
from kawuxing.server.testing import ServerThread, http


def config_for(tmp_path) -> ServerConfig:
    return ServerConfig(db_url=f"sqlite+aiosqlite:///{tmp_path / 'lobby.db'}", bot_delay=0,
                        claim_window=0, rate=1000, burst=1000, create_rate=0, join_rate=0,
                        lookup_rate=0)


def listed(server, until=lambda rooms: True, timeout: float = 10.0) -> list[dict]:
    """``GET /api/rooms``'s rooms once ``until(rooms)`` holds (the writer stores a moment
    later than the answer to a request)."""
    deadline = time.monotonic() + timeout
    while True:
        status, body = http("GET", f"{server.url}/api/rooms")
        assert status == 200, body
        if until(body["rooms"]) or time.monotonic() > deadline:
            return body["rooms"]
        time.sleep(0.05)


def test_public_rooms_are_listed_while_they_wait(tmp_path):
    with ServerThread(config_for(tmp_path)) as srv:
        status, public = http("POST", f"{srv.url}/api/rooms", {
            "nickname": "甲", "seats": ["human", "human", "heuristic"], "public": True,
            "preset": "xiaogan", "hands": 4})
        assert status == 201, public
        status, private = http("POST", f"{srv.url}/api/rooms", {
            "nickname": "乙", "seats": ["human", "human", "heuristic"]})
        assert status == 201
        rooms = listed(srv, lambda r: len(r) == 1)
        assert [r["code"] for r in rooms] == [public["code"]]
        room = rooms[0]
        assert (room["preset"], room["hands"], room["open"], room["fill_after"]) == \
            ("xiaogan", 4, 1, None)
        assert [s["kind"] for s in room["seats"]] == ["human", "open", "bot"]
        assert room["seats"][0]["nickname"] == "甲" and "token" not in str(room)
        status, _ = http("POST", f"{srv.url}/api/rooms/{public['code']}/join",
                         {"nickname": "丙"})
        assert status == 200
        assert listed(srv, lambda r: not r) == []  # full: the match started


def test_quick_match_joins_a_waiting_room_of_the_preset_or_opens_one(tmp_path):
    with ServerThread(config_for(tmp_path)) as srv:
        status, first = http("POST", f"{srv.url}/api/quick",
                             {"preset": "capped", "nickname": "甲", "fill_after": None})
        assert status == 200, first
        assert first["created"] and first["seat"] == 0 and first["token"]
        assert first["room"]["settings"]["public"] is True
        assert [s["kind"] for s in first["room"]["seats"]] == ["human", "open", "open"]
        listed(srv, lambda r: len(r) == 1)
        status, second = http("POST", f"{srv.url}/api/quick", {"preset": "capped"})
        assert (status, second) == (200, {"code": first["code"], "created": False})
        status, other = http("POST", f"{srv.url}/api/quick",
                             {"preset": "xiaogan", "nickname": "乙", "fill_after": None})
        assert status == 200 and other["created"] and other["code"] != first["code"]
        status, bad = http("POST", f"{srv.url}/api/quick", {"preset": "atlantis"})
        assert (status, bad["detail"]["code"]) == (422, "bad_rules")
        status, bad = http("POST", f"{srv.url}/api/quick",
                           {"preset": "capped", "nickname": "丁", "fill_after": 9999})
        # (a room of that preset waits: it is offered, whatever the wait asked)
        assert (status, bad["code"]) == (200, first["code"])


def test_bots_take_the_open_seats_after_the_wait(tmp_path):
    with ServerThread(config_for(tmp_path)) as srv:
        status, made = http("POST", f"{srv.url}/api/quick",
                            {"preset": "standard", "nickname": "甲", "fill_after": 0.5})
        assert status == 200 and made["created"]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            status, info = http("GET", f"{srv.url}/api/rooms/{made['code']}")
            if info["status"] == "playing":
                break
            time.sleep(0.1)
        assert info["status"] == "playing"
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot"]
        status, bad = http("POST", f"{srv.url}/api/rooms", {
            "nickname": "乙", "fill_after": -1})
        assert (status, bad["detail"]["code"]) == (422, "bad_time")
