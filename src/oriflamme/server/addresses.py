"""Who "one address" is, for the per-address limits (quotas, rates, connections).

An IPv4 address is one client. An IPv6 client usually holds a whole /64 network (one
subscriber's prefix, or one virtual machine's): counting its addresses one by one would let it
use 2^64 of them, so the limits count an IPv6 client by its /64. An IPv4 address written as IPv6
(``::ffff:192.0.2.1``, a dual-stack socket) is that IPv4 address.
"""

from __future__ import annotations

import hashlib
import ipaddress
from collections.abc import Iterable

#: The prefix length under which IPv6 addresses count as one client.
IPV6_CLIENT_PREFIX = 64


def client_key(host: str) -> str:
    """The key the per-address limits count ``host`` under: an IPv4 address, the /64 network
    of an IPv6 address, or ``host`` itself if it is not an IP address (a test client)."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])  # no IPv6 zone (fe80::1%eth0)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/{IPV6_CLIENT_PREFIX}", strict=False))
    return str(address)


def origin_digest(host: str) -> str:
    """A digest of the client ``host`` is counted as (the server stores no address in clear)."""
    return hashlib.sha256(f"oriflamme:{client_key(host)}".encode()).hexdigest()[:16]


class Networks:
    """A set of addresses and networks (``"127.0.0.1, 10.0.0.0/8"``; ``"*"``: every address),
    as in uvicorn's ``FORWARDED_ALLOW_IPS``; names that are not addresses match literally."""

    def __init__(self, spec: str | Iterable[str]) -> None:
        items = [s.strip() for s in (spec.split(",") if isinstance(spec, str) else spec)]
        self.everything = "*" in items
        self._networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self._names: set[str] = set()
        for item in filter(None, items):
            try:
                self._networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                self._names.add(item)

    def __contains__(self, host: str) -> bool:
        if self.everything or host in self._names:
            return True
        try:
            address = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self._networks)
