"""Players' names and passwords (issue 16): what a name may be, when two names are the same,
and the password hash.

A player's name is a nickname (:func:`~.seats.clean_nickname`: 1-24 visible characters, not
bot-like) that is also no bot persona's name (老张, Lao Zhang …, :mod:`.personas`): a player
never passes for a bot. It may hold no control or format character (a newline, a tab, a
zero-width space: refused, not removed). Names are unique per server by :func:`name_key`
(case folded, spaces removed, full-width forms as plain ones: "Ann Li", "annli" and
"ＡＮＮ ＬＩ" are one name), and never confusable (``name_confusable``): a name may not mix
Latin, Cyrillic and Greek letters (:func:`mixed_script`), and no two names — a bot persona's,
a player's, a guest's nickname beside a player's — may have the same :func:`skeleton` (the
look-alikes of :data:`LOOKALIKES` as the Latin letters they pass for, after NFKC: Cyrillic
"Аnn" and "Ann", "AlI" and "All", "rn" and "m"). (``confusable-homoglyphs`` tells whether a
text has look-alikes but gives no skeleton to compare two names by, so the table is ours; it
covers the letters of the scripts that pass for Latin, UTS #39's idea at a small scale.)

Passwords are optional (a guest identity has none), 8-128 characters, kept as argon2id hashes
(``argon2-cffi``'s defaults, RFC 9106's second recommended setting) and never logged.
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from .errors import RoomError
from .personas import PERSONAS, fold, simplified
from .seats import clean_nickname, name_key

PASSWORD_MIN, PASSWORD_MAX = 8, 128
NAME_KEY_LENGTH = 64  # kwx_players.name_key
_HASHER = PasswordHasher()
# checked against when the name is unknown, so an unknown name costs a login as long as a
# wrong password does (no telling names apart by the time of the answer)
_DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))


# letters of other scripts (and digits) that pass for Latin ones, as the Latin letter:
# Cyrillic, Greek, and the I/l/1 and 0/O of most fonts (the one place a name's look is decided)
LOOKALIKES = str.maketrans({
    **dict(zip("АВЕЗКМНОРСТУХІЈЅԁаеорсухіјѕһӏԛԝԍ", "ABE3KMHOPCTYXIJSdaeopcyxijshlqwG")),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορτυχ", "ABEZHIKMNOPTYXaikvoptux")),
    "I": "l", "1": "l", "|": "l", "0": "O"})
CONFUSED_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")  # one of them per name
NAME_CONFUSABLE = "name_confusable"


def skeleton(name: str) -> str:
    """The form two names look alike in: NFKC, :data:`LOOKALIKES` as their Latin letters,
    "rn" as "m", then case folded without spaces (:func:`~.personas.fold`), the traditional
    forms of the bots' names' characters as simplified ones (:func:`~.personas.simplified`):
    ``"Аnn"`` (Cyrillic А), ``"ANN"`` and ``"Ann"`` have one skeleton, ``"老張"`` and ``"老张"``
    another."""
    return simplified(fold(unicodedata.normalize("NFKC", name).translate(LOOKALIKES).replace("rn", "m")))


def mixed_script(name: str) -> bool:
    """True when ``name`` (after NFKC) has letters of two of :data:`CONFUSED_SCRIPTS`
    (Latin "A" beside Cyrillic "н"): such a name passes for another. Chinese beside Latin
    is fine."""
    scripts = {unicodedata.name(c, "").split(" ")[0]
               for c in unicodedata.normalize("NFKC", name) if c.isalpha()}
    return len(scripts.intersection(CONFUSED_SCRIPTS)) > 1


_PERSONA_SKELETONS = frozenset(skeleton(n) for p in PERSONAS for n in (p.zh, p.en))


def clean_player_name(raw: object) -> str:
    """A player's name as stored: :func:`clean_nickname`'s rules (a bot persona's name is
    refused there), no control or format character (Unicode category C: a newline, a tab, a
    zero-width space), whose :func:`name_key` fits :data:`NAME_KEY_LENGTH`, of one script
    among Latin, Cyrillic and Greek (:func:`mixed_script`) and not looking like a bot
    persona's name (:func:`skeleton`). Raises :class:`RoomError` 422 ``bad_nickname``/
    ``bot_nickname``/``name_confusable``. (Whether it looks like another player's name is the
    store's to say: :meth:`~.playerstore.PlayerStore.create`.)"""
    if isinstance(raw, str) and any(unicodedata.category(c).startswith("C") for c in raw):
        raise RoomError(422, "nickname: no control or format characters (a newline, a tab, "
                             "a zero-width space)", "bad_nickname")
    name = clean_nickname(raw)
    if len(name_key(name)) > NAME_KEY_LENGTH:  # a few characters NFKC makes many of (﷽)
        raise RoomError(422, "nickname: too long once written out", "bad_nickname")
    if mixed_script(name):
        raise RoomError(422, "nickname: Latin, Cyrillic or Greek letters mixed (the name "
                             "would pass for another)", NAME_CONFUSABLE)
    if skeleton(name) in _PERSONA_SKELETONS:
        raise RoomError(422, "nickname: it looks like the name of one of the server's bots",
                        NAME_CONFUSABLE)
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


LOGIN_BURST, LOGIN_EVERY = 5, 60.0  # failed logins per name: 5, then one a minute


class LoginFailures:
    """Failed sign-ins per name (issue 16), whatever IPs they come from: a token bucket per
    :func:`name_key` of ``burst`` failures, one more every ``every`` seconds. While a name's
    bucket is empty every login to it — a right password too — is refused (429
    ``too_many_attempts``), so guessing one player's password from many addresses goes no
    faster than :data:`LOGIN_BURST` tries and then one a minute. Unknown names are counted
    alike (no telling names apart). At most ``max_names`` names are kept (the least recently
    failed forgotten). ``now`` (seconds, monotonic) is injectable for tests."""

    def __init__(self, burst: int = LOGIN_BURST, every: float = LOGIN_EVERY,
                 now: Callable[[], float] = time.monotonic, max_names: int = 10000) -> None:
        if burst < 1 or every <= 0:
            raise ValueError("burst must be >= 1 and every > 0")
        self.burst, self.every, self.max_names = burst, every, max_names
        self._now = now
        self._names: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    def _tokens(self, key: str) -> float:
        tokens, when = self._names.get(key, (self.burst, self._now()))
        return min(self.burst, tokens + (self._now() - when) / self.every)

    def wait(self, name: str) -> float:
        """Seconds until ``name`` may be tried again (0.0: now)."""
        tokens = self._tokens(name_key(name))
        return 0.0 if tokens >= 1 else (1 - tokens) * self.every

    def failed(self, name: str) -> None:
        """One more failed sign-in to ``name``."""
        key = name_key(name)
        self._names[key] = (max(0.0, self._tokens(key) - 1), self._now())
        self._names.move_to_end(key)
        while len(self._names) > self.max_names:
            self._names.popitem(last=False)
