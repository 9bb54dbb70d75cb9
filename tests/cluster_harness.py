"""A harness for the scale-out tests and benchmark (issue 17): Redis, a scratch PostgreSQL
database, several ``kawuxing serve`` processes, and scripted WebSocket players that survive the
loss of a process.

- :class:`RedisServer`: Debian's ``redis-server`` on a free loopback port, in a temp folder,
  without persistence (``--save '' --appendonly no``); :meth:`RedisServer.start` waits until it
  answers ``PING``.
- :class:`ScratchDatabase`: a fresh database (``kwx_cluster_…``) on the local PostgreSQL server
  of :func:`kawuxing.server.testing.pg_test_url`, dropped after (``WITH (FORCE)``: a killed
  process may leave connections behind).
- :class:`Node` / :class:`Cluster`: ``python -m kawuxing.cli serve --db … --redis … --node-id …``
  subprocesses on free loopback ports with fast timers (:data:`FAST_ENV`: the ``KAWUXING_*``
  variables of :meth:`kawuxing.server.config.ServerConfig.from_env`); ready once
  ``/api/health`` answers with the node's id; :meth:`Node.kill` is a SIGKILL,
  :meth:`Node.start` again restarts it on the same port with the same id.
- :class:`SeatClient`: one seat's player (asyncio ``websockets``) that connects to a process
  of the cluster, plays legal actions from the views it is sent
  (:func:`kawuxing.server.testing.choose`), and when its socket drops (its process died)
  reconnects to another process and resumes with its hand and last event (docs/protocol.md,
  "Reconnecting"); an action in flight when its socket closed or a new ``welcome`` came (a
  takeover) is forgotten: the client acts again from the state it is sent. It keeps every
  message (for the R13 leak scanner), every acknowledged action,
  and every event by (hand, n): an event number that later comes back different is a conflict.
- :func:`scan_room` checks every message a room's clients received with the leak scanner of
  ``tests/test_server_leak.py`` (R13), against the hands rebuilt from PostgreSQL as they stood
  when each message was sent; :func:`lost_actions` lists acknowledged actions not stored.
- pytest fixtures ``redis_server`` and ``scratch_db`` (skipped, with the reason, when
  ``redis-server`` or PostgreSQL is absent).

Traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Callable

import orjson
import pytest

from kawuxing.server.testing import choose, free_port, needs_answer, pg_test_url

REDIS_BINARY = shutil.which("redis-server")

# fast, unlimited servers: no bot pause, no claim window, no pause between hands, no per-IP
# limits (every client is 127.0.0.1), no timeouts of a thinking player
FAST_ENV = {
    "KAWUXING_BOT_DELAY": "0", "KAWUXING_BOT_JITTER": "0", "KAWUXING_CLAIM_WINDOW": "0",
    "KAWUXING_HAND_PAUSE": "0", "KAWUXING_DECISION_SECONDS": "600",
    "KAWUXING_RESERVE_SECONDS": "600", "KAWUXING_RATE": "1000", "KAWUXING_BURST": "1000",
    "KAWUXING_SEND_QUEUE": "4096", "KAWUXING_CREATE_RATE": "0", "KAWUXING_JOIN_RATE": "0",
    "KAWUXING_LOOKUP_RATE": "0", "KAWUXING_LOGIN_RATE": "0", "KAWUXING_MAX_SOCKETS_PER_IP": "0",
    "KAWUXING_MAX_HTTP_PER_IP": "0",
    "KAWUXING_MAX_BOT_ROOMS_PER_IP": "0", "KAWUXING_GRACEFUL_SECONDS": "2",
    # a finished room leaves memory (and the ``owned`` count) after a second
    "KAWUXING_UNLOAD_AFTER": "1",
}


def tail(path: Path, lines: int = 30) -> str:
    """The last ``lines`` lines of a log file ('' if missing)."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


# --- Redis ----------------------------------------------------------------------------------

def redis_ping(port: int, timeout: float = 0.5) -> bool:
    """Whether a Redis server on 127.0.0.1:``port`` answers ``PING`` (inline command)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """``redis-server`` on a free port of 127.0.0.1 with its files in ``folder``; ``url`` is
    ``redis://127.0.0.1:PORT/0``. RuntimeError if the binary is missing or it does not answer
    within 10 s."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = self.folder / "redis.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        if REDIS_BINARY is None:
            raise RuntimeError("redis-server is not installed")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [REDIS_BINARY, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.folder), "--logfile", str(self.log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not redis_ping(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server did not answer on port {self.port}:\n"
                                   f"{tail(self.log)}")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


# --- PostgreSQL -----------------------------------------------------------------------------

class ScratchDatabase:
    """A new database on the PostgreSQL server of ``server_url`` (an asyncpg SQLAlchemy URL
    such as ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``): :meth:`create` makes
    ``kwx_cluster_<pid>_<hex>``, ``url`` addresses it, :meth:`drop` removes it even while
    connections are left open (PostgreSQL 13+)."""

    def __init__(self, server_url: str) -> None:
        from sqlalchemy.engine import make_url

        self.name = f"kwx_cluster_{os.getpid()}_{secrets.token_hex(3)}"
        base = make_url(server_url)
        self.url = base.set(database=self.name).render_as_string(hide_password=False)
        self._admin = base.set(drivername="postgresql", database="postgres") \
            .render_as_string(hide_password=False)

    def _run(self, statement: str) -> None:
        import asyncpg

        async def run() -> None:
            conn = await asyncpg.connect(self._admin, timeout=10)
            try:
                await conn.execute(statement)
            finally:
                await conn.close()

        asyncio.run(run())

    def create(self) -> ScratchDatabase:
        self._run(f'CREATE DATABASE "{self.name}"')
        return self

    def drop(self) -> None:
        self._run(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


# --- server processes -----------------------------------------------------------------------

def get_json(url: str, timeout: float = 5.0) -> dict:
    """GET ``url`` and parse its JSON body (urllib errors propagate)."""
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.loads(response.read())


class Node:
    """One ``kawuxing serve`` process of a cluster: ``node_id``, a fixed ``port`` (kept across
    restarts), ``url``/``ws`` base addresses; its output is appended to ``log``."""

    def __init__(self, node_id: str, db_url: str, redis_url: str | None, folder: Path,
                 env: dict | None = None) -> None:
        self.node_id, self.db_url, self.redis_url = node_id, db_url, redis_url
        self.port = free_port()
        self.url, self.ws = f"http://127.0.0.1:{self.port}", f"ws://127.0.0.1:{self.port}"
        self.log = Path(folder) / f"{node_id}.log"
        self.env = dict(os.environ, **FAST_ENV, **(env or {}))
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, wait: bool = True) -> Node:
        """Start the process (and with ``wait`` wait until it is ready)."""
        command = [sys.executable, "-m", "kawuxing.cli", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--db", self.db_url, "--node-id", self.node_id]
        if self.redis_url:
            command += ["--redis", self.redis_url]
        with open(self.log, "ab") as log:
            log.write(f"--- start {self.starts} at {time.time():.3f}\n".encode())
            self.proc = subprocess.Popen(command, env=self.env, stdout=log,
                                         stderr=subprocess.STDOUT)
        self.starts += 1
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout: float = 60.0) -> dict:
        """Until ``/api/health`` answers with this node's id; returns it. RuntimeError (with
        the log's tail) if the process exits or ``timeout`` s pass."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                health = self.health()
                if health.get("node") == self.node_id:
                    return health
            except (OSError, ValueError):
                pass
            if not self.alive or time.monotonic() > deadline:
                raise RuntimeError(f"node {self.node_id} did not start "
                                   f"(exit {self.proc and self.proc.poll()}):\n{tail(self.log)}")
            time.sleep(0.1)

    def health(self, timeout: float = 5.0) -> dict:
        return get_json(f"{self.url}/api/health", timeout)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no lease released."""
        if self.alive:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM (graceful), SIGKILL after 20 s."""
        if self.alive:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


class Cluster:
    """``n`` nodes ``n0``, ``n1`` … on one database and one Redis (``with Cluster(...) as c``
    starts them all and waits; leaving stops them)."""

    def __init__(self, n: int, db_url: str, redis_url: str, folder: Path,
                 env: dict | None = None) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.nodes = [Node(f"n{i}", db_url, redis_url, self.folder, env) for i in range(n)]

    def start(self) -> Cluster:
        for node in self.nodes:
            node.start(wait=False)
        for node in self.nodes:
            node.wait_ready()
        self.wait_seen()
        return self

    def wait_seen(self, timeout: float = 20.0) -> None:
        """Until every live node's ``/api/health`` lists every live node (heartbeats are a
        second apart). TimeoutError naming what each saw."""
        deadline = time.monotonic() + timeout
        while True:
            want = {n.node_id for n in self.alive()}
            seen = {}
            for node in self.alive():
                try:
                    seen[node.node_id] = {n["node"] for n in node.health()["cluster"]["nodes"]}
                except (OSError, ValueError, KeyError, TypeError):
                    seen[node.node_id] = set()
            if all(s == want for s in seen.values()):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"the nodes see {seen}, not all of {sorted(want)}")
            time.sleep(0.1)

    def stop(self) -> None:
        for node in self.nodes:
            if node.alive:
                node.proc.terminate()
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> Cluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()

    def revive(self) -> None:
        """Start every node that is not running, and wait until all see each other."""
        for node in self.nodes:
            if not node.alive:
                node.start()
        self.wait_seen()

    def alive(self) -> list[Node]:
        return [n for n in self.nodes if n.alive]

    def ws_bases(self) -> list[str]:
        """The WebSocket base addresses of every node (dead ones too: a client finds out)."""
        return [n.ws for n in self.nodes]

    def owned(self) -> dict[str, int]:
        """``{node id: rooms it owns}`` from each live node's ``/api/health`` ``cluster``."""
        out = {}
        for node in self.alive():
            try:
                out[node.node_id] = node.health()["cluster"]["owned"]
            except (OSError, ValueError, KeyError, TypeError):
                continue
        return out

    def wait_owned(self, total: int, timeout: float = 30.0) -> dict[str, int]:
        """Until the live nodes own ``total`` rooms between them; returns :meth:`owned`.
        TimeoutError with the counts seen."""
        deadline = time.monotonic() + timeout
        while True:
            owned = self.owned()
            if sum(owned.values()) == total:
                return owned
            if time.monotonic() > deadline:
                raise TimeoutError(f"the live nodes own {owned}, not {total} rooms")
            time.sleep(0.1)

    def node(self, node_id: str) -> Node:
        return next(n for n in self.nodes if n.node_id == node_id)


# --- scripted players -----------------------------------------------------------------------

class SeatClient:
    """One seat of room ``code`` played by a script over asyncio ``websockets``.

    ``bases()`` gives the WebSocket base addresses to try; the client starts with
    ``bases()[home]`` and on every lost connection moves to the next, resuming with its hand
    and last event (docs/protocol.md). ``think``: (low, high) seconds before each action.
    It acts only when its view asks it to (:func:`needs_answer`), with fresh action ids, and
    not while ``paused`` (looked at after each message, or ``poll`` seconds without one). ``token`` None: a spectator (``watch``; it never acts).

    After :meth:`run`: ``messages`` (every message received, in order), ``acked`` (``(hand,
    action)`` of each action the server acknowledged), ``events`` (``{(hand, n): event}``),
    ``conflicts`` (events that came back different), ``rtt`` (seconds from sending an action
    to its ack or refusal), ``refused`` (codes counted), ``reconnects``, ``ended`` (the
    ``match_end`` arrived; ``ended_at``: when, by ``time.monotonic()``), ``errors``
    (``error`` messages)."""

    def __init__(self, bases: Callable[[], list[str]], code: str, token: str | None,
                 home: int = 0,
                 rng: random.Random | None = None, think: tuple[float, float] = (0.0, 0.0),
                 keep_messages: bool = True, poll: float = 0.2) -> None:
        self.bases, self.code, self.token, self.home = bases, code, token, home
        self.poll = poll  # seconds a receive waits before the loop looks at stopped/paused
        self.rng = rng or random.Random(0)
        self.think = think
        self.keep_messages = keep_messages
        self.messages: list[dict] = []
        self.acked: list[tuple[int, list]] = []
        self.events: dict[tuple[int, int], dict] = {}
        self.conflicts: list[tuple[tuple[int, int], dict, dict]] = []
        self.rtt: list[float] = []
        self.refused: Counter = Counter()
        self.errors: list[dict] = []
        self.reconnects = 0
        self.unanswered = 0  # actions whose socket closed before their answer came
        self.ended = False
        self.ended_at = float("inf")  # time.monotonic() of the match_end
        self.seat: int | None = None
        self.view: dict | None = None
        self.version: int | None = None
        self.hand: int | None = None
        self.last_event: int | None = None
        self.last_update = 0.0  # time.monotonic() of the last update/sync
        self.last_ack = 0.0  # time.monotonic() of the last ack of one of our actions
        self.measuring = True
        self.paused = False  # while True it sends no action
        self.stopped = False  # set: run() returns within poll s
        self._ids = 0
        self._failures = 0  # connections in a row that ended before a welcome
        self._pending: tuple[str, float, int, list] | None = None

    async def run(self, deadline: float) -> None:
        """Play until ``match_end`` or ``time.monotonic() > deadline``."""
        from websockets.asyncio.client import connect

        attempt = 0
        while not self.ended and not self.stopped and time.monotonic() < deadline:
            bases = self.bases()
            base = bases[(self.home + attempt) % len(bases)]
            try:
                async with connect(f"{base}/ws/{self.code}", open_timeout=5,
                                   max_size=2**22, close_timeout=1) as ws:
                    hello = {"type": "hello", "token": self.token}
                    if self.token is None:  # a spectator: everything again each time
                        hello = {"type": "watch"}
                    elif self.hand is not None and self.last_event is not None:
                        hello.update(hand=self.hand, last_event=self.last_event)
                    await ws.send(json.dumps(hello))
                    await self._play(ws, deadline)
            except Exception:  # refused, reset, closed: its process died or is starting
                pass
            if not self.ended and not self.stopped:
                if self._pending is not None:
                    self.unanswered += 1
                self._pending = None  # its fate is unknown: not acknowledged
                attempt += 1
                self.reconnects += 1
                self._failures += 1
                await asyncio.sleep(min(2.0, 0.1 * self._failures))

    async def _play(self, ws, deadline: float) -> None:
        acting: asyncio.Task | None = None
        try:
            while time.monotonic() < deadline and not self.stopped:
                try:  # asyncio.timeout: no task a call (wait_for's), 1,800 clients poll
                    async with asyncio.timeout(self.poll):
                        raw = await ws.recv()
                except TimeoutError:
                    raw = None
                if raw is not None:
                    self._receive(orjson.loads(raw))
                    if self.ended:
                        return
                if (self._pending is None and not self.paused and self.token is not None
                        and needs_answer(self.view)
                        and (acting is None or acting.done())):
                    acting = asyncio.create_task(self._act(ws, self.view, self.version,
                                                           self.hand))
        finally:
            if acting is not None:
                acting.cancel()

    async def _act(self, ws, view: dict, version: int, hand: int) -> None:
        low, high = self.think
        if high > 0:
            await asyncio.sleep(self.rng.uniform(low, high))
        if self.paused:
            return
        action = choose(view, self.rng)
        self._ids += 1
        action_id = f"s{view['seat']}-{self._ids}"
        self._pending = (action_id, time.perf_counter(), hand, action)
        await ws.send(json.dumps({"type": "action", "id": action_id, "version": version,
                                  "action": action}))

    def _receive(self, message: dict) -> None:
        if self.keep_messages:
            self.messages.append(message)
        kind = message["type"]
        pending = self._pending
        if kind == "welcome":  # a new attach (also on a relayed socket after a takeover):
            self.seat = message["seat"]  # what happened to an action in flight is unknown
            self._failures = 0
            if pending is not None:
                self.unanswered += 1
                self._pending = None
        elif kind in ("update", "sync", "missed"):
            number = message["hand"]
            for event in message["events"]:
                key = (number, event["n"])
                seen = self.events.setdefault(key, event)
                if seen != event:
                    self.conflicts.append((key, seen, event))
            if kind != "missed":
                if kind == "sync" or number != self.hand:
                    self.last_event = -1
                self.view, self.version, self.hand = message["view"], message["version"], number
                if message["events"]:
                    self.last_event = message["events"][-1]["n"]
                self.last_update = time.monotonic()
                if pending and message.get("ack") == pending[0]:
                    self.acked.append((pending[2], pending[3]))
                    self._answered(pending)
                    self.last_ack = time.monotonic()
        elif kind == "refused" and pending and message.get("id") == pending[0]:
            self.refused[message["code"]] += 1
            self._answered(pending)
        elif kind == "match_end":
            self.ended = True
            self.ended_at = time.monotonic()
        elif kind == "error":
            self.errors.append(message)

    def stop(self) -> None:
        """Make :meth:`run` return within ``poll`` s (a spectator gets no ``match_end``)."""
        self.stopped = True

    def describe(self) -> str:
        """One line for a failing test: seat, where it is, what it last received."""
        last = [m["type"] for m in self.messages[-5:]]
        pending = self._pending and \
            f"{self._pending[0]} sent {time.perf_counter() - self._pending[1]:.1f} s ago"
        return (f"{self.code} seat {self.seat}: hand {self.hand} version {self.version} "
                f"ended {self.ended} acked {len(self.acked)} reconnects {self.reconnects} "
                f"unanswered {self.unanswered} refused {dict(self.refused)} errors "
                f"{self.errors[-2:]} pending {pending} last update "
                f"{time.monotonic() - self.last_update:.1f} s ago; legal "
                f"{self.view and self.view.get('legal')}; last {last}")

    def _answered(self, pending: tuple) -> None:
        if self.measuring:
            self.rtt.append(time.perf_counter() - pending[1])
        self._pending = None


# --- checks against what PostgreSQL holds ---------------------------------------------------

async def stored_hands(db_url: str, code: str, store=None) -> tuple[list[dict], list]:
    """The records (with their stored actions) of every hand of room ``code``'s match, in
    order, and each hand's :class:`~kawuxing.engine.match.HandSeed` (or None). ``store``: an
    open :class:`~kawuxing.server.db.Store` to read with (else one is opened and closed)."""
    from kawuxing.engine.match import HandSeed
    from kawuxing.server.db import Store

    own = store is None
    store = await Store.open(db_url) if own else store
    try:
        row = await store.room_row(code)
        records = []
        if row and row["match_id"]:
            while True:
                found = await store.hand_record(row["match_id"], len(records))
                if found is None:
                    break
                records.append(found["record"])
    finally:
        if own:
            await store.close()
    fair = [HandSeed.from_record(r.get("fairness"), i, r["dealer"])
            for i, r in enumerate(records)]
    return records, fair


def lost_actions(records: list[dict], clients: list[SeatClient]) -> list[tuple[int, list]]:
    """The acknowledged actions of ``clients`` that the stored hands do not hold (counted:
    the same action acknowledged twice must be stored twice)."""
    stored = Counter((i, json.dumps(a)) for i, r in enumerate(records) for a in r["actions"])
    acked = Counter((h, json.dumps(a)) for c in clients for h, a in c.acked)
    return [(h, json.loads(a)) for (h, a), n in (acked - stored).items() for _ in range(n)]


class _Moments:
    """The hands of one match as they stood after a given number of events (replayed from
    the records), shaped as the leak scanner's ``room`` argument."""

    def __init__(self, code: str, records: list[dict], fair: list) -> None:
        from kawuxing.engine.actions import action_from_json
        from kawuxing.records import replay

        self.code, self.records, self.fair, self.replay = code, records, fair, replay
        self.full = [replay(r) for r in records]
        self._cache: dict[tuple[int, int], object] = {}
        self._steps: list[list[int]] = []  # events after each step, per hand
        for r in records:
            hand = replay(r, 0)
            counts = [len(hand.events)]
            for raw in r["actions"]:
                hand.apply(action_from_json(raw))
                counts.append(len(hand.events))
            self._steps.append(counts)

    def hand_at(self, number: int, events: int | None, seat: int | None = None,
                view: dict | None = None):
        """Hand ``number`` after its first ``events`` events (None: as it ended). Several
        steps may leave the same events (a ``pass`` in a claim window adds none): with a
        ``view``, the first of them whose view for ``seat`` it is, else the first."""
        from kawuxing.engine.views import seat_view, spectator_view

        if events is None:
            return self.full[number]
        counts = self._steps[number]
        steps = [i for i, c in enumerate(counts) if c == events] or \
            [next((i for i, c in enumerate(counts) if c >= events), len(counts) - 1)]
        hands = []
        for step in steps:
            key = (number, step)
            if key not in self._cache:
                self._cache[key] = self.replay(self.records[number], step)
            hand = self._cache[key]
            if view is None or len(steps) == 1:
                return hand
            if view == (spectator_view(hand) if seat is None else seat_view(hand, seat)):
                return hand
            hands.append(hand)
        return hands[0]

    def room(self, number: int | None, events: int | None, seat: int | None = None,
             view: dict | None = None) -> SimpleNamespace:
        """The scanner's ``room`` for hand ``number`` after ``events`` events (see
        :meth:`hand_at`); no match when ``number`` is None."""
        if number is None or not self.records:
            return SimpleNamespace(code=self.code, opening=None, match=None)
        hand = self.hand_at(number, events, seat, view)
        match = SimpleNamespace(hand=hand, hands=self.full[:number] + [hand], number=number,
                                fair=self.fair[:number + 1],
                                pending=self.fair[number + 1] if number + 1 < len(self.fair)
                                else None)
        return SimpleNamespace(code=self.code, opening=None, match=match)


def scan_room(code: str, records: list[dict], fair: list,
              clients: list[SeatClient]) -> Counter:
    """Every message of ``clients`` (seats of room ``code``) through the leak scanner of
    ``tests/test_server_leak.py`` (``check_message``, R13), each against the hands as they
    stood when it was sent: the hand and event count of the latest ``update``/``sync`` (of
    the steps that leave that many events, the one whose view it is, if any; a message
    without events is checked against the latest state the client knew; a ``missed`` against
    the ended hand it completes). Raises the scanner's ``Leak``; returns its counts."""
    from test_server_leak import check_message

    moments = _Moments(code, records, fair)
    stats: Counter = Counter()
    for client in clients:
        number = events = None
        for index, message in enumerate(client.messages):
            kind = message["type"]
            if kind in ("update", "sync"):
                if message["hand"] != number:
                    number, events = message["hand"], 0
                if message["events"]:
                    events = message["events"][-1]["n"] + 1
                room = moments.room(number, events, client.seat, message["view"])
            elif kind == "missed":
                room = moments.room(message["hand"], None)
            else:
                shown = message.get("hand") if kind == "welcome" else None
                if shown is not None and shown != number:
                    number, events = shown, 0
                room = moments.room(number, events)
            try:
                check_message(room, client.seat, message, stats)
            except AssertionError as exc:  # the scanner's Leak: say where, and what differs
                raise type(exc)(f"{exc} (room {code}, message {index} of seat {client.seat}, "
                                f"checked at hand {number} after {events} events"
                                f"{_view_difference(room, client.seat, message)})") from None
    return stats


def _view_difference(room, seat, message: dict) -> str:
    """``; view differs in KEYS: sent … expected …`` when the message's view is not the
    seat's view of the hand checked against (else '')."""
    from kawuxing.engine.views import seat_view, spectator_view

    view = message.get("view")
    if view is None or room.match is None:
        return ""
    hand = room.match.hands[message["hand"]]
    expected = spectator_view(hand) if seat is None else seat_view(hand, seat)
    keys = sorted(k for k in set(view) | set(expected) if view.get(k) != expected.get(k))
    if not keys:
        return ""
    shown = {k: (view.get(k), expected.get(k)) for k in keys[:4]}
    return f"; view differs in {keys}: (sent, expected) {shown}"


# --- pytest fixtures ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def redis_server():
    """A Redis server for the module (skipped when ``redis-server`` is not installed)."""
    if REDIS_BINARY is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    folder = Path(tempfile.mkdtemp(prefix="kwx-redis-"))
    server = RedisServer(folder).start()
    yield server
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def scratch_db():
    """A fresh PostgreSQL database URL for the module, dropped after (skipped without
    PostgreSQL at ``KAWUXING_TEST_PG`` / 127.0.0.1:5432)."""
    server = pg_test_url()
    if server is None:
        pytest.skip("no PostgreSQL at KAWUXING_TEST_PG / 127.0.0.1:5432")
    db = ScratchDatabase(server).create()
    yield db.url
    db.drop()
