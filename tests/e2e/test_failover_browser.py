"""End-to-end (issue #33, item 6), in a real headless Chromium: two ``oriflamme serve`` processes
on one PostgreSQL database behind a load balancer. The process serving a player's page is
killed (``kill -9``): the page says it lost the connection and is reconnecting, reconnects
through the balancer to the other process, says nothing more, and follows the game there.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

try:
    from playwright.sync_api import Browser, expect
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from pgdb import fresh_database
from servers import Proxy, running_server
from sizes_and_seats import ANN, BOB, DESKTOP

pytestmark = pytest.mark.e2e

TIMEOUT_MS = 30_000
YOUR_TURN = re.compile(r"\byour-turn\b")

#: Records every change of the "reconnecting" banner: when it shows or hides, and its text.
WATCH_BANNER_JS = """() => {
  const banner = document.querySelector('[data-testid="reconnecting"]');
  window.bannerChanges = [];
  new MutationObserver(() => {
    window.bannerChanges.push({shown: !banner.hidden, text: banner.textContent.trim()});
  }).observe(banner, {attributes: true, attributeFilter: ["hidden"]});
}"""

#: Whether the banner showed, then hid again (and is hidden now).
RECONNECTED_JS = """() => {
  const changes = window.bannerChanges;
  const first = changes.findIndex((c) => c.shown);
  const banner = document.querySelector('[data-testid="reconnecting"]');
  return first >= 0 && changes.slice(first + 1).some((c) => !c.shown) && banner.hidden;
}"""


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A new PostgreSQL database, made and dropped in a thread of its own: Playwright's event
    loop runs in this one."""
    database = fresh_database()
    with ThreadPoolExecutor(1) as thread:
        url = thread.submit(database.__enter__).result()
        try:
            yield url
        finally:
            thread.submit(database.__exit__, None, None, None).result()


def test_the_page_reconnects_to_the_other_process_when_its_own_is_killed(
    browser: Browser, pg_url: str, tmp_path: Path
) -> None:
    options = ("--bot-delay", "0", "--tables-per-hour", "0")
    with (
        running_server(pg_url, tmp_path / "a.log", *options) as (process_a, a),
        running_server(pg_url, tmp_path / "b.log", *options) as (_, b),
    ):
        balancer = Proxy(_address(a), _address(b))  # A while it answers, else B
        base = f"http://127.0.0.1:{balancer.port}"
        try:
            seats = [ANN, BOB]
            body = {"players": 2, "seats": seats, "first_player": 1, "seed": 6}
            created = httpx.post(f"{base}/api/tables", json=body, timeout=10)
            assert created.status_code == 201, created.text
            table: dict[str, Any] = created.json()
            context = browser.new_context(viewport=DESKTOP, locale="en-US")
            page = context.new_page()
            page.goto(base + table["seats"][0]["url"])
            prompt = page.get_by_test_id("prompt")
            expect(prompt).to_contain_text("choose", timeout=TIMEOUT_MS)  # the game is shown
            expect(prompt).not_to_have_class(YOUR_TURN)  # Bob decides first
            banner = page.get_by_test_id("reconnecting")
            expect(banner).to_be_hidden()
            page.evaluate(WATCH_BANNER_JS)

            process_a.send_signal(signal.SIGKILL)
            process_a.wait(timeout=10)
            # The page says so while it reconnects, then it is connected again (to B).
            page.wait_for_function(RECONNECTED_JS, timeout=TIMEOUT_MS)
            changes = page.evaluate("window.bannerChanges")
            shown = [c for c in changes if c["shown"]]
            assert shown and all("reconnecting" in c["text"] for c in shown), changes
            assert changes[-1] == {"shown": False, "text": changes[-1]["text"]}
            expect(banner).to_be_hidden()

            # The game goes on through B and the page follows it live: Bob moves, Ann's turn.
            bob = table["seats"][1]["token"]
            path = f"/api/tables/{table['table_id']}"
            legal = b.get(f"{path}/view", params={"token": bob}).json()["legal"]
            move = {"token": bob, "action": legal[0]["action"], "step": 0}
            assert b.post(f"{path}/actions", json=move).status_code == 200
            expect(prompt).to_have_class(YOUR_TURN, timeout=TIMEOUT_MS)
            expect(banner).to_be_hidden()
            context.close()
        finally:
            balancer.close()


def _address(client: httpx.Client) -> tuple[str, int]:
    url = client.base_url
    return url.host, int(url.port or 80)


def test_a_rolling_restart_is_invisible_to_the_page(
    browser: Browser, pg_url: str, tmp_path: Path
) -> None:
    """#32: the process serving the page is stopped with SIGTERM (a deploy): it closes the
    page's socket with "Service Restart", the page reconnects through the balancer to the
    other process at once, never shows the "reconnecting" banner, and a move clicked right
    after is played."""
    options = ("--bot-delay", "0", "--tables-per-hour", "0")
    with (
        running_server(pg_url, tmp_path / "a.log", *options) as (process_a, a),
        running_server(pg_url, tmp_path / "b.log", *options) as (_, b),
    ):
        balancer = Proxy(_address(a), _address(b))
        base = f"http://127.0.0.1:{balancer.port}"
        try:
            body = {"players": 2, "seats": [ANN, BOB], "first_player": 1, "seed": 6}
            created = httpx.post(f"{base}/api/tables", json=body, timeout=10)
            assert created.status_code == 201, created.text
            table: dict[str, Any] = created.json()
            context = browser.new_context(viewport=DESKTOP, locale="en-US")
            page = context.new_page()
            # The page draws the game from an HTTP view, then opens its socket: the restart
            # must find the socket open (a handshake under way is refused with a 500, which is
            # a failure the page does show).
            with page.expect_websocket() as opening:
                page.goto(base + table["seats"][0]["url"])
            opening.value.wait_for_event("framereceived", timeout=TIMEOUT_MS)
            prompt = page.get_by_test_id("prompt")
            expect(prompt).to_contain_text("choose", timeout=TIMEOUT_MS)
            page.evaluate(WATCH_BANNER_JS)

            process_a.send_signal(signal.SIGTERM)
            assert process_a.wait(timeout=30) == 0
            # Bob moves through B; the page, now on B, follows live: Ann's turn.
            bob = table["seats"][1]["token"]
            path = f"/api/tables/{table['table_id']}"
            legal = b.get(f"{path}/view", params={"token": bob}).json()["legal"]
            move = {"token": bob, "action": legal[0]["action"], "step": 0}
            assert b.post(f"{path}/actions", json=move).status_code == 200
            expect(prompt).to_have_class(YOUR_TURN, timeout=TIMEOUT_MS)
            # Ann plays by clicking: the move reaches B.
            page.locator('[data-testid="hand-card"][data-selectable="true"]').first.click()
            page.locator('[data-action]:not([data-testid="hand-card"])').first.click()
            expect(prompt).not_to_have_class(YOUR_TURN, timeout=TIMEOUT_MS)
            assert b.get(f"{path}/view", params={"token": bob}).json()["step"] == 2
            changes = page.evaluate("window.bannerChanges")
            assert not any(c["shown"] for c in changes), changes  # never shown
            expect(page.get_by_test_id("toast")).to_have_count(0)  # no error either
            context.close()
        finally:
            balancer.close()
