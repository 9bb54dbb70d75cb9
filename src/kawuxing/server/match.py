"""A room's match: :class:`kawuxing.engine.Match` (R2, R12) dealt from the OS CSPRNG, that
can be rebuilt from stored hands and can deal given walls (tests)."""

from __future__ import annotations

from ..engine import Hand, Match
from ..rules import RuleSet


class RoomMatch(Match):
    """``rules.hands_per_match`` hands (R12.1); each next dealer is the one R2.2 chose.

    Build with :meth:`new` (first dealer by R2.1; walls shuffled by the OS CSPRNG, R3.1, or
    taken from ``walls`` for the first hands) or :meth:`restore` (hands replayed from records).
    """

    @classmethod
    def new(cls, rules: RuleSet, walls: list[list[int]] | None = None) -> RoomMatch:
        """Deal the first hand: dealer seat 0 under ``first_dealer = seat0``, else random
        (R2.1)."""
        return cls(rules, walls=walls)

    @classmethod
    def restore(cls, rules: RuleSet, hands: list[Hand]) -> RoomMatch:
        """A match whose hands so far are ``hands`` (rebuilt from records)."""
        if not hands:
            raise ValueError("a match has at least one hand")
        return cls(rules, hands=hands)

    @property
    def number(self) -> int:
        """0-based number of the hand in play."""
        return len(self.hands) - 1

    def drop_last(self) -> None:
        """Forget the hand just dealt (its storing failed)."""
        if len(self.hands) > 1:
            self.hands.pop()
