"""A provably fair deal (RULES.md R3.1, R13): commit to a secret seed, mix in the players'
entropy, derive the wall by a public algorithm, reveal the seed after the hand.

docs/fairness.md is the specification (with test vectors); this module is its reference
implementation. It is pure: no I/O, no clock, no RNG — the caller passes the seed bytes (the
server draws them with :func:`secrets.token_bytes`).

Algorithm ``kawuxing-wall-v1``, with ``lp(b) = len(b) as 4 bytes big-endian ‖ b``:

- commitment = hex SHA-256( lp("kawuxing-wall-v1/commitment") ‖ lp(hand_id) ‖ lp(seed) );
- key K = HMAC-SHA256(key = seed, lp("kawuxing-wall-v1/wall") ‖ lp(hand_id) ‖ lp(e0) ‖ lp(e1)
  ‖ lp(e2)), where e0-e2 are the seats' entropy texts (ASCII; "" for none);
- stream: block i (i = 0, 1, …) = HMAC-SHA256(K, i as 8 bytes big-endian), read as 32-bit
  big-endian unsigned integers;
- the starting deck: the 21 kinds of :func:`kawuxing.tiles.kinds_for_suits` in ascending
  order, four copies each, sorted (``[k0, k0, k0, k0, k1, …]``);
- Fisher–Yates: for i = 83 down to 1, j = a uniform integer in [0, i] (rejection sampling:
  take the next u; reject while u ≥ 2^32 − (2^32 mod (i+1)); j = u mod (i+1)), swap deck[i]
  and deck[j]. The result is the wall, dealt as R3.1 says (:func:`deal`).

A hand identity is ``"<match id>/<hand number>"`` on the server (1-128 printable ASCII
characters in general). Entropy: at most :data:`MAX_ENTROPY` printable ASCII characters
(0x20-0x7E) per seat.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence

from .tiles import COPIES, SUIT_LETTERS, TileError, format_tiles, kinds_for_suits, parse_tiles, \
    tile_str

ALGORITHM = "kawuxing-wall-v1"
SEED_BYTES = 32
MAX_ENTROPY = 64
MAX_HAND_ID = 128
_COMMIT_LABEL = b"kawuxing-wall-v1/commitment"
_WALL_LABEL = b"kawuxing-wall-v1/wall"
_U32 = 1 << 32


class FairnessError(ValueError):
    """Fairness data that cannot be checked at all (missing, malformed, another algorithm):
    not a mismatch but unusable input."""


def _lp(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _printable(text: object, limit: int, what: str, allow_empty: bool) -> bytes:
    if not isinstance(text, str):
        raise FairnessError(f"{what}: a text of printable ASCII, got {type(text).__name__}")
    if len(text) > limit or (not text and not allow_empty):
        size = f"0-{limit}" if allow_empty else f"1-{limit}"
        raise FairnessError(f"{what}: {size} printable ASCII characters, got {len(text)}")
    if any(not 0x20 <= ord(c) <= 0x7E for c in text):
        raise FairnessError(f"{what}: only printable ASCII characters (space to ~)")
    return text.encode("ascii")


def check_entropy(value: object, allow_empty: bool = True) -> str:
    """``value`` if it is a seat's entropy text: at most 64 printable ASCII characters
    (0x20-0x7E; empty allowed unless ``allow_empty`` is False). Raises
    :class:`FairnessError` otherwise (R3.1)."""
    _printable(value, MAX_ENTROPY, "entropy", allow_empty)
    return value  # type: ignore[return-value]


def check_hand_id(value: object) -> str:
    """``value`` if it is a hand identity: 1-128 printable ASCII characters. Raises
    :class:`FairnessError` otherwise."""
    _printable(value, MAX_HAND_ID, "hand_id", False)
    return value  # type: ignore[return-value]


def make_hand_id(match_id: str, number: int) -> str:
    """The identity of hand ``number`` (0-based) of a match: ``"<match id>/<number>"``."""
    return check_hand_id(f"{match_id}/{number}")


def _check_seed(seed: object) -> bytes:
    if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
        raise FairnessError(f"seed: {SEED_BYTES} bytes")
    return bytes(seed)


def commitment(seed: bytes, hand_id: str) -> str:
    """The commitment to ``seed`` (32 bytes) for hand ``hand_id``: 64 lowercase hex digits of
    SHA-256(lp(label) ‖ lp(hand_id) ‖ lp(seed)) (module doc). Published before the deal, it
    binds the server to the seed without showing it (R3.1, R13). Raises
    :class:`FairnessError` for a seed that is not 32 bytes or a bad hand id."""
    data = _lp(_COMMIT_LABEL) + _lp(_printable(hand_id, MAX_HAND_ID, "hand_id", False)) \
        + _lp(_check_seed(seed))
    return hashlib.sha256(data).hexdigest()


def wall_key(seed: bytes, hand_id: str, entropy: Sequence[str]) -> bytes:
    """K, the 32-byte key of the hand's stream: HMAC-SHA256 keyed by ``seed`` over the label,
    the hand id and the three seats' entropy in seat order, each length-prefixed. Raises
    :class:`FairnessError` for bad inputs (not three entropy texts, …)."""
    if isinstance(entropy, str) or len(entropy) != 3:
        raise FairnessError("entropy: three texts, one per seat (\"\" for none)")
    message = _lp(_WALL_LABEL) + _lp(_printable(hand_id, MAX_HAND_ID, "hand_id", False))
    for i, e in enumerate(entropy):
        message += _lp(_printable(e, MAX_ENTROPY, f"entropy[{i}]", True))
    return hmac.new(_check_seed(seed), message, hashlib.sha256).digest()


def stream(key: bytes) -> Iterator[int]:
    """The 32-bit words of HMAC-SHA256(``key``, counter) for counter = 0, 1, … (big-endian,
    8 words a block), without end."""
    counter = 0
    while True:
        block = hmac.new(key, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i:i + 4], "big")
        counter += 1


def uniform(n: int, words: Iterator[int]) -> int:
    """An unbiased integer in [0, n) from 32-bit ``words``: words ≥ 2^32 − (2^32 mod n) are
    skipped (rejection sampling), then the word mod n."""
    if not 1 <= n <= _U32:
        raise ValueError(f"n = {n}: 1 to 2^32")
    limit = _U32 - _U32 % n
    for word in words:
        if word < limit:
            return word % n
    raise ValueError("the stream ended")  # pragma: no cover - streams do not end


def _suits_of(rules_or_suits) -> tuple[str, ...]:
    suits = getattr(rules_or_suits, "suits", rules_or_suits)
    if isinstance(suits, str) or not isinstance(suits, Sequence) or len(suits) != 2 \
            or len(set(suits)) != 2 or any(s not in SUIT_LETTERS for s in suits):
        raise FairnessError(f"suits: two of m, p, s (R1.1), got {suits!r:.40}")
    return tuple(suits)


def starting_deck(rules_or_suits) -> list[int]:
    """The 84 tiles before the shuffle: each kind in play (R1.1) four times, ascending.
    ``rules_or_suits``: a :class:`~kawuxing.rules.RuleSet` or its two suit letters."""
    return [k for k in kinds_for_suits(_suits_of(rules_or_suits)) for _ in range(COPIES)]


def derive_wall(rules_or_suits, seed: bytes, hand_id: str, entropy: Sequence[str]) -> list[int]:
    """The wall of a hand: the 84 tile kinds in dealing order (R3.1), from the starting deck
    shuffled by Fisher–Yates on the hand's HMAC stream (module doc). Deterministic: the same
    suits, seed, hand id and entropy always give the same wall. Raises
    :class:`FairnessError` for bad inputs."""
    deck = starting_deck(rules_or_suits)
    words = stream(wall_key(seed, hand_id, entropy))
    for i in range(len(deck) - 1, 0, -1):
        j = uniform(i + 1, words)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(wall: Sequence[int], dealer: int) -> tuple[list[list[int]], list[int]]:
    """What R3.1 deals from ``wall``: ``(hands, draws)`` — three hands of 13 (seats 0-2;
    4-4-4 from the dealer, then 1 each) and the draw order (the dealer's 14th first), the
    same as :meth:`kawuxing.engine.Hand.deal`."""
    hands: list[list[int]] = [[], [], []]
    pos = 0
    for size in (4, 4, 4, 1):
        for i in range(3):
            hands[(dealer + i) % 3] += wall[pos:pos + size]
            pos += size
    return hands, list(wall[pos:])


def reveal(seed: bytes, hand_id: str, entropy: Sequence[str]) -> dict:
    """The fairness object of a record and of the end of a hand: ``{"algorithm",
    "hand_id", "commitment", "seed" (64 hex digits), "entropy" (3 texts)}``."""
    return {"algorithm": ALGORITHM, "hand_id": hand_id, "commitment": commitment(seed, hand_id),
            "seed": bytes(seed).hex(), "entropy": list(entropy)}


def parse_fairness(fairness: object) -> tuple[bytes, str, list[str], str]:
    """``(seed, hand_id, entropy, commitment)`` of a fairness object (:func:`reveal`).
    Raises :class:`FairnessError` naming what is missing or malformed, or for another
    algorithm."""
    if not isinstance(fairness, dict):
        raise FairnessError("fairness: an object with algorithm, hand_id, commitment, seed and "
                            "entropy")
    algorithm = fairness.get("algorithm")
    if algorithm != ALGORITHM:
        raise FairnessError(f"fairness algorithm {algorithm!r:.40}: this checks {ALGORITHM}")
    for key in ("hand_id", "commitment", "seed", "entropy"):
        if key not in fairness:
            raise FairnessError(f"fairness: no {key!r}")
    hand_id = check_hand_id(fairness["hand_id"])
    seed_hex, commit = fairness["seed"], fairness["commitment"]
    for name, value in (("seed", seed_hex), ("commitment", commit)):
        if not isinstance(value, str) or len(value) != 64 or \
                any(c not in "0123456789abcdef" for c in value):
            raise FairnessError(f"fairness {name}: 64 lowercase hex digits, got {value!r:.70}")
    entropy = fairness["entropy"]
    if not isinstance(entropy, list) or len(entropy) != 3:
        raise FairnessError("fairness entropy: a list of three texts, one per seat")
    for i, e in enumerate(entropy):
        _printable(e, MAX_ENTROPY, f"fairness entropy[{i}]", True)
    return bytes.fromhex(seed_hex), hand_id, list(entropy), commit


def verify(fairness: dict, rules_or_suits, dealer: int, hands: Sequence[Sequence[int]],
           draws: Sequence[int]) -> list[str]:
    """Check a dealt hand against its fairness object (R3.1): the commitment is the
    SHA-256 of the seed and hand id, and the wall derived from seed, hand id and entropy
    deals exactly ``hands`` (three lists of kinds, any order within a hand) and ``draws``
    (in order) with ``dealer``. Returns the mismatches as sentences (empty: verified).
    Raises :class:`FairnessError` for unusable fairness data or a bad dealer."""
    seed, hand_id, entropy, commit = parse_fairness(fairness)
    if type(dealer) is not int or dealer not in (0, 1, 2):
        raise FairnessError(f"dealer {dealer!r:.20}: seat 0, 1 or 2")
    problems = []
    expected = commitment(seed, hand_id)
    if commit != expected:
        problems.append(f"commitment: the record says {commit[:16]}…, but SHA-256 of the seed "
                        f"and hand id {hand_id!r} is {expected[:16]}…")
    wall = derive_wall(rules_or_suits, seed, hand_id, entropy)
    want_hands, want_draws = deal(wall, dealer)
    for seat in range(3):
        got = sorted(hands[seat]) if seat < len(hands) else []
        if got != sorted(want_hands[seat]):
            problems.append(f"seat {seat}'s dealt hand: the record says {format_tiles(got)}, "
                            f"the seed deals {format_tiles(want_hands[seat])}")
    draws = list(draws)
    if draws != want_draws:
        at = next((i for i, (a, b) in enumerate(zip(draws, want_draws)) if a != b),
                  min(len(draws), len(want_draws)))
        problems.append(f"draws: from draw {at + 1} on the record says "
                        f"{_tiles_text(draws[at:at + 6])}, the seed gives "
                        f"{_tiles_text(want_draws[at:at + 6])} ({len(draws)} draws recorded, "
                        f"{len(want_draws)} in the wall)")
    return problems


def _tiles_text(tiles: Sequence[int]) -> str:
    return " ".join(tile_str(t) for t in tiles) + " …" if tiles else "nothing"


def verify_record(record: object) -> list[str]:
    """Check the deal of a game record (:mod:`kawuxing.records`, version 2 with a
    ``fairness`` object): see :func:`verify`. Returns the mismatches (empty: verified).

    Raises :class:`FairnessError` for input that cannot be checked: not a record, a record
    without fairness data (version 1, a test wall, a seeded self-play), malformed fields or
    tiles. A tile changed in a hand or the draws is a mismatch, not an error.
    """
    if not isinstance(record, dict) or record.get("format") != "kawuxing-hand":
        raise FairnessError("not a kawuxing-hand record")
    if record.get("fairness") is None:
        why = ("an old record (version 1)" if record.get("version") == 1 else
               "the hand was dealt from a given wall or a replay seed")
        raise FairnessError(f"the record has no fairness data: {why}; nothing to verify")
    rules = record.get("rules")
    if not isinstance(rules, dict):
        raise FairnessError("record 'rules' must be an object of options")
    suits = rules.get("suits", ["p", "s"])
    hands, draws = record.get("hands"), record.get("draws")
    if not isinstance(hands, list) or len(hands) != 3 or not all(isinstance(h, str) for h in hands):
        raise FairnessError("record 'hands' must be three tile strings")
    if not isinstance(draws, str):
        raise FairnessError("record 'draws' must be a tile string")
    try:
        held = [parse_tiles(h, max_copies=None) for h in hands]
        order = parse_tiles(draws, max_copies=None)
    except TileError as exc:
        raise FairnessError(f"record tiles: {exc}") from None
    return verify(record["fairness"], suits, record.get("dealer"), held, order)
