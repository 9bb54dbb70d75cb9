"""The state of one hand of play: seats, wall, phase (RULES.md R3-R8). Data only, no rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..face_down import Group
from ..melds import Meld
from ..scoring import HandValue
from ..shapes import UNITS, pack
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

    :meth:`key` is the packed key of ``concealed`` (:func:`kawuxing.shapes.pack`, for
    :func:`kawuxing.shapes.is_win_key`), kept with a copy of the counts it was made from and
    made again whenever ``concealed`` differs from that copy: it can never be stale, whoever
    changed the list. :meth:`add` changes ``concealed`` and both at once, so that the engine's
    draws, discards, claims and kongs keep it current without packing the hand again.
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
    # pack(_snap) == _key always (every count of _snap 0-255); key() uses them only while
    # concealed == _snap. All zeros with key 0 is such a pair (a list of another length too).
    _snap: list[int] = field(init=False, repr=False, compare=False)
    _key: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._snap = [0] * len(self.concealed)

    def key(self) -> int:
        """The packed key of ``concealed`` (:func:`kawuxing.shapes.pack`: one byte a kind),
        always up to date; ``ValueError`` (from ``pack``) for a count outside 0-255."""
        counts = self.concealed
        if counts != self._snap:  # changed other than by add(): pack it again
            key = pack(counts)  # (raises before anything is kept)
            self._snap, self._key = list(counts), key
        return self._key

    def add(self, kind: int, n: int) -> None:
        """``concealed[kind] += n`` (``n`` < 0 takes tiles out), the packed key kept current
        (R4.1 draws and discards, R4.2 claims, R6 kongs, R7.4 a robbed tile)."""
        self.concealed[kind] += n
        snap = self._snap
        count = snap[kind] + n
        if 0 <= count <= 255:  # the key's byte of ``kind`` takes it without a carry
            unit = UNITS[kind]
            snap[kind] = count
            self._key += n * unit
        else:  # not a count a key holds: back to the all-zeros pair (key() packs again)
            self._snap, self._key = [0] * len(snap), 0

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
