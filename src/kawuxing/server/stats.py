"""A player's statistics from stored hands (issue 16): pure functions over what
:meth:`PlayerStore.history <kawuxing.server.playerstore.PlayerStore.history>` reads — the
settlement of every ended hand (:func:`kawuxing.engine.views.hand_result`) and the 亮倒 actions.

For each hand the player played (a seat of theirs, from the hand they sat down in to the one
they left in):

- won: the seat is among the ``winners`` (R7); ``multiplier``: its hand value's multiplier
  after the cap (R9.5); patterns: its value's pattern rows (屁胡 for none, R9.1);
- dealt in (放炮): the seat paid a win that was not a self-draw (on its discard, or its kong
  robbed: ``hand_value``/``bao_hu`` transfers, R7.2, R8.4);
- declared (亮倒, R8): the seat discarded with ``declare``; its outcome is ``won``,
  ``dealt_in``, ``draw`` (no winner, R10) or ``lost`` (another seat won, not on its discard);
- ``delta``: the seat's money in the hand (base units).

Rates are fractions (0-1) of the hands played, None with no hands; the average multiplier is
over the hands won (None without a win).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..scoring import SELF_DRAW
from ..scoring.transfers import WIN_KINDS
from .schema import MATCH_FINISHED

TOP_PATTERNS = 5


def played(sittings: Iterable[dict], hands: Iterable[dict]) -> list[dict]:
    """The ended hands of ``hands`` (``match_id``, ``number``, ``result``, ``ended_at``) the
    player played, each with its ``seat``, oldest first as given: a hand belongs to a sitting
    (``match_id``, ``seat``, ``first_hand``, ``last_hand``) when its number is within it."""
    spans: dict[str, list[tuple[int, int, int | None]]] = {}
    for s in sittings:
        spans.setdefault(s["match_id"], []).append((s["seat"], s["first_hand"], s["last_hand"]))
    out = []
    for h in hands:
        for seat, first, last in spans.get(h["match_id"], ()):
            if h["number"] >= first and (last is None or h["number"] <= last):
                out.append({**h, "seat": seat})
                break
    return out


def outcome(result: dict, seat: int) -> str:
    """What a hand was for ``seat``: ``won``, ``dealt_in``, ``draw`` or ``lost``."""
    if seat in result["winners"]:
        return "won"
    if not result["winners"]:
        return "draw"
    if any(t["kind"] in WIN_KINDS and t["payer"] == seat and t.get("win_by") != SELF_DRAW
           for t in result["transfers"]):
        return "dealt_in"
    return "lost"


def summary(hands: list[dict], declared: Iterable[tuple[str, int, int]]) -> dict:
    """The statistics of the hands a player played (:func:`played`) and the 亮倒 actions
    ``declared`` (``(match_id, hand number, seat)``): ``hands``, ``wins``, ``win_rate``,
    ``deal_ins``, ``deal_in_rate``, ``declares``, ``declare_rate``, ``declare_results``
    ({won, dealt_in, draw, lost}: counts), ``self_draws``, ``average_multiplier``,
    ``patterns`` (the :data:`TOP_PATTERNS` most frequent in the hands won: ``[{"key",
    "name", "count"}]``, most first, then by key) and ``best`` (the hand won for the most
    money: ``{"match_id", "number", "delta", "multiplier", "patterns": [keys]}``, or None),
    ``balance`` (the sum of the deltas)."""
    declared_set = set(declared)
    n = len(hands)
    wins = deal_ins = declares = self_draws = balance = 0
    multipliers: list[int] = []
    results: Counter = Counter()
    patterns: Counter = Counter()
    names: dict[str, str] = {}
    best = None
    for h in hands:
        result, seat = h["result"], h["seat"]
        delta = result["deltas"][seat]
        balance += delta
        what = outcome(result, seat)
        if (h["match_id"], h["number"], seat) in declared_set:
            declares += 1
            results[what] += 1
        if what == "dealt_in":
            deal_ins += 1
        if what != "won":
            continue
        wins += 1
        value = result["values"][str(seat)]
        self_draws += value["by"] == SELF_DRAW
        multipliers.append(value["multiplier"])
        for row in value["patterns"]:
            patterns[row["key"]] += 1
            names[row["key"]] = row["name"]
        if best is None or delta > best["delta"]:
            best = {"match_id": h["match_id"], "number": h["number"], "delta": delta,
                    "multiplier": value["multiplier"],
                    "patterns": [row["key"] for row in value["patterns"]]}
    rate = (lambda k: k / n) if n else (lambda k: None)
    top = sorted(patterns.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_PATTERNS]
    return {"hands": n, "wins": wins, "win_rate": rate(wins), "deal_ins": deal_ins,
            "deal_in_rate": rate(deal_ins), "declares": declares,
            "declare_rate": rate(declares),
            "declare_results": {k: results[k] for k in ("won", "dealt_in", "draw", "lost")},
            "self_draws": self_draws,
            "average_multiplier": sum(multipliers) / len(multipliers) if multipliers else None,
            "patterns": [{"key": k, "name": names[k], "count": c} for k, c in top],
            "best": best, "balance": balance}


def bots_faced(players: list[dict], seat: int) -> str | None:
    """The bots ``seat`` played against in a match of ``players`` (its stored ``players``:
    ``[{"seat", "kind", "bot", ...}]``, as the match started): the other two seats' bot specs
    when both are bots — ``"heuristic:2"`` for two alike, else both sorted and joined by
    ``+`` — or None (a person, or an outside program, sat there)."""
    others = [p for p in players if p.get("seat") != seat]
    if len(others) != 2 or any(p.get("kind") != "bot" or not p.get("bot") for p in others):
        return None
    specs = sorted(p["bot"] for p in others)
    return specs[0] if specs[0] == specs[1] else "+".join(specs)


def versus_bots(hands: list[dict], sittings: Iterable[dict],
                made_for: set[tuple[str, int, int]] = frozenset()) -> list[dict]:
    """The player's results against bots (issue 35): for each line-up of bots faced
    (:func:`bots_faced`), ``{"bots", "hands", "total", "per_hand"}`` — hands played against
    it (``hands`` from :func:`played`; those in ``made_for``, ``(match_id, number, seat)`` of
    hands the seat did not mostly play itself, left out), the sum of their deltas and its
    mean (base units a hand) — most hands first."""
    faced = {s["match_id"]: bots_faced(s["players"], s["seat"]) for s in sittings}
    totals: dict[str, list[int]] = {}
    for h in hands:
        key = faced.get(h["match_id"])
        if key is not None and (h["match_id"], h["number"], h["seat"]) not in made_for:
            totals.setdefault(key, []).append(h["result"]["deltas"][h["seat"]])
    rows = [{"bots": key, "hands": len(d), "total": sum(d), "per_hand": sum(d) / len(d)}
            for key, d in totals.items()]
    return sorted(rows, key=lambda r: (-r["hands"], r["bots"]))


def recent_players(sittings: list[dict], me: str, limit: int = 10) -> list[dict]:
    """The other players (with a player id) of the player ``me``'s finished matches (a match
    still being played is not yet one played together, issue 35), the most recent first:
    ``{"player_id", "name", "matches", "last_played"}`` (``name``: the nickname of their last
    match with ``me``; ``last_played``: its start), at most ``limit``."""
    seen: dict[str, dict] = {}
    for s in (s for s in sittings if s["status"] == MATCH_FINISHED):  # oldest first: a
        # later match overwrites the name and the time
        for p in s["players"]:
            pid = p.get("player_id")
            if pid and pid != me:
                row = seen.setdefault(pid, {"player_id": pid, "matches": 0})
                row.update(name=p.get("nickname"), last_played=s["started_at"])
                row["matches"] += 1
    rows = sorted(seen.values(), key=lambda r: r["last_played"], reverse=True)
    return rows[:limit]
