"""Game records (JSON): enough to reproduce a hand exactly, and replay it to any step.

A record (``"format": "kawuxing-hand", "version": 2``) holds:

- ``rules``: every option (:meth:`RuleSet.to_dict`); ``dealer``; ``seed`` (or null);
- ``hands``: the three dealt hands (MPSZ), ``draws``: the draw order (MPSZ, the dealer's
  14th first), ``piao``: 漂 set before the hand or null;
- ``windows``: whether every discard opened a claim window (R13.2; the passes of seats
  without an option are then among the actions); false when missing;
- ``actions``: every accepted action as ``[seat, verb, tile?, "declare"?, [hidden]?]``;
- ``result``: ``null`` while in play, else the settlement (:func:`views.hand_result`);
- ``dice``, ``base_factor`` (R17.1 上楼, only when the rules have ``shang_lou``): the dice
  rolled at the deal and the hand's base factor; a record without them replays with none
  (dice rolled from the tiles, as the engine does) and factor 1;
- ``fairness`` (version 2): how the wall was made (R3.1, docs/fairness.md) —
  ``{"algorithm", "hand_id", "commitment", "seed", "entropy"}`` — or null (a given wall, a
  replay seed). ``kawuxing verify`` checks it (:func:`kawuxing.fairness.verify_record`).

Version 1 records (no ``fairness``) are still read and replayed. :func:`replay` gives the hand
at any step; :func:`replay_frames` every step as a seat, the public (a spectator) or the whole
table saw it, the frames replay viewers draw.

Records hold the wall: they are for after the hand, never for a player during it (R13).
"""

from __future__ import annotations

import json
from pathlib import Path

from .engine import Hand
from .engine.actions import IllegalAction, action_from_json
from .engine.views import (events_for_seat, hand_result, seat_view, spectator_view,
                           table_events, table_view)
from .rules import RuleSet
from .tiles import format_tiles, parse_tiles, tile_str

FORMAT = "kawuxing-hand"
VERSION = 2
READS = (1, 2)  # record versions replay() reads


def hand_record(hand: Hand, seed: int | str | None = None,
                fairness: dict | None = None) -> dict:
    """The JSON record of ``hand`` as it stands (see module doc); ``fairness``: the full
    fairness object of its wall (:func:`kawuxing.fairness.reveal`, with the seed: the record
    is for after the hand, R13), or None."""
    record = {"format": FORMAT, "version": VERSION, "rules": hand.rules.to_dict(),
              "dealer": hand.dealer, "seed": seed,
              "hands": [format_tiles(sorted(h)) for h in hand.initial_hands],
              "draws": " ".join(tile_str(t) for t in hand.draws),
              "piao": hand.initial_piao, "windows": hand.windows,
              "actions": [a.to_json() for a in hand.actions],
              "result": hand_result(hand) if hand.ended else None, "fairness": fairness}
    if hand.rules.shang_lou != "off":  # R17.1: what the deal showed
        record["dice"] = None if hand.dice is None else list(hand.dice)
        record["base_factor"] = hand.base_factor
    return record


def replay(record: dict, step: int | None = None) -> Hand:
    """The hand of ``record`` after its first ``step`` actions (all when None).

    Raises ``ValueError`` for a malformed record or a step out of range, and
    :class:`~kawuxing.engine.IllegalAction` if an action is refused (a corrupt record).
    """
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} record")
    if record.get("version") not in READS or type(record.get("version")) is not int:
        raise ValueError(f"record version {record.get('version')!r}: this reads "
                         f"{' and '.join(map(str, READS))}")
    for key, kind, what in (("rules", dict, "an object of options"), ("dealer", int, "a seat"),
                            ("hands", list, "three tile strings"), ("draws", str, "tiles"),
                            ("actions", list, "a list of actions")):
        if type(record.get(key)) is not kind:
            raise ValueError(f"record {key!r} must be {what}, got {record.get(key)!r:.60}")
    if len(record["hands"]) != 3 or not all(isinstance(h, str) for h in record["hands"]):
        raise ValueError("record 'hands' must be three tile strings")
    actions = record["actions"]
    if step is None:
        step = len(actions)
    if not isinstance(step, int) or not 0 <= step <= len(actions):
        raise ValueError(f"step {step!r}: the record has steps 0-{len(actions)}")
    rules = RuleSet.from_options(record["rules"])
    dice = record.get("dice")
    hand = Hand(rules, record["dealer"], [parse_tiles(h) for h in record["hands"]],
                parse_tiles(record["draws"]), record.get("piao"),
                windows=record.get("windows", False) is True,
                dice=None if dice is None else tuple(dice),
                base_factor=record.get("base_factor", 1))
    for i, raw in enumerate(actions[:step]):
        _apply(hand, raw, i)
    return hand


def _apply(hand: Hand, raw: object, i: int) -> None:
    """Apply the record's ``actions[i]``; an action the rules refuse is an
    :class:`IllegalAction` that names ``actions[i]`` (the hand untouched)."""
    action = action_from_json(raw, f"actions[{i}]")
    try:
        hand.apply(action)
    except IllegalAction as exc:
        raise IllegalAction(exc.action, exc.reason, exc.rule, f"actions[{i}]") from None


TABLE, PUBLIC = "table", "public"  # the perspectives of replay_frames besides a seat 0-2


def replay_frames(record: dict, perspective: int | str | None = TABLE) -> dict:
    """Every step of ``record`` as one perspective saw it, for replay viewers (R13).

    ``perspective``: a seat 0-2, :data:`PUBLIC` or :data:`TABLE` (None is :data:`TABLE`).
    Returns ``{"perspective", "rules" (the record's options: public, as a room shows them),
    "frames": [{"step": i, "view": ..., "events": [...]}, ...]}``:
    frame ``step`` is the hand after its first ``step`` actions (:func:`replay` ``(record,
    step)``; step 0 is the deal) and ``events`` the events that step caused (at step 0 the
    deal and the first draw).

    - a seat: one frame per step, ``len(record["actions"]) + 1`` in all, ``view`` that seat's
      :func:`~kawuxing.engine.views.seat_view`, events by
      :func:`~kawuxing.engine.views.events_for_seat`;
    - :data:`PUBLIC`: what a spectator (旁观) saw — :func:`~kawuxing.engine.views.spectator_view`
      and the events for seat None: no concealed tile of any seat before 亮倒 (R8.1) or the
      end, no draw's tile, no option. A step that changed nothing public (a pass in a claim
      window) has no frame of its own, so the frames tell no seat's options (R13.2): frames are
      step 0 and each step with an event;
    - :data:`TABLE`: every hand face up (:func:`~kawuxing.engine.views.table_view`,
      unfiltered events), one frame per step, only for the record of an ended hand.

    Raises ``ValueError`` for another perspective, for :data:`TABLE` with a hand not ended,
    and as :func:`replay` does for a malformed record;
    :class:`~kawuxing.engine.IllegalAction` for a corrupt one.
    """
    if perspective is None:
        perspective = TABLE
    if perspective not in (PUBLIC, TABLE) and (type(perspective) is not int
                                               or perspective not in (0, 1, 2)):
        raise ValueError(f"perspective {perspective!r}: seats are 0, 1 and 2 (or "
                         f"{PUBLIC!r}, {TABLE!r})")
    hand = replay(record, 0)
    actions = record["actions"]
    table = perspective == TABLE
    if table and record.get("result") is None:
        raise ValueError("the whole table is shown only for an ended hand: this record has "
                         "no result")

    def frame(step: int, since: int) -> dict | None:
        if table:
            return {"step": step, "view": table_view(hand), "events": table_events(hand, since)}
        if perspective == PUBLIC:
            events = events_for_seat(hand, None, since)
            if step and not events:
                return None
            return {"step": step, "view": spectator_view(hand), "events": events}
        return {"step": step, "view": seat_view(hand, perspective),
                "events": events_for_seat(hand, perspective, since)}

    frames = [frame(0, 0)]
    for i, raw in enumerate(actions):
        since = len(hand.events)
        _apply(hand, raw, i)
        frames.append(frame(i + 1, since))
    if table and not hand.ended:
        raise ValueError("the whole table is shown only for an ended hand: the record's "
                         "actions stop before the end")
    return {"perspective": perspective, "rules": record["rules"],
            "frames": [f for f in frames if f is not None]}


def write_record(path: str | Path, record: dict) -> None:
    """Write one record as pretty JSON (UTF-8)."""
    Path(path).write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")


def read_record(path: str | Path) -> dict:
    """Read a record written by :func:`write_record` (or one line of a JSONL file of them)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{path}: not UTF-8 text (byte {err.start})") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as err:
        raise ValueError(f"{path}: not JSON: {err}") from None
