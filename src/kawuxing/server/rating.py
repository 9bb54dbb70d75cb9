"""The rating of players (issue 16, docs/ratings.md): Tenhou's R for three players, and which
matches count. Pure functions: no I/O, no clock.

After a rated match each player's R changes by ``(place bonus + (table average R − own
R) / 40) × games factor``:

- place bonus by final totals (R12.1): +30 for 1st, 0 for 2nd, −30 for 3rd; players tied on
  totals share the bonuses of the places they cover (two tied for 1st: +15 each);
- table average R: the mean of the three players' R before the match;
- games factor: ``1 − 0.002 × n`` for a player with ``n`` < 400 rated matches before this one,
  else 0.2 (new players move fast, settled ones slowly).

A new player starts at :data:`START` (1500). The three changes add up to zero when the
players have played equally many rated matches.

Rated matches (:func:`unrated_reason`): finished, three players with identities (no bot, no
seat taken with a nickname only), the same three from the first hand to the last (nobody left
or joined), and no seat 托管-heavy: at most :data:`AUTO_SHARE` of a seat's decisions were
made for it (timeouts, 托管, the bot that played a seat its player left).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

START = 1500.0
PLACE_BONUS = (30.0, 0.0, -30.0)
AVERAGE_DIVISOR = 40.0
SETTLED_GAMES = 400  # from this many rated matches on, the factor is SETTLED_FACTOR
GAMES_STEP, SETTLED_FACTOR = 0.002, 0.2
AUTO_SHARE = 1 / 3  # a seat with more of its decisions made for it is 托管-heavy
# who made a decision (kwx_actions.by) other than the seat's player; ``window`` (the pass of
# a seat with no option, R13.2) is no decision at all and is not counted
NOT_THE_PLAYER = ("timeout", "auto", "bot")

# why a match is not rated (the ``reason`` of the match_end ``rating``)
BOTS, GUESTS, CHANGED, AUTO = "bots", "guests", "changed", "auto"


def games_factor(games: int) -> float:
    """Tenhou's games-played adjustment for a player with ``games`` rated matches before this
    one: ``1 − 0.002 × games`` below 400, else 0.2."""
    return 1.0 - GAMES_STEP * games if games < SETTLED_GAMES else SETTLED_FACTOR


def places(totals: Sequence[int]) -> list[float]:
    """Each seat's place by ``totals`` (base units, higher is better): 1, 2 or 3; tied seats
    share the mean of the places they cover (``[5, 5, -10]`` → ``[1.5, 1.5, 3]``)."""
    out = []
    for total in totals:
        above = sum(1 for t in totals if t > total)
        tied = sum(1 for t in totals if t == total)
        out.append(above + (tied + 1) / 2)
    return out


def place_bonus(totals: Sequence[int]) -> list[float]:
    """Each seat's place bonus: :data:`PLACE_BONUS` of its place, tied seats sharing the mean
    of the bonuses of the places they cover (``[5, 5, -10]`` → ``[15, 15, -30]``)."""
    out = []
    for total in totals:
        above = sum(1 for t in totals if t > total)
        tied = sum(1 for t in totals if t == total)
        out.append(sum(PLACE_BONUS[above:above + tied]) / tied)
    return out


def changes(ratings: Sequence[float], games: Sequence[int],
            totals: Sequence[int]) -> list[float]:
    """The R change of each of the three seats: ``ratings`` (R before), ``games`` (rated
    matches before) and ``totals`` (the match's final totals, base units), in seat order.
    Raises ``ValueError`` unless there are three of each."""
    if not len(ratings) == len(games) == len(totals) == 3:
        raise ValueError("three ratings, games and totals")
    average = sum(ratings) / 3
    return [(bonus + (average - r) / AVERAGE_DIVISOR) * games_factor(n)
            for r, n, bonus in zip(ratings, games, place_bonus(totals))]


def unrated_reason(kinds: Sequence[str], sittings: Iterable[Mapping],
                   decisions: Mapping[int, Mapping[str, int]]) -> str | None:
    """Why a finished match is not rated, or None when it is.

    ``kinds``: each seat's kind at the start (``human``/``bot``); ``sittings``: the
    ``kwx_match_players`` rows (``seat``, ``player_id``, ``first_hand``, ``last_hand``);
    ``decisions``: seat → {who made it (``kwx_actions.by``): how many}. Reasons: ``bots`` (a
    bot seat), ``guests`` (a player without identity), ``changed`` (a player left or joined
    during the match, or one player held two seats), ``auto`` (a seat 托管-heavy: more than
    :data:`AUTO_SHARE` of its decisions were made for it)."""
    if any(kind != "human" for kind in kinds):
        return BOTS
    rows = list(sittings)
    if {r["seat"] for r in rows if r["first_hand"] == 0} != {0, 1, 2}:
        return GUESTS
    if (len(rows) != 3 or len({r["player_id"] for r in rows}) != 3
            or any(r["last_hand"] is not None for r in rows)):
        return CHANGED
    if any(made_for_seat(decisions.get(seat, {})) for seat in (0, 1, 2)):
        return AUTO
    return None


def made_for_seat(made: dict[str, int]) -> bool:
    """Whether more than :data:`AUTO_SHARE` of a seat's decisions were made for it: ``made``
    maps who made them (``kwx_actions.by``) to how many; the server's passes for a seat with
    no option (``window``, R13.2) are no decisions."""
    total = sum(n for by, n in made.items() if by != "window")
    others = sum(made.get(by, 0) for by in NOT_THE_PLAYER)
    return bool(total) and others > AUTO_SHARE * total
