"""Room ownership leases in Redis (issue 17): each room is owned by one process at a time.

The lease of room ``CODE`` is the key ``kwx:lease:CODE`` holding the owner's incarnation id
(:attr:`kawuxing.server.cluster.node.ClusterNode.me`, ``node#boot``: a process restarted with
the same node id is a new owner) with a time to live (``ttl_ms``; a server uses 5 s, :data:`.node.LEASE_MS`). It is taken
with ``SET NX PX`` semantics (a Lua script: free, or already ours), renewed by its owner
every half second (only while it is still the owner's: ``PEXPIRE`` if the value is ours), and
released on a clean stop. Every room that is being played is a member of the set
``kwx:rooms`` until it finishes or expires, so that a live process can find the rooms whose
owner died (their lease expired) and take them over (:mod:`.takeover`).

Locally the owner keeps, per room, a deadline (monotonic seconds) until which it may act:
the time just *before* its last successful renewal was sent plus ``ttl_ms`` minus
``margin_ms``. The key on the Redis server lives at least ``ttl_ms`` after that renewal
arrived, so the local deadline passes strictly before another process can take the room:
a process that was paused, or cut off from Redis, stops acting for its rooms before anyone
else starts (:meth:`Leases.valid`, checked before every write of a room).

A server renews from a thread of its own (:mod:`.keeper`, :meth:`Leases.renew_sync`), so a
busy event loop does not lose its leases; ``held`` is changed under ``lock`` by both.
"""

from __future__ import annotations

import threading
import time
from typing import Iterable

ROOMS_KEY = "kwx:rooms"
LEASE_PREFIX = "kwx:lease:"

# KEYS: leases; ARGV: me, ttl (ms), then the codes (SADD to the rooms set). Returns 1/0 each.
_CLAIM = """
local won = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('GET', key)
  if v == false or v == ARGV[1] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    redis.call('SADD', 'kwx:rooms', ARGV[i + 2])
    won[i] = 1
  else
    won[i] = 0
  end
end
return won
"""
# KEYS: leases; ARGV: me, ttl. Returns 1 (renewed) / 0 (lost) each.
RENEW_SCRIPT = _RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    kept[i] = 1
  else
    kept[i] = 0
  end
end
return kept
"""
# KEYS: the lease; ARGV: me, the code, forget (1: the room is over, leave the rooms set).
_RELEASE = """
if ARGV[3] == '1' then redis.call('SREM', 'kwx:rooms', ARGV[2]) end
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def lease_key(code: str) -> str:
    """The Redis key of room ``code``'s lease."""
    return LEASE_PREFIX + code


class Leases:
    """The leases this process holds. ``redis``: a ``redis.asyncio.Redis`` (decoded
    responses; ``reader``: another one for look-ups, default the same); ``me``: this
    process's incarnation id; ``ttl_ms``: lease time to live;
    ``margin_ms``: how much sooner than the key's expiry this process stops acting
    (module doc). ``held``: code -> local deadline (``time.monotonic()`` seconds)."""

    def __init__(self, redis, me: str, ttl_ms: int = 3000, margin_ms: int = 1000,
                 reader=None) -> None:
        if not 0 < margin_ms < ttl_ms:
            raise ValueError("leases: 0 < margin_ms < ttl_ms")
        self.redis, self.me, self.ttl_ms, self.margin_ms = redis, me, ttl_ms, margin_ms
        self.reader = reader or redis  # for the look-ups (:meth:`owners`, :meth:`rooms`)
        self.held: dict[str, float] = {}
        self.lock = threading.Lock()  # held is changed by the event loop and the keeper
        self._claim = redis.register_script(_CLAIM)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def _deadline(self, sent: float) -> float:
        return sent + (self.ttl_ms - self.margin_ms) / 1000

    def valid(self, code: str) -> bool:
        """Whether this process may still act for room ``code`` now (it holds the lease and
        the local deadline has not passed)."""
        deadline = self.held.get(code)
        return deadline is not None and time.monotonic() < deadline

    async def claim(self, codes: Iterable[str]) -> list[str]:
        """Take the leases of ``codes`` that are free (or already ours), in one round trip;
        each won room joins the rooms set. Returns the codes won."""
        codes = list(codes)
        if not codes:
            return []
        sent = time.monotonic()
        won = await self._claim(keys=[lease_key(c) for c in codes],
                                args=[self.me, self.ttl_ms, *codes])
        out = [c for c, w in zip(codes, won) if int(w)]
        with self.lock:
            for code in out:
                self.held[code] = self._deadline(sent)
        return out

    async def renew(self) -> list[str]:
        """Renew every held lease (one round trip). Returns the codes lost (another process
        holds them, or they expired): they are forgotten here and the caller must stop
        acting for those rooms."""
        codes = list(self.held)
        if not codes:
            return []
        sent = time.monotonic()
        kept = await self._renew(keys=[lease_key(c) for c in codes], args=[self.me, self.ttl_ms])
        return self._renewed(codes, kept, sent)

    def renew_sync(self, client, script=None) -> list[str]:
        """:meth:`renew` through ``client``, a synchronous ``redis.Redis`` (the keeper's
        thread); ``script``: ``client.register_script(RENEW_SCRIPT)``, made once by the
        caller. Returns the codes lost."""
        codes = list(self.held)
        if not codes:
            return []
        sent = time.monotonic()
        script = script or client.register_script(_RENEW)
        kept = script(keys=[lease_key(c) for c in codes], args=[self.me, self.ttl_ms])
        return self._renewed(codes, kept, sent)

    def _renewed(self, codes: list[str], kept: list, sent: float) -> list[str]:
        lost = []
        with self.lock:
            for code, k in zip(codes, kept):
                if code not in self.held:  # released meanwhile
                    continue
                if int(k):
                    self.held[code] = self._deadline(sent)
                else:
                    lost.append(code)
                    self.held.pop(code, None)
        return lost

    def forget(self, code: str) -> None:
        """Stop holding room ``code`` here (its lease expires in Redis by itself)."""
        with self.lock:
            self.held.pop(code, None)

    async def release(self, code: str, forget: bool = False) -> None:
        """Give up room ``code``'s lease (if still ours); ``forget``: the room is over
        (finished, expired), so it also leaves the rooms set and is never taken over."""
        self.forget(code)
        await self._release(keys=[lease_key(code)], args=[self.me, code, "1" if forget else "0"])

    async def owners(self, codes: list[str]) -> list[str | None]:
        """The incarnation id owning each of ``codes`` (None: nobody)."""
        if not codes:
            return []
        return await self.reader.mget([lease_key(c) for c in codes])

    async def rooms(self) -> set[str]:
        """Every room being played somewhere in the cluster (the rooms set)."""
        return set(await self.reader.smembers(ROOMS_KEY))
