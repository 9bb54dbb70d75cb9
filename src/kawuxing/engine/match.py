"""A match: a number of hands with running scores and dealer rotation (RULES.md R2, R12), each
hand dealt from a seed, a given wall, or a provably fair deal (R3.1, docs/fairness.md).

Pure like the rest of the engine: it reads no OS randomness. Whoever makes a :class:`Match`
passes what the deal needs: a reproducible ``seed``, the ``walls``, or for a fair deal a
``secret`` source of seed bytes (the server passes :func:`secrets.token_bytes`) and the first
dealer. A fair hand's wall is :func:`kawuxing.fairness.derive_wall` of its secret seed and the
entropy the seats sent for it; the seed's commitment is published before the deal
(:class:`HandSeed`), the seed after the hand (R13).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .. import fairness
from ..rules import RuleSet
from .hand import Hand

SecretSource = Callable[[], bytes]
"""What a fair match draws each hand's secret seed from: a call that returns
:data:`kawuxing.fairness.SEED_BYTES` (32) fresh secret bytes."""


class HandSeed:
    """The fairness inputs of one hand, from its commitment to its deal (R3.1).

    ``number`` (0-based) and ``hand_id`` (``"<match id>/<number>"``) name the hand;
    ``dealer`` is announced with the commitment; ``seed`` (32 secret bytes) is never sent
    before the hand ends (R13); ``entropy``: each seat's text ("" until it sends one).
    Raises :class:`kawuxing.fairness.FairnessError` (a ``ValueError``) for a bad hand id or a
    seed that is not 32 bytes.
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
    def for_hand(cls, match_id: str, number: int, dealer: int, seed: bytes) -> HandSeed:
        """The HandSeed of hand ``number`` of match ``match_id`` with the secret ``seed``
        (32 bytes, drawn by the caller), no entropy yet."""
        return cls(fairness.make_hand_id(match_id, number), number, dealer, seed)

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


class Match:
    """``rules.hands_per_match`` hands (R12.1); :meth:`totals` gives the running scores (base
    units); each next dealer is the one R2.2 chose.

    How hand ``n`` is dealt: from ``walls[n]`` when given (tests, replays; no fairness data);
    else, with a ``secret`` source, from a committed :class:`HandSeed` (the one :meth:`open_next`
    published, or ``first`` for hand 0, or one drawn now) — a provably fair deal (R3.1); else
    shuffled by ``random.Random(f"{seed}/{n}")`` for a reproducible ``seed``.

    The first dealer (R2.1): seat 0 under ``first_dealer = seat0``; else the dealer of
    ``first``, else ``dealer``, else ``random.Random(f"{seed}/dealer")``.

    ``piao`` pre-sets every seat's 漂 for all hands (otherwise each hand opens with a piao
    phase when the rules have ``piao_choices``; under R11.2 ``piao_mode = first_hand`` only the
    first hand does and every later hand keeps the 漂 picked there; under ``fixed`` every
    seat's is ``piao_fixed``, :class:`Hand`). ``hands`` continues a match whose hands so
    far were rebuilt elsewhere (see :meth:`restore`) instead of dealing a first hand.
    ``windows``: every hand opens a claim window after every discard (R13.2, see
    :class:`Hand`); ``False`` for self-play. ``match_id`` names the match in its hands' ids
    (needed for a fair deal); ``fair``: each hand's :class:`HandSeed` (None for a wall or a
    seed deal); ``pending``: the commitment open for the next hand.

    Raises ``TypeError`` when a hand must be dealt and none of ``walls``, ``secret`` and
    ``seed`` says how, or the first dealer is unknown; ``ValueError`` for a fair deal
    without ``match_id``.
    """

    def __init__(self, rules: RuleSet, seed: int | str | None = None,
                 piao: list[int] | None = None, walls: list[list[int]] | None = None,
                 hands: list[Hand] | None = None, windows: bool = True, *,
                 secret: SecretSource | None = None, match_id: str | None = None,
                 first: HandSeed | None = None, dealer: int | None = None,
                 fair: list[HandSeed | None] | None = None) -> None:
        self.rules = rules
        self.windows = windows
        self.seed = seed
        self.piao = piao
        self.walls = list(walls or [])
        self.secret = secret
        self.match_id = match_id
        self.hands: list[Hand] = list(hands or [])
        self.fair: list[HandSeed | None] = list(fair or [])
        self.fair += [None] * (len(self.hands) - len(self.fair))
        self.pending: HandSeed | None = first
        if self.hands:
            return
        if rules.first_dealer == "seat0":
            first_dealer = 0
        elif first is not None:
            first_dealer = first.dealer  # R2.1: the random dealer announced with the commitment
        elif dealer is not None:
            first_dealer = dealer
        elif seed is not None:
            first_dealer = random.Random(f"{seed}/dealer").randrange(3)
        else:
            raise TypeError("Match: the first dealer is random (R2.1): pass a seed, the dealer "
                            "or the first hand's HandSeed")
        self._start(first_dealer)

    @classmethod
    def restore(cls, rules: RuleSet, hands: list[Hand],
                fair: list[HandSeed | None] | None = None, match_id: str | None = None,
                secret: SecretSource | None = None, windows: bool = True) -> Match:
        """A match whose hands so far are ``hands`` (rebuilt from records), with their
        fairness data ``fair`` (aligned with ``hands``); next hands dealt fairly from
        ``secret``. Raises ``ValueError`` for no hands."""
        if not hands:
            raise ValueError("a match has at least one hand")
        return cls(rules, hands=hands, windows=windows, secret=secret, match_id=match_id,
                   fair=fair)

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
        """True when the last hand of the match has ended."""
        return len(self.hands) >= self.rules.hands_per_match and self.hand.ended

    def hand_seed(self, number: int) -> str | None:
        """The shuffle seed of hand ``number`` (0-based), or None without a match seed."""
        return None if self.seed is None else f"{self.seed}/{number}"

    def open_next(self) -> HandSeed | None:
        """The commitment of the next hand, drawn now from ``secret`` if none is open: only
        once the hand in play has ended and the match goes on (None otherwise, for a next
        hand from a given wall, and without a ``secret``). The caller publishes its
        announcement at once (R3.1)."""
        n = len(self.hands)
        if (self.secret is None or not self.hands or not self.hand.ended or self.over
                or n < len(self.walls)):
            return None
        if self.pending is None or self.pending.number != n:
            self.pending = self._draw_seed(n, self.hand.next_dealer)
        return self.pending

    def next_hand(self) -> Hand:
        """Deal the next hand once the one in play has ended; its dealer is the
        one R2.2 chose. Raises ``RuntimeError`` if the hand is not over or the match is."""
        if not self.hand.ended:
            raise RuntimeError("the hand in play has not ended")
        if self.over:
            raise RuntimeError("the match is over")
        self._start(self.hand.next_dealer)
        return self.hand

    def drop_last(self) -> None:
        """Forget the hand just dealt (e.g. its storing failed); its commitment is open
        again, with the entropy it had. The first hand is never dropped."""
        if len(self.hands) > 1:
            self.hands.pop()
            seed = self.fair.pop()
            if seed is not None:
                self.pending = seed

    def next_base_factor(self) -> int:
        """R17.1 ``shang_lou = after_draw`` (上楼): the next hand's base factor, the last hand's
        ×2 after a 荒庄 or an 一炮双响 (so ×2, ×4 … in a row), 1 after any other ending, for
        the first hand and with the option off. Read from the hands themselves, so a match
        rebuilt from records (:meth:`restore`) goes on with the right one."""
        if self.rules.shang_lou != "after_draw" or not self.hands or not self.hand.ended:
            return 1
        last = self.hand
        if last.result == "draw" or len(last.winners) == 2:
            return last.base_factor * 2
        return 1

    def totals(self) -> list[int]:
        """Running scores: every ended hand's deltas summed (R12.1)."""
        totals = [0, 0, 0]
        for hand in self.hands:
            if hand.ended:
                totals = [t + d for t, d in zip(totals, hand.deltas)]
        return totals

    def _draw_seed(self, number: int, dealer: int) -> HandSeed:
        if self.match_id is None:
            raise ValueError("Match: a fair deal needs the match_id (hand ids name it)")
        return HandSeed.for_hand(self.match_id, number, dealer, self.secret())

    def _start(self, dealer: int) -> None:
        n = len(self.hands)
        seed = None
        if n < len(self.walls):
            wall = self.walls[n]
        elif self.secret is not None:
            seed = self.pending
            if seed is None or seed.number != n:  # nobody was told a commitment: draw one now
                seed = self._draw_seed(n, dealer)
            self.pending = None
            wall = seed.wall(self.rules)
        elif self.seed is not None:
            wall = None  # Hand.deal shuffles with the hand's seed
        else:
            raise TypeError(f"Match: hand {n} has no wall: pass walls, a secret source or "
                            "a seed")
        piao = self.piao
        if piao is None and n and self.rules.piao_mode == "first_hand":
            piao = [s.piao for s in self.hands[0].seats]  # R11.2: picked once, kept all match
        self.hands.append(Hand.deal(self.rules, dealer, self.hand_seed(n), wall=wall,
                                    piao=piao, windows=self.windows,
                                    base_factor=self.next_base_factor()))
        self.fair.append(seed)
