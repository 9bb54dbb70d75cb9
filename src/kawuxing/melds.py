"""Declared melds (RULES.md R4.2, R6): a pung or one of the three kongs, of one tile kind."""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import TileError, parse_tile, tile_str

# Meld kinds (the JSON strings of views and records). Named MELD_* so that they never share a
# Python name with the action verbs of kawuxing.engine.actions (PUNG, CONCEALED_KONG, ...).
MELD_PUNG = "pung"  # 碰 R4.2
MELD_CONCEALED_KONG = "concealed_kong"  # 暗杠 R6.1
MELD_ADDED_KONG = "added_kong"  # 补杠 R6.2
MELD_EXPOSED_KONG = "exposed_kong"  # 直杠 R6.3
MELD_KINDS = (MELD_PUNG, MELD_CONCEALED_KONG, MELD_ADDED_KONG, MELD_EXPOSED_KONG)
MELD_KONGS = (MELD_CONCEALED_KONG, MELD_ADDED_KONG, MELD_EXPOSED_KONG)


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
        return 3 if self.kind == MELD_PUNG else 4

    @property
    def is_kong(self) -> bool:
        """True for the three kongs."""
        return self.kind != MELD_PUNG

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
