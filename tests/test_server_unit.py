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


def test_server_messages_encode_compactly():
    text = protocol.encode(protocol.refused("a", "stale", "moved", 5))
    assert json.loads(text) == {"type": "refused", "id": "a", "code": "stale",
                                "reason": "moved", "rule": None, "version": 5}
    assert ", " not in text


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
