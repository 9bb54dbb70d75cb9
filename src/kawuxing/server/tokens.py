"""Seat tokens and room codes: secrets made with :mod:`secrets`, kept hashed, compared in
constant time (:func:`hmac.compare_digest`)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

# room codes avoid letters and digits that are easy to confuse (0/O, 1/I/L, 5/S, 2/Z, 8/B)
CODE_ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
CODE_LENGTH = 6


def new_room_code() -> str:
    """A short random room code, e.g. ``"K7QXMA"`` (25^6 ≈ 2.4e8 codes)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """A room code as typed (any case, spaces) in its canonical upper-case form."""
    return "".join(code.split()).upper()


def new_token() -> str:
    """A seat token: 32 random bytes, URL-safe base64 (``secrets.token_urlsafe``)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The SHA-256 hex digest kept in place of a token (a leaked database holds no tokens)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str | None, stored_hash: str | None) -> bool:
    """True when ``token`` hashes to ``stored_hash`` (constant-time comparison)."""
    if not token or not stored_hash or not isinstance(token, str):
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)
