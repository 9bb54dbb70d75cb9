"""Determinised Monte Carlo for the expert's close 亮倒 decisions (issue 11; RULES.md R8, R13).

A *world* is a full :class:`~kawuxing.engine.Hand` state consistent with one seat's
:class:`Observation`: the opponents' concealed tiles and the wall order are dealt from the
tiles that seat has not seen (R13: ``4 - visible``), a declared opponent keeps the hand the
Observation shows (its face-down groups, of which only the tile count is seen, R8.6/R8.11,
are sampled as triplets — a pair for a remainder of two — of unseen kinds), and an
opponent's concealed kong whose tile is hidden (R6.1) takes a kind with four unseen copies.
Every world accounts for the 84 tiles (:meth:`Hand.tiles_accounted`).

Each candidate action is applied to the *same* worlds (common random numbers) and the rest
of the hand is played out by :func:`fast_policy` (every seat): win when legal; a declared
hand discards its draw (R8.2); a concealed hand discards the tile that leaves it nearest to
ready (among ready ones, the one leaving most copies of its waits outside its own hand),
never a declared opponent's wait unless every discard is one, declares 亮倒 when its discard
leaves it ready, and passes pungs and kongs. A candidate's value is the mean of the
seat's money from now to the end of the hand (base units, the engine's own settlement:
``hand.deltas``). The worlds are drawn by an RNG seeded with the Observation alone, so the
same Observation gives the same values (no clock, no OS randomness; R13 twins: equal).

With the policy ``"heuristic"`` (:func:`heuristic_rollout`) every seat plays the rest of the
hand as ``heuristic:3`` does in the arena instead: rollout policy improvement over the
arena's opponents (:func:`~.agent.improve`).
"""

from __future__ import annotations

import random

from ...engine.actions import ADDED_KONG, CONCEALED_KONG, DISCARD, PASS, WIN, Action
from ...engine.hand import Hand
from ...engine.observation import Observation, observe
from ...engine.state import CLAIM, ROB, TURN, SeatState
from ...face_down import PAIR, PUNG, Group
from ...melds import Meld
from ...shapes import shanten, waits
from ...tiles import NUM_KINDS, kinds_for_suits
from ..heuristic import HeuristicAgent

FAST, HEURISTIC = "fast", "heuristic"  # the rollout policies (Params.mc_policy)
KONG_VERBS = (CONCEALED_KONG, ADDED_KONG)


def observation_seed(obs: Observation, salt: str = "") -> str:
    """A seed string made of everything ``obs`` shows (R13: nothing hidden enters it)."""
    return "/".join(map(str, (salt, obs.seat, obs.dealer, obs.phase, obs.turn, obs.wall_left,
                              obs.concealed, obs.drawn, obs.melds, obs.discards,
                              obs.declared, obs.revealed, obs.hidden_tiles, obs.deltas)))


def unseen_counts(obs: Observation) -> list[int]:
    """Counts vector (30 ints) of the tiles ``obs.seat`` has not seen: ``4 - visible`` for the
    kinds in play (R1.1, R13), 0 for the others."""
    out = [0] * NUM_KINDS
    for k in kinds_for_suits(obs.rules.suits):
        out[k] = 4 - obs.visible[k]
    return out


def _take(pool: list[int], rng: random.Random, n: int) -> list[int]:
    """``n`` tiles drawn without replacement from the counts ``pool`` (changed in place)."""
    tiles = [k for k, c in enumerate(pool) for _ in range(c)]
    picked = rng.sample(tiles, n)
    for k in picked:
        pool[k] -= 1
    return picked


def _take_groups(pool: list[int], rng: random.Random, n_tiles: int) -> tuple[Group, ...]:
    """Face-down groups of ``n_tiles`` tiles (triplets, one pair for a remainder of 2) of
    unseen kinds, taken from ``pool``; chows where no kind has three copies left. Raises
    ``ValueError`` when the pool cannot hold them."""
    groups = []
    pairs = 1 if n_tiles % 3 == 2 else 0 if n_tiles % 3 == 0 else 2
    for size in [2] * pairs + [3] * ((n_tiles - 2 * pairs) // 3):
        kinds = [k for k, c in enumerate(pool) if c >= size]
        if kinds:
            k = rng.choice(kinds)
            pool[k] -= size
            groups.append(Group(PAIR if size == 2 else PUNG, k))
            continue
        chows = [k for k in range(27) if k % 9 <= 6
                 and pool[k] and pool[k + 1] and pool[k + 2]]
        if size != 3 or not chows:
            raise ValueError("no face-down group fits the unseen tiles")
        k = rng.choice(chows)
        for j in range(3):
            pool[k + j] -= 1
        groups.append(Group("chow", k))
    return tuple(groups)


def sample_world(obs: Observation, rng: random.Random, after_kong: bool = False) -> Hand:
    """A :class:`Hand` in ``obs``'s state (its seat in turn, R4.1) whose hidden tiles — the
    concealed opponents' hands, declared opponents' face-down groups, hidden concealed kongs
    and the wall order — are drawn by ``rng`` from :func:`unseen_counts`. ``after_kong``: the
    turn follows the seat's own kong (R6.5, R9.1). Played on the fast path (``windows``
    False, R13.2). Raises ``ValueError`` outside the seat's own turn."""
    if obs.phase != TURN or obs.turn != obs.seat:
        raise ValueError("sample_world: only in the seat's own turn")
    pool = unseen_counts(obs)
    me = obs.seat
    seats: list[SeatState] = []
    for s in range(3):
        melds = []
        for kind, tile in obs.melds[s]:
            if tile is None:  # another seat's concealed kong, tile hidden (R6.1)
                tile = rng.choice([k for k, c in enumerate(pool) if c == 4])
                pool[tile] -= 4
            melds.append(Meld(kind, tile))
        seats.append(SeatState([0] * NUM_KINDS, melds, list(obs.discards[s]),
                               list(obs.claimed[s]), obs.declared[s], tuple(obs.waits[s]),
                               piao=obs.piao[s] if obs.piao[s] is not None else 0))
    seats[me].concealed = list(obs.concealed)
    seats[me].drawn = obs.drawn
    seats[me].replacement = seats[me].kong_turn = after_kong
    for s in range(3):
        if s == me:
            continue
        if obs.declared[s]:
            counts = list(obs.revealed[s])
            groups = _take_groups(pool, rng, obs.hidden_tiles[s])
            for g in groups:
                for k in g.tiles():
                    counts[k] += 1
            seats[s].concealed, seats[s].hidden = counts, groups
        else:
            for k in _take(pool, rng, obs.concealed_count[s]):
                seats[s].concealed[k] += 1
    wall = _take(pool, rng, sum(pool))
    if len(wall) != obs.wall_left:
        raise ValueError(f"sample_world: {len(wall)} unseen tiles for a wall of "
                         f"{obs.wall_left}")
    hand = Hand.__new__(Hand)
    hand.rules, hand.dealer, hand.windows = obs.rules, obs.dealer, False
    hand.dice, hand.base_factor = obs.dice, obs.base_factor
    hand.seats = seats
    hand.initial_hands, hand.initial_piao = [], [s.piao for s in seats]
    hand._draws, hand._next = wall, 0
    hand.phase, hand.current, hand.pending = TURN, me, None
    hand.chain = 1 if after_kong else 0
    hand.declare_order = [s for s in range(3) if obs.declared[s]]
    hand.deltas = list(obs.deltas)
    hand.transfers, hand.events, hand.actions, hand._legal = [], [], [], {}
    hand.winners, hand.values = [], {}
    hand.next_dealer = hand.result = hand.won_tile = None
    return hand


def fast_policy(hand: Hand, seat: int) -> Action:
    """The rollout's action for ``seat`` (module doc): win when legal; in a claim window
    pass; a declared hand its forced discard (R8.2); a concealed hand the discard nearest to
    ready that feeds no declared wait (unless all do) — ready, the one leaving most copies of
    its waits —, with 亮倒 when that discard may declare (R8.1)."""
    legal = hand.legal_actions(seat)
    for a in legal:
        if a.verb == WIN:
            return a
    if hand.phase in (CLAIM, ROB):
        return Action(seat, PASS)
    discards = [a for a in legal if a.verb == DISCARD and not a.declare]
    if not discards:
        return legal[0]
    if len(discards) == 1 or hand.seats[seat].declared:
        return discards[0]
    fed = set()
    for s, other in enumerate(hand.seats):
        if s != seat and other.declared:
            fed.update(other.waits)
    safe = [a for a in discards if a.tile not in fed] or discards
    s = hand.seats[seat]
    counts, n_melds = s.concealed, len(s.melds)
    best, best_key = None, None
    for a in safe:
        t = a.tile
        counts[t] -= 1
        sh = shanten(counts, n_melds)
        counts[t] += 1
        near = 0
        if t < 27:  # suited: neighbours within two ranks keep a tile useful
            r = t % 9
            near = sum(counts[t + d] for d in (-2, -1, 1, 2) if 0 <= r + d <= 8) + counts[t] - 1
        else:
            near = counts[t] - 1
        key = (sh, near)
        if best_key is None or key < best_key:
            best, best_key = a, key
    if best_key[0] == 0:  # ready: the discard that leaves the most copies of the waits
        held = s.held()
        most = -1
        for a in safe:
            counts[a.tile] -= 1
            if shanten(counts, n_melds) == 0:
                live = sum(4 - held[w] + (w == a.tile) for w in waits(counts))
                if live > most:
                    best, most = a, live
            counts[a.tile] += 1
        for a in legal:
            if a.declare and a.tile == best.tile and not a.hidden:
                return a
    return best


def rollout(hand: Hand, seat: int, limit: int = 400) -> int:
    """Play ``hand`` to its end by :func:`fast_policy` (every seat) and return ``seat``'s
    score change over the hand (base units, ``hand.deltas``). ``limit`` actions at most
    (a safety stop; ``RuntimeError`` past it)."""
    for _ in range(limit):
        if hand.ended:
            return hand.deltas[seat]
        actor = hand.to_act()[0]
        hand.apply(fast_policy(hand, actor))
    raise RuntimeError("rollout: the hand did not end")


def heuristic_rollout(hand: Hand, seat: int, agents: list[HeuristicAgent] | None = None,
                      limit: int = 400) -> int:
    """Play ``hand`` to its end with ``heuristic:3`` in every seat — each seat's
    :class:`HeuristicAgent` fed that seat's :func:`observe` (R13) and legal actions, as the
    arena plays it (a seat with one legal action plays it unasked) — and return ``seat``'s
    score change over the hand (base units, ``hand.deltas``). ``agents``: one per seat, to
    carry a kong made before (R9.1); new ones by default. ``RuntimeError`` past ``limit``
    actions."""
    agents = agents or [HeuristicAgent(3) for _ in range(3)]
    for _ in range(limit):
        if hand.ended:
            return hand.deltas[seat]
        actor = hand.to_act()[0]
        legal = hand.legal_actions(actor)
        if len(legal) == 1:
            hand.apply(legal[0])
        else:
            hand.apply(agents[actor].act(observe(hand, actor), legal))
    raise RuntimeError("heuristic_rollout: the hand did not end")


def mc_values(obs: Observation, candidates: list[Action], rollouts: int,
              after_kong: bool = False, policy: str = FAST) -> list[float]:
    """The mean money (base units, from now to the end of the hand) of each of
    ``candidates`` (legal actions of ``obs.seat`` in its turn) over ``rollouts`` sampled
    worlds (:func:`mc_samples`)."""
    samples = mc_samples(obs, candidates, rollouts, after_kong, policy)
    return [sum(s) / rollouts for s in samples]


def mc_samples(obs: Observation, candidates: list[Action], rollouts: int,
               after_kong: bool = False, policy: str = FAST) -> list[list[int]]:
    """Each of ``candidates``' money (base units, from now to the end of the hand) in each of
    ``rollouts`` sampled worlds (:func:`sample_world`), the same worlds for every candidate
    (paired: ``out[i][w]`` is candidate i in world w), each played out by :func:`rollout`
    (``policy`` ``"fast"``) or :func:`heuristic_rollout` (``"heuristic"``: heuristic:3 in
    every seat, the seat's own kong candidate remembered as the agent remembers its own,
    R9.1). Deterministic for an Observation (:func:`observation_seed`). ``ValueError`` for
    another policy or an Observation no deal fits."""
    if policy not in (FAST, HEURISTIC):
        raise ValueError(f"mc_values: policy {policy!r}: use {FAST!r} or {HEURISTIC!r}")
    rng = random.Random(observation_seed(obs, "mc"))
    out: list[list[int]] = [[] for _ in candidates]
    start = obs.deltas[obs.seat]
    for _ in range(rollouts):
        world = sample_world(obs, rng, after_kong)
        for i, a in enumerate(candidates):
            twin = world.clone()
            if policy == FAST:
                twin.apply(a)
                out[i].append(rollout(twin, obs.seat) - start)
                continue
            agents = [HeuristicAgent(3) for _ in range(3)]
            if a.verb in KONG_VERBS:  # the next turn follows this kong (R9.1)
                agents[obs.seat]._kong_wall = twin.wall_left
            twin.apply(a)
            out[i].append(heuristic_rollout(twin, obs.seat, agents) - start)
    return out
