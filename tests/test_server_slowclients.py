"""Issue 34: slow clients cannot lock a server out (a request deadline, open HTTP connections
capped per client), forwarded headers are believed only from configured proxies, and per-IP
limits count an IPv6 client by its /64."""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from kawuxing.server.config import ServerConfig
from kawuxing.server.guard import client_key
from kawuxing.server.testing import ServerThread, free_port


def lookups(url: str, forwarded: list[str]) -> list[int]:
    """``GET /api/rooms/NOPEnn`` once per ``X-Forwarded-For`` value; the statuses."""
    statuses = []
    for i, address in enumerate(forwarded):
        request = urllib.request.Request(f"{url}/api/rooms/NOPE{i:02d}",
                                         headers={"x-forwarded-for": address})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                statuses.append(response.status)
        except urllib.error.HTTPError as err:
            statuses.append(err.code)
    return statuses


def config_for(tmp_path, **overrides) -> ServerConfig:
    values = dict(db_url=f"sqlite+aiosqlite:///{tmp_path / 's.db'}", lookup_rate=0.01,
                  lookup_burst=3)
    values.update(overrides)
    return ServerConfig(**values)


def test_client_key_counts_ipv6_by_its_64_and_ipv4_as_is():
    assert client_key("203.0.113.7") == "203.0.113.7"
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:ffff::9") == \
        "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") == "2001:db8:1:3::/64"
    assert client_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert client_key("?") == "?"


def test_a_spoofed_forwarded_header_changes_no_limit_unless_its_proxy_is_trusted(tmp_path):
    spoofed = [f"198.51.100.{i}" for i in range(6)]
    with ServerThread(config_for(tmp_path)) as srv:  # default: no proxy is trusted
        assert lookups(srv.url, spoofed) == [404, 404, 404, 429, 429, 429]
    with ServerThread(config_for(tmp_path, trusted_proxies=("127.0.0.1",))) as srv:
        assert lookups(srv.url, spoofed) == [404] * 6  # six clients behind the proxy
        # one IPv6 subscriber's /64 is one client; the next /64 is another
        same64 = [f"2001:db8:0:7::{i + 1}" for i in range(4)]
        assert lookups(srv.url, same64 + ["2001:db8:0:8::1"]) == [404, 404, 404, 429, 404]


def half_sent(port: int, source: str, count: int) -> list[socket.socket]:
    """``count`` connections from ``source`` that each send a request head without its end."""
    held = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((source, 0))
        sock.settimeout(10)
        try:
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
        except OSError:
            sock.close()
            continue
        held.append(sock)
    return held


def one_response(sock: socket.socket) -> bytes:
    """One whole HTTP response read from ``sock`` (head and ``Content-Length`` body, which
    may arrive in several segments)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += sock.recv(4096)
    return head + b"\r\n\r\n" + body


def answer_of(sock: socket.socket, timeout: float) -> bytes:
    """What the server sent before closing ``sock`` (b"" if it closed without a word);
    ``None`` while it stays open past ``timeout``."""
    sock.settimeout(timeout)
    data = b""
    try:
        while True:
            more = sock.recv(4096)
            if not more:
                return data
            data += more
    except socket.timeout:
        return None
    except OSError:
        return data


def test_half_sent_requests_from_one_address_lock_nobody_out(tmp_path):
    """The server may open 200 files; one address (127.0.0.2) holds 300 half-sent requests.
    Another client is served at once; the address's connections over its cap of 32 are
    answered 503 ``too_many_connections``; the 32 it keeps are closed by the 2 s deadline."""
    port = free_port()
    env = dict(os.environ, KAWUXING_REQUEST_DEADLINE="2", KAWUXING_MAX_HTTP_PER_IP="32")

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200))

    server = subprocess.Popen(
        [sys.executable, "-m", "kawuxing.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{tmp_path / 'slow.db'}"], env=env, preexec_fn=few_files,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    held: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5):
                    break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        held = half_sent(port, "127.0.0.2", 300)
        assert len(held) == 300  # the kernel accepted them all
        started = time.monotonic()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as r:
            assert r.status == 200 and json.loads(r.read())["ok"] is True
        assert time.monotonic() - started < 2  # at once, not after the deadline
        answers = [answer_of(s, 6) for s in held]
        refused = [a for a in answers if a and a.startswith(b"HTTP/1.1 503")]
        assert len(refused) == 300 - 32
        assert all(b'"code": "too_many_connections"' in a for a in refused)
        assert answers.count(b"") == 32  # the deadline closed the ones it kept, unanswered
    finally:
        for sock in held:
            sock.close()
        server.terminate()
        server.wait(30)


@pytest.mark.parametrize("body", [b"", b'{"nickname": "a'])
def test_a_body_or_head_that_stops_arriving_is_closed_at_the_deadline(tmp_path, body):
    with ServerThread(config_for(tmp_path, request_deadline=1.0)) as srv:
        sock = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
        head = b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        sock.sendall(head + (b"Content-Length: 100\r\n\r\n" + body if body else b""))
        started = time.monotonic()
        assert answer_of(sock, 5) == b""
        assert 0.8 < time.monotonic() - started < 3
        sock.close()
        # a whole request on a kept-alive connection is answered, then the next half is closed
        sock = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert one_response(sock).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 1")
        assert answer_of(sock, 5) == b""
        sock.close()


def test_a_trusted_proxys_connections_are_not_capped(tmp_path):
    for trusted, refused in (((), 3), (("127.0.0.1",), 0)):
        config = config_for(tmp_path, max_http_per_ip=2, trusted_proxies=trusted)
        with ServerThread(config) as srv:
            held = half_sent(srv.port, "127.0.0.1", 5)
            answers = [answer_of(s, 0.5) for s in held]
            assert sum(1 for a in answers if a and b"too_many_connections" in a) == refused
            for sock in held:
                sock.close()


def test_serve_refuses_a_trusted_proxy_that_is_no_address(tmp_path):
    done = subprocess.run([sys.executable, "-m", "kawuxing.cli", "serve", "--port",
                           str(free_port()), "--trusted-proxy", "proxy.example.org"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == ("error: --trusted-proxy 'proxy.example.org': an IP "
                                   "address or network, e.g. 127.0.0.1 or 10.0.0.0/8")


def test_the_patterns_page_is_a_limited_look_up_worked_out_once_per_rule_set(tmp_path):
    from kawuxing.server.api import patterns_of
    from kawuxing.server.testing import http

    patterns_of.cache_clear()
    with ServerThread(config_for(tmp_path)) as srv:
        answers = [http("POST", f"{srv.url}/api/rules/patterns", {"rules": {"preset": p}})
                   for p in ("xiaogan", "xiaogan", "capped", "xiaogan")]
    assert [status for status, _ in answers] == [200, 200, 200, 429]
    assert answers[0][1] == answers[1][1] and answers[0][1] != answers[2][1]
    assert answers[3][1]["detail"]["code"] == "rate_limited"
    info = patterns_of.cache_info()
    assert (info.misses, info.hits) == (2, 1)
