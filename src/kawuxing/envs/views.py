"""The observation planes rebuilt from what a bot is told: a bot-protocol ``view``
(docs/bot-protocol.md, :func:`kawuxing.engine.views.seat_view`) back into the
:class:`~kawuxing.engine.observation.Observation` it renders, and so into the same tensor the
environments give (:mod:`kawuxing.envs.tensors`). For bots written outside the project that
load a policy trained on the envs, and for :class:`~kawuxing.agents.policy.PolicyAgent`.

Row 10 of the observer (its own tiles shown by 亮倒, R8.1) is not in its view or Observation:
a seat knows it from its own 亮倒 — the ``declare`` event's ``tiles``, or the face-down tiles it
chose (``hidden``, R8.6). :func:`seat_shown` computes it from those face-down tiles.
"""

from __future__ import annotations

import numpy as np

from ..engine.observation import Observation
from ..engine.state import ENDED, ROB
from ..melds import MELD_KINDS
from ..rules import RuleSet
from ..tiles import COPIES, NUM_KINDS, TileError, parse_tile, parse_tiles
from .tensors import PHASES, observation_tensor


class ViewError(ValueError):
    """A view that is not a seat view of the bot protocol: names the key that is wrong."""


def _counts(text: str, where: str) -> tuple[int, ...]:
    counts = [0] * NUM_KINDS
    try:
        for kind in parse_tiles(text or ""):
            counts[kind] += 1
    except (TileError, TypeError) as exc:
        raise ViewError(f"{where}: {exc}") from None
    return tuple(counts)


def _tile(text: object, where: str) -> int:
    try:
        return parse_tile(text)
    except (TileError, TypeError, AttributeError) as exc:
        raise ViewError(f"{where}: {exc}") from None


def _seat_number(value: object, where: str, none: bool = False) -> int | None:
    if value is None and none:
        return None
    if type(value) is not int or value not in (0, 1, 2):
        raise ViewError(f"{where}: 0, 1 or 2{' or null' if none else ''}, got {value!r}")
    return value


def _check_shape(view: object) -> None:
    """The keys whose values the tensor indexes by: a dict view, ``phase`` one of the
    engine's, three ``seats`` objects, ``dealer`` and ``turn`` seats, ``unseen`` an object."""
    if not isinstance(view, dict):
        raise ViewError(f"view: a JSON object, got {type(view).__name__}")
    if view.get("phase") not in PHASES:
        raise ViewError(f"view.phase: one of {', '.join(PHASES)}, got {view.get('phase')!r}")
    seats = view.get("seats")
    if not isinstance(seats, list) or len(seats) != 3 or not all(
            isinstance(s, dict) for s in seats):
        raise ViewError("view.seats: a list of three objects, one a seat")
    _seat_number(view.get("dealer"), "view.dealer")
    _seat_number(view.get("turn"), "view.turn", none=True)
    if not isinstance(view.get("unseen"), dict):
        raise ViewError("view.unseen: an object of tile -> copies not seen")
    for i, entry in enumerate(seats):
        melds = entry.get("melds")
        if not isinstance(melds, list) or not all(
                isinstance(m, dict) and m.get("kind") in MELD_KINDS for m in melds):
            raise ViewError(f"view.seats[{i}].melds: a list of {{kind, tile}} with a kind of "
                            f"{', '.join(MELD_KINDS)}")


def observation_from_view(view: dict, rules: RuleSet) -> Observation:
    """The :class:`Observation` that ``view`` (a seat's view, JSON-decoded) renders, under
    ``rules`` (the ``start_hand`` message's ``rules``: ``RuleSet.from_dict``). ``view.hand``
    holds the drawn tile too (``view.drawn`` names it). Raises :class:`ViewError` naming the
    key for a view that is not a seat's (a spectator's has no ``hand``)."""
    _check_shape(view)
    try:
        seat = view["seat"]
        if type(seat) is not int or seat not in (0, 1, 2):
            raise ViewError(f"view.seat: 0, 1 or 2, got {seat!r} (a spectator's view?)")
        seats = view["seats"]
        melds, discards, claimed, declared, waits, revealed, hidden, count, piao = (
            [], [], [], [], [], [], [], [], [])
        for i, entry in enumerate(seats):
            where = f"view.seats[{i}]"
            melds.append(tuple((m["kind"], None if m["tile"] is None
                                else _tile(m["tile"], f"{where}.melds"))
                               for m in entry["melds"]))
            discards.append(tuple(_tile(t, f"{where}.discards") for t in entry["discards"]))
            claimed.append(tuple(bool(c) for c in entry["claimed"]))
            declared.append(bool(entry["declared"]))
            waits.append(tuple(_tile(t, f"{where}.waits") for t in entry.get("waits", ())))
            shown = entry.get("revealed")
            revealed.append(None if shown is None or i == seat
                            else _counts(shown, f"{where}.revealed"))
            hidden.append(int(entry.get("hidden_tiles", 0)) if view["phase"] != ENDED else 0)
            count.append(int(entry["concealed_count"]))
            piao.append(entry["piao"])
        visible = [0] * NUM_KINDS
        for code, unseen in view["unseen"].items():
            visible[_tile(code, "view.unseen")] = COPIES - int(unseen)
        table = view.get("table")
        if table is not None:
            table = (int(table["seat"]), _tile(table["tile"], "view.table"),
                     bool(table["robbing"]))
        drawn = view.get("drawn")
        return Observation(
            rules=rules, seat=seat, dealer=int(view["dealer"]), phase=view["phase"],
            turn=view["turn"], wall_left=int(view["wall"]),
            concealed=_counts(view["hand"], "view.hand"),
            drawn=None if drawn is None else _tile(drawn, "view.drawn"),
            melds=tuple(melds), discards=tuple(discards), claimed=tuple(claimed),
            declared=tuple(declared), waits=tuple(waits), revealed=tuple(revealed),
            hidden_tiles=tuple(hidden), concealed_count=tuple(count), visible=tuple(visible),
            table=table, deltas=tuple(int(d) for d in view["deltas"]), piao=tuple(piao),
            dice=None if view.get("dice") is None else tuple(view["dice"]),
            base_factor=int(view.get("base_factor", 1)))
    except KeyError as exc:
        raise ViewError(f"view: no key {exc.args[0]!r} (a seat's view of the bot protocol, "
                        f"docs/bot-protocol.md)") from None
    except (TypeError, ValueError, IndexError, AttributeError) as exc:
        if isinstance(exc, ViewError):
            raise
        raise ViewError(f"view: {exc}") from None


def seat_shown(obs: Observation, face_down: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """The observer's own tiles shown by its 亮倒 (R8.1: row 10 of the tensor, what the other
    seats see): its concealed tiles less ``face_down`` (counts of the tiles it keeps face
    down, R8.6/R8.11; None: none), the tile it just drew and a kong tile it is adding (on the
    table, R7.4); None before it declared."""
    if obs.phase == ENDED:
        return obs.concealed
    if not obs.declared[obs.seat]:
        return None
    shown = list(obs.concealed)
    if face_down is not None:
        shown = [max(0, a - b) for a, b in zip(shown, face_down)]
    if obs.drawn is not None and shown[obs.drawn]:
        shown[obs.drawn] -= 1
    if obs.phase == ROB and obs.table is not None and obs.table[0] == obs.seat \
            and shown[obs.table[1]]:
        shown[obs.table[1]] -= 1
    return tuple(shown)


def view_tensor(view: dict, rules: RuleSet, face_down: tuple[int, ...] | None = None,
                standing: tuple[tuple[int, int, int], int, int] | None = None) -> np.ndarray:
    """The ``float32 (102, 30)`` planes of a bot-protocol ``view`` — the tensor the envs give
    that seat (:func:`~.tensors.observation_tensor`). ``face_down``: counts (30) of the tiles
    the seat keeps face down after its 亮倒 (from its ``declare`` event; None: none);
    ``standing``: as the tensor's (None: the hand alone). Raises :class:`ViewError`."""
    obs = observation_from_view(view, rules)
    if face_down is not None and (len(face_down) != NUM_KINDS or not all(
            type(c) is int and 0 <= c <= COPIES for c in face_down)):
        raise ViewError(f"face_down: {NUM_KINDS} counts of 0-{COPIES}")
    try:
        return observation_tensor(obs, seat_shown(obs, face_down), standing)
    except (KeyError, IndexError, TypeError, ValueError) as exc:  # a value out of its range
        raise ViewError(f"view: a value out of range ({exc!r})") from None
