"""The heuristic bot: plays 卡五星 by shanten, effective tiles, hand value and defence.

It is the fast, simple bot (and the rollout policy of stronger ones). Every level ranks its
discards with :func:`~kawuxing.agents.hints.rank_discards`, where a ready hand counts by the
live copies of its waits, not by shanten alone (a ready hand whose waits are dead ranks below
a 1-shanten hand with live effective tiles). It uses only its seat's :class:`Observation`
(R13), plus what it did itself (a kong just made).

- Level 1, speed only: shanten and effective tiles; pungs and kongs only when they do not
  slow the hand; never declares, no defence, 漂 always the lowest.
- Level 2 adds value: the multipliers of the waits (卡五星, 七对, 清一色 … and R7.3: a ×1 wait
  wins only by self-draw); pungs by the ranking's score; declares 亮倒 (R8) when an
  expected-value comparison says so (:mod:`kawuxing.agents.declare`); takes a concealed kong
  (R6.1, +2 from each player) unless it kills a live ready hand; a 漂 step with a 1-shanten
  deal (R11.1).
- Level 3 adds defence (:mod:`kawuxing.agents.defence`): never feeds a declared player's wait
  when anything else is legal, nor adds a kong a declared player would rob (R7.4); late in
  the wall, far from ready (or ready on dead waits, or unable to get ready in the draws left),
  it folds against the concealed players (seen tiles first, no 5 for 卡五星, no fourth tile of
  an exposed pung, not a flush-looking player's suit), and plays for safety alone once the
  hand can no longer win; right after its own kong it prefers safe tiles (杠上炮 ×2, R9.1);
  it raises 漂 with a good deal.
"""

from __future__ import annotations

import random

from ..engine.actions import (ADDED_KONG, CONCEALED_KONG, DISCARD, KONG, PASS, PIAO, PUNG, WIN,
                              Action)
from ..engine.observation import Observation
from ..melds import MELD_CONCEALED_KONG, MELD_EXPOSED_KONG, MELD_PUNG, Meld
from ..shapes import shanten
from ..tiles import DRAGONS, NUM_KINDS
from .declare import declare_gain, kept_waits
from .defence import danger
from .hints import DiscardHint, hand_score, rank_discards, unseen, wait_values

LATE_WALL = 30  # tiles left from which level 3 starts to fold when far from ready
FULL_FOLD_WALL = 6  # tiles left from which the fold is at full strength
FOLD_ONE_SHANTEN = 0.4  # how much a 1-shanten hand folds (a 2-shanten one: fully)
FOLD_AFTER_KONG = 0.6  # at least this much right after one's own kong (杠上炮)
HOPELESS_FOLD = 10.0  # a hand that can no longer win: safety alone decides
PUNG_MARGIN = 0.0  # level 2+: pung when the hand's score rises by more than this
PIAO_TOP_SHANTEN = 2  # level 3 漂: the top choice with a deal this close to ready (53% of deals)
PIAO_STEP_SHANTEN = 3  # level 3: one step up at this shanten with a pair of dragons
DECLARE_MARGIN = 0.0  # level 2+: declare 亮倒 when its expected gain exceeds this (base units)


class HeuristicAgent:
    """A rule-based bot of ``level`` 1-3 (see module doc); ``seed`` breaks no ties today but
    keeps the signature of every agent. Raises ``ValueError`` for another level."""

    name = "heuristic"

    def __init__(self, level: int = 3, seed: int | str | None = None) -> None:
        if level not in (1, 2, 3):
            raise ValueError(f"heuristic level {level!r}: use 1, 2 or 3")
        self.level = level
        self.rng = random.Random(seed)
        self._kong_wall: int | None = None  # wall_left when this bot last chose a kong

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """Win when legal; else choose 漂, claim, kong, declare or discard (module doc). The
        bot remembers its own kong to know that the next turn follows it (杠上炮, R9.1)."""
        after_kong = (self._kong_wall is not None and obs.drawn is not None
                      and obs.wall_left == self._kong_wall - 1)
        self._kong_wall = None
        action = self.decide(obs, legal, after_kong)
        if action.verb in (KONG, CONCEALED_KONG, ADDED_KONG):
            self._kong_wall = obs.wall_left
        return action

    def decide(self, obs: Observation, legal: list[Action], after_kong: bool = False) -> Action:
        """What :meth:`act` plays, with the state it keeps given instead: ``after_kong`` when
        this turn follows the seat's own kong (R9.1). Reads only ``obs`` (R13); keeps nothing
        (the expert's second opinion and its hints ask it this way)."""
        by_verb: dict[str, list[Action]] = {}
        for a in legal:
            by_verb.setdefault(a.verb, []).append(a)
        if WIN in by_verb:
            return by_verb[WIN][0]
        if PIAO in by_verb:
            return self._piao(obs, by_verb[PIAO])
        if obs.phase in ("claim", "rob"):
            return self._answer(obs, by_verb)
        return self._turn(obs, by_verb, after_kong)

    # --- 漂 (R11.1) ----------------------------------------------------------------------
    def _piao(self, obs: Observation, actions: list[Action]) -> Action:
        """漂 from the 13 dealt tiles (R11.1). Level 1: the lowest choice. Level 2: one step up
        with a 1-shanten deal or better. Level 3: the highest choice with a deal of
        :data:`PIAO_TOP_SHANTEN` or better (about half the deals), one step with a
        :data:`PIAO_STEP_SHANTEN` deal holding a pair of dragons (小三元 on the way; 4 pairs
        would make it 2-shanten already, 七对)."""
        actions = sorted(actions, key=lambda a: a.piao)
        if self.level == 1 or len(actions) == 1:
            return actions[0]
        counts = list(obs.concealed)
        sh = shanten(counts, 0)
        if self.level == 2:
            return actions[1] if sh <= 1 else actions[0]
        if sh <= PIAO_TOP_SHANTEN:
            return actions[-1]
        if sh <= PIAO_STEP_SHANTEN and any(counts[k] >= 2 for k in DRAGONS):
            return actions[1]
        return actions[0]

    # --- in one's turn -------------------------------------------------------------------
    def _turn(self, obs: Observation, by_verb: dict[str, list[Action]],
              after_kong: bool) -> Action:
        counts = list(obs.concealed)
        melds = _own_melds(obs)
        values = self.level >= 2
        candidates = sorted({a.tile for a in by_verb.get(DISCARD, []) if not a.declare})
        hints = rank_discards(counts, melds, obs.visible, obs.rules, None, candidates, values)
        plain = hints[0]  # the best discard for the hand alone
        if self.level >= 3:
            penalty = danger(obs, candidates, self._fold(obs, plain, after_kong))
            if penalty:
                hints = sorted(hints, key=lambda h: (-(h.score - penalty.get(h.tile, 0.0)),
                                                     h.tile))
        best = hints[0]
        if ADDED_KONG in by_verb:  # R6.2: each other player pays 1
            kong = by_verb[ADDED_KONG][0]
            # R7.4: a declared player waiting on the tile would rob the kong (抢杠胡 ×2, and
            # 包胡, R8.4); level 3 does not feed a declared wait this way either
            robbed = obs.rules.robbing_kong and any(
                kong.tile in waits for seat, waits in enumerate(obs.waits) if seat != obs.seat)
            if not (self.level >= 3 and robbed):
                return kong
        for action in by_verb.get(CONCEALED_KONG, []):  # R6.1: each other player pays 2
            counts[action.tile] -= 4
            after = hand_score(counts, melds + [Meld(MELD_CONCEALED_KONG, action.tile)],
                               obs.visible, obs.rules, values)
            counts[action.tile] += 4
            if self._takes_kong(plain, after):
                return action
        if self.level >= 2 and best.shanten == 0 and best.waits:
            declares = [a for a in by_verb.get(DISCARD, []) if a.declare and a.tile == best.tile]
            if declares and self._declares(obs, counts, melds, best):
                # the most live waits (R8.12 still_ready: a face-down triplet may cut them),
                # then the most tiles face down
                return max(declares, key=lambda a: (sum(unseen(obs.visible, w)
                                                        for w in kept_waits(obs, a)),
                                                    len(a.hidden)))
        return next(a for a in by_verb[DISCARD] if a.tile == best.tile and not a.declare)

    def _takes_kong(self, before: DiscardHint, after: DiscardHint) -> bool:
        """A kong (R6.1/R6.3) against the best play without it. Level 1: when it keeps the
        shanten. Level 2+: the kong money is sure, so always, unless it clearly breaks a
        better hand: a ready hand with live waits left not ready or with dead waits, or a
        hand two shanten slower."""
        if self.level == 1:
            return after.shanten <= before.shanten
        if before.shanten == 0 and _live(before) > 0:
            return after.shanten == 0 and _live(after) > 0
        return after.shanten <= before.shanten + 1

    def _declares(self, obs: Observation, counts: list[int], melds: list[Meld],
                  best: DiscardHint) -> bool:
        """亮倒 with the discard of ``best`` when its expected gain is positive
        (:func:`~kawuxing.agents.declare.declare_gain`)."""
        counts[best.tile] -= 1
        try:
            shown = wait_values(counts, melds, obs.visible, obs.rules, declared=True)
        finally:
            counts[best.tile] += 1
        return declare_gain(obs, best.waits, shown) > DECLARE_MARGIN

    def _fold(self, obs: Observation, plain: DiscardHint, after_kong: bool) -> float:
        """How much level 3 gives up for safety against the concealed players: 0 while the
        wall is long or the hand ready on live waits; rising to 1 as the wall runs out
        (:data:`LATE_WALL` to :data:`FULL_FOLD_WALL`) for a 2-shanten hand, partly for a
        1-shanten one; 1 for a ready hand on dead waits late in the wall; at least
        :data:`FOLD_AFTER_KONG` after its own kong; :data:`HOPELESS_FOLD` (safety alone
        counts) when the hand can no longer win: not ready, and no more draws left (about
        ``wall_left // 3``) than its shanten, or ready on dead waits with no draw left."""
        wall = obs.wall_left
        draws = wall // 3
        live = _live(plain)
        if plain.shanten >= 1 and plain.shanten >= draws or (
                plain.shanten == 0 and not live and draws == 0):
            return HOPELESS_FOLD
        late = min(1.0, max(0.0, (LATE_WALL - wall) / (LATE_WALL - FULL_FOLD_WALL)))
        if plain.shanten == 0:
            far = 0.0 if live else 1.0
        else:
            far = 1.0 if plain.shanten >= 2 else FOLD_ONE_SHANTEN
        fold = late * far
        if plain.shanten == 0 and not live and wall <= LATE_WALL:
            fold = 1.0
        if after_kong:
            fold = max(fold, FOLD_AFTER_KONG)
        return fold

    # --- answering a discard or a kong ---------------------------------------------------
    def _answer(self, obs: Observation, by_verb: dict[str, list[Action]]) -> Action:
        tile = obs.table[1]
        counts = list(obs.concealed)
        melds = _own_melds(obs)
        if self.level == 1:
            return self._answer_speed(counts, len(melds), tile, by_verb)
        now = hand_score(counts, melds, obs.visible, obs.rules)
        if KONG in by_verb:  # R6.3: the discarder pays
            counts[tile] -= 3
            after = hand_score(counts, melds + [Meld(MELD_EXPOSED_KONG, tile)], obs.visible,
                               obs.rules)
            counts[tile] += 3
            if self._takes_kong(now, after):
                return by_verb[KONG][0]
        if PUNG in by_verb and counts[tile] < 3:  # R6.4: a pung from three never becomes a kong
            counts[tile] -= 2
            hints = rank_discards(counts, melds + [Meld(MELD_PUNG, tile)], obs.visible,
                                  obs.rules)
            counts[tile] += 2
            if hints and hints[0].score > now.score + PUNG_MARGIN:
                return by_verb[PUNG][0]
        return by_verb[PASS][0]

    @staticmethod
    def _answer_speed(counts: list[int], melds: int, tile: int,
                      by_verb: dict[str, list[Action]]) -> Action:
        """Level 1: kong when it keeps the shanten, pung when it lowers it."""
        now = shanten(counts, melds)
        if KONG in by_verb:  # R6.3: the discarder pays
            counts[tile] -= 3
            after = shanten(counts, melds + 1)
            counts[tile] += 3
            if after <= now:
                return by_verb[KONG][0]
        if PUNG in by_verb and counts[tile] < 3:  # R6.4
            counts[tile] -= 2
            after = min(_after_discard(counts, t, melds + 1) for t in range(NUM_KINDS) if counts[t])
            counts[tile] += 2
            if after < now:
                return by_verb[PUNG][0]
        return by_verb[PASS][0]


def _live(hint: DiscardHint) -> int:
    """Unseen copies of a ready hand's waits (0 when not ready)."""
    return sum(w.unseen for w in hint.waits)


def _own_melds(obs: Observation) -> list[Meld]:
    return [Meld(kind, tile) for kind, tile in obs.melds[obs.seat]]


def _after_discard(counts: list[int], tile: int, melds: int) -> int:
    counts[tile] -= 1
    try:
        return shanten(counts, melds)
    finally:
        counts[tile] += 1
