"""Tiles of 卡五星 (RULES.md R1): kinds, notation in and out, counts vectors.

A tile kind is an ``int`` index into a fixed universe of 30 kinds, so that the option
``suits`` (R1.1: any two of 万/筒/条) needs no second numbering:

======  ======================  =========
index   kinds                   MPSZ
======  ======================  =========
0-8     1-9 万 (characters)      ``1m``-``9m``
9-17    1-9 筒/饼 (dots)         ``1p``-``9p``
18-26   1-9 条/索 (bamboo)       ``1s``-``9s``
27-29   白 发 中 (dragons)       ``5z`` ``6z`` ``7z``
======  ======================  =========

A game uses 21 of them (two suits and the dragons, :func:`kinds_for_suits`), four copies
each: 84 tiles. A *counts vector* is a list of 30 ints, ``counts[kind]`` = copies held.

Three notations are read by :func:`parse_tiles`: MPSZ (``"46p 123s 55z"``), Chinese names
(``五筒 5筒 五饼 三条 三索 九万 中 发 發 白``) and the Unicode mahjong tiles (🀙…🀡 筒, 🀐…🀘 条,
🀇…🀏 万, 🀄 中, 🀅 发, 🀆 白). Errors are :class:`TileError` (a ``ValueError``) naming the bad
part and its position.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import mul

NUM_KINDS = 30
SUIT_LETTERS = "mps"
SUIT_BASE = {"m": 0, "p": 9, "s": 18}
DRAGON_BASE = 27
WHITE, GREEN, RED = 27, 28, 29  # 白 发 中 = 5z 6z 7z
DRAGONS = (WHITE, GREEN, RED)
COPIES = 4

_SUIT_CHINESE = {"m": "万", "p": "筒", "s": "条"}
_DRAGON_CHINESE = {WHITE: "白", GREEN: "发", RED: "中"}
_NUMERALS = "一二三四五六七八九"
_SUIT_WORDS = {"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s"}
_DRAGON_WORDS = {"红中": RED, "紅中": RED, "中": RED, "发财": GREEN, "發財": GREEN, "发": GREEN,
                 "發": GREEN, "白板": WHITE, "白": WHITE}
_UNICODE_BASE = {0x1F007: "m", 0x1F019: "p", 0x1F010: "s"}
_UNICODE_DRAGONS = {0x1F004: RED, 0x1F005: GREEN, 0x1F006: WHITE}
_SEPARATORS = " \t\n,，、;；|+\ufe0e\ufe0f"  # and variation selectors (🀄️)


class TileError(ValueError):
    """A tile string or tile value that is not a valid 卡五星 tile (R1.1).

    The message names the bad part and its 0-based character position where there is one.
    """


def tile_suit(kind: int) -> str:
    """The suit letter of a kind: ``"m"``, ``"p"``, ``"s"`` or ``"z"`` (dragons)."""
    return "z" if kind >= DRAGON_BASE else SUIT_LETTERS[kind // 9]


def tile_rank(kind: int) -> int:
    """1-9 for a suited kind; 5, 6, 7 for 白 发 中 (their MPSZ digits)."""
    return kind - DRAGON_BASE + 5 if kind >= DRAGON_BASE else kind % 9 + 1


def is_dragon(kind: int) -> bool:
    """True for 白 发 中 (R1.1), which never form runs (R7.1)."""
    return kind >= DRAGON_BASE


def make_tile(rank: int, suit: str) -> int:
    """The kind of rank ``rank`` in suit ``suit`` (``m``/``p``/``s``, or ``z`` with rank 5-7).

    Raises :class:`TileError` for a rank or suit that is not a 卡五星 tile (there are no winds).
    """
    if suit in SUIT_BASE:
        if 1 <= rank <= 9:
            return SUIT_BASE[suit] + rank - 1
        raise TileError(f"{rank}{suit}: a suited tile's rank is 1-9")
    if suit == "z":
        if 5 <= rank <= 7:
            return DRAGON_BASE + rank - 5
        raise TileError(f"{rank}z is not a 卡五星 tile: only 5z 白, 6z 发, 7z 中 (no winds, R1.1)")
    raise TileError(f"unknown suit {suit!r}: use m (万), p (筒), s (条) or z (白发中)")


def kinds_for_suits(suits: Iterable[str] = ("p", "s")) -> tuple[int, ...]:
    """The 21 kinds in play for the two suits of option ``suits`` (R1.1), in index order."""
    kinds = [SUIT_BASE[s] + r for s in sorted(suits, key=SUIT_LETTERS.index) for r in range(9)]
    return tuple(kinds) + DRAGONS


def tile_str(kind: int) -> str:
    """MPSZ name of one kind, e.g. ``"5p"``, ``"7z"``. Raises :class:`TileError` for a value
    that is not a kind (0-29)."""
    if not (isinstance(kind, int) and 0 <= kind < NUM_KINDS):
        _check_kind(kind)  # raises
    return _TILE_NAMES[kind]  # a table: the views name every tile of every seat


def tile_chinese(kind: int) -> str:
    """Chinese name of one kind, e.g. ``"五筒"``, ``"三条"``, ``"中"``."""
    _check_kind(kind)
    if kind >= DRAGON_BASE:
        return _DRAGON_CHINESE[kind]
    return _NUMERALS[kind % 9] + _SUIT_CHINESE[tile_suit(kind)]


_SUIT_ENGLISH = {"p": "dots", "s": "bamboo", "m": "characters"}
_DRAGON_ENGLISH = ("white dragon", "green dragon", "red dragon")


def tile_english(kind: int) -> str:
    """The English name of a tile kind, as the web client says it: ``"5 dots"``, ``"1 bamboo"``,
    ``"red dragon"``. Raises :class:`TileError` for a bad kind."""
    _check_kind(kind)
    if is_dragon(kind):
        return _DRAGON_ENGLISH[kind - DRAGON_BASE]
    return f"{tile_rank(kind)} {_SUIT_ENGLISH[tile_suit(kind)]}"


def tile_unicode(kind: int) -> str:
    """The Unicode mahjong tile character of one kind, e.g. ``"🀝"`` for 5p."""
    _check_kind(kind)
    for dragon_cp, dragon in _UNICODE_DRAGONS.items():
        if dragon == kind:
            return chr(dragon_cp)
    base = next(cp for cp, s in _UNICODE_BASE.items() if s == tile_suit(kind))
    return chr(base + kind % 9)


def format_tiles(tiles: Iterable[int]) -> str:
    """MPSZ string of tiles, sorted and grouped by suit: ``[12, 14, 18] -> "46p 1s"``.
    Raises :class:`TileError` for a value that is not a kind."""
    counts = [0] * NUM_KINDS
    for kind in tiles:
        _check_kind(kind)
        counts[kind] += 1
    return format_counts(counts)


def format_counts(counts: list[int]) -> str:
    """MPSZ string of a counts vector (see :func:`format_tiles`; a count of 0 or less adds
    nothing). Raises :class:`TileError` when a count past the 30 kinds is positive."""
    if not isinstance(counts, (list, tuple)):
        counts = list(counts)
    parts = []
    for suit, ranks, first, last in _SUIT_RANKS:  # suits in kind order: m, p, s, z
        # a rank's character times its count ("" for 0 or less), the whole suit in C
        digits = "".join(map(mul, ranks, counts[first:last]))
        if digits:
            parts.append(digits + suit)
    for kind in range(NUM_KINDS, len(counts)):
        if counts[kind] > 0:
            _check_kind(kind)
    return " ".join(parts)


def parse_tile(text: str) -> int:
    """Exactly one tile in any notation of :func:`parse_tiles`; ``TileError`` otherwise."""
    tiles = parse_tiles(text, max_copies=COPIES)
    if len(tiles) != 1:
        raise TileError(f"{text!r}: expected exactly one tile, got {len(tiles)}")
    return tiles[0]


def parse_tiles(text: str, max_copies: int | None = COPIES) -> list[int]:
    """Read tiles in MPSZ, Chinese or Unicode notation (mixed freely) into a list of kinds.

    ``"46p 123s 55z"`` → 4p 6p 1s 2s 3s 白 白, in the written order. Spaces, commas and ``+``
    separate nothing and are ignored. With ``max_copies`` (default 4, R1.1) more copies of one
    kind is an error; pass ``None`` to allow any number.

    Raises :class:`TileError` naming the bad part and its position, e.g.
    ``bad tile string '46x': 'x' at position 2 is not a suit or tile``.
    """
    if not isinstance(text, str):
        raise TileError(f"expected a tile string, got {type(text).__name__}")
    tiles: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        cp = ord(ch)
        if cp in _UNICODE_DRAGONS:
            tiles.append(_UNICODE_DRAGONS[cp])
            i += 1
            continue
        uni = next(((s, cp - b) for b, s in _UNICODE_BASE.items() if 0 <= cp - b < 9), None)
        if uni:
            tiles.append(SUIT_BASE[uni[0]] + uni[1])
            i += 1
            continue
        word = next((w for w in _DRAGON_WORDS if text.startswith(w, i)), None)
        if word:
            tiles.append(_DRAGON_WORDS[word])
            i += len(word)
            continue
        if ch.isdecimal() or ch in _NUMERALS:
            start = i
            ranks = []  # (position, rank); separators inside the digits are ignored too: "4 6p"
            while i < n and (text[i].isdecimal() or text[i] in _NUMERALS or text[i] in _SEPARATORS):
                if text[i] not in _SEPARATORS:
                    ranks.append((i, int(text[i]) if text[i].isdecimal()
                                  else _NUMERALS.index(text[i]) + 1))
                i += 1
            if i >= n:
                raise TileError(f"bad tile string {_short(text)}: {text[start:].rstrip()!r} at position "
                                f"{start} has no suit (add m, p, s or z)")
            suit_ch = text[i]
            suit = suit_ch.lower() if suit_ch.lower() in "mpsz" else _SUIT_WORDS.get(suit_ch)
            if suit is None:
                raise TileError(f"bad tile string {_short(text)}: {suit_ch!r} at position {i} is not a"
                                " suit (m p s z, 万 筒 饼 条 索)")
            for pos, rank in ranks:
                try:
                    tiles.append(make_tile(rank, suit))
                except TileError as err:
                    raise TileError(f"bad tile string {_short(text)}: at position {pos}: {err}") from None
            i += 1
            continue
        raise TileError(f"bad tile string {_short(text)}: {ch!r} at position {i} is not a tile")
    if max_copies is not None:
        counts = counts_of(tiles)
        for kind, c in enumerate(counts):
            if c > max_copies:
                raise TileError(f"bad tile string {_short(text)}: {c} copies of {tile_str(kind)}, "
                                f"there are only {max_copies} (R1.1)")
    return tiles


def _short(text: str, limit: int = 60) -> str:
    """``repr`` of a tile string, cut to ``limit`` characters for error messages."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def counts_of(tiles: Iterable[int]) -> list[int]:
    """Counts vector (:data:`NUM_KINDS` = 30 ints) of a collection of kinds; the inverse of
    :func:`tiles_of`. Raises :class:`TileError` for a value that is not a kind (R1.1)."""
    counts = [0] * NUM_KINDS
    for kind in tiles:
        _check_kind(kind)
        counts[kind] += 1
    return counts


def tiles_of(counts: Iterable[int]) -> list[int]:
    """The kinds a counts vector holds, ascending, each as often as it is held:
    ``tiles_of(counts_of([14, 12, 14])) == [12, 14, 14]`` (the inverse of :func:`counts_of`;
    counts are not checked, a count of 0 or less gives no tile)."""
    return [kind for kind, count in enumerate(counts) for _ in range(count)]


def _check_kind(kind: int) -> None:
    if not isinstance(kind, int) or not 0 <= kind < NUM_KINDS:
        raise TileError(f"{kind!r} is not a tile kind (0-{NUM_KINDS - 1})")


_TILE_NAMES = tuple(f"{tile_rank(k)}{tile_suit(k)}" for k in range(NUM_KINDS))  # tile_str
_RANK_CHARS = tuple(str(tile_rank(k)) for k in range(NUM_KINDS))
# (suit letter, the rank characters of its kinds, its first kind, its end) for format_counts
_SUIT_RANKS = tuple((suit, _RANK_CHARS[first:last], first, last) for suit, first, last in
                    (("m", 0, 9), ("p", 9, 18), ("s", 18, DRAGON_BASE),
                     ("z", DRAGON_BASE, NUM_KINDS)))
