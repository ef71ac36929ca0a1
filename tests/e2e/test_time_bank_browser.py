"""Time banks in a real headless Chromium (issue #29, section 2): a table created in the lobby's
form with a bank of a few seconds; the deciding player's bank counts down on the page while the
other seat shows what its bank holds; when the bank is empty the stand-in plays, and the seat
shows as away with the increment in its bank."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

try:
    from playwright.sync_api import Browser, BrowserContext, Page, expect
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from sizes_and_seats import DESKTOP
from test_browser import Record

pytestmark = pytest.mark.e2e

BANK, INCREMENT = 4, 1


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context: BrowserContext = browser.new_context(
        viewport=DESKTOP, locale="en-US", reduced_motion="reduce"
    )
    yield context.new_page()
    context.close()


def spectator_view(server_url: str, table_id: str, token: str) -> dict[str, Any]:
    response = httpx.get(
        f"{server_url}/api/tables/{table_id}/view", params={"token": token}, timeout=5
    )
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def create_banked_table(page: Page, server_url: str) -> tuple[str, str]:
    """Alice and Bob (who never comes), a bank of BANK s and INCREMENT s a move, made in the
    lobby's form; Alice's link and the table id."""
    page.goto(f"{server_url}/")
    page.get_by_test_id("players-count").select_option("2")
    page.get_by_test_id("variant").select_option("standard")
    rows = page.get_by_test_id("seat-row")
    rows.nth(0).get_by_test_id("seat-kind").select_option("human")
    rows.nth(0).get_by_test_id("seat-name").fill("Alice")
    rows.nth(1).get_by_test_id("seat-kind").select_option("human")
    rows.nth(1).get_by_test_id("seat-name").fill("Bob")
    expect(page.get_by_test_id("bank")).to_be_hidden()
    page.get_by_test_id("clock-kind").select_option("bank")
    expect(page.get_by_test_id("clock")).to_be_hidden()
    page.get_by_test_id("bank").fill(str(BANK))
    page.get_by_test_id("increment").fill(str(INCREMENT))
    page.get_by_test_id("stand-in").select_option("random")
    page.get_by_test_id("create-game").click()
    expect(page.get_by_test_id("created")).to_be_visible()
    link = page.get_by_test_id("open-my-seat").get_attribute("href")
    assert link is not None
    return f"{server_url}{link}", urlsplit(link).path.rsplit("/", 1)[-1]


def test_a_bank_counts_down_on_the_page_and_the_stand_in_plays_when_it_is_empty(
    page: Page, server_url: str
) -> None:
    record = Record()
    record.watch(page)
    alice_link, table_id = create_banked_table(page, server_url)
    page.goto(alice_link)
    alice = page.locator('[data-testid="player"][data-seat="0"]')
    bob = page.locator('[data-testid="player"][data-seat="1"]')
    # Alice decides: her bank counts down; Bob's shows what it holds.
    expect(page.get_by_test_id("waiting")).to_have_text("Your turn")
    clock = alice.get_by_test_id("clock")
    expect(clock).to_have_text(re.compile(r"^0:0[0-4] left$"))
    expect(bob.get_by_test_id("bank")).to_have_text(f"bank 0:0{BANK}")
    expect(bob.get_by_test_id("bank")).to_have_attribute("title", re.compile("bank"))
    start = int(clock.get_attribute("data-left") or "0")
    page.wait_for_function(
        "(s) => Number(document.querySelector('[data-seat=\"0\"] [data-testid=clock]')"
        "?.dataset.left) < s",
        arg=start,
        timeout=10_000,
    )
    # She does not act: once her bank is empty the stand-in plays for her; she is away, her
    # bank holds the increment, and Bob's decision has its own clock now.
    page.wait_for_function("() => Number(document.body.dataset.step) >= 1", timeout=15_000)
    expect(alice.get_by_test_id("away")).to_be_visible()
    expect(bob.get_by_test_id("clock")).to_have_text(re.compile(r"^0:0[0-4] left$"))
    expect(bob.get_by_test_id("bank")).to_have_count(0)
    expect(alice.get_by_test_id("bank")).to_have_text(f"bank 0:0{INCREMENT}")
    token = parse_qs(urlsplit(alice_link).query)["seat"][0]
    seen = spectator_view(server_url, table_id, token)
    assert seen["clock"]["kind"] == "bank"
    assert seen["seats"][0]["ran_out"] == 1 and seen["seats"][0]["bank_left"] == INCREMENT
    assert [m["reason"] for m in seen["stand_ins"] if m["seat"] == 0] == ["clock"]
    assert record.page_errors == []


def test_a_turn_based_table_shows_days_and_hours(page: Page, server_url: str) -> None:
    record = Record()
    record.watch(page)
    page.goto(f"{server_url}/")
    page.get_by_test_id("players-count").select_option("2")
    page.get_by_test_id("variant").select_option("standard")
    rows = page.get_by_test_id("seat-row")
    for row, name in ((0, "Alice"), (1, "Bob")):
        rows.nth(row).get_by_test_id("seat-kind").select_option("human")
        rows.nth(row).get_by_test_id("seat-name").fill(name)
    expect(page.get_by_test_id("absent-after")).to_be_visible()
    page.get_by_test_id("clock-kind").select_option("daily")
    expect(page.get_by_test_id("absent-after")).to_be_hidden()
    expect(page.get_by_test_id("bank")).to_be_hidden()
    page.get_by_test_id("create-game").click()
    expect(page.get_by_test_id("created")).to_be_visible()
    link = page.get_by_test_id("open-my-seat").get_attribute("href")
    assert link is not None
    table_id = urlsplit(link).path.rsplit("/", 1)[-1]
    summary = httpx.get(f"{server_url}/api/tables/{table_id}", timeout=5).json()
    assert summary["absent_after"] is None
    page.goto(f"{server_url}{link}")
    alice = page.locator('[data-testid="player"][data-seat="0"]')
    bob = page.locator('[data-testid="player"][data-seat="1"]')
    expect(alice.get_by_test_id("clock")).to_have_text("2 d 23 h left")
    expect(bob.get_by_test_id("bank")).to_have_text("bank 3 d 0 h")
    # Screen readers hear words, not the abbreviations.
    expect(bob.get_by_test_id("bank-spoken")).to_have_text("3 days 0 hours left in the bank")
    page.get_by_test_id("lang-fr").click()
    expect(bob.get_by_test_id("bank")).to_have_text("réserve 3 j 0 h")
    expect(bob.get_by_test_id("bank-spoken")).to_have_text(
        "3 jours 0 heures restant dans la réserve"
    )
    expect(alice.get_by_test_id("clock")).to_have_text("encore 2 j 23 h")
    assert record.page_errors == []
