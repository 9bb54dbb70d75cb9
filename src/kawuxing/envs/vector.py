"""A batched environment: ``n`` hands stepped together in one process, for learners that run
their network on a batch (RULES.md R2-R13).

Every seat of every hand is played by the caller (self-play); each call returns, for each of
the ``n`` hands, the seat that decides next and that seat's observation and mask, so a batch
holds ``n`` decisions. Only decisions with a choice are asked: a decision with a single legal
action (a lone ``pass``, the forced discard of a declared hand, R8.2) is taken for its seat,
and claim windows open only when a seat holds an option (the AEC env's ``skip_forced``,
docs/research.md says what that means for R13.2). A hand that ends is dealt again at once
(auto-reset).

Arrays (``n`` hands, ``A = 584`` actions, :mod:`kawuxing.envs.actions`):

- ``obs``: ``float32 (n, 102, 30)``: the deciding seat's planes (:mod:`kawuxing.envs.tensors`,
  built by :class:`~.encoder.HandEncoder`, bit for bit the AEC env's);
- ``mask``: ``bool (n, A)``: its legal actions;
- ``seat``: ``int64 (n,)``: the deciding seat (0-2, absolute);
- ``rewards``: ``float32 (n, 3)``: every seat's score change (base units) since the previous
  call, by absolute seat (kong money when paid, R6.6; the settlement at the end);
- ``dones``: ``bool (n,)``: the hand ended during the call (its settlement is in ``rewards``;
  ``obs`` is then the first decision of the next hand).

A seat's rewards summed over a hand are its score change in the hand, so returns for each
seat's decisions follow from ``seat``, ``rewards`` and ``dones``. The arrays returned are the
env's own buffers, overwritten by the next call: copy what you keep.
"""

from __future__ import annotations

import random

import numpy as np

from ..engine.hand import Hand
from ..engine.match import Match
from ..rules import RuleSet
from .actions import NUM_ACTIONS, legal_indices
from .common import IllegalEnvAction, is_index, next_seat, ruleset
from .encoder import HandEncoder
from .tensors import SHAPE


class VectorEnv:
    """``n`` hands of ``rules`` played at once (module docstring). ``rules``: a RuleSet or
    preset name, or a list of them: each new hand is dealt under one drawn at random (a
    mix of towns to train on). ``seed``: the seed of the first :meth:`reset` without one.
    Raises ``ValueError`` for ``n`` < 1 or bad rules."""

    def __init__(self, n: int, rules: RuleSet | str | list | None = None,
                 seed: int | None = None) -> None:
        if not is_index(n) or n < 1:
            raise ValueError(f"n: the number of hands, an integer of at least 1, got {n!r}")
        self.num_envs = int(n)
        mix = rules if isinstance(rules, (list, tuple)) else [rules]
        if not mix:
            raise ValueError("rules: an empty list names no rule set")
        self.mix = [ruleset(r) for r in mix]
        self.rules = self.mix[0]
        self._rng = random.Random(seed)
        self.obs = np.zeros((n,) + SHAPE, np.float32)
        self.mask = np.zeros((n, NUM_ACTIONS), bool)
        self.seat = np.zeros(n, np.int64)
        self.rewards = np.zeros((n, 3), np.float32)
        self.dones = np.zeros(n, bool)
        self.hands: list[Hand | None] = [None] * n
        self._encoders: list[HandEncoder | None] = [None] * n
        self._legal: list[dict] = [{}] * n
        self._paid = [[0, 0, 0] for _ in range(n)]  # each hand's deltas already rewarded

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal ``n`` new hands (with ``seed``: the same seed and actions give the same
        hands). Returns ``(obs, mask, seat)``; rewards before the first decisions (kong
        money, rare) are in :attr:`rewards`."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.rewards[:] = 0
        self.dones[:] = False
        for i in range(self.num_envs):
            self._deal(i)
        return self.obs, self.mask, self.seat

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                     np.ndarray]:
        """Play ``actions[i]`` (a table index that ``mask[i]`` allows) in hand ``i`` for its
        deciding seat. Returns ``(obs, mask, seat, rewards, dones)``. Raises
        :class:`~.aec.IllegalEnvAction` naming the first hand whose action is not allowed,
        or ``ValueError`` for a batch of the wrong length, before any hand moves."""
        n = self.num_envs
        if self.hands[0] is None:
            raise IllegalEnvAction("no hands dealt yet: call reset()")
        if not hasattr(actions, "__len__"):
            raise ValueError(f"actions: a sequence of {n} indices, got {actions!r}")
        if len(actions) != n:
            raise ValueError(f"actions: one index for each of the {n} hands, got {len(actions)}")
        chosen = []
        for i, a in enumerate(actions):
            if not is_index(a):
                raise IllegalEnvAction(f"hand {i}: action {a!r} is not an action index (a "
                                       f"whole number, 0-{NUM_ACTIONS - 1})")
            action = self._legal[i].get(int(a))
            if action is None:
                raise IllegalEnvAction(f"hand {i}: action {int(a)} is not allowed by its mask "
                                       f"(legal: {sorted(self._legal[i])})")
            chosen.append(action)
        self.rewards[:] = 0
        self.dones[:] = False
        for i, action in enumerate(chosen):
            hand = self.hands[i]
            hand.apply(action)
            self._advance(i)
        return self.obs, self.mask, self.seat, self.rewards, self.dones

    def _deal(self, i: int) -> None:
        """A new hand in slot ``i`` (its first decision made ready)."""
        while True:
            rules = self.mix[self._rng.randrange(len(self.mix))] if len(self.mix) > 1 \
                else self.rules
            match = Match(rules, self._rng.getrandbits(64), windows=False)
            self.hands[i] = match.hand
            self._paid[i] = [0, 0, 0]
            if self._forward(i):
                return  # (a hand over before anybody chose is dealt again)

    def _pay(self, i: int) -> None:
        """Add hand ``i``'s score changes since the last payment to ``rewards[i]``."""
        deltas, paid = self.hands[i].deltas, self._paid[i]
        row = self.rewards[i]
        for s in range(3):
            if deltas[s] != paid[s]:
                row[s] += deltas[s] - paid[s]
                paid[s] = deltas[s]

    def _advance(self, i: int) -> None:
        """After an action in hand ``i``: rewards, then its next decision or a new hand."""
        if self._forward(i):
            self._pay(i)
            return
        self._pay(i)
        self.dones[i] = True
        self._deal(i)

    def _forward(self, i: int) -> bool:
        """Play hand ``i``'s forced decisions; at a decision with a choice, write its
        observation and mask and return True; False once the hand has ended."""
        hand = self.hands[i]
        while True:
            seat = next_seat(hand)
            if seat is None:
                return False
            legal = hand.legal_actions(seat)
            if len(legal) > 1:
                break
            hand.apply(legal[0])
        mapped = self._legal[i] = legal_indices(legal, hand.seats[seat].concealed, hand.rules)
        encoder = self._encoders[i]
        if encoder is None or encoder.hand is not hand:
            encoder = self._encoders[i] = HandEncoder(hand)
        encoder.encode_into(self.obs[i], seat)
        mask = self.mask[i]
        mask[:] = False
        mask[list(mapped)] = True
        self.seat[i] = seat
        return True

    def legal_actions(self, i: int) -> dict:
        """Index -> engine :class:`~kawuxing.engine.actions.Action` of hand ``i``'s deciding
        seat now."""
        return dict(self._legal[i])


__all__ = ["VectorEnv"]
