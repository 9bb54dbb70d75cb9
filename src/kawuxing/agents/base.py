"""The Agent protocol and the registry of bots by name."""

from __future__ import annotations

from typing import Protocol

from ..engine.actions import Action
from ..engine.observation import Observation

AGENT_NAMES = ("random", "heuristic")


class Agent(Protocol):
    """A player: ``act`` returns one of ``legal`` (never empty) for the observed seat.

    Agents see only the :class:`Observation` of their seat (R13); they keep any state they
    like between calls, and get a fresh instance per seat.
    """

    name: str

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """Choose one of ``legal``."""
        ...


def make_agent(spec: str, seed: int | str | None = None) -> Agent:
    """An agent from its name: ``random`` or ``heuristic`` / ``heuristic:LEVEL`` (1-3).

    ``seed`` seeds the agent's own RNG (its tie-breaks and random choices). Raises
    ``ValueError`` for an unknown name or level.
    """
    from .heuristic import HeuristicAgent
    from .random_agent import RandomAgent

    name, _, level = spec.strip().partition(":")
    if name == "random" and not level:
        return RandomAgent(seed)
    if name == "heuristic":
        if level and level not in ("1", "2", "3"):
            raise ValueError(f"bot {spec!r}: heuristic levels are 1, 2 and 3")
        return HeuristicAgent(int(level or 3), seed)
    raise ValueError(f"unknown bot {spec!r}; bots: random, heuristic, heuristic:1-3")
