"""Research environments for reinforcement learning (docs/research.md).

Numpy only (what a trained policy needs to play, and the batched env):

- the fixed action table (:mod:`.actions`), the observation planes (:mod:`.tensors`), their
  fast incremental encoder (:class:`HandEncoder`) and the planes rebuilt from a bot-protocol
  view (:func:`view_tensor`);
- :class:`VectorEnv`: ``n`` hands stepped at once, self-play, auto-reset.

With ``pip install 'kawuxing[rl]'`` (PettingZoo and Gymnasium, imported on first use):

- :func:`aec_env`: a PettingZoo AEC environment, agents ``seat_0``-``seat_2``, with the engine's
  claim windows (R13.2) so that the agent order never tells who could claim (``skip_forced``:
  the fast mode);
- ``gymnasium.make("kawuxing/Kawuxing-v0", opponents=("expert", "heuristic"), rules=...)``:
  one learning seat against two bots (:class:`KawuxingGym`).
"""

from importlib import import_module

from .actions import NUM_ACTIONS, UnmappedAction, action_index, index_action, legal_indices
from .common import IllegalEnvAction
from .encoder import HandEncoder
from .tensors import HIDDEN_SHAPE, SHAPE, observation_tensor, own_shown, privileged_tensor
from .vector import VectorEnv
from .views import ViewError, observation_from_view, view_tensor

ENV_ID = "kawuxing/Kawuxing-v0"
_LAZY = {"AGENTS": ".aec", "EpisodeOver": ".aec", "KawuxingAEC": ".aec", "aec_env": ".aec",
         "KawuxingGym": ".gym_env"}

try:  # registered when Gymnasium is installed (the [rl] extra)
    import gymnasium
except ImportError:  # pragma: no cover - the numpy-only install
    gymnasium = None
if gymnasium is not None and ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="kawuxing.envs.gym_env:KawuxingGym")


def __getattr__(name: str):
    """The PettingZoo and Gymnasium parts, imported when first named (they need the [rl]
    extra: ``ModuleNotFoundError`` naming the missing package and the extra otherwise)."""
    if name in _LAZY:
        try:
            module = import_module(_LAZY[name], __name__)
        except ModuleNotFoundError as exc:
            raise ModuleNotFoundError(f"kawuxing.envs.{name} needs {exc.name}: pip install "
                                      f"'kawuxing[rl]'", name=exc.name) from None
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AGENTS", "ENV_ID", "HIDDEN_SHAPE", "NUM_ACTIONS", "SHAPE", "EpisodeOver",
           "HandEncoder", "IllegalEnvAction", "KawuxingAEC", "KawuxingGym", "UnmappedAction",
           "VectorEnv", "ViewError", "action_index", "aec_env", "index_action", "legal_indices",
           "observation_from_view", "observation_tensor", "own_shown", "privileged_tensor",
           "view_tensor"]
