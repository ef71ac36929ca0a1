"""The server's VAPID key pair (RFC 8292), which signs every push it sends: made on the first
start, stored in ``server_keys`` (insert if absent, then read back, so that processes starting
together all use the first one stored) and shared by every server process."""

from __future__ import annotations

import base64
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from ..storage.push_records import PushStore

#: The name of the private key in ``server_keys``.
VAPID_KEY = "vapid_private"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def from_b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class VapidKeys:
    """The key pair: the private key (a P-256 scalar) and the public key as browsers take it
    (``applicationServerKey``: the uncompressed point, base64url)."""

    private: ec.EllipticCurvePrivateKey

    @property
    def public(self) -> str:
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    @property
    def private_text(self) -> str:
        """The private key as stored: its 32-byte scalar, base64url."""
        return b64url(self.private.private_numbers().private_value.to_bytes(32, "big"))

    def vapid(self) -> Vapid02:
        """The key as ``pywebpush`` signs with it."""
        return Vapid02(private_key=self.private)

    @classmethod
    def from_text(cls, text: str) -> VapidKeys:
        scalar = int.from_bytes(from_b64url(text), "big")
        return cls(ec.derive_private_key(scalar, ec.SECP256R1()))

    @classmethod
    def generate(cls) -> VapidKeys:
        return cls(ec.generate_private_key(ec.SECP256R1()))


async def load_or_make(store: PushStore) -> VapidKeys:
    """The server's keys: the stored ones, or a new pair stored now."""
    stored = await store.server_key(VAPID_KEY, VapidKeys.generate().private_text)
    return VapidKeys.from_text(stored)
