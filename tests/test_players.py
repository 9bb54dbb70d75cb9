"""Players over HTTP and the WebSocket (issue 16), on SQLite and PostgreSQL: guest identities,
names, passwords and sign-in (rate limited), seats that record the player, ratings at the
end of a match (docs/ratings.md), profiles with statistics and history, the leaderboard — and
no answer about a player carrying anyone's token."""

from __future__ import annotations

import json

import pytest

from kawuxing.server.config import ServerConfig
from kawuxing.server.testing import Player, ServerThread, build_wall, http
from helpers import scratch_database

# the dealer (seat 0) draws 5s and holds 234p 567p 888p 234s 5s + 5s: a self-drawn win at once
WIN_AT_ONCE = build_wall(["234p 567p 888p 234s 5s", "1p 1p 9p 9p 1s 1s 9s 9s 6z 6z 7z 7z 5z",
                          "3p 3p 6p 6p 3s 3s 6s 6s 7p 7s 5z 5z 2p"], "5s")


def make_config(url, schema=None, **overrides) -> ServerConfig:
    values = dict(db_url=url, db_schema=schema, bot_delay=0, claim_window=0, hand_pause=0,
                  min_decision_seconds=0.05, allow_test_walls=True, unload_after=600,
                  create_rate=0)  # the module makes more rooms than one client may at once
    values.update(overrides)
    return ServerConfig(**values)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory):
    with scratch_database(request.param, tmp_path_factory.mktemp("db"), "p.db") as (url, schema):
        with ServerThread(make_config(url, schema)) as srv:
            yield srv


def post(server, path, body=None, token=None):
    return http("POST", f"{server.url}{path}", body, token)


def get(server, path, token=None):
    return http("GET", f"{server.url}{path}", None, token)


def new_player(server, name) -> dict:
    status, out = post(server, "/api/players", {"name": name})
    assert status == 201, out
    assert set(out) == {"player_id", "name", "token"} and len(out["player_id"]) == 32
    return out


def play_instant_match(server, seated: list[dict]) -> list[dict]:
    """A one-hand room of the three players (seat order as given) dealt WIN_AT_ONCE: seat 0
    wins on its first draw. Returns each seat's ``match_end``."""
    status, room = post(server, "/api/rooms", {
        "seats": ["human"] * 3, "hands": 1, "options": {"first_dealer": "seat0"},
        "walls": [WIN_AT_ONCE], "nickname": "ignored"}, seated[0]["token"])
    assert status == 201, room
    assert room["seat"] == 0 and room["room"]["seats"][0]["nickname"] == seated[0]["name"]
    tokens = [room["token"]]
    for seat, p in enumerate(seated[1:], start=1):
        status, joined = post(server, f"/api/rooms/{room['code']}/join", {}, p["token"])
        assert status == 200 and joined["seat"] == seat, joined
        tokens.append(joined["token"])
    clients = []
    for token in tokens:
        c = Player(server.ws, room["code"], token)
        c.hello()
        c.recv_type("sync")
        clients.append(c)
    dealer = clients[0]
    win = [a for a in dealer.view["legal"] if a[1] == "win"]
    assert win, dealer.view["legal"]
    dealer.act(win[0])
    ends = [c.recv_type("match_end") for c in clients]
    for c in clients:
        c.close()
    return ends


def test_identity_names_and_tokens(server):
    ann = new_player(server, "Ann Li")
    status, me = get(server, "/api/players/me", ann["token"])
    assert status == 200 and me == {"player_id": ann["player_id"], "name": "Ann Li",
                                    "rating": 1500.0, "rated_games": 0, "has_password": False}
    assert get(server, "/api/players/me", "not-a-token")[1]["detail"]["code"] == "bad_player_token"
    status, out = get(server, "/api/players/me")  # the error asks for the player token
    assert (status, out["detail"]["code"]) == (401, "no_token")
    assert "player token" in out["detail"]["message"] and "seat" not in out["detail"]["message"]
    for same in ("ann li", "ANNLI", " Ann  Li ", "Ａｎｎ Ｌｉ"):  # one name: case, spaces, width
        status, out = post(server, "/api/players", {"name": same})
        assert (status, out["detail"]["code"]) == (409, "name_taken")
    for botlike in ("老张", "Lao Zhang", "laozhang", "ＬａｏＺｈａｎｇ", "bot 7", "机器人小王",
                    "Xiao Wang", "老張", "托管"):  # more in test_bot_names_in_either_script
        status, out = post(server, "/api/players", {"name": botlike})
        assert (status, out["detail"]["code"]) == (422, "bot_nickname"), botlike
    for bad in ("", "   ", "\u3164", "x" * 25, "\ufdfa" * 5):  # ﷺ: 15 letters under NFKC
        status, out = post(server, "/api/players", {"name": bad})
        assert (status, out["detail"]["code"]) == (422, "bad_nickname"), bad
    # a guest may not sit down under a player's name; the player may, and only once
    status, room = post(server, "/api/rooms", {"seats": ["human", "human", "heuristic"]})
    assert status == 201
    status, out = post(server, f"/api/rooms/{room['code']}/join", {"nickname": "annli"})
    assert (status, out["detail"]["code"]) == (409, "name_taken")
    status, out = post(server, f"/api/rooms/{room['code']}/join", {})
    assert (status, out["detail"]["code"]) == (422, "bad_nickname")
    status, out = post(server, f"/api/rooms/{room['code']}/join", {}, "forged")
    assert (status, out["detail"]["code"]) == (401, "bad_player_token")
    status, out = post(server, f"/api/rooms/{room['code']}/join", {"nickname": "x"}, ann["token"])
    assert status == 200 and out["seat"] == 0
    seat = server.call(_slot(server, room["code"], 0))
    assert seat == ("Ann Li", ann["player_id"])
    status, out = post(server, f"/api/rooms/{room['code']}/join", {}, ann["token"])
    assert (status, out["detail"]["code"]) == (409, "already_seated")
    status, info = get(server, f"/api/rooms/{room['code']}")
    assert ann["token"] not in json.dumps(info)


def test_bot_names_in_either_script():
    """A bot persona's Chinese name in traditional characters (老張 for 老张, 劉婆婆 for 刘婆婆) is
    a bot's name, as are names with 机器人 or 托管 in them (seats.clean_nickname, 422
    ``bot_nickname``); other traditional names are names, one with their simplified form
    (identity.skeleton)."""
    from kawuxing.server.errors import RoomError
    from kawuxing.server.identity import clean_player_name, skeleton
    from kawuxing.server.personas import PERSONAS, simplified
    from kawuxing.server.seats import clean_nickname

    for botlike in ("老張", "劉婆婆", "陳爹爹", "王師傅", "趙爹爹", "錢婆婆", "孫師傅", "小陳", "小劉",
                    "么妹", "老 張", "托管", "我是托管", "託管中", "小王机器人", "機器人", "Robot 3"):
        for check in (clean_nickname, clean_player_name):
            with pytest.raises(RoomError) as err:
                check(botlike)
            assert (err.value.status, err.value.code) == (422, "bot_nickname"), botlike
    assert {simplified(p.zh) for p in PERSONAS} == {p.zh for p in PERSONAS}  # the names are simplified
    for name in ("張小明", "陳大文", "robotics", "Botany"):
        assert clean_player_name(name) == name
    assert skeleton("張小明") == skeleton("张小明") != skeleton("张小芳")


def test_names_are_never_confusable_nor_hold_control_characters(server):
    """Issue 16: no name passes for another or for a bot's — scripts mixed (Cyrillic а in a
    Latin name), a look-alike of a player's name in another script or with I/l/1 and 0/O
    swapped (identity.skeleton), for a player or a guest's nickname: ``name_confusable``;
    a newline, a tab or a zero-width character is refused (422 ``bad_nickname``), not removed
    and stored."""
    kapa, bill = new_player(server, "Kapa"), new_player(server, "Bill")
    for lookalike in ("\u041a\u0430\u0440\u0430", "BiII", "Bi1l", "\u0412ill"):
        status, out = post(server, "/api/players", {"name": lookalike})  # Кара, В(Cyrillic)ill
        assert (status, out["detail"]["code"]) in ((409, "name_confusable"),
                                                   (422, "name_confusable")), lookalike
    assert post(server, "/api/players", {"name": "\u041a\u0430\u0440\u0430"})[0] == 409
    for mixed in ("K\u0430pa 2", "L\u0430o Zhang", "La0 Zhang", "\u03a7iao Wang"):  # а, Χ (Greek)
        status, out = post(server, "/api/players", {"name": mixed})
        assert (status, out["detail"]["code"]) == (422, "name_confusable"), mixed
    status, out = post(server, "/api/players", {"name": "KAPA"})
    assert (status, out["detail"]["code"]) == (409, "name_taken")
    for controlled in ("Ann\nB", "Tab\tX", "Zero\u200bW", "Bell\x07"):
        status, out = post(server, "/api/players", {"name": controlled})
        assert (status, out["detail"]["code"]) == (422, "bad_nickname"), controlled
    for fine in ("AnnB", "Ann李", "\u0412\u043e\u0432\u0430"):  # nothing stored above; Вова
        assert post(server, "/api/players", {"name": fine})[0] == 201, fine
    status, room = post(server, "/api/rooms", {"seats": ["human", "human", "heuristic"]})
    assert status == 201
    for guest in ("\u041a\u0430\u0440\u0430", "BiII"):  # a guest may not pass for Kapa or Bill
        status, out = post(server, f"/api/rooms/{room['code']}/join", {"nickname": guest})
        assert (status, out["detail"]["code"]) == (409, "name_confusable"), guest
    assert {kapa["name"], bill["name"]} == {"Kapa", "Bill"}


def login_from(server, ip: str, name: str, password: str) -> tuple[int, dict, str | None]:
    """``POST /api/players/login`` sent from the loopback address ``ip`` (127.x.y.z): the
    server sees another client IP. Returns status, body and ``Retry-After``."""
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30,
                                      source_address=(ip, 0))
    try:
        conn.request("POST", "/api/players/login", json.dumps({"name": name, "password": password}),
                     {"content-type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read()), response.getheader("retry-after")
    finally:
        conn.close()


def test_failed_logins_are_limited_per_name_from_any_ip(tmp_path):
    """Issue 16: five wrong passwords for one name, each from another IP, and that name is
    refused for a while (429 ``too_many_attempts`` with Retry-After, the right password
    too), while other names and the same IPs may still sign in; the buckets refill with
    time (LoginFailures with a clock of its own)."""
    from kawuxing.server.identity import LoginFailures
    with ServerThread(make_config(f"sqlite+aiosqlite:///{tmp_path / 'n.db'}")) as server:
        eve, fay = new_player(server, "Eve"), new_player(server, "Fay")
        for p in (eve, fay):
            assert post(server, "/api/players/me/password", {"password": "right password"},
                        p["token"])[0] == 200
        answers = [login_from(server, f"127.0.0.{10 + i}", "eve", "wrong password")
                   for i in range(6)]
        assert [a[0] for a in answers] == [401] * 5 + [429]
        assert answers[5][1]["detail"]["code"] == "too_many_attempts"
        assert 1 <= int(answers[5][2]) <= 60
        status, out, _ = login_from(server, "127.0.0.30", "Eve", "right password")
        assert (status, out["detail"]["code"]) == (429, "too_many_attempts")
        status, out, _ = login_from(server, "127.0.0.10", "Fay", "right password")
        assert status == 200 and out["player_id"] == fay["player_id"]
        assert login_from(server, "127.0.0.11", "nobody", "wrong password")[0] == 401
    now = [0.0]
    failures = LoginFailures(burst=2, every=60.0, now=lambda: now[0])
    failures.failed("Eve")
    failures.failed("EVE")  # one name (name_key)
    assert failures.wait("eve") == pytest.approx(60.0) and failures.wait("Fay") == 0.0
    now[0] = 45.0
    assert failures.wait("Eve") == pytest.approx(15.0)
    now[0] = 60.0
    assert failures.wait("Eve") == 0.0


async def _slot(server, code, seat):
    slot = server.manager.get(code).seats[seat]
    return slot.nickname, slot.player_id


def test_password_and_login(server):
    bea = new_player(server, "Bea")
    status, out = post(server, "/api/players/login", {"name": "Bea", "password": "whatever1"})
    assert (status, out["detail"]["code"]) == (401, "bad_login")  # no password set: a guest
    status, out = post(server, "/api/players/me/password", {"password": "short"}, bea["token"])
    assert (status, out["detail"]["code"]) == (422, "bad_password")
    assert "short" not in json.dumps(out)
    status, out = post(server, "/api/players/me/password", {"password": "lucky seven 7"},
                       bea["token"])
    assert status == 200 and out == {"ok": True}
    assert get(server, "/api/players/me", bea["token"])[1]["has_password"] is True
    for name, password in (("Bea", "lucky seven 8"), ("Nobody", "lucky seven 7")):
        status, out = post(server, "/api/players/login", {"name": name, "password": password})
        assert (status, out["detail"]["code"]) == (401, "bad_login")
        assert out["detail"]["message"] == "no player with that name and password"
    status, other = post(server, "/api/players/login", {"name": "bea", "password": "lucky seven 7"})
    assert status == 200 and other["player_id"] == bea["player_id"] and other["name"] == "Bea"
    assert other["token"] != bea["token"]
    for token in (bea["token"], other["token"]):  # both devices stay signed in
        assert get(server, "/api/players/me", token)[1]["player_id"] == bea["player_id"]
    # changing it needs the old one
    status, out = post(server, "/api/players/me/password", {"password": "new password"},
                       other["token"])
    assert (status, out["detail"]["code"]) == (403, "bad_login")
    status, _ = post(server, "/api/players/me/password",
                     {"password": "new password", "old_password": "lucky seven 7"}, other["token"])
    assert status == 200
    assert post(server, "/api/players/login", {"name": "Bea", "password": "new password"})[0] == 200


def test_logins_are_rate_limited(tmp_path):
    config = make_config(f"sqlite+aiosqlite:///{tmp_path / 'l.db'}", login_burst=3,
                         login_rate=0.01)
    with ServerThread(config) as server:
        new_player(server, "Cal")
        answers = [post(server, "/api/players/login", {"name": "Cal", "password": "x" * 9})
                   for _ in range(4)]
        assert [s for s, _ in answers] == [401, 401, 401, 429]
        assert answers[3][1]["detail"]["code"] == "rate_limited"


def test_rated_matches_profiles_and_leaderboard(server):
    ann, bob, cid = (new_player(server, n) for n in ("ann", "bob", "cid"))
    # match 1: ann deals and wins at once; bob and cid pay alike (tied 2nd-3rd)
    ends = play_instant_match(server, [ann, bob, cid])
    end = ends[0]
    assert all(e == end for e in ends)
    assert end["totals"][1] == end["totals"][2] < 0 < end["totals"][0]
    rating = end["rating"]
    assert rating["rated"] is True
    assert [(s["seat"], s["player_id"], s["name"], s["place"], s["before"], s["after"],
             s["delta"]) for s in rating["seats"]] == [
        (0, ann["player_id"], "ann", 1.0, 1500.0, 1530.0, 30.0),
        (1, bob["player_id"], "bob", 2.5, 1500.0, 1485.0, -15.0),
        (2, cid["player_id"], "cid", 2.5, 1500.0, 1485.0, -15.0)]
    # match 2: bob deals and wins; average 1500, factor 0.998 (one rated match each):
    # bob (30 + 15/40)*0.998 = 30.31425, ann (-15 - 30/40)*0.998 = -15.7185,
    # cid (-15 + 15/40)*0.998 = -14.59575
    rating = play_instant_match(server, [bob, ann, cid])[0]["rating"]
    assert [s["name"] for s in rating["seats"]] == ["bob", "ann", "cid"]
    assert [s["delta"] for s in rating["seats"]] == pytest.approx([30.31425, -15.7185, -14.59575])
    assert [s["after"] for s in rating["seats"]] == pytest.approx(
        [1515.31425, 1514.2815, 1470.40425])

    status, board = get(server, "/api/leaderboard")
    assert status == 200
    top = [p for p in board["players"] if p["player_id"] in
           {ann["player_id"], bob["player_id"], cid["player_id"]}]
    assert [(p["name"], p["rated_games"]) for p in top] == [("bob", 2), ("ann", 2), ("cid", 2)]
    assert [p["rank"] for p in board["players"]] == list(range(1, len(board["players"]) + 1))
    assert all(p["rated_games"] > 0 for p in board["players"])

    status, prof = get(server, f"/api/players/{ann['player_id']}")
    assert status == 200
    assert prof["name"] == "ann" and prof["rated_games"] == 2 and prof["games"] == 2
    assert prof["rating"] == pytest.approx(1514.2815) and prof["rank"] == 2
    stats = prof["stats"]
    assert (stats["hands"], stats["wins"], stats["win_rate"], stats["deal_ins"],
            stats["declares"], stats["self_draws"]) == (2, 1, 0.5, 0, 0, 1)
    assert stats["average_multiplier"] >= 1 and stats["patterns"]
    assert stats["best"]["match_id"] == prof["matches"][1]["match_id"]
    assert stats["balance"] == sum(h["delta"] for h in prof["hands"])
    assert [(m["seat"], m["place"], m["status"]) for m in prof["matches"]] == [
        (1, 2.5, "finished"), (0, 1.0, "finished")]  # newest first
    assert prof["matches"][0]["rating_after"] == pytest.approx(1514.2815)
    assert [(h["seat"], h["outcome"], h["number"]) for h in prof["hands"]] == [
        (1, "lost", 0), (0, "won", 0)]
    # the hands replay: ann's player token opens each record, any seat's and the table's
    # frames of her matches (R13, issue 16); a player of neither match gets public frames
    zed = new_player(server, "Zed Q")
    for h in prof["hands"]:
        path = f"/api/hands/{h['match_id']}/{h['number']}"
        status, record = get(server, path, ann["token"])
        assert status == 200 and len(record["actions"]) == 1
        for query in ("?seat=0", f"?seat={h['seat']}", "?perspective=table", ""):
            status, frames = get(server, f"{path}/frames{query}", ann["token"])
            assert status == 200 and len(frames["frames"]) == 2
            assert frames["perspective"] in ("table", 0, h["seat"])
        assert get(server, path, zed["token"])[1]["detail"]["code"] == "not_a_player"
        status, frames = get(server, f"{path}/frames", zed["token"])
        assert status == 200 and frames["perspective"] == "public"
        assert all("revealed" not in s for s in frames["frames"][0]["view"]["seats"])
        assert get(server, f"{path}/frames?seat=0", zed["token"])[0] == 403
    # the match lists name the players by id
    status, match = get(server, f"/api/matches/{prof['matches'][0]['match_id']}")
    assert [p["player_id"] for p in match["players"]] == [bob["player_id"], ann["player_id"],
                                                          cid["player_id"]]
    # nobody's token (nor its hash) in anyone's public data
    from kawuxing.server.tokens import hash_token
    public = json.dumps([prof, board, match, get(server, f"/api/players/{bob['player_id']}")[1]])
    for p in (ann, bob, cid):
        assert p["token"] not in public and hash_token(p["token"]) not in public
    assert get(server, "/api/players/" + "0" * 32)[1]["detail"]["code"] == "no_player"


def test_matches_with_a_bot_or_a_guest_are_not_rated(server):
    dee = new_player(server, "dee")
    status, room = post(server, "/api/rooms", {
        "seats": ["human", "heuristic", "heuristic"], "hands": 1,
        "options": {"first_dealer": "seat0"}, "walls": [WIN_AT_ONCE]}, dee["token"])
    assert status == 201
    c = Player(server.ws, room["code"], room["token"])
    c.hello()
    c.recv_type("sync")
    c.act([a for a in c.view["legal"] if a[1] == "win"][0])
    assert c.recv_type("match_end")["rating"] == {"rated": False, "reason": "bots"}
    c.close()
    eve, fay = new_player(server, "eve"), new_player(server, "fay")
    status, room = post(server, "/api/rooms", {
        "seats": ["human"] * 3, "hands": 1, "options": {"first_dealer": "seat0"},
        "walls": [WIN_AT_ONCE]}, eve["token"])
    tokens = [room["token"], post(server, f"/api/rooms/{room['code']}/join", {}, fay["token"])[1]
              ["token"], post(server, f"/api/rooms/{room['code']}/join",
                              {"nickname": "a guest"})[1]["token"]]
    clients = [Player(server.ws, room["code"], t) for t in tokens]
    for c in clients:
        c.hello()
        c.recv_type("sync")
    clients[0].act([a for a in clients[0].view["legal"] if a[1] == "win"][0])
    assert clients[2].recv_type("match_end")["rating"] == {"rated": False, "reason": "guests"}
    for c in clients:
        c.close()
    assert get(server, f"/api/players/{eve['player_id']}")[1]["rated_games"] == 0
    assert get(server, f"/api/players/{dee['player_id']}")[1]["stats"]["wins"] == 1


def test_a_seat_changing_hands_is_recorded_and_unrates_the_match(server):
    """bob leaves during hand 2 (a bot plays on) and gil takes the seat: both are recorded
    for the hands they sat in (bob: 1-2, gil: 2), and the match is not rated (changed)."""
    ann, bob, cid, gil = (new_player(server, n) for n in ("ann2", "bob2", "cid2", "gil2"))
    status, room = post(server, "/api/rooms", {
        "seats": ["human"] * 3, "hands": 2, "options": {"first_dealer": "seat0"},
        "walls": [WIN_AT_ONCE, WIN_AT_ONCE]}, ann["token"])
    code = room["code"]
    seat_tokens = [room["token"]] + [post(server, f"/api/rooms/{code}/join", {}, p["token"])[1]
                                     ["token"] for p in (bob, cid)]
    dealer = Player(server.ws, code, seat_tokens[0])
    dealer.hello()
    dealer.recv_type("sync")
    dealer.act([a for a in dealer.view["legal"] if a[1] == "win"][0])
    dealer.until(lambda m: m.get("hand") == 1 and m["type"] in ("update", "sync")
                 and any(a[1] == "win" for a in m["view"]["legal"]))  # the dealer wins again
    assert post(server, f"/api/rooms/{code}/leave", None, seat_tokens[1])[0] == 200
    status, joined = post(server, f"/api/rooms/{code}/join", {}, gil["token"])
    assert status == 200 and joined["seat"] == 1
    dealer.until(lambda m: m["type"] == "players" and m["players"][1]["nickname"] == "gil2")
    dealer.act([a for a in dealer.view["legal"] if a[1] == "win"][0])
    end = dealer.recv_type("match_end")
    dealer.close()
    assert end["rating"] == {"rated": False, "reason": "changed"}
    seen = {}
    for p in (bob, gil):
        prof = get(server, f"/api/players/{p['player_id']}")[1]
        seen[p["name"]] = ([(m["seat"], m["place"]) for m in prof["matches"]],
                           sorted(h["number"] for h in prof["hands"]), prof["rated_games"])
    assert seen == {"bob2": ([(1, None)], [0, 1], 0), "gil2": ([(1, None)], [1], 0)}


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_ratings_are_right_at_once_after_a_restart(db, tmp_path):
    """Issue 16, docs/ratings.md: the leaderboard after a restart shows the ratings at once —
    kept in the database, and a match that ended just before the server stopped (its rating
    not stored: here undone in the database, as a crash would leave it) is rated when the
    server starts, before anyone asks for its room. Hand-computed: Ann wins alone (+30),
    Bob and Cid tie for 2nd-3rd ((0 − 30) / 2 = −15 each); all at 1500, no games yet."""
    expected = [("Ann", 1530.0, 1), ("Bob", 1485.0, 1), ("Cid", 1485.0, 1)]

    def board(server):
        status, out = get(server, "/api/leaderboard")
        assert status == 200
        return sorted((p["name"], p["rating"], p["rated_games"]) for p in out["players"])

    async def unrate(store):  # what a stop between the match's end and its rating leaves
        from sqlalchemy import update

        from kawuxing.server.schema import match_players, matches, players
        async with store.engine.begin() as conn:
            await conn.execute(update(matches).values(rating=None))
            await conn.execute(update(players).values(rating=1500.0, rated_games=0))
            await conn.execute(update(match_players).values(place=None, rating_before=None,
                                                            rating_after=None))
    with scratch_database(db, tmp_path, "r.db") as (url, schema):
        with ServerThread(make_config(url, schema)) as server:
            seated = [new_player(server, n) for n in ("Ann", "Bob", "Cid")]
            play_instant_match(server, seated)
            assert board(server) == expected
        with ServerThread(make_config(url, schema)) as server:  # a plain restart
            assert board(server) == expected
            server.call(unrate(server.manager.store))
            assert board(server) == []
        with ServerThread(make_config(url, schema)) as server:
            assert board(server) == expected
            status, prof = get(server, f"/api/players/{seated[0]['player_id']}")
            assert prof["rank"] == 1 and prof["matches"][0]["rating_after"] == 1530.0
            assert prof["matches"][0]["place"] == 1.0


def play_against_bots(server, player: dict, bots: list[str]) -> dict:
    """A one-hand room of ``player`` (seat 0, the dealer, who wins at once: WIN_AT_ONCE) and
    two bots; returns the match_end."""
    status, room = post(server, "/api/rooms", {
        "seats": ["human", *bots], "hands": 1, "options": {"first_dealer": "seat0"},
        "walls": [WIN_AT_ONCE]}, player["token"])
    assert status == 201, room
    c = Player(server.ws, room["code"], room["token"])
    c.hello()
    c.recv_type("sync")
    c.act([a for a in c.view["legal"] if a[1] == "win"][0])
    end = c.recv_type("match_end")
    c.close()
    return end


def test_results_against_bots_on_the_profile_and_their_boards(server):
    """Issue 35: a standing for players who play bots — per line-up of bots on the profile,
    and a board per bot level (two alike) of the mean a hand, with the number of hands."""
    vic, wes = new_player(server, "vic"), new_player(server, "wes")
    won = [play_against_bots(server, vic, ["heuristic:2", "heuristic:2"])["totals"][0]
           for _ in range(2)]
    assert won[0] == won[1] > 0
    play_against_bots(server, vic, ["heuristic:1", "heuristic:3"])  # a mixed pair
    play_against_bots(server, wes, ["heuristic:2", "heuristic:2"])
    status, profile = get(server, f"/api/players/{vic['player_id']}")
    assert status == 200
    assert profile["versus_bots"] == [
        {"bots": "heuristic:2", "hands": 2, "total": 2 * won[0], "per_hand": float(won[0])},
        {"bots": "heuristic:1+heuristic:3", "hands": 1, "total": won[0],
         "per_hand": float(won[0])}]
    status, out = get(server, "/api/leaderboard/bots?min_hands=2")
    assert status == 200 and out["min_hands"] == 2
    board = next(b for b in out["boards"] if b["bots"] == "heuristic:2")
    mine = [p for p in board["players"] if p["player_id"] == vic["player_id"]]
    assert mine and {k: mine[0][k] for k in ("name", "hands", "total", "per_hand")} == {
        "name": "vic", "hands": 2, "total": 2 * won[0], "per_hand": float(won[0])}
    assert wes["player_id"] not in {p["player_id"] for p in board["players"]}  # 1 hand < 2
    assert [p["rank"] for p in board["players"]] == list(range(1, len(board["players"]) + 1))
    assert all(b["bots"].count("+") == 0 for b in out["boards"])  # mixed pairs: no board
    status, out = get(server, "/api/leaderboard/bots?min_hands=0")
    assert (status, out["detail"]["code"]) == (422, "invalid")
    assert "min_hands" in out["detail"]["message"]


def test_hands_played_by_tuo_guan_do_not_count_against_bots(server):
    """A hand whose decisions 托管 made (more than a third of them, as for ratings) is not
    the player's result against the bots: the helper that asked 托管 at once got no row."""
    zed = new_player(server, "zed")
    status, room = post(server, "/api/rooms", {
        "seats": ["human", "heuristic:2", "heuristic:2"], "hands": 1,
        "options": {"first_dealer": "seat0"}, "walls": [WIN_AT_ONCE]}, zed["token"])
    assert status == 201, room
    c = Player(server.ws, room["code"], room["token"])
    c.hello()
    c.recv_type("sync")
    c.send({"type": "auto", "on": True})  # 托管 plays the dealer's win
    c.recv_type("match_end")
    c.close()
    status, profile = get(server, f"/api/players/{zed['player_id']}")
    assert status == 200 and profile["stats"]["hands"] == 1  # the hand is in the statistics
    assert profile["versus_bots"] == []  # but not a result against the bots


def test_recent_players_on_the_profile(server):
    gus, hal, ivy = (new_player(server, n) for n in ("gus", "hal", "ivy"))
    play_instant_match(server, [gus, hal, ivy])
    play_instant_match(server, [gus, hal, ivy])
    # a third match of theirs, still being played, is not counted (issue 35)
    status, room = post(server, "/api/rooms", {"seats": ["human"] * 3, "hands": 1},
                        gus["token"])
    for p in (hal, ivy):
        status, _ = post(server, f"/api/rooms/{room['code']}/join", {}, p["token"])
        assert status == 200
    status, profile = get(server, f"/api/players/{gus['player_id']}")
    assert status == 200
    recent = profile["recent_players"]
    assert sorted((r["name"], r["matches"]) for r in recent) == [("hal", 2), ("ivy", 2)]
    assert {r["player_id"] for r in recent} == {hal["player_id"], ivy["player_id"]}
    assert all(isinstance(r["last_played"], float) for r in recent)
    status, alone = get(server, f"/api/players/{new_player(server, 'jo')['player_id']}")
    assert alone["recent_players"] == [] and alone["versus_bots"] == []


def test_bots_faced_names_the_pair_of_bots_or_nothing():
    from kawuxing.server.stats import bots_faced

    def seat(n, kind, bot=None):
        return {"seat": n, "kind": kind, "bot": bot}

    assert bots_faced([seat(0, "human"), seat(1, "bot", "expert"), seat(2, "bot", "expert")],
                      0) == "expert"
    assert bots_faced([seat(0, "bot", "heuristic:3"), seat(1, "human"),
                       seat(2, "bot", "heuristic:1")], 1) == "heuristic:1+heuristic:3"
    assert bots_faced([seat(0, "human"), seat(1, "human"), seat(2, "bot", "expert")], 0) is None
    assert bots_faced([seat(0, "human"), seat(1, "external"), seat(2, "bot", "expert")],
                      0) is None
