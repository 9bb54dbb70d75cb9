"""The PettingZoo AEC environment of 卡五星: agents ``seat_0``-``seat_2`` (RULES.md R2-R13).

Every hand is played with the engine's claim windows (``Hand(..., windows=True)``, R13.2):
after every discard, and every added kong that may be robbed (R7.4), **both other seats take a
turn**, the next seat first; a seat with no option has ``pass`` as its only legal action. So
``agent_selection`` is the same whether or not anybody could claim, and never tells who could.
In the 漂 phase (R11.1) the seats choose in seat order.

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

import numbers
import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.hand import Hand
from ..engine.match import Match
from ..engine.observation import observe
from ..engine.state import CLAIM, ENDED, PIAO_PHASE, ROB
from ..rules import RuleSet, RulesError
from ..tiles import TileError, parse_tiles
from .actions import NUM_ACTIONS, legal_indices
from .tensors import SHAPE, observation_tensor, own_shown, privileged_tensor

AGENTS = ("seat_0", "seat_1", "seat_2")


class IllegalEnvAction(ValueError):
    """An action the current agent's ``action_mask`` does not allow (R4-R8), or one that is
    not an integer index."""


class EpisodeOver(RuntimeError):
    """A step with no episode in play: before the first :meth:`KawuxingAEC.reset`, or after
    every agent of the ended episode has stepped with ``None``."""


def ruleset(rules: object) -> RuleSet:
    """``rules`` as a :class:`RuleSet`: None (the ``standard`` preset), a preset name
    (:meth:`RuleSet.preset`, e.g. ``"capped"``) or a RuleSet. Raises ``ValueError`` for
    anything else or an unknown preset."""
    if rules is None:
        return RuleSet.preset()
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        try:
            return RuleSet.preset(rules)
        except RulesError as exc:
            raise ValueError(f"rules: {exc}") from None
    raise ValueError(f"rules: a RuleSet or a preset name such as 'capped', got "
                     f"{type(rules).__name__} {rules!r}")


def is_index(action: object) -> bool:
    """Whether ``action`` is a Python or numpy integer (``bool`` is not): the only actions
    the envs take; a float such as ``11.9`` is refused, not truncated."""
    return isinstance(action, (numbers.Integral, np.integer)) and not isinstance(
        action, (bool, np.bool_))


def wall_kinds(wall: object) -> list[int]:
    """The ``wall`` option of :meth:`KawuxingAEC.reset` as kinds: 84 integer kinds (0-29,
    :mod:`kawuxing.tiles`: 0-8 万, 9-17 筒, 18-26 条, 27-29 白发中; the standard set uses
    9-29) or the same as tile strings (one string ``"1p1p…"`` or a list of ``"1p"``, read by
    :func:`kawuxing.tiles.parse_tiles`). Raises ``ValueError`` saying what is expected; the
    engine then checks they are the rule set's 84 tiles (R1.1)."""
    try:
        if isinstance(wall, str):
            return parse_tiles(wall)
        wall = list(wall)
        if wall and all(isinstance(t, str) for t in wall):
            return parse_tiles("".join(wall))
    except TileError as exc:
        raise ValueError(f"wall: {exc}") from None
    except TypeError:
        raise ValueError(f"wall: 84 tile kinds (integers, 9-29 in the standard set) or tile "
                         f"strings, got {type(wall).__name__}") from None
    if not all(is_index(t) and 0 <= t < 30 for t in wall):
        bad = next(t for t in wall if not (is_index(t) and 0 <= t < 30))
        raise ValueError(f"wall: 84 tile kinds, integers 0-29 (9-29 in the standard set: 筒, "
                         f"条, 白发中), or tile strings such as '1p'; got {bad!r}")
    return [int(t) for t in wall]


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

    ``rules``: a :class:`RuleSet` or a preset name (default the ``standard`` preset;
    ``ValueError`` for anything else, :func:`ruleset`). ``seed``: the seed of the
    first :meth:`reset` without one. ``per_match``: an episode is a match, not a hand.
    ``piao``: every seat's 漂 preset (R11.1; default: as the rules say — chosen in a piao
    phase with ``piao_choices``, once a match or fixed under R11.2 ``piao_mode``, else 0).
    """

    metadata = {"name": "kawuxing_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, rules: RuleSet | str | None = None, seed: int | None = None,
                 per_match: bool = False, piao: list[int] | None = None) -> None:
        super().__init__()
        self.rules = ruleset(rules)
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
                           dealer=None if dealer is None else int(dealer), windows=True)
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
        """Play the selected agent's ``action`` (a table index its mask allows, a Python or
        numpy integer); a finished agent steps with None. Raises :class:`IllegalEnvAction`
        (state untouched) for an index the mask does not allow or a value that is not an
        integer (never truncated); :class:`EpisodeOver` with no episode in play."""
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
        return {"observation": observation_tensor(observe(hand, seat), own_shown(hand, seat),
                                                  (totals, number, left)),
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
            piao: list[int] | None = None) -> KawuxingAEC:
    """A :class:`KawuxingAEC` (see its docstring); ``seed`` seeds the first reset."""
    return KawuxingAEC(rules, seed, per_match, piao)


__all__ = ["AGENTS", "EpisodeOver", "IllegalEnvAction", "KawuxingAEC", "aec_env", "is_index",
           "next_seat", "ruleset", "wall_kinds"]
