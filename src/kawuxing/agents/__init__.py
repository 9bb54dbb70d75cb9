"""Agents: anything that, given one seat's :class:`~kawuxing.engine.observation.Observation`
and its legal actions, returns one of those actions (RULES.md R13: never the full state).

:func:`make_agent` builds one by name: ``random``, ``heuristic`` (``heuristic:1`` … ``:3``),
``expert``;
the one table of bots is :mod:`kawuxing.agents.registry` (served as ``GET /api/bots``).
"""

from .base import Agent
from .registry import (AGENT_NAMES, BOTS, DEFAULT_BOT, SUGGESTED_BOT, Bot, bot_help, bots_schema,
                       check_bot, make_agent)
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent

__all__ = ["AGENT_NAMES", "BOTS", "DEFAULT_BOT", "SUGGESTED_BOT", "Agent", "Bot", "HeuristicAgent", "RandomAgent",
           "bot_help", "bots_schema", "check_bot", "make_agent"]
