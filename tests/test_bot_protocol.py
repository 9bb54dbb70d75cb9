"""The bot protocol (docs/bot-protocol.md): JSON lines for bots in any language.

- the action encoding and the reading of answers (index or the object as sent);
- every line a seat's program is sent is built from that seat's own view and events (R13),
  checked when it is sent against the true hand with the leak scanner of
  test_server_leak.py, and the program is asked after every discard of another seat, ``pass``
  only when it holds no option (R13.2);
- a program that answers garbage, an illegal action, too late or not at all gets a clear
  error and the hand is left as it was;
- ``kawuxing arena`` with the JavaScript example bot (examples/bot.js), in parallel worker
  processes, and one ``error:`` line for a bot that fails;
- a room of the game server with an ``external`` seat played to the end by the example bot
  through the bridge (``kawuxing connect``).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import NamedTuple

import pytest

from kawuxing.agents import check_bot, make_agent
from kawuxing.arena import check_arena_bots, run_arena
from kawuxing.botproto import BotError, BotProcess, CommandBot, action_object, read_reply
from kawuxing.botproto.bridge import Bridge, BridgeError, ws_url
from kawuxing.botproto.messages import ReplyError
from kawuxing.engine import Hand
from kawuxing.engine.actions import Action
from kawuxing.engine.observation import observe
from kawuxing.engine.views import event_for_seat, seat_view
from kawuxing.rules import RuleSet
from kawuxing.server.config import ServerConfig
from kawuxing.server.testing import ServerThread, http
from helpers import KIND, make_wall, tiles_in_view, visible_tiles
from test_server_leak import FORBIDDEN_KEYS, secrets_of, walk

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "bot.js"
JS_BOT = f"node {EXAMPLE}"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


# --- the action encoding ---------------------------------------------------------------------

def test_action_objects():
    """Each Action field but seat that differs from its default, tiles as MPSZ (R4, R8, R11)."""
    assert action_object(Action(2, "pass")) == {"verb": "pass"}
    assert action_object(Action(0, "discard", KIND["5p"])) == {"verb": "discard", "tile": "5p"}
    assert action_object(Action(1, "discard", KIND["9s"], True, (KIND["1p"], KIND["7z"]))) == \
        {"verb": "discard", "tile": "9s", "declare": True, "hidden": ["1p", "7z"]}
    assert action_object(Action(1, "piao", piao=2)) == {"verb": "piao", "piao": 2}
    assert action_object(Action(0, "concealed_kong", KIND["6z"])) == \
        {"verb": "concealed_kong", "tile": "6z"}
    # 漂 0 is not the default (None): it is written
    assert action_object(Action(0, "piao", piao=0)) == {"verb": "piao", "piao": 0}
    # generic: a named tuple in a field (a face-down group of a town's 亮倒) is an object
    class Group(NamedTuple):
        kind: str
        tile: int

    groups = (Group("pung", KIND["1p"]), Group("chow", KIND["3s"]))
    assert action_object(Action(0, "discard", KIND["9s"], True, groups)) == \
        {"verb": "discard", "tile": "9s", "declare": True,
         "hidden": [{"kind": "pung", "tile": "1p"}, {"kind": "chow", "tile": "3s"}]}


def test_read_reply():
    legal = [Action(1, "pung"), Action(1, "pass")]
    assert read_reply('{"index": 1}', legal) == Action(1, "pass")
    assert read_reply('{"verb":"pung"}', legal) == Action(1, "pung")
    turn = [Action(0, "discard", KIND["3s"], True), Action(0, "discard", KIND["3s"])]
    assert read_reply('{"tile": "3s", "declare": true, "verb": "discard"}', turn) == turn[0]
    assert read_reply('{"verb": "discard", "tile": "3s"}', turn) == turn[1]
    problems = {
        "hello": "the answer is not JSON: 'hello'",
        "[1]": "the answer is not a JSON object: '[1]'",
        '{"index": 2}': "index 2 is not 0-1 (2 legal actions)",
        '{"index": true}': "index True is not 0-1",
        '{"index": 0, "seat": 4}': 'is not one of the legal actions [{"verb":"pung"},{"verb":"pass"}]',
        '{"verb": "kong"}': '{"verb": "kong"} is not one of the legal actions',
        '{"verb": "pass", "seat": 1}': "is not one of the legal actions",
    }
    for line, words in problems.items():
        with pytest.raises(ReplyError) as caught:
            read_reply(line, legal)
        assert words in str(caught.value), (line, str(caught.value))
    with pytest.raises(ReplyError, match="…"):  # a long answer is cut in the message
        read_reply("x" * 1000, legal)
    # an optional "id": the request's, checked when the host passes it
    assert read_reply('{"index": 0, "id": 4}', legal, 4) == Action(1, "pung")
    assert read_reply('{"verb": "pass", "id": 4}', legal, 4) == Action(1, "pass")
    assert read_reply('{"index": 0}', legal, 4) == Action(1, "pung")
    for line in ('{"index": 0, "id": 3}', '{"index": 0, "id": "4"}'):
        with pytest.raises(ReplyError, match=r"the answer is for request id .*, not 4"):
            read_reply(line, legal, 4)


# --- what a seat's program is sent (R13) -------------------------------------------------------

class CheckedPipe:
    """A program's stdio in process: every line is checked against ``game.hand`` when it is
    sent (the leak scanner of test_server_leak.py); answers are random legal choices, as an
    index or as the object sent back."""

    def __init__(self, game: dict, seat: int, rng: random.Random) -> None:
        self.game, self.seat, self.rng = game, seat, rng
        self.log: list[dict] = []
        self.request: dict | None = None
        self.closed = False

    def send(self, line: str) -> None:
        message = json.loads(line)
        assert "\n" not in line
        self.log.append(message)
        hand, seat = self.game["hand"], self.seat
        keys, strings, lists = set(), [], []
        walk(message, keys, strings, lists)
        assert not keys & FORBIDDEN_KEYS, keys & FORBIDDEN_KEYS
        secret_strings, secret_lists = secrets_of(hand, seat)
        assert not secret_strings & set(strings), message["type"]
        assert not any(x in lists for x in secret_lists), message["type"]
        kind = message["type"]
        if kind == "request":
            view = message["view"]
            assert view == seat_view(hand, seat)
            assert not tiles_in_view(view) - visible_tiles(hand, seat)
            assert message["legal"] == [action_object(a) for a in hand.legal_actions(seat)]
            assert message["phase"] == hand.phase and message["legal"]
            self.request = message
        elif kind == "end_hand":
            assert hand.ended and message["result"] == seat_view(hand, seat)["result"]
        elif kind not in ("hello", "start_hand", "bye", "error"):  # an event of the hand
            n = message["n"]
            assert message == {"n": n, **event_for_seat(hand.events[n], seat, hand)}
            if kind == "deal":
                assert set(message) == {"n", "type", "dealer", "hand", "wall"}

    def receive(self, timeout: float) -> str:
        legal = self.request["legal"]
        i = self.rng.randrange(len(legal))
        return json.dumps({"index": i} if self.rng.random() < 0.5 else legal[i])

    def close(self) -> None:
        self.closed = True


def play(rules: RuleSet, wall: list[int], dealer: int, bots: list, game: dict) -> Hand:
    """One hand as ``kawuxing arena`` plays one with a program (windows on, R13.2)."""
    hand = game["hand"] = Hand.deal(rules, dealer, wall=wall, windows=True)
    while not hand.ended:
        seat = hand.to_act()[0]
        bot = bots[seat]
        if seat in hand.idle_seats():  # a lone pass is never asked (R13.2)
            hand.apply(Action(seat, "pass"))
        elif isinstance(bot, CommandBot):
            hand.apply(bot.play(hand, seat))
        else:
            hand.apply(bot.act(observe(hand, seat), hand.legal_actions(seat)))
    for seat, bot in enumerate(bots):
        if isinstance(bot, CommandBot):
            bot.finish(hand, seat)
    return hand


def test_program_sees_only_its_seat():
    """24 hands (clumpy walls: kongs and 亮倒 come often; face-down triplets, robbing and
    hidden concealed kongs on): every line checked when sent; a request after a discard or an
    added kong of another seat only where the seat holds an option (R13.2)."""
    rules = RuleSet.preset(declare_hide_triplets=True, robbing_kong=True,
                           concealed_kong_visible=False)
    game: dict = {}
    seen = {"declare": 0, "kong": 0, "claim_requests": 0, "pass_only": 0, "win": 0}
    for n in range(24):
        seat = n % 3
        pipe = CheckedPipe(game, seat, random.Random(n))
        program = CommandBot("cmd:test", pipe=pipe)
        bots = [program if s == seat else make_agent("heuristic:2", f"{n}/{s}") for s in range(3)]
        hand = play(rules, make_wall(rules, n, clumpy=n % 2 == 0), n % 3, bots, game)
        program.close()
        assert pipe.closed and pipe.log[-1] == {"type": "bye"}
        assert [m["type"] for m in pipe.log[:3]] == ["hello", "start_hand", "deal"]
        assert pipe.log[1]["seat"] == seat and pipe.log[-2]["type"] == "end_hand"
        sent_events = [m["n"] for m in pipe.log if "n" in m]
        assert sent_events == list(range(len(hand.events)))  # each event once, in order
        requests = [m for m in pipe.log if m["type"] == "request"]
        assert [m["id"] for m in requests] == list(range(1, len(requests) + 1))
        others = [e for e in hand.events if e.get("seat") not in (None, seat)]
        windows = sum(e["type"] == "discard" for e in others) + \
            sum(e["type"] == "adding_kong" for e in others)
        asked = [m for m in requests if m["phase"] in ("claim", "rob")]
        # asked only where the seat holds an option: win, pung or kong beside pass (R13.2)
        assert len(asked) <= windows and all(len(m["legal"]) >= 2 for m in asked)
        seen["claim_requests"] += len(asked)
        seen["pass_only"] += sum(m["legal"] == [{"verb": "pass"}] for m in asked)
        seen["declare"] += sum(e["type"] == "declare" for e in hand.events)
        seen["kong"] += sum(e["type"] == "kong" for e in hand.events)
        seen["win"] += bool(hand.winners)
    assert seen["declare"] and seen["kong"] and seen["win"], seen
    # a seat without an option is passed for, unasked, as through the bridge (R13.2)
    assert seen["pass_only"] == 0 and seen["claim_requests"] > 10, seen


class ScriptedPipe:
    """Answers each request with the next line of ``answers`` (a BotError instance is raised
    instead of answering)."""

    def __init__(self, answers: list) -> None:
        self.answers = list(answers)
        self.log: list[dict] = []
        self.closed = False

    def send(self, line: str) -> None:
        self.log.append(json.loads(line))

    def receive(self, timeout: float) -> str:
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("answer, words", [
    ("hello", "the answer is not JSON: 'hello'"),
    ('{"verb": "discard", "tile": "1m"}', 'is not one of the legal actions'),  # not in play
    ('{"index": 99}', "index 99 is not 0-"),
    (BotError("no answer within 10 s"), "no answer within 10 s"),
])
def test_bad_answer_changes_nothing(answer, words):
    rules = RuleSet.preset()
    hand = Hand.deal(rules, 0, seed=3, windows=True)  # the dealer has drawn: seat 0 decides
    events, actions, view = list(hand.events), list(hand.actions), seat_view(hand, 0)
    pipe = ScriptedPipe([answer])
    program = CommandBot("cmd:mybot", pipe=pipe)
    with pytest.raises(BotError) as caught:
        program.play(hand, 0, ", deal 5, arrangement 2 of 6")
    message = str(caught.value)
    assert message.startswith("bot 'cmd:mybot', seat 0, deal 5, arrangement 2 of 6, "
                              "request 1 (turn): ")
    assert words in message
    assert hand.events == events and hand.actions == actions and seat_view(hand, 0) == view
    assert pipe.log[-1] == {"type": "error", "message": message} and pipe.closed  # told why


# --- a real process ---------------------------------------------------------------------------

def script(tmp_path: Path, name: str, body: str) -> str:
    """A Python bot script in ``tmp_path``; returns its command."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"{sys.executable} {path}"


def test_process_dies_or_is_silent(tmp_path):
    dies = BotProcess(script(tmp_path, "dies.py", """\
        import sys
        sys.stdin.readline()
        print("cannot play today", file=sys.stderr)
        sys.exit(3)
        """))
    dies.send('{"type": "hello"}')
    with pytest.raises(BotError, match=r"closed its output \(exit code 3\); its stderr ends: "
                                        "cannot play today"):
        dies.receive(10)
    dies.close()
    silent = BotProcess(script(tmp_path, "silent.py", "import time\ntime.sleep(60)\n"))
    start = time.monotonic()
    with pytest.raises(BotError, match=r"no answer within 0.3 s"):
        silent.receive(0.3)
    silent.close()  # killed after the grace: the test does not wait a minute
    assert time.monotonic() - start < 5 and silent.proc.returncode is not None
    with pytest.raises(BotError, match="cannot start bot 'no-such-bot-program x'"):
        BotProcess("no-such-bot-program x")


def test_bot_that_closes_its_output_but_runs_on(tmp_path):
    alive = BotProcess(script(tmp_path, "alive.py", """\
        import os, sys, time
        sys.stdin.readline()
        os.close(1)
        time.sleep(60)
        """))
    alive.send('{"type": "hello"}')
    with pytest.raises(BotError) as caught:
        alive.receive(10)
    assert str(caught.value) == "the bot closed its output (it is still running 2 s later)"
    alive.close()  # killed
    assert alive.proc.returncode is not None


def test_a_line_nobody_asked_for_is_refused(tmp_path):
    """A second answer to one request is not read as the next request's answer."""
    twice = script(tmp_path, "twice.py", """\
        import json, sys
        for line in sys.stdin:
            if json.loads(line)["type"] == "request":
                sys.stdout.write('{"index": 0}\\n{"index": 0}\\n')
                sys.stdout.flush()
        """)
    done = arena("--bots", f"cmd:{twice},random", "--deals", "1", "--workers", "1")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.endswith("""the bot wrote a line nobody asked for: '{"index": 0}'\n""")
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(
        f"error: bot 'cmd:{twice}', seat 0, deal 0, arrangement 1 of 6, request 2 (")
    # the check itself: a waiting line is taken off and reported, the end of output is not
    process = BotProcess(twice)
    process.send('{"type": "request"}')
    assert process.receive(10) == '{"index": 0}'
    deadline = time.monotonic() + 10
    while (line := process.unasked()) is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert line == '{"index": 0}' and process.unasked() is None
    process.close()


class EagerPipe(ScriptedPipe):
    """A ScriptedPipe whose program has already written ``waiting`` before a request."""

    def __init__(self, answers: list, waiting: list[str]) -> None:
        super().__init__(answers)
        self.waiting = list(waiting)

    def unasked(self) -> str | None:
        return self.waiting.pop(0) if self.waiting else None


def test_bridge_refuses_a_line_nobody_asked_for():
    """The bridge (kawuxing connect) checks for waiting output before each request too: the
    request is not sent, nothing reaches the server."""
    pipe = EagerPipe(['{"index": 0}'], ['{"index": 0}'])
    bridge = Bridge("ws://127.0.0.1:1/ws/ROOM", "token", pipe, 5, "eager")
    bridge.seat = 1
    update = {"hand": 0, "version": 3, "events": [],
              "view": {"phase": "claim", "legal": [[1, "pung"], [1, "pass"]]}}
    with pytest.raises(BotError) as caught:
        bridge._update(update)
    assert str(caught.value) == ("bot 'eager', seat 1, hand 0, request 1 (claim): the bot wrote "
                                 """a line nobody asked for: '{"index": 0}'""")
    assert [m["type"] for m in pipe.log] == ["start_hand", "error"]  # no request was sent


def test_command_specs():
    assert check_arena_bots([f"cmd:{JS_BOT}", "heuristic"]) == [f"cmd:{JS_BOT}", "heuristic"]
    python = f"cmd:{sys.executable}"
    for a, b in [(f"{python} mybot.py", f"{python}  mybot.py"),
                 (f"{python} mybot.py", f"{python} 'mybot.py'")]:
        with pytest.raises(ValueError, match="are the same bot"):
            check_arena_bots([a, b])  # one command after shell splitting
    assert check_arena_bots([f"{python} a.py", f"{python} b.py"])
    for bad, words in [(["cmd:", "random"], r"empty \(write cmd:PROGRAM ARGS…\)"),
                       (["cmd:no-such-bot-program", "random"], "no program 'no-such-bot-program'"),
                       (['cmd:node "x.js', "random"], "No closing quotation"),
                       ([f"cmd:{JS_BOT}", f" cmd:{JS_BOT} "], "are the same bot")]:
        with pytest.raises(ValueError, match=words):
            check_arena_bots(bad)
    # a command is never a bot of the registry: a room cannot start a program on the server
    with pytest.raises(ValueError, match="unknown bot"):
        check_bot(f"cmd:{JS_BOT}")


# --- kawuxing arena ---------------------------------------------------------------------------

def arena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kawuxing.cli", "arena", *args],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


@needs_node
def test_arena_with_the_javascript_bot():
    """Two deals (12 hands) on two worker processes through the command line, and again in
    this process on one: the same games."""
    spec = f"cmd:{JS_BOT}"
    done = arena("--bots", f"{spec},random", "--deals", "2", "--workers", "2", "--seed", "4",
                 "--json")
    assert done.returncode == 0 and done.stderr == ""  # no stray progress line when piped
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["deals"] == 2 and report["hands"] == 12
    mine, other = report["bots"][spec], report["bots"]["random"]
    # each bot holds 9 of a deal's 18 seat-hands and every hand sums to zero
    assert mine["mean"] == -other["mean"]
    assert report["pairs"][0]["mean_diff"] == round(2 * mine["mean"], 4)
    assert mine["decision_ms"]["mean"] > 0
    again = run_arena([spec, "random"], 2, RuleSet.preset(), seed=4, workers=1).to_json()
    assert again["pairs"] == report["pairs"]
    assert again["bots"][spec]["mean"] == mine["mean"]
    assert again["bots"][spec]["win_rate"] == mine["win_rate"]


def test_arena_stops_at_a_bad_answer(tmp_path):
    bad = script(tmp_path, "bad.py", """\
        import json, sys
        for line in sys.stdin:
            if json.loads(line)["type"] == "request":
                print("hello", flush=True)
        """)
    done = arena("--bots", f"cmd:{bad},random", "--deals", "3", "--workers", "2")
    assert done.returncode == 2
    lines = done.stderr.split("\n")
    assert len(lines) == 2 and lines[1] == "", done.stderr  # one line, no blank one around it
    assert lines[0].startswith("error: bot 'cmd:"), done.stderr
    assert "request 1 (" in lines[0] and "the answer is not JSON: 'hello'" in lines[0]
    assert ", deal " in lines[0] and "arrangement 1 of 6" in lines[0]
    assert done.stdout == ""  # no report


# --- an external seat of the game server ----------------------------------------------------

def make_config(tmp_path: Path) -> ServerConfig:
    return ServerConfig(db_url=f"sqlite+aiosqlite:///{tmp_path / 'bots.db'}", bot_delay=0,
                        claim_window=0, hand_pause=0, min_decision_seconds=0.05, rate=1000,
                        burst=1000)


class RecordingPipe:
    """A BotProcess whose lines sent are also kept."""

    def __init__(self, command: str) -> None:
        self.process = BotProcess(command)
        self.log: list[dict] = []

    def send(self, line: str) -> None:
        self.log.append(json.loads(line))
        self.process.send(line)

    def receive(self, timeout: float) -> str:
        return self.process.receive(timeout)

    def close(self) -> None:
        self.process.close()


@needs_node
def test_external_seat_played_to_the_end(tmp_path):
    with ServerThread(make_config(tmp_path)) as server:
        status, room = http("POST", f"{server.url}/api/rooms",
                            {"seats": ["heuristic", "external", "random"], "hands": 2})
        assert status == 201 and room["seat"] is None
        [external] = room["external"]
        assert external["seat"] == 1 and len(external["token"]) >= 40
        seats = room["room"]["seats"]
        assert [s["kind"] for s in seats] == ["bot", "external", "bot"]
        assert seats[1]["nickname"] == "external bot" and not seats[1]["connected"]
        status, public = http("GET", f"{server.url}/api/rooms/{room['code']}")
        assert external["token"] not in json.dumps(public)
        pipe = RecordingPipe(JS_BOT)
        try:
            totals = Bridge(ws_url(server.url, room["code"]), external["token"], pipe, 10,
                            JS_BOT).run()
        finally:
            pipe.close()
        status, match = http("GET", f"{server.url}/api/matches/{room['room']['match_id']}")
    assert match["status"] == "finished" and match["totals"] == totals and sum(totals) == 0
    log = pipe.log
    assert log[0]["type"] == "hello" and log[-1] == {"type": "bye", "totals": totals}
    starts = [m for m in log if m["type"] == "start_hand"]
    assert [(m["seat"], m["hand"]) for m in starts] == [(1, 0), (1, 1)]
    assert sum(m["type"] == "end_hand" for m in log) == 2
    requests = [m for m in log if m["type"] == "request"]
    assert requests and all(m["view"]["seat"] == 1 for m in requests)
    others = [m for m in log if m["type"] in ("discard", "adding_kong") and m["seat"] != 1]
    asked = [m for m in requests if m["phase"] in ("claim", "rob")]
    # asked only on an option, never for a lone pass: the server passes for the seat (R13.2)
    assert len(asked) <= len(others)
    assert not any(m["legal"] == [{"verb": "pass"}] for m in asked)
    keys, strings, lists = set(), [], []
    walk(log, keys, strings, lists)
    assert not keys & FORBIDDEN_KEYS
    for m in log:
        if m["type"] == "deal":
            assert "hands" not in m and m["hand"]
        if m["type"] == "draw" and m["seat"] != 1:
            assert "tile" not in m


def test_external_bot_with_a_bad_answer(tmp_path):
    """The bridge checks the answer before sending it: nothing reaches the room, the
    command line says what was wrong in one line (exit 2), the hand waits for seat 1."""
    bad = script(tmp_path, "bad.py", """\
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "request":
                if message["phase"] == "turn":
                    print('{"verb": "discard", "tile": "7z", "declare": true}', flush=True)
                else:
                    print('{"index": 0}', flush=True)
        """)
    with ServerThread(make_config(tmp_path)) as server:
        status, room = http("POST", f"{server.url}/api/rooms",
                            {"seats": ["random", "external", "random"],
                             "options": {"first_dealer": "seat0"}})
        token = room["external"][0]["token"]
        done = subprocess.run(
            [sys.executable, "-m", "kawuxing.cli", "connect", "--server", server.url,
             "--room", room["code"], "--bot", bad, "--timeout", "5"],
            capture_output=True, text=True, timeout=60, cwd=ROOT,
            env={**os.environ, "KAWUXING_TOKEN": token})

        async def state():
            hand = server.manager.get(room["code"]).match.hand
            return hand.phase, hand.current, [a for a in hand.actions if a.seat == 1]

        phase, current, by_seat_1 = server.call(state())
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[0] == f"room {room['code']}: playing seat 1"
    assert len(lines) == 2 and lines[1].startswith(f"error: bot '{bad}', seat 1, hand 0, request ")
    assert "(turn): " in lines[1] and "is not one of the legal actions" in lines[1]
    assert (phase, current) == ("turn", 1)  # seat 1's first turn is still to be played
    # nothing of the refused answer reached the room: seat 1 never discarded (its claims, the
    # first legal answer of a window, may have taken a pung first: the deal is random)
    assert all(a.verb != "discard" for a in by_seat_1)


def test_connect_with_an_empty_bot_command():
    done = subprocess.run(
        [sys.executable, "-m", "kawuxing.cli", "connect", "--room", "ABCDEF", "--token", "x",
         "--bot", ""], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr == ('error: --bot: bot command: empty (write the program and its '
                           'arguments, e.g. --bot "node examples/bot.js")\n')


def test_bridge_refused_token(tmp_path):
    with ServerThread(make_config(tmp_path)) as server:
        status, room = http("POST", f"{server.url}/api/rooms",
                            {"seats": ["random", "external", "random"]})
        pipe = ScriptedPipe([])
        with pytest.raises(BridgeError, match="the server"):
            Bridge(ws_url(server.url, room["code"]), "x" * 43, pipe, 5).run()
    assert pipe.log == []
    with pytest.raises(ValueError, match="write http://HOST:PORT"):
        ws_url("ftp://127.0.0.1:1", "ABCDEF")
    assert ws_url("http://127.0.0.1:8000/", "K7QXMA") == "ws://127.0.0.1:8000/ws/K7QXMA"
