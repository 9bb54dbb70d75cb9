"""R13.2 measurement: does a seat without an option learn, from what it receives after a
discard, whether another seat could claim that discard?

RULES.md R13.2: "A player learns nothing of another player's options ... not in a phase or
state field, not in which messages arrive, not in when they arrive." An outside review of the
old server found three leaks: after a discard one opponent could pung/kong/win, the third
seat's view had ``phase: "claim"`` (and a pause followed); after a discard nobody could take,
it saw the next draw at once; and bots answered ~0.6 s after a discard only when they held
an option. The server now opens a claim window of ``claim_window`` seconds after every
discard for both other seats (docs/protocol.md, "The claim window (R13.2)"). This script
measures the same things on the current server.

It starts an in-process server (:class:`kawuxing.server.testing.ServerThread`, 127.0.0.1, a
fresh SQLite file in a temp folder), creates ``--rooms`` rooms of seats ``human, heuristic,
heuristic`` with ``--hands`` hands each, and connects one scripted observer per room at seat
0 (a thread with a :class:`~kawuxing.server.testing.Player`). The observer acts only when
:func:`~kawuxing.server.testing.needs_answer` says its view asks it to (its turn, its own
claims: :func:`~kawuxing.server.testing.choose`), and logs every message with its arrival
time (``time.perf_counter()``). After the match it fetches every ended hand's record
(``GET /api/hands/{match_id}/{number}``) and replays it (:func:`kawuxing.records.replay`): for
every discard by seat 1 or 2 it finds whether the *other* bot seat held a real option on it
(``hand.pending.options[seat]`` not empty right after the discard) and whether the observer
did (those discards are left out: the observer had to decide, so it is not a bystander).

Joined with the observer's log by hand and event number ``n``, each discard gives (a) the view
phase in the message that carried the discard event, (b) the message types that arrived from
then until the next message carrying events (``=`` marks events after the discard in that
same message: the old server's "next draw at once"), and (c) the delay from the discard's
message to the next message carrying events (0 when it was the same message). Printed for
the groups "another seat could claim" and "nobody could": count, share with phase claim,
sequences (counts), median / p10 / p90 delay in ms, and the ratio of the medians; the last
line is one JSON object with these figures.

    python benchmarks/bench_window.py                        # 4 rooms x 2 hands, window 0.2 s
    python benchmarks/bench_window.py --rooms 8 --hands 4    # more discards
    python benchmarks/bench_window.py --window 0.6 --bot-delay 0.6   # production timings

The delay (c) ends when the window closes, so it should be about ``--window`` in both
groups, whoever held an option (the bots answer at the window's end, the seats without an
option are passed for then, and the next draw or claim is sent in one update); measured to
the *next discard* instead it would be window + ``--bot-delay`` (the bot's own pause in its
turn), again for both groups. The production defaults are ``claim_window`` 0.6 s and
``bot_delay`` 0.6 s; the defaults here (0.2/0.2) only make a run quick: what is measured —
whether the two groups differ — does not depend on them. ``--window 0`` turns the minimum
off; the bots then still answer every discard after their own ``bot_delay``, option or not,
so the groups should not differ either (the delay is then the bot delay).

Traffic goes only to 127.0.0.1; the run is bounded (``--timeout``) and stops by itself.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter

from kawuxing.records import replay
from kawuxing.server.config import ServerConfig
from kawuxing.server.testing import Player, ServerThread, choose, http, needs_answer

GROUPS = (("claim", "another seat could claim"), ("none", "nobody could"))


class Observer(threading.Thread):
    """Seat 0 of one room: answers only when its view asks it to, logs ``(arrival time,
    message)`` for every message after the welcome. Stops at ``match_end``, at
    ``deadline`` (perf_counter time), or when no message came for ``idle`` seconds."""

    def __init__(self, ws_base: str, code: str, token: str, seed: int, deadline: float,
                 idle: float, on_hand_end) -> None:
        super().__init__(daemon=True, name=f"observer-{code}")
        self.ws_base, self.code, self.token = ws_base, code, token
        self.rng = random.Random(seed)
        self.deadline, self.idle = deadline, idle
        self.on_hand_end = on_hand_end
        self.log: list[tuple[float, dict]] = []
        self.match_id: str | None = None
        self.error: str | None = None
        self.actions = 0
        self.refused: Counter = Counter()

    def run(self) -> None:
        player = None
        try:
            player = Player(self.ws_base, self.code, self.token)
            player.hello()
            acted_on = None
            ended: set[int] = set()
            while True:
                left = self.deadline - time.perf_counter()
                if left <= 0:
                    self.error = "deadline reached before the match ended"
                    return
                message = player.recv(timeout=min(self.idle, left))
                now = time.perf_counter()
                self.log.append((now, message))
                kind = message["type"]
                if kind == "match_end":
                    self.match_id = message["match_id"]
                    if player.hand is not None and player.hand not in ended:
                        ended.add(player.hand)
                        self.on_hand_end()
                    return
                if kind == "refused":
                    self.refused[message.get("code")] += 1
                    acted_on = None  # may try again on the state it was refused in
                if kind in ("update", "sync"):
                    view = message["view"]
                    if view.get("phase") == "ended" and message["hand"] not in ended:
                        ended.add(message["hand"])
                        self.on_hand_end()
                key = (player.hand, player.version)
                if needs_answer(player.view) and acted_on != key:
                    acted_on = key
                    self.actions += 1
                    player.act(choose(player.view, self.rng))
        except TimeoutError:
            self.error = f"no message for {self.idle:g} s"
        except Exception as exc:  # reported, the other rooms still count
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            if player is not None:
                try:
                    player.close()
                except Exception:
                    pass


def discards_of(record: dict) -> list[dict]:
    """Every discard by seat 1 or 2 in ``record``: its event number ``n``, the discarding
    seat, whether the other bot seat and the observer (seat 0) held an option on it."""
    out = []
    for i, raw in enumerate(record["actions"]):
        if raw[1] != "discard" or raw[0] not in (1, 2):
            continue
        hand = replay(record, i + 1)
        n = max(k for k, e in enumerate(hand.events) if e["type"] == "discard")
        options = hand.pending.options if hand.pending is not None else {}
        other = 3 - raw[0]
        out.append({"n": n, "seat": raw[0], "other": bool(options.get(other)),
                    "observer": bool(options.get(0)),
                    "options": {s: list(v) for s, v in options.items() if v}})
    return out


def observed(log: list[tuple[float, dict]], hand: int, n: int) -> dict | None:
    """What the observer saw of event ``n`` of ``hand``: phase and legal in the message that
    carried it, the message types until the next message carrying events, and the delay."""
    for j, (t, m) in enumerate(log):
        if m["type"] not in ("update", "sync") or m["hand"] != hand:
            continue
        numbers = [e["n"] for e in m["events"]]
        if n not in numbers:
            continue
        view = m["view"]
        legal = [a[1] for a in view.get("legal", [])]
        if numbers[-1] > n and any(e["n"] > n and e["type"] != "declare"
                                   for e in m["events"]):
            # the outcome came with the discard itself (no window)
            later = [e["type"] for e in m["events"] if e["n"] > n]
            return {"phase": view.get("phase"), "legal": legal,
                    "sequence": "=" + "+".join(later), "delay": 0.0,
                    "next": [t for t in later if t != "declare"][:2]}
        types = []
        for t2, m2 in log[j + 1:]:
            types.append(m2["type"])
            if m2.get("events"):
                return {"phase": view.get("phase"), "legal": legal,
                        "sequence": " ".join(types), "delay": t2 - t,
                        "next": [e["type"] for e in m2["events"]][:2]}
        return {"phase": view.get("phase"), "legal": legal,
                "sequence": " ".join(types + ["(end of log)"]), "delay": None}
    return None


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def summarize(rows: list[dict]) -> dict:
    delays = [r["delay"] * 1000 for r in rows if r["delay"] is not None]
    claim = sum(1 for r in rows if r["phase"] == "claim")
    lone_pass = sum(1 for r in rows if r["legal"] == ["pass"])

    def ms(x):
        return None if x is None else round(x, 1)

    return {"count": len(rows),
            "phase_claim_share": round(claim / len(rows), 4) if rows else None,
            "phases": dict(Counter(r["phase"] for r in rows)),
            "lone_pass_share": round(lone_pass / len(rows), 4) if rows else None,
            "sequences": dict(Counter(r["sequence"] for r in rows).most_common()),
            "next_events": dict(Counter("+".join(r.get("next", [])) or "-"
                                        for r in rows).most_common()),
            "delay_ms_median": ms(statistics.median(delays)) if delays else None,
            "delay_ms_mean": ms(statistics.fmean(delays)) if delays else None,
            "delay_ms_p10": ms(pct(delays, 0.10)), "delay_ms_p90": ms(pct(delays, 0.90)),
            "delay_ms_min": ms(min(delays)) if delays else None,
            "delay_ms_max": ms(max(delays)) if delays else None}


def run(args) -> dict:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    started = time.perf_counter()
    deadline = started + args.timeout
    with tempfile.TemporaryDirectory(prefix="kwx-window-") as tmp:
        config = ServerConfig(db_url=f"sqlite+aiosqlite:///{tmp}/w.db",
                              claim_window=args.window, bot_delay=args.bot_delay,
                              hand_pause=0, sqlite_synchronous="NORMAL")
        with ServerThread(config) as server:
            rooms = []
            for i in range(args.rooms):
                status, body = http("POST", f"{server.url}/api/rooms",
                                    {"nickname": f"observer{i}", "hands": args.hands,
                                     "seats": ["human", "heuristic", "heuristic"]})
                if status != 201 or body.get("seat") != 0:
                    raise RuntimeError(f"could not create a room: {status} {body}")
                rooms.append((body["code"], body["token"]))
            lock = threading.Lock()
            with Progress(TextColumn("[bold]hands played"), BarColumn(),
                          TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                          transient=True, disable=not sys.stderr.isatty() and
                          not args.progress) as progress:
                task = progress.add_task("hands", total=args.rooms * args.hands)

                def hand_end() -> None:
                    with lock:
                        progress.advance(task)

                observers = [Observer(server.ws, code, token, args.seed + k, deadline,
                                      args.idle, hand_end)
                             for k, (code, token) in enumerate(rooms)]
                for o in observers:
                    o.start()
                for o in observers:
                    o.join(max(0.0, deadline - time.perf_counter()) + args.idle + 5)
            played = time.perf_counter() - started
            records: dict[tuple[int, int], dict] = {}
            for k, o in enumerate(observers):
                if o.match_id is None:
                    continue
                hands_seen = sorted({m["hand"] for _, m in o.log if "hand" in m
                                     and m["type"] in ("update", "sync")})
                for number in hands_seen:
                    status, record = http("GET", f"{server.url}/api/hands/{o.match_id}/{number}",
                                          None, o.token)  # the record: its players' (R13)
                    if status == 200:
                        records[(k, number)] = record
    rows: dict[str, list[dict]] = {"claim": [], "none": []}
    excluded = unmatched = 0
    windows_flags = Counter()
    by_seat = Counter()
    for (k, number), record in sorted(records.items()):
        windows_flags[str(record.get("windows"))] += 1
        for d in discards_of(record):
            if d["observer"]:
                excluded += 1
                continue
            seen = observed(observers[k].log, number, d["n"])
            if seen is None:
                unmatched += 1
                continue
            group = "claim" if d["other"] else "none"
            by_seat[f"{group}:seat{d['seat']}"] += 1
            rows[group].append({**seen, "room": k, "hand": number, **d})
    summary = {g: summarize(rows[g]) for g, _ in GROUPS}
    m_claim, m_none = summary["claim"]["delay_ms_median"], summary["none"]["delay_ms_median"]
    return {"bench": "window", "rooms": args.rooms, "hands": args.hands,
            "window_s": args.window, "bot_delay_s": args.bot_delay,
            "hands_analyzed": len(records), "records_windows": dict(windows_flags),
            "discards_by_bots": sum(len(r) for r in rows.values()) + excluded + unmatched,
            "excluded_observer_option": excluded, "unmatched": unmatched,
            "by_seat": dict(by_seat), "groups": summary,
            "median_ratio": round(m_claim / m_none, 3) if m_claim is not None and m_none
            else None,
            "median_difference_ms": round(m_claim - m_none, 1)
            if m_claim is not None and m_none is not None else None,
            "observer_actions": sum(o.actions for o in observers),
            "observer_refused": dict(sum((o.refused for o in observers), Counter())),
            "observer_errors": [o.error for o in observers if o.error],
            "seconds": round(time.perf_counter() - started, 1), "play_seconds": round(played, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=4)
    parser.add_argument("--hands", type=int, default=2, help="hands per match (1-64)")
    parser.add_argument("--window", type=float, default=0.2,
                        help="ServerConfig.claim_window in s (production default 0.6)")
    parser.add_argument("--bot-delay", type=float, default=0.2,
                        help="ServerConfig.bot_delay in s (production default 0.6)")
    parser.add_argument("--seed", type=int, default=1, help="the observers' choices")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="the whole run stops after this many seconds")
    parser.add_argument("--idle", type=float, default=30.0,
                        help="an observer gives up after this long without a message")
    parser.add_argument("--progress", action="store_true",
                        help="show the progress bar even when stderr is not a terminal")
    args = parser.parse_args()
    result = run(args)
    print(f"{result['rooms']} rooms x {result['hands']} hands, claim window "
          f"{result['window_s']} s, bot delay {result['bot_delay_s']} s: "
          f"{result['hands_analyzed']} hands, {result['discards_by_bots']} discards by seats "
          f"1-2 ({result['excluded_observer_option']} left out: the observer held an option; "
          f"{result['unmatched']} not found in its log); records windows="
          f"{result['records_windows']}")
    for key, title in GROUPS:
        g = result["groups"][key]
        share = "-" if g["phase_claim_share"] is None else f"{100 * g['phase_claim_share']:.1f}%"
        lone = "-" if g["lone_pass_share"] is None else f"{100 * g['lone_pass_share']:.1f}%"
        print(f"\n{title}: {g['count']} discards")
        print(f"  phase claim in the discard's message: {share}  (phases {g['phases']}); "
              f"observer's legal a lone pass: {lone}")
        print("  messages until the next events: " +
              ", ".join(f"[{s}] x{c}" for s, c in g["sequences"].items()))
        print("  next events: " + ", ".join(f"{s} x{c}" for s, c in g["next_events"].items()))
        print(f"  delay to the next events, ms: median {g['delay_ms_median']}  p10 "
              f"{g['delay_ms_p10']}  p90 {g['delay_ms_p90']}  (mean {g['delay_ms_mean']}, "
              f"min {g['delay_ms_min']}, max {g['delay_ms_max']})")
    print(f"\nratio of medians (could claim / nobody): {result['median_ratio']}  "
          f"(difference {result['median_difference_ms']} ms)")
    if result["observer_errors"] or result["observer_refused"]:
        print(f"observer errors {result['observer_errors']}  refused "
              f"{result['observer_refused']}")
    print(f"run {result['seconds']} s (play {result['play_seconds']} s)")
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
