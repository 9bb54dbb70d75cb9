"""The heuristic bot: plays 卡五星 by shanten, effective tiles, hand value and defence.

Levels: 1 plays for speed only (shanten, effective tiles) and never declares; 2 adds the value
of the waits (卡五星, 七对, 清一色 … and R7.3: a ×1 wait only wins by self-draw) and declares
亮倒 when the waits are alive (R8); 3 adds defence: it does not feed a declared player's waits
unless nothing else is legal, and late in the wall, far from ready, it prefers tiles that are
mostly seen. It uses only its seat's :class:`Observation` (R13).
"""

from __future__ import annotations

import random

from ..engine.actions import (ADDED_KONG, CONCEALED_KONG, DISCARD, KONG, PASS, PIAO, PUNG, WIN,
                              Action)
from ..engine.observation import Observation
from ..melds import Meld
from ..shapes import shanten
from ..tiles import DRAGON_BASE, NUM_KINDS
from .hints import rank_discards, unseen

LATE_WALL = 20  # tiles left from which a far-from-ready hand starts to defend (level 3)


class HeuristicAgent:
    """A rule-based bot of ``level`` 1-3 (see module doc); ``seed`` breaks no ties today but
    keeps the signature of every agent."""

    name = "heuristic"

    def __init__(self, level: int = 3, seed: int | str | None = None) -> None:
        if level not in (1, 2, 3):
            raise ValueError(f"heuristic level {level!r}: use 1, 2 or 3")
        self.level = level
        self.rng = random.Random(seed)

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """Win when legal; else claim, kong, declare or discard as the module doc says."""
        by_verb: dict[str, list[Action]] = {}
        for a in legal:
            by_verb.setdefault(a.verb, []).append(a)
        if WIN in by_verb:
            return by_verb[WIN][0]
        if PIAO in by_verb:  # 漂 is a side bet: the bot does not raise it (R11.1)
            return min(by_verb[PIAO], key=lambda a: a.piao)
        if obs.phase in ("claim", "rob"):
            return self._answer(obs, by_verb)
        return self._turn(obs, by_verb)

    # --- in one's turn -------------------------------------------------------------------
    def _turn(self, obs: Observation, by_verb: dict[str, list[Action]]) -> Action:
        counts = list(obs.concealed)
        melds = _own_melds(obs)
        candidates = sorted({a.tile for a in by_verb.get(DISCARD, []) if not a.declare})
        danger = self._danger(obs, counts, len(melds)) if self.level >= 3 else None
        hints = rank_discards(counts, melds, obs.visible, obs.rules, danger, candidates)
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
            keeps = shanten(counts, len(melds) + 1) <= best.shanten
            counts[action.tile] += 4
            if keeps:
                return action
        if self.level >= 2 and best.shanten == 0:
            declares = [a for a in by_verb.get(DISCARD, []) if a.declare and a.tile == best.tile]
            live = sum(w.unseen for w in best.waits)
            # level 3: once another player has declared, a declared hand must discard every
            # draw (R8.2) and would feed them at double (R8.4): stay concealed instead
            exposed = self.level >= 3 and any(d for i, d in enumerate(obs.declared)
                                              if i != obs.seat)
            if declares and not exposed and (live >= 3 or (live >= 2 and obs.wall_left > 12)):
                return max(declares, key=lambda a: len(a.hidden))
        return next(a for a in by_verb[DISCARD] if a.tile == best.tile and not a.declare)

    def _danger(self, obs: Observation, counts: list[int], melds: int) -> dict[int, float]:
        """Penalty per kind: a declared player's wait (R8.1) always; late in the wall, when far
        from ready, tiles with unseen copies (a 5, the 卡五星 tile, most of all)."""
        danger: dict[int, float] = {}
        for seat, waits in enumerate(obs.waits):
            if seat != obs.seat:
                for w in waits:
                    danger[w] = danger.get(w, 0) + 1000
        if obs.wall_left <= LATE_WALL and shanten(counts, melds) >= 2:
            pressure = (LATE_WALL - obs.wall_left + 5) / 5
            for kind, c in enumerate(counts):
                if c:
                    middle = kind < DRAGON_BASE and 3 <= kind % 9 + 1 <= 7
                    danger[kind] = danger.get(kind, 0) + pressure * unseen(obs.visible, kind) * (
                        2.0 if middle else 1.0)
        return danger

    # --- answering a discard or a kong ---------------------------------------------------
    def _answer(self, obs: Observation, by_verb: dict[str, list[Action]]) -> Action:
        tile = obs.table[1]
        counts = list(obs.concealed)
        melds = len(obs.melds[obs.seat])
        now = shanten(counts, melds)
        if KONG in by_verb:  # R6.3: the discarder pays
            counts[tile] -= 3
            after = shanten(counts, melds + 1)
            counts[tile] += 3
            if after <= now:
                return by_verb[KONG][0]
        if PUNG in by_verb and counts[tile] < 3:  # R6.4: a pung from three never becomes a kong
            counts[tile] -= 2
            after = min(_after_discard(counts, t, melds + 1) for t in range(NUM_KINDS) if counts[t])
            counts[tile] += 2
            if after < now:
                return by_verb[PUNG][0]
        return by_verb[PASS][0]


def _own_melds(obs: Observation) -> list[Meld]:
    return [Meld(kind, tile) for kind, tile in obs.melds[obs.seat]]


def _after_discard(counts: list[int], tile: int, melds: int) -> int:
    counts[tile] -= 1
    try:
        return shanten(counts, melds)
    finally:
        counts[tile] += 1
