"""End-to-end in Chromium, at desktop and phone widths (issue #26): what a player sees of fair
play with strangers. A deal the creator chose is said on every page; a player whose seat was
handed to a bot is told so; the creator's buttons say what they expect of a seat; the end screen
and the replay page share a replay link that carries no seat token.

With ``ORIFLAMME_SCREENSHOTS=docs`` the tests also write the screenshots of docs/server.md.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

try:
    from playwright.sync_api import Browser, BrowserContext, Dialog, Page, ViewportSize, expect
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from scenarios import SHARED_VICTORY
from sizes_and_seats import ANN, BEN, DESKTOP_SHORT, EASY_BOT, OPEN, PHONE, RANDOM_BOT

pytestmark = pytest.mark.e2e

DOCS = Path(__file__).resolve().parents[2] / "docs"
Opener = Callable[..., Page]


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Opener]:
    """Pages each in a browser context of its own (one person each, allowed to use the
    clipboard), closed at the end; page errors fail the test."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def open_page(viewport: ViewportSize = DESKTOP_SHORT) -> Page:
        context = browser.new_context(
            viewport=viewport,
            locale="en-US",
            reduced_motion="reduce",
            permissions=["clipboard-read", "clipboard-write"],
        )
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert errors == []


def create(server_url: str, **fields: Any) -> dict[str, Any]:
    body = {"players": 2, "seats": [ANN, BEN], **fields}
    answer = httpx.post(f"{server_url}/api/tables", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def summary(server_url: str, table_id: str) -> dict[str, Any]:
    answer = httpx.get(f"{server_url}/api/tables/{table_id}", timeout=10)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def as_creator(page: Page, server_url: str, table: dict[str, Any]) -> None:
    """Remember the creator's token in this browser, as the lobby does after creating."""
    page.goto(f"{server_url}/")
    page.evaluate(
        "([id, token]) => localStorage.setItem(`oriflamme.creator.${id}`, token)",
        [table["table_id"], table["creator_token"]],
    )


def fits(page: Page) -> None:
    """Nothing on the page is wider than the window."""
    size = page.viewport_size
    assert size is not None
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"] + 1, width


def screenshot(page: Page, name: str) -> None:
    """With ``ORIFLAMME_SCREENSHOTS=docs``: the page into docs/NAME, made small (860 pixels
    wide, 128 colours) when Pillow is installed."""
    if os.environ.get("ORIFLAMME_SCREENSHOTS") != "docs":
        return
    path = DOCS / name
    page.screenshot(path=str(path), type="png")
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        width = min(860, image.width)
        small = image.convert("RGB").resize(
            (width, round(image.height * width / image.width)), Image.Resampling.LANCZOS
        )
    small.quantize(colors=128).save(path, optimize=True)


def test_every_page_of_a_custom_deal_says_so(new_page: Opener, server_url: str) -> None:
    table = create(server_url, seed=777)
    notice = "Custom deal chosen by the creator: they may know every hidden card."
    for seat, viewport in ((0, DESKTOP_SHORT), (1, PHONE)):
        page = new_page(viewport)
        page.goto(f"{server_url}{table['seats'][seat]['url']}")
        expect(page.get_by_test_id("custom-deal")).to_have_text(notice)
        fits(page)
        if seat == 0:
            screenshot(page, "custom-deal.png")
        page.get_by_test_id("lang-fr").click()
        expect(page.get_by_test_id("custom-deal")).to_have_text(
            "Donne choisie par le créateur de la table\u202f: il peut connaître toutes les cartes"
            " cachées."
        )
    watcher = new_page(PHONE)
    watcher.goto(f"{server_url}{table['spectator_url']}")
    expect(watcher.get_by_test_id("custom-deal")).to_be_visible()
    # A deal of the server's: no such notice.
    dealt = create(server_url)
    page = new_page()
    page.goto(f"{server_url}{dealt['seats'][0]['url']}")
    expect(page.get_by_test_id("waiting")).to_have_text("Your turn")
    expect(page.get_by_test_id("custom-deal")).to_be_hidden()


def test_a_stranger_is_handed_over_only_once_away_and_is_told(
    new_page: Opener, server_url: str
) -> None:
    table = create(
        server_url, public=True, seats=[ANN, OPEN], absent_after=2
    )
    table_id = table["table_id"]
    creator = new_page()
    as_creator(creator, server_url, table)
    creator.goto(f"{server_url}{table['seats'][0]['url']}")
    # The creator lets a bot take the open seat: the request says it expects an open seat.
    offer = creator.get_by_test_id("fill-with-bot")
    expect(offer).to_be_visible()
    ben = httpx.post(
        f"{server_url}/api/tables/{table_id}/join", json={"name": "Ben"}, timeout=10
    ).json()
    expect(offer).to_have_count(0)  # Ben took it: the offer is gone at once
    stranger = new_page(PHONE)
    stranger.goto(f"{server_url}{ben['url']}")
    expect(stranger.get_by_test_id("waiting")).to_have_text(re.compile("Waiting for Ann"))
    hand_over = creator.get_by_test_id("hand-to-bot")
    time.sleep(2.5)  # longer than the table's absence limit: Ben is connected, not away
    expect(hand_over).to_have_count(0)

    stranger.close()
    expect(hand_over).to_be_visible(timeout=15_000)  # away for the table's limit
    asked: list[str] = []

    def accept(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    creator.once("dialog", accept)
    with creator.expect_request(re.compile(r"/seats/1/bot$")) as sent:
        hand_over.click()
    assert sent.value.post_data_json["expect"] == "away"
    assert asked and "Ben" in asked[0]
    expect(creator.get_by_test_id("toast")).to_contain_text("Ben's seat is now played by a bot")
    assert summary(server_url, table_id)["seats"][1]["kind"] == "bot"

    # Ben comes back to his link: he is told what happened, in his language, and watches.
    back = new_page(PHONE)
    back.goto(f"{server_url}{ben['url']}")
    told = back.get_by_test_id("handed-over")
    expect(told).to_have_text(
        "Your seat was handed to a bot by the table's creator: this link now only lets you watch."
    )
    expect(back.get_by_test_id("spectator-badge")).to_be_visible()
    fits(back)
    screenshot(back, "handed-over.png")
    back.get_by_test_id("lang-fr").click()
    expect(told).to_contain_text("Le créateur de la table a confié votre place à un robot")


def test_the_creator_fills_an_open_seat_saying_so(new_page: Opener, server_url: str) -> None:
    table = create(server_url, public=True, seats=[ANN, OPEN])
    creator = new_page(PHONE)
    as_creator(creator, server_url, table)
    creator.goto(f"{server_url}{table['seats'][0]['url']}")
    with creator.expect_request(re.compile(r"/seats/1/bot$")) as sent:
        creator.get_by_test_id("fill-with-bot").click()
    assert sent.value.post_data_json == {
        "creator_token": table["creator_token"],
        "level": "medium",
        "expect": "open",
    }
    expect(creator.get_by_test_id("waiting")).to_have_text("Your turn")


def test_the_end_screen_shares_a_replay_link_not_a_seat(
    new_page: Opener, server_url: str
) -> None:
    seats = [ANN, RANDOM_BOT, EASY_BOT]
    table = create(server_url, players=3, seats=seats, save=SHARED_VICTORY)
    ann = table["seats"][0]
    for viewport in (DESKTOP_SHORT, PHONE):
        page = new_page(viewport)
        page.goto(f"{server_url}{ann['url']}")
        if viewport is DESKTOP_SHORT:
            page.locator('[data-testid="legal-option"][data-kind="leave"]').click()
        end = page.get_by_test_id("end-screen")
        expect(end).to_be_visible()
        link = page.get_by_test_id("replay-link").get_attribute("href") or ""
        query = parse_qs(urlsplit(link).query)
        assert ann["token"] not in link and query["view"] == ["0"] and query["game"] == ["1"]
        page.get_by_test_id("share-replay").click()
        expect(page.get_by_test_id("toast")).to_contain_text("Replay link copied")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied.startswith(f"{server_url}/t/{table['table_id']}/replay?")
        assert ann["token"] not in copied and table["creator_token"] not in copied
        assert parse_qs(urlsplit(copied).query)["token"] == query["token"]
        fits(page)
        if viewport is DESKTOP_SHORT:
            screenshot(page, "share-replay.png")

    # A stranger opens the shared link: the whole game, read only.
    stranger = new_page(PHONE)
    stranger.goto(copied)
    expect(stranger.get_by_test_id("step-counter")).to_have_text("Step 1 / 1")
    expect(stranger.get_by_test_id("view-select")).to_have_value("all")
    fits(stranger)
    view = httpx.get(
        f"{server_url}/api/tables/{table['table_id']}/view",
        params={"token": parse_qs(urlsplit(copied).query)["token"][0]},
        timeout=10,
    )
    assert view.status_code == 401  # the game's replay, nothing else

    # Ann opens her replay with her seat's old-style link: the address bar shows the replay
    # link instead, so that what she copies from it gives no seat away.
    page = new_page()
    page.goto(f"{server_url}/t/{table['table_id']}/replay?game=1&token={ann['token']}&round=6")
    expect(page.get_by_test_id("step-counter")).to_have_text("Step 1 / 1")
    page.wait_for_url(re.compile(r"/replay\?.*token="))
    assert ann["token"] not in page.url and "round=6" in page.url
    expect(page.get_by_test_id("view-select")).to_have_value("0")  # as she saw it
    page.get_by_test_id("lang-fr").click()
    expect(page.get_by_test_id("share-replay")).to_have_text("Partager ce rejeu")
    page.get_by_test_id("share-replay").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Lien du rejeu copié")
    assert page.evaluate("navigator.clipboard.readText()") == copied


def test_the_create_form_refuses_what_the_server_would(
    new_page: Opener, server_url: str
) -> None:
    """Names shared by two seats, a bot's name for a person, and a saved game offered to
    strangers are refused in the form, in the page's language, before anything is sent."""
    page = new_page(PHONE)
    page.goto(f"{server_url}/")
    page.get_by_test_id("players-count").select_option("3")
    rows = page.get_by_test_id("seat-row")
    for seat, name in enumerate(("Host", "host")):
        rows.nth(seat).get_by_test_id("seat-kind").select_option("human")
        rows.nth(seat).get_by_test_id("seat-name").fill(name)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    error = page.get_by_test_id("form-error")
    page.get_by_test_id("create-game").click()
    expect(error).to_have_text("Two seats cannot have the same name.")
    rows.nth(1).get_by_test_id("seat-name").fill("Blue bot (hard)")
    page.get_by_test_id("create-game").click()
    expect(error).to_have_text("Names like “Blue bot (hard)” are the bots’.")
    rows.nth(1).get_by_test_id("seat-name").fill("\u3164")
    page.get_by_test_id("create-game").click()
    expect(error).to_have_text("A name must show at least one letter, digit or sign.")
    page.get_by_test_id("lang-fr").click()
    page.get_by_test_id("create-game").click()
    expect(error).to_have_text("Un nom doit montrer au moins une lettre, un chiffre ou un signe.")
    page.get_by_test_id("lang-en").click()

    page.get_by_test_id("save-file").set_input_files(
        files={
            "name": "save.json",
            "mimeType": "application/json",
            "buffer": json.dumps(SHARED_VICTORY).encode(),
        }
    )
    rows.nth(1).get_by_test_id("seat-name").fill("Ben")
    rows.nth(2).get_by_test_id("seat-kind").select_option("open")
    page.get_by_test_id("create-game").click()
    expect(error).to_contain_text("A saved game cannot have open seats")
    fits(page)
    assert sent == []  # nothing reached the server
