"""End-to-end (issue #16), in a real headless Chromium: a public table created in the lobby with
an open seat, found and joined by a second person in another browser context, both playing; a
closed page makes that seat "away" and its stand-in plays; reopening the link takes the seat
back. And a table with a 2-second clock whose stand-in plays for a seat that does not act.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
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

from same_node import node_kept
from sizes_and_seats import DESKTOP
from test_browser import Record

pytestmark = pytest.mark.e2e

PageOpener = Callable[[], Page]
TIMEOUT_S = 30.0


@pytest.fixture
def new_page(browser: Browser) -> Iterator[PageOpener]:
    """Pages each in a browser context of its own (one person each), closed at the end."""
    contexts: list[BrowserContext] = []

    def open_page() -> Page:
        context = browser.new_context(viewport=DESKTOP, locale="en-US", reduced_motion="reduce")
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def public_view(server_url: str, table_id: str, token: str) -> dict[str, Any]:
    response = httpx.get(
        f"{server_url}/api/tables/{table_id}/view", params={"token": token}, timeout=5
    )
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def link_parts(url: str) -> tuple[str, str]:
    """The table id and the seat token of a seat's link."""
    parts = urlsplit(url)
    return parts.path.rsplit("/", 1)[-1], parse_qs(parts.query)["seat"][0]


def set_up_two_player_table(
    page: Page, server_url: str, second: str, **options: str
) -> tuple[str, str]:
    """Create, in the lobby, a 2-player table (one family each): Alice in seat 1 and
    ``second`` ("open" or "human") in seat 2, with the form's ``options`` (testid: value).
    Returns Alice's link and the table id."""
    page.goto(f"{server_url}/")
    page.get_by_test_id("players-count").select_option("2")
    page.get_by_test_id("variant").select_option("standard")
    rows = page.get_by_test_id("seat-row")
    rows.nth(0).get_by_test_id("seat-kind").select_option("human")
    rows.nth(0).get_by_test_id("seat-name").fill("Alice")
    rows.nth(1).get_by_test_id("seat-kind").select_option(second)
    if second == "human":
        rows.nth(1).get_by_test_id("seat-name").fill("Bob")
    for testid, value in options.items():
        if testid == "public":
            page.get_by_test_id("public").check()
        else:
            page.get_by_test_id(testid).fill(value)
    page.get_by_test_id("create-game").click()
    expect(page.get_by_test_id("created")).to_be_visible()
    alice = page.get_by_test_id("open-my-seat").get_attribute("href")
    assert alice is not None
    table_id, _ = link_parts(alice)
    return f"{server_url}{alice}", table_id


def play_first_option_if_mine(page: Page) -> bool:
    """Click the first legal option if it is this page's decision; whether it did."""
    if page.get_by_test_id("waiting").inner_text() != "Your turn":
        return False
    step = page.evaluate("() => document.body.dataset.step")
    page.get_by_test_id("legal-option").first.click()
    page.wait_for_function("(s) => document.body.dataset.step !== s", arg=step)
    return True


def test_strangers_meet_in_the_lobby_and_an_absent_one_is_played_for(
    new_page: PageOpener, server_url: str
) -> None:
    record = Record()
    alice = new_page()
    record.watch(alice)
    alice_link, table_id = set_up_two_player_table(
        alice, server_url, "open", public="on", **{"absent-after": "3"}
    )
    alice.goto(alice_link)
    expect(alice.get_by_test_id("status-text")).to_have_text(
        "Waiting for players to take the open seats (Blue): the game starts when every seat"
        " is taken."
    )
    expect(alice.get_by_test_id("close-table")).to_be_visible()  # the creator may close it
    expect(alice.get_by_test_id("open-seat")).to_have_text("Waiting for someone to join…")

    # Bob, in a browser of his own, finds the table in the lobby and joins it.
    bob = new_page()
    record.watch(bob)
    bob.goto(f"{server_url}/")
    row = bob.locator(f'[data-testid="open-table"][data-table="{table_id}"]')
    expect(row).to_be_visible(timeout=10_000)
    expect(row.get_by_test_id("lobby-seat")).to_have_text("Alice")
    # The list is asked for again every few seconds; an unchanged table keeps its nodes (a
    # "Join" button drawn anew while clicked would lose the click).
    join = row.get_by_test_id("join-seat")
    with node_kept(join):
        with bob.expect_response(lambda r: urlsplit(r.url).path == "/api/lobby"):
            pass
        bob.wait_for_timeout(500)  # the answer drawn
    bob.get_by_test_id("join-name").fill("Bob")
    row.get_by_test_id("join-seat").click()
    bob.wait_for_url(re.compile(rf"/t/{table_id}\?seat="))
    bob_link = bob.url
    expect(bob.get_by_test_id("waiting")).to_have_text(re.compile("Waiting for Alice"))
    expect(alice.get_by_test_id("waiting")).to_have_text("Your turn")
    expect(alice.get_by_test_id("player-name").nth(1)).to_have_text("Bob")
    lobby_now = httpx.get(f"{server_url}/api/lobby", timeout=5).json()["tables"]
    assert table_id not in [t["table_id"] for t in lobby_now]

    # Both play: two decisions each.
    played = {"alice": 0, "bob": 0}
    deadline = time.monotonic() + TIMEOUT_S
    while min(played.values()) < 2:
        assert time.monotonic() < deadline, played
        if play_first_option_if_mine(alice):
            played["alice"] += 1
        elif play_first_option_if_mine(bob):
            played["bob"] += 1
        else:
            time.sleep(0.1)

    # Bob closes his page: after 3 s away, his stand-in plays his decisions.
    _, bob_token = link_parts(bob_link)
    bob.close()
    bob_panel = alice.locator('[data-testid="player"][data-seat="1"]')
    expect(bob_panel.get_by_test_id("away")).to_have_text("away (played by a bot)", timeout=15_000)
    stood_in = False
    deadline = time.monotonic() + TIMEOUT_S
    while not stood_in:
        assert time.monotonic() < deadline, "the stand-in never played for Bob"
        seen = public_view(server_url, table_id, bob_token)
        if seen["waiting_for"] and seen["waiting_for"]["seat"] == 1:
            step = seen["step"]
            while public_view(server_url, table_id, bob_token)["step"] == step:
                assert time.monotonic() < deadline, "Bob's decision was never played"
                time.sleep(0.1)
            stood_in = True
        elif not play_first_option_if_mine(alice):
            time.sleep(0.1)
    assert public_view(server_url, table_id, bob_token)["seats"][1]["kind"] == "human"

    # Bob opens his link again: the seat is his at once, and his decisions wait for him.
    bob = new_page()
    record.watch(bob)
    bob.goto(bob_link)
    expect(bob_panel.get_by_test_id("away")).to_have_count(0, timeout=10_000)
    deadline = time.monotonic() + TIMEOUT_S
    while bob.get_by_test_id("waiting").inner_text() != "Your turn":
        assert time.monotonic() < deadline, "Bob's turn never came"
        if not play_first_option_if_mine(alice):
            time.sleep(0.1)
    step = bob.evaluate("() => document.body.dataset.step")
    time.sleep(4)  # longer than the allowed absence: nobody plays for Bob now
    assert bob.evaluate("() => document.body.dataset.step") == step
    assert play_first_option_if_mine(bob)
    assert record.page_errors == []


def test_a_two_second_clock_counts_down_and_the_stand_in_plays(
    new_page: PageOpener, server_url: str
) -> None:
    record = Record()
    alice = new_page()
    record.watch(alice)
    alice_link, table_id = set_up_two_player_table(alice, server_url, "human", clock="2")
    alice.goto(alice_link)
    # Her turn and her clock under 2 s, seen at once in the page: on a loaded machine the two
    # seconds ran out between two separate checks (the stand-in had played, the clock gone).
    alice.wait_for_function(
        """() => {
          const text = (selector) => (document.querySelector(selector)?.textContent ?? "")
            .replace(/\\s+/g, " ").trim();
          return text('[data-testid="waiting"]') === "Your turn"
            && /^0:0[0-2] left$/.test(
              text('[data-testid="player"][data-seat="0"] [data-testid="clock"]'));
        }""",
        timeout=10_000,
    )
    # Alice does not act: her stand-in places a card for her, and Bob's (who never came) too.
    alice.wait_for_function("() => Number(document.body.dataset.step) >= 2", timeout=15_000)
    _, token = link_parts(alice_link)
    seen = public_view(server_url, table_id, token)
    assert [s["kind"] for s in seen["seats"]] == ["human", "human"]
    assert seen["clock"]["per_decision"] == 2
    expect(alice.get_by_test_id("player").first.locator(".tag-bot")).to_have_count(0)
    assert record.page_errors == []
