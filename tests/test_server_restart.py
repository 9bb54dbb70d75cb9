"""The server as a process: killed with SIGKILL mid-hand and started again on the same
database, the hand resumes exactly (the seat's view before the kill equals the view after the
restart) and the client's next action is accepted. On SQLite, and on PostgreSQL when one
answers. Also: SIGTERM shuts down cleanly (sockets closed with 1012, the application's
shutdown completes; uvicorn then re-raises the signal, so the exit status is -SIGTERM).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from websockets.exceptions import ConnectionClosed

from kawuxing.records import replay
from kawuxing.server.config import normalize_db_url
from kawuxing.server.db import Store
from kawuxing.server.testing import Player, choose, free_port, http, needs_answer
from helpers import scratch_database


STARTED: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def no_server_left_behind():
    """Whatever happens in a test, the server processes it started are gone after it."""
    yield
    while STARTED:
        proc = STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


class ServerProcess:
    """``python -m kawuxing.cli serve`` on a free port (the same code as ``kawuxing serve``)."""

    def __init__(self, db: str, schema: str | None, log_path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        # scripted players act much faster than people: lift the flood limit (10/s)
        env = dict(os.environ, KAWUXING_BOT_DELAY="0", KAWUXING_CLAIM_WINDOW="0",
                   KAWUXING_HAND_PAUSE="0",
                   KAWUXING_RATE="1000", KAWUXING_BURST="1000")
        if schema:
            env["KAWUXING_DB_SCHEMA"] = schema
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kawuxing.cli", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", db],
            env=env, stdout=self.log, stderr=subprocess.STDOUT)
        STARTED.append(self.proc)
        deadline = time.monotonic() + 30
        while True:
            try:
                if http("GET", f"{self.url}/api/health")[0] == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: see {log_path}")
            time.sleep(0.05)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.log.close()

    def terminate(self) -> bool:
        """SIGTERM; True if the server shut down cleanly (uvicorn re-raises the signal once
        shut down, so the exit status is -SIGTERM, or 0)."""
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(20)
        self.log.close()
        return code in (0, -signal.SIGTERM) and b"Application shutdown complete" in \
            open(self.log.name, "rb").read()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """(--db URL, schema) of a fresh database."""
    with scratch_database(request.param, tmp_path, sqlite_driver="sqlite") as db:
        yield db


def play_until_my_turn(player: Player, rng: random.Random, actions: int) -> None:
    """Play ``actions`` accepted actions, then stop when it is our turn to discard."""
    done = 0
    pending = None
    while True:
        message = player.recv(timeout=20)
        assert message["type"] != "error", message
        if message["type"] == "refused":
            assert message["code"] in ("stale", "out_of_turn", "not_playing"), message
            pending = None
        if message.get("ack") is not None and message["ack"] == pending:
            pending = None
            done += 1
        view = player.view
        if pending is None and needs_answer(view):
            if done >= actions and view["phase"] == "turn":
                return
            pending = player.act(choose(view, rng))


def test_sigkill_mid_hand_then_restart_resumes_the_same_hand(database, tmp_path):
    db, schema = database
    rng = random.Random(3)
    server = ServerProcess(db, schema, tmp_path / "server.log")
    created = http("POST", f"{server.url}/api/rooms",
                   {"nickname": "kim", "hands": 4, "seats": ["human", "heuristic", "random"]})[1]
    code, token = created["code"], created["token"]
    player = Player(server.ws, code, token)
    player.hello()
    play_until_my_turn(player, rng, actions=6)
    before = {"view": player.view, "version": player.version, "hand": player.hand,
              "last_event": player.last_event}
    assert before["view"]["phase"] == "turn" and before["view"]["legal"]
    server.kill()  # no goodbye: the socket just dies
    with pytest.raises((ConnectionClosed, TimeoutError, OSError)):
        player.recv(timeout=5)

    again = ServerProcess(db, schema, tmp_path / "server.log")
    resumed = Player(again.ws, code, token)
    resumed.hand, resumed.last_event = before["hand"], before["last_event"]
    welcome = resumed.hello(resume=True)
    assert welcome["seat"] == 0 and welcome["status"] == "playing"
    message = resumed.recv_type("update", "sync")
    assert message["type"] == "update" and message["resumed"] and message["events"] == []
    assert message["version"] == before["version"] and message["hand"] == before["hand"]
    assert message["view"] == before["view"]  # the same hand, the same state
    resumed.send({"type": "sync"})
    assert resumed.recv_type("sync")["view"] == before["view"]
    # the client's next action is accepted
    answer = resumed.answer(resumed.act(choose(resumed.view, rng)))
    assert answer["type"] == "update" and answer["ack"]
    # and the match can be played to the end
    pending = None
    while not resumed.ended:
        if pending is None and needs_answer(resumed.view):  # the ack's view may ask us again
            pending = resumed.act(choose(resumed.view, rng))
        m = resumed.recv(timeout=20)
        if m["type"] in ("refused", "error") or m.get("ack") == pending:
            pending = None
    resumed.close()
    match = http("GET", f"{again.url}/api/matches/{created['room']['match_id']}")[1]
    assert match["status"] == "finished" and len(match["hands"]) == 4
    for h in match["hands"]:
        record = http("GET", f"{again.url}/api/hands/{match['id']}/{h['number']}", None,
                      token)[1]  # the record is for the match's players (R13)
        assert replay(record).deltas == record["result"]["deltas"]
    assert again.terminate()


def stored_record(db: str, schema: str | None, match_id: str, number: int) -> dict:
    """The stored record of a hand, read from the database (the server is another process;
    ``GET /api/hands/{m}/{n}`` serves it only to the match's players, and bots play here)."""
    async def read() -> dict:
        store = await Store.open(normalize_db_url(db), schema)
        try:
            return (await store.hand_record(match_id, number))["record"]
        finally:
            await store.close()
    return asyncio.run(read())


def test_sigkill_while_bots_play_leaves_a_database_that_restores(database, tmp_path):
    db, schema = database
    server = ServerProcess(db, schema, tmp_path / "server.log")
    created = [http("POST", f"{server.url}/api/rooms",
                    {"hands": 8, "seats": ["heuristic", "random", "heuristic:2"]})[1]
               for _ in range(3)]
    time.sleep(0.1)  # kill while they play
    server.kill()
    again = ServerProcess(db, schema, tmp_path / "server.log")
    assert "rebuilt" in (tmp_path / "server.log").read_text()  # rooms were in progress
    deadline = time.monotonic() + 120
    for room in created:
        while True:
            match = http("GET", f"{again.url}/api/matches/{room['room']['match_id']}")[1]
            if match["status"] == "finished":
                break
            assert time.monotonic() < deadline, match
            time.sleep(0.1)
        assert len(match["hands"]) == 8 and sum(match["totals"]) == 0
        deltas = [0, 0, 0]
        for h in match["hands"]:
            record = stored_record(db, schema, match["id"], h["number"])  # bots only: no player
            hand = replay(record)
            assert hand.ended and hand.deltas == record["result"]["deltas"]
            deltas = [a + b for a, b in zip(deltas, hand.deltas)]
        assert deltas == match["totals"]
    assert again.terminate()


def test_sigterm_closes_sockets_with_1012_and_shuts_down_cleanly(tmp_path):
    server = ServerProcess(f"sqlite:///{tmp_path / 'term.db'}", None, tmp_path / "server.log")
    created = http("POST", f"{server.url}/api/rooms", {"nickname": "lee"})[1]
    player = Player(server.ws, created["code"], created["token"])
    player.hello()
    started = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            player.recv(timeout=15)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    assert server.proc.wait(20) in (0, -signal.SIGTERM)
    assert time.monotonic() - started < 15
    server.log.close()
    log = (tmp_path / "server.log").read_text()
    assert "Application shutdown complete" in log and "Traceback" not in log
