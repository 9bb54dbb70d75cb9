"""The tile head of a policy network: one small network shared by the 30 tile kinds, scoring
each kind's discard, 亮倒 and kongs from that kind's own column of the observation and the
trunk's summary of the whole position.

A flat network must learn the worth of discarding 3筒 and of discarding 7条 as two unrelated
outputs; the tile head learns one rule for every kind (the kind itself enters as a learned
bias per kind), the way a convolution over the tiles does in Mortal or Suphx.

For a batch of ``B`` observations, inputs ``x`` ``(B, 3210)`` (encoding 2,
:mod:`kawuxing.agents.policy`, already multiplied by ``in_scale``) and the trunk's last
hidden layer ``h`` ``(B, H)``:

- ``cols`` ``(B, 30, 104)``: for each kind, its column of planes 0-99
  (:mod:`kawuxing.envs.tensors`) and of shape-feature rows 0-3 (:mod:`kawuxing.envs.features`:
  the shanten and effective tiles after discarding that kind; they read the neighbours in
  the suit, so the column needs no more of them);
- ``u = relu(cols @ a + (h @ c)[:, None] + b)`` ``(B, 30, T)`` with ``a`` ``(104, T)``,
  ``c`` ``(H, T)``, ``b`` ``(30, T)`` (one bias row a kind);
- ``t = u @ v`` ``(B, 30, 3)``: per kind a discard score (added to the logits of discarding
  that kind, R4.1, with or without 亮倒, R8.1/R8.6), a 亮倒 score (added to the declaring
  discards of that kind) and a kong score (its concealed and added kongs, R6.1/R6.2).

A head with ``v`` all zero adds nothing: a network given a new head plays as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..envs.actions import (ADDED_KONG_BASE, CONCEALED_KONG_BASE, DECLARE_BASE, DISCARD_BASE,
                            HIDE_BASE, HIDE_MASKS, NUM_ACTIONS)
from ..envs.features import ROWS as FEATURE_ROWS
from ..envs.tensors import SHAPE
from ..tiles import NUM_KINDS

PLANE_ROWS = 100  # planes 0-99: every plane whose columns are tile kinds (100, 101: scalars)
TILE_INPUTS = PLANE_ROWS + FEATURE_ROWS - 1  # 104: feature row 4 holds scalars too
OUTPUTS = 3  # discard, 亮倒, kong
_FEATURES = SHAPE[0] * SHAPE[1]  # where the shape features start in an encoding-2 input


def columns(x: np.ndarray) -> np.ndarray:
    """``float32 (B, 30, 104)``: each kind's column of ``x`` ``(B, 3210)`` (module
    docstring)."""
    b = len(x)
    planes = x[:, :PLANE_ROWS * NUM_KINDS].reshape(b, PLANE_ROWS, NUM_KINDS)
    shape = x[:, _FEATURES:_FEATURES + (FEATURE_ROWS - 1) * NUM_KINDS].reshape(
        b, FEATURE_ROWS - 1, NUM_KINDS)
    return np.concatenate([planes, shape], axis=1).transpose(0, 2, 1)


def spread(t: np.ndarray) -> np.ndarray:
    """``(B, 584)`` logits from the per-kind scores ``t`` ``(B, 30, 3)`` (module
    docstring; 0 on the actions that name no kind)."""
    b = len(t)
    out = np.zeros((b, NUM_ACTIONS), t.dtype)
    discard, declare, kong = t[:, :, 0], t[:, :, 0] + t[:, :, 1], t[:, :, 2]
    out[:, DISCARD_BASE:DISCARD_BASE + NUM_KINDS] = discard
    out[:, DECLARE_BASE:DECLARE_BASE + NUM_KINDS] = declare
    out[:, HIDE_BASE:HIDE_BASE + NUM_KINDS * HIDE_MASKS] = np.repeat(declare, HIDE_MASKS, axis=1)
    out[:, CONCEALED_KONG_BASE:CONCEALED_KONG_BASE + NUM_KINDS] = kong
    out[:, ADDED_KONG_BASE:ADDED_KONG_BASE + NUM_KINDS] = kong
    return out


def gather(dz: np.ndarray) -> np.ndarray:
    """``(B, 30, 3)``: the gradient on ``t`` of a gradient ``dz`` ``(B, 584)`` on the
    logits (the transpose of :func:`spread`)."""
    b = len(dz)
    hide = dz[:, HIDE_BASE:HIDE_BASE + NUM_KINDS * HIDE_MASKS].reshape(
        b, NUM_KINDS, HIDE_MASKS).sum(2)
    declare = dz[:, DECLARE_BASE:DECLARE_BASE + NUM_KINDS] + hide
    out = np.empty((b, NUM_KINDS, OUTPUTS), dz.dtype)
    out[:, :, 0] = dz[:, DISCARD_BASE:DISCARD_BASE + NUM_KINDS] + declare
    out[:, :, 1] = declare
    out[:, :, 2] = (dz[:, CONCEALED_KONG_BASE:CONCEALED_KONG_BASE + NUM_KINDS]
                    + dz[:, ADDED_KONG_BASE:ADDED_KONG_BASE + NUM_KINDS])
    return out


@dataclass
class TileHead:
    """The head's weights (module docstring): ``a`` ``(104, T)``, ``b`` ``(30, T)``, ``c``
    ``(H, T)``, ``v`` ``(T, 3)``, all ``float32``."""

    a: np.ndarray
    b: np.ndarray
    c: np.ndarray
    v: np.ndarray

    @property
    def width(self) -> int:
        """``T``, the head's hidden units a kind."""
        return self.a.shape[1]

    def arrays(self) -> list[np.ndarray]:
        """``[a, b, c, v]`` (the order of a policy file's ``tile_*`` arrays)."""
        return [self.a, self.b, self.c, self.v]

    def forward(self, x: np.ndarray, h: np.ndarray
                ) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
        """``(logits (B, 584), (cols, u))``: what the head adds to the policy's logits for
        scaled inputs ``x`` ``(B, 3210)`` and trunk output ``h`` ``(B, H)``, and what
        :meth:`backward` needs."""
        cols = columns(x)
        u = np.maximum(cols @ self.a + (h @ self.c)[:, None, :] + self.b, 0.0)
        return spread(u @ self.v), (cols, u)

    def backward(self, cache: tuple[np.ndarray, np.ndarray], h: np.ndarray, dz: np.ndarray
                 ) -> tuple[list[np.ndarray], np.ndarray]:
        """``([da, db, dc, dv], dh (B, H))``: the gradients of the weights and of the trunk's
        output given ``dz`` ``(B, 584)`` on the logits (no gradient reaches ``x``)."""
        cols, u = cache
        dt = gather(dz)
        t_width = self.width
        dv = u.reshape(-1, t_width).T @ dt.reshape(-1, OUTPUTS)
        du = (dt @ self.v.T) * (u > 0)
        da = cols.reshape(-1, cols.shape[2]).T @ du.reshape(-1, t_width)
        db = du.sum(0)
        per_obs = du.sum(1)
        return [da, db, h.T @ per_obs, dv], per_obs @ self.c.T

    @classmethod
    def new(cls, hidden: int, width: int, rng: np.random.Generator) -> TileHead:
        """A head for a trunk of ``hidden`` outputs: ``a`` and ``c`` He-initialised, ``b`` and
        ``v`` zero (it adds nothing until trained)."""
        a = rng.standard_normal((TILE_INPUTS, width)) * np.sqrt(2.0 / TILE_INPUTS)
        c = rng.standard_normal((hidden, width)) * np.sqrt(2.0 / hidden)
        return cls(a.astype(np.float32), np.zeros((NUM_KINDS, width), np.float32),
                   c.astype(np.float32), np.zeros((width, OUTPUTS), np.float32))
