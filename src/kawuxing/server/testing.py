"""Helpers to drive a real server from tests, benchmarks and scripted clients.

- :class:`ServerThread`: uvicorn serving :func:`create_app` in a thread on a free port of
  127.0.0.1; :meth:`ServerThread.call` runs a coroutine in the server's loop.
- :class:`Player`: a blocking WebSocket client (``websockets.sync``) that keeps the latest
  view, version and event number, and acts with fresh action ids.
- :func:`choose`: a scripted choice among the legal actions of a view.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import socket
import threading
import time
import urllib.request
from typing import Any, Callable

import uvicorn
from websockets.sync.client import ClientConnection, connect

from .clock import Clock
from .config import ServerConfig
from .run import uvicorn_config


DEFAULT_TEST_PG = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


def pg_test_url() -> str | None:
    """The PostgreSQL URL for tests (``KAWUXING_TEST_PG``, default
    ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``) if a server answers there within
    3 s, else None. ``KAWUXING_TEST_PG=`` (empty) turns PostgreSQL tests off."""
    import os

    url = os.environ.get("KAWUXING_TEST_PG", DEFAULT_TEST_PG)
    if not url:
        return None
    try:
        import asyncpg
    except ImportError:
        return None

    async def probe() -> None:
        conn = await asyncpg.connect(url.replace("+asyncpg", ""), timeout=3)
        await conn.close()

    answered: list[bool] = []

    def ask() -> None:  # in a thread of its own: the caller's may run an event loop
        try:  # (Playwright's sync API does; asyncio.run would refuse there, a false "no")
            asyncio.run(asyncio.wait_for(probe(), 5))
            answered.append(True)
        except Exception:
            pass

    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    asker.join(10)
    return url if answered else None


def new_schema_name() -> str:
    """A fresh PostgreSQL schema name for one test run."""
    import os
    import secrets

    return f"kwx_test_{os.getpid()}_{secrets.token_hex(4)}"


def drop_database(url: str, schema: str | None) -> None:
    """Drop every table of the server (and ``schema`` on PostgreSQL)."""
    from .db import Store

    async def drop() -> None:
        store = await Store.open(url, schema)
        try:
            await store.drop_all()
        finally:
            await store.close()

    asyncio.run(drop())


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerThread:
    """Serve ``config`` on 127.0.0.1 in a background thread (``with ServerThread(cfg) as s``):
    ``app`` if given (it must be made from ``config``), else the game server without the
    browser client. ``url``/``ws`` are the base addresses; :meth:`stop` shuts down like
    SIGTERM would."""

    def __init__(self, config: ServerConfig, clock: Clock | None = None,
                 port: int | None = None, app=None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn_config(config, "127.0.0.1", self.port,
                                                    log_level="warning", clock=clock, app=app))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> ServerThread:
        """Start and wait until the server accepts connections (RuntimeError after 20 s)."""
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    @property
    def manager(self):
        """The server's :class:`~kawuxing.server.manager.RoomManager`."""
        return self.server.config.app.state.manager

    def call(self, coro, timeout: float = 30.0) -> Any:
        """Run ``coro`` in the server's event loop and return its result."""
        loop = self.server.config.app.state.loop
        return asyncio.run_coroutine_threadsafe(coro, loop).result(timeout)

    def stop(self) -> None:
        """Shut down (graceful, as on SIGTERM) and wait for the thread."""
        self.server.should_exit = True
        self.thread.join(30)

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def stored_record(server: ServerThread, match_id: str, number: int) -> dict | None:
    """The full record of an ended hand as the server stores it, read in its event loop (a
    test's oracle, for a match no test client played: ``GET /api/hands/{m}/{n}`` serves it to
    the match's players only, R13); None while the hand is played or when there is none."""
    found = server.call(server.manager.store.hand_record(match_id, number))
    return found["record"] if found is not None and found["status"] == "ended" else None


def auto_played_match(server: ServerThread, body: dict, player_token: str | None = None,
                      timeout: float = 60.0) -> dict:
    """A room made from ``body`` (``POST /api/rooms``; its first human seat is taken: by the
    player of ``player_token``, else by a guest "auto") whose seat 托管 plays, waited for until
    its match is over: the answer of the room's creation (``code``, ``seat``, ``token``,
    ``room`` with its ``match_id``). That seat's token, or the player's, opens the match's
    records (R13). Raises ``RuntimeError`` if the room is refused or the match does not end
    within ``timeout`` seconds."""
    status, made = http("POST", f"{server.url}/api/rooms", dict({"nickname": "auto"}, **body),
                        player_token)
    if status != 201:
        raise RuntimeError(f"the room was refused: {status} {made}")
    player = Player(server.ws, made["code"], made["token"])
    try:
        player.hello()
        player.send({"type": "auto", "on": True})
        deadline = time.monotonic() + timeout
        while http("GET", f"{server.url}/api/rooms/{made['code']}")[1]["status"] != "finished":
            if time.monotonic() > deadline:
                raise RuntimeError(f"room {made['code']}: the match did not end")
            time.sleep(0.05)
    finally:
        player.close()
    return made


def http(method: str, url: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """A JSON request with the standard library; returns ``(status, parsed body)``."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as err:
        raw = err.read()
        try:
            return err.code, json.loads(raw)
        except ValueError:
            return err.code, raw.decode(errors="replace")


class Player:
    """One seat's WebSocket client. After :meth:`hello`, :meth:`recv` keeps ``view``,
    ``version``, ``hand`` and ``last_event`` up to date from ``update``/``sync`` messages,
    and appends every message to ``log``."""

    _ids = itertools.count(1)

    def __init__(self, ws_base: str, code: str, token: str, max_size: int | None = 2**20,
                 **connect_kwargs: Any) -> None:
        self.code = code
        self.token = token
        # unbounded: a client that leaves messages unread still closes at once (websockets
        # stops reading at max_queue, so the server's close frame would wait behind them and
        # close() would take its whole close_timeout, 10 s)
        connect_kwargs.setdefault("max_queue", None)
        self.ws: ClientConnection = connect(f"{ws_base}/ws/{code}", max_size=max_size,
                                            open_timeout=10, **connect_kwargs)
        self.ws.__enter__()  # used without a with-block: closed by close()
        self.view: dict | None = None
        self.version: int | None = None
        self.hand: int | None = None
        self.last_event: int | None = None
        self.seat: int | None = None
        self.log: list[dict] = []
        self.ended = False

    def hello(self, resume: bool = False) -> dict:
        """Send the hello (with ``hand``/``last_event`` when ``resume``); returns welcome."""
        msg: dict = {"type": "hello", "token": self.token}
        if resume and self.hand is not None:
            msg.update(hand=self.hand, last_event=self.last_event)
        self.send(msg)
        welcome = self.recv_type("welcome")
        self.seat = welcome["seat"]
        return welcome

    def send(self, message: Any) -> None:
        """Send a dict as JSON (or a str/bytes as is)."""
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def recv(self, timeout: float = 10.0) -> dict:
        """The next message (TimeoutError after ``timeout`` s)."""
        message = json.loads(self.ws.recv(timeout=timeout))
        self.log.append(message)
        if message["type"] in ("update", "sync"):
            if message["type"] == "sync" or message["hand"] != self.hand:
                self.last_event = -1
            self.view, self.version, self.hand = message["view"], message["version"], \
                message["hand"]
            if message["events"]:
                self.last_event = message["events"][-1]["n"]
        elif message["type"] == "match_end":
            self.ended = True
        return message

    def recv_type(self, *types: str, timeout: float = 10.0) -> dict:
        """Messages until one of ``types`` (returned)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] in types:
                return message

    def until(self, predicate: Callable[[dict], bool], timeout: float = 10.0) -> dict:
        """Messages until ``predicate(message)``."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def act(self, action: list, version: int | None = None, action_id: str | None = None) -> str:
        """Send an action with the current version (or ``version``); returns its id."""
        action_id = action_id or f"p{self.seat}-{next(self._ids)}"
        self.send({"type": "action", "id": action_id,
                   "version": self.version if version is None else version, "action": action})
        return action_id

    def answer(self, action_id: str, timeout: float = 10.0) -> dict:
        """The server's answer to ``action_id``: the ``update`` acking it or ``refused``."""
        return self.until(lambda m: m.get("ack") == action_id or
                          (m["type"] == "refused" and m.get("id") == action_id), timeout)

    def close(self) -> None:
        """Close the socket."""
        self.ws.close()


def needs_answer(view: dict | None) -> bool:
    """Whether ``view`` asks its seat to decide: some legal action other than a lone ``pass``
    (a seat with no option on the tile on the table is passed for by the server, R13.2)."""
    legal = view["legal"] if view else []
    return bool(legal) and [a[1] for a in legal] != ["pass"]


def choose(view: dict, rng: random.Random) -> list:
    """A scripted choice from ``view["legal"]``: win when possible, often claim, kong or
    declare, else a random discard (favouring the tile just drawn)."""
    legal = view["legal"]
    wins = [a for a in legal if a[1] == "win"]
    if wins:
        return wins[0]
    special = [a for a in legal if a[1] in ("pung", "kong", "concealed_kong", "added_kong")]
    if special and rng.random() < 0.6:
        return rng.choice(special)
    declares = [a for a in legal if "declare" in a]
    if declares and rng.random() < 0.5:
        return rng.choice(declares)
    plain = [a for a in legal if a[1] == "discard" and "declare" not in a]
    drawn = view.get("drawn")
    if plain and drawn and rng.random() < 0.5:
        for a in plain:
            if a[2] == drawn:
                return a
    return rng.choice(plain or legal)


def build_wall(hands: list[str], draws: str = "", dealer: int = 0, seed: int = 0,
               suits: tuple[str, str] = ("p", "s")) -> str:
    """A wall (84 tiles, MPSZ, in order) that deals ``hands`` (three MPSZ hands of 13, seat
    0-2) with ``dealer`` — in the engine's deal order (:func:`kawuxing.engine.hand.deal_order`,
    R3.1: 4-4-4 from the dealer, then 1 each) — and then draws ``draws`` first (the dealer's
    14th first); the other tiles follow in a seeded shuffle. Raises ``ValueError`` for a fifth
    copy or a hand not of 13."""
    from ..engine.hand import deal_order
    from ..tiles import COPIES, kinds_for_suits, parse_tiles, tile_str

    dealt = [parse_tiles(h) for h in hands]
    if any(len(h) != 13 for h in dealt):
        raise ValueError("each hand needs 13 tiles")
    first = parse_tiles(draws)
    pool = list(kinds_for_suits(suits)) * COPIES
    for tile in [t for h in dealt for t in h] + first:
        if tile not in pool:
            raise ValueError(f"too many {tile_str(tile)}")
        pool.remove(tile)
    random.Random(seed).shuffle(pool)
    given = [iter(h) for h in dealt]
    wall = [next(given[seat]) for seat in deal_order(dealer)]
    return " ".join(tile_str(t) for t in wall + first + pool)


# A deal where the dealer (seat 0) draws 5p and discards it: seat 1 may pung it (holds 55p),
# seat 2 may win on it (46p … waits 5p: 卡五星 ×2, so a discard win is legal, R7.3).
CLAIM_HANDS = ["2p 8p 1s 5s 9s 3s 8s 9p 6z 7z 1p 3p 2s",
               "55p 13p 7p 2s 4s 6s 8s 66z 77z",
               "46p 123s 789s 555z 99p"]
CLAIM_DRAWS = "5p"
