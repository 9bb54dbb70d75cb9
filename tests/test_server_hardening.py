"""Issue 13, "a server that holds": what a hostile test of ``kawuxing serve`` found, each with
a test — a locked database never freezes a room, request bodies are bounded, hostile JSON gets
a coded error (never a traceback), HTTP errors have one shape, per-IP rate limits, headers,
WebSocket Origin, room expiry, a finished room after a restart, the WAL stays small.

Servers run in a thread on 127.0.0.1 (:class:`ServerThread`) or in process on a manual clock.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import urllib.request

import pytest
from test_server_room import Sink, settle

from kawuxing.server import protocol, sending
from kawuxing.server.clock import ManualClock
from kawuxing.server.config import ServerConfig
from kawuxing.server.db import Store
from kawuxing.server.manager import RoomManager
from kawuxing.server.testing import Player, ServerThread, http, needs_answer


def make_config(tmp_path, name: str = "h.db", **overrides) -> ServerConfig:
    values = dict(db_url=f"sqlite+aiosqlite:///{tmp_path / name}", bot_delay=0, bot_jitter=0,
                  claim_window=0, hand_pause=0, min_decision_seconds=0.05,
                  allow_test_walls=True, rate=1000, burst=1000)
    values.update(overrides)
    return ServerConfig(**values)


def create(server, **body) -> dict:
    status, out = http("POST", f"{server.url}/api/rooms", body)
    assert status == 201, out
    return out


def my_turn(player: Player, timeout: float = 20.0) -> dict:
    """Messages until the player's view asks it to decide; returns that message."""
    return player.until(lambda m: m["type"] in ("update", "sync") and needs_answer(m["view"]),
                        timeout)


def a_discard(view: dict) -> list:
    return next(a for a in view["legal"] if a[1] == "discard" and "declare" not in a)


# --- 1. a storage failure never freezes a room -----------------------------------------------

def test_a_locked_database_never_freezes_a_room(tmp_path):
    """Room [human, heuristic, heuristic]: right after the player's discard is acknowledged,
    another process holds ``BEGIN EXCLUSIVE`` on the SQLite file. The bots' moves cannot be
    stored: after the retries every seat gets an ``error`` with code ``storage``; once the
    lock is gone the same path plays the move again and the player's turn comes back (the
    room froze for good before: the failed bot move was never scheduled again)."""
    db = tmp_path / "lock.db"
    config = make_config(tmp_path, "lock.db", bot_delay=0.3, sqlite_busy_ms=100,
                         store_retries=2, store_backoff=0.05, stalled_retry=0.3)
    with ServerThread(config) as srv:
        room = create(srv, seats=["human", "heuristic", "heuristic"], nickname="ann", hands=1,
                      options={"first_dealer": "seat0"})
        player = Player(srv.ws, room["code"], room["token"])
        player.hello()
        turn = my_turn(player)
        action_id = player.act(a_discard(turn["view"]))
        assert player.answer(action_id).get("ack") == action_id
        lock = sqlite3.connect(db, isolation_level=None, timeout=5)
        try:
            lock.execute("BEGIN EXCLUSIVE")
            error = player.recv_type("error", timeout=20)
            assert error["code"] == protocol.STORAGE and "tries again" in error["message"]
            stuck = player.version
        finally:
            lock.rollback()
            lock.close()
        later = player.until(lambda m: m["type"] in ("update", "match_end")
                             and (m["type"] == "match_end" or m["version"] > stuck), 20)
        assert later is not None
        # every acknowledged event is stored: the server's hand and the database agree
        manager = srv.manager
        live = manager.get(room["code"])
        stored = srv.call(manager.store.count_actions(live.match_id))
        assert stored == sum(len(h.actions) for h in live.match.hands) >= 2


def test_a_timer_move_that_cannot_be_stored_is_played_again(tmp_path):
    """The decision timer of a player runs out while the writer fails: the timeout move is
    undone, the players are told (``error``, ``storage``) and, once writes work again, the
    same timeout is played at the retry time — not after a new full decision time."""
    async def main():
        config = make_config(tmp_path, decision_seconds=5, reserve_seconds=0,
                             store_retries=1, store_backoff=0.01, stalled_retry=2.0)
        store = await Store.open(config.db_url)
        clock = ManualClock()
        manager = RoomManager(store, config, clock)
        try:
            created = await manager.create_room(seats=["human", "human", "human"],
                                                options={"first_dealer": "seat0"},
                                                decision_seconds=5, reserve_seconds=0)
            room = manager.get(created["code"])
            sinks = []
            for seat in range(3):
                _, token = await room.post(room.join, f"p{seat}", seat)
                sinks.append(Sink())
                await room.post(room.attach, sinks[-1], token, None, None)
            await settle(room, clock)
            version = room.version
            real = store.add_action

            async def broken(*args, **kwargs):
                raise sqlite3.OperationalError("database is locked")

            store.add_action = broken
            clock.advance(5.0)  # seat 0's time is up
            await settle(room, clock)
            assert room.version == version and room.stats["store_failures"] == 1
            errors = [m for m in sinks[1].messages if m["type"] == "error"]
            assert errors and errors[-1]["code"] == protocol.STORAGE
            assert room.seats[0].timeouts == 0  # a timeout not played is not counted
            store.add_action = real
            clock.advance(1.9)  # before the retry time: nothing
            await settle(room, clock)
            assert room.version == version
            clock.advance(0.1)  # the retry time (stalled_retry 2 s): the timeout is played
            await settle(room, clock)
            assert room.version > version and room.seats[0].timeouts == 1
            assert [a.verb for a in room.match.hand.actions][:1] == ["discard"]
            assert await store.count_actions(room.match_id) == len(room.match.hand.actions)
        finally:
            await manager.shutdown()
            await store.close()
    asyncio.run(main())


# --- 2. bodies, hostile JSON, bounded numbers ---------------------------------------------------

class Collected(logging.Handler):
    """Every log record of the server (its own loggers and uvicorn's, which do not
    propagate to the root logger). :meth:`attach` once the server is made: uvicorn sets its
    loggers' handlers anew when its config is made."""

    NAMES = ("", "uvicorn", "uvicorn.error", "kawuxing")

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def attach(self) -> None:
        for name in self.NAMES:
            if self not in logging.getLogger(name).handlers:
                logging.getLogger(name).addHandler(self)

    def detach(self) -> None:
        for name in self.NAMES:
            logging.getLogger(name).removeHandler(self)

    def tracebacks(self) -> list[str]:
        return [self.format(r) for r in self.records
                if r.exc_info or "Traceback" in r.getMessage()]


@pytest.fixture
def server_log():
    handler = Collected()
    yield handler
    handler.detach()


def raw_post(url: str, data: bytes, headers: dict | None = None) -> tuple[int, dict, dict]:
    """POST raw bytes; ``(status, JSON body, headers)``."""
    request = urllib.request.Request(url, data=data, method="POST",
                                     headers={"content-type": "application/json",
                                              **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), dict(err.headers)


def raw_http(port: int, headers: bytes, body: bytes) -> tuple[int, dict]:
    """``POST /api/rooms`` over a plain socket with the given extra ``headers`` and (part
    of a) ``body``, then read the answer: ``(status, JSON body)``."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\n" + headers + b"\r\n" + body)
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < int(
                data.lower().split(b"content-length: ", 1)[1].split(b"\r\n", 1)[0]):
            more = sock.recv(65536)
            if not more:
                break
            data += more
    head, _, payload = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(payload)


def test_bodies_over_64_kib_are_413_before_parsing_and_bad_json_is_coded(tmp_path, server_log):
    """A body over 64 KiB is answered 413 ``too_large`` — with a Content-Length at once,
    chunked once 64 KiB have arrived; JSON 1,000 deep, NaN, a number of 4,300 digits and
    bad UTF-8 are coded 4xx errors; none of it writes a traceback to the log."""
    with ServerThread(make_config(tmp_path)) as srv:
        server_log.attach()
        url = f"{srv.url}/api/rooms"
        # a declared 10 MB body: answered at once, after 1 KiB of it was sent
        status, body = raw_http(srv.port, b"Content-Length: 10000000\r\n", b"{" + b" " * 1023)
        assert (status, body["detail"]["code"]) == (413, "too_large")
        # no Content-Length (chunked): answered once more than 64 KiB have come
        chunk = b"1000\r\n" + b" " * 4096 + b"\r\n"
        status, body = raw_http(srv.port, b"Transfer-Encoding: chunked\r\n", chunk * 17)
        assert (status, body["detail"]["code"]) == (413, "too_large")
        hostile = [b"[" * 1000 + b"]" * 1000,
                   b'{"options": ' + b'{"a": ' * 1000 + b"1" + b"}" * 1001,
                   b'{"decision_seconds": NaN}',
                   b'{"options": {"base": ' + b"9" * 4300 + b"}}",
                   b'{"options": {"base": ' + b"9" * 5000 + b"}}",
                   b'{"nickname": "\xff\xfe"}',
                   b'{"nickname": "\\ud800"}']
        codes = []
        for data in hostile:
            status, body, _ = raw_post(url, data)
            assert status == 422, (data[:40], status)  # bad_json too: one status for bad input
            assert set(body) == {"detail"} and {"code", "message"} <= set(body["detail"])
            codes.append(body["detail"]["code"])
        # NaN and 4,300 digits are JSON Python reads: the field refuses them (bad_time,
        # bad_rules); past 4,300 digits, bad UTF-8: bad_json; a lone surrogate: the nickname's
        assert codes == ["bad_json", "bad_json", "bad_time", "bad_rules", "bad_json",
                         "bad_json", "bad_nickname"], codes
        status, body, _ = raw_post(url, b'{"nickname": "' + b"x" * 65 + b'"}')
        assert (status, body["detail"]["code"]) == (422, "bad_nickname")  # over 64 characters
        # a room with the largest base the rules allow works; a larger one is bad_rules
        status, body, _ = raw_post(url, b'{"options": {"base": 10001}}')
        assert (status, body["detail"]["code"]) == (422, "bad_rules")
        assert create(srv, options={"base": 10000}, seats=["random"] * 3)["room"]["rules"][
            "base"] == 10000
    assert server_log.tracebacks() == []


def test_hostile_frames_get_a_coded_error_and_the_socket_stays_usable(tmp_path, server_log):
    """JSON 1,000 deep (under 4 KiB), NaN and Infinity, a lone surrogate, 4,300 digits:
    each frame gets an ``error`` with a code and the socket goes on (a ping is answered);
    a deep hello gets a coded error too. ``pong`` never carries NaN. A text frame that is not
    UTF-8 breaks the WebSocket protocol: closed with 1007, logged in one line. No
    traceback."""
    from websockets.exceptions import ConnectionClosed

    with ServerThread(make_config(tmp_path)) as srv:
        server_log.attach()
        room = create(srv, seats=["human", "random", "random"], nickname="ann", hands=1)
        bad_hello = Player(srv.ws, room["code"], room["token"])
        bad_hello.send("[" * 1000 + "]" * 1000)
        assert bad_hello.recv_type("error")["code"] == "too_deep"
        bad_hello.close()
        player = Player(srv.ws, room["code"], room["token"])
        player.hello()
        frames = {"[" * 1000 + "]" * 1000: "too_deep",
                  '{"type": "ping", "t": NaN}': "bad_number",
                  '{"type": "ping", "t": -Infinity}': "bad_number",
                  '{"type": "ping", "t": 1e999}': "bad_number",
                  '{"type": "action", "id": "\\ud800", "version": 0, "action": [0, "pass"]}':
                      "bad_text",
                  '{"type": "ping", "t": ' + "9" * 4000 + "}": "malformed",
                  '{"type": "ping", "t": ' + "9" * 4500 + "}": "too_large",
                  '{"type": "ping", "t": {"a": [1]}}': "malformed"}
        for frame, code in frames.items():
            player.send(frame)
            error = player.recv_type("error")
            assert error["code"] == code, frame[:40]
            player.send({"type": "ping", "t": 7})
            assert player.recv_type("pong")["t"] == 7  # still usable
        player.send({"type": "ping", "t": 2.5})
        assert player.recv_type("pong")["t"] == 2.5
        player.ws.send(b'{"type": "ping", "t": "\xff\xfe"}', text=True)  # not UTF-8
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(1000):  # what the room sent before the close (bots play on) comes first
                player.recv(timeout=5)
        assert closed.value.rcvd.code == 1007
        again = Player(srv.ws, room["code"], room["token"])
        assert again.hello()["seat"] == 0
        again.close()
    assert server_log.tracebacks() == []
    assert any("UTF-8" in r.getMessage() and r.levelno == logging.WARNING
               for r in server_log.records)


# --- 3. one error shape -------------------------------------------------------------------------

def test_every_http_error_has_one_shape(tmp_path):
    """``{"detail": {"code", "message"}}`` for the router's 404/405, validation 422s (with
    ``errors``, no echoed input), room refusals and the API's own errors."""
    with ServerThread(make_config(tmp_path)) as srv:
        base = srv.url
        room = create(srv, seats=["human", "human", "random"], nickname="ann", hands=1)
        code = room["code"]
        cases = [
            (("GET", f"{base}/nowhere"), 404, "not_found"),
            (("DELETE", f"{base}/api/rooms"), 405, "method_not_allowed"),
            (("POST", f"{base}/api/rooms", {"unknown": 1}), 422, "invalid"),
            (("POST", f"{base}/api/rooms", {"preset": "nope"}), 422, "bad_rules"),
            (("POST", f"{base}/api/rooms", {"seats": ["human", "robot", "human"]}), 422,
             "bad_seats"),
            (("POST", f"{base}/api/rooms", {"decision_seconds": 0.0001}), 422, "bad_time"),
            (("POST", f"{base}/api/rooms", {"nickname": "\u3164"}), 422, "bad_nickname"),
            (("POST", f"{base}/api/rooms", {"nickname": "机器人小王"}), 422, "bot_nickname"),
            # a bot persona's name, in any width or spacing, is not a player's (personas.py)
            (("POST", f"{base}/api/rooms", {"nickname": "老张"}), 422, "bot_nickname"),
            (("POST", f"{base}/api/rooms/{code}/join", {"nickname": "lao  ZHANG"}), 422,
             "bot_nickname"),
            (("POST", f"{base}/api/rooms", {"auto_bot": "yes"}), 422, "bad_auto_bot"),
            (("POST", f"{base}/api/rooms", {"auto_bot": "human"}), 422, "bad_auto_bot"),
            (("GET", f"{base}/api/rooms/NOPE42"), 404, "no_room"),
            (("POST", f"{base}/api/rooms/NOPE42/join", {"nickname": "bo"}), 404, "no_room"),
            (("POST", f"{base}/api/rooms/{code}/join", {"nickname": "bob", "seat": 2}), 409,
             "seat_taken"),
            (("POST", f"{base}/api/rooms/{code}/join", {"nickname": "Bot 7"}), 422,
             "bot_nickname"),
            (("POST", f"{base}/api/rooms/{code}/leave"), 401, "no_token"),
            (("POST", f"{base}/api/rooms/{code}/leave", None, "wrong-token-x"), 403,
             "bad_token"),
            (("GET", f"{base}/api/hands/abc/9"), 404, "no_hand"),
            (("GET", f"{base}/api/matches/abc"), 404, "no_match"),
            (("GET", f"{base}/api/hands?limit=0"), 422, "invalid"),
            # strict bodies: a number as a string is not read as the number
            (("POST", f"{base}/api/rooms", {"hands": "4"}), 422, "invalid"),
            (("POST", f"{base}/api/rooms/{code}/join", {"nickname": "bob", "seat": "2"}), 422,
             "invalid"),
            # entropy outside printable ASCII has the entropy's own code (R3.1)
            (("POST", f"{base}/api/rooms/{code}/join", {"nickname": "bob", "entropy": "熵"}), 422,
             "bad_entropy"),
        ]
        for args, status, expected in cases:
            got, body = http(*args)
            assert got == status, (args, got, body)
            assert isinstance(body["detail"], dict), (args, body)
            assert body["detail"]["code"] == expected, (args, body)
            assert isinstance(body["detail"]["message"], str) and body["detail"]["message"]
        _, body = http("POST", f"{base}/api/rooms", {"nickname": ["x" * 50]})
        assert body["detail"]["errors"][0]["loc"] == ["body", "nickname"]
        assert "x" * 50 not in json.dumps(body)  # the input is not echoed
        assert http("POST", f"{base}/api/rooms/{code}/join", {"nickname": "bob"})[0] == 200
        got, body = http("POST", f"{base}/api/rooms/{code}/join", {"nickname": "cid"})
        assert (got, body["detail"]["code"]) == (409, "room_full")


# --- 4. rate limits -----------------------------------------------------------------------------

def test_rate_limits_per_ip_answer_429_with_retry_after(tmp_path):
    """Token buckets per client IP: 3 rooms, then 429 ``rate_limited`` with ``Retry-After``;
    joins and look-ups have their own buckets; ``/api/health`` is never limited. Limits set to
    0 are off. A fourth open socket of one IP is refused (``too_many_sockets``)."""
    config = make_config(tmp_path, create_rate=0.01, create_burst=3, join_rate=0.01,
                         join_burst=2, lookup_rate=0.01, lookup_burst=4, max_sockets_per_ip=3)
    with ServerThread(config) as srv:
        base = srv.url
        rooms = [create(srv, seats=["human", "human", "human"], nickname="ann")
                 for _ in range(3)]
        status, body, headers = raw_post(f"{base}/api/rooms", b"{}")
        assert (status, body["detail"]["code"]) == (429, "rate_limited")
        assert int(headers["retry-after"]) >= 1
        code = rooms[0]["code"]
        for expected in (200, 200, 429):
            assert http("POST", f"{base}/api/rooms/{code}/join", {"nickname": "bob"})[0] == \
                expected
        statuses = [http("GET", f"{base}/api/rooms/NOPE{i:02d}")[0] for i in range(6)]
        assert statuses == [404] * 4 + [429] * 2  # room-code guessing is bounded
        assert all(http("GET", f"{base}/api/health")[0] == 200 for _ in range(30))
        sockets = [Player(srv.ws, r["code"], r["token"]) for r in rooms]
        extra = Player(srv.ws, code, rooms[0]["token"])
        assert extra.recv_type("error")["code"] == "too_many_sockets"
        for s in sockets:
            s.close()
        extra.close()
    off = make_config(tmp_path, "off.db", create_rate=0, lookup_rate=0)
    with ServerThread(off) as srv:
        for _ in range(70):
            http("GET", f"{srv.url}/api/rooms/NOPE42")
        assert http("GET", f"{srv.url}/api/rooms/NOPE42")[0] == 404


def test_ip_buckets_refill_and_stay_bounded():
    from kawuxing.server.ratelimit import IpBuckets

    now = [0.0]
    buckets = IpBuckets(rate=2.0, burst=2, now=lambda: now[0], max_ips=100)
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.5]
    now[0] = 0.5  # one token back (2 per second)
    assert buckets.take("a") == 0.0 and buckets.take("a") > 0
    for i in range(1000):
        buckets.take(f"10.0.{i // 256}.{i % 256}")
    assert len(buckets._buckets) == 100


# --- 5. headers, Origin, API docs ---------------------------------------------------------------

def test_security_headers_on_every_page_and_docs_only_when_asked(tmp_path):
    from web_harness import WebServerThread

    with WebServerThread(make_config(tmp_path)) as srv:
        for path in ("/", "/static/js/main.js", "/api/health", "/api/rules", "/nowhere"):
            try:
                response = urllib.request.urlopen(f"{srv.url}{path}")
            except urllib.error.HTTPError as err:
                response = err
            headers = response.headers
            csp = headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
            script = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
            assert script.split() == ["script-src", "'self'"], csp  # no inline script, no eval
            assert headers["x-frame-options"] == "DENY", path
            assert headers["x-content-type-options"] == "nosniff", path
            assert headers["referrer-policy"] == "no-referrer", path
        page = urllib.request.urlopen(f"{srv.url}/").read().decode()
        assert "onclick=" not in page and " style=" not in page
        assert all('src="' in tag for tag in page.split("<script")[1:])  # no inline script
        for path in ("/docs", "/redoc", "/openapi.json"):
            assert http("GET", f"{srv.url}{path}")[0] == 404
    with ServerThread(make_config(tmp_path, "docs.db", api_docs=True)) as srv:
        status, schema = http("GET", f"{srv.url}/openapi.json")
        assert status == 200 and "/api/rooms" in schema["paths"]
        assert http("GET", f"{srv.url}/docs")[0] == 404  # no Swagger UI from a CDN


def test_websocket_compression_only_when_configured(tmp_path):
    """permessage-deflate is not negotiated by default (it cost about 6 % of a server's CPU,
    issue 17) even though the client offers it; ``ws_deflate`` / KAWUXING_WS_DEFLATE=1 turn
    it on, and the game plays the same."""
    assert ServerConfig().ws_deflate is False
    assert ServerConfig.from_env(environ={"KAWUXING_WS_DEFLATE": "1"}).ws_deflate is True
    assert ServerConfig.from_env(environ={"KAWUXING_WS_DEFLATE": "0"}).ws_deflate is False
    for deflate in (False, True):
        with ServerThread(make_config(tmp_path, f"z{deflate}.db", ws_deflate=deflate)) as srv:
            room = create(srv, seats=["human", "random", "random"], nickname="ann")
            player = Player(srv.ws, room["code"], room["token"])  # offers permessage-deflate
            offered = player.ws.request.headers.get("Sec-WebSocket-Extensions") or ""
            assert "permessage-deflate" in offered
            agreed = player.ws.response.headers.get("Sec-WebSocket-Extensions")
            assert (agreed is not None and "permessage-deflate" in agreed) is deflate
            welcome = player.hello()
            assert welcome["seat"] == 0 and welcome["version"] >= 0
            player.close()


def test_websocket_origin_must_be_this_server_or_allowed(tmp_path):
    from websockets.exceptions import InvalidStatus

    config = make_config(tmp_path, allow_origins=("https://play.example.org",))
    with ServerThread(config) as srv:
        room = create(srv, seats=["human", "random", "random"], nickname="ann")
        for origin in (None, srv.url, "https://play.example.org"):
            extra = {} if origin is None else {"origin": origin}
            player = Player(srv.ws, room["code"], room["token"], **extra)
            assert player.hello()["seat"] == 0
            player.close()
        for origin in ("https://evil.example", "http://127.0.0.1:1", "null"):
            with pytest.raises(InvalidStatus) as err:
                Player(srv.ws, room["code"], room["token"], origin=origin)
            assert err.value.response.status_code == 403


# --- 6. expiry, a finished room after a restart --------------------------------------------------

def test_rooms_expire_are_stored_so_and_are_not_rebuilt(tmp_path):
    """A room waiting past ``waiting_expiry`` and a match with no player connected past
    ``abandoned_expiry`` expire: stored ``expired``, sockets told and closed (4004), not in
    memory, and not rebuilt at the next start; a room with a player connected stays."""
    async def main():
        config = make_config(tmp_path, waiting_expiry=100, abandoned_expiry=50,
                             expiry_check=0)
        store = await Store.open(config.db_url)
        manager = RoomManager(store, config, ManualClock())
        try:
            waiting = (await manager.create_room(seats=["human"] * 3, nickname="ann"))["code"]
            sink = Sink()
            room = manager.get(waiting)
            await room.post(room.attach, sink, (await room.post(room.join, "bob"))[1],
                            None, None)
            played = await manager.create_room(seats=["human", "random", "random"],
                                               nickname="cid")
            playing = played["code"]
            kept = (await manager.create_room(seats=["human", "random", "random"],
                                              nickname="dan"))
            kept_room = manager.get(kept["code"])
            await kept_room.post(kept_room.attach, Sink(), kept["token"], None, None)
            t0 = manager.get(playing).created_at
            assert await manager.expire(t0 + 40) == []
            assert await manager.expire(t0 + 60) == [playing]  # nobody ever connected
            assert await manager.expire(t0 + 99) == []
            assert await manager.expire(t0 + 101) == [waiting]
            assert sink.closed[0] == protocol.CLOSE_ROOM_GONE
            assert [m["code"] for m in sink.messages if m["type"] == "error"] == [
                "room_expired"]
            assert manager.get(waiting) is None and manager.get(kept["code"]) is not None
            for code in (waiting, playing):
                assert (await store.room_row(code))["status"] == "expired"
        finally:
            await manager.shutdown()
            await store.close()
        # a restart rebuilds only the room that was kept; a room stale in the database
        # (its last action long ago) is expired before the rebuild
        store = await Store.open(config.db_url)
        manager = RoomManager(store, config, ManualClock())
        try:
            assert await manager.restore() == 1 and list(manager.rooms) == [kept["code"]]
        finally:
            await manager.shutdown()
            await store.close()
        store = await Store.open(config.db_url)
        manager = RoomManager(store, make_config(tmp_path, abandoned_expiry=0), ManualClock())
        try:
            assert await manager.restore() == 0
            assert (await store.room_row(kept["code"]))["status"] == "expired"
        finally:
            await manager.shutdown()
            await store.close()
    asyncio.run(main())


def test_a_finished_room_answers_match_end_after_a_restart(tmp_path):
    """A finished match's room is no longer in memory after a restart: a hello with its
    seat's token gets the ``match_end`` (totals and each hand's deltas) and a normal close —
    not 4004; a wrong token gets ``bad_token``."""
    config = make_config(tmp_path, "done.db")
    with ServerThread(config) as srv:
        created = create(srv, seats=["human", "random", "random"], nickname="ann", hands=1)
        player = Player(srv.ws, created["code"], created["token"])
        player.hello()
        import random as _random

        from kawuxing.server.testing import choose
        rng = _random.Random(3)
        while not player.ended:
            message = player.recv(timeout=30)
            if message["type"] in ("update", "sync") and needs_answer(message["view"]):
                player.act(choose(message["view"], rng))
        final = player.log[-1] if player.log[-1]["type"] == "match_end" else \
            next(m for m in player.log if m["type"] == "match_end")
        player.close()
    with ServerThread(config) as srv:
        assert srv.manager.get(created["code"]) is None
        player = Player(srv.ws, created["code"], created["token"])
        player.send({"type": "hello", "token": created["token"]})
        again = player.recv_type("match_end")
        assert again == final and len(again["hands"]) == 1
        assert sum(again["totals"]) == 0
        stranger = Player(srv.ws, created["code"], "not-the-token-at-all")
        stranger.send({"type": "hello", "token": "not-the-token-at-all"})
        assert stranger.recv_type("error")["code"] == "bad_token"
        player.close()
        stranger.close()


# --- 7. startup errors ---------------------------------------------------------------------------

def test_startup_errors_are_one_line_exit_2_before_any_url(tmp_path):
    import socket
    import subprocess
    import sys

    def serve(*args):
        return subprocess.run([sys.executable, "-m", "kawuxing.cli", "serve", *args],
                              capture_output=True, text=True, timeout=60)

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        out = serve("--port", port, "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("error: cannot listen") and out.stderr.count("\n") == 1
    for db in (f"sqlite:///{tmp_path / 'missing' / 'x.db'}", "mysql://x"):
        out = serve("--db", db, "--port", str(_free_port()))
        assert out.returncode == 2 and out.stdout == "", out
        assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1, out.stderr


def _free_port() -> int:
    from kawuxing.server.testing import free_port

    return free_port()


# --- 8. bounded disk ------------------------------------------------------------------------------

def test_the_wal_stays_bounded_under_sustained_writes(tmp_path):
    """20,000 action rows (about 3 MB, 24 times the limit) written as rooms write them
    (many small commits, readers meanwhile): the writer truncates the WAL between batches
    once it reaches ``wal_limit`` (and when idle), so it never grows past the limit and a
    batch (it grew without bound before: passive checkpoints only, never truncated)."""
    import os

    from kawuxing.server.rows import ActionRow

    limit = 128 * 1024

    async def main():
        path = tmp_path / "wal.db"
        store = await Store.open(f"sqlite+aiosqlite:///{path}", sqlite_synchronous="NORMAL",
                                 wal_limit=limit)
        sizes = []
        try:
            for wave in range(40):
                writes = [store.add_action(ActionRow(f"m{wave % 7}", wave, i, i % 3,
                                                     [i % 3, "discard", "5p"] * 8, "bot"))
                          for i in range(500)]
                reads = [store.count_actions(f"m{wave % 7}") for _ in range(3)]
                await asyncio.gather(*writes, *reads)
                sizes.append(os.path.getsize(f"{path}-wal"))
            assert store.writer.checkpoints >= 10
            # the largest the WAL ever was (sampled by the writer before each checkpoint,
            # and here after each wave): about the limit, never many times it
            assert max(sizes + [store.writer.wal_max]) <= 2 * limit, (sizes, store.writer.wal_max)
            assert await store.count_actions("m0") == 6 * 500
        finally:
            await store.close()
        wal = f"{path}-wal"
        assert not os.path.exists(wal) or os.path.getsize(wal) == 0  # truncated on close
    asyncio.run(main())


def test_ended_hands_are_dropped_from_memory_and_read_from_the_database(tmp_path):
    """An 8-hand all-bot match: once it is over the room keeps only the last two hands whole;
    the others are EndedHands (deltas, seats, counts: no events). The totals and the
    ``match_end`` are those the database holds, and replays read the database."""
    from kawuxing.engine import Hand
    from kawuxing.server.ended import EndedHand

    async def main():
        config = make_config(tmp_path)
        store = await Store.open(config.db_url)
        clock = ManualClock()
        manager = RoomManager(store, config, clock)
        try:
            created = await manager.create_room(seats=["random"] * 3, hands=8)
            room = manager.get(created["code"])
            for _ in range(200):
                await settle(room, clock)
                if room.finished:
                    break
                clock.advance(1.0)
            assert room.finished
            hands = room.match.hands
            assert len(hands) == 8
            assert [type(h) for h in hands] == [EndedHand] * 6 + [Hand] * 2
            match = await store.get_match(room.match_id)
            stored = [h["result"]["deltas"] for h in match["hands"]]
            assert [h.deltas for h in hands] == stored
            assert room.match.totals() == match["totals"] == [sum(c) for c in zip(*stored)]
            assert sending.match_end(room)["hands"] == stored
            assert room.version == sum(len(h.events) for h in hands)
            record = await store.hand_record(room.match_id, 0)
            assert record["status"] == "ended" and len(record["record"]["actions"]) == \
                len(hands[0].actions)
        finally:
            await manager.shutdown()
            await store.close()
    asyncio.run(main())


# --- 9. the collector's full passes ------------------------------------------------------------------

def test_full_gc_passes_run_on_a_timer_and_thresholds_come_back(tmp_path):
    """While a server with ``gc_interval`` runs, the collector makes no full pass by itself
    (the third threshold is out of reach) — the server makes one every ``gc_interval``
    seconds; once it stops, the thresholds are as they were. ``gc_interval`` 0 changes
    nothing."""
    import gc

    saved = gc.get_threshold()
    with ServerThread(make_config(tmp_path, gc_interval=600)):
        assert gc.get_threshold() == (saved[0], saved[1], 10**9)
        with ServerThread(make_config(tmp_path, "second.db", gc_interval=600)):
            assert gc.get_threshold() == (saved[0], saved[1], 10**9)
        assert gc.get_threshold() == (saved[0], saved[1], 10**9)  # the first still runs
    assert gc.get_threshold() == saved
    with ServerThread(make_config(tmp_path, "nogc.db", gc_interval=0)):
        assert gc.get_threshold() == saved


def test_all_bot_matches_are_capped_per_ip(tmp_path):
    """All-bot matches play at full speed: an address may have ``max_bot_rooms_per_ip`` of
    them being played (429 ``too_many_bot_rooms`` past it); other addresses and rooms with a
    player are not counted."""
    from kawuxing.server.errors import RoomError

    async def main():
        config = make_config(tmp_path, max_bot_rooms_per_ip=2)
        store = await Store.open(config.db_url)
        manager = RoomManager(store, config, ManualClock())  # the bots wait for the clock
        try:
            for _ in range(2):
                await manager.create_room(seats=["random"] * 3, hands=64, owner="10.0.0.1")
            with pytest.raises(RoomError) as err:
                await manager.create_room(seats=["random"] * 3, hands=64, owner="10.0.0.1")
            assert (err.value.status, err.value.code) == (429, "too_many_bot_rooms")
            await manager.create_room(seats=["random"] * 3, hands=64, owner="10.0.0.2")
            await manager.create_room(seats=["human", "random", "random"], owner="10.0.0.1")
        finally:
            await manager.shutdown()
            await store.close()
    asyncio.run(main())


def test_health_reports_the_event_loop_lag(tmp_path):
    """``/api/health`` has ``loop``: how late the event loop woke over the last minute."""
    import time as _time

    with ServerThread(make_config(tmp_path)) as srv:
        _time.sleep(0.35)  # a few samples (one per 0.1 s)
        loop = http("GET", f"{srv.url}/api/health")[1]["loop"]
        assert loop["samples"] >= 1
        assert 0 <= loop["lag_ms_p50"] <= loop["lag_ms_p99"] <= loop["lag_ms_max"]


def test_a_process_that_lost_the_room_stores_no_seat_change(tmp_path):
    """In a cluster a room writes only while its process holds the lease (issue 17): with the
    fence down, a join, a bot for an open seat and a leave are refused with 503
    ``owner_unavailable``, the seats stay as they were, and nothing is written."""
    from kawuxing.server.errors import RoomError

    async def main():
        config = make_config(tmp_path)
        store = await Store.open(config.db_url)
        manager = RoomManager(store, config, ManualClock())
        try:
            made = await manager.create_room(seats=["human"] * 3, nickname="ann")
            room = manager.get(made["code"])
            async def stored_seats():
                return (await store.active_rooms([made["code"]]))[0]["seats"]

            before = await stored_seats()
            room.fence = lambda: False
            for call in (lambda: room.join("bob"),
                         lambda: room.seat_to_bot(made["token"], 2, "random"),
                         lambda: room.leave(made["token"])):
                with pytest.raises(RoomError) as refused:
                    await room.post(call)
                assert (refused.value.status, refused.value.code) == (503, "owner_unavailable")
            assert [s.kind for s in room.seats] == ["human", "open", "open"]
            assert room.seats[0].nickname == "ann"
            assert await stored_seats() == before and before[1]["kind"] == "open"
            room.fence = lambda: True
            seat, _ = await room.post(room.join, "bob")
            assert seat == 1 and room.seats[1].nickname == "bob"
        finally:
            await manager.shutdown()
            await store.close()

    asyncio.run(main())
