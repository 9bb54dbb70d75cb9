"""The events of a hand (docs/protocol.md): their type names and one constructor each.

An event is a JSON-ready dict with a ``type`` (one of :data:`TYPES`); tiles are MPSZ strings
(``"5p"``), seats 0-2. :class:`~kawuxing.engine.Hand` makes every event with these
constructors, so the shapes are written once. They are the full events; what a seat may see
of them (R13) is :func:`kawuxing.engine.views.event_for_seat`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..melds import Meld
from ..tiles import NUM_KINDS, format_tiles, tile_rank, tile_str, tile_suit
from ..scoring.transfers import Transfer

DEAL = "deal"
DRAW = "draw"
DISCARD = "discard"
DECLARE = "declare"
WAITS = "waits"
PUNG = "pung"
KONG = "kong"
ADDING_KONG = "adding_kong"
TRANSFER = "transfer"
WIN = "win"
PIAO_CHOSEN = "piao_chosen"
PIAO = "piao"
HAND_END = "hand_end"
SHANG_LOU = "shang_lou"
HORSES = "horses"
TYPES = (DEAL, DRAW, DISCARD, DECLARE, WAITS, PUNG, KONG, ADDING_KONG, TRANSFER, WIN,
         PIAO_CHOSEN, PIAO, HAND_END, SHANG_LOU, HORSES)


_NAMES = tuple(tile_str(k) for k in range(NUM_KINDS))  # kind -> MPSZ name
_SUITS = tuple(tile_suit(k) for k in range(NUM_KINDS))
_RANKS = tuple(str(tile_rank(k)) for k in range(NUM_KINDS))


def _name(tile: int) -> str:
    """:func:`~kawuxing.tiles.tile_str` by table (the same errors for a bad kind)."""
    return _NAMES[tile] if type(tile) is int and 0 <= tile < NUM_KINDS else tile_str(tile)


def _format(tiles: Iterable[int]) -> str:
    """:func:`~kawuxing.tiles.format_tiles` by table (the same string and errors)."""
    tiles = sorted(tiles)
    groups: dict[str, str] = {}
    for kind in tiles:
        if type(kind) is not int or not 0 <= kind < NUM_KINDS:
            return format_tiles(tiles)
        suit = _SUITS[kind]
        groups[suit] = groups.get(suit, "") + _RANKS[kind]
    return " ".join(digits + suit for suit, digits in groups.items())


def _tiles(kinds: Iterable[int]) -> list[str]:
    return [_name(k) for k in kinds]


def deal(dealer: int, hands: Sequence[Sequence[int]], wall: int) -> dict:
    """The deal (R3.1): ``hands`` the three dealt hands (kinds; MPSZ sorted in the event),
    ``wall`` the number of tiles to draw."""
    return {"type": DEAL, "dealer": dealer, "hands": [_format(h) for h in hands],
            "wall": wall}


def draw(seat: int, tile: int, replacement: bool, wall: int) -> dict:
    """A draw (R4.1); ``replacement``: a kong's replacement tile (R4.4); ``wall``: tiles left."""
    return {"type": DRAW, "seat": seat, "tile": _name(tile), "replacement": replacement,
            "wall": wall}


def discard(seat: int, tile: int, after_kong: bool) -> dict:
    """A discard; ``after_kong``: the first discard after the discarder's kong (杠上炮, R9.1)."""
    return {"type": DISCARD, "seat": seat, "tile": _name(tile), "after_kong": after_kong}


def declare(seat: int, shown: Iterable[int], hidden: int, waits: Iterable[int],
            hidden_tiles: int) -> dict:
    """亮倒 (R8.1): ``shown`` the concealed tiles now visible (kinds, in order), ``hidden`` how
    many groups stay face down (R8.6 triplets, R8.11 sets and a pair), ``hidden_tiles`` how
    many tiles they hold (never which), ``waits`` the kinds the hand waits on."""
    return {"type": DECLARE, "seat": seat, "tiles": _format(shown), "hidden": hidden,
            "hidden_tiles": hidden_tiles, "waits": _tiles(waits)}


def waits(seat: int, kinds: Iterable[int]) -> dict:
    """A declared hand's waits changed (R8.1: after a kong they are those of the hand now)."""
    return {"type": WAITS, "seat": seat, "waits": _tiles(kinds)}


def pung(seat: int, tile: int, source: int) -> dict:
    """A pung of ``source``'s discard (R4.2)."""
    return {"type": PUNG, "seat": seat, "tile": _name(tile), "from": source}


def kong(seat: int, kind: str, tile: int, source: int | None = None,
         auto: bool = False) -> dict:
    """A kong that counts (R6.1-R6.3): ``kind`` the meld kind; ``source`` the discarder of an
    exposed kong (the event has ``from`` only then); ``auto``: made by the engine under R8.19
    杀马 (the event has ``auto: true`` only then)."""
    event = {"type": KONG, "seat": seat, "kind": kind, "tile": _name(tile)}
    if source is not None:
        event["from"] = source
    if auto:
        event["auto"] = True
    return event


def adding_kong(seat: int, tile: int) -> dict:
    """An added kong declared, open to robbing before it counts (R6.2, R7.4)."""
    return {"type": ADDING_KONG, "seat": seat, "tile": _name(tile)}


def transfer(payment: Transfer) -> dict:
    """A payment (:class:`~kawuxing.scoring.transfers.Transfer`) in its JSON form: ``kind``, ``payer``,
    ``payee``, ``amount``, ``rule`` and the kind's parameters."""
    return {"type": TRANSFER, **payment.to_json()}


def win(seat: int, tile: int, by: str, source: int | None, patterns: list[str],
        multiplier: int, raw_multiplier: int, bao_hu: bool) -> dict:
    """A win (R7): ``by`` ``self_draw``/``discard``/``robbing_kong``, ``source`` the discarder
    or robbed konger (None on self-draw), ``patterns`` the Chinese names (empty for 屁胡),
    ``multiplier`` after the cap, ``raw_multiplier`` before it, ``bao_hu`` (R8.4)."""
    return {"type": WIN, "seat": seat, "tile": _name(tile), "by": by, "from": source,
            "patterns": list(patterns), "multiplier": multiplier,
            "raw_multiplier": raw_multiplier, "bao_hu": bao_hu}


def shang_lou(mode: str, dice: Sequence[int] | None, base_factor: int) -> dict:
    """上楼 at the deal (R17.1), shown to all: ``mode`` ``dice_doubles`` (``dice`` the two dice
    rolled, 豹子 when equal) or ``after_draw`` (``dice`` null); ``base_factor`` the hand's base
    ×1, ×2, ×4 … (``after_draw``: after 荒庄 or 一炮双响 in a row)."""
    return {"type": SHANG_LOU, "mode": mode, "dice": None if dice is None else list(dice),
            "base_factor": base_factor}


def horses(seat: int, tiles: Iterable[int], value: int) -> dict:
    """买马 (R14.1-R14.3): the horse tiles ``seat`` took from the wall after its self-draw win,
    shown to all, and their ``value`` (units each payer pays, R14.2)."""
    return {"type": HORSES, "seat": seat, "tiles": _tiles(tiles), "value": value}


def piao_chosen(seat: int) -> dict:
    """``seat`` picked its 漂 (R11.1); the value is told only once all three have."""
    return {"type": PIAO_CHOSEN, "seat": seat}


def piao(values: Sequence[int]) -> dict:
    """Every seat's 漂 (R11.1), once all three have picked."""
    return {"type": PIAO, "piao": list(values)}


def hand_end(result: str, winners: Sequence[int], deltas: Sequence[int], next_dealer: int,
             hands: Sequence[Iterable[int]], melds: Sequence[Sequence[Meld]]) -> dict:
    """The end of the hand: ``result`` ``win``/``draw``, the winners, each seat's score change
    (base units), the next dealer (R2.2), and every seat's concealed tiles (kinds) and melds."""
    return {"type": HAND_END, "result": result, "winners": list(winners),
            "deltas": list(deltas), "next_dealer": next_dealer,
            "hands": [_format(h) for h in hands],
            "melds": [[str(m) for m in ms] for ms in melds]}
