"""The extras of a win, paid on top of the hand value (VARIANTS.md R14-R16, R18.2-R18.3).

Each is a count of units, worked out from the finished hand (or the horse tiles) alone; who
pays it, how often and × which base is :mod:`kawuxing.payments`' business (R18.3 step 5).
Not multiplied, capped or doubled (R14.1, R15.1, R16.1).

- 买马 horses (R14): :func:`horse_tiles` picks them from the wall, :func:`horse_value` values
  them.
- 数坎 (R15): :func:`kan_count`.
- 跑恰摸八 (R16): :func:`pao_qia_mo_ba`, with :func:`ba_count` (八).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..tiles import DRAGON_BASE, NUM_KINDS, counts_of, is_dragon, tile_rank, tile_suit

if TYPE_CHECKING:
    from ..rules import RuleSet
    from . import WinningHand
    from ..shapes import Reading

DRAGON_HORSE = 10  # R14.2 `one`: a dragon horse is worth 10
SIX_HORSES = 6  # R14.2 `six`: up to six tiles; six taken and none scoring is worth 6


def horse_tiles(kind: str, wall: Sequence[int]) -> list[int]:
    """The horses a winner takes (R14.2) from ``wall``: the tiles left, in the order they are
    taken (R14.3 is the caller's: the next draws, or the far end last tile first).

    ``kind``: ``one`` (one tile), ``six`` (up to six) or ``one_plus_one`` (one; a 1 of a suit
    brings one more, once). Too few tiles: those left. Raises ``ValueError`` for another kind.
    """
    if kind == "one":
        return list(wall[:1])
    if kind == "six":
        return list(wall[:SIX_HORSES])
    if kind == "one_plus_one":
        first = list(wall[:1])
        if first and not is_dragon(first[0]) and tile_rank(first[0]) == 1:
            return list(wall[:2])
        return first
    raise ValueError(f"horse_kind {kind!r}: one, six or one_plus_one (R14.2)")


def horse_value(kind: str, tiles: Sequence[int], win_tile: int) -> int:
    """The value of the horses ``tiles`` (R14.2), in units.

    ``one``/``one_plus_one``: each tile its rank, a dragon 10, summed. ``six``: 1 per tile
    that is a dragon or of a rank ≡ the winning tile's (mod 3: 1-4-7, 2-5-8, 3-6-9); six
    taken and none scoring: 6. With a dragon winning tile (U3, not specified) only dragons
    score. Raises ``ValueError`` for another kind."""
    if kind in ("one", "one_plus_one"):
        return sum(DRAGON_HORSE if is_dragon(t) else tile_rank(t) for t in tiles)
    if kind != "six":
        raise ValueError(f"horse_kind {kind!r}: one, six or one_plus_one (R14.2)")
    klass = None if is_dragon(win_tile) else tile_rank(win_tile) % 3
    scoring = sum(1 for t in tiles if is_dragon(t) or tile_rank(t) % 3 == klass)
    if scoring == 0 and len(tiles) == SIX_HORSES:
        return SIX_HORSES
    return scoring


def kan_count(hand: WinningHand, reading: Reading, rules: RuleSet) -> int:
    """数坎 (R15.1-R15.4): the winner's kongs (any kind) + its concealed triplets.

    R15.2 ``kinds``: each kind with at least 3 among the concealed tiles and the winning tile;
    ``reading``: the pungs of ``reading`` (the R9.2 reading). R15.3 ``not_counted``: a
    triplet completed by a discarded (or robbed) winning tile is none. R15.4: a seven-pairs
    reading has none, or (``fours``) one per four in it. Exposed pungs never count."""
    counts = counts_of(hand.concealed)
    if reading.seven_pairs:
        if rules.shu_kan_seven_pairs != "fours":
            return 0
        counts[hand.win_tile] += 1
        return sum(1 for c in counts if c == 4)
    kongs = sum(1 for m in hand.melds if m.is_kong)
    before = counts[hand.win_tile]
    counts[hand.win_tile] += 1
    if rules.shu_kan_triplets == "kinds":
        triplets = [k for k in range(NUM_KINDS) if counts[k] >= 3]
    else:
        triplets = [s.tile for s in reading.sets if s.kind == "pung"]
    if rules.shu_kan_discard_triplet == "not_counted" and not hand.self_drawn and before < 3:
        triplets = [k for k in triplets if k != hand.win_tile]  # R15.3
    return kongs + len(triplets)


def ba_count(hand: WinningHand, rules: RuleSet) -> int:
    """八 (R16.2): ``all_tiles``: n = the winner's tiles (concealed, melds with a kong as 4,
    the winning tile) in its largest group, each suit and the dragons being one group, 八 =
    max(0, n − 7); ``per_suit``: the sum over the suits of max(0, n − 7) (dragons not
    counted); ``concealed``: as ``all_tiles`` over the concealed tiles and winning tile."""
    if rules.ba_count == "concealed":
        counts = counts_of(hand.concealed)
        counts[hand.win_tile] += 1
    else:
        counts = hand.held_counts()
    groups: dict[str, int] = {}
    for kind, c in enumerate(counts):
        group = "z" if kind >= DRAGON_BASE else tile_suit(kind)
        groups[group] = groups.get(group, 0) + c
    if rules.ba_count == "per_suit":
        return sum(max(0, n - 7) for g, n in groups.items() if g != "z")
    return max(0, max(groups.values()) - 7)


def pao_qia_mo_ba(hand: WinningHand, reading: Reading, rules: RuleSet) -> dict[str, int]:
    """跑恰摸八 (R16.1) of a win, in units: ``{"pao": 1, "qia": 坎 count (R15.1-R15.4, even
    with shu_kan off), "mo": 1 if self-drawn else 0, "ba": 八 (R16.2)}``."""
    return {"pao": 1, "qia": kan_count(hand, reading, rules), "mo": int(hand.self_drawn),
            "ba": ba_count(hand, rules)}
