"""The cluster's parts against a real ``redis-server`` (issue 17): leases (one owner at a
time, renewal, a lost lease stops the owner before anyone else may take the room), presence,
the pub/sub bus (order, request/reply, a silent owner), the settings and the command line,
and — with two in-process servers on the local PostgreSQL — a process whose lease was taken
writes nothing more for that room. Skipped, with the reason, when ``redis-server`` is absent.
The end-to-end tests (processes, SIGKILL, chaos) are tests/test_cluster.py.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from dataclasses import replace
from types import SimpleNamespace

import pytest

import cluster_harness
from kawuxing.server.config import ServerConfig
from kawuxing.server.errors import RoomError

redis_asyncio = pytest.importorskip("redis.asyncio", reason="the redis package is missing")
redis_server = cluster_harness.redis_server
scratch_db = cluster_harness.scratch_db

from kawuxing.server.cluster.leases import Leases, lease_key  # noqa: E402
from kawuxing.server.cluster.presence import (Presence, node_id_problem,  # noqa: E402
                                              node_in_use)
from kawuxing.server.cluster.relay import Bus  # noqa: E402


def run(redis_url: str, body):
    """Run ``body(client)`` with a fresh client of ``redis_url`` (its database flushed)."""
    async def main():
        client = redis_asyncio.from_url(redis_url, decode_responses=True)
        await client.flushdb()
        try:
            return await body(client)
        finally:
            await client.aclose()
    return asyncio.run(main())


def test_a_lease_has_one_owner_until_released_and_the_rooms_set_follows(redis_server):
    async def body(client):
        a, b = Leases(client, "a#1"), Leases(client, "b#1")
        assert await a.claim(["R1", "R2"]) == ["R1", "R2"]
        assert await b.claim(["R1", "R3"]) == ["R3"]  # R1 is a's
        assert await a.claim(["R1"]) == ["R1"]  # already ours: kept
        assert await a.owners(["R1", "R3", "R9"]) == ["a#1", "b#1", None]
        assert a.valid("R1") and not a.valid("R3") and b.valid("R3")
        assert await a.rooms() == {"R1", "R2", "R3"}
        await b.release("R1")  # not b's: nothing happens
        assert await a.owners(["R1"]) == ["a#1"]
        await a.release("R1")  # a stop: the room stays to be taken over
        assert not a.valid("R1") and await b.claim(["R1"]) == ["R1"]
        await a.release("R2", forget=True)  # over: it leaves the rooms set
        assert await a.rooms() == {"R1", "R3"} and await a.owners(["R2"]) == [None]
    run(redis_server.url, body)


def test_renewal_keeps_a_lease_past_its_ttl_and_reports_one_taken(redis_server):
    async def body(client):
        a, b = Leases(client, "a#1", ttl_ms=300, margin_ms=100), Leases(client, "b#1")
        await a.claim(["R1", "R2"])
        for _ in range(6):  # 0.6 s: twice the time to live
            await asyncio.sleep(0.1)
            assert await a.renew() == []
        assert await b.claim(["R1", "R2"]) == [] and a.valid("R1")
        await client.set(lease_key("R2"), "b#1")  # taken (as after an expiry)
        assert await a.renew() == ["R2"]
        assert not a.valid("R2") and a.valid("R1") and list(a.held) == ["R1"]
    run(redis_server.url, body)


def test_an_owner_that_stops_renewing_stops_acting_before_another_can_take_the_room(
        redis_server):
    async def body(client):
        a, b = Leases(client, "a#1", ttl_ms=400, margin_ms=150), Leases(client, "b#1")
        await a.claim(["R1"])
        invalid_at = taken_at = None
        while taken_at is None:  # a is "paused": it never renews
            now = time.monotonic()
            if invalid_at is None and not a.valid("R1"):
                invalid_at = now
            if await b.claim(["R1"]):
                taken_at = time.monotonic()
            await asyncio.sleep(0.005)
        assert invalid_at is not None and invalid_at < taken_at
        assert await a.renew() == ["R1"]  # and once it wakes up it knows
    run(redis_server.url, body)


def test_the_keeper_renews_while_the_event_loop_is_blocked_and_stops_when_it_stalls(
        redis_server):
    """Leases renewed from the keeper's thread (issue 17): an event loop blocked for twice
    the lease's time to live keeps its room (the async renewal alone would have lost it);
    a loop silent for ``stall_after`` renews nothing more, so the lease runs out and another
    process may take the room; a lease taken meanwhile is handed to the loop to drop."""
    from kawuxing.server.cluster.keeper import Keeper

    async def body(client):
        loop = asyncio.get_running_loop()
        a, b = Leases(client, "a#1", ttl_ms=400, margin_ms=150), Leases(client, "b#1")
        presence = Presence(client, "a#1", "a", ttl_ms=400)
        lost: list[list[str]] = []
        keeper = Keeper(redis_server.url, a, presence, lambda: 2, lost.append, loop,
                        every=0.1, stall_after=1.5)
        await a.claim(["R1", "R2"])
        keeper.start()
        try:
            time.sleep(0.8)  # the loop is blocked: no task of it runs
            assert a.valid("R1") and a.valid("R2") and keeper.renewals >= 4
            assert await b.claim(["R1"]) == []
            assert [n["me"] for n in await presence.nodes()] == ["a#1"]
            await client.set(lease_key("R2"), "b#1")  # taken (as after an expiry)
            deadline = time.monotonic() + 2
            while not lost and time.monotonic() < deadline:
                await asyncio.sleep(0.05)  # call_soon_threadsafe runs it in the loop
            assert lost == [["R2"]] and list(a.held) == ["R1"]
            keeper.touch()
            time.sleep(1.0)  # silent for less than stall_after: still renewed
            assert a.valid("R1") and not keeper.stalled
            time.sleep(1.2)  # now silent for 2.2 s > 1.5 s: no more renewals
            assert keeper.stalled and not a.valid("R1")
            assert await b.claim(["R1"]) == ["R1"]
            assert await presence.nodes() == []  # nor heartbeats
        finally:
            keeper.stop()
    run(redis_server.url, body)


def test_leases_refuse_a_margin_not_shorter_than_the_ttl(redis_server):
    async def body(client):
        with pytest.raises(ValueError, match="margin_ms"):
            Leases(client, "a#1", ttl_ms=1000, margin_ms=1000)
    run(redis_server.url, body)


def test_presence_lists_live_processes_and_drops_those_that_leave_or_stop(redis_server):
    async def body(client):
        a = Presence(client, "n0#1", "n0", "http://127.0.0.1:1", ttl_ms=300)
        b = Presence(client, "n1#1", "n1", ttl_ms=300)
        await a.beat(3)
        await b.beat(5)
        assert await a.nodes() == [
            {"node": "n0", "me": "n0#1", "rooms": 3, "url": "http://127.0.0.1:1", "late": False},
            {"node": "n1", "me": "n1#1", "rooms": 5, "late": False}]
        await a.leave()
        assert [n["node"] for n in await b.nodes()] == ["n1"]
        await asyncio.sleep(0.15)  # b missed beats: less than 70 % of its 300 ms left, late
        assert [(n["node"], n["late"]) for n in await b.nodes()] == [("n1", True)]
        await b.beat(5)
        assert [(n["node"], n["late"]) for n in await b.nodes()] == [("n1", False)]
        await asyncio.sleep(0.4)  # b stopped beating: its key expired
        assert await b.nodes() == []
    run(redis_server.url, body)


def test_the_bus_keeps_order_answers_calls_and_times_out_on_a_silent_owner(redis_server):
    async def body(client):
        got: list[tuple[str, dict]] = []
        a = Bus(client, "a#1", lambda sender, item: got.append((sender, item)))

        def on_b(sender, item):
            if item["t"] == "call":
                if item["op"] == "double":
                    b.answer(sender, item["id"], item["args"]["x"] * 2)
                elif item["op"] == "refuse":
                    b.answer(sender, item["id"], error=RoomError(409, "no", "room_full"))
            else:
                b.send(sender, {"t": "echo", "n": item["n"]})

        b = Bus(client, "b#1", on_b)
        await a.start()
        await b.start()
        try:
            for n in range(200):
                a.send("b#1", {"t": "msg", "n": n})
                if n % 37 == 0:
                    await asyncio.sleep(0)  # several batches
            assert await a.call("b#1", "double", {"x": 21}) == 42
            with pytest.raises(RoomError) as refused:
                await a.call("b#1", "refuse", {})
            assert (refused.value.status, refused.value.code) == (409, "room_full")
            with pytest.raises(RoomError) as silent:
                await a.call("nobody#0", "double", {"x": 1}, timeout=0.3)
            assert (silent.value.status, silent.value.code) == (503, "owner_unavailable")
            for _ in range(100):
                if len(got) == 200:
                    break
                await asyncio.sleep(0.02)
            assert [item["n"] for _, item in got] == list(range(200))
            assert {sender for sender, _ in got} == {"b#1"}
        finally:
            await a.close()
            await b.close()
    run(redis_server.url, body)


class _Manager:
    """What a :class:`ClusterNode` needs of a room manager to relay sockets (no room here)."""

    def __init__(self) -> None:
        self.rooms: dict = {}
        self.cluster = None

    def get(self, code):
        return self.rooms.get(code)


class _Socket:
    """A relayed socket's connection: what the owner sent it, and whether it was closed."""

    def __init__(self) -> None:
        self.seat, self.closed, self.texts = None, False, []

    def send_text(self, text: str) -> None:
        self.texts.append(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = True


def test_a_takeover_is_announced_and_the_relayed_sockets_follow_at_once(redis_server):
    """A process that took a room over says ``moved`` on the channel every process listens
    on; a socket relayed elsewhere to the dead owner attaches to the new one without
    waiting for the periodic look at the leases (which is not running here) — with the full
    view (no hand, no last event) when the dead owner had sent it something, else with its
    hello's hand and last event (it gets exactly what it missed) — and the sender never gets
    its own broadcast back."""
    from kawuxing.server.cluster.node import ClusterNode

    async def body(client):
        heard: list[tuple[str, dict]] = []
        new = Bus(client, "new#2", lambda sender, item: heard.append((sender, item)))
        node = ClusterNode(client, _Manager(), "relay")
        await new.start()
        await node.bus.start()
        try:
            socket = _Socket()
            hello = SimpleNamespace(token="tok", hand=0, last_event=7)
            link = node.link(socket, "ROOM1", "dead#1", hello)  # the owner that died
            other = node.link(_Socket(), "ROOM2", "dead#1", hello)  # another room
            unheard = node.link(_Socket(), "ROOM3", "dead#1", hello)  # never answered
            node._item("dead#1", {"t": "out", "c": link.cid, "m": '{"type":"welcome"}'})
            assert socket.texts == ['{"type":"welcome"}'] and link.advanced
            for code in ("ROOM1", "ROOM2", "ROOM3"):  # taken over by new#2
                await client.set(lease_key(code), "new#2")
            await asyncio.sleep(0.3)
            assert link.owner == "dead#1" and heard == []  # nothing follows by itself
            new.broadcast({"t": "moved", "rooms": ["ROOM1", "ROOM3"]})
            for _ in range(100):
                if len(heard) == 2:
                    break
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.2)
            assert sorted(heard, key=lambda h: h[1]["room"]) == [
                (node.me, {"t": "attach", "c": link.cid, "room": "ROOM1",
                           "hello": {"token": "tok", "hand": None, "last_event": None}}),
                (node.me, {"t": "attach", "c": unheard.cid, "room": "ROOM3",
                           "hello": {"token": "tok", "hand": 0, "last_event": 7}})]
            assert link.owner == "new#2" and link.resumed and not socket.closed
            assert unheard.owner == "new#2" and not unheard.resumed
            assert other.owner == "dead#1"  # only the rooms named moved
        finally:
            await node.bus.close()
            await new.close()
    run(redis_server.url, body)


def test_the_rate_limits_are_the_clusters_not_each_processs(redis_server):
    """Two processes' SharedBuckets of one kind spend one bucket per IP in Redis (issue 17):
    a burst of 3 allows 3 requests of an IP over both, not 3 on each; another IP has its own;
    the refusal says when to come back (1 / rate s for a whole token); a zero rate is off;
    with Redis away each process falls back to its own bucket."""
    from kawuxing.server.cluster.limits import PREFIX, SharedBuckets
    from kawuxing.server.ratelimit import IpBuckets

    async def body(client):
        one = SharedBuckets("login", IpBuckets(0.1, 3), client)
        two = SharedBuckets("login", IpBuckets(0.1, 3), client)
        answers = [await b.take("10.0.0.1") for b in (one, two, one, two)]
        assert answers[:3] == [0.0, 0.0, 0.0] and 9.0 < answers[3] <= 10.0
        assert await two.take("10.0.0.2") == 0.0  # a bucket per IP
        assert 0 < await client.pttl(f"{PREFIX}login:10.0.0.1") <= 31_000  # full again by then
        assert await SharedBuckets("join", IpBuckets(0, 1), client).take("10.0.0.1") == 0.0
        broken = redis_asyncio.from_url("redis://127.0.0.1:1/0")  # nothing listens there
        alone = SharedBuckets("login", IpBuckets(0.1, 2), broken)
        assert [await alone.take("10.0.0.1") for _ in range(2)] == [0.0, 0.0]
        assert await alone.take("10.0.0.1") > 9.0  # its own bucket: burst 2
        await broken.aclose()
    run(redis_server.url, body)


def test_failed_sign_ins_to_a_name_are_counted_by_every_process(redis_server):
    """SharedLoginFailures (issues 16, 17): failures to one name through two processes spend
    one bucket (burst 2: after two, the next try waits about ``every`` s), the name's other
    spellings (name_key) too, another name is untouched; a peek spends nothing."""
    from kawuxing.server.cluster.limits import SharedLoginFailures
    from kawuxing.server.identity import LoginFailures

    async def body(client):
        one = SharedLoginFailures(LoginFailures(burst=2, every=60.0), client)
        two = SharedLoginFailures(LoginFailures(burst=2, every=60.0), client)
        assert [await one.wait("Ann"), await two.wait("Ann")] == [0.0, 0.0]
        await one.failed("Ann")
        assert await two.wait("Ann") == 0.0  # one failure of two
        await two.failed("ANN")  # the same name (name_key)
        assert 59.0 < await one.wait("ann") <= 60.0 and 59.0 < await two.wait("Ann") <= 60.0
        assert await one.wait("Bob") == 0.0
        assert one.local.wait("Ann") == 0.0  # nothing counted per process meanwhile
    run(redis_server.url, body)


def test_the_cap_on_sockets_per_ip_is_the_clusters(redis_server):
    """SharedSocketCount (issue 17): with a cap of 3 a client's sockets are counted over both
    live processes (2 here and 1 there: the 4th is refused on either), another IP has its
    own; a closed socket frees its place once its process syncs; a process that is no longer
    live is not counted; with Redis away a process counts alone."""
    from kawuxing.server.cluster.limits import SOCKETS_PREFIX, SharedSocketCount
    from kawuxing.server.ratelimit import SocketCount

    async def body(client):
        live = ["a#1", "b#1"]
        a = SharedSocketCount(SocketCount(3), client, "a#1", lambda: live)
        b = SharedSocketCount(SocketCount(3), client, "b#1", lambda: live)
        ip = "10.0.0.7"
        assert [await a.acquire(ip), await a.acquire(ip), await b.acquire(ip)] == [True] * 3
        assert not await b.acquire(ip) and not await a.acquire(ip)
        assert await b.acquire("10.0.0.8")
        assert a.counted == {ip: 2} and b.counted == {ip: 1, "10.0.0.8": 1}
        a.release(ip)
        assert not await b.acquire(ip)  # Redis learns of the close at a's next heartbeat
        await a.sync()
        assert await client.hgetall(SOCKETS_PREFIX + "a#1") == {ip: "1"}
        assert await b.acquire(ip)  # 1 + 2
        live.remove("a#1")  # a died: its count is not read any more
        assert await b.acquire(ip) and b.counted[ip] == 3
        broken = redis_asyncio.from_url("redis://127.0.0.1:1/0")
        alone = SharedSocketCount(SocketCount(1), broken, "c#1", lambda: ["c#1"])
        assert await alone.acquire(ip) and not await alone.acquire(ip)  # its own count
        alone.release(ip)
        assert alone.local.open == {} and alone.counted == {}
        await alone.sync()  # fails quietly: the next heartbeat tries again
        await broken.aclose()
    run(redis_server.url, body)


def test_settings_read_the_cluster_variables():
    config = ServerConfig.from_env("postgresql://u@h/d", {
        "KAWUXING_REDIS": "redis://127.0.0.1:6390/0", "KAWUXING_NODE_ID": "east-1"})
    assert (config.redis_url, config.node_id) == ("redis://127.0.0.1:6390/0", "east-1")
    plain = ServerConfig.from_env("sqlite:///x.db", {})
    assert plain.redis_url is None and plain.node_id is None


def _serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kawuxing.cli", "serve", "--port", "1", *args],
                          capture_output=True, text=True, timeout=60)


def test_serve_refuses_redis_with_sqlite_and_a_redis_that_does_not_answer(tmp_path):
    done = _serve("--db", f"sqlite:///{tmp_path / 'a.db'}", "--redis", "redis://127.0.0.1:9/0")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: --redis: a cluster needs a shared PostgreSQL database "
        "(--db postgresql+asyncpg://USER@HOST/DB), not SQLite"]
    port = cluster_harness.free_port()  # nobody listens there
    done = _serve("--db", "postgresql+asyncpg://u@127.0.0.1:9/x", "--redis",
                  f"redis://127.0.0.1:{port}/0")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --redis redis://127.0.0.1:{port}/0:")


def test_serve_refuses_a_bad_redis_url_and_a_bad_node_id_in_one_line(tmp_path):
    """A Redis URL that is no URL, or has a port that is no number, and a node id with a
    character Redis keys and patterns use (``#``, ``*``, a space) or none at all: one
    ``error:`` line, exit 2, a password never shown."""
    from typer.testing import CliRunner

    from kawuxing.cli import app

    pg = "postgresql+asyncpg://u@127.0.0.1:9/x"
    done = _serve("--db", pg, "--redis", "redis://me:secret@127.0.0.1:9/0")  # the real entry
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, lines
    assert lines[0].startswith("error: --redis redis://me:***@127.0.0.1:9/0: "), lines
    for url, says in (("garbage", "error: --redis garbage: "),
                      ("redis://127.0.0.1:notaport/0", "error: --redis redis://127.0.0.1:notaport/0: ")):
        done = CliRunner().invoke(app, ["serve", "--port", "1", "--db", pg, "--redis", url])
        lines = done.stderr.strip().splitlines()
        assert done.exit_code == 2 and len(lines) == 1 and lines[0].startswith(says), lines
    for node in ("bad id#1", "a*b", "-x", "x" * 64):
        done = CliRunner().invoke(app, ["serve", "--port", "1", "--db", pg, "--redis",
                                        "redis://127.0.0.1:9/0", "--node-id", node])
        assert done.exit_code == 2
        assert done.stderr.strip().splitlines() == [f"error: {node_id_problem(node)}"]
    assert node_id_problem("n0") is None and node_id_problem("box-2.eu_1") is None


def test_a_node_id_is_in_use_only_while_its_heartbeat_is_renewed(redis_server):
    """A second process under a live node id is refused (``kawuxing serve`` exits 2); the
    heartbeat of one that just died only runs down, so restarting under its id is not."""
    import threading

    import redis

    client = redis.Redis.from_url(redis_server.url)
    client.set("kwx:node:dead#1", "{}", px=3000)  # a process that was just killed
    client.set("kwx:node:live#1", "{}", px=3000)
    stop = threading.Event()

    def beat():
        while not stop.wait(0.3):
            client.set("kwx:node:live#1", "{}", px=3000)

    beating = threading.Thread(target=beat, daemon=True)
    beating.start()
    try:
        assert node_in_use(client, "nobody") is False
        assert node_in_use(client, "dead") is False
        assert node_in_use(client, "live") is True
        done = _serve("--db", "postgresql+asyncpg://u@127.0.0.1:9/x", "--redis",
                      redis_server.url, "--node-id", "live")
        assert done.returncode == 2
        assert done.stderr.strip().splitlines() == [
            "error: --node-id live: a live process of this cluster already runs under that "
            "id; give each process its own"]
    finally:
        stop.set()
        beating.join()
        client.delete("kwx:node:dead#1", "kwx:node:live#1")  # (no process of the others')
        client.close()


def test_a_single_process_reports_its_node_and_no_cluster(tmp_path):
    from kawuxing.server.testing import ServerThread, http

    config = replace(ServerConfig.from_env(f"sqlite:///{tmp_path / 'g.db'}", {}),
                     node_id="solo")
    with ServerThread(config) as server:
        status, health = http("GET", f"{server.url}/api/health")
    assert status == 200 and health["node"] == "solo" and health["cluster"] is None


def test_a_process_whose_lease_was_taken_writes_nothing_more_for_the_room(
        redis_server, scratch_db):
    """Fencing: the owner's lease is taken (as if it had been paused past its TTL): its
    room refuses to store (a write it tries is refused before it reaches the database) and
    the room is dropped from the process at its next renewal."""
    from kawuxing.server.testing import ServerThread, http

    config = replace(ServerConfig.from_env(scratch_db, {}), redis_url=redis_server.url,
                     node_id="a", bot_delay=0.0, claim_window=0.0, hand_pause=0.0,
                     create_rate=0.0)
    with ServerThread(config) as server:
        status, made = http("POST", f"{server.url}/api/rooms",
                            {"hands": 1, "nickname": "p0", "seats": ["human", "random", "random"]})
        assert status == 201
        code = made["code"]
        cluster = server.manager.cluster
        assert cluster.leases.valid(code)
        health = http("GET", f"{server.url}/api/health")[1]
        assert health["node"] == "a" and health["cluster"]["owned"] == 1
        assert health["cluster"]["nodes"][0]["node"] == "a"

        async def steal():
            await cluster.redis.set(lease_key(code), "thief#0", px=60000)
            cluster.leases.held[code] = time.monotonic() - 1  # its deadline passed
            room = server.manager.get(code)
            return await room.stored(lambda: room.store.update_room(code, status="hacked"),
                                     "a test write")

        assert server.call(steal()) is False  # refused before the database
        deadline = time.monotonic() + 10
        while server.manager.get(code) is not None:  # dropped at the next renewal
            assert time.monotonic() < deadline, "the room was not dropped"
            time.sleep(0.05)
        row = server.call(server.manager.store.room_row(code))
        assert row["status"] == "waiting" or row["status"] == "playing"
        assert code not in cluster.leases.held


def test_two_processes_share_the_cap_on_sockets_and_the_rate_limits_of_an_ip(
        redis_server, scratch_db):
    """End to end (issue 17): two in-process cluster members with a cap of 3 sockets per IP
    and 2 rooms made per IP (burst): 2 sockets on one and 1 on the other fill the cap, the
    next socket on either gets ``too_many_sockets``; a room made through each fills the
    create bucket, a third through either is 429 ``rate_limited``."""
    from kawuxing.server.testing import Player, ServerThread, http
    from websockets.exceptions import ConnectionClosed

    def config(node):
        return replace(ServerConfig.from_env(scratch_db, {}), redis_url=redis_server.url,
                       node_id=node, bot_delay=0.0, claim_window=0.0, hand_pause=0.0,
                       max_sockets_per_ip=3, create_rate=0.001, create_burst=2)

    body = {"hands": 1, "nickname": "p0", "seats": ["human", "random", "random"]}
    with ServerThread(config("a")) as a, ServerThread(config("b")) as b:
        made = [http("POST", f"{s.url}/api/rooms", body) for s in (a, b)]
        assert [m[0] for m in made] == [201, 201]
        for s in (a, b):
            status, refused = http("POST", f"{s.url}/api/rooms", body)
            assert status == 429 and refused["detail"]["code"] == "rate_limited"
        deadline = time.monotonic() + 10  # each process sees the other live (heartbeats)
        while any(len(s.manager.cluster.live) < 2 for s in (a, b)):
            assert time.monotonic() < deadline, "the processes never saw each other"
            time.sleep(0.05)
        code, token = made[0][1]["code"], made[0][1]["token"]
        players = [Player(s.ws, code, token) for s in (a, a, b)]
        for s in (a, b):
            extra = Player(s.ws, code, token)
            message = extra.recv()
            assert message["type"] == "error" and message["code"] == "too_many_sockets"
            with pytest.raises(ConnectionClosed):
                extra.recv()
            extra.close()
        for p in players:
            p.close()
        time.sleep(1.5)  # the closed sockets leave the cluster's count at the next heartbeat
        nowhere = Player(a.ws, "ZZZZZZ", token)  # a room no process has: its look-up limit
        nowhere.send({"type": "hello", "token": token})  # is the cluster's too (a coroutine)
        message = nowhere.recv()
        assert message["type"] == "error" and message["code"] == "no_room", message
        nowhere.close()


def test_while_redis_is_away_requests_that_need_it_are_503_and_the_rest_is_served(
        tmp_path, redis_server, scratch_db):
    """A cluster member whose Redis stops (issue 17): /api/health answers 503 with ``ok``
    false and ``cluster_unavailable`` (and the rest of its figures), making a room or reading
    one answers 503 ``cluster_unavailable`` with Retry-After — never a 500 — while what needs
    no Redis (the rules) is served; the repeated failures of the renewals and the bus are
    logged once, not four times a second; once Redis is back, health is 200 again."""
    import logging

    from kawuxing.server.testing import ServerThread, http

    redis = cluster_harness.RedisServer(tmp_path / "redis").start()
    config = replace(ServerConfig.from_env(scratch_db, {}), redis_url=redis.url,
                     node_id="alone", create_rate=0.0, lookup_rate=0.0)
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    logging.getLogger("kawuxing.server").addHandler(handler)
    try:
        with ServerThread(config) as server:
            status, made = http("POST", f"{server.url}/api/rooms",
                                {"nickname": "p0", "seats": ["human", "random", "random"]})
            assert status == 201
            assert http("GET", f"{server.url}/api/health")[0] == 200
            redis.stop()
            time.sleep(3.0)  # the keeper, the bus and the ticks fail meanwhile
            status, health = http("GET", f"{server.url}/api/health")
            assert status == 503 and health["ok"] is False and health["rooms"] >= 1
            assert health["cluster"]["code"] == "cluster_unavailable"
            for method, path, body in (
                    ("POST", "/api/rooms", {"nickname": "p1",
                                            "seats": ["human", "random", "random"]}),
                    ("GET", "/api/rooms/ZZZZZZ", None)):
                status, answer = http(method, f"{server.url}{path}", body)
                assert status == 503, (path, answer)
                assert answer["detail"]["code"] == "cluster_unavailable"
            assert http("GET", f"{server.url}/api/rules")[0] == 200
            failures = [r.getMessage() for r in records if "failed" in r.getMessage()]
            assert 1 <= len(failures) <= 6, failures  # one per kind of work, not 4 a second
            assert not [r for r in records if r.exc_info]  # no traceback
            redis.start()  # the same port again
            deadline = time.monotonic() + 15
            while http("GET", f"{server.url}/api/health")[0] != 200:
                assert time.monotonic() < deadline, "health did not come back"
                time.sleep(0.2)
    finally:
        logging.getLogger("kawuxing.server").removeHandler(handler)
        redis.stop()


def test_a_write_that_collides_with_a_stale_owners_row_rebuilds_the_room_from_the_database(
        redis_server, scratch_db):
    """Fencing by the database: another process stored the next action of a hand (a stale
    owner's late write: the primary key of ``kwx_actions`` is the match, hand and index).
    This process's own write at that index is refused by PostgreSQL; the room is rebuilt
    from the database, so it now holds the other write — nothing stored is lost."""
    from kawuxing.server.pacing import BY_PLAYER
    from kawuxing.server.rows import ActionRow
    from kawuxing.server.testing import ServerThread, http

    config = replace(ServerConfig.from_env(scratch_db, {}), redis_url=redis_server.url,
                     node_id="a", create_rate=0.0, join_rate=0.0)
    with ServerThread(config) as server:
        code = http("POST", f"{server.url}/api/rooms",
                    {"hands": 1, "nickname": "p0", "seats": ["human"] * 3})[1]["code"]
        for name in ("p1", "p2"):  # the match starts; nobody connected: nothing moves
            assert http("POST", f"{server.url}/api/rooms/{code}/join", {"nickname": name})[0] == 200
        room = server.manager.get(code)
        hand = room.match.hand
        seat = next(s for s in range(3) if hand.legal_actions(s))
        legal = hand.legal_actions(seat)
        theirs, ours = legal[0], legal[-1]
        done = len(hand.actions)

        async def collide():
            await room.store.add_action(ActionRow(room.match_id, room.match.number, done, seat,
                                                  theirs.to_json(), BY_PLAYER))
            return await room.post(room.play, seat, ours, BY_PLAYER, "x1")

        problem = server.call(collide())
        assert problem is not None and problem[0] == "storage"
        deadline = time.monotonic() + 10
        while (server.manager.get(code) is None or server.manager.get(code) is room):
            assert time.monotonic() < deadline, "the room was not rebuilt"
            time.sleep(0.05)
        again = server.manager.get(code).match.hand
        assert len(again.actions) == done + 1 and again.actions[-1] == theirs
        assert server.manager.cluster.leases.valid(code)


def test_after_redis_loses_everything_the_rooms_are_taken_again_from_the_database(
        redis_server, scratch_db):
    """Redis restarted empty (leases, rooms set, presence gone): the owner finds its leases
    lost and stops the room, then — the database still lists it as being played — takes it
    again (the same code as a restart), with its lease and its stored actions."""
    from kawuxing.server.testing import ServerThread, http

    config = replace(ServerConfig.from_env(scratch_db, {}), redis_url=redis_server.url,
                     node_id="a", create_rate=0.0, join_rate=0.0)
    with ServerThread(config) as server:
        code = http("POST", f"{server.url}/api/rooms",
                    {"hands": 1, "nickname": "p0", "seats": ["human"] * 3})[1]["code"]
        first = server.manager.get(code)
        cluster = server.manager.cluster
        server.call(cluster.redis.flushdb())
        deadline = time.monotonic() + 30
        while server.manager.get(code) in (None, first):
            assert time.monotonic() < deadline, "the room was not taken again"
            time.sleep(0.1)
        assert server.call(cluster.leases.owners([code])) == [cluster.me]
        assert code in server.call(cluster.leases.rooms())
        assert http("GET", f"{server.url}/api/rooms/{code}")[1]["seats"][0]["nickname"] == "p0"
