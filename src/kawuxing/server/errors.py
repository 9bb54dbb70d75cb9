"""The one error a room, its seats and the room manager raise for a request they refuse."""

from __future__ import annotations


class RoomError(Exception):
    """A request the room refuses: ``status`` (an HTTP status: 403 not a seat, 409 taken or
    not now, 422 bad input, 503 not stored) and ``message`` (English, for the client)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
