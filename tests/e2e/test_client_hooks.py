"""End-to-end: what the client does with the elements no other browser test drives, in a real
headless Chromium: the lobby's language switch and its form, copying the invite and spectator
links, the spectator link's read-only page, the "reconnecting" banner while the server is away,
and a glyph for every card type and a blazon for every family (drawn by the client's module).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

try:
    from playwright.sync_api import Browser, Page, expect
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from oriflamme.rules.cards import CardType
from oriflamme.rules.texts import FAMILY_COLOURS
from servers import free_port, running_server
from sizes_and_seats import ANN, BEN, DESKTOP

pytestmark = pytest.mark.e2e

TIMEOUT_MS = 20_000
#: The page retries with a growing pause, at most 10 s (api.js): failure bound of a reconnection.
RECONNECT_MS = 30_000


def open_page(browser: Browser, url: str, **options: Any) -> Page:
    context = browser.new_context(viewport=DESKTOP, locale="en-US", **options)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    return page


def test_the_lobby_switches_language_and_copies_the_links(
    browser: Browser, server_url: str
) -> None:
    """The lobby in French, its form sent, then each "copy" button puts its link (the seat's
    invite, the spectators') in the clipboard; the spectator link opens a read-only page."""
    page = open_page(browser, f"{server_url}/", permissions=["clipboard-read", "clipboard-write"])
    try:
        form = page.get_by_test_id("create-form")
        expect(form.locator("h1")).to_have_text("Start a game")
        page.get_by_test_id("lang-fr").click()
        expect(form.locator("h1")).to_have_text("Lancer une partie")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        page.get_by_test_id("lang-en").click()
        expect(form.locator("h1")).to_have_text("Start a game")
        page.get_by_test_id("create-game").click()
        expect(page.get_by_test_id("created")).to_be_visible()
        expect(form).to_be_hidden()
        invite = page.locator('[data-testid="invite-link"][data-seat="0"]').input_value()
        watch = page.get_by_test_id("spectator-link").input_value()
        assert "/t/" in invite and "?seat=" in invite and "?watch=" in watch
        copied = []
        buttons = ('[data-testid="copy-link"][data-seat="0"]', '[data-testid="copy-spectator"]')
        for button in buttons:
            page.evaluate("navigator.clipboard.writeText('')")
            page.locator(button).click()
            expect(page.get_by_test_id("toast").last).to_have_text("Link copied")
            copied.append(page.evaluate("navigator.clipboard.readText()"))
        assert copied == [invite, watch]
    finally:
        page.context.close()
    spectator = open_page(browser, watch)
    try:
        expect(spectator.get_by_test_id("prompt")).not_to_be_empty()
        expect(spectator.get_by_test_id("queue")).to_be_visible()
        assert spectator.locator('[data-testid="legal-option"]').count() == 0
        assert spectator.locator('[data-testid="hand-card"]').count() == 0
    finally:
        spectator.context.close()


def test_the_game_page_says_it_reconnects_while_its_server_is_away(
    browser: Browser, tmp_path: Path
) -> None:
    """kill -9 of the server: the banner says the page is reconnecting; the server back (same
    port, same database), the banner goes and the page shows the game again."""
    db, port = tmp_path / "games.sqlite3", free_port()
    with running_server(db, tmp_path / "a.log", port=port) as (process, client):
        seats = [ANN, BEN]
        table = client.post("/api/tables", json={"players": 2, "seats": seats}).json()
        link = f"{client.base_url}/t/{table['table_id']}?seat={table['seats'][0]['token']}"
        page = open_page(browser, link)
        banner = page.get_by_test_id("reconnecting")
        expect(page.get_by_test_id("legal-option").first).to_be_visible()
        expect(banner).to_be_hidden()
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        try:
            expect(banner).to_be_visible(timeout=TIMEOUT_MS)
            expect(banner).to_contain_text("reconnecting")
        except AssertionError:
            page.context.close()
            raise
    try:
        with running_server(db, tmp_path / "b.log", port=port):
            expect(banner).to_be_hidden(timeout=RECONNECT_MS)
            expect(page.get_by_test_id("legal-option").first).to_be_enabled()
    finally:
        page.context.close()


GLYPHS_JS = """async ([slugs, colours]) => {
  const cards = await import("/static/js/cards.js");
  const drawn = (node) => node.innerHTML;  // what is drawn, not the element's classes
  return {
    glyphs: slugs.map((slug) => drawn(cards.typeGlyph(slug))),
    unknown: drawn(cards.typeGlyph("no_such_card")),
    blazons: colours.map((colour) => drawn(cards.blazon(colour))),
  };
}"""


def test_the_client_draws_every_card_type_and_family_of_the_engine(
    browser: Browser, server_url: str
) -> None:
    """The client's card module, loaded by the page: a glyph of its own for each of the
    engine's card types (none falls back to the unknown card's), a blazon of its own for each
    family colour (a missing one would fall back to red's)."""
    page = open_page(browser, f"{server_url}/")
    try:
        slugs = [t.slug for t in CardType]
        drawn = page.evaluate(GLYPHS_JS, [slugs, list(FAMILY_COLOURS)])
    finally:
        page.context.close()
    assert len(set(drawn["glyphs"])) == len(slugs) and drawn["unknown"] not in drawn["glyphs"]
    assert all(drawn["glyphs"]) and all(drawn["blazons"])
    assert len(set(drawn["blazons"])) == len(FAMILY_COLOURS)
