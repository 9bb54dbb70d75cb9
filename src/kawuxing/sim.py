"""Bot-vs-bot simulation on all cores, and its statistics (RULES.md R2, R12 for the rotation).

Hands are played in matches of ``rules.hands_per_match`` hands (the dealer rotating as R2.2
says); match ``m`` is shuffled with seed ``f"{seed}/{m}"`` and its agents are seeded from it
too, so a run is the same for a seed whatever the number of workers.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from .agents import check_bot, make_agent
from .engine import Match
from .engine.observation import observe
from .records import hand_record
from .rules import RuleSet
from .scoring import SELF_DRAW
from .scoring.transfers import WIN_KINDS


@dataclass(frozen=True)
class HandStats:
    """What the statistics need of one finished hand."""

    deltas: tuple[int, int, int]
    winners: tuple[int, ...]
    self_draw: bool
    dealt_in: int | None  # the discarder (or robbed konger) who paid a win
    patterns: tuple[str, ...]  # the pattern rows of every winner's hand (屁胡 for none, R9.1)
    record: dict | None = None


def play_match(rules: RuleSet, bots: list[str], seed: int | str, number: int, hands: int,
               keep_records: bool = False) -> list[HandStats]:
    """Play ``hands`` hands of match ``number`` (a seat's agent is the same all match)."""
    match_seed = f"{seed}/{number}"
    rules = rules.with_options(hands_per_match=max(hands, 1))
    agents = [make_agent(spec, f"{match_seed}/{seat}") for seat, spec in enumerate(bots)]
    # the fast path: no view leaves the process, so windows open only on an option (R13.2)
    match = Match(rules, match_seed, windows=False)  # 漂 per R11.1-R11.3 (0 without choices)
    out = []
    while True:
        hand = match.hand
        while not hand.ended:
            seat = hand.to_act()[0]
            hand.apply(agents[seat].act(observe(hand, seat), hand.legal_actions(seat)))
        values = hand.values
        self_draw = any(v.win_by == SELF_DRAW for v in values.values())
        payer = None
        if hand.winners and not self_draw:  # the one who paid the hand value (R7.2, R8.4)
            payer = next(t.payer for t in hand.transfers if t.payee == hand.winners[0]
                         and t.kind in WIN_KINDS)
        out.append(HandStats(tuple(hand.deltas), tuple(hand.winners), self_draw, payer,
                             tuple(p.name for v in values.values() for p in v.pattern_rows),
                             hand_record(hand, match.hand_seed(len(match.hands) - 1))
                             if keep_records else None))
        if match.over:
            return out
        match.next_hand()


def _job(args: tuple) -> list[HandStats]:
    return play_match(*args)


@dataclass
class SeatReport:
    """Per-seat figures: ``mean`` score per hand (base units) with its 95% confidence
    interval (normal approximation), and rates per hand."""

    bot: str
    mean: float
    ci95: tuple[float, float]
    win_rate: float
    self_draw_rate: float
    deal_in_rate: float


@dataclass
class SimReport:
    """The result of :func:`simulate`."""

    hands: int
    seconds: float
    per_seat: list[SeatReport]
    draw_rate: float
    patterns: dict[str, float]  # pattern -> share of hands in which a winner had it
    records: list[dict] = field(default_factory=list)

    @property
    def hands_per_second(self) -> float:
        """Hands played per wall-clock second."""
        return self.hands / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict:
        """The JSON summary printed by ``kawuxing simulate --json``."""
        return {"per_seat": [{"bot": s.bot, "mean": round(s.mean, 4),
                              "ci95": [round(s.ci95[0], 4), round(s.ci95[1], 4)],
                              "win_rate": round(s.win_rate, 4),
                              "self_draw_rate": round(s.self_draw_rate, 4),
                              "deal_in_rate": round(s.deal_in_rate, 4)} for s in self.per_seat],
                "hands": self.hands, "draw_rate": round(self.draw_rate, 4),
                "hands_per_second": round(self.hands_per_second, 1),
                "patterns": {k: round(v, 4) for k, v in self.patterns.items()}}


def check_bots(bots: list[str]) -> None:
    """Raise ``ValueError`` unless ``bots`` is three valid bot names (seats 0-2)."""
    if len(bots) != 3:
        raise ValueError(f"three bots are needed (one a seat), got {len(bots)}")
    for spec in bots:
        check_bot(spec)


def simulate(games: int, bots: list[str], rules: RuleSet, seed: int | str = 0,
             workers: int = 1, keep_records: bool = False,
             progress: Callable[[int], None] | None = None) -> SimReport:
    """Play ``games`` hands with ``bots`` (three names, seats 0-2) on ``workers`` processes.

    ``progress(n)`` is called with the hands finished after each match. Raises ``ValueError``
    for a bad bot name or count.
    """
    check_bots(bots)
    if games < 1 or workers < 1:
        raise ValueError("games and workers must be at least 1")
    per = rules.hands_per_match
    jobs = [(rules, bots, seed, m, min(per, games - m * per), keep_records)
            for m in range(math.ceil(games / per))]
    start = time.perf_counter()
    stats: list[HandStats] = []
    if workers == 1 or len(jobs) == 1:
        results = map(_job, jobs)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)))
        results = pool.map(_job, jobs)
    try:
        for chunk in results:
            stats += chunk
            if progress:
                progress(len(chunk))
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
    return summarize(stats, bots, time.perf_counter() - start)


def summarize(stats: list[HandStats], bots: list[str], seconds: float) -> SimReport:
    """Per-seat means with 95% confidence intervals, rates and pattern shares."""
    n = len(stats)
    per_seat = []
    for seat, bot in enumerate(bots):
        scores = [h.deltas[seat] for h in stats]
        mean = sum(scores) / n
        var = sum((x - mean) ** 2 for x in scores) / (n - 1) if n > 1 else 0.0
        half = 1.96 * math.sqrt(var / n) if n > 1 else 0.0
        per_seat.append(SeatReport(
            bot, mean, (mean - half, mean + half),
            sum(seat in h.winners for h in stats) / n,
            sum(seat in h.winners and h.self_draw for h in stats) / n,
            sum(h.dealt_in == seat for h in stats) / n))
    counter: Counter[str] = Counter()
    for h in stats:
        counter.update(set(h.patterns))
    return SimReport(n, seconds, per_seat, sum(not h.winners for h in stats) / n,
                     {k: v / n for k, v in counter.most_common()},
                     [h.record for h in stats if h.record is not None])
