"""The guided first hand (新手教程, issue 35): one scripted hand of the ``standard`` rules in which
a newcomer, seat 0 and dealer, makes the four moves a 卡五星 player makes most — a discard, a
pung (碰, R6.1), a 亮倒 (R8.1) and the win on the five between four and six (卡五星, R9.1) — while
the two other seats play the script's moves.

Everything a page shows is the engine's: :func:`guided_hand` deals the hand from a fixed wall,
plays the script through :class:`~kawuxing.engine.hand.Hand` (an illegal step would raise),
and returns its record, seat 0's frames (:func:`kawuxing.records.replay_frames`: the views
and events seat 0 saw, R13) and the lessons — the steps where the newcomer acts, each with
the action expected there (one of that frame's ``legal`` actions) and the name of its lesson,
which the client words in the page's language. No I/O, no clock, no OS randomness.
"""

from __future__ import annotations

from functools import lru_cache

from .engine.actions import action_from_json
from .engine.hand import Hand
from .records import hand_record, replay_frames
from .rules import RuleSet
from .tiles import COPIES, kinds_for_suits, parse_tiles

# Seat 0 holds 46p (the closed wait on 5p to come), two sets, 22p and 99p; its first draw 1p.
# Seat 1 discards 9p (seat 0 pungs it), then 7s; seat 2 discards 9s; seat 0 draws 5p.
HANDS = ("4p 6p 1s 2s 3s 7s 8s 9s 2p 2p 9p 9p 7z",
         "9p 3p 3p 5s 5s 6z 6z 8p 8p 4s 6s 7p 1s",
         "2s 4p 5z 5z 8s 3s 6p 7p 1s 4s 5s 6s 6z")
FIRST_DRAWS = "1p 2p 7s 9s 5p"  # seat 0's 14th, seat 1's two draws, seat 2's, seat 0's win
SCRIPT = ([0, "discard", "7z"], [1, "discard", "9p"], [0, "pung"],
          [0, "discard", "1p", "declare"], [1, "discard", "7s"], [2, "discard", "9s"],
          [0, "win"])
# the newcomer's steps (index into SCRIPT) and their lessons, in the order they come
LESSONS = {0: "discard", 2: "pung", 3: "declare", 6: "win"}


def _draws(rules: RuleSet) -> list[int]:
    """The first draws of the script, then every other tile of the set in a fixed order (the
    rest of the wall: the hand ends long before it runs out, so no 海底 pattern)."""
    first = parse_tiles(FIRST_DRAWS)
    rest = list(kinds_for_suits(rules.suits)) * COPIES
    for tile in [t for h in HANDS for t in parse_tiles(h)] + first:
        rest.remove(tile)
    return first + sorted(rest, key=lambda t: (t * 7) % 31)  # spread, not by kind


@lru_cache(maxsize=1)
def guided_hand() -> dict:
    """The guided hand: ``{"record", "rules", "frames", "lessons"}`` — ``record`` the hand's
    record (:func:`kawuxing.records.hand_record`), ``rules`` and ``frames`` seat 0's replay
    frames (frame ``i``: the hand after the script's first ``i`` actions), ``lessons``
    ``[{"step", "lesson", "action"}]``: at frame ``step`` the newcomer plays ``action`` (as
    JSON, one of that frame's ``view.legal``); ``lesson`` is ``discard``, ``pung``,
    ``declare`` or ``win``. Computed once."""
    rules = RuleSet.preset("standard")
    hand = Hand(rules, 0, [parse_tiles(h) for h in HANDS], _draws(rules), None, windows=False)
    for raw in SCRIPT:
        hand.apply(action_from_json(list(raw)))
    record = hand_record(hand)
    frames = replay_frames(record, 0)
    lessons = [{"step": step, "lesson": name, "action": list(SCRIPT[step])}
               for step, name in LESSONS.items()]
    return {"record": record, "rules": frames["rules"], "frames": frames["frames"],
            "lessons": lessons}
