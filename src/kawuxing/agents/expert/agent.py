"""The expert agent: plays the first of :func:`agent_choices` — the model's ranking
(:func:`.brain.rank_actions`, RULES.md R4-R11) with the heuristic's choice put first when the
model rates it nearly as high (a second opinion, issue 11). Hints show the same list."""

from __future__ import annotations

from dataclasses import replace

from ...engine.actions import DISCARD, Action
from ...engine.state import TURN
from ...engine.observation import Observation
from ...melds import MELD_PUNG
from ..heuristic import HeuristicAgent
from .brain import Choice, rank_actions, rank_value
from .rollout import mc_samples, mc_values
from .table import DEFAULT_PARAMS, Params


def agent_choices(obs: Observation, legal: list[Action], after_kong: bool = False,
                  explain: bool = False, params: Params = DEFAULT_PARAMS) -> list[Choice]:
    """Every action of ``legal`` (never empty) ranked as :class:`ExpertAgent` plays, its
    choice first: :func:`~.brain.rank_actions`, then the second opinion — where
    ``heuristic:3``'s choice (:meth:`HeuristicAgent.decide` on the same Observation, R13,
    and ``after_kong``, R9.1) differs from the model's best but is in the same pace class
    (:func:`~.brain.rank_value`) and at most ``params.heuristic_margin`` base units below
    it (``params.declare_margin`` where either is a 亮倒, R8.1), that choice moves to the
    front with a reason ``second`` {gap: base units below the model's best, best: the
    model's own best action as JSON}. The rest keep the model's order. ``explain`` as in :func:`~.brain.rank_actions`.
    With ``params.mc_rollouts`` > 0 a close 亮倒 decision is settled by :func:`monte_carlo`
    first (no second opinion then); with ``params.mc_switch`` > 0 a turn where the choice and
    heuristic:3's (or the model's best) differ is settled by rollouts (:func:`improve`)."""
    ranked = rank_actions(obs, legal, after_kong, explain, params)
    settled = monte_carlo(obs, ranked, after_kong, params)
    if settled is not None:
        return settled
    if len(ranked) < 2 or params.heuristic_margin <= 0 and params.mc_switch <= 0:
        return ranked
    second = HeuristicAgent(3).decide(obs, legal, after_kong)
    chosen = _second_opinion(ranked, second, params)
    others = [ranked[0].action, second] if params.mc_model else [second]
    return improve(obs, chosen, others, after_kong, params)


def _second_opinion(ranked: list[Choice], second: Action, params: Params) -> list[Choice]:
    """``ranked`` with heuristic:3's choice ``second`` first where the model rates it
    close enough (:func:`agent_choices`)."""
    if params.heuristic_margin <= 0 or second == ranked[0].action:
        return ranked
    best = rank_value(ranked[0])
    i, other = next((i, c) for i, c in enumerate(ranked) if c.action == second)
    gap = best[1] - rank_value(other)[1]
    margin = (params.declare_margin if second.declare or ranked[0].action.declare
              else params.heuristic_margin)
    if rank_value(other)[0] != best[0] or gap > margin or margin <= 0:
        return ranked
    taken = replace(other, reasons=other.reasons + (
        ("second", {"gap": round(gap, 3), "best": ranked[0].action.to_json()}),))
    return [taken] + ranked[:i] + ranked[i + 1:]


def improve(obs: Observation, chosen: list[Choice], others: list[Action],
            after_kong: bool = False, params: Params = DEFAULT_PARAMS) -> list[Choice]:
    """Rollout policy improvement (issue 11; Tesauro, Bertsekas): in the seat's own turn,
    not declared (R8.2: a declared hand has no choice but to win), where the agent's choice
    ``chosen[0]`` and any of ``others`` (heuristic:3's choice, and the model's best with
    ``params.mc_model``) differ, the distinct ones are played out in the same
    ``params.mc_switch`` sampled worlds (:func:`.rollout.mc_samples`, R13: only the unseen
    tiles are dealt) by
    ``params.mc_policy`` — ``"heuristic"``: heuristic:3 in every seat, the arena's
    opponents — and one whose mean money beats the agent's choice by more than
    ``params.mc_threshold`` base units (the highest) — and by more than ``params.mc_z``
    standard errors of the paired difference — goes first with a reason ``rollout``
    {values: [[action as JSON, mean base units]], rollouts}; else ``chosen`` as it is
    (ties keep it). Off with ``params.mc_switch`` 0; ``chosen`` too where no deal fits the
    Observation (a free-standing position of ``kawuxing hint``)."""
    if (params.mc_switch <= 0 or obs.phase != TURN or obs.turn != obs.seat
            or obs.declared[obs.seat]):
        return chosen
    candidates = [chosen[0].action]
    for a in others:
        if a not in candidates:
            candidates.append(a)
    if len(candidates) < 2:
        return chosen
    n = params.mc_switch
    try:
        samples = mc_samples(obs, candidates, n, after_kong, params.mc_policy)
    except ValueError:
        return chosen
    values = [sum(s) / n for s in samples]
    best = max(range(len(values)), key=lambda i: (values[i], -i))
    if best == 0 or values[best] <= values[0] + params.mc_threshold:
        return chosen
    if params.mc_z > 0 and n > 1:  # the paired difference must stand out of its noise
        diffs = [b - a for a, b in zip(samples[0], samples[best])]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean <= params.mc_z * (var / n) ** 0.5:
            return chosen
    first = next(c for c in chosen if c.action == candidates[best])
    taken = replace(first, reasons=first.reasons + (
        ("rollout", {"values": [[a.to_json(), round(v, 3)] for a, v in zip(candidates, values)],
                     "rollouts": params.mc_switch}),))
    return [taken] + [c for c in chosen if c is not first]


def monte_carlo(obs: Observation, ranked: list[Choice], after_kong: bool = False,
                params: Params = DEFAULT_PARAMS) -> list[Choice] | None:
    """A close 亮倒 decision (R8.1) settled by determinised Monte Carlo, or None.

    In the seat's own turn, not yet declared, where the model's ranking ``ranked`` starts
    with a discard and its best 亮倒 and its best other discard are within
    ``params.mc_margin`` base units (ranking values, :func:`~.brain.rank_value`): both are
    played out in the same ``params.mc_rollouts`` sampled worlds (:func:`.rollout.mc_values`,
    R13: only the unseen tiles are dealt) by ``params.mc_policy`` and the one of higher mean
    money goes first, with a
    reason ``mc`` {declare, rest: mean base units of the 亮倒 and of the other, rollouts}.
    None when ``params.mc_rollouts`` is 0, the decision is not such a one, or no deal fits
    the Observation (a free-standing position of ``kawuxing hint``)."""
    if (params.mc_rollouts <= 0 or obs.phase != TURN or obs.turn != obs.seat
            or obs.declared[obs.seat] or not ranked or ranked[0].action.verb != DISCARD):
        return None
    declare = next((c for c in ranked if c.action.declare), None)
    rest = next((c for c in ranked if c.action.verb == DISCARD and not c.action.declare), None)
    if declare is None or rest is None:
        return None
    if abs(rank_value(declare)[1] - rank_value(rest)[1]) > params.mc_margin:
        return None
    try:
        values = mc_values(obs, [declare.action, rest.action], params.mc_rollouts, after_kong,
                           params.mc_policy)
    except ValueError:  # an Observation no deal fits (a free-standing position): the model
        return None
    first = declare if values[0] > values[1] else rest
    taken = replace(first, reasons=first.reasons + (
        ("mc", {"declare": round(values[0], 3), "rest": round(values[1], 3),
                "rollouts": params.mc_rollouts}),))
    return [taken] + [c for c in ranked if c is not first]


class ExpertAgent:
    """A bot that takes, at every decision, the legal action of highest expected value in base
    units under the room's RuleSet (hand value, kong money, 包胡 both ways, 荒庄 compensation,
    the race against the wall and the opponents, the danger of each discard).

    It sees only its seat's :class:`Observation` (R13) and keeps one fact between calls: how
    many kongs it had at its last decision, to know that a turn follows its own kong (杠上炮,
    杠上开花, R9.1). ``seed`` is accepted like every agent's; the expert uses no randomness, so
    its play is the same for a seed.

    Second opinion: with ``params.heuristic_margin`` > 0 it plays ``heuristic:3``'s choice
    where the model rates it nearly as high (:func:`agent_choices`, the list hints show).
    Where the model's estimates are that close it is the noisier judge; the duplicate arena
    measured the blend ahead of both bots alone (docs/bots.md).
    """

    name = "expert"

    def __init__(self, seed: int | str | None = None, params: Params = DEFAULT_PARAMS) -> None:
        self.params = params
        self._kongs = 0
        self._wall = -1

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """The first action of :func:`agent_choices` for ``legal``."""
        after_kong = self.after_kong(obs)
        if len(legal) == 1:
            return legal[0]
        return agent_choices(obs, legal, after_kong, params=self.params)[0].action

    def after_kong(self, obs: Observation) -> bool:
        """Whether this decision is the seat's turn right after its own kong (杠上炮,
        杠上开花, R9.1): it has more kongs than at its previous decision of the hand. Call it
        at every decision (it keeps the count)."""
        if obs.wall_left > self._wall:  # a new hand
            self._kongs = 0
        kongs = sum(1 for kind, _ in obs.melds[obs.seat] if kind != MELD_PUNG)
        after = obs.phase == TURN and obs.turn == obs.seat and kongs > self._kongs
        self._kongs, self._wall = kongs, obs.wall_left
        return after
