"""Load and failover benchmark of a cluster of game servers (issue 17): N ``kawuxing serve``
processes on one PostgreSQL database and one Redis, scripted players spread over all of them.

Starts what it needs (``tests/cluster_harness.py``): ``redis-server`` on a free loopback port,
a scratch database on the local PostgreSQL server (``KAWUXING_TEST_PG``, default
``postgresql+asyncpg://postgres@127.0.0.1:5432/test``; dropped after), and ``--processes``
server processes with ``--redis``. Creates ``--rooms`` rooms of three human seats, each
through a process in turn and joined through the next, connects 3 × rooms clients (asyncio,
one process; each seat's socket on a random process, so most are relayed to the room's
owner; it waits up to ``--connect-wait`` seconds for every welcome, then measures anyway and
``connected`` says how many had one; each looks at its pause flag after every message or
1 s without one, so that 1,800 idle clients do not wake 9,000 times a second on the 2 cores
the servers use) and lets them play legal moves after a think time of
0 … 2 × ``--think`` seconds (human pace: 1 s on average). Measures, over ``--seconds`` after a warm-up, the round trip of every action
from sending it to the server's answer (its ``ack`` or ``refused``), actions per second, and
each process's CPU and memory.

Then SIGKILLs the process owning the most rooms and measures ``failover_s``: the time until the
surviving processes own every room again (``/api/health`` ``cluster.owned``), and
``resumed_s``: until every room has acknowledged an action again (think time included).
At the end every acknowledged action is looked for in PostgreSQL: ``lost_actions`` counts
those that are not there.

    python benchmarks/bench_cluster.py                                  # 2 processes, 600 rooms
    python benchmarks/bench_cluster.py --processes 3 --rooms 300 --seconds 20

The last line is one JSON object: ``{"processes", "rooms", "actions_per_second", "p50_ms",
"p99_ms", "failover_s", "lost_actions", …}``. Traffic goes only to 127.0.0.1; the run is
bounded in time and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from rich.console import Console  # noqa: E402
from rich.progress import Progress  # noqa: E402

from bench_server import cpu_seconds, post, rss_mb  # noqa: E402
from cluster_harness import (REDIS_BINARY, Cluster, RedisServer, ScratchDatabase,  # noqa: E402
                             SeatClient, lost_actions, stored_hands)
from kawuxing.server.db import Store  # noqa: E402
from kawuxing.server.testing import pg_test_url  # noqa: E402

console = Console(stderr=True)


def percentile(values: list[float], p: float) -> float | None:
    """The ``p`` quantile (0-1) of ``values`` in ms, rounded to 0.01 (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)


async def make_rooms(cluster: Cluster, rooms: int, progress: Progress) -> list[tuple]:
    """``rooms`` rooms of three human seats (64 hands: they outlast the run), each created
    through a process in turn and joined through the next two: ``[(code, [3 tokens])]``."""
    task = progress.add_task("creating rooms", total=rooms)
    nodes = cluster.nodes
    out = []
    for i in range(rooms):
        first = nodes[i % len(nodes)]
        room = await asyncio.to_thread(post, f"{first.url}/api/rooms",
                                       {"nickname": f"r{i}a", "hands": 64,
                                        "seats": ["human"] * 3})
        tokens = [room["token"]]
        for j in (1, 2):
            node = nodes[(i + j) % len(nodes)]
            joined = await asyncio.to_thread(post, f"{node.url}/api/rooms/{room['code']}/join",
                                             {"nickname": f"r{i}{j}"})
            tokens.append(joined["token"])
        out.append((room["code"], tokens))
        progress.advance(task)
    return out


async def wait_for(predicate, timeout: float, step: float = 0.1) -> float | None:
    """Seconds until ``predicate()`` (run in a thread) is true, or None after ``timeout``."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if await asyncio.to_thread(predicate):
            return time.monotonic() - start
        await asyncio.sleep(step)
    return None


async def run(args) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="kwx-bench-cluster-"))
    server_url = await asyncio.to_thread(pg_test_url)
    if server_url is None:
        raise SystemExit("error: no PostgreSQL at KAWUXING_TEST_PG / 127.0.0.1:5432")
    if REDIS_BINARY is None:
        raise SystemExit("error: redis-server is not installed (apt-get install redis-server)")
    db = await asyncio.to_thread(ScratchDatabase(server_url).create)
    redis = RedisServer(workdir / "redis").start()
    cluster = Cluster(args.processes, db.url, redis.url, workdir / "nodes")
    clients: list[SeatClient] = []
    tasks: list[asyncio.Task] = []
    try:
        with Progress(console=console, transient=False) as progress:
            boot = progress.add_task(f"starting {args.processes} server processes", total=1)
            await asyncio.to_thread(cluster.start)
            progress.advance(boot)
            rooms = await make_rooms(cluster, args.rooms, progress)
            rng = random.Random(args.seed)
            bases = cluster.ws_bases
            for code, tokens in rooms:
                for token in tokens:
                    clients.append(SeatClient(bases, code, token,
                                              home=rng.randrange(args.processes),
                                              rng=random.Random(rng.random()),
                                              think=(0.0, 2 * args.think),
                                              keep_messages=False, poll=1.0))
            end = time.monotonic() + args.connect_wait + args.warmup + args.seconds \
                + 2 * args.failover_wait + 30
            connecting = progress.add_task("connecting clients", total=len(clients))
            for client in clients:
                client.measuring = False
                tasks.append(asyncio.create_task(client.run(end)))
            connect_by = time.monotonic() + args.connect_wait
            while progress.tasks[connecting].completed < len(clients) \
                    and time.monotonic() < connect_by:  # the others keep trying
                progress.update(connecting, completed=sum(c.seat is not None for c in clients))
                await asyncio.sleep(0.2)
            connected = sum(c.seat is not None for c in clients)
            await asyncio.sleep(args.warmup)
            # the load generator must not add its own pauses to the round trips it measures
            gc.collect()
            gc.freeze()
            gc.disable()
            pids = {n.node_id: n.proc.pid for n in cluster.nodes}
            cpu0 = {k: cpu_seconds(pid) for k, pid in pids.items()}
            own0 = cpu_seconds(os.getpid())
            for client in clients:
                client.rtt.clear()
                client.measuring = True
            t0 = time.perf_counter()
            measuring = progress.add_task("measuring", total=args.seconds)
            while time.perf_counter() - t0 < args.seconds:
                await asyncio.sleep(0.5)
                done = sum(len(c.rtt) for c in clients)
                progress.update(measuring, completed=min(args.seconds, time.perf_counter() - t0),
                                description=f"measuring: {done / (time.perf_counter() - t0):.0f}"
                                            " actions/s")
            for client in clients:
                client.measuring = False
            elapsed = time.perf_counter() - t0
            cpu = {k: round(100 * (cpu_seconds(pids[k]) - cpu0[k]) / elapsed, 1) for k in pids}
            own = round(100 * (cpu_seconds(os.getpid()) - own0) / elapsed, 1)
            rss = {k: round(rss_mb(pid), 1) for k, pid in pids.items()}
            gc.enable()
            rtt = [x for c in clients for x in c.rtt]
            health = {n.node_id: n.health() for n in cluster.nodes}

            # failover: SIGKILL the process that owns the most rooms
            owned = cluster.owned()
            victim = cluster.node(max(owned, key=owned.get))
            progress.add_task(f"SIGKILL {victim.node_id} (owner of {owned[victim.node_id]} "
                              f"rooms)", total=1, completed=1)
            killed = time.monotonic()
            await asyncio.to_thread(victim.kill)
            failover = await wait_for(
                lambda: sum(cluster.owned().values()) == args.rooms, args.failover_wait)
            acting = {}

            def all_acting() -> bool:
                for client in clients:
                    if client.last_ack > killed:
                        acting[client.code] = True
                return len(acting) == args.rooms

            resumed = await wait_for(all_acting, args.failover_wait, 0.2)
            progress.add_task(f"failover: owned again in {failover} s, every room acting in "
                              f"{resumed} s", total=1, completed=1)
        for client in clients:
            client.paused = True
        await asyncio.sleep(1.0)  # answers to actions in flight arrive
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        cluster.stop()
        by_room: dict[str, list[SeatClient]] = {}
        for client in clients:
            by_room.setdefault(client.code, []).append(client)
        lost = 0
        store = await Store.open(db.url)
        try:
            for code, seats in by_room.items():
                records, _ = await stored_hands(db.url, code, store)
                lost += len(lost_actions(records, seats))
        finally:
            await store.close()
    finally:
        for task in tasks:
            task.cancel()
        cluster.stop()
        redis.stop()
        await asyncio.to_thread(db.drop)
    refused: dict[str, int] = {}
    for client in clients:
        for k, v in client.refused.items():
            refused[k] = refused.get(k, 0) + v
    return {"processes": args.processes, "rooms": args.rooms,
            "actions_per_second": round(len(rtt) / elapsed, 1),
            "p50_ms": percentile(rtt, 0.50), "p99_ms": percentile(rtt, 0.99),
            "failover_s": None if failover is None else round(failover, 2),
            "lost_actions": lost,
            "resumed_s": None if resumed is None else round(resumed, 2),
            "clients": len(clients), "connected": connected, "think_s": args.think, "seconds": round(elapsed, 1),
            "p90_ms": percentile(rtt, 0.90), "max_ms": percentile(rtt, 1.0),
            "actions": len(rtt), "refused": refused,
            "reconnects": sum(c.reconnects for c in clients),
            "errors": sum(len(c.errors) for c in clients),
            "server_cpu_percent": cpu, "clients_cpu_percent": own, "server_rss_mb": rss,
            "owned_before_kill": owned,
            "loop_lag": {k: h.get("loop") for k, h in health.items()},
            "db_writer": {k: h.get("writer") for k, h in health.items()},
            "cores": os.cpu_count()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rooms", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean think time of a client before each action (s)")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--failover-wait", type=float, default=60.0,
                        help="how long to wait for the failover (s)")
    parser.add_argument("--connect-wait", type=float, default=60.0,
                        help="how long to wait for every client's welcome before measuring (s)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.processes < 2 or args.rooms < 1 or args.seconds <= 0:
        print("error: --processes must be 2 or more, --rooms 1 or more, --seconds > 0",
              file=sys.stderr)
        raise SystemExit(2)
    result = asyncio.run(run(args))
    console.print(f"{result['processes']} processes, {result['rooms']} rooms, "
                  f"{result['clients']} clients ({result['connected']} connected before the "
                  f"measurement), think {args.think} s: {result['actions']} "
                  f"actions in {result['seconds']} s = {result['actions_per_second']} "
                  f"actions/s")
    console.print(f"round trip ms: p50 {result['p50_ms']}  p90 {result['p90_ms']}  "
                  f"p99 {result['p99_ms']}  max {result['max_ms']}")
    console.print(f"server CPU % {result['server_cpu_percent']}  clients CPU % "
                  f"{result['clients_cpu_percent']}  RSS MB {result['server_rss_mb']}")
    console.print(f"failover {result['failover_s']} s (every room acting again in "
                  f"{result['resumed_s']} s); lost actions {result['lost_actions']}; "
                  f"refused {result['refused']}; reconnects {result['reconnects']}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
