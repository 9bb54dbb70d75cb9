"""The outbox of one socket (kawuxing.server.connection): messages go out in order, a client
too far behind is dropped, and a frame that does not go out in ``send_timeout`` seconds ends
the pump (the watchdog, issue 34) while a slow but moving client is kept."""

from __future__ import annotations

import asyncio
import json

from kawuxing.server.connection import WsConnection


class FakeSocket:
    """A WebSocket whose ``send_text`` takes ``delay`` seconds (None: never returns)."""

    def __init__(self, delay: float | None = 0.0) -> None:
        self.delay = delay
        self.texts: list[str] = []
        self.closed_with: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        if self.delay is None:
            await asyncio.Event().wait()
        await asyncio.sleep(self.delay)
        self.texts.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed_with = (code, reason)


def test_messages_go_out_in_order_then_the_socket_closes() -> None:
    async def main() -> FakeSocket:
        socket = FakeSocket()
        conn = WsConnection(socket, send_timeout=1.0)
        pump = asyncio.create_task(conn.pump())
        for i in range(5):
            conn.send({"n": i})
        await asyncio.sleep(0.05)
        conn.send({"n": 5})
        conn.close(4000, "bye")
        await asyncio.wait_for(pump, 2)
        assert conn.sent == 6
        return socket

    socket = asyncio.run(main())
    assert [json.loads(t)["n"] for t in socket.texts] == [0, 1, 2, 3, 4, 5]
    assert socket.closed_with == (4000, "bye")


def test_a_stuck_frame_ends_the_pump_within_one_and_a_half_timeouts() -> None:
    async def main() -> tuple[WsConnection, float]:
        conn = WsConnection(FakeSocket(delay=None), send_timeout=0.2)
        loop = asyncio.get_running_loop()
        started = loop.time()
        pump = asyncio.create_task(conn.pump())
        conn.send({"n": 0})
        await asyncio.wait_for(pump, 2)  # ends by itself: not cancelled from outside
        return conn, loop.time() - started

    conn, took = asyncio.run(main())
    assert conn.closed and conn.sent == 0
    assert 0.2 <= took <= 0.45
    conn.send({"n": 1})  # dropped once closed
    assert conn.sent == 0


def test_a_slow_client_that_keeps_up_within_the_timeout_is_kept() -> None:
    async def main() -> WsConnection:
        conn = WsConnection(FakeSocket(delay=0.1), send_timeout=0.25)
        pump = asyncio.create_task(conn.pump())
        for i in range(8):  # 0.8 s of frames in all, each within the timeout
            conn.send({"n": i})
        await asyncio.sleep(1.0)
        assert not pump.done() and conn.sent == 8
        conn.close()
        await asyncio.wait_for(pump, 2)
        return conn

    assert asyncio.run(main()).sent == 8


def test_cancelling_the_pump_from_outside_still_cancels_it() -> None:
    async def main() -> bool:
        conn = WsConnection(FakeSocket(delay=None), send_timeout=10.0)
        pump = asyncio.create_task(conn.pump())
        conn.send({"n": 0})
        await asyncio.sleep(0.05)
        pump.cancel()
        try:
            await pump
        except asyncio.CancelledError:
            return True
        return False

    assert asyncio.run(main())


def test_a_client_too_far_behind_is_closed_and_its_queue_dropped() -> None:
    async def main() -> tuple[WsConnection, FakeSocket]:
        socket = FakeSocket(delay=None)
        conn = WsConnection(socket, limit=3, send_timeout=10.0)
        for i in range(4):
            conn.send({"n": i})
        return conn, socket

    conn, socket = asyncio.run(main())
    assert conn.closed and conn.close_code[0] != 1000 and socket.texts == []


class FakeTransport:
    def __init__(self) -> None:
        self.aborted = 0

    def abort(self) -> None:
        self.aborted += 1


def _guarded(stall: float):
    """A GuardedWS protocol without a connection: what pause/resume/abort need."""
    from kawuxing.server.slowclients import guarded_ws

    made = guarded_ws(stall)
    protocol = made.__new__(made)
    protocol.writable = asyncio.Event()
    protocol.writable.set()
    protocol.transport = FakeTransport()
    return protocol


def test_a_socket_whose_writes_stay_paused_is_aborted_and_one_that_resumes_is_not() -> None:
    """uvicorn's graceful close waits for the server's buffer to empty, for ever when the peer
    never reads: ``guarded_ws`` aborts a socket whose writes stay paused ``stall`` seconds
    (issue 34); resumed in time, it is kept; 0 turns it off."""
    async def main() -> tuple[int, int, int]:
        stuck, moving, off = _guarded(0.1), _guarded(0.1), _guarded(0)
        for protocol in (stuck, moving, off):
            protocol.pause_writing()
            assert not protocol.writable.is_set()
        await asyncio.sleep(0.05)
        moving.resume_writing()
        assert moving.writable.is_set()
        await asyncio.sleep(0.15)
        moving.pause_writing()  # paused again: a new 0.1 s begins
        await asyncio.sleep(0.05)
        return stuck.transport.aborted, moving.transport.aborted, off.transport.aborted

    assert asyncio.run(main()) == (1, 0, 0)
