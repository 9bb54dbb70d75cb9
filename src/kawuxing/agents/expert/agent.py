"""The expert agent: plays the first of :func:`.brain.rank_actions` (RULES.md R4-R11)."""

from __future__ import annotations

from ...engine.actions import Action
from ...engine.state import TURN
from ...engine.observation import Observation
from ...melds import MELD_PUNG
from .brain import rank_actions
from .table import DEFAULT_PARAMS, Params


class ExpertAgent:
    """A bot that takes, at every decision, the legal action of highest expected value in base
    units under the room's RuleSet (hand value, kong money, 包胡 both ways, 荒庄 compensation,
    the race against the wall and the opponents, the danger of each discard).

    It sees only its seat's :class:`Observation` (R13) and keeps one fact between calls: how
    many kongs it had at its last decision, to know that a turn follows its own kong (杠上炮,
    杠上开花, R9.1). ``seed`` is accepted like every agent's; the expert uses no randomness, so
    its play is the same for a seed.
    """

    name = "expert"

    def __init__(self, seed: int | str | None = None, params: Params = DEFAULT_PARAMS) -> None:
        self.params = params
        self._kongs = 0
        self._wall = -1

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """The best action of ``legal`` (:func:`rank_actions`)."""
        if obs.wall_left > self._wall:  # a new hand
            self._kongs = 0
        kongs = sum(1 for kind, _ in obs.melds[obs.seat] if kind != MELD_PUNG)
        after_kong = obs.phase == TURN and obs.turn == obs.seat and kongs > self._kongs
        self._kongs, self._wall = kongs, obs.wall_left
        if len(legal) == 1:
            return legal[0]
        return rank_actions(obs, legal, after_kong, params=self.params)[0].action
