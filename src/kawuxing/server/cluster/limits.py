"""The limits of every process together (issue 17): token buckets in Redis, so that a client
whose requests a load balancer spreads over N processes gets the configured rate, not N times
it — the HTTP rate limits per client IP and kind (:class:`SharedBuckets`, the interface of
:class:`~kawuxing.server.ratelimit.IpBuckets` as coroutines), the failed sign-ins per name
of issue 16 (:class:`SharedLoginFailures`, that of
:class:`~kawuxing.server.identity.LoginFailures`) and the open WebSockets per client IP
(:class:`SharedSocketCount`, that of :class:`~kawuxing.server.ratelimit.SocketCount`).

The bucket arithmetic runs in one Lua script on the Redis server (atomic, with Redis's clock,
so the processes' clocks need not agree): ``rate`` tokens a second, at most ``burst`` saved, a
key per bucket that expires once the bucket would be full again. When Redis cannot be reached
the process's own bucket answers (the limit per process, as without a cluster), logged as
:mod:`.complaints` does (once, then every 30 s, and when it works again).
"""

from __future__ import annotations

import logging

from ..identity import LoginFailures, name_key
from ..ratelimit import IpBuckets, SocketCount
from .complaints import Complaints

log = logging.getLogger("kawuxing.server.cluster")
COMPLAINTS = Complaints(log)  # Redis away: one warning, then one every 30 s
SOCKETS = "counting sockets (per process meanwhile)"

PREFIX = "kwx:rate:"

# KEYS[1] the bucket; ARGV rate (tokens/s), burst, mode -> the seconds until a token ("0": one
# is there). Mode "take": spend one if there is one; "peek": change nothing; "spend": spend
# one whatever (at least 0 left).
BUCKET_SCRIPT = """
local rate, burst, mode = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(saved[1]) or burst
local at = tonumber(saved[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens < 1 then wait = (1 - tokens) / rate end
if mode == 'peek' then return tostring(wait) end
if mode == 'spend' then tokens = math.max(0, tokens - 1)
elseif tokens >= 1 then tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return tostring(wait)
"""


class _Buckets:
    """Buckets of ``rate`` tokens a second, ``burst`` saved, under ``PREFIX + kind + ":"``
    in Redis; :meth:`_call` answers None when Redis fails (the caller falls back)."""

    def __init__(self, kind: str, rate: float, burst: float, redis) -> None:
        self.kind, self.rate, self.burst = kind, rate, burst
        self._script = redis.register_script(BUCKET_SCRIPT)

    async def _call(self, key: str, mode: str) -> float | None:
        try:
            wait = float(await self._script(keys=[f"{PREFIX}{self.kind}:{key}"],
                                            args=[self.rate, self.burst, mode]))
        except Exception as exc:  # Redis away: limited per process meanwhile
            COMPLAINTS.failed(f"the {self.kind} limits (per process meanwhile)", exc)
            return None
        COMPLAINTS.worked(f"the {self.kind} limits (per process meanwhile)")
        return wait


class SharedBuckets(_Buckets):
    """The cluster's token buckets of one ``kind`` (``create``, ``join``, ``lookup``,
    ``login``) per client IP, with the rate and burst of ``local`` (an :class:`IpBuckets`,
    also the fallback while Redis is away). ``redis``: an asyncio Redis client."""

    def __init__(self, kind: str, local: IpBuckets, redis) -> None:
        super().__init__(kind, local.rate, local.burst, redis)
        self.local = local

    @property
    def enabled(self) -> bool:
        """False when the rate is 0: :meth:`take` always allows."""
        return self.local.enabled

    async def take(self, ip: str) -> float:
        """Spend one token of ``ip`` in the cluster's bucket: 0.0 if there was one, else the
        seconds until one (nothing spent). The process's own bucket when Redis fails."""
        if not self.enabled:
            return 0.0
        wait = await self._call(ip, "take")
        return self.local.take(ip) if wait is None else wait


class SharedLoginFailures(_Buckets):
    """Failed sign-ins per name (:func:`~kawuxing.server.identity.name_key`) counted by every
    process together, with the burst and pace of ``local`` (a
    :class:`~kawuxing.server.identity.LoginFailures`, also the fallback while Redis is
    away): ``burst`` failures, then one more every ``every`` seconds."""

    def __init__(self, local: LoginFailures, redis) -> None:
        super().__init__("name", 1.0 / local.every, local.burst, redis)
        self.local = local

    async def wait(self, name: str) -> float:
        """Seconds until ``name`` may be tried again (0.0: now)."""
        wait = await self._call(name_key(name), "peek")
        return self.local.wait(name) if wait is None else wait

    async def failed(self, name: str) -> None:
        """One more failed sign-in to ``name``."""
        if await self._call(name_key(name), "spend") is None:
            self.local.failed(name)


SOCKETS_PREFIX = "kwx:sockets:"
SOCKETS_TTL_MS = 10_000  # written again by every heartbeat (sync); a dead process's counts go

# KEYS[1] this process's counts, KEYS[2..] the other live processes'; ARGV ip, limit, ttl ->
# 1 (counted here) or 0 (the cluster holds ``limit`` sockets of ip already)
ACQUIRE_SCRIPT = """
local total = 0
for _, key in ipairs(KEYS) do total = total + (tonumber(redis.call('HGET', key, ARGV[1])) or 0) end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""


class SharedSocketCount:
    """Open WebSockets per client IP over every live process, capped at ``local.limit`` (0: no
    cap). This process's own count (``counted``: ip -> sockets) is the truth; Redis holds a
    copy (the hash ``kwx:sockets:<me>``), written whole by :meth:`sync` after every heartbeat
    (:attr:`ClusterNode.on_beat <.node.ClusterNode.on_beat>`) and raised by :meth:`acquire`,
    which counts the copies of the processes ``live()`` names (their ``me``) before letting
    one more in. A dead process's copy is not read and expires after
    :data:`SOCKETS_TTL_MS`; a copy that drifted (a release that did not reach Redis) is
    right again at the next heartbeat. While Redis fails, ``local`` (a
    :class:`SocketCount`) counts alone."""

    def __init__(self, local: SocketCount, redis, me: str, live) -> None:
        self.local, self.redis, self.me, self.live = local, redis, me, live
        self.limit = local.limit
        self.counted: dict[str, int] = {}
        self._acquire = redis.register_script(ACQUIRE_SCRIPT)

    def _count(self, ip: str, change: int) -> None:
        left = self.counted.get(ip, 0) + change
        if left > 0:
            self.counted[ip] = left
        else:
            self.counted.pop(ip, None)

    async def acquire(self, ip: str) -> bool:
        """Count one more socket of ``ip``; False (nothing counted) when the cluster has
        ``limit`` of them open."""
        if self.limit <= 0:
            return True
        keys = [SOCKETS_PREFIX + self.me] + [SOCKETS_PREFIX + m for m in self.live()
                                             if m != self.me]
        self._count(ip, +1)  # before the round trip: a sync meanwhile writes it
        try:
            ok = int(await self._acquire(keys=keys, args=[ip, self.limit, SOCKETS_TTL_MS]))
        except Exception as exc:
            self._count(ip, -1)
            COMPLAINTS.failed(SOCKETS, exc)
            return self.local.acquire(ip)
        COMPLAINTS.worked(SOCKETS)
        if not ok:
            self._count(ip, -1)
        return bool(ok)

    def release(self, ip: str) -> None:
        """A socket of ``ip`` that :meth:`acquire` let in closed (Redis learns it at the next
        :meth:`sync`)."""
        if self.limit <= 0:
            return
        if self.counted.get(ip):
            self._count(ip, -1)
        else:  # let in by the local count while Redis failed
            self.local.release(ip)

    async def sync(self) -> None:
        """Write this process's counts to Redis (the whole hash, with its time to live)."""
        key = SOCKETS_PREFIX + self.me
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.delete(key)
                if self.counted:
                    pipe.hset(key, mapping=self.counted)
                pipe.pexpire(key, SOCKETS_TTL_MS)
                await pipe.execute()
        except Exception as exc:  # the next heartbeat tries again
            COMPLAINTS.failed(SOCKETS, exc)
