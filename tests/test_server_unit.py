"""Small parts of the server: message validation, flood control, tokens, codes, settings,
the manual clock, nicknames."""

from __future__ import annotations

import json

import pytest

from kawuxing.server import protocol
from kawuxing.server.clock import ManualClock
from kawuxing.server.config import ServerConfig
from kawuxing.server.ratelimit import TokenBucket
from kawuxing.server.room import RoomError, clean_nickname
from kawuxing.server.tokens import (CODE_ALPHABET, hash_token, new_room_code, new_token,
                                    normalize_code, token_matches)


def parse(obj, limit=4096):
    return protocol.parse_client(obj if isinstance(obj, str) else json.dumps(obj), limit)


def test_client_messages_are_validated_strictly():
    hello = parse({"type": "hello", "token": "t" * 20, "hand": 2, "last_event": 7})
    assert isinstance(hello, protocol.Hello) and hello.last_event == 7
    action = parse({"type": "action", "id": "a1", "version": 3, "action": [0, "discard", "5p"]})
    assert isinstance(action, protocol.ActionMessage)
    assert isinstance(parse({"type": "auto", "on": True}), protocol.Auto)
    for bad, code in [
        ("nope", "malformed"), ("[]", "malformed"), ("null", "malformed"),
        ({"type": "fly"}, "unknown_type"), ({"type": 3}, "unknown_type"), ({}, "unknown_type"),
        ({"type": "hello"}, "malformed"),
        ({"type": "hello", "token": "short"}, "malformed"),
        ({"type": "action", "id": "a", "version": -1, "action": [0, "pass"]}, "malformed"),
        ({"type": "action", "id": "a", "version": 1.0, "action": [0, "pass"]}, "malformed"),
        ({"type": "action", "id": "a", "version": True, "action": [0, "pass"]}, "malformed"),
        ({"type": "action", "id": "", "version": 1, "action": [0, "pass"]}, "malformed"),
        ({"type": "action", "id": "a" * 65, "version": 1, "action": [0, "pass"]}, "malformed"),
        ({"type": "action", "id": "a", "version": 1, "action": [0]}, "malformed"),
        ({"type": "action", "id": "a", "version": 1, "action": "0 pass"}, "malformed"),
        ({"type": "auto", "on": "yes"}, "malformed"),
        ({"type": "ready", "now": 1}, "malformed"),
        ({"type": "ping", "t": "x" * 100}, "malformed"),
    ]:
        with pytest.raises(protocol.ProtocolError) as err:
            parse(bad)
        assert err.value.code == code, bad
    with pytest.raises(protocol.ProtocolError) as err:
        parse({"type": "ping", "t": "é" * 30}, limit=60)  # 60 bytes, not characters
    assert err.value.code == "too_large"


def test_token_bucket_throttles_then_refills():
    now = [0.0]
    bucket = TokenBucket(rate=2, burst=3, now=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5
    assert bucket.take() and not bucket.take()
    now[0] += 100
    assert sum(bucket.take() for _ in range(10)) == 3
    with pytest.raises(ValueError):
        TokenBucket(0, 1)


def test_tokens_and_codes():
    token = new_token()
    assert len(token) >= 40 and token != new_token()
    stored = hash_token(token)
    assert stored != token and token_matches(token, stored)
    assert not token_matches(token + "x", stored) and not token_matches(None, stored)
    assert not token_matches(token, None)
    code = new_room_code()
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    assert normalize_code(" k7q xma ") == "K7QXMA"


def test_config_from_env():
    config = ServerConfig.from_env("sqlite:///x.db", {"KAWUXING_BOT_DELAY": "0",
                                                      "KAWUXING_AUTO_AFTER": "3",
                                                      "KAWUXING_DB_SCHEMA": "games",
                                                      "KAWUXING_ALLOW_TEST_WALLS": "1"})
    assert config.db_url == "sqlite+aiosqlite:///x.db" and config.bot_delay == 0.0
    assert config.auto_after == 3 and isinstance(config.auto_after, int)
    assert config.db_schema == "games" and not config.allow_test_walls
    with pytest.raises(ValueError, match="KAWUXING_RATE"):
        ServerConfig.from_env("sqlite:///x.db", {"KAWUXING_RATE": "fast"})


def test_manual_clock():
    clock = ManualClock()
    fired = []
    clock.call_later(2, lambda: fired.append("b"))
    clock.call_later(1, lambda: fired.append("a"))
    cancelled = clock.call_later(1.5, lambda: fired.append("x"))
    cancelled.cancel()
    assert clock.advance(0.5) == 0 and fired == []
    assert clock.advance(2) == 2 and fired == ["a", "b"] and clock.now() == 2.5


def test_nicknames():
    assert clean_nickname("  Ann\u200b  Lee\n") == "Ann Lee"
    assert clean_nickname("小明") == "小明"
    for bad in ("", "   ", "\x00\x07", "x" * 25, None, 3):
        with pytest.raises(RoomError):
            clean_nickname(bad)
    # a bot-like name in any width is refused as one (issue 35: ｂｏｔ passed)
    for botlike in ("bot 1", "Ｂot", "ｂｏｔ", "Ｂｏｔ 1", "ＢＯＴ", "ｒｏｂｏｔ", "小王　ｂｏｔ", "机器人甲"):
        with pytest.raises(RoomError) as err:
            clean_nickname(botlike)
        assert err.value.code == "bot_nickname", botlike
    assert clean_nickname("Ｂｏｂ") == "Ｂｏｂ"  # a fullwidth name that is no bot's is kept as typed


def test_server_messages_encode_compactly():
    text = protocol.encode(protocol.refused("a", "stale", "moved", 5))
    assert json.loads(text) == {"type": "refused", "id": "a", "code": "stale",
                                "reason": "moved", "rule": None, "version": 5}
    assert ", " not in text


def test_encode_is_the_compact_json_of_the_message_whatever_it_holds():
    """encode (orjson, issue 17) writes what json.dumps(ensure_ascii=False, compact) wrote:
    UTF-8 text, int keys as strings; an int beyond 64 bits falls back to json."""
    from kawuxing.engine.hand import Hand
    from kawuxing.engine.views import seat_view
    from kawuxing.rules import RuleSet

    view = seat_view(Hand.deal(RuleSet.preset(), 0, seed=3), 0)
    for message in ({"type": "update", "view": view, "events": [], "ack": None},
                    {"type": "chat", "text": "碰！卡五星 🀄", "seat": 1, "at": 1.5},
                    {"acks": {0: "a", 2: None}, "big": 2**70, "nested": [[1, [2.25]], {}]}):
        text = protocol.encode(message)
        assert text == json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    assert protocol.encode({"t": "五"}) == '{"t":"五"}'


def test_serve_command_line():
    import typer
    from typer.testing import CliRunner

    from kawuxing.cli.serve import serve

    app = typer.Typer()
    app.command()(serve)
    app.command("other")(lambda: None)  # two commands: `serve` is a subcommand, as in kawuxing.cli
    runner = CliRunner()
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db"):
        assert option in result.output
    result = runner.invoke(app, ["serve", "--db", "mysql://u@h/d"])
    assert result.exit_code == 2 and "only sqlite and postgresql" in result.output


def test_serve_refuses_a_port_in_use_before_opening_the_database():
    """`kawuxing serve` on a busy port: one error, exit 2, before touching the database."""
    import socket

    from kawuxing.cli.serve import _cannot_listen

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert "in use" in (_cannot_listen("127.0.0.1", port) or "")
    assert _cannot_listen("127.0.0.1", port) is None


def test_the_server_never_imports_the_web_package():
    """Layers (DESIGN.md): the web package composes the app from the server; no module of
    kawuxing.server imports kawuxing.web. The server's app has no browser client; the web
    package's app is the server's routes plus / and /static."""
    import ast
    from pathlib import Path

    import kawuxing.server
    from kawuxing.server.app import create_app
    from kawuxing.web import create_app as create_web_app

    folder = Path(kawuxing.server.__file__).parent
    checked = 0
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level >= 2:  # from ..x import / from .. import x
                    names = [module] if module else [a.name for a in node.names]
                elif node.level == 0:
                    names = [module.removeprefix("kawuxing.")] if module.startswith(
                        "kawuxing.") else []
            elif isinstance(node, ast.Import):
                names = [a.name.removeprefix("kawuxing.") for a in node.names
                         if a.name.startswith("kawuxing.")]
            assert not any(n == "web" or n.startswith("web.") for n in names), \
                f"{path.name} imports the web package"
        checked += 1
    assert checked >= 15
    def paths(routes) -> set:
        found = set()
        for route in routes:
            found.add(getattr(route, "path", None))
            router = getattr(route, "original_router", route)  # an included router
            found |= paths(getattr(router, "routes", None) or [])
        return found - {None}

    config = ServerConfig(db_url="sqlite+aiosqlite:///unused.db")
    server_paths = paths(create_app(config).routes)
    web_paths = paths(create_web_app(config).routes)
    assert "/api/rooms" in server_paths and "/ws/{code}" in server_paths
    assert "/" not in server_paths and "/static" not in server_paths
    assert {"/", "/static"} <= web_paths and server_paths <= web_paths


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_build_wall_deals_the_given_hands_through_the_engine(dealer):
    """build_wall (tests' walls) follows the engine's deal order (R3.1): Hand.deal of it gives
    each seat its hand, and the draws start with the given ones."""
    from kawuxing.engine import Hand
    from kawuxing.rules import RuleSet
    from kawuxing.server.testing import CLAIM_DRAWS, CLAIM_HANDS, build_wall
    from kawuxing.tiles import parse_tiles

    wall = parse_tiles(build_wall(CLAIM_HANDS, CLAIM_DRAWS + " 9s", dealer=dealer, seed=dealer))
    hand = Hand.deal(RuleSet.preset(), dealer, wall=wall)
    assert [sorted(h) for h in hand.initial_hands] == [sorted(parse_tiles(h))
                                                         for h in CLAIM_HANDS]
    assert hand.draws[:2] == parse_tiles("5p 9s")
    assert hand.seats[dealer].drawn == parse_tiles("5p")[0]
    with pytest.raises(ValueError):
        build_wall(CLAIM_HANDS, "5p 5p 5p")  # a fifth 5p (seat 1 holds two)


def test_every_server_message_of_the_protocol_doc_has_its_builder():
    """docs/protocol.md "Server → client": each message type there is built by the function of
    that name in kawuxing.server.protocol (ClientOut), which returns a message of that type
    with the fields the doc lists."""
    import inspect
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text("utf-8")
    section = doc[doc.index("### Server → client"):doc.index("- `view` is exactly")]
    rows = re.findall(r"^\| `(\w+)` \|([^|]*)\|", section, re.M)
    assert len(rows) >= 13
    for kind, fields in rows:
        builder = getattr(protocol, kind)
        params = inspect.signature(builder).parameters
        sample = {"hand": 0, "version": 3, "events": [], "view": {}, "totals": [0, 0, 0],
                  "clock": None, "auto": False, "fairness": None, "commit": None,
                  "on": True, "reason": "asked", "players": [], "seats": [], "seat": 1,
                  "room": "ABCDEF", "status": "playing", "preset": "standard", "rules": {},
                  "settings": {}, "value": "x", "commitment": "c" * 64, "match_id": "m",
                  "hands": [], "t": 5, "action_id": "a", "code": "stale",
                  "message": "m", "rule": None, "choices": [], "say": "hurry", "count": 2,
                  "seconds": 15.0, "ready": [True, False, True], "by": 2,
                  "state": "resuming"}
        message = builder(**{name: sample[name] for name, p in params.items()
                             if p.default is inspect.Parameter.empty
                             and p.kind is not inspect.Parameter.VAR_KEYWORD})
        assert message["type"] == kind
        named = set(re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", fields))) - {kind}
        missing = {f for f in named if f not in message and f not in ("ack", "resumed")}
        assert not missing, (kind, missing)


def test_compact_json_is_what_json_writes_compactly():
    """The server's one JSON writer (messages and stored rows, issue 34): orjson's output
    where it can, the same text as ``json``'s compact form, and json's where orjson refuses."""
    import json

    from kawuxing.server.jsontext import compact
    from kawuxing.server.protocol import encode
    from kawuxing.server.schema import dumps

    values = [[0, "discard", 12], [2, "piao", 5], {"a": [1, 2.5, None, True], "中": "五筒"},
              {1: 2, 0: [3]}, 2**70, "\ud800", {"x": 1e16, "y": 0.1, "z": -0.0}]
    for value in values:
        want = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        assert compact(value) == dumps(value) == want
    assert encode({"type": "chat", "seat": 1}) == '{"type":"chat","seat":1}'


def test_the_postgresql_probe_answers_the_same_inside_a_running_event_loop():
    """Playwright's sync API runs an event loop in the test's thread: the probe answered None
    there (asyncio.run refuses inside a loop), and a module's PostgreSQL cases were skipped."""
    import asyncio

    from kawuxing.server.testing import pg_test_url

    async def inside() -> str | None:
        return pg_test_url()

    assert asyncio.run(inside()) == pg_test_url()
