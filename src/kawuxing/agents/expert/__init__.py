"""The expert bot: every decision by expected base units (see :mod:`.brain`), and the same
ranking for hints (:func:`agent_choices`: the model's :func:`rank_actions` with the
agent's second opinion)."""

from .agent import ExpertAgent, agent_choices
from .brain import Choice, rank_actions

__all__ = ["Choice", "ExpertAgent", "agent_choices", "rank_actions"]
