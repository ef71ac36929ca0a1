"""Fixtures of the browser tests: the real server in a subprocess and a headless Chromium.

The browser is Debian's Chromium driven by Playwright (``playwright install`` is never needed).
Without Chromium or Playwright the tests are skipped locally, but fail when ``CI`` is set: CI
must run them (``.ci/run`` installs Chromium).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest

from served import serving

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = Path(os.environ.get("ORIFLAMME_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def unavailable(reason: str) -> NoReturn:
    """Skip a browser test locally; fail it in CI, where it must run."""
    if os.environ.get("CI"):
        pytest.fail(
            f"{reason}: CI must run the browser tests "
            "(apt-get install -y --no-install-recommends chromium; pip install -e '.[test]')",
            pytrace=False,
        )
    pytest.skip(reason)


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``oriflamme serve`` on a free port with a fresh database and bots that answer at once."""
    # The whole suite creates its tables (public ones too) from one address.
    options = ["--tables-per-hour", "0", "--public-tables", "0"]
    with serving(tmp_path_factory.mktemp("server"), options) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """A headless Chromium shared by the tests of one module.

    Module scope, not session: Playwright's sync API keeps an asyncio loop running in the main
    thread while it is open, and later tests that call ``asyncio.run`` would fail.
    """
    from playwright.sync_api import sync_playwright  # the test module checked it is installed

    if not os.access(CHROMIUM, os.X_OK):
        unavailable(f"Chromium is not installed at {CHROMIUM}")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
