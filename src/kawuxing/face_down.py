"""Face-down groups of a declared hand (RULES.md R8.6, VARIANTS.md R8.11, R8.12).

A declared player may keep part of the concealed hand face down: triplets chosen under R8.6
(扣牌), or under R8.11 ``declare_show = waiting_part`` (部分亮) every group common to all the
winning readings. A face-down group is *fixed*: it is never split and every later reading
(waits, the win check, scoring) holds it as it is; only a face-down pung may become a kong.

A :class:`Group` is ``(kind, tile)``: ``kind`` ``pung`` (three of ``tile``), ``chow`` (``tile``
and the next two ranks) or ``pair`` (two of ``tile``). A group equals the
:class:`~kawuxing.shapes.Set` of a reading with the same kind and tile (both are tuples), so a
reading's sets can be compared with groups directly. Counts vectors are 30 ints (tiles).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from .shapes import Reading, is_win, readings, waits

PUNG = "pung"
CHOW = "chow"
PAIR = "pair"
GROUP_KINDS = (PUNG, CHOW, PAIR)


class Group(NamedTuple):
    """One face-down group: ``kind`` (:data:`GROUP_KINDS`) and ``tile`` (the kind of a pung or
    pair, the lowest kind of a chow)."""

    kind: str
    tile: int

    def tiles(self) -> tuple[int, ...]:
        """The tile kinds of the group (3 for a pung or chow, 2 for a pair)."""
        if self.kind == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (2 if self.kind == PAIR else 3)


def pungs(kinds: Iterable[int]) -> tuple[Group, ...]:
    """R8.6: the face-down triplets ``kinds`` as pung groups."""
    return tuple(Group(PUNG, k) for k in kinds)


def without(counts: list[int], groups: Iterable[Group]) -> list[int] | None:
    """``counts`` less the tiles of ``groups`` (a new list; ``counts`` itself when there are no
    groups), or None when the counts do not hold them all."""
    groups = tuple(groups)
    if not groups:
        return counts
    rest = list(counts)
    for group in groups:
        for k in group.tiles():
            rest[k] -= 1
            if rest[k] < 0:
                return None
    return rest


def tile_count(groups: Iterable[Group]) -> int:
    """How many tiles ``groups`` hold (what the other seats see face down, R13.1)."""
    return sum(2 if g.kind == PAIR else 3 for g in groups)


def reading_groups(reading: Reading) -> list[Group]:
    """The groups of a standard reading: its sets and its pair (seven pairs: its pairs)."""
    if reading.seven_pairs:
        return [Group(PAIR, p) for p in reading.pairs]
    return [Group(s.kind, s.tile) for s in reading.sets] + [Group(PAIR, reading.pairs[0])]


def keeps(reading: Reading, groups: tuple[Group, ...]) -> bool:
    """R8.6/R8.11: ``reading`` holds every fixed group, with multiplicity; a seven-pairs
    reading holds none (R7.1: seven pairs have no sets, U9)."""
    if not groups:
        return True
    if reading.seven_pairs:
        return False
    have = Counter(reading_groups(reading))
    have.subtract(groups)
    return min(have.values()) >= 0


def is_fixed_win(counts: list[int], groups: tuple[Group, ...]) -> bool:
    """R7.1 with fixed groups: ``counts`` (concealed tiles with the winning tile) has a winning
    reading that holds every group of ``groups`` as it is."""
    if not groups:
        return is_win(counts)
    sets = tuple(g for g in groups if g.kind != PAIR)
    rest = without(counts, sets)
    if rest is None:
        return False
    pairs = [g.tile for g in groups if g.kind == PAIR]
    if not pairs:
        return is_win(rest)  # fewer than 14 tiles: never seven pairs
    return len(pairs) == 1 and any(not r.seven_pairs and r.pairs[0] == pairs[0]
                                   for r in readings(rest))


def fixed_waits(counts: list[int], groups: tuple[Group, ...],
                held: list[int] | None = None) -> list[int]:
    """R8.1 with fixed groups: the kinds that complete ``counts`` (13 − 3 × melds concealed
    tiles) into a win holding every group, kinds whose four copies ``held`` already has left
    out (``held`` as in :func:`kawuxing.shapes.waits`). Ascending kinds; [] when not ready."""
    if not groups:
        return waits(counts, held)
    rest = without(counts, tuple(g for g in groups if g.kind != PAIR))
    if rest is None:
        return []
    found = waits(rest, counts if held is None else held)
    if not any(g.kind == PAIR for g in groups):
        return found
    out = []
    for w in found:
        counts[w] += 1
        try:
            if is_fixed_win(counts, groups):
                out.append(w)
        finally:
            counts[w] -= 1
    return out


def waiting_part(counts: list[int], found: list[int]) -> tuple[Group, ...]:
    """R8.11 部分亮: the groups of the concealed hand ``counts`` (after the declaring discard)
    that stay face down, given its waits ``found``: the groups (sets and pairs) that occur,
    with multiplicity, in every winning reading of the hand plus ``w`` for every wait ``w``,
    not holding ``w`` (a reading marks one group that holds ``w``; each possible mark is a
    reading). Nothing when a wait has a seven-pairs reading (U9). Sorted groups."""
    common: Counter | None = None
    for w in found:
        counts[w] += 1
        try:
            found_readings = readings(counts)
        finally:
            counts[w] -= 1
        for reading in found_readings:
            if reading.seven_pairs:
                return ()  # U9
            groups = reading_groups(reading)
            for mark in set(groups):
                if w not in mark.tiles():
                    continue
                rest = Counter(groups)
                rest[mark] -= 1
                common = rest if common is None else common & rest
    if not common:
        return ()
    return tuple(sorted(common.elements()))
