"""The expert bot: every decision by expected base units (see :mod:`.brain`), and the same
ranking for hints (:func:`rank_actions`)."""

from .agent import ExpertAgent
from .brain import Choice, rank_actions

__all__ = ["Choice", "ExpertAgent", "rank_actions"]
