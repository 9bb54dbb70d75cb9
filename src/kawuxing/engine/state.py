"""The state of one hand of play: seats, wall, phase (RULES.md R3-R8). Data only, no rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..face_down import Group
from ..melds import Meld
from ..scoring import HandValue
from ..tiles import tiles_of

PIAO_PHASE = "piao"  # R11.1: each seat picks its 漂
TURN = "turn"  # the seat in turn has drawn (or punged) and must win, kong or discard
CLAIM = "claim"  # a discard is on the table; seats with options answer (R4.3)
ROB = "rob"  # an added kong is being declared; seats that can win on it answer (R7.4)
ENDED = "ended"


@dataclass
class SeatState:
    """One player's part of the hand.

    ``concealed`` is a counts vector (30 ints). ``drawn`` is the tile just drawn this turn
    (None in the turn of a pung). ``missed`` holds the capped multipliers of wins passed since
    the player's own last draw (R7.5). ``waits``/``hidden`` are set by 亮倒 (R8.1): ``hidden``
    the face-down groups (:class:`~kawuxing.face_down.Group`; R8.6 triplets, R8.11 groups).
    ``passed_wins`` counts the wins a declared player passed this hand (R8.18).
    """

    concealed: list[int]
    melds: list[Meld] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    claimed: list[bool] = field(default_factory=list)  # discards[i] was taken by a pung/kong/win
    declared: bool = False
    waits: tuple[int, ...] = ()
    hidden: tuple[Group, ...] = ()
    drawn: int | None = None
    replacement: bool = False  # ``drawn`` came as a kong replacement (杠上开花)
    kong_turn: bool = False  # a kong was made in this turn (杠上炮 on the next discard)
    missed: list[int] = field(default_factory=list)
    piao: int | None = None
    passed_wins: int = 0

    def held(self) -> list[int]:
        """Counts of everything the player holds: concealed tiles and melds (R8.1)."""
        held = list(self.concealed)
        for m in self.melds:
            held[m.tile] += m.size
        return held

    def concealed_tiles(self) -> list[int]:
        """The concealed tiles as a sorted list of kinds."""
        return tiles_of(self.concealed)


@dataclass
class Pending:
    """A tile on the table that others may take: a discard (R4.3) or a kong being added (R7.4).

    ``options[seat]`` is the list of verbs that seat may answer (``pass`` implied);
    ``values[seat]`` the :class:`HandValue` of its win; ``answers`` what each seat said.
    """

    seat: int
    tile: int
    robbing: bool = False
    after_kong: bool = False
    last: bool = False  # the last discard: wall empty (R5.3)
    options: dict[int, list[str]] = field(default_factory=dict)
    values: dict[int, HandValue] = field(default_factory=dict)
    answers: dict[int, str] = field(default_factory=dict)
