"""Discard hints: rank the discards of a hand with their reasons (shanten, effective tiles,
value of the waits). The heuristic bot plays by them; ``kawuxing hint`` prints them.

Counts are of the 30-kind universe (:mod:`kawuxing.tiles`). *Unseen* copies of a kind are
``4 - visible[kind]``, where ``visible`` counts everything the player can see, own hand
included (RULES.md R13): a hint never uses another player's hidden tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..melds import Meld
from ..rules import RuleSet
from ..scoring import DISCARD, SELF_DRAW, WinningHand, score_hand
from ..shapes import shanten, waits
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
    whose draw lowers the shanten, with the copies still unseen."""
    base = shanten(counts, melds)
    out = []
    for kind in kinds:
        left = unseen(visible, kind)
        if not left or counts[kind] >= 4:
            continue
        counts[kind] += 1
        try:
            if shanten(counts, melds) < base:
                out.append((kind, left))
        finally:
            counts[kind] -= 1
    return base, out


def wait_values(counts: list[int], melds: list[Meld], visible, rules: RuleSet,
                declared: bool = False) -> list[WaitValue]:
    """Each wait of a ready hand with its unseen copies and capped multipliers (R7.3, R9)."""
    held = list(counts)
    for m in melds:
        held[m.tile] += m.size
    concealed = tuple(tiles_of(counts))
    out = []
    for w in waits(counts, held):
        by_self = score_hand(WinningHand(concealed, w, SELF_DRAW, tuple(melds),
                                         declared=declared), rules)
        by_discard = score_hand(WinningHand(concealed, w, DISCARD, tuple(melds),
                                            declared=declared), rules)
        out.append(WaitValue(w, unseen(visible, w), by_self.multiplier,
                             by_discard.multiplier if by_discard.legal else 0))
    return out


def rank_discards(counts: list[int], melds: list[Meld], visible, rules: RuleSet,
                  danger: dict[int, float] | None = None,
                  candidates: list[int] | None = None) -> list[DiscardHint]:
    """Rank the discards of a hand of 14 − 3 × len(melds) concealed tiles, best first.

    ``visible``: counts of every tile the player can see (own hand included). ``danger``:
    optional penalty per kind (defence, see the heuristic bot). ``candidates``: the kinds
    allowed (default every kind held). Score = −shanten × 100 + effective copies + value of the
    waits when ready + a small bonus for keeping a one-suit hand (清一色) − danger.
    """
    kinds = kinds_for_suits(rules.suits)
    n_melds = len(melds)
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
            sh, eff = effective_tiles(counts, n_melds, visible, kinds)
            notes = []
            value = 0.0
            found: list[WaitValue] = []
            if sh == 0:
                found = wait_values(counts, melds, visible, rules)
                value = sum(w.unseen * (2 * w.self_draw + w.discard) for w in found) / 3
            score = -100 * sh + sum(n for _, n in eff) + value
            if flushy and (tile >= DRAGON_BASE or "mps"[tile // 9] != main_suit):
                score += 3
                notes.append("keeps the hand one suit (清一色)")
            if danger and danger.get(tile):
                score -= danger[tile]
                notes.append(f"danger {danger[tile]:.0f}")
            out.append(DiscardHint(tile, sh, tuple(eff), tuple(found), value, score,
                                   tuple(notes)))
        finally:
            counts[tile] += 1
    out.sort(key=lambda h: (-h.score, h.tile))
    return out
