"""The Agent protocol (the bots by name are in :mod:`kawuxing.agents.registry`)."""

from __future__ import annotations

from typing import Protocol

from ..engine.actions import Action
from ..engine.observation import Observation


class Agent(Protocol):
    """A player: ``act`` returns one of ``legal`` (never empty) for the observed seat.

    Agents see only the :class:`Observation` of their seat (R13); they keep any state they
    like between calls, and get a fresh instance per seat.
    """

    name: str

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """Choose one of ``legal``."""
        ...
