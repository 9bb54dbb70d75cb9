"""Research environments for reinforcement learning (``pip install 'kawuxing[rl]'``).

- :func:`aec_env`: a PettingZoo AEC environment, agents ``seat_0``-``seat_2``, with the engine's
  claim windows (R13.2) so that the agent order never tells who could claim.
- ``gymnasium.make("kawuxing/Kawuxing-v0", opponents=("expert", "heuristic"), rules=...)``:
  one learning seat against two bots (:class:`KawuxingGym`).
- The fixed action table (:mod:`.actions`) and the observation planes (:mod:`.tensors`).

See docs/research.md.
"""

import gymnasium

from .actions import NUM_ACTIONS, UnmappedAction, action_index, index_action, legal_indices
from .aec import AGENTS, EpisodeOver, IllegalEnvAction, KawuxingAEC, aec_env
from .gym_env import ENV_ID, KawuxingGym
from .tensors import HIDDEN_SHAPE, SHAPE, observation_tensor, own_shown, privileged_tensor

if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="kawuxing.envs.gym_env:KawuxingGym")

__all__ = ["AGENTS", "ENV_ID", "HIDDEN_SHAPE", "NUM_ACTIONS", "SHAPE", "EpisodeOver",
           "IllegalEnvAction", "KawuxingAEC", "KawuxingGym", "UnmappedAction", "action_index",
           "aec_env", "index_action", "legal_indices", "observation_tensor", "own_shown",
           "privileged_tensor"]
