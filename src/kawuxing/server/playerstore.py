"""The players' part of the store (issue 16): identities and their device tokens, who sat in
which match, ratings, and what a profile and the leaderboard read. Writes go through the
store's one :class:`~.writer.Writer`; reads use pooled connections.

Tokens are kept as SHA-256 hashes only (:mod:`.tokens`); a token is found by its hash and
checked again in constant time. Nothing read here for one player (profile, leaderboard,
match players) carries a token or a hash.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from . import rating
from .errors import RoomError
from .identity import NAME_CONFUSABLE, name_key, new_player_id, skeleton
from .schema import (HAND_ENDED, MATCH_FINISHED, actions, dumps, hands, match_players, matches,
                     player_tokens, players, seats)
from .stats import bots_faced, played, versus_bots
from .tokens import hash_token, new_token, token_matches

if TYPE_CHECKING:
    from .db import Store

PUBLIC = (players.c.id, players.c.name, players.c.rating, players.c.rated_games,
          players.c.created_at)


class PlayerStore:
    """The player tables of ``store`` (``store.players``). Every method is a coroutine;
    writes raise the database's error when nothing was stored."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine
        self.writer = store.writer

    # --- identities --------------------------------------------------------------------
    async def create(self, name: str) -> tuple[str, str]:
        """A new guest player named ``name`` (already :func:`~.identity.clean_player_name`d)
        with its first device token. Returns ``(player_id, token)``. Raises
        :class:`RoomError` 409 ``name_taken`` when a player has that name (by
        :func:`~.identity.name_key`), 409 ``name_confusable`` when a player's name looks
        like it (the same :func:`~.identity.skeleton`: :meth:`lookalike`)."""
        player_id, token, now = new_player_id(), new_token(), time.time()

        async def op(conn: AsyncConnection) -> str | None:
            # in the writer's transaction: two look-alike names made at once cannot both pass
            other = await _lookalike(conn, name)
            if other is not None:
                return other
            await conn.execute(insert(players).values(
                id=player_id, name=name, name_key=name_key(name), password_hash=None,
                rating=rating.START, rated_games=0, created_at=now))
            await conn.execute(insert(player_tokens).values(
                token_hash=hash_token(token), player_id=player_id, created_at=now))
            return None
        taken = RoomError(409, "a player of this server has that name", "name_taken")
        if await self.named(name) is not None:
            raise taken
        try:
            other = await self.writer.submit(op)
        except IntegrityError:  # the same name made at the same moment
            raise taken from None
        if other is not None:
            if name_key(other) == name_key(name):
                raise taken
            raise RoomError(409, "a player of this server has a name that looks like it",
                            NAME_CONFUSABLE)
        return player_id, token

    async def add_token(self, player_id: str) -> str:
        """A new device token for ``player_id`` (after a login); the others stay good."""
        token = new_token()

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(insert(player_tokens).values(
                token_hash=hash_token(token), player_id=player_id, created_at=time.time()))
        await self.writer.submit(op)
        return token

    async def set_password(self, player_id: str, password_hash: str) -> None:
        """Keep ``password_hash`` (argon2, :func:`~.identity.hash_password`) for the player."""
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(update(players).where(players.c.id == player_id)
                               .values(password_hash=password_hash))
        await self.writer.submit(op)

    async def by_token(self, token: str | None) -> dict | None:
        """The player of a device ``token`` — ``{"id", "name", "rating", "rated_games",
        "created_at", "has_password"}`` — or None."""
        if not token or not isinstance(token, str) or len(token) > 128:
            return None
        digest = hash_token(token)
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                select(*PUBLIC, players.c.password_hash, player_tokens.c.token_hash)
                .join(player_tokens, player_tokens.c.player_id == players.c.id)
                .where(player_tokens.c.token_hash == digest))).mappings().first()
        if row is None or not token_matches(token, row["token_hash"]):
            return None
        return _public(row, has_password=row["password_hash"] is not None)

    async def lookalike(self, name: str) -> str | None:
        """The name of a player whose name looks like ``name`` (the same
        :func:`~.identity.skeleton`), or None. Reads every name: a server of friends has
        hundreds, not millions."""
        async with self.engine.connect() as conn:
            return await _lookalike(conn, name)

    async def named(self, name: str) -> dict | None:
        """The player whose name is ``name`` (by :func:`~.identity.name_key`), with its
        ``password_hash`` (for a login only), or None."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(*PUBLIC, players.c.password_hash).where(
                players.c.name_key == name_key(name)))).mappings().first()
        return None if row is None else dict(row)

    async def get(self, player_id: str) -> dict | None:
        """The public row of a player (``id``, ``name``, ``rating``, ``rated_games``,
        ``created_at``, ``has_password``), or None."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(*PUBLIC, players.c.password_hash).where(
                players.c.id == player_id))).mappings().first()
        return None if row is None else _public(row, has_password=row["password_hash"] is not None)

    async def leaderboard(self, limit: int = 50, offset: int = 0) -> list[dict]:
        """Players with at least one rated match, best R first (ties: more rated matches,
        then the older player): ``rank`` (from 1), ``player_id``, ``name``, ``rating``,
        ``rated_games``."""
        query = (select(*PUBLIC).where(players.c.rated_games > 0)
                 .order_by(players.c.rating.desc(), players.c.rated_games.desc(),
                           players.c.created_at, players.c.id).limit(limit).offset(offset))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).mappings().all()
        return [{"rank": offset + i + 1, **_public(r)} for i, r in enumerate(rows)]

    async def against_bots(self, min_hands: int = 20) -> list[dict]:
        """The boards of results against bots (issue 35): for each bot spec ``B`` that some
        player faced as both other seats (:func:`.stats.bots_faced`), ``{"bots": B,
        "players": [{"rank", "player_id", "name", "hands", "total", "per_hand"}]}`` — the
        players with at least ``min_hands`` such hands, best mean delta a hand (base units)
        first (ties: more hands) — boards by spec name; a hand its seat did not mostly play
        itself (托管, timeouts: :func:`_made_for`) does not count. Reads every sitting of a
        match with bots, the ended hands of those matches and who made their decisions."""
        with_bots = matches.c.players.like('%"kind":"bot"%')
        async with self.engine.connect() as conn:
            sittings = (await conn.execute(
                select(match_players.c.match_id, match_players.c.seat,
                       match_players.c.player_id, match_players.c.first_hand,
                       match_players.c.last_hand, matches.c.players)
                .join(matches, matches.c.id == match_players.c.match_id)
                .where(with_bots))).mappings().all()
            ended = (await conn.execute(
                select(hands.c.match_id, hands.c.number, hands.c.result)
                .join(matches, matches.c.id == hands.c.match_id)
                .where(with_bots, hands.c.status == HAND_ENDED))).mappings().all()
            by_player: dict[str, list[dict]] = {}
            for row in sittings:
                row = dict(row, players=json.loads(row["players"]))
                if bots_faced(row["players"], row["seat"]) is not None:
                    by_player.setdefault(row["player_id"], []).append(row)
            names = dict((await conn.execute(select(players.c.id, players.c.name).where(
                players.c.id.in_(list(by_player))))).all()) if by_player else {}
            made_for = await _made_for(conn, with_bots)
        by_match: dict[str, list[dict]] = {}
        for h in ended:
            by_match.setdefault(h["match_id"], []).append(dict(h, result=json.loads(h["result"])))
        boards: dict[str, list[dict]] = {}
        for pid, mine in by_player.items():
            theirs = played(mine, [h for m in {s["match_id"] for s in mine}
                                   for h in by_match.get(m, ())])
            for row in versus_bots(theirs, mine, made_for):
                if "+" not in row["bots"] and row["hands"] >= min_hands:  # a level's board
                    boards.setdefault(row["bots"], []).append(
                        {"player_id": pid, "name": names.get(pid), "hands": row["hands"],
                         "total": row["total"], "per_hand": row["per_hand"]})
        out = []
        for key in sorted(boards):
            ranked = sorted(boards[key], key=lambda r: (-r["per_hand"], -r["hands"],
                                                        r["player_id"]))
            out.append({"bots": key, "players": [dict(r, rank=i + 1)
                                                 for i, r in enumerate(ranked)]})
        return out

    # --- who sat where ------------------------------------------------------------------
    async def sat_down(self, match_id: str, seat: int, player_id: str, hand: int) -> None:
        """A player took ``seat`` of a match being played in hand ``hand``."""
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(insert(match_players).values(sitting(match_id, seat, player_id,
                                                                    hand)))
        await self.writer.submit(op)

    async def stood_up(self, match_id: str, player_id: str, hand: int) -> None:
        """The player left the match during hand ``hand`` (a bot plays the seat on)."""
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(update(match_players).where(and_(
                match_players.c.match_id == match_id, match_players.c.player_id == player_id,
                match_players.c.last_hand.is_(None))).values(last_hand=hand))
        await self.writer.submit(op)

    async def seats_in_match(self, match_id: str, token: str | None) -> list[int]:
        """The seats of ``match_id`` the holder of ``token`` played (R13: who may see a hand's
        record): the seats its player sat in (a player token) or the seat it is the token of
        (a seat token of the match's room, compared in constant time). ``[]`` for any other
        token, none, or no such match."""
        if not token or not isinstance(token, str) or len(token) > 128:
            return []
        player = await self.by_token(token)
        async with self.engine.connect() as conn:
            if player is not None:
                return sorted(set((await conn.execute(
                    select(match_players.c.seat).where(and_(
                        match_players.c.match_id == match_id,
                        match_players.c.player_id == player["player_id"])))).scalars().all()))
            rows = (await conn.execute(
                select(seats.c.seat, seats.c.token_hash)
                .join(matches, matches.c.room_code == seats.c.room_code)
                .where(matches.c.id == match_id))).all()
        return [r.seat for r in rows if token_matches(token, r.token_hash)]

    # --- rating --------------------------------------------------------------------------
    async def rate(self, match_id: str) -> dict | None:
        """Rate a finished match once (docs/ratings.md, :mod:`.rating`) and return its
        outcome, the ``rating`` of ``match_end``: ``{"rated": false, "reason"}`` or
        ``{"rated": true, "seats": [{"seat", "player_id", "name", "place", "before",
        "after", "delta"}]}``. Asked again, the stored outcome is returned. None when the
        match is not finished (or there is none)."""
        async def op(conn: AsyncConnection) -> dict | None:
            row = (await conn.execute(select(matches.c.status, matches.c.players,
                                             matches.c.totals, matches.c.rating)
                                      .where(matches.c.id == match_id))).first()
            if row is None or row.status != MATCH_FINISHED:
                return None
            if row.rating is not None:
                return json.loads(row.rating)
            # claim it first: a second process rating it at the same moment (the servers of a
            # cluster starting together, rate_pending) waits for this row and then finds it
            # rated, so no match is applied twice
            claimed = await conn.execute(update(matches).where(and_(
                matches.c.id == match_id, matches.c.rating.is_(None))).values(rating="null"))
            if claimed.rowcount != 1:
                return json.loads((await conn.execute(select(matches.c.rating).where(
                    matches.c.id == match_id))).scalar_one())
            outcome = await _rate(conn, match_id, json.loads(row.players),
                                  json.loads(row.totals))
            await conn.execute(update(matches).where(matches.c.id == match_id)
                               .values(rating=dumps(outcome)))
            return outcome
        return await self.writer.submit(op)

    async def rate_pending(self) -> int:
        """Rate every finished match that is not rated yet (the server stopped between the
        end of a match and its rating), oldest end first, so ratings are right at once after
        a restart (docs/ratings.md) — called when the server starts. Returns how many were
        rated."""
        async with self.engine.connect() as conn:
            pending = (await conn.execute(
                select(matches.c.id).where(and_(matches.c.status == MATCH_FINISHED,
                                                matches.c.rating.is_(None)))
                .order_by(matches.c.finished_at, matches.c.id))).scalars().all()
        for match_id in pending:
            await self.rate(match_id)
        return len(pending)

    # --- profiles ------------------------------------------------------------------------
    async def history(self, player_id: str) -> dict:
        """What a profile is made of, oldest first: ``sittings`` (``kwx_match_players`` rows
        with the match's ``players``, ``totals``, ``status``, ``started_at``,
        ``finished_at``), ``hands`` (every ended hand of those matches: ``match_id``,
        ``number``, ``result``, ``ended_at``) and ``declared`` (``(match_id, hand, seat)`` of
        every 亮倒 in them)."""
        mine = select(match_players.c.match_id).where(
            match_players.c.player_id == player_id).distinct().subquery()
        async with self.engine.connect() as conn:
            sittings = (await conn.execute(
                select(match_players.c.match_id, match_players.c.seat,
                       match_players.c.first_hand, match_players.c.last_hand,
                       match_players.c.place, match_players.c.rating_before,
                       match_players.c.rating_after, matches.c.players, matches.c.totals,
                       matches.c.status, matches.c.hands_planned, matches.c.started_at,
                       matches.c.finished_at)
                .join(matches, matches.c.id == match_players.c.match_id)
                .where(match_players.c.player_id == player_id)
                .order_by(matches.c.started_at, match_players.c.id))).mappings().all()
            hand_rows = (await conn.execute(
                select(hands.c.match_id, hands.c.number, hands.c.result, hands.c.ended_at)
                .join(mine, mine.c.match_id == hands.c.match_id)
                .where(hands.c.status == HAND_ENDED)
                .order_by(hands.c.ended_at, hands.c.number))).mappings().all()
            declared = (await conn.execute(
                select(actions.c.match_id, actions.c.hand_number, actions.c.seat)
                .join(mine, mine.c.match_id == actions.c.match_id)
                .where(actions.c.action.like('%"declare"%')))).all()
            made_for = await _made_for(conn, matches.c.id.in_(select(mine.c.match_id)))
        return {"sittings": [dict(s, players=json.loads(s["players"]),
                                  totals=json.loads(s["totals"])) for s in sittings],
                "hands": [dict(h, result=json.loads(h["result"])) for h in hand_rows],
                "declared": [tuple(d) for d in declared], "made_for": made_for}

    async def rank(self, player_id: str) -> int | None:
        """The player's place on the leaderboard (1 = best), None without a rated match."""
        async with self.engine.connect() as conn:
            me = (await conn.execute(select(players.c.rating, players.c.rated_games).where(
                players.c.id == player_id))).first()
            if me is None or me.rated_games == 0:
                return None
            better = (await conn.execute(select(func.count()).select_from(players).where(and_(
                players.c.rated_games > 0, players.c.rating > me.rating)))).scalar_one()
        return better + 1


async def _made_for(conn: AsyncConnection, *where) -> set[tuple[str, int, int]]:
    """``(match_id, hand number, seat)`` of every hand (of the matches ``where`` selects,
    joined with ``kwx_matches``) in which more than :data:`.rating.AUTO_SHARE` of a seat's
    decisions were made for it (timeouts, 托管, a bot in a seat its player left): hands that
    are not the player's own play (docs/ratings.md, rule 3, applied hand by hand)."""
    counts: dict[tuple[str, int, int], dict[str, int]] = {}
    for match_id, number, seat, by, n in (await conn.execute(
            select(actions.c.match_id, actions.c.hand_number, actions.c.seat, actions.c.by,
                   func.count())
            .join(matches, matches.c.id == actions.c.match_id).where(*where)
            .group_by(actions.c.match_id, actions.c.hand_number, actions.c.seat,
                      actions.c.by))).all():
        counts.setdefault((match_id, number, seat), {})[by] = n
    return {key for key, made in counts.items() if rating.made_for_seat(made)}


def sitting(match_id: str, seat: int, player_id: str, hand: int) -> dict:
    """A ``kwx_match_players`` row: ``player_id`` sits in ``seat`` from hand ``hand``."""
    return {"match_id": match_id, "seat": seat, "player_id": player_id, "first_hand": hand,
            "last_hand": None}


async def _lookalike(conn: AsyncConnection, name: str) -> str | None:
    """:meth:`PlayerStore.lookalike` on ``conn``."""
    wanted = skeleton(name)
    for (other,) in (await conn.execute(select(players.c.name))).all():
        if skeleton(other) == wanted:
            return other
    return None


def _public(row: Any, **extra: Any) -> dict:
    return {"player_id": row["id"], "name": row["name"], "rating": row["rating"],
            "rated_games": row["rated_games"], "created_at": row["created_at"], **extra}


async def _rate(conn: AsyncConnection, match_id: str, started: list[dict],
                totals: list[int]) -> dict:
    """The rating of a finished match, applied (in the writer's transaction)."""
    rows = [dict(r) for r in (await conn.execute(
        select(match_players).where(match_players.c.match_id == match_id)
        .order_by(match_players.c.seat))).mappings().all()]
    decisions: dict[int, dict[str, int]] = {}
    for seat, by, count in (await conn.execute(
            select(actions.c.seat, actions.c.by, func.count())
            .where(actions.c.match_id == match_id)
            .group_by(actions.c.seat, actions.c.by))).all():
        decisions.setdefault(seat, {})[by] = count
    reason = rating.unrated_reason([p["kind"] for p in sorted(started, key=lambda p: p["seat"])],
                                   rows, decisions)
    if reason is not None:
        return {"rated": False, "reason": reason}
    ids = [r["player_id"] for r in rows]
    found = {p.id: p for p in (await conn.execute(
        select(players.c.id, players.c.name, players.c.rating, players.c.rated_games)
        .where(players.c.id.in_(ids)))).all()}
    before = [found[i].rating for i in ids]
    deltas = rating.changes(before, [found[i].rated_games for i in ids], totals)
    placed = rating.places(totals)
    seats = []
    for row, r0, delta, place in zip(rows, before, deltas, placed):
        after = r0 + delta
        await conn.execute(update(players).where(players.c.id == row["player_id"]).values(
            rating=after, rated_games=players.c.rated_games + 1))
        await conn.execute(update(match_players).where(match_players.c.id == row["id"]).values(
            place=place, rating_before=r0, rating_after=after))
        seats.append({"seat": row["seat"], "player_id": row["player_id"],
                      "name": found[row["player_id"]].name, "place": place,
                      "before": r0, "after": after, "delta": delta})
    return {"rated": True, "seats": seats}
