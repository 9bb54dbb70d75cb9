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


def quick(srv, body, token=None) -> tuple[int, dict]:
    """``POST /api/quick``, then (for a room it opened) the caller's join of seat 0, as the
    browser does: ``(status, answer)`` with the join's ``seat``/``token`` added."""
    status, found = http("POST", f"{srv.url}/api/quick", body, token)
    if status != 200 or not found["created"]:
        return status, found
    status, joined = http("POST", f"{srv.url}/api/rooms/{found['code']}/join",
                          {"nickname": body.get("nickname"), "seat": 0}, token)
    assert status == 200, joined
    return status, {**found, "seat": joined["seat"], "token": joined["token"]}


def test_quick_match_joins_a_waiting_room_of_the_preset_or_opens_one(tmp_path):
    with ServerThread(config_for(tmp_path)) as srv:
        # a public room made by hand (no wait for bots) is listed, never offered to a quick
        # match that waits for bots
        status, by_hand = http("POST", f"{srv.url}/api/rooms", {
            "nickname": "丙", "seats": ["human", "human", "human"], "public": True,
            "preset": "capped"})
        assert status == 201
        listed(srv, lambda r: len(r) == 1)
        status, first = quick(srv, {"preset": "capped", "nickname": "甲", "fill_after": 300})
        assert status == 200, first
        assert first["created"] and first["seat"] == 0 and first["token"]
        assert first["code"] != by_hand["code"]
        status, room = http("GET", f"{srv.url}/api/rooms/{first['code']}")
        assert room["settings"] == {**room["settings"], "public": True, "fill_after": 300}
        assert [s["kind"] for s in room["seats"]] == ["human", "open", "open"]
        listed(srv, lambda r: len(r) == 2)
        status, second = http("POST", f"{srv.url}/api/quick",
                              {"preset": "capped", "nickname": "丁", "fill_after": 600})
        assert (status, second) == (200, {"code": first["code"], "created": False})
        status, other = quick(srv, {"preset": "xiaogan", "nickname": "乙", "fill_after": 300})
        assert status == 200 and other["created"] and other["code"] != first["code"]
        status, bad = http("POST", f"{srv.url}/api/quick", {"preset": "atlantis"})
        assert (status, bad["detail"]["code"]) == (422, "bad_rules")
        # the input is checked even while a room of that preset waits, before any room is
        # looked for or made: a name the join would refuse opens no room
        for body, code in (({"preset": "capped", "nickname": "甲", "fill_after": 9999},
                            "bad_time"),
                           ({"preset": "capped", "nickname": "甲", "fill_after": -1},
                            "bad_time"),
                           ({"preset": "capped", "nickname": "老表"}, "bot_nickname"),
                           ({"preset": "capped", "nickname": "  "}, "bad_nickname"),
                           ({"preset": "capped"}, "bad_nickname"),
                           ({}, "bad_nickname")):
            status, bad = http("POST", f"{srv.url}/api/quick", body)
            assert (status, bad["detail"]["code"]) == (422, code), body
        status, bad = http("POST", f"{srv.url}/api/quick", {"preset": "capped"}, "nope")
        assert (status, bad["detail"]["code"]) == (401, "bad_player_token")
        assert len(listed(srv, timeout=0.3)) == 3  # no room was opened by a refused ask


def test_quick_matches_who_wait_for_players_only_meet_each_other(tmp_path):
    """Issue 35: a quick match that waits for people (fill_after null) is offered the rooms
    that wait for people only (made by a quick match or by hand), and never a room that bots
    will fill; one that waits for bots is never offered a room that never fills."""
    with ServerThread(config_for(tmp_path)) as srv:
        status, first = quick(srv, {"preset": "suizhou", "nickname": "甲", "fill_after": None})
        assert status == 200 and first["created"]
        listed(srv, lambda r: len(r) == 1)
        status, second = http("POST", f"{srv.url}/api/quick",
                              {"preset": "suizhou", "nickname": "乙", "fill_after": None})
        assert (status, second) == (200, {"code": first["code"], "created": False})
        status, bots = quick(srv, {"preset": "suizhou", "nickname": "丙", "fill_after": 60})
        assert status == 200 and bots["created"] and bots["code"] != first["code"]
        listed(srv, lambda r: len(r) == 2)
        status, again = http("POST", f"{srv.url}/api/quick",
                             {"preset": "suizhou", "nickname": "丁", "fill_after": None})
        assert (status, again) == (200, {"code": first["code"], "created": False})


def test_bots_take_the_open_seats_after_the_wait(tmp_path):
    with ServerThread(config_for(tmp_path)) as srv:
        status, made = quick(srv, {"preset": "standard", "nickname": "甲", "fill_after": 0.5})
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


def test_rooms_nobody_is_at_are_not_offered_and_waits_are_kept(tmp_path):
    """Issue 35: a public room whose players are all away (joined and never connected, past
    ``join_grace``) is neither listed nor offered by a quick match; a quick match that waits
    for bots 30 s is not seated where bots come only after 300 s."""
    config = config_for(tmp_path)
    config = type(config)(**{**config.__dict__, "join_grace": 0.5})
    with ServerThread(config) as srv:
        status, slow = quick(srv, {"preset": "xiaogan", "nickname": "甲", "fill_after": 300})
        assert status == 200 and slow["created"]
        status, found = http("POST", f"{srv.url}/api/quick",
                             {"preset": "xiaogan", "nickname": "乙", "fill_after": 30})
        assert status == 200 and found["created"] and found["code"] != slow["code"]
        status, found = http("POST", f"{srv.url}/api/quick",
                             {"preset": "xiaogan", "nickname": "乙", "fill_after": 600})
        assert (status, found) == (200, {"code": slow["code"], "created": False})
        assert [r["code"] for r in listed(srv, lambda r: len(r) == 1)] == [slow["code"]]
        time.sleep(1.0)  # 甲 never connected: after join_grace nobody is at that table
        assert listed(srv, lambda r: not r) == []
        status, found = http("POST", f"{srv.url}/api/quick",
                             {"preset": "xiaogan", "nickname": "乙", "fill_after": 600})
        assert status == 200 and found["created"] and found["code"] != slow["code"]


def test_a_player_who_sits_after_the_wait_is_over_gets_bots_at_once(tmp_path):
    """Issue 35: the wait for bots ran out while nobody sat (a rematch taken up late, a quick
    match joined after its wait): the first player to sit gets bots in the open seats at
    once, not never."""
    with ServerThread(config_for(tmp_path)) as srv:
        status, found = http("POST", f"{srv.url}/api/quick",
                             {"preset": "standard", "nickname": "甲", "fill_after": 0.2})
        assert status == 200 and found["created"]
        time.sleep(1.0)  # the wait is over; nobody sat, so no bot came
        status, info = http("GET", f"{srv.url}/api/rooms/{found['code']}")
        assert [s["kind"] for s in info["seats"]] == ["open"] * 3
        status, joined = http("POST", f"{srv.url}/api/rooms/{found['code']}/join",
                              {"nickname": "甲", "seat": 0})
        assert status == 200
        deadline = time.monotonic() + 10
        while info["status"] != "playing" and time.monotonic() < deadline:
            time.sleep(0.1)
            status, info = http("GET", f"{srv.url}/api/rooms/{found['code']}")
        assert info["status"] == "playing"
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot"]


def test_rematch_one_new_room_for_every_seat_of_a_finished_match(tmp_path):
    from kawuxing.server.testing import auto_played_match

    with ServerThread(config_for(tmp_path)) as srv:
        made = auto_played_match(srv, {"seats": ["human", "expert", "heuristic:1"],
                                       "hands": 1, "preset": "xiaogan",
                                       "options": {"cap": 16}})
        code, token = made["code"], made["token"]
        status, first = http("POST", f"{srv.url}/api/rooms/{code}/rematch", None, token)
        assert status == 200, first
        assert first["created"] and first["seat"] == 0 and first["code"] != code
        status, again = http("POST", f"{srv.url}/api/rooms/{code}/rematch", None, token)
        assert (status, again) == (200, {"code": first["code"], "seat": 0, "created": False})
        status, room = http("GET", f"{srv.url}/api/rooms/{first['code']}")
        assert room["status"] == "waiting" and room["preset"] == "xiaogan"
        assert room["options"] == {"cap": 16, "hands_per_match": 1}
        assert [(s["kind"], s["bot"]) for s in room["seats"]] == [
            ("open", None), ("bot", "expert"), ("bot", "heuristic:1")]
        assert room["settings"]["fill_after"] == 60.0 and not room["settings"]["public"]
        status, joined = http("POST", f"{srv.url}/api/rooms/{first['code']}/join",
                              {"nickname": "auto", "seat": 0})
        assert status == 200 and joined["seat"] == 0
        # refusals: no token, a token of no seat, a match not over
        status, body = http("POST", f"{srv.url}/api/rooms/{code}/rematch")
        assert (status, body["detail"]["code"]) == (401, "no_token")
        status, body = http("POST", f"{srv.url}/api/rooms/{code}/rematch", None, "nope")
        assert (status, body["detail"]["code"]) == (403, "bad_token")
        status, playing = http("POST", f"{srv.url}/api/rooms", {
            "nickname": "乙", "seats": ["human", "human", "heuristic"]})
        status, body = http("POST", f"{srv.url}/api/rooms/{playing['code']}/rematch", None,
                            playing["token"])
        assert (status, body["detail"]["code"]) == (409, "not_over")


def test_a_rematch_keeps_each_players_seat_for_that_player(tmp_path):
    """Issue 35: in 再来一场's room a player's seat is kept for that player (their player
    token): a stranger who knows the code is refused it (``seat_kept``) and a join without a
    seat never lands in it; the player takes it, by number or by a plain join; a guest's
    seat (a nickname only) is open to anyone."""
    from kawuxing.server.testing import auto_played_match

    with ServerThread(config_for(tmp_path)) as srv:
        status, ann = http("POST", f"{srv.url}/api/players", {"name": "阿安"})
        assert status == 201
        made = auto_played_match(srv, {"seats": ["human", "heuristic", "heuristic"], "hands": 1},
                                 player_token=ann["token"])
        status, asked = http("POST", f"{srv.url}/api/rooms/{made['code']}/rematch", None,
                             made["token"])
        assert status == 200 and asked["created"] and asked["seat"] == 0
        new = asked["code"]
        status, room = http("GET", f"{srv.url}/api/rooms/{new}")
        assert room["settings"]["kept"] == [ann["player_id"], None, None]
        assert [s["kept"] for s in room["seats"]] == [True, False, False]
        for body in ({"nickname": "路人", "seat": 0}, {"nickname": "路人"}):
            status, bad = http("POST", f"{srv.url}/api/rooms/{new}/join", body)
            assert (status, bad["detail"]["code"]) == (409, "seat_kept"), body
        status, joined = http("POST", f"{srv.url}/api/rooms/{new}/join", {}, ann["token"])
        assert status == 200 and joined["seat"] == 0
        status, room = http("GET", f"{srv.url}/api/rooms/{new}")
        assert [s["kept"] for s in room["seats"]] == [False, False, False]

        # a guest's seat (nickname only) is kept for nobody
        guest = auto_played_match(srv, {"seats": ["human", "heuristic", "heuristic"],
                                        "hands": 1})
        status, asked = http("POST", f"{srv.url}/api/rooms/{guest['code']}/rematch", None,
                             guest["token"])
        status, room = http("GET", f"{srv.url}/api/rooms/{asked['code']}")
        assert room["settings"]["kept"] is None
        status, joined = http("POST", f"{srv.url}/api/rooms/{asked['code']}/join",
                              {"nickname": "路人"})
        assert status == 200 and joined["seat"] == 0


def test_a_room_nobody_sits_in_is_neither_listed_nor_played_by_bots(tmp_path):
    with ServerThread(config_for(tmp_path)) as srv:
        status, empty = http("POST", f"{srv.url}/api/quick", {
            "preset": "yunmeng", "nickname": "甲", "fill_after": 0.3})  # nobody joined
        assert status == 200 and empty["created"]
        time.sleep(1.5)
        status, info = http("GET", f"{srv.url}/api/rooms/{empty['code']}")
        assert info["status"] == "waiting" and all(s["kind"] == "open" for s in info["seats"])
        assert listed(srv, timeout=0.5) == []
        # rules changed only in the number of hands, or to the preset's own value: not "changed"
        status, _ = http("POST", f"{srv.url}/api/rooms", {
            "nickname": "丙", "seats": ["human", "human", "heuristic"], "public": True,
            "preset": "xiaogan", "hands": 2, "options": {"cap": 16}})
        rooms = listed(srv, lambda r: len(r) == 1)
        assert rooms[0]["changed"] == {} and rooms[0]["options"] == {"cap": 16, "hands_per_match": 2}
