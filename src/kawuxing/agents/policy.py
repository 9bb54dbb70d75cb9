"""Trained policies as bots: a saved network run with numpy only (RULES.md R13: it reads
nothing but its seat's Observation).

A *policy file* is a ``.npz`` of ``float32`` arrays and one JSON string:

- ``meta``: ``{"format": "kawuxing-policy", "encoding": 1 or 2, "hidden": [H1, H2, …], …}``
  (training config, figures and whatever else the trainer keeps);
- ``in_scale``: ``(N,)``: each input is multiplied by it first (``N``: :data:`INPUTS` of the
  encoding);
- ``w0, b0, w1, b1, …``: the hidden layers (``(N, H1)``, ``(H1,)``, ``(H1, H2)``, …), ReLU;
- ``pi_w, pi_b``: ``(H, 584)``, ``(584,)``: one logit per action index
  (:mod:`kawuxing.envs.actions`); ``v_w, v_b``: ``(H, 1)``, ``(1,)``: the value head, the
  seat's expected score change over the hand (base units);
- with ``meta["tile"]`` ``T`` (encoding 2 only): ``tile_a, tile_b, tile_c, tile_v``
  (``(104, T)``, ``(30, T)``, ``(H, T)``, ``(T, 3)``): the tile head
  (:mod:`kawuxing.agents.tile_head`), whose per-kind scores are added to the logits.

``meta`` may hold ``"prior"``: the network's logits are then added to the expert's ranking
(a residual policy, :mod:`kawuxing.agents.prior`).

The input is the observation tensor of :mod:`kawuxing.envs.tensors` flattened: ``encoding``
1 is the 102 × 30 planes documented there (3,060 inputs); ``encoding`` 2 adds the 5 × 30 shape
features :mod:`kawuxing.envs.features` derives from them (3,210 inputs).
:meth:`PolicyNet.inputs` builds either from the planes; :class:`PolicyAgent` builds the
planes from the seat's Observation and plays the legal action of highest logit.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from threadpoolctl import ThreadpoolController

from ..engine.actions import DISCARD, Action
from ..engine.observation import Observation
from ..envs.actions import NUM_ACTIONS, legal_indices
from ..envs.features import ROWS as FEATURE_ROWS
from ..envs.features import shape_features
from ..envs.tensors import SHAPE, observation_tensor
from ..envs.views import seat_shown
from ..tiles import NUM_KINDS
from .expert import ExpertAgent
from .prior import Prior
from .tile_head import OUTPUTS as TILE_OUTPUTS
from .tile_head import TILE_INPUTS, TileHead

FORMAT = "kawuxing-policy"
FEATURES = SHAPE[0] * SHAPE[1]  # 3,060: the planes of kawuxing.envs.tensors, flattened
# inputs by encoding: 1 the planes; 2 the planes and the shape features (kawuxing.envs.features)
INPUTS = {1: FEATURES, 2: FEATURES + FEATURE_ROWS * SHAPE[1]}
ENCODING = 2  # what a new network reads; both play (and the 584-action table of envs.actions)


_BLAS: list = []  # the BLAS thread pools, found once (threadpoolctl)


def _one_thread():
    """A context in which BLAS uses one thread: one observation is too small to share, and
    a second thread that waits for a busy core made a decision ten times slower."""
    if not _BLAS:
        _BLAS.append(ThreadpoolController().select(user_api="blas"))
    return _BLAS[0].limit(limits=1)


class PolicyError(ValueError):
    """A policy file that cannot be played: missing, unreadable, another format or
    encoding, or arrays of the wrong shapes. The message names the file and what is wrong."""


@dataclass
class PolicyNet:
    """A policy and value network (module docstring): ``hidden`` ``[(w, b), …]``, the heads
    ``pi`` and ``value`` as ``(w, b)``, ``in_scale`` ``(N,)``, ``meta`` and an optional
    ``tile`` head (encoding 2 only); the encoding (1 or 2) follows from ``N``
    (:data:`INPUTS`)."""

    in_scale: np.ndarray
    hidden: list[tuple[np.ndarray, np.ndarray]]
    pi: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]
    meta: dict = field(default_factory=dict)
    tile: TileHead | None = None

    @property
    def prior(self) -> Prior | None:
        """The expert's ranking added to the logits (:mod:`.prior`), or None."""
        return Prior.from_meta(self.meta)

    @property
    def encoding(self) -> int:
        """1 (the planes) or 2 (the planes and the shape features)."""
        return 1 if len(self.in_scale) == INPUTS[1] else 2

    def inputs(self, planes: np.ndarray) -> np.ndarray:
        """``float32 (B, N)``: the network's inputs for ``planes`` ``(B, 102, 30)`` (the
        env's observations): flattened, then under encoding 2 the shape features."""
        b = len(planes)
        flat = planes.reshape(b, FEATURES).astype(np.float32, copy=False)
        if self.encoding == 1:
            return flat
        return np.concatenate([flat, shape_features(planes).reshape(b, -1)], axis=1)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``x``: ``(B, N)`` inputs (:meth:`inputs`). Returns ``(logits (B, 584), value
        (B,))``."""
        h = scaled = x * self.in_scale
        for w, b in self.hidden:
            h = np.maximum(h @ w + b, 0.0)
        logits = h @ self.pi[0] + self.pi[1]
        if self.tile is not None:
            logits += self.tile.forward(scaled, h)[0]
        return logits, (h @ self.value[0] + self.value[1])[:, 0]

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays of a policy file (module docstring), ``meta`` as a JSON string."""
        shape = {"format": FORMAT, "encoding": self.encoding,
                 "hidden": [w.shape[1] for w, _ in self.hidden]}
        meta = {k: v for k, v in self.meta.items() if k != "tile"} | shape
        if self.tile is not None:
            meta["tile"] = self.tile.width
        out = {"meta": np.array(json.dumps(meta)), "in_scale": self.in_scale}
        for i, (w, b) in enumerate(self.hidden):
            out[f"w{i}"], out[f"b{i}"] = w, b
        out["pi_w"], out["pi_b"] = self.pi
        out["v_w"], out["v_b"] = self.value
        if self.tile is not None:
            for key, a in zip("abcv", self.tile.arrays()):
                out[f"tile_{key}"] = a
        return out

    def save(self, path: str | Path) -> None:
        """Write the policy file (``float32``, compressed)."""
        np.savez_compressed(path, **self.arrays())

    @classmethod
    def load(cls, path: str | Path) -> PolicyNet:
        """Read a policy file. Raises :class:`PolicyError` naming the file for a missing or
        unreadable file, another format or encoding version, or an array of the wrong
        shape."""
        path = Path(path)
        if path.is_dir():
            raise PolicyError(f"{path}: a folder, not a policy file (an .npz archive of arrays)")
        if path.is_file() and not zipfile.is_zipfile(path):
            raise PolicyError(f"{path}: not a policy file (an .npz archive of arrays)")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except FileNotFoundError:
            raise PolicyError(f"{path}: no such policy file") from None
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
            raise PolicyError(f"{path}: not a policy file (.npz of arrays): {exc}") from None
        return cls.from_arrays(arrays, str(path))

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], name: str = "policy") -> PolicyNet:
        """A network from the arrays of a policy file; :class:`PolicyError` as :meth:`load`."""
        try:
            meta = json.loads(str(arrays["meta"]))
        except KeyError:
            raise PolicyError(f"{name}: no 'meta' entry: not a {FORMAT} file") from None
        except ValueError:
            raise PolicyError(f"{name}: 'meta' is not JSON") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise PolicyError(f"{name}: format {meta.get('format') if isinstance(meta, dict) else meta!r}, "
                              f"expected {FORMAT!r}")
        encoding = meta.get("encoding")
        if encoding not in INPUTS:
            raise PolicyError(f"{name}: observation encoding {encoding!r}; this version plays "
                              f"encodings 1 (102 x 30 planes) and 2 (planes and shape "
                              f"features), 584 actions")
        widths = meta.get("hidden")
        if not isinstance(widths, list) or not widths or not all(
                isinstance(h, int) and h > 0 for h in widths):
            raise PolicyError(f"{name}: meta.hidden must list the hidden layer widths")

        def get(key: str, shape: tuple[int, ...]) -> np.ndarray:
            if key not in arrays:
                raise PolicyError(f"{name}: no array {key!r}")
            a = arrays[key]
            if a.shape != shape:
                raise PolicyError(f"{name}: {key} has shape {a.shape}, expected {shape}")
            if not np.issubdtype(a.dtype, np.floating):
                raise PolicyError(f"{name}: {key} must hold finite floats")
            with np.errstate(over="ignore"):  # (a float64 beyond float32's range: inf)
                a = a.astype(np.float32)
            if not np.isfinite(a).all():
                raise PolicyError(f"{name}: {key} must hold finite floats (of float32's range)")
            return a

        try:
            Prior.from_meta(meta, name)
        except ValueError as exc:
            raise PolicyError(str(exc)) from None
        sizes = [INPUTS[encoding]] + widths
        hidden = [(get(f"w{i}", (sizes[i], sizes[i + 1])), get(f"b{i}", (sizes[i + 1],)))
                  for i in range(len(widths))]
        last = widths[-1]
        tile = None
        width = meta.get("tile")
        if width is not None:
            if encoding != 2 or not isinstance(width, int) or isinstance(width, bool) or width < 1:
                raise PolicyError(f"{name}: meta.tile must be the tile head's width, a whole "
                                  f"number of at least 1, under encoding 2")
            tile = TileHead(get("tile_a", (TILE_INPUTS, width)), get("tile_b", (NUM_KINDS, width)),
                            get("tile_c", (last, width)), get("tile_v", (width, TILE_OUTPUTS)))
        return cls(get("in_scale", (sizes[0],)), hidden,
                   (get("pi_w", (last, NUM_ACTIONS)), get("pi_b", (NUM_ACTIONS,))),
                   (get("v_w", (last, 1)), get("v_b", (1,))), meta, tile)


class PolicyAgent:
    """An :class:`~kawuxing.agents.base.Agent` playing a :class:`PolicyNet`: the tensor of its
    seat's Observation (:func:`~kawuxing.envs.tensors.observation_tensor`, the env's), the
    legal action of highest logit (ties: the lowest index). Its own 亮倒 tiles (row 10) come
    from the face-down triplets of its own declaring discard (R8.6); an agent that did not see
    its declaration (taken over mid-hand) counts none face down. A network with a prior adds
    the expert's ranking of the same Observation to its logits (:mod:`.prior`)."""

    def __init__(self, net: PolicyNet, seed: int | str | None = None, name: str = "policy"
                 ) -> None:
        self.net = net
        self.name = name
        self.prior = net.prior
        self._expert = ExpertAgent(seed) if self.prior else None
        self._after_kong = False
        self._face_down: tuple[int, ...] | None = None
        self._wall = -1

    def tensor(self, obs: Observation) -> np.ndarray:
        """The ``float32 (102, 30)`` planes this agent reads for ``obs``."""
        if obs.wall_left > self._wall or not obs.declared[obs.seat]:
            self._face_down = None  # a new hand, or not declared yet
        self._wall = obs.wall_left
        return observation_tensor(obs, seat_shown(obs, self._face_down))

    def evaluate(self, obs: Observation, legal: list[Action]
                 ) -> tuple[dict[int, Action], np.ndarray, float]:
        """``(index -> legal action, masked logits (584,) with -inf where illegal, value)``."""
        mapped = legal_indices(legal, obs.concealed, obs.rules)
        with _one_thread():
            logits, value = self.net.forward(self.net.inputs(self.tensor(obs)[None]))
        masked = np.full(NUM_ACTIONS, -np.inf, np.float32)
        keys = list(mapped)
        masked[keys] = logits[0, keys]
        if self.prior:
            masked[keys] += self.prior.logits(obs, mapped, self._after_kong)[keys]
        return mapped, masked, float(value[0])

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """The legal action of highest logit (the only one when there is one)."""
        if self._expert:
            self._after_kong = self._expert.after_kong(obs)  # at every decision (R9.1)
        if len(legal) == 1:
            chosen = legal[0]
        else:
            mapped, masked, _ = self.evaluate(obs, legal)
            chosen = mapped[int(np.argmax(masked))]
        self.remember(chosen)
        return chosen

    def remember(self, action: Action) -> None:
        """Note the seat's own ``action``: a declaring discard fixes the triplets it keeps
        face down (R8.6), which the planes' row 10 leaves out."""
        if action.verb == DISCARD and action.declare:
            face_down = [0] * NUM_KINDS
            for kind in action.hidden:
                face_down[kind] += 3
            self._face_down = tuple(face_down)
