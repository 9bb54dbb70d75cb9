"""An oracle critic for self-play (issue 32; Suphx's "oracle guiding" applied to the baseline):
a value network that reads, besides the deciding seat's own inputs, what that seat cannot see
— the other seats' concealed tiles, the wall's counts and next draws, their options
(:func:`kawuxing.envs.privileged_tensor`).

PPO's advantage of a decision is its return less a baseline; the closer the baseline is to the
return, the less noise in every gradient. A baseline may read anything that does not depend on
the action taken, so a critic that sees the hidden hands predicts the outcome far better than
the policy's own value head (which reads only the seat's Observation, R13) and the policy
gradient stays unbiased. The critic is used **in training only**: it is never saved in a
policy file, and no bot reads it.

The network: inputs ``x`` ``(B, N)`` (the policy's scaled inputs) and ``hidden`` ``(B, 630)``
(the privileged planes flattened) → ``widths`` ReLU layers → one value (the training units of
:data:`kawuxing.learn.fit.VALUE_SCALE`), fitted by squared error with Adam.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..envs.tensors import HIDDEN_SHAPE

PRIVILEGED = HIDDEN_SHAPE[0] * HIDDEN_SHAPE[1]  # 630


class OracleCritic:
    """A value network over a seat's inputs and the privileged planes (module docstring).
    ``inputs``: ``N``, the policy's input width; ``widths``: hidden layer widths; ``lr``:
    Adam's step; ``seed``; ``warmup``: the updates it is still to be fitted alone before the
    policy moves (kept with its weights)."""

    def __init__(self, inputs: int, widths: tuple[int, ...] = (256, 128), lr: float = 3e-4,
                 seed: int = 0, warmup: int = 0) -> None:
        self.warmup = warmup
        rng = np.random.default_rng(seed)
        sizes = [inputs + PRIVILEGED, *widths, 1]
        self.layers = []
        for i in range(len(sizes) - 1):
            gain = 2.0 if i < len(sizes) - 2 else 0.1
            w = rng.standard_normal((sizes[i], sizes[i + 1])) * np.sqrt(gain / sizes[i])
            self.layers.append((w.astype(np.float32), np.zeros(sizes[i + 1], np.float32)))
        self.lr = lr
        self.m = [np.zeros_like(a) for layer in self.layers for a in layer]
        self.v = [np.zeros_like(a) for layer in self.layers for a in layer]
        self.steps = 0

    def _acts(self, x: np.ndarray, hidden: np.ndarray) -> list[np.ndarray]:
        acts = [np.concatenate([x, hidden.reshape(len(hidden), -1)], axis=1).astype(
            np.float32, copy=False)]
        for i, (w, b) in enumerate(self.layers):
            z = acts[-1] @ w + b
            acts.append(np.maximum(z, 0.0) if i < len(self.layers) - 1 else z)
        return acts

    def value(self, x: np.ndarray, hidden: np.ndarray) -> np.ndarray:
        """``(B,)``: the critic's estimate (training units) for ``x`` ``(B, N)`` and the
        privileged planes ``hidden`` ``(B, 21, 30)`` (or flattened)."""
        return self._acts(x, hidden)[-1][:, 0]

    def fit(self, x: np.ndarray, hidden: np.ndarray, target: np.ndarray) -> float:
        """One Adam step on the squared error against ``target`` ``(B,)``; returns the
        batch's mean squared error before the step."""
        acts = self._acts(x, hidden)
        err = acts[-1][:, 0] - target
        dz = (2.0 / len(err)) * err[:, None].astype(np.float32)
        grads: list[np.ndarray] = []
        for i in range(len(self.layers) - 1, -1, -1):
            w, _ = self.layers[i]
            grads[:0] = [acts[i].T @ dz, dz.sum(0)]
            if i:
                dz = (dz @ w.T) * (acts[i] > 0)
        self.steps += 1
        c1, c2 = 1 - 0.9 ** self.steps, 1 - 0.999 ** self.steps
        params = [a for layer in self.layers for a in layer]
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + 1e-8)
        return float((err ** 2).mean())

    def save(self, path: str | Path) -> None:
        """The weights and Adam's state, to resume a run (never a policy file)."""
        arrays = {f"p{i}": a for i, a in enumerate(a for layer in self.layers for a in layer)}
        arrays |= {f"m{i}": a for i, a in enumerate(self.m)}
        arrays |= {f"v{i}": a for i, a in enumerate(self.v)}
        np.savez(path, steps=np.array(self.steps), warmup=np.array(self.warmup), **arrays)

    def load(self, path: str | Path) -> None:
        """Resume from :meth:`save`'s file. Raises ``ValueError`` naming the file when it
        does not fit this critic's shapes."""
        params = [a for layer in self.layers for a in layer]
        try:
            with np.load(path, allow_pickle=False) as data:
                for i, p in enumerate(params):
                    for key, into in (("p", p), ("m", self.m[i]), ("v", self.v[i])):
                        saved = data[f"{key}{i}"]
                        if saved.shape != into.shape:
                            raise ValueError(f"{key}{i} has shape {saved.shape}, expected "
                                             f"{into.shape}")
                        into[...] = saved
                self.steps = int(data["steps"])
                self.warmup = int(data["warmup"])
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{path}: not this run's critic ({exc})") from None
