"""Agents: anything that, given one seat's :class:`~kawuxing.engine.observation.Observation`
and its legal actions, returns one of those actions (RULES.md R13: never the full state).

:func:`make_agent` builds one by name: ``random``, ``heuristic`` (``heuristic:1`` … ``:3``).
"""

from .base import Agent, AGENT_NAMES, make_agent
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent

__all__ = ["AGENT_NAMES", "Agent", "HeuristicAgent", "RandomAgent", "make_agent"]
