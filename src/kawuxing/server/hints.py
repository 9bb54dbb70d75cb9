"""Hints at the table: the expert's ranking of a seat's choices, its second opinion included
(issue "Bots"; R13).

The observation and the legal actions are taken on the event loop (they are the seat's own,
:func:`kawuxing.engine.observation.observe`); the ranking, pure computation on that frozen
snapshot, runs in a worker thread so that a hint never stalls the room.
"""

from __future__ import annotations

import asyncio

from ..agents.expert import agent_choices
from ..engine import Hand
from ..engine.observation import observe


async def seat_hint(hand: Hand, seat: int) -> list[dict]:
    """The ranked choices of ``seat`` in ``hand`` now, the expert's own choice first
    (:func:`~kawuxing.agents.expert.agent_choices`), as JSON (``[]`` if it has none)."""
    legal = hand.legal_actions(seat)
    if not legal:
        return []
    obs = observe(hand, seat)
    after_kong = hand.seats[seat].kong_turn
    choices = await asyncio.to_thread(agent_choices, obs, legal, after_kong, True)
    return [c.to_json() for c in choices]
