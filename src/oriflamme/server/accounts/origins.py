"""The server's own origin, as a browser names it in an ``Origin`` header: the scheme of the
request (``https`` when it came over TLS, or through a trusted proxy that says so: uvicorn's
``--proxy-headers`` and ``FORWARDED_ALLOW_IPS`` rewrite it) and the ``Host`` it was sent to."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

_DEFAULT_PORTS = {"http": 80, "https": 443}


def secure(connection: HTTPConnection) -> bool:
    """Whether the request came over HTTPS (or WSS), directly or through a trusted proxy."""
    return connection.url.scheme in ("https", "wss")


def normal_origin(text: str) -> str | None:
    """``scheme://host[:port]`` in lower case without its scheme's default port, or None if
    ``text`` is not an origin (``null``, garbage)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" if port in (None, _DEFAULT_PORTS[scheme]) else (
        f"{scheme}://{host}:{port}"
    )


def own_origin(connection: HTTPConnection) -> str | None:
    """This server's origin for ``connection``, or None if its ``Host`` is unusable."""
    host = connection.headers.get("host")
    if not host:
        return None
    return normal_origin(f"{'https' if secure(connection) else 'http'}://{host}")


def same_origin(connection: HTTPConnection) -> bool:
    """Whether the request's ``Origin`` header names this server (False without one)."""
    sent = connection.headers.get("origin")
    if sent is None:
        return False
    mine = own_origin(connection)
    return mine is not None and normal_origin(sent) == mine


def rp_id(connection: HTTPConnection) -> str:
    """The WebAuthn relying party's id: the host name the browser sees (no port)."""
    origin = own_origin(connection) or "http://localhost"
    return urlsplit(origin).hostname or "localhost"
