"""The PettingZoo AEC environment of 卡五星: agents ``seat_0``-``seat_2`` (RULES.md R2-R13).

Every hand is played with the engine's claim windows (``Hand(..., windows=True)``, R13.2):
after every discard, and every added kong that may be robbed (R7.4), **both other seats take a
turn**, the next seat first; a seat with no option has ``pass`` as its only legal action. So
``agent_selection`` is the same whether or not anybody could claim, and never tells who could.
In the 漂 phase (R11.1) the seats choose in seat order.

``skip_forced=True`` (off by default, PettingZoo's convention that every seat acts in
turn) is the fast mode for training: a decision with a single legal action — a lone
``pass``, the discard of its draw by a declared hand (R8.2) — is taken for its seat, and the
engine opens a claim window only when a seat holds an option (``Hand(..., windows=False)``).
The observation tensors are unchanged (they never held anybody's options), but
``agent_selection`` then tells every seat that is not asked that nobody after it could take the
tile on the table, and being asked in a window tells the asked seat it may claim, which it
knows anyway. That is public to the *program* running the env, not to a seat's observation:
a learner that feeds its policy only ``observe(agent)`` learns nothing of another seat's
options from it (R13.2); a program that plays against people must use the default mode, as
the server's rooms do.

Observations are ``{"observation": float32 (102, 30), "action_mask": int8 (584,)}``
(:mod:`kawuxing.envs.tensors`, :mod:`kawuxing.envs.actions`), built from the seat's own
:class:`~kawuxing.engine.observation.Observation`, its own tiles shown by 亮倒 and the
episode's public standing (row 101: match totals, hand number, hands left) only;
:meth:`KawuxingAEC.observe_privileged`
adds the hidden state, separately. An agent that is not to act sees an all-zero mask.

Rewards are score changes in base units (kong money when paid, R6.6; the hand's settlement
at its end, R7-R11): each step gives every seat the change of its score caused by that step,
so a seat's cumulative reward over an episode is its score change. An episode is one hand,
or with ``per_match=True`` a whole match of ``rules.hands_per_match`` hands (R12.1; the dealer
rotates by R2.2). Every hand ends (a win or 荒庄, R10), so there is no truncation.

An illegal action (one the mask does not allow, or anything but a Python or numpy integer:
``11.9``, ``"3"``, ``True`` are refused, never truncated) raises :class:`IllegalEnvAction` and
leaves the state as it was. PettingZoo's convention for the end: every terminated agent steps
once with ``None``; a step once no agent is left (or before :meth:`~KawuxingAEC.reset`) raises
:class:`EpisodeOver`.
"""

from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.hand import Hand
from ..engine.match import Match
from ..engine.state import ENDED
from ..rules import RuleSet
from .actions import NUM_ACTIONS, legal_indices
from .common import IllegalEnvAction, is_index, next_seat, ruleset, wall_kinds
from .encoder import HandEncoder
from .tensors import SHAPE, privileged_tensor

AGENTS = ("seat_0", "seat_1", "seat_2")


class EpisodeOver(RuntimeError):
    """A step with no episode in play: before the first :meth:`KawuxingAEC.reset`, or after
    every agent of the ended episode has stepped with ``None``."""


class KawuxingAEC(AECEnv):
    """卡五星 for three learning agents (see the module docstring).

    ``rules``: a :class:`RuleSet` or a preset name (default the ``standard`` preset;
    ``ValueError`` for anything else, :func:`ruleset`). ``seed``: the seed of the
    first :meth:`reset` without one. ``per_match``: an episode is a match, not a hand.
    ``piao``: every seat's 漂 preset (R11.1; default: as the rules say — chosen in a piao
    phase with ``piao_choices``, once a match or fixed under R11.2 ``piao_mode``, else 0).
    ``skip_forced``: a decision with a single legal action is taken for its seat and the
    engine opens a claim window only when a seat holds an option (module docstring).
    """

    metadata = {"name": "kawuxing_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, rules: RuleSet | str | None = None, seed: int | None = None,
                 per_match: bool = False, piao: list[int] | None = None,
                 skip_forced: bool = False) -> None:
        super().__init__()
        self.rules = ruleset(rules)
        self.per_match = per_match
        self.piao = piao
        self.skip_forced = skip_forced
        self._encoder: HandEncoder | None = None
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
        wall (R3.1; tests, replays, curricula): integer kinds or tile strings
        (:func:`wall_kinds`); the dealer 0, 1 or 2. ``ValueError`` (state unchanged) for a bad
        wall or dealer."""
        options = options or {}
        walls = [wall_kinds(options["wall"])] if "wall" in options else None
        dealer = options.get("dealer")
        if dealer is not None and not (is_index(dealer) and 0 <= dealer <= 2):
            raise ValueError(f"dealer must be 0, 1 or 2, got {dealer!r}")
        if seed is not None:
            self._rng = random.Random(seed)
        episode = self._rng.getrandbits(64)
        self.match = Match(self.rules, seed=episode, piao=self.piao, walls=walls,
                           dealer=None if dealer is None else int(dealer),
                           windows=not self.skip_forced)
        self.hand = self.match.hand
        self.agents = list(AGENTS)
        self.rewards = {a: 0 for a in AGENTS}
        self._cumulative_rewards = {a: 0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._scores = [0, 0, 0]  # each seat's score change in the episode so far
        self._base = [0, 0, 0]  # ... before the hand in play (per_match)
        if self._choose_or_end():
            self._finish()
        else:
            self._scores = [b + d for b, d in zip(self._base, self.hand.deltas)]
            for s, a in enumerate(AGENTS):  # kong money before the first choice (R6.6)
                self.rewards[a] = self._cumulative_rewards[a] = self._scores[s]

    def _choose(self) -> None:
        """Point ``agent_selection`` at the seat to decide and map its legal actions."""
        seat = next_seat(self.hand)
        self._seat = seat
        self._legal = legal_indices(self.hand.legal_actions(seat),
                                    self.hand.seats[seat].concealed, self.rules)
        self.agent_selection = AGENTS[seat]

    def _hand_over(self) -> bool:
        """After an action: True when the episode has ended; deals the match's next hand
        when the hand alone has (``per_match``)."""
        if self.hand.phase != ENDED:
            return False
        if self.per_match and not self.match.over:
            self._base = [b + d for b, d in zip(self._base, self.hand.deltas)]
            self.hand = self.match.next_hand()
            return self.hand.phase == ENDED and self._hand_over()
        return True

    def _choose_or_end(self) -> bool:
        """Select the next seat to decide, playing its decision for it while it has a single
        legal action (``skip_forced``); True once the episode has ended."""
        while True:
            self._choose()
            if not self.skip_forced or len(self._legal) > 1:
                return False
            self.hand.apply(next(iter(self._legal.values())))
            if self._hand_over():
                return True

    def _finish(self) -> None:
        """The episode is over: every agent terminated, with the hand's result in ``infos``."""
        hand = self.hand
        for a in AGENTS:
            self.terminations[a] = True
            self.infos[a] = {"result": hand.result, "winners": list(hand.winners)}

    def step(self, action: int | None) -> None:
        """Play the selected agent's ``action`` (a table index its mask allows, a Python or
        numpy integer); a finished agent steps with None. With ``skip_forced`` the decisions
        with a single legal action that follow are played too, their rewards included.
        Raises :class:`IllegalEnvAction` (state untouched) for an index the mask does not
        allow or a value that is not an integer (never truncated); :class:`EpisodeOver` with
        no episode in play."""
        if self.hand is None or not self.agents:
            raise EpisodeOver("no episode in play: call reset()" if self.hand is None else
                              "the episode is over (every agent has stepped with None): "
                              "call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._legal.get(int(action)) if is_index(action) else None
        if chosen is None:
            raise IllegalEnvAction(f"{agent}: action {action} is not allowed by its mask now "
                                   f"(legal: {sorted(self._legal)})")
        self._cumulative_rewards[agent] = 0
        self.hand.apply(chosen)
        over = self._hand_over() or self._choose_or_end()
        scores = [b + d for b, d in zip(self._base, self.hand.deltas)]
        for s, a in enumerate(AGENTS):
            self.rewards[a] = scores[s] - self._scores[s]
        self._scores = scores
        if over:
            self._finish()
        self._accumulate_rewards()

    # --- what an agent sees ----------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": (102, 30) float32, "action_mask": (584,) int8}`` of ``agent``,
        from its own Observation, its own 亮倒 tiles (:func:`~.tensors.own_shown`) and the
        episode's public standing (R13, :mod:`kawuxing.envs.tensors` row 101)."""
        seat = AGENTS.index(agent)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if seat == self._seat and not self.terminations.get(agent, True):
            mask[list(self._legal)] = 1
        hand = self.hand
        totals = [b + d for b, d in zip(self._base, hand.deltas)]
        number = self.match.number  # an episode is the match, or its first hand alone
        left = self.rules.hands_per_match - 1 - number if self.per_match else 0
        encoder = self._encoder
        if encoder is None or encoder.hand is not hand:
            encoder = self._encoder = HandEncoder(hand)
        return {"observation": encoder.encode(seat, (totals, number, left)),
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


def aec_env(rules: RuleSet | str | None = None, seed: int | None = None, per_match: bool = False,
            piao: list[int] | None = None, skip_forced: bool = False) -> KawuxingAEC:
    """A :class:`KawuxingAEC` (see its docstring); ``seed`` seeds the first reset."""
    return KawuxingAEC(rules, seed, per_match, piao, skip_forced)


__all__ = ["AGENTS", "EpisodeOver", "IllegalEnvAction", "KawuxingAEC", "aec_env", "is_index",
           "next_seat", "ruleset", "wall_kinds"]
