"""The PettingZoo AEC environment of 卡五星: agents ``seat_0``-``seat_2`` (RULES.md R2-R13).

Every hand is played with the engine's claim windows (``Hand(..., windows=True)``, R13.2):
after every discard, and every added kong that may be robbed (R7.4), **both other seats take a
turn**, the next seat first; a seat with no option has ``pass`` as its only legal action. So
``agent_selection`` is the same whether or not anybody could claim, and never tells who could.
In the 漂 phase (R11.1) the seats choose in seat order.

Observations are ``{"observation": float32 (102, 30), "action_mask": int8 (584,)}``
(:mod:`kawuxing.envs.tensors`, :mod:`kawuxing.envs.actions`), built from the seat's own
:class:`~kawuxing.engine.observation.Observation` only; :meth:`KawuxingAEC.observe_privileged`
adds the hidden state, separately. An agent that is not to act sees an all-zero mask.

Rewards are score changes in base units (kong money when paid, R6.6; the hand's settlement
at its end, R7-R11): each step gives every seat the change of its score caused by that step,
so a seat's cumulative reward over an episode is its score change. An episode is one hand,
or with ``per_match=True`` a whole match of ``rules.hands_per_match`` hands (R12.1; the dealer
rotates by R2.2). Every hand ends (a win or 荒庄, R10), so there is no truncation.

An illegal action (one the mask does not allow) raises :class:`IllegalEnvAction` and leaves
the state as it was.
"""

from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.hand import Hand
from ..engine.match import Match
from ..engine.observation import observe
from ..engine.state import CLAIM, ENDED, PIAO_PHASE, ROB
from ..rules import RuleSet
from .actions import NUM_ACTIONS, legal_indices
from .tensors import SHAPE, observation_tensor, privileged_tensor

AGENTS = ("seat_0", "seat_1", "seat_2")


class IllegalEnvAction(ValueError):
    """An action index the current agent's ``action_mask`` does not allow (R4-R8)."""


def next_seat(hand: Hand) -> int | None:
    """The seat that decides next, or None once the hand has ended: the seat in turn; in a
    claim or rob window (R13.2) the first seat after the one whose tile is on the table that
    has not answered; in the 漂 phase the lowest seat that has not chosen."""
    phase = hand.phase
    if phase == ENDED:
        return None
    if phase in (CLAIM, ROB):
        pending = hand.pending
        for i in (1, 2):
            seat = (pending.seat + i) % 3
            if seat in pending.options and seat not in pending.answers:
                return seat
        raise AssertionError("a claim window with nobody to answer")
    if phase == PIAO_PHASE:
        return hand.to_act()[0]
    return hand.current


class KawuxingAEC(AECEnv):
    """卡五星 for three learning agents (see the module docstring).

    ``rules``: a :class:`RuleSet` (default the ``standard`` preset). ``seed``: the seed of the
    first :meth:`reset` without one. ``per_match``: an episode is a match, not a hand.
    ``piao``: every seat's 漂 preset (R11.1; default: as the rules say — chosen in a piao
    phase with ``piao_choices``, once a match or fixed under R11.2 ``piao_mode``, else 0).
    """

    metadata = {"name": "kawuxing_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, rules: RuleSet | None = None, seed: int | None = None,
                 per_match: bool = False, piao: list[int] | None = None) -> None:
        super().__init__()
        self.rules = rules if rules is not None else RuleSet.preset()
        self.per_match = per_match
        self.piao = piao
        self.possible_agents = list(AGENTS)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, SHAPE, np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)})
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = random.Random(seed)
        self.hand: Hand | None = None
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        """``Dict(observation=Box(102×30 float32), action_mask=Box(584 int8))``."""
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(584)``: the table of :mod:`kawuxing.envs.actions`."""
        return self._act_space

    # --- episode ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new hand (or start a new match): with ``seed`` the same seed and actions
        give the same episode; without one, the next seed of the env's own RNG.
        ``options``: ``{"wall": [84 tiles], "dealer": seat}`` deals the first hand from that
        wall (R3.1; tests, replays, curricula); ``ValueError`` for a bad wall."""
        if seed is not None:
            self._rng = random.Random(seed)
        episode = self._rng.getrandbits(64)
        options = options or {}
        walls = [options["wall"]] if "wall" in options else None
        self.match = Match(self.rules, seed=episode, piao=self.piao, walls=walls,
                           dealer=options.get("dealer"), windows=True)
        self.hand = self.match.hand
        self.agents = list(AGENTS)
        self.rewards = {a: 0 for a in AGENTS}
        self._cumulative_rewards = {a: 0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._scores = [0, 0, 0]  # each seat's score change in the episode so far
        self._base = [0, 0, 0]  # ... before the hand in play (per_match)
        self._choose()

    def _choose(self) -> None:
        """Point ``agent_selection`` at the seat to decide and map its legal actions."""
        seat = next_seat(self.hand)
        self._seat = seat
        self._legal = legal_indices(self.hand.legal_actions(seat),
                                    self.hand.seats[seat].concealed, self.rules)
        self.agent_selection = AGENTS[seat]

    def step(self, action: int | None) -> None:
        """Play the selected agent's ``action`` (a table index its mask allows); a finished
        agent steps with None. Raises :class:`IllegalEnvAction` (state untouched) for an
        index the mask does not allow."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._legal.get(int(action)) if action is not None else None
        if chosen is None:
            raise IllegalEnvAction(f"{agent}: action {action} is not allowed by its mask now "
                                   f"(legal: {sorted(self._legal)})")
        self._cumulative_rewards[agent] = 0
        hand = self.hand
        hand.apply(chosen)
        scores = [b + d for b, d in zip(self._base, hand.deltas)]
        for s, a in enumerate(AGENTS):
            self.rewards[a] = scores[s] - self._scores[s]
        self._scores = scores
        over = False
        if hand.phase == ENDED:
            if self.per_match and not self.match.over:
                self._base = scores
                self.hand = self.match.next_hand()
            else:
                over = True
        if over:
            for a in AGENTS:
                self.terminations[a] = True
                self.infos[a] = {"result": hand.result, "winners": list(hand.winners)}
        else:
            self._choose()
        self._accumulate_rewards()

    # --- what an agent sees ----------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": (102, 30) float32, "action_mask": (584,) int8}`` of ``agent``,
        from its own Observation only (R13)."""
        seat = AGENTS.index(agent)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if seat == self._seat and not self.terminations[agent]:
            mask[list(self._legal)] = 1
        return {"observation": observation_tensor(observe(self.hand, seat)),
                "action_mask": mask}

    def observe_privileged(self, agent: str) -> dict[str, np.ndarray]:
        """:meth:`observe` plus ``"hidden"``: the state ``agent`` cannot see, ``(21, 30)``
        float32 (:func:`kawuxing.envs.tensors.privileged_tensor`): for centralised critics
        and oracle training, never for a policy that plays (R13)."""
        out = self.observe(agent)
        out["hidden"] = privileged_tensor(self.hand, AGENTS.index(agent))
        return out

    def legal_actions(self, agent: str) -> dict[int, object]:
        """Index -> engine :class:`~kawuxing.engine.actions.Action` the mask of ``agent``
        allows now (empty for an agent not to act)."""
        if AGENTS.index(agent) != self._seat or self.terminations.get(agent, True):
            return {}
        return dict(self._legal)

    def close(self) -> None:
        """Nothing to release."""


def aec_env(rules: RuleSet | None = None, seed: int | None = None, per_match: bool = False,
            piao: list[int] | None = None) -> KawuxingAEC:
    """A :class:`KawuxingAEC` (see its docstring); ``seed`` seeds the first reset."""
    return KawuxingAEC(rules, seed, per_match, piao)


__all__ = ["AGENTS", "IllegalEnvAction", "KawuxingAEC", "aec_env", "next_seat"]
