"""Self-play data for the learned bot: hands played by bots, every decision with a choice
recorded as ``(observation, mask, chosen action, the seat's score change in the hand)``.

A *shard* is one ``.npz`` file of ``n`` decisions:

- ``planes``: ``int8 (n, 101, 30)``: rows 0-100 of the observation tensor
  (:mod:`kawuxing.envs.tensors`; all small whole numbers);
- ``standing``: ``float32 (n, 11)``: row 101, columns 0-10 (scores and 漂);
- ``mask``: ``uint8 (n, 73)``: the action mask (584 bits, :func:`numpy.packbits`);
- ``action``: ``int16 (n,)``: the index chosen (:mod:`kawuxing.envs.actions`);
- ``outcome``: ``float32 (n,)``: the deciding seat's score change over the whole hand (base
  units, R6.6-R11: the value target);
- ``preset``: ``int8 (n,)``: the position of the hand's rules in :data:`PRESET_MIX`.

Hands are dealt from ``f"{seed}/{i}"`` and the bots seeded from it, so a shard is the same for
a seed; decisions with a single legal action (a lone ``pass``, the forced discard after 亮倒,
R8.2) are not recorded. Reads only what each seat's Observation holds (R13).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from ..agents import make_agent
from ..engine.match import Match
from ..engine.observation import observe
from ..envs.actions import NUM_ACTIONS, action_index, legal_indices
from ..envs.tensors import SCORES, observation_tensor, own_shown
from ..rules import RuleSet

# the rules hands are dealt under, with their weights: the default rules first, then the towns
PRESET_MIX: tuple[tuple[str, int], ...] = (
    ("standard", 4), ("xiaogan", 2), ("capped", 2), ("server_common", 1), ("xiangyang", 1),
    ("suizhou", 1), ("shiyan", 1), ("yicheng", 1), ("yingcheng", 1), ("yunmeng", 1),
    ("zaoyang", 1), ("app", 1), ("strict", 1), ("flat8", 1))
MASK_BYTES = (NUM_ACTIONS + 7) // 8  # 73


def pick_preset(rng: random.Random) -> int:
    """A position in :data:`PRESET_MIX`, drawn by weight."""
    names = range(len(PRESET_MIX))
    return rng.choices(names, weights=[w for _, w in PRESET_MIX])[0]


def play_hand(seed: str, bots: tuple[str, str, str]) -> list[tuple]:
    """Play one hand of ``bots`` dealt from ``seed`` (rules drawn from :data:`PRESET_MIX`);
    returns one ``(planes int8 (101, 30), standing float32 (11,), mask (584,) bool, action,
    seat, preset)`` a decision with a choice, the outcome not yet known, and the deltas."""
    rng = random.Random(seed)
    preset = pick_preset(rng)
    rules = RuleSet.preset(PRESET_MIX[preset][0]).with_options(hands_per_match=1)
    agents = [make_agent(spec, f"{seed}/{s}") for s, spec in enumerate(bots)]
    hand = Match(rules, seed, windows=False).hand
    rows = []
    while not hand.ended:
        seat = hand.to_act()[0]
        legal = hand.legal_actions(seat)
        obs = observe(hand, seat)
        chosen = agents[seat].act(obs, legal)
        if len(legal) > 1:
            concealed = hand.seats[seat].concealed
            tensor = observation_tensor(obs, own_shown(hand, seat))
            mask = np.zeros(NUM_ACTIONS, bool)
            mask[list(legal_indices(legal, concealed, rules))] = True
            rows.append((tensor[:SCORES].astype(np.int8), tensor[SCORES, :11].copy(), mask,
                         action_index(chosen, concealed, rules), seat, preset))
        hand.apply(chosen)
    return [row + (hand.deltas[row[4]],) for row in rows]


def _shard(args: tuple) -> dict[str, np.ndarray]:
    seed, first, count, bots = args
    rows = [r for i in range(first, first + count) for r in play_hand(f"{seed}/{i}", bots)]
    return {"planes": np.stack([r[0] for r in rows]),
            "standing": np.stack([r[1] for r in rows]).astype(np.float32),
            "mask": np.packbits(np.stack([r[2] for r in rows]), axis=1),
            "action": np.array([r[3] for r in rows], np.int16),
            "outcome": np.array([r[6] for r in rows], np.float32),
            "preset": np.array([r[5] for r in rows], np.int8)}


def generate(out: Path, hands: int, seed: int | str = 0, bots: tuple[str, str, str] = (
        "expert", "expert", "expert"), workers: int = 1, per_shard: int = 200,
        start: int = 0) -> Iterator[tuple[Path, int]]:
    """Play ``hands`` hands (numbered from ``start``) into shards of ``per_shard`` hands in
    folder ``out`` (``shard-00000.npz`` …; a shard already there is kept, so a run resumes);
    yields ``(path, decisions)`` as each is written."""
    out.mkdir(parents=True, exist_ok=True)
    jobs = []
    for first in range(start, start + hands, per_shard):
        path = out / f"shard-{first // per_shard:05d}.npz"
        if not path.exists():
            jobs.append((path, (seed, first, min(per_shard, start + hands - first), bots)))
    if not jobs:
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
        for path, data in zip([p for p, _ in jobs], pool.map(_shard, [a for _, a in jobs])):
            tmp = path.with_suffix(".tmp.npz")
            np.savez_compressed(tmp, **data)
            tmp.rename(path)
            yield path, len(data["action"])


def load_shards(folder: Path) -> dict[str, np.ndarray]:
    """Every shard of ``folder`` concatenated (keys of the module docstring); a shard still
    being written (``shard-NNNNN.tmp.npz``) is not one."""
    paths = sorted(p for p in folder.glob("shard-*.npz") if not p.name.endswith(".tmp.npz"))
    if not paths:
        raise FileNotFoundError(f"{folder}: no shard-*.npz files")
    parts = [dict(np.load(p)) for p in paths]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
