"""Duplicate-format bot matches (``kawuxing arena``): every deal played once per seat
arrangement, so that the luck of the tiles cancels out between the bots compared.

Deal ``d`` of a run is one wall, shuffled with seed ``f"{seed}/deal/{d}"`` (R3.1), dealt by seat
``d % 3`` (the same dealer in every arrangement, and each seat deals a third of the deals). It
is played as one single hand (R3-R11; no match, no dealer rotation) once per arrangement of
the bots over the three seats (:func:`arrangements`): for two bots A, B the six ``A,B,B``
``B,A,B`` ``B,B,A`` ``A,A,B`` ``A,B,A`` ``B,A,A`` (each bot holds each seat three times, alone
or with itself), for three bots the six permutations. The agent of seat ``s`` is seeded with
``f"{seed}/deal/{d}/seat/{s}"``, so a run is the same for a seed whatever the number of workers
(a job is one deal with all its arrangements). 漂 (R11.1): the bots choose when the rules have
``piao_choices``, else every seat's is 0 (R11.2 ``fixed``: ``piao_fixed``). Hands are played
on the self-play fast path (``windows=False``, R13.2) as :mod:`kawuxing.sim` plays them,
except a hand with a ``cmd:COMMAND`` bot: an outside program speaking docs/bot-protocol.md
over stdio, which is asked after every discard like a player of the server (R13.2). A program
that fails (dies, answers what is not a legal action, takes longer than its timeout) stops the
run.

Statistics (:func:`summarize`), in base units per hand:

- per pair (a, b): for each deal, a's mean seat score over its seat-hands of the deal minus
  b's; the mean of that over deals, with a 95% confidence interval over deals;
- per bot: its mean seat score per seat-hand (per deal, then the mean over deals) with a 95%
  CI over deals; rates per seat-hand (won, dealt in, 包胡 paid and won, 亮倒 declared); the mean
  capped multiplier of its wins (R9.5, R9.6); its decision time (wall clock and CPU time of
  ``agent.act``, milliseconds); its rating.

Confidence intervals are t-based: mean ± t(0.975, n-1) · s / √n with s the sample standard
deviation over the n deals (``None`` for a single deal).

Rating (openskill's Plackett-Luce model, default priors μ 25, σ 25/3): one rating game per
deal, in deal order, in which each bot is a team of one ranked by its mean seat score over the
deal's arrangements (equal means tie). ``ordinal`` is μ − 3σ.
"""

from __future__ import annotations

import functools
import itertools
import math
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from .agents import Agent, make_agent
from .agents.registry import parse_bot
from .botproto.seat import CMD_PREFIX, DEFAULT_TIMEOUT, CommandBot, command_argv, is_command
from .engine import Hand
from .engine.actions import PASS, Action
from .engine.observation import observe
from .rules import RuleSet
from .scoring import SELF_DRAW
from .scoring.transfers import BAO_HU, WIN_KINDS

MIN_BOTS, MAX_BOTS = 2, 3
PlayerFactory = Callable[[str], Agent]
"""An arena player that is not in the registry: called with a seat's seed (a string), returns
a fresh :class:`~kawuxing.agents.Agent` for that seat. Must pickle for ``workers > 1``."""


def check_arena_bots(bots: list[str], players: dict[str, PlayerFactory] | None = None
                     ) -> list[str]:
    """The specs of ``bots`` stripped, if they are 2 or 3 distinct registry bots.

    Two specs naming the same player (``heuristic`` and ``heuristic:3``, or two ``cmd:``
    commands that split into the same words) count as the same bot. A ``cmd:COMMAND`` spec
    is an outside program speaking docs/bot-protocol.md over stdio (:mod:`kawuxing.botproto`).
    Raises ``ValueError`` for an empty or unknown name or level, a command that cannot be
    run, too few or too many bots, or a bot named twice (nothing to compare). A name of ``players``
    is an agent built in Python (:data:`PlayerFactory`), e.g. a trained policy
    (``kawuxing.agents.policy.PolicyAgent`` of a network in memory).
    """
    specs = [b.strip() for b in bots]
    if "" in specs:
        raise ValueError(f"bot {specs.index('') + 1} of {len(specs)} has no name "
                         f"(two commas in a row, or one at an end?)")
    if len(specs) < MIN_BOTS:
        raise ValueError(f"name {MIN_BOTS} or {MAX_BOTS} different bots to compare, "
                         f"got {len(specs)}")
    if len(specs) > MAX_BOTS:
        raise ValueError(f"at most {MAX_BOTS} bots (one a seat), got {len(specs)}")
    seen: dict[tuple, str] = {}
    for spec in specs:
        if players and spec in players:
            key: tuple = ("player", spec)
        elif is_command(spec):  # an outside program (docs/bot-protocol.md)
            key = (CMD_PREFIX, *command_argv(spec))  # the same argv is the same bot
        else:
            bot, level = parse_bot(spec)  # ValueError for an unknown name or level
            key = (bot.name, level)
        same = seen.get(key)
        if same is not None:
            raise ValueError(f"{same!r} and {spec!r} are the same bot: nothing to compare")
        seen[key] = spec
    return specs


def arrangements(bots: list[str]) -> list[tuple[str, str, str]]:
    """The seat arrangements a deal is played in (seats 0, 1, 2).

    Two bots A, B: ``(A,B,B) (B,A,B) (B,B,A) (A,A,B) (A,B,A) (B,A,A)``; three bots: the six
    permutations in ``itertools.permutations`` order. Raises ``ValueError`` for another count.
    """
    if len(bots) == 2:
        a, b = bots
        return [(a, b, b), (b, a, b), (b, b, a), (a, a, b), (a, b, a), (b, a, a)]
    if len(bots) == 3:
        return list(itertools.permutations(bots))  # type: ignore[arg-type]
    raise ValueError(f"arrangements: 2 or 3 bots, got {len(bots)}")


@dataclass(frozen=True)
class HandResult:
    """One play of a deal: ``seats`` the bot of each seat, ``deltas`` each seat's score
    (base units; they sum to zero), ``winners``, ``dealt_in`` (the discarder or robbed konger
    who paid a win, R7.2, R7.4; None for a self-draw or 荒庄), ``bao_hu_payer`` and
    ``bao_hu_payees`` (R8.4), ``declared`` (亮倒 at the end, R8) and ``multipliers`` (winner
    seat -> capped multiplier, R9.5, R9.6)."""

    seats: tuple[str, str, str]
    deltas: tuple[int, int, int]
    winners: tuple[int, ...]
    dealt_in: int | None
    bao_hu_payer: int | None
    bao_hu_payees: tuple[int, ...]
    declared: tuple[bool, bool, bool]
    multipliers: dict[int, int]


@dataclass
class DealResult:
    """Every arrangement of deal ``deal`` (:class:`HandResult` each), and each bot's decision
    times in seconds: ``wall`` (``time.perf_counter``) and ``cpu`` (``time.process_time``),
    bot -> one entry per ``act`` call."""

    deal: int
    hands: list[HandResult]
    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)


def play_deal(rules: RuleSet, bots: list[str], seed: int | str, deal: int,
              bot_timeout: float = DEFAULT_TIMEOUT,
              players: dict[str, PlayerFactory] | None = None,
              bot_stderr: bool = False) -> DealResult:
    """Play deal ``deal`` once per arrangement of ``bots`` (see the module docstring for the
    wall, the dealer and the agents' seeds). A ``cmd:`` bot is one program per seat for the
    whole deal (:class:`~kawuxing.botproto.seat.CommandBot`, ``bot_timeout`` seconds per
    decision; ``bot_stderr``: its stderr shown as it writes); a hand with one opens a claim
    window after every discard (R13.2) and every seat without an option passes unasked, as
    through the bridge (the program sees the events). A name of ``players`` is built by its
    factory. Raises ``ValueError`` for a bad
    bot, :class:`~kawuxing.botproto.BotError` when a program fails (the hand is left as it
    was; every program of the deal is closed)."""
    wall_seed = f"{seed}/deal/{deal}"
    dealer = deal % 3
    result = DealResult(deal, [], {b: [] for b in bots}, {b: [] for b in bots})
    programs: dict[tuple[str, int], CommandBot] = {}
    try:
        for number, seats in enumerate(arrangements(bots)):
            agents = [players[spec](f"{wall_seed}/seat/{s}") if players and spec in players
                      else programs.setdefault((spec, s), CommandBot(
                          spec, bot_timeout, show_stderr=bot_stderr))
                      if is_command(spec) else make_agent(spec, f"{wall_seed}/seat/{s}")
                      for s, spec in enumerate(seats)]
            outside = any(isinstance(a, CommandBot) for a in agents)
            where = f", deal {deal}, arrangement {number + 1} of 6"
            hand = Hand.deal(rules, dealer, seed=wall_seed, windows=outside)
            while not hand.ended:
                seat = hand.to_act()[0]
                agent = agents[seat]
                if seat in hand.idle_seats():  # a lone pass is never asked (R13.2)
                    hand.apply(Action(seat, PASS))
                    continue
                wall0, cpu0 = time.perf_counter(), time.process_time()
                if isinstance(agent, CommandBot):
                    action = agent.play(hand, seat, where)
                else:
                    action = agent.act(observe(hand, seat), hand.legal_actions(seat))
                result.wall[seats[seat]].append(time.perf_counter() - wall0)
                result.cpu[seats[seat]].append(time.process_time() - cpu0)
                hand.apply(action)
            for seat, agent in enumerate(agents):
                if isinstance(agent, CommandBot):
                    agent.finish(hand, seat)
            result.hands.append(hand_result(hand, seats))
    finally:
        for program in programs.values():
            program.close()
    return result


def hand_result(hand: Hand, seats: tuple[str, str, str]) -> HandResult:
    """What the statistics need of a finished ``hand`` played by ``seats``."""
    self_draw = any(v.win_by == SELF_DRAW for v in hand.values.values())
    dealt_in = None
    if hand.winners and not self_draw:  # the one who paid the hand value (R7.2, R8.4)
        dealt_in = next(t.payer for t in hand.transfers
                        if t.payee == hand.winners[0] and t.kind in WIN_KINDS)
    bao = [t for t in hand.transfers if t.kind == BAO_HU]
    return HandResult(seats, tuple(hand.deltas), tuple(hand.winners), dealt_in,
                      bao[0].payer if bao else None, tuple(sorted({t.payee for t in bao})),
                      tuple(s.declared for s in hand.seats),
                      {w: v.multiplier for w, v in hand.values.items()})


def _job(args: tuple) -> DealResult:
    return play_deal(*args)


# --- statistics ---------------------------------------------------------------------------

def mean_ci(values: list[float]) -> tuple[float, tuple[float, float] | None]:
    """The mean of ``values`` and its t-based 95% confidence interval,
    mean ± t(0.975, n-1) · s / √n (s: sample standard deviation); the interval is None for
    fewer than two values. Raises ``ValueError`` for no values."""
    if not values:
        raise ValueError("mean_ci: no values")
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    half = t_quantile_975(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean, (mean - half, mean + half)


def t_central(x: float, df: int) -> float:
    """P(|T| < x) for Student's t with ``df`` (a whole number ≥ 1) degrees of freedom, ``x``
    ≥ 0: the finite series of Abramowitz & Stegun 26.7.3 (odd ``df``) and 26.7.4 (even),
    θ = atan(x / √df)."""
    theta = math.atan(x / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:  # 2/π (θ + sin θ cos θ (1 + 2/3 cos²θ + 2·4/(3·5) cos⁴θ + …)), df − 3 terms /2
        term, total = 1.0, 1.0 if df > 1 else 0.0
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
    term = total = 1.0  # sin θ (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + …), df/2 terms
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


@functools.lru_cache(maxsize=256)
def t_quantile_975(df: int) -> float:
    """Student's t 0.975 quantile (the half-width factor of a two-sided 95 % interval) for
    ``df`` ≥ 1 degrees of freedom: :func:`t_central` = 0.95 solved by bisection to 1e-12
    (12.706 for 1, 2.262 for 9, 1.962 for 999); above 2,000 the normal quantile's
    expansion. Raises ``ValueError`` for ``df`` < 1."""
    if df < 1:
        raise ValueError(f"t_quantile_975: degrees of freedom must be at least 1, got {df}")
    if df > 2000:  # Cornish-Fisher from the normal quantile (A&S 26.7.5): error < 1e-12 here
        z = 1.959963984540054
        return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
                + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))
    low, high = 1.9, 13.0  # the quantile falls from 12.706 (df 1) toward 1.960
    while high - low > 1e-12:
        mid = (low + high) / 2
        low, high = (mid, high) if t_central(mid, df) < 0.95 else (low, mid)
    return (low + high) / 2


def deal_means(deal: DealResult, bots: list[str]) -> dict[str, float]:
    """Each bot's mean seat score per seat-hand over the arrangements of ``deal`` (base
    units)."""
    scores: dict[str, list[int]] = {b: [] for b in bots}
    for h in deal.hands:
        for seat, bot in enumerate(h.seats):
            scores[bot].append(h.deltas[seat])
    return {b: sum(v) / len(v) for b, v in scores.items()}


@dataclass
class PairReport:
    """Bot ``a`` against bot ``b``: ``mean_diff`` over deals of (a's mean seat score − b's),
    its 95% CI (None for one deal), the ``deals`` and ``hands`` in which both played."""

    a: str
    b: str
    mean_diff: float
    ci95: tuple[float, float] | None
    deals: int
    hands: int


@dataclass
class BotReport:
    """One bot: ``mean`` seat score per seat-hand (base units) with its 95% CI over deals;
    rates per seat-hand; ``avg_multiplier`` of its wins (None without a win); decision time
    of ``act`` in ms (``decision_ms`` mean and p99 of wall time, ``cpu_ms`` mean of CPU time);
    ``rating`` mu, sigma and ordinal (μ − 3σ); ``seat_hands`` and ``decisions`` counted."""

    bot: str
    mean: float
    ci95: tuple[float, float] | None
    win_rate: float
    deal_in_rate: float
    bao_hu_paid: float
    bao_hu_won: float
    declare_rate: float
    avg_multiplier: float | None
    decision_ms: float
    decision_p99_ms: float
    cpu_ms: float
    rating: tuple[float, float, float]
    seat_hands: int
    decisions: int


@dataclass
class ArenaReport:
    """The result of :func:`run_arena`: per pair and per bot, and the run's figures."""

    bots: list[str]
    pairs: list[PairReport]
    per_bot: dict[str, BotReport]
    deals: int
    hands: int
    seed: int | str
    rules: str
    seconds: float
    options: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        """The JSON object printed by ``kawuxing arena --json`` (floats rounded to 4 places;
        null for a CI of one deal or the multiplier of a bot that never won)."""
        return {
            "pairs": [{"a": p.a, "b": p.b, "mean_diff": _r(p.mean_diff), "ci95": _ci(p.ci95),
                       "deals": p.deals, "hands": p.hands} for p in self.pairs],
            "bots": {b.bot: {"mean": _r(b.mean), "ci95": _ci(b.ci95),
                             "win_rate": _r(b.win_rate), "deal_in_rate": _r(b.deal_in_rate),
                             "bao_hu_paid": _r(b.bao_hu_paid), "bao_hu_won": _r(b.bao_hu_won),
                             "declare_rate": _r(b.declare_rate),
                             "avg_multiplier": _r(b.avg_multiplier),
                             "decision_ms": {"mean": _r(b.decision_ms),
                                             "p99": _r(b.decision_p99_ms),
                                             "cpu_mean": _r(b.cpu_ms)},
                             "rating": {"mu": _r(b.rating[0]), "sigma": _r(b.rating[1]),
                                        "ordinal": _r(b.rating[2])}}
                     for b in self.per_bot.values()},
            "deals": self.deals, "hands": self.hands, "seed": self.seed, "rules": self.rules,
            "options": list(self.options), "seconds": _r(self.seconds),
        }


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _ci(ci: tuple[float, float] | None) -> list[float | None]:
    return [None, None] if ci is None else [_r(ci[0]), _r(ci[1])]


def ratings(results: list[DealResult], bots: list[str]) -> dict[str, tuple[float, float, float]]:
    """Each bot's openskill Plackett-Luce rating (mu, sigma, ordinal) after one rating game per
    deal, in deal order, ranking the bots by their mean seat score of the deal (ties allowed)."""
    from openskill.models import PlackettLuce  # imported here: only the arena needs it

    model = PlackettLuce()
    current = {b: model.rating(name=b) for b in bots}
    for deal in sorted(results, key=lambda r: r.deal):
        means = deal_means(deal, bots)
        rated = model.rate([[current[b]] for b in bots], scores=[means[b] for b in bots])
        current = {b: team[0] for b, team in zip(bots, rated)}
    return {b: (r.mu, r.sigma, r.ordinal()) for b, r in current.items()}


def _p99(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def summarize(results: list[DealResult], bots: list[str], seed: int | str = 0,
              rules: str = "standard", seconds: float = 0.0,
              options: list[str] | None = None) -> ArenaReport:
    """The statistics of the module docstring over ``results`` (one per deal, any order).
    Raises ``ValueError`` for no deals."""
    if not results:
        raise ValueError("summarize: no deals")
    results = sorted(results, key=lambda r: r.deal)
    per_deal = [deal_means(r, bots) for r in results]
    hands = sum(len(r.hands) for r in results)
    pairs = []
    for a, b in itertools.combinations(bots, 2):
        mean, ci = mean_ci([m[a] - m[b] for m in per_deal])
        both = sum(a in h.seats and b in h.seats for r in results for h in r.hands)
        pairs.append(PairReport(a, b, mean, ci, len(results), both))
    rating = ratings(results, bots)
    per_bot = {}
    for bot in bots:
        mean, ci = mean_ci([m[bot] for m in per_deal])
        seat_hands = won = dealt_in = bao_paid = bao_won = declared = 0
        multipliers = []
        for r in results:
            for h in r.hands:
                for seat, who in enumerate(h.seats):
                    if who != bot:
                        continue
                    seat_hands += 1
                    won += seat in h.winners
                    dealt_in += h.dealt_in == seat
                    bao_paid += h.bao_hu_payer == seat
                    bao_won += seat in h.bao_hu_payees
                    declared += h.declared[seat]
                    if seat in h.multipliers:
                        multipliers.append(h.multipliers[seat])
        wall = [x for r in results for x in r.wall.get(bot, [])]
        cpu = [x for r in results for x in r.cpu.get(bot, [])]
        per_bot[bot] = BotReport(
            bot, mean, ci, won / seat_hands, dealt_in / seat_hands, bao_paid / seat_hands,
            bao_won / seat_hands, declared / seat_hands,
            sum(multipliers) / len(multipliers) if multipliers else None,
            1000 * math.fsum(wall) / len(wall) if wall else 0.0, 1000 * _p99(wall),
            1000 * math.fsum(cpu) / len(cpu) if cpu else 0.0, rating[bot], seat_hands,
            len(wall))
    return ArenaReport(list(bots), pairs, per_bot, len(results), hands, seed, rules, seconds,
                       list(options or []))


def run_arena(bots: list[str], deals: int, rules: RuleSet, seed: int | str = 0,
              workers: int = 1, progress: Callable[[int], None] | None = None,
              preset: str = "standard", options: list[str] | None = None,
              bot_timeout: float = DEFAULT_TIMEOUT,
              players: dict[str, PlayerFactory] | None = None,
              bot_stderr: bool = False) -> ArenaReport:
    """Play ``deals`` deals of ``bots`` (2 or 3 distinct specs) in every arrangement on
    ``workers`` processes and summarize them; ``progress(1)`` after each deal. ``preset`` and
    ``options`` only name the rules in the report; ``bot_timeout``: seconds per decision of a
    ``cmd:`` bot; ``players``: names of agents built in Python (:data:`PlayerFactory`);
    ``bot_stderr``: a ``cmd:`` bot's stderr shown as it writes.
    Raises ``ValueError`` for bad bots, fewer than one deal or worker, a
    timeout not above 0; :class:`~kawuxing.botproto.BotError` when an outside bot fails (the
    run stops: no report)."""
    bots = check_arena_bots(bots, players)
    if deals < 1 or workers < 1:
        raise ValueError("deals and workers must be at least 1")
    if not bot_timeout > 0:
        raise ValueError("the bot timeout must be above 0 seconds")
    jobs = [(rules, bots, seed, d, bot_timeout, players, bot_stderr) for d in range(deals)]
    start = time.perf_counter()
    results: list[DealResult] = []
    pool = None
    if workers == 1 or deals == 1:
        done = map(_job, jobs)
    else:
        pool = ProcessPoolExecutor(max_workers=min(workers, deals))
        done = pool.map(_job, jobs)
    try:
        for result in done:
            results.append(result)
            if progress:
                progress(1)
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
    return summarize(results, bots, seed, preset, time.perf_counter() - start, options)
