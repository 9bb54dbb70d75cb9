"""One learning seat against two bots, as a Gymnasium environment (``kawuxing/Kawuxing-v0``).

``gymnasium.make("kawuxing/Kawuxing-v0", opponents=("expert", "heuristic"), rules=...)``. The
hand is played by :class:`~kawuxing.envs.aec.KawuxingAEC` (claim windows after every discard,
R13.2); the two other seats are bots of :func:`kawuxing.agents.make_agent`, which see only their
own Observation (R13). Observations and actions are those of the AEC env:
``{"observation": (102, 30) float32, "action_mask": (584,) int8}`` and ``Discrete(584)``.

The learner is asked only when it has a choice (``skip_forced``, default: a decision with one
legal action, such as ``pass`` with no option or the discard after 亮倒 (R8.2), is taken for it).
The reward of a step is the learner's score change (base units) from its decision up to its next
one or the end of the episode (one hand; a match with ``per_match=True``). ``seat``: the
learner's seat, or None for one drawn per episode.
"""

from __future__ import annotations

import gymnasium
import numpy as np

from ..agents import make_agent
from ..engine.observation import observe
from ..rules import RuleSet
from .actions import action_index
from .aec import AGENTS, KawuxingAEC, is_index

ENV_ID = "kawuxing/Kawuxing-v0"


class KawuxingGym(gymnasium.Env):
    """See the module docstring. ``rules``: a RuleSet or a preset name (``"capped"``).
    Raises ``ValueError`` for an unknown bot spec, bad rules or a bad seat."""

    metadata = {"render_modes": []}

    def __init__(self, opponents: tuple[str, str] = ("expert", "heuristic"),
                 rules: RuleSet | str | None = None, seat: int | None = 0, per_match: bool = False,
                 skip_forced: bool = True) -> None:
        if len(opponents) != 2:
            raise ValueError("opponents: two bot specs, one for each other seat")
        for spec in opponents:
            make_agent(spec)  # ValueError for an unknown spec
        if seat not in (None, 0, 1, 2):
            raise ValueError(f"seat {seat!r}: 0, 1, 2 or None (drawn per episode)")
        self.opponents = tuple(opponents)
        self.fixed_seat = seat
        self.skip_forced = skip_forced
        self.aec = KawuxingAEC(rules, per_match=per_match)
        self.observation_space = self.aec.observation_space(AGENTS[0])
        self.action_space = self.aec.action_space(AGENTS[0])
        self.seat = 0 if seat is None else seat
        self._bots: dict[int, object] = {}
        self._carry = 0  # reward earned before the learner's first decision

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal a new episode; returns ``(observation, info)``. The same seed and actions give
        the same episode (the bots are seeded from it too). A hand that ends before the
        learner has a choice is not an episode: the next one is dealt."""
        super().reset(seed=seed)
        while True:  # a hand over before the learner's first choice (天胡) is dealt again
            episode = int(self.np_random.integers(2 ** 62))
            if self.fixed_seat is None:
                self.seat = int(self.np_random.integers(3))
            self.aec.reset(seed=episode)
            others = [s for s in range(3) if s != self.seat]
            self._bots = {s: make_agent(spec, f"{episode}/seat/{s}")
                          for s, spec in zip(others, self.opponents)}
            self._carry = self._advance()  # e.g. kong money before the first decision (R6.6)
            if not self._done():
                break
        return self._obs(), {}

    def step(self, action: int):
        """The learner plays ``action`` (a table index its mask allows); the bots play until
        the learner's next choice or the end. Returns ``(obs, reward, terminated, truncated,
        info)``; never truncated (every hand ends, R10). An action the mask does not allow, or
        one that is not a Python or numpy integer (``11.9`` is not truncated to 11), is
        refused: the state is untouched, the reward 0 and ``info["illegal_action"]`` True."""
        if not is_index(action) or int(action) not in self.aec.legal_actions(
                AGENTS[self.seat]):
            return self._obs(), 0.0, False, False, {"illegal_action": True}
        self.aec.step(int(action))
        reward = self._carry + self.aec.rewards[AGENTS[self.seat]] + self._advance()
        self._carry = 0
        done = self._done()
        info = dict(self.aec.infos[AGENTS[self.seat]]) if done else {}
        return self._obs(), float(reward), done, False, info

    def _done(self) -> bool:
        return self.aec.terminations[AGENTS[self.seat]]

    def _advance(self) -> int:
        """Let the bots (and forced decisions) play until the learner chooses or the episode
        ends; the learner's reward meanwhile."""
        aec, reward = self.aec, 0
        learner = AGENTS[self.seat]
        while not self._done():
            seat = AGENTS.index(aec.agent_selection)
            if seat == self.seat:
                if not self.skip_forced or len(aec.legal_actions(learner)) > 1:
                    break
                index = next(iter(aec.legal_actions(learner)))
            else:
                hand = aec.hand
                legal = hand.legal_actions(seat)
                chosen = self._bots[seat].act(observe(hand, seat), legal)
                index = action_index(chosen, hand.seats[seat].concealed, aec.rules)
            aec.step(index)
            reward += aec.rewards[learner]
        return reward

    def _obs(self) -> dict[str, np.ndarray]:
        return self.aec.observe(AGENTS[self.seat])

    def action_masks(self) -> np.ndarray:
        """The learner's action mask now, ``(584,)`` bool (for maskable-policy libraries)."""
        return self._obs()["action_mask"].astype(bool)


__all__ = ["ENV_ID", "KawuxingGym"]
