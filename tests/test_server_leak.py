"""No message the server sends shows a seat a tile it may not see (R13), over 1,000+ hands.

The rooms run in process through the server's own code (RoomManager, Room, the SQLite store,
the event-loop clock): three human seats, each connected to a *watcher* connection. In most
seats a bot plays for the player (托管, asked with an ``auto`` message — the messages still go
to the seat); in some seats the watcher plays itself from the views it is sent, now and then
sending a stale, illegal or foreign action, and now and then reconnecting (resume with its last
event, or from scratch). Every message is checked *when it is sent*, against the true state of
the hand at that moment:

- it is JSON, of a known type, with known keys; no key anywhere names hidden state (the wall,
  records, tokens, who may claim);
- its ``view`` is the receiving seat's own view, and names no more of any tile than the seat
  may see now (own hand, discards not taken, melds — not the tile of another's concealed kong
  —, hands shown by 亮倒 less face-down triplets and the tile just drawn; everything at the
  end), counted independently of the engine's view code;
- its events are the seat's filtered events: the deal shows only the seat's own 13 tiles,
  another seat's draw and concealed kong carry no tile;
- no other seat's hidden concealed hand and no run of the undrawn wall appears anywhere in it;
- no seed of a hand not yet ended (dealt, or only committed) appears anywhere in it: a seed is
  sent only in the ``fairness`` of an ended hand (R3.1, docs/fairness.md). Watchers send
  entropy for the next deal now and then, when a commitment arrives.

Every room also has a *spectator* (旁观, issue 12) whose messages are checked the same way for
seat None: public information only — no concealed hand before 亮倒 or the end, no draw's
tile, no legal actions, no clock; it starts watching again whenever a seat reconnects.

``KAWUXING_LEAK_HANDS`` changes the number of hands (default 400, about 130,000 messages; the
longer run before a release: 1000).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import re
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from kawuxing.engine.views import event_for_seat, seat_view, spectator_view
from kawuxing.melds import MELD_CONCEALED_KONG
from kawuxing.rules import PRESETS
from kawuxing.server import protocol
from kawuxing.server.config import ServerConfig
from kawuxing.server.db import Store
from kawuxing.server.manager import RoomManager
from kawuxing.server.testing import choose
from kawuxing.tiles import format_tiles, tile_str
from helpers import option_values, tiles_in_view, visible_tiles

HANDS = int(os.environ.get("KAWUXING_LEAK_HANDS", "400"))
HANDS_PER_ROOM = 8
AT_ONCE = 24  # rooms played concurrently

OPTIONS = option_values("declare_hide_triplets", "concealed_kong_visible", "feeding_declared",
                        "double_win", "robbing_kong")  # R8.6, R6.1, R8.7, R4.3, R7.4
TYPES = {
    "welcome": {"type", "protocol", "room", "seat", "status", "preset", "rules", "settings",
                "players", "hand", "version", "commit"},
    "update": {"type", "hand", "version", "events", "view", "clock", "auto", "ack", "resumed",
               "totals", "fairness", "commit"},
    "sync": {"type", "hand", "version", "events", "view", "clock", "auto", "totals",
             "fairness", "commit"},
    "missed": {"type", "hand", "events", "view", "fairness"},
    "entropy_ok": {"type", "hand", "value", "commitment"},
    "players": {"type", "players"},
    "refused": {"type", "id", "code", "reason", "rule", "version"},
    "auto": {"type", "on", "reason"},
    "match_end": {"type", "match_id", "totals", "hands", "rating"},
    "replaced": {"type"},
    "error": {"type", "code", "message"},
    "next_hand": {"type", "version", "seconds", "ready"},
    "spectators": {"type", "count"},
    "chat": {"type", "seat", "say"},
    "status": {"type", "state"},  # (a cluster: the owner is being replaced)
}
FORBIDDEN_KEYS = {"draws", "wall_tiles", "wall_order", "record", "actions", "token",
                  "token_hash", "to_act", "options", "answers", "pending", "missed",
                  "initial_hands", "seed"}
TILE = re.compile(r"^[1-9][mps]$|^[5-7]z$")


def walk(value, keys: set, strings: list, lists: list) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            keys.add(k)
            walk(v, keys, strings, lists)
    elif isinstance(value, list):
        lists.append(value)
        for v in value:
            walk(v, keys, strings, lists)
    elif isinstance(value, str):
        strings.append(value)


def secrets_of(hand, seat: int) -> tuple[set[str], list[list[str]]]:
    """Strings and lists the seat must never meet before the end: other players' hidden
    hands (whole), the undrawn wall (in order or sorted)."""
    strings, lists = set(), []
    if hand.ended:
        return strings, lists
    for i, s in enumerate(hand.seats):
        if i == seat or sum(s.concealed) < 5:
            continue
        face_down = bool(s.hidden)  # face-down groups (R8.6, R8.11; a konged triplet leaves)
        if not s.declared or face_down or (s.drawn is not None and hand.current == i):
            strings.add(format_tiles(s.concealed_tiles()))
    rest = hand.draws[len(hand.draws) - hand.wall_left:]
    if len(rest) >= 4:
        strings.update({format_tiles(rest), " ".join(tile_str(t) for t in rest),
                        "".join(tile_str(t) for t in rest)})
        lists.append([tile_str(t) for t in rest])
    return strings, lists


class Leak(AssertionError):
    pass


_CACHE: dict = {}


def unrevealed_seeds(room) -> list[str]:
    """The seeds (hex) of the room's hands that have not ended: committed or in play."""
    match = room.match
    if match is None:
        return [room.opening.seed.hex()] if room.opening is not None else []
    found = [s.seed.hex() for s, h in zip(match.fair, match.hands)
             if s is not None and not h.ended]
    if match.pending is not None:
        found.append(match.pending.seed.hex())
    return found


def check_message(room, seat: int, message: dict, stats: Counter) -> None:
    """Everything in the module doc, for one message to ``seat`` now."""
    text = json.dumps(message, ensure_ascii=False)
    kind = message["type"]
    if kind not in TYPES or not set(message) <= TYPES[kind]:
        raise Leak(f"unknown message shape {kind}: {sorted(message)}")
    for seed in unrevealed_seeds(room):
        if seed in text:
            raise Leak(f"{kind} to seat {seat} holds the seed of a hand not ended")
    shown = message
    fair = message.get("fairness")
    if isinstance(fair, dict) and "seed" in fair:  # revealed: only for an ended hand
        if room.match is None or not room.match.hands[message["hand"]].ended:
            raise Leak(f"{kind} reveals the seed of hand {message['hand']} before its end")
        shown = {k: v for k, v in message.items() if k != "fairness"}
        stats["seeds_revealed"] += 1
    keys, strings, lists = set(), [], []
    walk(shown, keys, strings, lists)
    if keys & FORBIDDEN_KEYS:
        raise Leak(f"{kind} has keys {keys & FORBIDDEN_KEYS}")
    stats["messages"] += 1
    stats["bytes"] += len(text)
    match = room.match
    if match is None or kind == "entropy_ok":
        return
    number = message.get("hand")
    hand = match.hand if number is None else match.hands[number]
    current = hand is match.hand
    # (the room and hand number, not id(): a freed hand's id is reused by a new one)
    key = (room.code, match.number, len(match.hand.events), len(match.hand.actions), seat)
    cached = _CACHE.get(key)
    if cached is None:
        _CACHE.clear() if len(_CACHE) > 5000 else None
        cached = _CACHE[key] = (secrets_of(match.hand, seat), visible_tiles(match.hand, seat))
    (secret_strings, secret_lists), visible_now = cached
    if secret_strings & set(strings) or any(x in lists for x in secret_lists):
        raise Leak(f"{kind} to seat {seat} holds another's hidden hand or the wall")
    if "view" in message:
        view = message["view"]
        if view["seat"] != seat:
            raise Leak(f"seat {seat} was sent the view of seat {view['seat']}")
        if seat is None:  # a spectator: no hand, no options, no clock
            if {"hand", "drawn", "legal", "declare_waits", "ready_waits"} & set(view) \
                    or message.get("clock") is not None or message.get("auto"):
                raise Leak(f"{kind}: a spectator was sent a seat's own part")
            if any("drawn" in e or "legal" in e for e in view["seats"]):
                raise Leak(f"{kind}: a spectator was sent a seat's drawn tile or options")
            if stats["views"] % 5 == 0 and view != spectator_view(hand):
                raise Leak(f"{kind}: not the spectator view of the hand now")
            if current and not hand.ended:
                stats["spectator_views_in_play"] += 1
        elif view["hand"] != format_tiles(hand.seats[seat].concealed_tiles()):
            raise Leak(f"{kind}: seat {seat} was sent another hand")
        elif stats["views"] % 5 == 0 and view != seat_view(hand, seat):  # a sample: costly
            raise Leak(f"{kind}: not seat {seat}'s view of the hand now")
        extra = tiles_in_view(view) - (visible_now if current else visible_tiles(hand, seat))
        if extra:
            raise Leak(f"{kind} to seat {seat} names {extra} it may not see")
        for entry in view["seats"]:
            i = entry["seat"]
            if i == seat or hand.ended:
                continue
            if "revealed" in entry and not hand.seats[i].declared:
                raise Leak(f"seat {i}'s hand shown before 亮倒")
            for meld in entry["melds"]:
                if (meld["kind"] == MELD_CONCEALED_KONG and meld["tile"] is not None
                        and not hand.rules.concealed_kong_visible):
                    raise Leak(f"seat {i}'s concealed kong tile shown")
            if hand.phase == "piao" and entry["piao"] is not None:
                raise Leak("another seat's 漂 shown before everyone chose")
        stats["views"] += 1
        if current and not hand.ended:
            stats["views_in_play"] += 1
    for event in message.get("events", []):
        n = event["n"]
        if event != {"n": n, **event_for_seat(hand.events[n], seat, hand)}:
            raise Leak(f"event {n} is not seat {seat}'s filtered event")
        etype = event["type"]
        if etype == "deal":
            if "hands" in event or (event["hand"] != format_tiles(sorted(hand.initial_hands[seat]))
                                    if seat is not None else "hand" in event):
                raise Leak("the deal shows more than the seat's own hand")
        elif etype == "draw" and event["seat"] != seat and "tile" in event:
            raise Leak("another seat's draw shows its tile")
        elif (etype == "kong" and event["kind"] == MELD_CONCEALED_KONG and event["seat"] != seat
              and "tile" in event and not hand.rules.concealed_kong_visible):
            raise Leak("another seat's concealed kong shows its tile")
        elif etype == "hand_end" and not hand.ended:
            raise Leak("hand_end before the end")
        stats["events"] += 1


# --- watchers: connections that check, and play when asked ----------------------------------

class Watcher:
    """A connection of one seat: checks each message as it is sent; ``mode`` ``auto`` (a bot
    plays the seat) or ``client`` (plays from its views, with some bad actions)."""

    def __init__(self, game, seat: int, mode: str, rng: random.Random) -> None:
        self.game, self.mode, self.rng = game, mode, rng
        self.room = game.room
        self.seat = None
        self.want = seat
        self.pending = None
        self.hand = None
        self.last_event = None
        self.closed = None
        self.version = None
        self.view = None
        self.ids = 0
        self.fresh = False
        self.bad = False
        self.updates = self.acted_at = 0

    def close(self, code, reason=""):
        self.closed = code

    def send(self, message: dict) -> None:
        check_message(self.room, self.want, message, self.game.stats)
        if self.closed is not None:
            return
        kind = message["type"]
        if kind in ("update", "sync"):
            if kind == "sync" or message["hand"] != self.hand:
                self.last_event = -1
            self.hand, self.version, self.view = message["hand"], message["version"], \
                message["view"]
            if message["events"]:
                self.last_event = message["events"][-1]["n"]
            if message.get("ack") == self.pending:
                self.pending = None
            self.fresh = True
            self.updates += 1
        elif kind == "refused" and message["id"] == self.pending:
            self.pending = None
            # retry after our own bad action or if the table moved since; else wait for news
            self.fresh = self.bad or self.updates != self.acted_at
        elif kind == "match_end":
            self.game.ended.add(self.want)
            if len(self.game.ended) == 3:
                self.game.done.set()
            return
        commit = message.get("commit")
        if commit and self.rng.random() < 0.3:  # entropy for the next deal (R3.1)
            self.game.stats["entropy_sent"] += 1
            self.room.post_nowait(self.room.client_message, self, protocol.Entropy(
                type="entropy", hand=commit["hand"], value=f"w{self.want}-{self.rng.random()}"))
        if self.mode != "client" or self.pending is not None or not self.fresh \
                or not self.view or not self.view["legal"]:
            return
        if self.rng.random() < 0.01:  # reconnect now and then
            self.game.reconnect(self)
            return
        action = choose(self.view, self.rng)
        version = self.version
        roll = self.rng.random()
        self.bad = roll < 0.08
        if roll < 0.03:
            version -= 1  # stale
        elif roll < 0.06:
            action = [self.want, "discard", "7z"]  # often illegal
        elif roll < 0.08:
            action = [(self.want + 1) % 3] + action[1:]  # another seat's
        self.game.ids += 1  # ids stay unique across reconnections (else: duplicate)
        self.pending = f"{self.want}-{self.game.ids}"
        self.fresh = False
        self.acted_at = self.updates
        self.room.post_nowait(self.room.client_message, self,
                              protocol.ActionMessage(type="action", id=self.pending,
                                                     version=version, action=action))


class Spectator:
    """A spectator's connection (seat None): checks each message as it is sent."""

    def __init__(self, game) -> None:
        self.game, self.room, self.seat = game, game.room, None

    def close(self, code, reason=""):
        pass

    def send(self, message: dict) -> None:
        check_message(self.room, None, message, self.game.stats)
        self.game.stats["spectator_messages"] += 1


class Game:
    def __init__(self, room, tokens, modes, rng, stats):
        self.room, self.tokens, self.rng, self.stats = room, tokens, rng, stats
        self.modes = modes
        self.ids = 0
        self.ended: set[int] = set()
        self.done = asyncio.Event()
        self.watchers = {}
        self.spectator = None

    async def connect(self):
        await self.watch()
        for seat in range(3):
            await self.attach(seat, None, None)

    async def watch(self):
        """A spectator watches from now (the one before stops)."""
        if self.spectator is not None:
            await self.room.post(self.room.unwatch, self.spectator)
        self.spectator = Spectator(self)
        await self.room.post(self.room.watch, self.spectator)

    async def attach(self, seat, hand, last_event):
        watcher = Watcher(self, seat, self.modes[seat], self.rng)
        self.watchers[seat] = watcher
        await self.room.post(self.room.attach, watcher, self.tokens[seat], hand, last_event)
        if self.modes[seat] == "auto":
            await self.room.post(self.room.client_message, watcher,
                                 protocol.Auto(type="auto", on=True))

    def reconnect(self, old: Watcher) -> None:
        self.stats["reconnects"] += 1
        resume = self.rng.random() < 0.7
        loop = asyncio.get_running_loop()
        loop.create_task(self.attach(
            old.want, old.hand if resume else None, old.last_event if resume else None))
        loop.create_task(self.watch())  # and a spectator comes in mid-hand


async def play_rooms(db_path: str, first: int, rooms: int) -> Counter:
    """Play rooms ``first`` … ``first + rooms - 1`` (each seeded by its number) with every
    message checked; returns counts of what was seen."""
    config = ServerConfig(db_url=f"sqlite+aiosqlite:///{db_path}", bot_delay=0, claim_window=0,
                          hand_pause=0, decision_seconds=600, unload_after=0.01)
    store = await Store.open(config.db_url)
    manager = RoomManager(store, config)
    stats: Counter = Counter()

    async def one(i: int) -> None:
        rng = random.Random(i)
        options = {k: rng.choice(v) for k, v in OPTIONS.items() if rng.random() < 0.5}
        preset = PRESETS[i % len(PRESETS)]
        created = await manager.create_room(
            preset=preset, options=options, hands=HANDS_PER_ROOM, seats=["human"] * 3,
            auto_bot=rng.choice(["heuristic", "random", "heuristic:2"]))
        room = manager.get(created["code"])
        tokens = {}
        for seat in range(3):
            _, tokens[seat] = await room.post(room.join, f"w{seat}", seat)
        modes = ["auto", "auto", "auto"]
        if i % 3 == 0:
            modes[rng.randrange(3)] = "client"
        game = Game(room, tokens, modes, random.Random(i), stats)
        await game.connect()
        try:
            await asyncio.wait_for(game.done.wait(), 300)  # a busy 2-core machine is slow
        except asyncio.TimeoutError:
            watchers = {seat: (w.mode, w.pending, w.fresh, w.bad, w.closed,
                               w.view and w.view["legal"], w.updates, w.acted_at)
                        for seat, w in game.watchers.items()}
            raise AssertionError(f"room {i} stalled: to act {room.match.hand.to_act()}, "
                                 f"auto {[sl.auto for sl in room.slots]}, "
                                 f"timers {room.pacer.timers}, bots {room.pacer.bot_handles}, "
                                 f"watchers {watchers}") from None
        stats["hands"] += len(room.match.hands)
        stats["rooms"] += 1
        stats["accepted"] += room.stats["accepted"]
        stats["refused"] += room.stats["refused"]
        for h in room.match.hands:
            stats["declared"] += sum(s.declared for s in h.seats)
            stats["concealed_kongs"] += sum(m.kind == MELD_CONCEALED_KONG
                                            for s in h.seats for m in s.melds)

    try:
        end = first + rooms
        for start in range(first, end, AT_ONCE):
            await asyncio.gather(*(one(i) for i in range(start, min(end, start + AT_ONCE))))
    finally:
        await manager.shutdown()
        await store.close()
    return stats


def _worker(db_path: str, first: int, rooms: int) -> Counter:
    return asyncio.run(play_rooms(db_path, first, rooms))


def test_no_message_shows_a_seat_what_it_may_not_see(tmp_path):
    """Two processes (the machine's two cores), each with its own database."""
    rooms = -(-HANDS // HANDS_PER_ROOM)
    half = rooms // 2
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        parts = [pool.submit(_worker, str(tmp_path / "a.db"), 0, half),
                 pool.submit(_worker, str(tmp_path / "b.db"), half, rooms - half)]
        stats = sum((p.result() for p in parts), Counter())
    print(dict(stats))
    assert stats["hands"] >= HANDS
    # the run exercised what matters: views in play, 亮倒, concealed kongs, refusals,
    # reconnections
    assert stats["views_in_play"] > 20 * HANDS
    assert stats["seeds_revealed"] >= 3 * HANDS * 0.9 and stats["entropy_sent"] > HANDS / 10
    assert stats["spectator_views_in_play"] > 5 * HANDS
    if HANDS >= 200:  # the shares a run shows (1,000 hands: 44 declared, 137 concealed kongs,
        # 996 refusals, 133 reconnections), with room for chance
        assert stats["declared"] > HANDS / 100 and stats["concealed_kongs"] > HANDS / 100
        assert stats["refused"] > HANDS / 100 and stats["reconnects"] > HANDS / 100
