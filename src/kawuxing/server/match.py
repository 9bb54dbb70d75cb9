"""A room's match: :class:`kawuxing.engine.Match` (R2, R12) with a provably fair deal
(R3.1, docs/fairness.md), that can be rebuilt from stored hands and can deal given walls
(tests).

Each hand's wall is :func:`kawuxing.fairness.derive_wall` of a fresh secret seed
(:func:`secrets.token_bytes`) and the entropy the seats sent for it; the seed's commitment is
published before the deal (:class:`HandSeed`), the seed after the hand (R13).
"""

from __future__ import annotations

import secrets

from .. import fairness
from ..engine import Hand, Match
from ..rules import RuleSet


class HandSeed:
    """The fairness inputs of one hand, from its commitment to its deal (R3.1).

    ``number`` (0-based) and ``hand_id`` (``"<match id>/<number>"``) name the hand;
    ``dealer`` is announced with the commitment; ``seed`` (32 secret bytes) is never sent
    before the hand ends (R13); ``entropy``: each seat's text ("" until it sends one).
    """

    def __init__(self, hand_id: str, number: int, dealer: int, seed: bytes,
                 entropy: list[str] | None = None) -> None:
        self.number = number
        self.hand_id = fairness.check_hand_id(hand_id)
        self.dealer = dealer
        self.seed = seed
        self.entropy = list(entropy) if entropy is not None else ["", "", ""]
        self.commitment = fairness.commitment(seed, self.hand_id)

    @classmethod
    def fresh(cls, match_id: str, number: int, dealer: int) -> HandSeed:
        """A new secret seed (:func:`secrets.token_bytes`, 32 bytes) for hand ``number`` of
        match ``match_id``, no entropy yet."""
        return cls(fairness.make_hand_id(match_id, number), number, dealer,
                   secrets.token_bytes(fairness.SEED_BYTES))

    @classmethod
    def from_record(cls, data: dict | None, number: int, dealer: int) -> HandSeed | None:
        """The HandSeed of a stored record's ``fairness`` object (None for none: a test wall
        or an old record). Raises ``ValueError`` if it is malformed."""
        if data is None:
            return None
        seed, hand_id, entropy, _ = fairness.parse_fairness(data)
        return cls(hand_id, number, dealer, seed, entropy)

    def announcement(self) -> dict:
        """What every seat is sent before the deal (no seed): ``{"hand", "hand_id",
        "algorithm", "commitment", "dealer"}``."""
        return {"hand": self.number, "hand_id": self.hand_id, "algorithm": fairness.ALGORITHM,
                "commitment": self.commitment, "dealer": self.dealer}

    def public(self) -> dict:
        """The fairness of a hand in play, as players see it: algorithm, hand id,
        commitment (no seed, no entropy)."""
        return {"algorithm": fairness.ALGORITHM, "hand_id": self.hand_id,
                "commitment": self.commitment}

    def revealed(self) -> dict:
        """The full fairness object (:func:`kawuxing.fairness.reveal`): for records and for
        the end of the hand, never before (R13)."""
        return fairness.reveal(self.seed, self.hand_id, self.entropy)

    def wall(self, rules: RuleSet) -> list[int]:
        """The 84 tiles of the wall, from seed, hand id and entropy as they are now."""
        return fairness.derive_wall(rules, self.seed, self.hand_id, self.entropy)


def first_hand_seed(rules: RuleSet, match_id: str | None = None) -> HandSeed:
    """The commitment of a match's first hand, drawn before the match starts (when the room
    is made) with its dealer: seat 0 under ``first_dealer = seat0``, else random (R2.1) —
    announced with the commitment, so the dealer cannot be picked once the entropy is in."""
    dealer = 0 if rules.first_dealer == "seat0" else secrets.randbelow(3)
    return HandSeed.fresh(match_id or secrets.token_hex(8), 0, dealer)


class RoomMatch(Match):
    """``rules.hands_per_match`` hands (R12.1); each next dealer is the one R2.2 chose.

    Build with :meth:`new` (first dealer by R2.1; walls derived from a committed seed and
    the seats' entropy, R3.1, or taken from ``walls`` for the first hands: test walls, which
    have no fairness data) or :meth:`restore` (hands replayed from records).

    ``fair``: each hand's :class:`HandSeed` (None for a test wall or an old record);
    ``pending``: the commitment open for the next hand (see :meth:`open_next`).
    """

    def __init__(self, rules: RuleSet, walls: list[list[int]] | None = None,
                 hands: list[Hand] | None = None, match_id: str | None = None,
                 first: HandSeed | None = None,
                 fair: list[HandSeed | None] | None = None) -> None:
        self.match_id = match_id or secrets.token_hex(8)
        self.test_walls = len(walls or [])
        self.fair: list[HandSeed | None] = list(fair or [])
        self.pending: HandSeed | None = first
        super().__init__(rules, walls=walls, hands=hands)
        self.fair += [None] * (len(self.hands) - len(self.fair))

    @classmethod
    def new(cls, rules: RuleSet, walls: list[list[int]] | None = None,
            match_id: str | None = None, first: HandSeed | None = None) -> RoomMatch:
        """Deal the first hand: dealer seat 0 under ``first_dealer = seat0``, else random
        (R2.1; with ``first``, the dealer announced with its commitment). ``first``: the
        first hand's committed seed and entropy (drawn now if None and not a test wall)."""
        return cls(rules, walls=walls, match_id=match_id, first=first)

    @classmethod
    def restore(cls, rules: RuleSet, hands: list[Hand],
                fair: list[HandSeed | None] | None = None,
                match_id: str | None = None) -> RoomMatch:
        """A match whose hands so far are ``hands`` (rebuilt from records), with their
        fairness data ``fair`` (aligned with ``hands``)."""
        if not hands:
            raise ValueError("a match has at least one hand")
        return cls(rules, hands=hands, match_id=match_id, fair=fair)

    @property
    def number(self) -> int:
        """0-based number of the hand in play."""
        return len(self.hands) - 1

    def open_next(self) -> HandSeed | None:
        """The commitment of the next hand, drawn now if none is open: only once the hand in
        play has ended and the match goes on (None otherwise, and for a next hand with a
        test wall). The room sends its announcement at once (R3.1)."""
        n = len(self.hands)
        if not self.hands or not self.hand.ended or self.over or n < self.test_walls:
            return None
        if self.pending is None or self.pending.number != n:
            self.pending = HandSeed.fresh(self.match_id, n, self.hand.next_dealer)
        return self.pending

    def _start(self, dealer: int) -> None:
        n = len(self.hands)
        if n < self.test_walls:
            self.fair.append(None)
            super()._start(dealer)
            return
        seed = self.pending
        if seed is None or seed.number != n:  # nobody was told a commitment: draw one now
            seed = HandSeed.fresh(self.match_id, n, dealer)
        elif n == 0:
            dealer = seed.dealer  # R2.1: the random dealer announced with the commitment
        self.pending = None
        self.walls = self.walls[:n] + [None] * (n - len(self.walls)) + [seed.wall(self.rules)]
        self.fair.append(seed)
        super()._start(dealer)

    def drop_last(self) -> None:
        """Forget the hand just dealt (its storing failed); its commitment is open again,
        with the entropy it had."""
        if len(self.hands) > 1:
            self.hands.pop()
            seed = self.fair.pop()
            if seed is not None:
                self.pending = seed
