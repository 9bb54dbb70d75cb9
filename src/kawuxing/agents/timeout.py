"""The agent a server plays for a seat whose decision time ran out (docs/protocol.md "Time").

:class:`TimeoutAgent` decides like every agent, from the seat's
:class:`~kawuxing.engine.observation.Observation` and its legal actions (R13): it never reads
the hand. It is not a bot of the registry (a seat cannot be given to it): it is the least a
player who did not answer would do.
"""

from __future__ import annotations

from ..engine.actions import DISCARD, PASS, PIAO, Action
from ..engine.observation import Observation


class TimeoutAgent:
    """What the server plays when a seat's time is out (R4 decisions):

    - on a discard or a kong being added (R4.3, R7.4): ``pass``;
    - choosing 漂 (R11.1): the smallest amount;
    - in its turn (R4.1): the tile just drawn (``obs.drawn``) if that discard is legal, else
      the first legal discard — never a 亮倒 (R8) while a plain discard is legal.

    ``act`` raises ``ValueError`` for an empty ``legal`` (every agent is asked only when its
    seat has a decision).
    """

    name = "timeout"

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """The timeout choice among ``legal`` (see the class doc)."""
        if not legal:
            raise ValueError("TimeoutAgent.act: no legal action to choose from")
        for action in legal:
            if action.verb == PASS:
                return action
        piao = [a for a in legal if a.verb == PIAO]
        if piao:
            return min(piao, key=lambda a: a.piao)
        discards = [a for a in legal if a.verb == DISCARD and not a.declare]
        if discards:
            for action in discards:
                if action.tile == obs.drawn:
                    return action
            return discards[0]
        declares = [a for a in legal if a.verb == DISCARD]
        return declares[0] if declares else legal[0]
