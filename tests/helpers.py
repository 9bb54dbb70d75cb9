"""Helpers shared by the engine test files."""

from __future__ import annotations

import random

from kawuxing.rules import RuleSet
from kawuxing.tiles import COPIES, kinds_for_suits


def make_wall(rules: RuleSet, seed: int, clumpy: bool) -> list[int]:
    """84 tiles: shuffled, or runs of 1-4 equal/adjacent tiles shuffled as blocks (clumpy), so
    that kongs, 亮倒 and seven pairs come often."""
    rng = random.Random(seed)
    tiles = sorted(kinds_for_suits(rules.suits) * COPIES)
    if not clumpy:
        rng.shuffle(tiles)
        return tiles
    blocks, i = [], 0
    while i < len(tiles):
        n = rng.randint(1, 4)
        blocks.append(tiles[i:i + n])
        i += n
    rng.shuffle(blocks)
    return [t for b in blocks for t in b]
