"""A room's match: like :class:`kawuxing.engine.Match` (R2, R12), but it can be rebuilt from
stored hands and can deal given walls (tests)."""

from __future__ import annotations

import secrets

from ..engine import Hand
from ..rules import RuleSet


class RoomMatch:
    """``rules.hands_per_match`` hands (R12.1); each next dealer is the one R2.2 chose.

    Build with :meth:`new` (first dealer by R2.1; walls shuffled by the OS CSPRNG, R3.1, or
    taken from ``walls`` for the first hands) or :meth:`restore` (hands replayed from records).
    """

    def __init__(self, rules: RuleSet, hands: list[Hand], walls: list[list[int]] | None = None):
        self.rules = rules
        self.hands = hands
        self.walls = list(walls or [])

    @classmethod
    def new(cls, rules: RuleSet, walls: list[list[int]] | None = None) -> RoomMatch:
        """Deal the first hand: dealer seat 0 under ``first_dealer = seat0``, else random
        (R2.1)."""
        dealer = 0 if rules.first_dealer == "seat0" else secrets.randbelow(3)
        match = cls(rules, [], walls)
        match._deal(dealer)
        return match

    @classmethod
    def restore(cls, rules: RuleSet, hands: list[Hand]) -> RoomMatch:
        """A match whose hands so far are ``hands`` (rebuilt from records)."""
        if not hands:
            raise ValueError("a match has at least one hand")
        return cls(rules, hands)

    @property
    def hand(self) -> Hand:
        """The hand in play (or the last one, once the match is over)."""
        return self.hands[-1]

    @property
    def number(self) -> int:
        """0-based number of the hand in play."""
        return len(self.hands) - 1

    @property
    def over(self) -> bool:
        """True when the last hand of the match has ended (R12.1)."""
        return len(self.hands) >= self.rules.hands_per_match and self.hand.ended

    def next_hand(self) -> Hand:
        """Deal the next hand; its dealer is the ended hand's ``next_dealer`` (R2.2). Raises
        ``RuntimeError`` if the hand is not over or the match is."""
        if not self.hand.ended:
            raise RuntimeError("the hand in play has not ended")
        if self.over:
            raise RuntimeError("the match is over")
        self._deal(self.hand.next_dealer)
        return self.hand

    def drop_last(self) -> None:
        """Forget the hand just dealt (its storing failed)."""
        if len(self.hands) > 1:
            self.hands.pop()

    def totals(self) -> list[int]:
        """Running scores: every ended hand's deltas summed (R12.1)."""
        totals = [0, 0, 0]
        for hand in self.hands:
            if hand.ended:
                totals = [t + d for t, d in zip(totals, hand.deltas)]
        return totals

    def _deal(self, dealer: int) -> None:
        n = len(self.hands)
        wall = self.walls[n] if n < len(self.walls) else None
        self.hands.append(Hand.deal(self.rules, dealer, wall=wall))
