"""The random agent: a uniformly random legal action."""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.observation import Observation


class RandomAgent:
    """Chooses uniformly among the legal actions, with its own seeded RNG."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """A uniformly random element of ``legal``."""
        return self.rng.choice(legal)
