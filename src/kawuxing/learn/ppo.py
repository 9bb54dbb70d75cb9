"""Improvement by self-play: PPO (clipped policy gradient with the value head as baseline) on
the batched env, every seat of every hand played by the network being trained.

One *iteration* steps :class:`~kawuxing.envs.VectorEnv` ``steps`` times with ``envs`` hands,
each deciding seat sampling its action from the softmax over its legal actions. A decision's
return is its seat's score change from that decision to the end of the hand (base units,
R6.6-R11; undiscounted: a hand is short and ends, R10); a decision enters training once its
hand has ended (hands run on across iterations, so no return is cut short). The advantage is
the return less the value head's estimate, normalised over the batch; the loss is PPO's
clipped surrogate, the value's squared error and an entropy bonus (:class:`PPOConfig`).
With ``opponents`` (a bot spec, e.g. ``expert``) the network plays one seat of each hand,
drawn at the deal, and that bot the two others, each from its own Observation (R13): only the
network's decisions are trained, so PPO improves its play against that bot rather than
against itself.
The network reads only each seat's own planes (R13); no privileged input. With ``oracle`` the
baseline of the advantages is an :class:`~.critic.OracleCritic` that also reads the hidden
state (the privileged planes): a training signal only, never a policy's input. A network with a
prior (:mod:`kawuxing.agents.prior`) adds the expert's ranking of each decision, computed from
the deciding seat's Observation, to its logits, and learns a correction to it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..agents.registry import make_agent
from ..engine.observation import observe
from ..engine.state import TURN
from ..envs.actions import NUM_ACTIONS
from ..envs.tensors import privileged_tensor
from ..envs.vector import VectorEnv
from .critic import OracleCritic
from .fit import VALUE_SCALE, Trainer


@dataclass
class PPOConfig:
    """``envs`` hands stepped together; ``steps`` env steps an iteration; ``epochs`` passes
    over each batch in minibatches of ``minibatch``; ``lr``; ``clip`` (PPO's ε); ``entropy``
    and ``value_weight``: the weights of the entropy bonus and of the value loss; ``seed``;
    ``opponents``: a bot spec that plays the two seats of each hand the network does not (None:
    self-play, the network in every seat); ``gae_lambda``: λ of the advantages over a seat's
    successive decisions in a hand (1: the return to the end of the hand less the value, as
    Monte Carlo; below 1 the value of the seat's next decision stands in for the rest of the
    hand more and more, trading the noise of a whole hand's outcome for the value's bias);
    ``oracle``: the advantages' baseline is an oracle critic (:mod:`.critic`) instead of the
    value head, fitted alone on ``oracle_warmup`` iterations' batches before the policy
    moves (the count is kept with the critic, so a resumed run goes on with it; the value
    head goes on learning the return, for play and review)."""

    envs: int = 64
    steps: int = 48
    epochs: int = 3
    minibatch: int = 1024
    lr: float = 3e-5
    clip: float = 0.1
    entropy: float = 0.002
    value_weight: float = 0.5
    seed: int = 0
    opponents: str | None = None
    gae_lambda: float = 1.0
    oracle: bool = False
    oracle_warmup: int = 20

    def to_json(self) -> dict:
        """The config as JSON."""
        return asdict(self)


class SelfPlay:
    """Rollouts of a :class:`~.fit.Trainer`'s network on a :class:`VectorEnv` (``rules``: a
    preset, a RuleSet or a list of them, one drawn a hand) and its PPO updates."""

    def __init__(self, trainer: Trainer, config: PPOConfig, rules=None) -> None:
        self.trainer, self.config = trainer, config
        self.env = VectorEnv(config.envs, rules, seed=config.seed)
        self.rng = np.random.default_rng(config.seed)
        self.obs, self.mask, self.seat = self.env.reset()
        self.prior = trainer.net.prior
        # with opponents: each hand's network seat and the bots of its other seats
        self.learner = np.full(config.envs, -1, np.int64)
        self.bots: list[list] = [[] for _ in range(config.envs)]
        self.dealt = 0
        self.critic = OracleCritic(len(trainer.net.in_scale), seed=config.seed,
                                   warmup=config.oracle_warmup) if config.oracle else None
        if config.opponents:
            make_agent(config.opponents)  # (an unknown spec is a ValueError now, not mid-run)
            for i in range(config.envs):
                self.seat_bots(i)
        # per hand: the decisions not yet finished: [x int8-able, mask, action, logp, value,
        # seat, return so far, prior logits or None, privileged planes or None] (the hand's
        # number added when it ends)
        self.pending: list[list[list]] = [[] for _ in range(config.envs)]
        self.hands = 0

    def rollout(self) -> dict[str, np.ndarray]:
        """Step the env ``steps`` times; the decisions of the hands that ended, as arrays
        ``x (N, inputs)``, ``mask``, ``action``, ``logp``, ``value`` (the baseline: the value
        head's or the oracle critic's), ``ret`` (base units), ``adv``, ``target``, with a
        prior ``prior (N, 584)`` and with the oracle ``hidden (N, 21, 30)``."""
        env, cfg, trainer = self.env, self.config, self.trainer
        done_rows: list[list] = []
        n = cfg.envs
        for _ in range(cfg.steps):
            x = trainer.net.inputs(self.obs)
            prior = self.prior_logits() if self.prior else None
            acts, p, value = trainer.forward(x, self.mask, prior)
            hidden = None
            if self.critic is not None:  # what the deciding seats cannot see: training only
                hidden = np.stack([privileged_tensor(hand, int(seat))
                                   for hand, seat in zip(env.hands, self.seat)])
                value = self.critic.value(acts[0], hidden)
            # sample from p: the first index whose cumulative probability passes a uniform
            u = self.rng.random((n, 1))
            actions = np.minimum((p.cumsum(1) < u).sum(1), p.shape[1] - 1)
            actions = np.where(self.mask[np.arange(n), actions], actions, p.argmax(1))
            logp = np.log(p[np.arange(n), actions] + 1e-12)
            for i in range(n):
                if cfg.opponents and self.seat[i] != self.learner[i]:
                    actions[i] = self.bot_action(i)
                    continue
                self.pending[i].append([x[i].copy(), self.mask[i].copy(), int(actions[i]),
                                        float(logp[i]), float(value[i]), int(self.seat[i]), 0.0,
                                        None if prior is None else prior[i],
                                        None if hidden is None else hidden[i].astype(np.int8)])
            self.obs, self.mask, self.seat, rewards, dones = env.step(actions)
            for i in range(n):
                r = rewards[i]
                if r.any():
                    for rec in self.pending[i]:
                        rec[6] += float(r[rec[5]])
                if dones[i]:
                    done_rows += [rec + [self.hands] for rec in self.pending[i]]
                    self.pending[i] = []
                    self.hands += 1
                    if cfg.opponents:
                        self.seat_bots(i)
        if not done_rows:
            return {}
        adv, target = advantages(done_rows, cfg.gae_lambda)
        batch = {"x": np.stack([r[0] for r in done_rows]),
                 "mask": np.stack([r[1] for r in done_rows]),
                 "action": np.array([r[2] for r in done_rows]),
                 "logp": np.array([r[3] for r in done_rows], np.float32),
                 "value": np.array([r[4] for r in done_rows], np.float32),
                 "ret": np.array([r[6] for r in done_rows], np.float32),
                 "adv": adv, "target": target}
        if self.prior is not None:
            batch["prior"] = np.stack([r[7] for r in done_rows])
        if self.critic is not None:
            batch["hidden"] = np.stack([r[8] for r in done_rows])
        return batch

    def seat_bots(self, i: int) -> None:
        """Hand ``i`` was dealt: draw the network's seat, give the others fresh bots."""
        self.learner[i] = self.dealt % 3
        self.dealt += 1
        self.bots[i] = [None if s == self.learner[i] else
                        make_agent(self.config.opponents, seed=f"{self.config.seed}/{self.dealt}")
                        for s in range(3)]

    def bot_action(self, i: int) -> int:
        """The action index the bot of hand ``i``'s deciding seat chooses from its
        Observation (R13)."""
        env, seat = self.env, int(self.seat[i])
        legal = env.legal_actions(i)
        chosen = self.bots[i][seat].act(observe(env.hands[i], seat), list(legal.values()))
        return next(k for k, a in legal.items() if a == chosen)

    def prior_logits(self) -> np.ndarray:
        """``float32 (n, 584)``: the prior logits of every hand's deciding seat, from its
        Observation (R13); ``after_kong`` from the seat's own last move (R9.1)."""
        env = self.env
        out = np.empty((env.num_envs, NUM_ACTIONS), np.float32)
        for i, hand in enumerate(env.hands):
            seat = int(self.seat[i])
            after_kong = (hand.phase == TURN and hand.current == seat
                          and hand.seats[seat].kong_turn)
            out[i] = self.prior.logits(observe(hand, seat), env.legal_actions(i), after_kong)
        return out

    def update(self, batch: dict[str, np.ndarray]) -> dict[str, float]:
        """PPO's epochs over ``batch``; returns the mean policy loss, value loss, entropy,
        approximate KL and the share of clipped ratios (with the oracle, its mean squared error
        too; while it warms up only the critic is fitted)."""
        cfg, trainer = self.config, self.trainer
        n = len(batch["action"])
        target, adv = batch["target"], batch["adv"]
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        stats, critic_err = [], []
        warming = self.critic is not None and self.critic.warmup > 0
        if warming:
            self.critic.warmup -= 1
        for _ in range(cfg.epochs):
            order = self.rng.permutation(n)
            for start in range(0, n, cfg.minibatch):
                rows = order[start:start + cfg.minibatch]
                b = len(rows)
                prior = batch["prior"][rows] if "prior" in batch else None
                if self.critic is not None:
                    x = batch["x"][rows] * trainer.net.in_scale
                    critic_err.append(self.critic.fit(x, batch["hidden"][rows], target[rows]))
                    if warming:
                        continue
                acts, p, value = trainer.forward(batch["x"][rows], batch["mask"][rows], prior)
                a = batch["action"][rows]
                idx = np.arange(b)
                logp = np.log(p[idx, a] + 1e-12)
                ratio = np.exp(logp - batch["logp"][rows])
                A = adv[rows]
                active = ((ratio < 1 + cfg.clip) | (A < 0)) & ((ratio > 1 - cfg.clip) | (A > 0))
                coef = (ratio * A * active / b)[:, None]
                onehot = np.zeros_like(p)
                onehot[idx, a] = 1
                dz = -coef * (onehot - p)
                logs = np.log(p + 1e-12) * (p > 0)
                entropy = -(p * logs).sum(1)
                dz += cfg.entropy / b * p * (logs + entropy[:, None])
                err = value - target[rows]
                dv = (2 * cfg.value_weight / b) * err
                trainer.apply(trainer.backward(acts, dz, dv))
                surrogate = np.minimum(ratio * A, np.clip(ratio, 1 - cfg.clip,
                                                          1 + cfg.clip) * A)
                stats.append((-surrogate.mean(), (err ** 2).mean(), entropy.mean(),
                              (batch["logp"][rows] - logp).mean(), 1 - active.mean()))
        keys = ("policy_loss", "value_loss", "entropy", "kl", "clipped")
        out = {k: round(float(v), 4) for k, v in zip(keys, np.mean(stats, axis=0))} \
            if stats else {}
        if critic_err:
            out["critic_loss"] = round(float(np.mean(critic_err)), 4)
        return out


def advantages(rows: list[list], lam: float) -> tuple[np.ndarray, np.ndarray]:
    """The advantage and the value target (training units) of each decision of ``rows`` (the
    records of ended hands, each hand's in the order they were made, its number last), by
    GAE(λ) over each seat's successive decisions in its hand: with ``G`` the seat's score
    change from a decision to the hand's end and ``v`` the value head's estimate there, the
    reward between two decisions is ``G_t − G_{t+1}`` and ``δ_t = r_t + v_{t+1} − v_t``
    (after the seat's last decision the hand is over: ``v`` 0); ``A_t = Σ λ^k δ_{t+k}``,
    target ``A_t + v_t``. λ = 1 gives ``A_t = G_t − v_t``, the return less the value."""
    ret = np.array([r[6] for r in rows], np.float64) / VALUE_SCALE
    value = np.array([r[4] for r in rows], np.float64)
    gae = np.zeros(len(rows), np.float64)
    later: dict[tuple[int, int], int] = {}  # (hand, seat) -> the seat's next decision
    for i in range(len(rows) - 1, -1, -1):
        key = (rows[i][-1], rows[i][5])
        j = later.get(key)
        if j is None:
            gae[i] = ret[i] - value[i]
        else:
            gae[i] = ret[i] - ret[j] + value[j] - value[i] + lam * gae[j]
        later[key] = i
    return gae.astype(np.float32), (gae + value).astype(np.float32)
