"""What the HTTP API does to a room in memory, as functions of the room and JSON-ready
arguments, so that the process owning the room runs the same code whether the request came
to it or was forwarded by another process of a cluster (issue 17, :mod:`.cluster.node`).

Each returns the JSON body of the route's answer, or raises :class:`RoomError`.
"""

from __future__ import annotations


async def info(room) -> dict:
    """``GET /api/rooms/{code}``: :meth:`Room.public_info`."""
    return room.public_info()


async def join(room, nickname: str, seat: int | None = None, entropy: str | None = None,
               commitment: str | None = None, player_id: str | None = None) -> dict:
    """``POST /api/rooms/{code}/join``: ``{"code", "seat", "token", "entropy"}``
    (:meth:`Room.join`; ``entropy`` true when the given entropy counts, R3.1)."""
    seat, token = await room.post(room.join, nickname, seat, entropy, commitment, player_id)
    counted = entropy is not None and room.entropy_counted(seat, commitment) == entropy
    return {"code": room.code, "seat": seat, "token": token, "entropy": counted}


async def leave(room, token: str) -> dict:
    """``POST /api/rooms/{code}/leave``: ``{"ok": true, "seat"}`` (:meth:`Room.leave`)."""
    return {"ok": True, "seat": await room.post(room.leave, token)}


async def seat_to_bot(room, token: str, seat: int, bot: str | None = None) -> dict:
    """``POST /api/rooms/{code}/seats/{seat}/bot``: ``{"ok": true, "seat", "done"}``
    (:meth:`Room.seat_to_bot`)."""
    done = await room.post(room.seat_to_bot, token, seat, bot)
    return {"ok": True, "seat": seat, "done": done}


async def rematch_plan(room, token: str) -> dict:
    """``POST /api/rooms/{code}/rematch``, first step: ``{"seat", "code"}`` when the rematch
    is made already, else ``{"seat", "plan"}``: the ``POST /api/rooms`` body of it
    (:meth:`Room.rematch_plan`)."""
    return await room.post(room.rematch_plan, token)


async def set_rematch(room, token: str, new_code: str) -> dict:
    """``POST /api/rooms/{code}/rematch``, last step: ``{"code"}``, the rematch's room (the
    first one made, if two players asked at once; :meth:`Room.set_rematch`)."""
    return {"code": await room.post(room.set_rematch, token, new_code)}


ROOM_OPS = {"info": info, "join": join, "leave": leave, "seat_to_bot": seat_to_bot,
            "rematch_plan": rematch_plan, "set_rematch": set_rematch}
