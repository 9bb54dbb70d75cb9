"""A match: a number of hands with running scores and dealer rotation (RULES.md R2, R12)."""

from __future__ import annotations

import random
import secrets

from ..rules import RuleSet
from .hand import Hand


class Match:
    """``rules.hands_per_match`` hands (R12.1); :meth:`totals` gives the running scores (base units).

    ``seed`` makes the whole match reproducible (each hand is shuffled with ``f"{seed}/{n}"``);
    without it the first dealer and every wall come from the OS CSPRNG (R2.1, R3.1).
    ``piao`` pre-sets every seat's 漂 for all hands (otherwise each hand opens with a piao
    phase when the rules have ``piao_choices``). ``walls`` gives the walls of the first hands
    (tests, replays); ``hands`` continues a match whose hands so far were rebuilt elsewhere
    (e.g. from records) instead of dealing a first hand. ``windows``: every hand opens a
    claim window after every discard (R13.2, see :class:`Hand`); ``False`` for self-play.
    """

    def __init__(self, rules: RuleSet, seed: int | str | None = None,
                 piao: list[int] | None = None, walls: list[list[int]] | None = None,
                 hands: list[Hand] | None = None, windows: bool = True) -> None:
        self.rules = rules
        self.windows = windows
        self.seed = seed
        self.piao = piao
        self.walls = list(walls or [])
        self.hands: list[Hand] = list(hands or [])
        if self.hands:
            return
        if rules.first_dealer == "seat0":
            dealer = 0
        elif seed is None:
            dealer = secrets.randbelow(3)
        else:
            dealer = random.Random(f"{seed}/dealer").randrange(3)
        self._start(dealer)

    @property
    def hand(self) -> Hand:
        """The hand in play (or the last one, once the match is over)."""
        return self.hands[-1]

    @property
    def over(self) -> bool:
        """True when the last hand of the match has ended."""
        return len(self.hands) >= self.rules.hands_per_match and self.hand.ended

    def hand_seed(self, number: int) -> str | None:
        """The seed of hand ``number`` (0-based), or None without a match seed."""
        return None if self.seed is None else f"{self.seed}/{number}"

    def _start(self, dealer: int) -> None:
        n = len(self.hands)
        wall = self.walls[n] if n < len(self.walls) else None
        self.hands.append(Hand.deal(self.rules, dealer, self.hand_seed(n), wall=wall,
                                    piao=self.piao, windows=self.windows))

    def next_hand(self) -> Hand:
        """Deal the next hand once the one in play has ended; its dealer is the
        one R2.2 chose. Raises ``RuntimeError`` if the hand is not over or the match is."""
        if not self.hand.ended:
            raise RuntimeError("the hand in play has not ended")
        if self.over:
            raise RuntimeError("the match is over")
        self._start(self.hand.next_dealer)
        return self.hand

    def totals(self) -> list[int]:
        """Running scores: every ended hand's deltas summed (R12.1)."""
        totals = [0, 0, 0]
        for hand in self.hands:
            if hand.ended:
                totals = [t + d for t, d in zip(totals, hand.deltas)]
        return totals
