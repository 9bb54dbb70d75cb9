"""A socket that stops reading does not hold up its room (issue 34, docs/protocol.md "SEND_QUEUE").

Against a real ``kawuxing serve`` process on 127.0.0.1: a room of three human seats where two
scripted clients play, the third seat's client sends its hello and never reads its socket
again, and a spectator reads slowly but keeps up. The third client asks for the full state
(``sync``) many times a second, so the server's socket buffers fill within seconds (at the
pace of play alone the kernel's send buffer on loopback holds minutes of messages) and its
outbox falls ``SEND_QUEUE`` behind. The players keep getting their updates at the pace of
play, the server stays healthy, the silent seat is dropped (``messages behind``) and shown
disconnected, the slow spectator is kept, and the server's log has no traceback.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from websockets.asyncio.client import connect

from kawuxing.server.testing import choose, free_port, needs_answer

pytestmark = pytest.mark.slow

PLAY_SECONDS = 20.0  # how long the two players are watched after the silent hello
MAX_GAP = 2.5  # seconds a player may wait for a message (decision 1 s, hand pause 1 s)


def http(method: str, url: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(url, None if body is None else json.dumps(body).encode(),
                                     method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


class RawSocket:
    """A WebSocket client on a plain socket: nothing is read unless asked (``recv_frame``)."""

    def __init__(self, port: int, path: str, rcvbuf: int | None = None) -> None:
        sock = socket.socket()
        if rcvbuf:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                      "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while not head.endswith(b"\r\n\r\n"):  # byte by byte: no frame is read with it
            byte = sock.recv(1)
            assert byte, "closed during the handshake"
            head += byte
        assert head.startswith(b"HTTP/1.1 101"), head
        self.sock = sock
        self.lock = threading.Lock()

    def send_frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        size = len(payload)
        head = bytes([0x80 | opcode]) + (bytes([0x80 | size]) if size < 126 else
                                         bytes([0x80 | 126]) + struct.pack("!H", size))
        with self.lock:
            self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send_json(self, message: dict) -> None:
        self.send_frame(0x1, json.dumps(message).encode())

    def _exact(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                raise EOFError("the server closed the socket")
            data += chunk
        return data

    def recv_frame(self) -> tuple[int, bytes]:
        """The next frame, ``(opcode, payload)``; a ping is answered."""
        first, second = self._exact(2)
        size = second & 0x7F
        if size == 126:
            size = struct.unpack("!H", self._exact(2))[0]
        elif size == 127:
            size = struct.unpack("!Q", self._exact(8))[0]
        payload = self._exact(size)
        if first & 0x0F == 0x9:
            self.send_frame(0xA, payload)
        return first & 0x0F, payload

    def close(self) -> None:
        self.sock.close()


async def player(url: str, token: str, times: list[float], stop: asyncio.Event,
                 rng: random.Random) -> None:
    """A seat that plays legal moves after 0.05-0.3 s; ``times``: when each message came."""
    async with connect(url, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        view = version = None
        acting: asyncio.Task | None = None
        count = 0

        async def act(my_view: dict, my_version: int) -> None:
            nonlocal count
            await asyncio.sleep(rng.uniform(0.05, 0.3))
            count += 1
            await ws.send(json.dumps({"type": "action", "id": f"a{count}",
                                      "version": my_version, "action": choose(my_view, rng)}))

        while not stop.is_set():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except asyncio.TimeoutError:
                continue
            times.append(time.monotonic())
            if message["type"] in ("update", "sync"):
                view, version = message["view"], message["version"]
            if needs_answer(view) and (acting is None or acting.done()):
                acting = asyncio.create_task(act(view, version))
        if acting is not None:
            acting.cancel()


def test_a_socket_that_stops_reading_is_dropped_and_holds_up_nobody(tmp_path):
    try:
        with open("/proc/sys/net/ipv4/tcp_wmem") as sysctl:
            most = int(sysctl.read().split()[2])
    except OSError:
        most = 4 * 2**20
    if most > 8 * 2**20:  # the silent seat's syncs would fill them too slowly for this test
        pytest.skip(f"send buffers of up to {most} bytes take too long to fill here")
    port = free_port()
    env = dict(os.environ, KAWUXING_MIN_DECISION_SECONDS="1", KAWUXING_DECISION_SECONDS="1",
               KAWUXING_RESERVE_SECONDS="0", KAWUXING_AUTO_AFTER="1", KAWUXING_DROP_GRACE="1",
               KAWUXING_HAND_PAUSE="1", KAWUXING_BOT_DELAY="0.2", KAWUXING_CLAIM_WINDOW="0.3",
               KAWUXING_SEND_QUEUE="64", KAWUXING_RATE="1000", KAWUXING_BURST="1000")
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "kawuxing.cli", "serve", "--port", str(port), "--db",
             f"sqlite:///{tmp_path / 'unread.db'}"], env=env, stdout=log,
            stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    sockets: list[RawSocket] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                http("GET", f"{base}/api/health")
                break
            except OSError:
                assert server.poll() is None, log_path.read_text()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        made = http("POST", f"{base}/api/rooms", {"nickname": "ann", "hands": 64,
                                                  "seats": ["human"] * 3,
                                                  "decision_seconds": 1, "reserve_seconds": 0})
        code = made["code"]
        tokens = [made["token"]] + [
            http("POST", f"{base}/api/rooms/{code}/join", {"nickname": name})["token"]
            for name in ("bob", "cat")]

        times: list[list[float]] = [[], []]
        spectator_frames: list[float] = []
        spectator_end: list[str] = []
        asked = [0]
        halt = threading.Event()
        health: list[tuple[float, bool]] = []
        shown: list[tuple[float, list]] = []

        def silent(raw: RawSocket) -> None:
            """Ask for the full state 300 times a second; never read."""
            raw.sock.settimeout(1.0)
            while not halt.is_set():
                try:
                    raw.send_json({"type": "sync"})
                except OSError:  # the server stopped reading this socket
                    return
                asked[0] += 1
                time.sleep(1 / 300)

        def spectator(raw: RawSocket) -> None:
            """Read a frame every 0.1 s (faster than play sends them)."""
            raw.sock.settimeout(5.0)
            while not halt.is_set():
                try:
                    opcode, payload = raw.recv_frame()
                except (OSError, EOFError) as exc:
                    spectator_end.append(repr(exc))
                    return
                if opcode == 0x8:
                    spectator_end.append(f"close frame {payload[:2].hex()}")
                    return
                spectator_frames.append(time.monotonic())
                time.sleep(0.1)

        async def main() -> float:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(player(f"ws://127.0.0.1:{port}/ws/{code}", tokens[i],
                                                times[i], stop, random.Random(i)))
                     for i in range(2)]
            watcher = RawSocket(port, f"/ws/{code}")
            sockets.append(watcher)
            watcher.send_json({"type": "watch"})
            threading.Thread(target=spectator, args=(watcher,), daemon=True).start()
            mute = RawSocket(port, f"/ws/{code}", rcvbuf=4096)
            sockets.append(mute)
            mute.send_json({"type": "hello", "token": tokens[2]})
            began = time.monotonic()
            threading.Thread(target=silent, args=(mute,), daemon=True).start()
            while time.monotonic() - began < PLAY_SECONDS:
                await asyncio.sleep(1.0)
                try:
                    ok = (await asyncio.to_thread(http, "GET", f"{base}/api/health"))["ok"]
                except OSError:
                    ok = False
                health.append((time.monotonic() - began, ok))
                room = await asyncio.to_thread(http, "GET", f"{base}/api/rooms/{code}")
                shown.append((time.monotonic() - began,
                              [seat["connected"] for seat in room["seats"]]))
            stop.set()
            halt.set()
            await asyncio.gather(*tasks)
            return began

        began = asyncio.run(main())
        ended = began + PLAY_SECONDS
        for i, got in enumerate(times):
            marks = [began] + [t for t in got if t >= began] + [ended]
            gaps = [b - a for a, b in zip(marks, marks[1:])]
            assert max(gaps) < MAX_GAP, (i, max(gaps))
            assert len(marks) - 2 >= 30, (i, len(marks) - 2)  # play went on (about 4 a s)
        assert all(ok for _, ok in health), health
        # the silent seat is dropped and shown disconnected; the others stay connected
        dropped = [t for t, connected in shown if connected[2] is False]
        assert dropped and dropped[0] < PLAY_SECONDS - 3, (asked[0], shown)
        assert all(connected[2] is False for t, connected in shown if t >= dropped[0])
        assert all(connected[:2] == [True, True] for _, connected in shown)
        # the slow spectator is kept and keeps getting messages
        assert not spectator_end, spectator_end
        assert spectator_frames and spectator_frames[-1] > ended - 3
        server.terminate()
        server.wait(30)
    finally:
        for raw in sockets:
            raw.close()
        if server.poll() is None:
            server.kill()
            server.wait(10)
    text = log_path.read_text()
    assert "messages behind, disconnecting" in text, text
    assert "Traceback" not in text, text
