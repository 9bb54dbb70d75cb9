"""The expert's ranking as logits a network adds to its own: a *residual* policy (issue 32).

A policy file whose ``meta`` holds ``"prior": {"bot": "expert", "pick": P, "ev": E}`` plays
``argmax(network logits + prior logits)`` over the legal actions, where the prior logits of
one decision (:meth:`Prior.logits`) come from :func:`kawuxing.agents.expert.agent_choices` on
the same Observation (R13):

- ``E`` × the action's value in base units less the best value
  (:func:`~kawuxing.agents.expert.brain.rank_value`, at most :data:`FLOOR` base units below);
- :data:`PACE` × its pace class (0, or −1, −2 … for a discard that goes backwards: the
  expert's own ordering);
- ``P`` on the expert's choice (its first action, the second opinion included).

With a network whose logits are all zero this plays exactly as ``expert``; self-play (PPO,
:mod:`kawuxing.learn.ppo`) then trains the network to correct the ranking where the outcomes
say so. The prior costs the expert's decision time (3-5 ms CPU).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.actions import Action
from ..engine.observation import Observation
from ..envs.actions import NUM_ACTIONS
from .expert.agent import agent_choices
from .expert.brain import rank_value

FLOOR = 8.0  # base units below the best beyond which the value term stops
PACE = 2.0  # logits per pace class


@dataclass(frozen=True)
class Prior:
    """The prior's weights: ``pick`` (logits on the expert's choice) and ``ev`` (logits per
    base unit of value). :meth:`from_meta` reads them from a policy file's ``meta``."""

    pick: float = 3.0
    ev: float = 0.5

    @classmethod
    def from_meta(cls, meta: dict, name: str = "policy") -> Prior | None:
        """The prior of a policy file's ``meta`` (None without one). Raises ``ValueError``
        naming ``name`` for a prior of another bot or without finite ``pick`` and ``ev``."""
        spec = meta.get("prior")
        if spec is None:
            return None
        if not isinstance(spec, dict) or spec.get("bot") != "expert":
            raise ValueError(f"{name}: meta.prior must be {{'bot': 'expert', 'pick': P, "
                             f"'ev': E}}, got {spec!r}")
        values = [spec.get("pick"), spec.get("ev")]
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                   and np.isfinite(v) for v in values):
            raise ValueError(f"{name}: meta.prior's pick and ev must be finite numbers, "
                             f"got {values!r}")
        return cls(float(values[0]), float(values[1]))

    def to_meta(self) -> dict:
        """``{"bot": "expert", "pick": …, "ev": …}`` for a policy file's ``meta``."""
        return {"bot": "expert", "pick": self.pick, "ev": self.ev}

    def logits(self, obs: Observation, mapped: dict[int, Action],
               after_kong: bool = False) -> np.ndarray:
        """``float32 (584,)``: the prior logits of the legal actions ``mapped`` (index ->
        action, :func:`kawuxing.envs.actions.legal_indices`), 0 elsewhere. ``after_kong``:
        the seat's turn follows its own kong (R9.1, as the expert reads it)."""
        out = np.zeros(NUM_ACTIONS, np.float32)
        index = {a: i for i, a in mapped.items()}
        choices = agent_choices(obs, list(mapped.values()), after_kong)
        values = [rank_value(c) for c in choices]
        top = max(v for _, v in values)
        for choice, (pace, value) in zip(choices, values):
            out[index[choice.action]] = self.ev * max(-FLOOR, value - top) + PACE * pace
        out[index[choices[0].action]] += self.pick
        return out
