"""The limits of every process together (issue 17): token buckets in Redis, so that a client
whose requests a load balancer spreads over N processes gets the configured rate, not N times
it — the HTTP rate limits per client IP and kind (:class:`SharedBuckets`, the interface of
:class:`~kawuxing.server.ratelimit.IpBuckets` as coroutines) and the failed sign-ins per name
of issue 16 (:class:`SharedLoginFailures`, that of
:class:`~kawuxing.server.identity.LoginFailures`).

The bucket arithmetic runs in one Lua script on the Redis server (atomic, with Redis's clock,
so the processes' clocks need not agree): ``rate`` tokens a second, at most ``burst`` saved, a
key per bucket that expires once the bucket would be full again. When Redis cannot be reached
the process's own bucket answers (the limit per process, as without a cluster) and one
warning is logged until Redis answers again.
"""

from __future__ import annotations

import logging

from ..identity import LoginFailures, name_key
from ..ratelimit import IpBuckets

log = logging.getLogger("kawuxing.server.cluster")

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
        self._failing = False

    async def _call(self, key: str, mode: str) -> float | None:
        try:
            wait = float(await self._script(keys=[f"{PREFIX}{self.kind}:{key}"],
                                            args=[self.rate, self.burst, mode]))
        except Exception as exc:  # Redis away: limited per process meanwhile
            if not self._failing:
                log.warning("cluster: %s limits per process while Redis fails (%r)",
                            self.kind, exc)
            self._failing = True
            return None
        self._failing = False
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
