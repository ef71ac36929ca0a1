"""A push service for the tests: an HTTP server on loopback that records every push posted to
it (answering 201, or the status given for a path), and a browser's subscription keys, with
which a test decrypts what it received (``http_ece``, aes128gcm: RFC 8291)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Browser:
    """A browser's subscription keys: its P-256 key pair and its 16-byte secret."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, str]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": endpoint, "p256dh": b64url(point), "auth": b64url(self.secret)}

    def read(self, push: Received) -> Any:
        """The push's message, decrypted with this browser's keys."""
        text = http_ece.decrypt(
            push.body, private_key=self.key, auth_secret=self.secret, version="aes128gcm"
        )
        return json.loads(text)


class PushEndpoint:
    """The pushes received, by path; ``status[path]`` answers that path (default 201)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.received: list[Received] = []
        self.status: dict[str, int] = {}
        self._lock = threading.Lock()

    def at(self, path: str) -> list[Received]:
        with self._lock:
            return [push for push in self.received if push.path == path]

    def wait_for(self, path: str, count: int, timeout: float = 20.0) -> list[Received]:
        """The pushes to ``path`` once there are ``count`` (fails after ``timeout`` s)."""
        deadline = time.monotonic() + timeout
        while len(self.at(path)) < count:
            assert time.monotonic() < deadline, f"{path}: {len(self.at(path))} pushes, not {count}"
            time.sleep(0.02)
        return self.at(path)

    def record(self, push: Received) -> int:
        with self._lock:
            self.received.append(push)
            return self.status.get(push.path, 201)


@contextmanager
def push_endpoint() -> Iterator[PushEndpoint]:
    """A push service on a free loopback port, stopped at the end."""
    endpoint: PushEndpoint

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            headers = {name.lower(): value for name, value in self.headers.items()}
            status = endpoint.record(Received(self.path, headers, body))
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    endpoint = PushEndpoint(f"http://127.0.0.1:{server.server_address[1]}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield endpoint
    finally:
        server.shutdown()
        server.server_close()
