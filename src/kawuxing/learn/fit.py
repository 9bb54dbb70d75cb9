"""Supervised fitting of a :class:`~kawuxing.agents.policy.PolicyNet` in numpy: the policy head
imitates the chosen actions (cross-entropy of the softmax over the legal actions only), the
value head predicts the deciding seat's score change over the hand (squared error, base units
scaled by :data:`VALUE_SCALE`). Adam, minibatches, a seeded order: the same data, seed and
config give the same weights.

Arrays are those of :mod:`kawuxing.learn.selfplay`; :func:`inputs` turns a batch of them into
the ``float32 (B, N)`` inputs the network reads (the planes, and under encoding 2 the shape
features, :mod:`kawuxing.envs.features`, computed once for a data set by :func:`features`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..agents.policy import FEATURES, INPUTS, PolicyNet
from ..agents.tile_head import TileHead
from ..envs.actions import NUM_ACTIONS
from ..envs.features import shape_features
from ..envs.tensors import SCORES
from ..tiles import NUM_KINDS

VALUE_SCALE = 16.0  # base units a unit of the value head's training target
_STANDING = slice(SCORES * NUM_KINDS, SCORES * NUM_KINDS + 11)


def inputs(planes: np.ndarray, standing: np.ndarray, shape: np.ndarray | None = None
           ) -> np.ndarray:
    """``float32 (B, 3060)`` (encoding 1): ``planes`` ``int8 (B, 101, 30)`` with row 101
    (``standing`` ``(B, 11)``, the rest 0) after them; ``(B, 3210)`` (encoding 2) with the
    shape features ``shape`` ``(B, 150)`` (:func:`features`) after those."""
    b = len(planes)
    x = np.zeros((b, FEATURES if shape is None else INPUTS[2]), np.float32)
    x[:, :SCORES * NUM_KINDS] = planes.reshape(b, -1)
    x[:, _STANDING] = standing
    if shape is not None:
        x[:, FEATURES:] = shape
    return x


def features(planes: np.ndarray, chunk: int = 4096,
             progress=lambda done, total: None) -> np.ndarray:
    """``float16 (B, 150)``: the shape features (:mod:`kawuxing.envs.features`) of a data
    set's ``planes`` ``int8 (B, 101, 30)``, in chunks (``progress(done, total)`` after each);
    about 15 µs a decision."""
    out = np.zeros((len(planes), INPUTS[2] - FEATURES), np.float16)
    for start in range(0, len(planes), chunk):
        part = planes[start:start + chunk]
        out[start:start + len(part)] = shape_features(part).reshape(len(part), -1)
        progress(start + len(part), len(planes))
    return out


def masks(packed: np.ndarray) -> np.ndarray:
    """``bool (B, 584)`` from the packed masks of a shard."""
    return np.unpackbits(packed, axis=1, count=NUM_ACTIONS).astype(bool)


@dataclass
class FitConfig:
    """``hidden``: layer widths; ``lr``: Adam's step; ``batch``: decisions a step;
    ``value_weight``: the value loss's weight beside the policy's; ``seed``; ``tile``: the
    width of a tile head (:mod:`kawuxing.agents.tile_head`; 0 none; encoding 2 only)."""

    hidden: list[int] = field(default_factory=lambda: [512, 256])
    lr: float = 1e-3
    batch: int = 512
    value_weight: float = 0.5
    seed: int = 0
    tile: int = 0


def init_net(in_scale: np.ndarray, config: FitConfig) -> PolicyNet:
    """A new network (He-initialised layers, zero biases) reading ``in_scale`` (``(N,)``:
    its length is the encoding's number of inputs, :data:`~kawuxing.agents.policy.INPUTS`)."""
    if len(in_scale) not in INPUTS.values():
        raise ValueError(f"in_scale has {len(in_scale)} inputs; an encoding reads one of "
                         f"{sorted(INPUTS.values())}")
    rng = np.random.default_rng(config.seed)
    sizes = [len(in_scale)] + list(config.hidden)

    def layer(n_in: int, n_out: int, gain: float) -> tuple[np.ndarray, np.ndarray]:
        w = rng.standard_normal((n_in, n_out)) * np.sqrt(gain / n_in)
        return w.astype(np.float32), np.zeros(n_out, np.float32)

    hidden = [layer(sizes[i], sizes[i + 1], 2.0) for i in range(len(config.hidden))]
    net = PolicyNet(in_scale.astype(np.float32), hidden, layer(sizes[-1], NUM_ACTIONS, 0.1),
                    layer(sizes[-1], 1, 0.1))
    if config.tile:
        net.tile = new_tile_head(net, config.tile, rng)
    return net


def new_tile_head(net: PolicyNet, width: int, rng: np.random.Generator) -> TileHead:
    """A tile head of ``width`` for ``net`` (which must read encoding 2): it adds nothing until
    trained. Raises ``ValueError`` under encoding 1."""
    if net.encoding != 2:
        raise ValueError("a tile head reads the shape features: encoding 2 only")
    return TileHead.new(net.hidden[-1][0].shape[1], width, rng)


def input_scale(x: np.ndarray) -> np.ndarray:
    """``(N,)``: 1 over each input's largest magnitude in ``x`` (1 where it is at most 1)."""
    return (1.0 / np.maximum(1.0, np.abs(x).max(axis=0))).astype(np.float32)


class _Activations(list):
    """The layers' activations of :meth:`Trainer.forward` and, with a tile head, what its
    backward pass needs (``tile``)."""

    tile: tuple[np.ndarray, np.ndarray] | None = None


class Trainer:
    """Adam on a :class:`PolicyNet` (value head in units of :data:`VALUE_SCALE` while
    training; :meth:`net_for_play` gives it in base units)."""

    def __init__(self, net: PolicyNet, config: FitConfig) -> None:
        self.net, self.config = net, config
        self.params = [a for w, b in net.hidden for a in (w, b)] + [*net.pi, *net.value]
        if net.tile is not None:
            self.params += net.tile.arrays()
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.steps = 0

    def forward(self, x: np.ndarray, mask: np.ndarray, prior: np.ndarray | None = None
                ) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
        """The layers' activations, the softmax over the legal actions ``(B, 584)`` and the
        value head ``(B,)`` (training units), for :meth:`backward`. ``prior``: ``(B, 584)``
        logits added to the network's (:mod:`kawuxing.agents.prior`; constants, no
        gradient)."""
        net = self.net
        acts = _Activations([x * net.in_scale])
        for w, b in net.hidden:
            acts.append(np.maximum(acts[-1] @ w + b, 0.0))
        h = acts[-1]
        logits = h @ net.pi[0] + net.pi[1]
        if net.tile is not None:
            tile_logits, acts.tile = net.tile.forward(acts[0], h)
            logits += tile_logits
        if prior is not None:
            logits += prior
        z = np.where(mask, logits, -1e9)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        return acts, p, (h @ net.value[0] + net.value[1])[:, 0]

    def backward(self, acts: list[np.ndarray], dz: np.ndarray, dv: np.ndarray
                 ) -> list[np.ndarray]:
        """The gradients of every parameter (in :attr:`params` order) given the loss's
        gradients on the logits ``dz (B, 584)`` and on the value ``dv (B,)``."""
        net = self.net
        h = acts[-1]
        dv = dv[:, None]
        grads_pi = [h.T @ dz, dz.sum(0)]
        grads_v = [h.T @ dv, dv.sum(0)]
        dh = dz @ net.pi[0].T + dv @ net.value[0].T
        grads_tile: list[np.ndarray] = []
        if net.tile is not None:
            grads_tile, dh_tile = net.tile.backward(acts.tile, h, dz)
            dh += dh_tile
        grads_hidden: list[np.ndarray] = []
        for i in range(len(net.hidden) - 1, -1, -1):
            dh = dh * (acts[i + 1] > 0)
            grads_hidden[:0] = [acts[i].T @ dh, dh.sum(0)]
            if i:
                dh = dh @ net.hidden[i][0].T
        return grads_hidden + grads_pi + grads_v + grads_tile

    def loss_and_grads(self, x: np.ndarray, mask: np.ndarray, action: np.ndarray,
                       outcome: np.ndarray) -> tuple[float, float, list[np.ndarray]]:
        """Policy loss, value loss (mean squared error in scaled units) and the gradients of
        their weighted sum, for a batch."""
        acts, p, value = self.forward(x, mask)
        n = len(action)
        rows = np.arange(n)
        policy_loss = float(-np.log(p[rows, action] + 1e-12).mean())
        err = value - outcome / VALUE_SCALE
        value_loss = float((err ** 2).mean())
        dz = p
        dz[rows, action] -= 1
        dz /= n
        dv = (2 * self.config.value_weight / n) * err
        return policy_loss, value_loss, self.backward(acts, dz, dv)

    def apply(self, grads: list[np.ndarray]) -> None:
        """One Adam step along ``grads``."""
        self.steps += 1
        lr, b1, b2 = self.config.lr, 0.9, 0.999
        c1, c2 = 1 - b1 ** self.steps, 1 - b2 ** self.steps
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= lr * (m / c1) / (np.sqrt(v / c2) + 1e-8)

    def step(self, x, mask, action, outcome) -> tuple[float, float]:
        """One Adam step on a batch; returns its (policy, value) losses."""
        pl, vl, grads = self.loss_and_grads(x, mask, action, outcome)
        self.apply(grads)
        return pl, vl

    def net_for_play(self, meta: dict) -> PolicyNet:
        """A copy of the network with the value head in base units and ``meta``."""
        net = self.net
        w, b = net.value
        tile = None if net.tile is None else TileHead(*(a.copy() for a in net.tile.arrays()))
        return PolicyNet(net.in_scale.copy(), [(w_.copy(), b_.copy()) for w_, b_ in net.hidden],
                         (net.pi[0].copy(), net.pi[1].copy()),
                         (w * VALUE_SCALE, b * VALUE_SCALE), meta, tile)

    def state(self) -> dict[str, np.ndarray]:
        """Adam's moments and step count, to resume (arrays by name)."""
        out = {f"m{i}": m for i, m in enumerate(self.m)}
        out.update({f"v{i}": v for i, v in enumerate(self.v)})
        out["steps"] = np.array(self.steps)
        return out

    def load_state(self, state: dict[str, np.ndarray]) -> None:
        """Resume Adam from :meth:`state`'s arrays."""
        for i in range(len(self.params)):
            self.m[i][...] = state[f"m{i}"]
            self.v[i][...] = state[f"v{i}"]
        self.steps = int(state["steps"])


def agreement(net: PolicyNet, x: np.ndarray, mask: np.ndarray, action: np.ndarray,
              batch: int = 4096) -> float:
    """The share of decisions where the network's best legal action is ``action``."""
    hits = 0
    for i in range(0, len(action), batch):
        logits, _ = net.forward(x[i:i + batch])
        logits = np.where(mask[i:i + batch], logits, -np.inf)
        hits += int((logits.argmax(1) == action[i:i + batch]).sum())
    return hits / max(1, len(action))
