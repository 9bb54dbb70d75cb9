"""Load benchmark of the game server: N rooms of scripted WebSocket clients against one
server process.

Starts ``python -m kawuxing.cli serve`` (the ``kawuxing serve`` command) on a free port of
127.0.0.1 with a fresh SQLite file (or ``--db``), creates ``--rooms`` rooms of three human
seats, connects 3 × rooms clients (asyncio, one process), and lets every client play legal
moves (``kawuxing.server.testing.choose``) after a random think time of 0 … 2 × ``--think``
seconds. Measures, for every action, the round trip from sending it to receiving the
server's answer (the ``update`` that acknowledges it, or ``refused``), over ``--seconds``
after a warm-up. Prints p50/p90/p99/max, actions per second, refusals, the server's CPU use
and memory (RSS), the SQLite WAL's size, and as its last line one JSON object. The round trips
of actions on the player's turn (discards, kongs, wins: never held by the claim window) are
also reported apart (``turn_rtt_ms_*``).

The server runs without the per-IP limits (every client is 127.0.0.1) and, unless
``--claim-window`` says otherwise, without the R13.2 claim window: an answer to a discard is
held until the window's minimum (0.6 s) by design, which would hide the server's own latency.

    python benchmarks/bench_server.py                       # 100 rooms, think 0.5 s, 30 s
    python benchmarks/bench_server.py --rooms 500 --think 1 # about 1 action per room per second
    python benchmarks/bench_server.py --think 0 --rooms 20  # saturation: actions as fast as possible

Traffic goes only to 127.0.0.1; the run is bounded in time and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

from kawuxing.server.testing import choose, free_port, needs_answer


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Stats:
    def __init__(self) -> None:
        self.rtt: list[float] = []
        self.rtt_turn: list[float] = []  # actions on the player's turn (never held, R13.2)
        self.refused: dict[str, int] = {}
        self.measuring = False
        self.errors = 0
        self.messages = 0


async def client(ws_url: str, token: str, stats: Stats, think: float, stop: asyncio.Event,
                 rng: random.Random, compression: bool) -> None:
    async with connect(ws_url, max_size=2**20,
                       compression="deflate" if compression else None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        view = version = None
        pending: tuple[str, float, bool] | None = None
        count = 0
        acting: asyncio.Task | None = None

        async def act(my_view: dict, my_version: int) -> None:
            nonlocal pending, count
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            count += 1
            action_id = f"{count}"
            pending = (action_id, time.perf_counter(), my_view.get("phase") == "turn")
            await ws.send(json.dumps({"type": "action", "id": action_id,
                                      "version": my_version,
                                      "action": choose(my_view, rng)}))

        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except asyncio.TimeoutError:
                continue
            stats.messages += 1
            message = json.loads(raw)
            kind = message["type"]
            answered = False
            if kind in ("update", "sync"):
                view, version = message["view"], message["version"]
                if pending and message.get("ack") == pending[0]:
                    answered = True
            elif kind == "refused" and pending and message.get("id") == pending[0]:
                answered = True
                if stats.measuring:
                    stats.refused[message["code"]] = stats.refused.get(message["code"], 0) + 1
            elif kind == "error":
                stats.errors += 1
                pending = None
            if answered:
                if stats.measuring:
                    stats.rtt.append(time.perf_counter() - pending[1])
                    if pending[2]:
                        stats.rtt_turn.append(time.perf_counter() - pending[1])
                pending = None
            if (pending is None and needs_answer(view)
                    and (acting is None or acting.done())):
                acting = asyncio.create_task(act(view, version))
        if acting is not None:
            acting.cancel()


async def run(args) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="kwx-bench-"))
    db = args.db or f"sqlite:///{workdir / 'bench.db'}"
    port = free_port()
    # the clients play much faster than people: no flood limit, no timeouts, no pauses
    env = dict(os.environ, KAWUXING_BOT_DELAY="0", KAWUXING_HAND_PAUSE="0",
               KAWUXING_DECISION_SECONDS="600", KAWUXING_SEND_QUEUE="4096",
               KAWUXING_RATE="1000", KAWUXING_BURST="1000",
               KAWUXING_CLAIM_WINDOW=str(args.claim_window),
               # one client address for every seat: no per-IP limits
               KAWUXING_CREATE_RATE="0", KAWUXING_JOIN_RATE="0", KAWUXING_LOOKUP_RATE="0",
               KAWUXING_MAX_SOCKETS_PER_IP="0", KAWUXING_MAX_HTTP_PER_IP="0")
    log = open(workdir / "server.log", "wb")
    profile = ["-m", "cProfile", "-o", args.profile] if args.profile else []
    server = subprocess.Popen([sys.executable, *profile, "-m", "kawuxing.cli", "serve",
                               "--port", str(port), "--db", db],
                              env=env, stdout=log, stderr=subprocess.STDOUT)
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/health", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"server did not start; see {workdir / 'server.log'}")
                await asyncio.sleep(0.1)
        seats = []
        for i in range(args.rooms):
            room = post(f"{base}/api/rooms", {"nickname": f"r{i}a", "hands": 64,
                                              "seats": ["human"] * 3})
            seats.append((room["code"], room["token"]))
            for j in (1, 2):
                joined = post(f"{base}/api/rooms/{room['code']}/join", {"nickname": f"r{i}{j}"})
                seats.append((room["code"], joined["token"]))
        stats = Stats()
        stop = asyncio.Event()
        rng = random.Random(args.seed)
        tasks = [asyncio.create_task(client(f"{ws_base}/ws/{code}", token, stats, args.think,
                                            stop, random.Random(rng.random()),
                                            args.compression))
                 for code, token in seats]
        await asyncio.sleep(args.warmup)
        # the load generator must not add its own pauses to the round trips it measures
        gc.collect()
        gc.freeze()
        gc.disable()
        cpu0, t0 = cpu_seconds(server.pid), time.perf_counter()
        own0 = cpu_seconds(os.getpid())
        stats.measuring = True
        await asyncio.sleep(args.seconds)
        stats.measuring = False
        gc.enable()
        elapsed = time.perf_counter() - t0
        cpu = cpu_seconds(server.pid) - cpu0
        own = cpu_seconds(os.getpid()) - own0
        rss = rss_mb(server.pid)
        wal = Path(f"{db.split(':///', 1)[-1]}-wal") if db.startswith("sqlite") else None
        wal_mb = wal.stat().st_size / 2**20 if wal is not None and wal.exists() else None
        with urllib.request.urlopen(f"{base}/api/health", timeout=10) as response:
            health = json.loads(response.read())
        writer, loop_lag = health["writer"], health.get("loop")
        stop.set()
        done, _ = await asyncio.wait(tasks, timeout=10)
        failed = [t for t in done if t.exception() is not None]
    finally:
        server.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    rtt = sorted(stats.rtt)
    ms = [x * 1000 for x in rtt]
    turn_ms = sorted(x * 1000 for x in stats.rtt_turn)

    def pct(p: float, values: list[float] = ms) -> float:
        return round(values[min(len(values) - 1, int(p * len(values)))], 2) if values \
            else float("nan")

    return {"bench": "server", "rooms": args.rooms, "clients": 3 * args.rooms,
            "think_s": args.think, "seconds": round(elapsed, 1), "db": db.split(":")[0],
            "actions": len(rtt), "actions_per_s": round(len(rtt) / elapsed, 1),
            "rtt_ms_p50": pct(0.50), "rtt_ms_p90": pct(0.90), "rtt_ms_p99": pct(0.99),
            "rtt_ms_max": round(ms[-1], 2) if ms else None,
            "rtt_ms_mean": round(statistics.fmean(ms), 2) if ms else None,
            "turn_actions": len(turn_ms), "turn_rtt_ms_p50": pct(0.50, turn_ms),
            "turn_rtt_ms_p99": pct(0.99, turn_ms),
            "refused": stats.refused, "errors": stats.errors, "client_failures": len(failed),
            "server_cpu_percent": round(100 * cpu / elapsed, 1),
            "clients_cpu_percent": round(100 * own / elapsed, 1),
            "compression": args.compression,
            "server_rss_mb": round(rss, 1), "messages_received": stats.messages,
            "wal_mb": None if wal_mb is None else round(wal_mb, 2),
            "claim_window_s": args.claim_window,
            "db_writer": writer, "loop_lag": loop_lag,
            "cores": os.cpu_count()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean think time of a client before each action (s)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--db", default=None, help="database URL (default: a temp SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--claim-window", type=float, default=0.0,
                        help="the server's R13.2 claim window (s); 0: answers are not held")
    parser.add_argument("--profile", default=None, help="cProfile the server into this file")
    parser.add_argument("--compression", action="store_true",
                        help="negotiate permessage-deflate as browsers do (costs CPU on both "
                             "sides; off by default so the clients stay light)")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    print(f"{result['rooms']} rooms, {result['clients']} clients, think {args.think} s: "
          f"{result['actions']} actions in {result['seconds']} s = "
          f"{result['actions_per_s']} actions/s")
    print(f"round trip ms: p50 {result['rtt_ms_p50']}  p90 {result['rtt_ms_p90']}  "
          f"p99 {result['rtt_ms_p99']}  max {result['rtt_ms_max']}; on the player's turn "
          f"(never held by the claim window): p50 {result['turn_rtt_ms_p50']}  "
          f"p99 {result['turn_rtt_ms_p99']}")
    print(f"refused {result['refused']}  errors {result['errors']}  server CPU "
          f"{result['server_cpu_percent']}%  clients CPU {result['clients_cpu_percent']}%  "
          f"server RSS {result['server_rss_mb']} MB  WAL {result['wal_mb']} MB")
    print(f"database writer (last 1000 commits): {result['db_writer']}")
    print(f"event loop lag (last minute): {result['loop_lag']}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
