"""The server's randomness for matches (R2.1, R3.1, docs/fairness.md): the engine reads no OS
randomness, so the server draws here, with :mod:`secrets`, what :class:`kawuxing.engine.Match`
is given — match ids, the secret seed bytes of every hand, the random first dealer."""

from __future__ import annotations

import secrets

from .. import fairness
from ..engine.match import HandSeed, Match
from ..rules import RuleSet


def secret_seed() -> bytes:
    """32 fresh secret bytes (:data:`kawuxing.fairness.SEED_BYTES`) for one hand's seed: the
    ``secret`` source of every server match."""
    return secrets.token_bytes(fairness.SEED_BYTES)


def new_match_id() -> str:
    """A fresh match id: 16 random hex digits."""
    return secrets.token_hex(8)


def first_hand_seed(rules: RuleSet, match_id: str | None = None) -> HandSeed:
    """The commitment of a match's first hand, drawn before the match starts (when the room
    is made) with its dealer: seat 0 under ``first_dealer = seat0``, else random (R2.1) —
    announced with the commitment, so the dealer cannot be picked once the entropy is in."""
    dealer = 0 if rules.first_dealer == "seat0" else secrets.randbelow(3)
    return HandSeed.for_hand(match_id or new_match_id(), 0, dealer, secret_seed())


def new_match(rules: RuleSet, walls: list[list[int]] | None = None,
              match_id: str | None = None, first: HandSeed | None = None) -> Match:
    """Deal a room's first hand: from ``first`` (its committed seed, entropy and announced
    dealer), else from ``walls`` (test walls, no fairness data; the first dealer random unless
    ``first_dealer = seat0``), else from a seed drawn now. Later hands are dealt fairly."""
    return Match(rules, walls=walls, secret=secret_seed, match_id=match_id or new_match_id(),
                 first=first, dealer=secrets.randbelow(3))


def restore_match(rules: RuleSet, hands: list, fair: list[HandSeed | None] | None,
                  match_id: str) -> Match:
    """A room's match rebuilt from its stored hands (:meth:`kawuxing.engine.Match.restore`);
    its next hands dealt fairly."""
    return Match.restore(rules, hands, fair, match_id, secret=secret_seed)
