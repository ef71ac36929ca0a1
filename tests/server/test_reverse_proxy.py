"""Behind a reverse proxy (docs/server.md, "Deploying"): the nginx sample passes the headers the
server needs in every location that proxies to it (``Host``, ``X-Forwarded-Proto``,
``X-Forwarded-For``; the WebSockets' ``Upgrade``), and a sign-up passed on as that sample passes
it is accepted by the CSRF rule, while one passed with the upstream's name, or whose scheme
comes from an untrusted address, is refused."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from oriflamme.server import SqliteStore, create_app
from scripts import ROOT

SERVER_MD = ROOT / "docs" / "server.md"
PUBLIC = "games.example"
PROXY, STRANGER = "10.0.0.2", "10.0.0.9"


@dataclass
class Block:
    """An nginx block: its name (``server``, ``location /ws/``), its directives in order, and
    the blocks inside it."""

    name: str
    directives: list[list[str]] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    def headers(self) -> dict[str, str]:
        return {d[1].lower(): " ".join(d[2:]) for d in self.directives
                if d[0] == "proxy_set_header"}


def parse(text: str) -> Block:
    """nginx's configuration syntax, enough for the samples: directives end with ``;``, blocks
    are ``name { … }``, ``#`` starts a comment, words may be quoted."""
    words = re.findall(r'"[^"]*"|[{};]|[^\s{};"]+', re.sub(r"#[^\n]*", "", text))
    stack, current = [Block("main")], []
    for word in words:
        if word == "{":
            block = Block(" ".join(current))
            stack[-1].blocks.append(block)
            stack.append(block)
            current = []
        elif word == "}":
            stack.pop()
        elif word == ";":
            stack[-1].directives.append(current)
            current = []
        else:
            current.append(word.strip('"'))
    assert len(stack) == 1 and not current, "unbalanced nginx sample"
    return stack[0]


def proxying_locations(
    block: Block, inherited: dict[str, str]
) -> Iterator[tuple[Block, dict[str, str]]]:
    """Each block that passes requests on (``proxy_pass``) with the headers it sends: its own
    ``proxy_set_header`` lines, or, if it has none, those of the nearest block around it that
    has some (nginx's rule of inheritance)."""
    headers = block.headers() or inherited
    if any(d[0] == "proxy_pass" for d in block.directives):
        yield block, headers
    for inner in block.blocks:
        yield from proxying_locations(inner, headers)


def nginx_samples() -> list[str]:
    return re.findall(r"```nginx\n(.*?)```", SERVER_MD.read_text(), flags=re.S)


def test_every_location_of_the_nginx_sample_passes_the_headers_the_server_needs() -> None:
    found = [
        (block, headers)
        for sample in nginx_samples()
        for block, headers in proxying_locations(parse(sample), {})
    ]
    names = [block.name for block, _ in found]
    assert "location /" in names and "location /ws/" in names, names
    for block, headers in found:
        assert headers.get("host") in ("$host", "$http_host"), block.name
        assert headers.get("x-forwarded-proto") == "$scheme", block.name
        assert headers.get("x-forwarded-for") in (
            "$remote_addr", "$proxy_add_x_forwarded_for"
        ), block.name
    websockets = next(headers for block, headers in found if block.name == "location /ws/")
    assert websockets["upgrade"] == "$http_upgrade" and websockets["connection"] == "upgrade"


def test_the_parser_applies_nginx_inheritance() -> None:
    """A location that sets one header of its own loses the server block's (the mistake the
    sample's WebSockets location avoids)."""
    sample = parse(
        "server { proxy_set_header Host $host;\n"
        "  location / { proxy_pass http://x; }\n"
        "  location /ws/ { proxy_pass http://x; proxy_set_header Upgrade $http_upgrade; } }"
    )
    headers = {block.name: h for block, h in proxying_locations(sample, {})}
    assert headers["location /"] == {"host": "$host"}
    assert "host" not in headers["location /ws/"]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[ProxyHeadersMiddleware]:
    """The server as ``oriflamme serve`` runs it behind a proxy: the app inside uvicorn's proxy
    headers middleware, trusting the proxy's address (``FORWARDED_ALLOW_IPS``)."""
    inner = create_app(SqliteStore(tmp_path / "g.sqlite3"), bot_delay=0, tune_gc=False)
    yield ProxyHeadersMiddleware(inner, trusted_hosts=PROXY)


def sign_up(app: ProxyHeadersMiddleware, peer: str, headers: dict[str, str], name: str) -> int:
    """A sign-up from a browser at https://games.example, reaching the server from ``peer``
    with these headers; its status."""
    with TestClient(app, base_url="http://oriflamme", client=(peer, 40000)) as client:
        response = client.post(
            "/api/account/signup", json={"name": name, "password": "correct horse battery"},
            headers={"Origin": f"https://{PUBLIC}", **headers},
        )
        if response.status_code == 201:
            assert response.cookies.get("__Host-oriflamme_session") is not None
            assert "secure" in response.headers["set-cookie"].lower()
        else:
            assert response.json()["error"]["code"] == "csrf", response.text
        return response.status_code


def test_a_sign_up_passed_on_as_the_sample_does_is_accepted(app: ProxyHeadersMiddleware) -> None:
    passed_on = {"Host": PUBLIC, "X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.7"}
    assert sign_up(app, PROXY, passed_on, "Ann") == 201
    # nginx's default Host: the upstream's name. The origin the server computes is not the page's.
    assert sign_up(app, PROXY, {**passed_on, "Host": "oriflamme"}, "Bob") == 403
    # No X-Forwarded-Proto behind TLS: the server takes itself for http://games.example.
    assert sign_up(app, PROXY, {"Host": PUBLIC}, "Cid") == 403
    # The same headers from an address not in FORWARDED_ALLOW_IPS: its scheme is not believed.
    assert sign_up(app, STRANGER, passed_on, "Dan") == 403
