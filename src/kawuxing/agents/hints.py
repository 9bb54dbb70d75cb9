"""Discard hints: rank the discards of a hand with their reasons (shanten, effective tiles,
value of the waits). The heuristic bot plays by them; ``kawuxing hint`` prints them.

Counts are of the 30-kind universe (:mod:`kawuxing.tiles`). *Unseen* copies of a kind are
``4 - visible[kind]``, where ``visible`` counts everything the player can see, own hand
included (RULES.md R13): a hint never uses another player's hidden tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..melds import Meld
from ..rules import RuleSet
from ..scoring import DISCARD, SELF_DRAW, WinningHand, score_hand
from ..shapes import draw_shanten, waits
from ..tiles import DRAGON_BASE, kinds_for_suits, tile_str, tiles_of


@dataclass(frozen=True)
class WaitValue:
    """One wait of a ready hand: ``tile``, ``unseen`` copies, the capped multiplier by
    self-draw and on a discard (0 when a discard win is not legal, R7.3)."""

    tile: int
    unseen: int
    self_draw: int
    discard: int


@dataclass(frozen=True)
class DiscardHint:
    """A candidate discard: ``tile``; ``shanten`` of the hand left (0 = ready); ``effective``:
    (kind, unseen copies) of the tiles that would lower the shanten; ``waits`` when ready;
    ``value``: unseen-weighted multipliers of the waits (self-draw counted twice, as both
    others pay); ``score``: the ranking key (higher is better)."""

    tile: int
    shanten: int
    effective: tuple[tuple[int, int], ...]
    waits: tuple[WaitValue, ...] = ()
    value: float = 0.0
    score: float = 0.0
    notes: tuple[str, ...] = field(default=())

    @property
    def effective_count(self) -> int:
        """Unseen copies of all effective tiles."""
        return sum(n for _, n in self.effective)

    def reason(self) -> str:
        """One line explaining the rank, e.g. ``"ready, waits 5p (3 left, ×2/×2)"``."""
        if self.shanten == 0:
            parts = [f"{tile_str(w.tile)} ({w.unseen} left, ×{w.self_draw} self-draw, "
                     + (f"×{w.discard} on a discard)" if w.discard else "self-draw only)")
                     for w in self.waits]
            text = "ready, waits " + "; ".join(parts) if parts else "ready, but every wait is gone"
        else:
            tiles = " ".join(tile_str(k) for k, _ in self.effective)
            text = (f"{self.shanten}-shanten, {self.effective_count} effective tiles"
                    f" ({len(self.effective)} kinds: {tiles})")
        return "; ".join((text,) + self.notes)


def unseen(visible: list[int] | tuple[int, ...], kind: int) -> int:
    """Copies of ``kind`` the player has not seen (0-4)."""
    return max(0, 4 - visible[kind])


def effective_tiles(counts: list[int], melds: int, visible, kinds) -> tuple[int, list[tuple]]:
    """(shanten, [(kind, unseen)]) of a 13 − 3 × ``melds`` tile hand: the kinds among ``kinds``
    whose draw lowers the shanten (:func:`~kawuxing.shapes.draw_shanten`, R7.1), with the
    copies still unseen (a kind with none unseen is left out)."""
    base, after = draw_shanten(counts, melds)
    return base, [(kind, 4 - visible[kind]) for kind in kinds
                  if visible[kind] < 4 and after[kind] is not None and after[kind] < base]


def wait_values(counts: list[int], melds: list[Meld], visible, rules: RuleSet,
                declared: bool = False) -> list[WaitValue]:
    """Each wait of a ready hand with its unseen copies and capped multipliers (R7.3, R9)."""
    return [WaitValue(w, unseen(visible, w), by_self, by_discard)
            for w, by_self, by_discard in wait_multipliers(bytes(counts), tuple(melds), rules,
                                                           declared)]


@lru_cache(maxsize=1 << 15)
def wait_multipliers(counts: bytes, melds: tuple[Meld, ...], rules: RuleSet,
                     declared: bool) -> tuple[tuple[int, int, int], ...]:
    """``(wait, ×self-draw, ×discard)`` for each wait (R8.1) of the concealed hand ``counts``
    (30 bytes) beside ``melds``: the capped multipliers (R9, R9.5) of a self-draw and of a
    discard win (0 where a discard win is not allowed, R7.3); ``declared``: the hand has
    declared 亮倒 (R8.4). A bounded cache: a hand's waits are scored once."""
    concealed = list(counts)
    held = list(concealed)
    for m in melds:
        held[m.tile] += m.size
    tiles = tuple(tiles_of(concealed))
    out = []
    for w in waits(concealed, held):
        by_self = score_hand(WinningHand(tiles, w, SELF_DRAW, melds, declared=declared), rules)
        by_discard = score_hand(WinningHand(tiles, w, DISCARD, melds, declared=declared), rules)
        out.append((w, by_self.multiplier, by_discard.multiplier if by_discard.legal else 0))
    return tuple(out)


READY_LINEAR = 5.0  # ready_equivalent: effective tiles per live copy, + READY_CUBIC × live³
READY_CUBIC = 1 / 3


def ready_equivalent(live: int) -> float:
    """What a ready hand with ``live`` unseen copies of its waits is worth in effective tiles
    of a 1-shanten hand (the ranking's scale, see :func:`hand_score`): a ready hand whose
    waits are all dead (0 live, R8.1: every copy seen or held) is worth less than any
    1-shanten hand with a live effective tile (−1); 1 live copy about 5 effective tiles, 3
    about 24, 6 or more beats every 1-shanten hand (≥ 100). The curve is the chance to win
    in about ten draws from some 50 unseen tiles, ready now or after one more useful draw."""
    if live <= 0:
        return -1.0
    return READY_LINEAR * live + READY_CUBIC * live ** 3


def wait_value(found: list[WaitValue] | tuple[WaitValue, ...]) -> float:
    """Unseen-weighted multipliers of the waits, self-draw counted twice (both others pay,
    R7.2) and a discard win once (0 when not legal, R7.3), over 3 (base units × copies)."""
    return sum(w.unseen * (2 * w.self_draw + w.discard) for w in found) / 3


def hand_score(counts: list[int], melds: list[Meld], visible, rules: RuleSet,
               values: bool = True, kinds=None) -> DiscardHint:
    """Score a hand of 13 − 3 × len(melds) concealed tiles (no tile to discard), as a
    :class:`DiscardHint` whose ``tile`` is −1. Higher is better:

    - not ready: −100 × shanten + unseen copies of the effective tiles;
    - ready: −100 + :func:`ready_equivalent` (live copies of the waits) + (with ``values``)
      :func:`wait_value` — live waits, not shanten alone: a ready hand with dead waits ranks
      below a 1-shanten hand with a live effective tile.

    ``values`` False (speed only, heuristic level 1) skips the scoring of the waits (their
    multipliers are then 0 in ``waits``).
    """
    kinds = kinds if kinds is not None else kinds_for_suits(rules.suits)
    sh, eff = effective_tiles(counts, len(melds), visible, kinds)
    found: tuple[WaitValue, ...] = ()
    value = 0.0
    if sh == 0:
        if values:
            found = tuple(wait_values(counts, melds, visible, rules))
            value = wait_value(found)
        else:
            found = tuple(WaitValue(k, n, 0, 0) for k, n in eff)
        score = -100 + ready_equivalent(sum(w.unseen for w in found)) + value
    else:
        score = -100 * sh + sum(n for _, n in eff)
    return DiscardHint(-1, sh, tuple(eff), found, value, score)


def rank_discards(counts: list[int], melds: list[Meld], visible, rules: RuleSet,
                  danger: dict[int, float] | None = None,
                  candidates: list[int] | None = None, values: bool = True) -> list[DiscardHint]:
    """Rank the discards of a hand of 14 − 3 × len(melds) concealed tiles, best first.

    ``visible``: counts of every tile the player can see (own hand included). ``danger``:
    optional penalty per kind (defence, see the heuristic bot). ``candidates``: the kinds
    allowed (default every kind held). Score = :func:`hand_score` of the hand left (shanten,
    effective copies; a ready hand by the live copies of its waits and their value) + a small
    bonus for keeping a one-suit hand (清一色) − danger. ``values`` False: no value of the
    waits and no 清一色 bonus (speed only).
    """
    kinds = kinds_for_suits(rules.suits)
    flushy = False
    if values:
        suit_count = {s: 0 for s in rules.suits}
        for k, c in enumerate(counts):
            if c and k < DRAGON_BASE:
                suit_count["mps"[k // 9]] += c
        for m in melds:
            if m.tile < DRAGON_BASE:
                suit_count["mps"[m.tile // 9]] += m.size
        main_suit = max(suit_count, key=suit_count.get)
        flushy = suit_count[main_suit] >= 9
    out = []
    for tile in candidates if candidates is not None else [k for k in kinds if counts[k]]:
        counts[tile] -= 1
        try:
            h = hand_score(counts, melds, visible, rules, values, kinds)
            notes = []
            score = h.score
            if flushy and (tile >= DRAGON_BASE or "mps"[tile // 9] != main_suit):
                score += 3
                notes.append("keeps the hand one suit (清一色)")
            if danger and danger.get(tile):
                score -= danger[tile]
                notes.append(f"danger {danger[tile]:.0f}")
            out.append(DiscardHint(tile, h.shanten, h.effective, h.waits, h.value, score,
                                   tuple(notes)))
        finally:
            counts[tile] += 1
    out.sort(key=lambda h: (-h.score, h.tile))
    return out
