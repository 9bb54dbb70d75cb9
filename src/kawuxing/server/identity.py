"""Players' names and passwords (issue 16): what a name may be, when two names are the same,
and the password hash.

A player's name is a nickname (:func:`~.seats.clean_nickname`: 1-24 visible characters, not
bot-like) that is also no bot persona's name (老张, Lao Zhang …, :mod:`.personas`): a player
never passes for a bot. Names are unique per server by :func:`name_key` (case folded, spaces
removed, full-width forms as plain ones: "Ann Li", "annli" and "ＡＮＮ ＬＩ" are one name). Passwords are optional (a guest identity has
none), 8-128 characters, kept as argon2id hashes (``argon2-cffi``'s defaults, RFC 9106's
second recommended setting) and never logged.
"""

from __future__ import annotations

import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from .errors import RoomError
from .seats import clean_nickname, name_key

PASSWORD_MIN, PASSWORD_MAX = 8, 128
NAME_KEY_LENGTH = 64  # kwx_players.name_key
_HASHER = PasswordHasher()
# checked against when the name is unknown, so an unknown name costs a login as long as a
# wrong password does (no telling names apart by the time of the answer)
_DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))


def clean_player_name(raw: object) -> str:
    """A player's name as stored: :func:`clean_nickname`'s rules (a bot persona's name is
    refused there), and whose :func:`name_key` fits :data:`NAME_KEY_LENGTH`. Raises
    :class:`RoomError` 422 ``bad_nickname``/``bot_nickname``."""
    name = clean_nickname(raw)
    if len(name_key(name)) > NAME_KEY_LENGTH:  # a few characters NFKC makes many of (﷽)
        raise RoomError(422, "nickname: too long once written out", "bad_nickname")
    return name


def new_player_id() -> str:
    """A player's public id: 16 random bytes as 32 hex digits."""
    return secrets.token_hex(16)


def check_password(password: object) -> str:
    """``password`` if it is a text of :data:`PASSWORD_MIN`-:data:`PASSWORD_MAX` characters,
    else :class:`RoomError` 422 ``bad_password`` (the message never repeats it)."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise RoomError(422, f"password: {PASSWORD_MIN}-{PASSWORD_MAX} characters",
                        "bad_password")
    return password


def hash_password(password: str) -> str:
    """The argon2id hash (PHC string, salt included) of a :func:`check_password` password.
    CPU-bound (tens of ms): run it in a thread."""
    return _HASHER.hash(check_password(password))


def password_matches(password: object, stored: str | None) -> bool:
    """True when ``password`` is the one ``stored`` (an argon2 hash) was made from. With no
    stored hash (an unknown name, a guest) a dummy hash is checked, so the answer takes as
    long, and False is returned. CPU-bound: run it in a thread."""
    if not isinstance(password, str) or len(password) > PASSWORD_MAX:
        password = ""
    try:
        return _HASHER.verify(stored or _DUMMY_HASH, password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
