"""The HTTP rate limits of every process together (issue 17): one token bucket per client IP
and kind in Redis, so that a client whose requests a load balancer spreads over N processes
gets the configured rate, not N times it (the login limit of issue 16 above all).

:class:`SharedBuckets` has the interface of :class:`~kawuxing.server.ratelimit.IpBuckets`
(``take(ip)`` gives 0.0 when allowed, else the seconds until a token), as a coroutine. The
bucket arithmetic runs in one Lua script on the Redis server (atomic, with Redis's clock, so
the processes' clocks need not agree): ``rate`` tokens a second, at most ``burst`` saved, a
key per kind and IP that expires once the bucket would be full again. When Redis cannot be
reached the process's own bucket answers (the limit per process, as without a cluster) and
one warning is logged until Redis answers again.
"""

from __future__ import annotations

import logging

from ..ratelimit import IpBuckets

log = logging.getLogger("kawuxing.server.cluster")

PREFIX = "kwx:rate:"

# KEYS[1] the bucket; ARGV rate (tokens/s), burst -> "0" (a token was spent) or the seconds
# until there is one (nothing spent)
TAKE_SCRIPT = """
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(saved[1]) or burst
local at = tonumber(saved[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return tostring(wait)
"""


class SharedBuckets:
    """The cluster's token buckets of one ``kind`` (``create``, ``join``, ``lookup``,
    ``login``), with the rate and burst of ``local`` (an :class:`IpBuckets`, also the
    fallback while Redis is away). ``redis``: an asyncio Redis client."""

    def __init__(self, kind: str, local: IpBuckets, redis) -> None:
        self.kind = kind
        self.local = local
        self.rate, self.burst = local.rate, local.burst
        self._script = redis.register_script(TAKE_SCRIPT)
        self._failing = False

    @property
    def enabled(self) -> bool:
        """False when the rate is 0: :meth:`take` always allows."""
        return self.local.enabled

    async def take(self, ip: str) -> float:
        """Spend one token of ``ip`` in the cluster's bucket: 0.0 if there was one, else the
        seconds until one (float). The process's own bucket when Redis fails."""
        if not self.enabled:
            return 0.0
        try:
            wait = float(await self._script(keys=[f"{PREFIX}{self.kind}:{ip}"],
                                            args=[self.rate, self.burst]))
        except Exception as exc:  # Redis away: limited per process meanwhile
            if not self._failing:
                log.warning("cluster: rate limits per process while Redis fails (%r)", exc)
            self._failing = True
            return self.local.take(ip)
        self._failing = False
        return wait
