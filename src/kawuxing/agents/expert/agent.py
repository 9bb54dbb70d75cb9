"""The expert agent: plays the first of :func:`.brain.rank_actions` (RULES.md R4-R11), or the
heuristic's choice when the model rates it nearly as high (a second opinion, issue 11)."""

from __future__ import annotations

from ...engine.actions import Action
from ...engine.state import TURN
from ...engine.observation import Observation
from ...melds import MELD_PUNG
from ..heuristic import HeuristicAgent
from .brain import rank_actions, rank_value
from .table import DEFAULT_PARAMS, Params


class ExpertAgent:
    """A bot that takes, at every decision, the legal action of highest expected value in base
    units under the room's RuleSet (hand value, kong money, 包胡 both ways, 荒庄 compensation,
    the race against the wall and the opponents, the danger of each discard).

    It sees only its seat's :class:`Observation` (R13) and keeps one fact between calls: how
    many kongs it had at its last decision, to know that a turn follows its own kong (杠上炮,
    杠上开花, R9.1). ``seed`` is accepted like every agent's; the expert uses no randomness, so
    its play is the same for a seed.

    Second opinion: with ``params.heuristic_margin`` > 0 a ``heuristic:3`` of the same seed
    (:class:`~kawuxing.agents.heuristic.HeuristicAgent`, same Observation) is asked at every
    decision too (it keeps its own state); when its choice differs from the model's best but
    ranks in the same pace class (:func:`~.brain.rank_value`) and at most
    ``heuristic_margin`` base units below it, the heuristic's choice is played. Where the
    model's estimates are that close it is the noisier judge; the duplicate arena measured
    the blend ahead of both bots alone (docs/bots.md).
    """

    name = "expert"

    def __init__(self, seed: int | str | None = None, params: Params = DEFAULT_PARAMS) -> None:
        self.params = params
        self._heuristic = HeuristicAgent(3, seed) if params.heuristic_margin > 0 else None
        self._kongs = 0
        self._wall = -1

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """The best action of ``legal`` (:func:`rank_actions`, then the second opinion)."""
        if obs.wall_left > self._wall:  # a new hand
            self._kongs = 0
        kongs = sum(1 for kind, _ in obs.melds[obs.seat] if kind != MELD_PUNG)
        after_kong = obs.phase == TURN and obs.turn == obs.seat and kongs > self._kongs
        self._kongs, self._wall = kongs, obs.wall_left
        second = self._heuristic.act(obs, legal) if self._heuristic else None
        if len(legal) == 1:
            return legal[0]
        ranked = rank_actions(obs, legal, after_kong, params=self.params)
        if second is not None and second != ranked[0].action:
            best = rank_value(ranked[0])
            other = rank_value(next(c for c in ranked if c.action == second))
            if other[0] == best[0] and best[1] - other[1] <= self.params.heuristic_margin:
                return second
        return ranked[0].action
