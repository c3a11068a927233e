"""The Activity's own limits: token buckets (frames, sign-ins), kept per key, and who a request comes from.

Every bucket reads an injected clock (``time.monotonic`` by default), so a test moves time instead of
waiting for it.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

from aiohttp import web

Clock = Callable[[], float]
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
MOST_KEYS = 20_000  # keys a Buckets remembers: the least recently used is forgotten past this (a full bucket again)


class Bucket:
    """A token bucket: ``rate`` tokens a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock: Clock = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = burst, clock()

    def _fill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        self._fill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until a token is there (0.0: one is there now)."""
        self._fill()
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate


class Buckets:
    """A bucket per key (a client's address, a user), of one shape. Memory stays bounded: past ``most`` keys
    the one unused longest is forgotten, and comes back with a full bucket (only a key that many others
    pushed out gains anything by it)."""

    def __init__(self, rate: float, burst: float, clock: Clock = time.monotonic, most: int = MOST_KEYS) -> None:
        self.rate, self.burst, self.clock, self.most = rate, burst, clock, most
        self._by_key: OrderedDict[object, Bucket] = OrderedDict()

    def of(self, key: object) -> Bucket:
        bucket = self._by_key.get(key)
        if bucket is None:
            bucket = self._by_key[key] = Bucket(self.rate, self.burst, self.clock)
            while len(self._by_key) > self.most:
                self._by_key.popitem(last=False)
        else:
            self._by_key.move_to_end(key)
        return bucket

    def take(self, key: object) -> float:
        """Take a token from ``key``'s bucket: 0.0; or, with none there, the seconds until there is one."""
        bucket = self.of(key)
        return 0.0 if bucket.take() else bucket.wait()


def whole_seconds(seconds: float) -> int:
    """A wait as said to a person or in ``Retry-After``: whole seconds, at least one."""
    return max(1, math.ceil(seconds))


def networks(spec: str | None) -> tuple[Network, ...]:
    """``ACTIVITY_TRUSTED_PROXIES``: addresses or networks, separated by commas or spaces (ValueError if one
    is neither)."""
    return tuple(ipaddress.ip_network(part, strict=False) for part in (spec or "").replace(",", " ").split())


def _within(address: str, trusted: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def client_address(request: web.Request, trusted: Sequence[Network]) -> str:
    """Who a request comes from, for the per-client limits: the connection's peer, unless that peer is one of
    the operator's reverse proxies (``trusted``); then the nearest address in ``X-Forwarded-For`` that no
    trusted proxy added (the right-most entry not among them: whatever is left of it came from the client,
    which can write anything there). Inside Discord that is still one of Discord's proxy's addresses: Discord
    hides its users' addresses from Activities. Counted as :func:`per_client` says (an IPv6 client by its
    /64)."""
    peer = request.remote or ""
    if not trusted or not _within(peer, trusted):
        return per_client(peer)
    hops = [hop.strip() for header in request.headers.getall("X-Forwarded-For", ()) for hop in header.split(",")]
    for hop in reversed([hop for hop in hops if hop]):
        if not _within(hop, trusted):
            return per_client(hop)
    return per_client(peer)


def per_client(address: str) -> str:
    """The key a client's address is counted under: an IPv4 address itself (an IPv4-mapped IPv6 address, as a
    dual-stack socket reports an IPv4 peer, as that IPv4 address); an IPv6 address by its /64, the block one
    home or one server is given (each of its 2^64 addresses is its own for the asking: counted one by one, a
    single machine would have limits without end); anything else (not an address) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
