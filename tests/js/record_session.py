"""Record one seat's real session for tests/js/game-state.test.mjs (run by hand:
``python tests/js/record_session.py``; writes tests/js/fixtures/session.json).

A room of one player and two bots, two hands, on a fresh SQLite file. The player acts from
its views (seed 7), sends one stale action on purpose (refused), drops the socket in the
first hand and reconnects with hand/last_event (welcome, then the resumed update), and plays
on to the match end. Every message received is kept in order with what was sent before it:
``[{"dir": "out"|"in", "msg": {...}}, ...]``.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path

from kawuxing.server.config import ServerConfig
from kawuxing.server.testing import Player, ServerThread, choose, http, needs_answer

OUT = Path(__file__).resolve().parent / "fixtures" / "session.json"


def main() -> None:
    rng = random.Random(7)
    log: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(db_url=f"sqlite+aiosqlite:///{tmp}/rec.db", bot_delay=0,
                              claim_window=0, hand_pause=0, min_decision_seconds=0.05,
                              rate=1000, burst=1000)
        with ServerThread(config) as server:
            status, room = http("POST", f"{server.url}/api/rooms",
                                {"nickname": "ann", "hands": 2,
                                 "seats": ["human", "heuristic", "heuristic:2"]})
            assert status == 201, room
            player = Player(server.ws, room["code"], room["token"])

            def send(msg: dict) -> None:
                log.append({"dir": "out", "msg": msg})
                player.send(msg)

            def recv() -> dict:
                msg = player.recv(timeout=20)
                log.append({"dir": "in", "msg": msg})
                return msg

            send({"type": "hello", "token": room["token"]})
            stale_sent = dropped = False
            pending = None
            ids = 0
            deadline = time.monotonic() + 120
            while not player.ended:
                assert time.monotonic() < deadline
                msg = recv()
                if msg["type"] == "welcome":
                    player.seat = msg["seat"]
                if msg["type"] == "refused" or (msg.get("ack") and msg["ack"] == pending):
                    pending = None
                if msg["type"] == "update" and not msg["view"].get("result") \
                        and not dropped and msg["version"] > 12:
                    dropped = True  # the link drops; the hello says what we have
                    player.close()
                    player = Player(server.ws, room["code"], room["token"])
                    player.hand, player.last_event = msg["hand"], log_last_event(log)
                    send({"type": "hello", "token": room["token"], "hand": player.hand,
                          "last_event": player.last_event})
                    continue
                if pending is None and needs_answer(player.view):
                    ids += 1
                    pending = f"a{ids}"
                    action = choose(player.view, rng)
                    version = player.version
                    if not stale_sent and action[1] == "discard":
                        stale_sent, version = True, player.version - 1
                    send({"type": "action", "id": pending, "version": version,
                          "action": action})
            player.close()
    OUT.write_text(json.dumps(log, ensure_ascii=False, separators=(",", ":")) + "\n",
                   encoding="utf-8")
    kinds = [e["msg"]["type"] for e in log if e["dir"] == "in"]
    print(OUT, len(log), "messages;", {k: kinds.count(k) for k in sorted(set(kinds))})


def log_last_event(log: list[dict]) -> int:
    """The n of the last event received in the hand in play (-1: none)."""
    for entry in reversed(log):
        msg = entry["msg"]
        if entry["dir"] == "in" and msg["type"] in ("update", "sync") and msg["events"]:
            return msg["events"][-1]["n"]
    return -1


if __name__ == "__main__":
    main()
