"""Declared melds (RULES.md R4.2, R6): a pung or one of the three kongs, of one tile kind."""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import TileError, parse_tile, tile_str

PUNG = "pung"
CONCEALED_KONG = "concealed_kong"  # 暗杠 R6.1
ADDED_KONG = "added_kong"  # 补杠 R6.2
EXPOSED_KONG = "exposed_kong"  # 直杠 R6.3
MELD_KINDS = (PUNG, CONCEALED_KONG, ADDED_KONG, EXPOSED_KONG)
KONGS = (CONCEALED_KONG, ADDED_KONG, EXPOSED_KONG)


@dataclass(frozen=True)
class Meld:
    """A declared set: ``kind`` one of :data:`MELD_KINDS`, ``tile`` its kind (int).

    A pung holds 3 tiles, a kong 4; every meld counts as one set of the hand (R7.1).
    """

    kind: str
    tile: int

    def __post_init__(self) -> None:
        if self.kind not in MELD_KINDS:
            raise ValueError(f"unknown meld kind {self.kind!r}; use one of {', '.join(MELD_KINDS)}")

    @property
    def size(self) -> int:
        """Tiles in the meld: 3 for a pung, 4 for a kong."""
        return 3 if self.kind == PUNG else 4

    @property
    def is_kong(self) -> bool:
        """True for the three kongs."""
        return self.kind != PUNG

    def __str__(self) -> str:
        return f"{self.kind}:{tile_str(self.tile)}"

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Read ``"pung:7p"`` / ``"concealed_kong:3s"`` (kind, colon, one tile).

        Raises ``ValueError`` (``TileError`` for the tile) saying which part is wrong.
        """
        kind, sep, tile = text.partition(":")
        if not sep:
            raise ValueError(f"bad meld {text!r}: write KIND:TILE, e.g. pung:7p")
        try:
            return cls(kind.strip(), parse_tile(tile.strip()))
        except TileError as err:
            raise TileError(f"bad meld {text!r}: {err}") from None
