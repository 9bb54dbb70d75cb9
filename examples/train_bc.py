"""Behaviour cloning of the ``expert`` bot into a small policy, then an arena run against
``random`` (issue 15; docs/research.md).

1. **Data.** The expert plays all three seats of ``--hands`` hands through the PettingZoo env
   (:func:`kawuxing.envs.aec_env`, claim windows after every discard, R13.2). Every decision
   with more than one legal action is a sample: the seat's observation tensor (102 × 30, from
   its own Observation only, R13), its action mask, and the index the expert chose.
2. **Policy.** A numpy MLP: 3,060 inputs (each scaled by its largest magnitude in the data) ->
   ``--hidden`` ReLU units -> 584 logits; a softmax over the legal indices only (the mask),
   cross-entropy against the expert's choice, Adam, minibatches of 256. A tenth of the hands
   is held out to measure agreement with the expert.
3. **Arena.** :func:`kawuxing.arena.run_arena` (duplicate deals: each deal in the six seat
   arrangements, so the luck of the tiles cancels out) of the policy against ``random``.

    python examples/train_bc.py                       # 200 hands, 10 epochs, 100 deals
    python examples/train_bc.py --hands 20 --deals 10 # a quick look
    python examples/train_bc.py --data bc.npz         # keep the expert's samples for next time

Prints the figures and, as the last line, one JSON object. No torch needed (numpy only).
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from kawuxing.agents import make_agent
from kawuxing.arena import run_arena
from kawuxing.engine.actions import Action
from kawuxing.engine.observation import Observation, observe
from kawuxing.envs import NUM_ACTIONS, SHAPE, aec_env, legal_indices, observation_tensor
from kawuxing.envs.actions import action_index
from kawuxing.rules import RuleSet

FEATURES = SHAPE[0] * SHAPE[1]  # 3,060


def collect(hands: int, seed: int, rules: RuleSet, teacher: str = "expert"):
    """Play ``hands`` hands with ``teacher`` at every seat; returns (inputs ``(n, 3060)``
    float32, masks ``(n, 584)`` bool, choices ``(n,)`` int64, hand number of each sample)."""
    env = aec_env(rules, seed=seed)
    xs, masks, ys, where = [], [], [], []
    for number in range(hands):
        env.reset()
        bots = [make_agent(teacher, f"{seed}/{number}/{s}") for s in range(3)]
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            hand = env.hand
            legal = hand.legal_actions(seat)
            index = action_index(bots[seat].act(observe(hand, seat), legal),
                                 hand.seats[seat].concealed, rules)
            if len(legal) > 1:
                # the tensor of the seat's Observation alone, as BCAgent sees it in the arena
                # (an agent is handed no more: row 10's own 亮倒 tiles stay empty)
                xs.append(observation_tensor(observe(hand, seat)).reshape(-1))
                masks.append(env.observe(agent)["action_mask"].astype(bool))
                ys.append(index)
                where.append(number)
            env.step(index)
    return np.array(xs), np.array(masks), np.array(ys), np.array(where)


class MLP:
    """Inputs -> ReLU hidden layer -> one logit per action index; masked softmax."""

    def __init__(self, scale: np.ndarray, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.scale = scale.astype(np.float32)
        def weights(rows: int, cols: int, gain: float) -> np.ndarray:
            return (rng.standard_normal((rows, cols)) * np.sqrt(gain / rows)).astype(np.float32)

        self.params = {"w1": weights(FEATURES, hidden, 2), "b1": np.zeros(hidden, np.float32),
                       "w2": weights(hidden, NUM_ACTIONS, 1),
                       "b2": np.zeros(NUM_ACTIONS, np.float32)}

    def logits(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Masked logits ``(n, 584)`` (illegal: -1e9) and the hidden activations."""
        p = self.params
        h = np.maximum(0, (x / self.scale) @ p["w1"] + p["b1"])
        z = h @ p["w2"] + p["b2"]
        return np.where(mask, z, -1e9), h

    def choose(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The most likely legal index of each row."""
        return self.logits(x, mask)[0].argmax(axis=1)

    def grads(self, x, mask, y) -> tuple[float, dict[str, np.ndarray]]:
        """Mean cross-entropy of the masked softmax against ``y``, and its gradients."""
        p = self.params
        xs = x / self.scale
        z, h = self.logits(x, mask)
        z = z - z.max(axis=1, keepdims=True)
        prob = np.exp(z)
        prob /= prob.sum(axis=1, keepdims=True)
        n = len(y)
        loss = float(-np.log(prob[np.arange(n), y] + 1e-12).mean())
        dz = prob
        dz[np.arange(n), y] -= 1
        dz /= n
        dh = (dz @ p["w2"].T) * (h > 0)
        return loss, {"w2": h.T @ dz, "b2": dz.sum(0), "w1": xs.T @ dh, "b1": dh.sum(0)}


def train(model: MLP, x, mask, y, epochs: int, seed: int, lr: float = 1e-3) -> list[float]:
    """Adam over shuffled minibatches of 256; the mean loss of each epoch."""
    rng = np.random.default_rng(seed)
    m = {k: np.zeros_like(v) for k, v in model.params.items()}
    v = {k: np.zeros_like(w) for k, w in model.params.items()}
    step, losses = 0, []
    for _ in range(epochs):
        order = rng.permutation(len(y))
        total = 0.0
        for start in range(0, len(y), 256):
            batch = order[start:start + 256]
            loss, g = model.grads(x[batch], mask[batch], y[batch])
            total += loss * len(batch)
            step += 1
            for k in model.params:
                m[k] = 0.9 * m[k] + 0.1 * g[k]
                v[k] = 0.999 * v[k] + 0.001 * g[k] ** 2
                mhat, vhat = m[k] / (1 - 0.9 ** step), v[k] / (1 - 0.999 ** step)
                model.params[k] -= lr * mhat / (np.sqrt(vhat) + 1e-8)
        losses.append(total / len(y))
    return losses


class BCAgent:
    """An :class:`~kawuxing.agents.Agent` playing the trained policy: the tensor of its own
    Observation (R13), the most likely legal index."""

    name = "bc"

    def __init__(self, model: MLP) -> None:
        self.model = model

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """The legal action of highest logit."""
        if len(legal) == 1:
            return legal[0]
        mapped = legal_indices(legal, obs.concealed, obs.rules)
        mask = np.zeros((1, NUM_ACTIONS), bool)
        mask[0, list(mapped)] = True
        x = observation_tensor(obs).reshape(1, -1)
        return mapped[int(self.model.choose(x, mask)[0])]


def load_or_collect(path: str | None, hands: int, seed: int, rules: RuleSet):
    """:func:`collect`, or the samples saved at ``path`` by an earlier run with the same
    hands and seed (the expert is the slow part); saved there when collected."""
    if path and os.path.exists(path):
        saved = np.load(path)
        if int(saved["hands"]) == hands and int(saved["seed"]) == seed:
            return (saved["x"].astype(np.float32), saved["mask"], saved["y"], saved["where"])
    x, mask, y, where = collect(hands, seed, rules)
    if path:
        np.savez_compressed(path, x=x.astype(np.int16), mask=mask, y=y, where=where,
                            hands=hands, seed=seed)
    return x, mask, y, where


def run(hands: int = 200, epochs: int = 10, deals: int = 100, hidden: int = 256,
        seed: int = 1, rules: RuleSet | None = None, data: str | None = None) -> dict:
    """Collect (or load ``data``), train, hold out, play the arena; returns the figures (see
    :func:`main`)."""
    rules = rules or RuleSet.preset()
    t0 = time.perf_counter()
    x, mask, y, where = load_or_collect(data, hands, seed, rules)
    held = where >= hands - max(1, hands // 10) if hands > 1 else np.zeros(len(y), bool)
    t1 = time.perf_counter()
    scale = np.maximum(1.0, np.abs(x[~held]).max(axis=0))
    model = MLP(scale, hidden, seed)
    losses = train(model, x[~held], mask[~held], y[~held], epochs, seed)
    t2 = time.perf_counter()
    agree_train = float((model.choose(x[~held], mask[~held]) == y[~held]).mean())
    agree_held = (float((model.choose(x[held], mask[held]) == y[held]).mean())
                  if held.any() else None)
    chance = float((1 / mask.sum(axis=1)).mean())  # a uniformly random legal choice
    agent = BCAgent(model)
    report = run_arena(["bc", "random"], deals, rules, seed=seed,
                       players={"bc": lambda _seed: agent})
    t3 = time.perf_counter()
    out = report.to_json()
    pair = out["pairs"][0]
    return {"hands": hands, "samples": int(len(y)), "held_out": int(held.sum()),
            "epochs": epochs, "loss": [round(v, 4) for v in losses],
            "agreement_train": round(agree_train, 4),
            "agreement_held_out": None if agree_held is None else round(agree_held, 4),
            "agreement_chance": round(chance, 4),
            "arena": {"deals": deals, "hands": out["hands"], "bc_minus_random": pair["mean_diff"],
                      "ci95": pair["ci95"], "bc_mean": out["bots"]["bc"]["mean"],
                      "random_mean": out["bots"]["random"]["mean"],
                      "bc_win_rate": out["bots"]["bc"]["win_rate"],
                      "random_win_rate": out["bots"]["random"]["win_rate"]},
            "seconds": {"collect": round(t1 - t0, 1), "train": round(t2 - t1, 1),
                        "arena": round(t3 - t2, 1)}}


def at_least(low: int):
    """An argparse type: an integer of at least ``low`` (else one clear usage error)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is below {low}")
        return value
    return parse


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=at_least(2), default=200,
                    help="expert hands to learn from (2 or more: a tenth is held out)")
    ap.add_argument("--epochs", type=at_least(1), default=10)
    ap.add_argument("--deals", type=at_least(1), default=100, help="arena deals (6 hands each)")
    ap.add_argument("--hidden", type=at_least(1), default=256)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", help="an .npz file keeping the expert's samples between runs")
    args = ap.parse_args()
    if args.data:
        folder = os.path.dirname(os.path.abspath(args.data))
        if not os.path.isdir(folder):
            ap.error(f"--data {args.data}: no folder {folder}")
        if os.path.exists(args.data) and not os.path.isfile(args.data):
            ap.error(f"--data {args.data}: not a file")
    r = run(args.hands, args.epochs, args.deals, args.hidden, args.seed, data=args.data)
    a = r["arena"]
    print(f"data: {r['hands']} expert hands, {r['samples']:,} decisions with a choice "
          f"({r['held_out']:,} held out), {r['seconds']['collect']} s")
    print(f"training: {r['epochs']} epochs, loss {r['loss'][0]} -> {r['loss'][-1]}, "
          f"{r['seconds']['train']} s; agreement with the expert {r['agreement_train']:.1%} "
          f"(train), {r['agreement_held_out']:.1%} (held out); a random legal choice "
          f"{r['agreement_chance']:.1%}")
    print(f"arena bc vs random, {a['deals']} deals ({a['hands']} hands): bc − random "
          f"{a['bc_minus_random']:+.2f} base units a hand, 95% CI {a['ci95']}; means "
          f"{a['bc_mean']:+.2f} / {a['random_mean']:+.2f}; win rate {a['bc_win_rate']:.1%} / "
          f"{a['random_win_rate']:.1%}; {r['seconds']['arena']} s")
    print(json.dumps(r))


if __name__ == "__main__":
    main()
