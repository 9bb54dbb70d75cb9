"""The one error a room, its seats and the room manager raise for a request they refuse, and
the codes of HTTP errors: every HTTP error body is ``{"detail": {"code", "message"}}``
(docs/protocol.md "Errors")."""

from __future__ import annotations

# a code for a status when the raiser names none (e.g. Starlette's own 404 and 405)
STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed", 409: "conflict", 413: "too_large",
                415: "unsupported_media_type", 422: "invalid", 429: "rate_limited",
                500: "internal", 503: "unavailable"}


def status_code_name(status: int) -> str:
    """The default ``code`` of an HTTP ``status`` (``http_<status>`` for one not listed)."""
    return STATUS_CODES.get(status, f"http_{status}")


class RoomError(Exception):
    """A request the room refuses: ``status`` (an HTTP status: 403 not a seat, 409 taken or
    not now, 422 bad input, 503 not stored), ``message`` (English, for the client) and
    ``code`` (machine-readable, e.g. ``room_full``; default from the status)."""

    def __init__(self, status: int, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code or status_code_name(status)

    def detail(self) -> dict:
        """The ``detail`` of the HTTP error body: ``{"code", "message"}``."""
        return {"code": self.code, "message": self.message}


class RoomMoved(RoomError):
    """The room object asked has stopped serving (its process handed it over or is
    shutting down, issue 17): 503 ``owner_unavailable``; a socket is closed with 1012 so that
    its client reconnects (to wherever the room is served now)."""

    def __init__(self, code: str) -> None:
        super().__init__(503, f"room {code} is no longer served by this process (it moved, "
                              "or the server is stopping); try again in a few seconds",
                         "owner_unavailable")


def redis_errors() -> tuple[type[BaseException], ...]:
    """The Redis client's error class (a cluster's Redis that does not answer, issue 17), or
    () when the client is not installed (a single process never meets it)."""
    try:
        from redis.exceptions import RedisError
    except ImportError:
        return ()
    return (RedisError,)


CLUSTER_UNAVAILABLE = "cluster_unavailable"  # 503: the cluster's Redis does not answer
