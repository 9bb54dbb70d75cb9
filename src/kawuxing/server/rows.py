"""The rows a room stores and reads back (:mod:`.schema`): what the room's objects become as
columns, and the hands and match a stored room is rebuilt from.

Writing: :func:`room_row`, :func:`match_row`, :func:`hand_row` (a hand just dealt: its record
with the full fairness object), :class:`ActionRow` (an accepted action). Reading:
:func:`restored_match` rebuilds a match from its hand rows (each record replayed with its
stored actions, :func:`kawuxing.records.replay`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine import Hand
from ..engine.match import HandSeed, Match
from ..records import hand_record, replay
from ..rules import RuleSet
from .schema import HAND_PLAYING, MATCH_PLAYING, dumps
from .seeds import restore_match

if TYPE_CHECKING:
    from .room import Room


def room_row(room: Room) -> dict:
    """The room's ``kwx_rooms`` columns now (``updated_at`` the current time)."""
    return {"code": room.code, "created_at": room.created_at, "updated_at": time.time(),
            "status": room.status, "preset": room.preset, "options": dumps(room.options),
            "rules": dumps(room.rules.to_dict()), "settings": dumps(room.settings.to_dict()),
            "match_id": room.match_id}


def match_row(match_id: str, room_code: str, rules: RuleSet, players: list[dict]) -> dict:
    """The ``kwx_matches`` row of a match starting now: ``players`` as
    :meth:`Seats.players <kawuxing.server.seats.Seats.players>`, totals zero."""
    return {"id": match_id, "room_code": room_code, "rules": dumps(rules.to_dict()),
            "players": dumps(players), "hands_planned": rules.hands_per_match,
            "status": MATCH_PLAYING, "totals": dumps([0, 0, 0]), "started_at": time.time(),
            "finished_at": None}


def hand_row(match_id: str, number: int, hand: Hand, fair: HandSeed | None = None) -> dict:
    """The ``kwx_hands`` row of hand ``number`` just dealt: its record with the full fairness
    object — the seed too, for a restart; the database is not sent to players, and the API
    serves a record only once its hand has ended (R13)."""
    record = hand_record(hand, fairness=fair.revealed() if fair is not None else None)
    record["actions"], record["result"] = [], None
    return {"match_id": match_id, "number": number, "dealer": hand.dealer,
            "record": dumps(record), "status": HAND_PLAYING, "result": None,
            "started_at": time.time(), "ended_at": None}


@dataclass
class ActionRow:
    """One accepted action to store (:meth:`Store.add_action
    <kawuxing.server.db.Store.add_action>`): its hand, its index in the hand, the seat, the
    action as :meth:`Action.to_json <kawuxing.engine.Action.to_json>`, and who played it
    (``player``, ``timeout``, ``bot``, ``auto`` or ``window``, :mod:`.pacing`)."""

    match_id: str
    hand_number: int
    idx: int
    seat: int
    action: list
    by: str

    def params(self, at: float) -> dict:
        """The ``kwx_actions`` row, stored at ``at`` (epoch seconds)."""
        return {"match_id": self.match_id, "hand_number": self.hand_number, "idx": self.idx,
                "seat": self.seat, "action": dumps(self.action), "by": self.by, "at": at}


def restored_match(rules: RuleSet, match_id: str, hand_rows: list[dict]) -> Match:
    """The match of stored hand rows (in order; each with ``actions``: the stored action
    lists): every record replayed with its actions, with its fairness data. Raises
    ``ValueError`` / :class:`~kawuxing.engine.IllegalAction` for a corrupt row."""
    hands, fair = [], []
    for row in hand_rows:
        record = json.loads(row["record"])
        record["actions"] = row["actions"]
        hands.append(replay(record))
        fair.append(HandSeed.from_record(record.get("fairness"), len(fair), record["dealer"]))
    return restore_match(rules, hands, fair, match_id)
