"""What a browser's push subscription must be before the server stores it: an ``https`` endpoint
(``http`` only to this machine's loopback, and only when the server allows it for tests), a
P-256 public key and a 16-byte secret (docs/server.md, "Push notifications")."""

from __future__ import annotations

import binascii
import ipaddress
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec

from ..errors import ApiError
from .keys import from_b64url

#: The longest endpoint stored (those of the browsers' push services are a few hundred).
MAX_ENDPOINT = 1024
#: Subscriptions one account may hold (one per browser it signs in from).
MAX_PER_ACCOUNT = 10
LOOPBACK_NAMES = frozenset({"localhost"})


def bad_subscription(message: str) -> ApiError:
    return ApiError(422, "bad_subscription", message)


def _loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_endpoint(endpoint: str, allow_loopback_http: bool) -> str:
    """The endpoint, if a push service may be posted to there; else ``422 bad_subscription``."""
    if len(endpoint) > MAX_ENDPOINT:
        raise bad_subscription(f"the endpoint is longer than {MAX_ENDPOINT} characters")
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        parts.port  # noqa: B018 (a port out of range raises here)
    except ValueError:
        raise bad_subscription("the endpoint is not a URL") from None
    if not host or parts.username is not None or parts.password is not None or parts.fragment:
        raise bad_subscription("the endpoint must be a URL with a host, without user or fragment")
    if parts.scheme == "https":
        return endpoint
    if parts.scheme == "http" and _loopback(host):
        if allow_loopback_http:
            return endpoint
        raise bad_subscription("this server takes plain http endpoints in tests only")
    raise bad_subscription("the endpoint must be an https URL")


def _decoded(text: str, what: str) -> bytes:
    try:
        return from_b64url(text)
    except (binascii.Error, ValueError):
        raise bad_subscription(f"{what} is not base64url") from None


def check_keys(p256dh: str, auth: str) -> None:
    """``422 bad_subscription`` unless ``p256dh`` is a P-256 public key (uncompressed point)
    and ``auth`` a 16-byte secret, both base64url."""
    point = _decoded(p256dh, "p256dh")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise bad_subscription("p256dh is not a P-256 public key") from None
    if len(point) != 65:
        raise bad_subscription("p256dh must be an uncompressed P-256 point (65 bytes)")
    if len(_decoded(auth, "auth")) != 16:
        raise bad_subscription("auth must be 16 bytes")
