"""The game engine: one hand (:class:`Hand`) and a match of hands (:class:`Match`).

Pure and deterministic: no I/O, no clock, no global RNG, no OS randomness (the caller passes
the seed, the wall or a source of secret seed bytes). :func:`legal.legal_actions` is the one
place that decides legality; :mod:`views` is the only thing meant to reach a player (R13).
"""

from .actions import (ADDED_KONG, CONCEALED_KONG, DISCARD, KONG, PASS, PIAO, PUNG, VERBS, WIN,
                      Action, IllegalAction)
from .hand import Hand, new_wall
from .match import Match
from .state import CLAIM, ENDED, PIAO_PHASE, ROB, TURN

__all__ = ["ADDED_KONG", "CLAIM", "CONCEALED_KONG", "DISCARD", "ENDED", "KONG", "PASS", "PIAO",
           "PIAO_PHASE", "PUNG", "ROB", "TURN", "VERBS", "WIN", "Action", "Hand", "IllegalAction",
           "Match", "new_wall"]
