"""Who "one address" is for the per-address limits (issue #26 items 3 and 4): an IPv4 address,
an IPv6 /64, an IPv4 address written as IPv6; the trusted proxies' networks."""

from __future__ import annotations

from oriflamme.server.addresses import Networks, client_key, origin_digest


def test_an_ipv6_client_is_its_64_and_an_ipv4_one_its_address() -> None:
    assert client_key("203.0.113.5") == "203.0.113.5"
    assert client_key("2001:db8:1:2:3:4:5:6") == client_key("2001:db8:1:2::9") == (
        "2001:db8:1:2::/64"
    )
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:203.0.113.5") == "203.0.113.5"
    assert client_key("fe80::1%eth0") == "fe80::/64"
    assert client_key("testclient") == "testclient"  # not an address: itself
    assert origin_digest("2001:db8:1:2::1") == origin_digest("2001:db8:1:2:ffff::1")
    assert origin_digest("203.0.113.5") != origin_digest("203.0.113.6")
    assert len(origin_digest("203.0.113.5")) == 16 and "203" not in origin_digest("203.0.113.5")


def test_trusted_networks() -> None:
    proxies = Networks("127.0.0.1, 10.0.0.0/8,2001:db8::/32, unix-socket")
    assert "127.0.0.1" in proxies and "10.1.2.3" in proxies and "::ffff:10.0.0.1" in proxies
    assert "2001:db8:5::1" in proxies and "unix-socket" in proxies
    assert "127.0.0.2" not in proxies and "2001:db9::1" not in proxies and "name" not in proxies
    assert "203.0.113.5" in Networks("*") and "x" in Networks(["*"])
    assert "127.0.0.1" not in Networks("")
