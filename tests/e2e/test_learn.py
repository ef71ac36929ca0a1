"""End-to-end in Chromium: the guided games (/learn) and the rules page (/rules) (#31).

Each lesson is played to its end by following its highlights only: "Next" when the step is
read, else the one highlighted place on the board. A learner who strays is explained why and
corrected (or plays on, off the lesson); steps can be gone back over, and the progress stays in
the browser. With ``ORIFLAMME_SCREENSHOTS=docs`` the tests also write the screenshots of
docs/server.md ("Learning to play").
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

try:
    from playwright.sync_api import Browser, BrowserContext, Page, expect
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from sizes_and_seats import DESKTOP, PHONE

pytestmark = pytest.mark.e2e

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCREENSHOT_WIDTH = 860
#: The board's places where a move is made (the side list of options is not the board).
BOARD_TARGET = ".lesson-target:not(.option)"


class Learner:
    """A page of /learn and what went wrong on it."""

    def __init__(self, context: BrowserContext) -> None:
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console", lambda m: self.errors.append(m.text) if m.type == "error" else None
        )

    def step(self) -> int:
        expect(self.page.locator("body:not(.busy)")).to_have_count(1)
        return int(self.page.evaluate("document.body.dataset.step"))

    def wait_for_step(self, step: int) -> None:
        expect(self.page.locator(f'body[data-step="{step}"]:not(.busy)')).to_have_count(1)

    def follow(self) -> None:
        """Do what the step asks: read on, or click the one highlighted place on the board."""
        page = self.page
        step = self.step()
        next_button = page.get_by_test_id("lesson-next")
        if next_button.count():
            expect(page.locator(BOARD_TARGET)).to_have_count(0)
            next_button.click()
            self.wait_for_step(step + 1)
            return
        target = page.locator(BOARD_TARGET)
        expect(target).to_have_count(1)
        picking = target.get_attribute("data-testid") == "hand-card"
        target.click()
        if picking:  # a hand card picked: now where it goes
            expect(page.locator(BOARD_TARGET)).not_to_have_attribute("data-testid", "hand-card")
            page.locator(BOARD_TARGET).click()
        self.wait_for_step(step + 1)


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport=DESKTOP, locale="en-US", reduced_motion="reduce")
    yield made
    made.close()


def lesson_steps(server_url: str, lesson: str) -> int:
    lessons = httpx.get(f"{server_url}/api/lessons", timeout=10).json()
    return int(next(x["steps"] for x in lessons if x["id"] == lesson))


def screenshot(page: Page, name: str) -> None:
    """With ``ORIFLAMME_SCREENSHOTS=docs``: the page into docs/NAME (at most 860 pixels wide,
    128 colours, when Pillow is installed)."""
    if os.environ.get("ORIFLAMME_SCREENSHOTS") != "docs":
        return
    path = DOCS / name
    page.screenshot(path=str(path), type="png")
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB")
        if image.width > SCREENSHOT_WIDTH:
            height = round(image.height * SCREENSHOT_WIDTH / image.width)
            small = small.resize((SCREENSHOT_WIDTH, height), Image.Resampling.LANCZOS)
    small.quantize(colors=128).save(path, optimize=True)


def start_lesson(learner: Learner, server_url: str, lesson: str) -> None:
    page = learner.page
    page.goto(f"{server_url}/learn")
    card = page.locator(f'[data-testid="lesson-card"][data-lesson="{lesson}"]')
    card.get_by_test_id("lesson-open").click()
    expect(page).to_have_url(re.compile(rf"/learn\?lesson={lesson}$"))
    learner.wait_for_step(0)


@pytest.mark.parametrize(("lesson", "score"), [("base", 19), ("embrasement", 22)])
def test_a_lesson_is_played_to_its_end_by_following_its_highlights(
    context: BrowserContext, server_url: str, lesson: str, score: int
) -> None:
    learner = Learner(context)
    page = learner.page
    steps = lesson_steps(server_url, lesson)
    start_lesson(learner, server_url, lesson)
    expect(page.get_by_test_id("coach-progress")).to_have_text(f"Step 1 of {steps}")
    while learner.step() < steps - 1:
        learner.follow()
    expect(page.get_by_test_id("lesson-end")).to_be_visible()
    expect(page.get_by_test_id("prompt")).to_have_text("The game is over")
    you = page.locator('[data-testid="player"][data-seat="0"]')
    expect(you.get_by_test_id("influence-coin")).to_have_text(str(score))
    # The lesson is done: the list of lessons says so.
    page.get_by_test_id("all-lessons").click()
    card = page.locator(f'[data-testid="lesson-card"][data-lesson="{lesson}"]')
    expect(card.get_by_test_id("lesson-status")).to_have_text("Finished")
    assert learner.errors == []


def test_a_learner_who_strays_is_explained_the_lesson_and_can_play_on(
    context: BrowserContext, server_url: str
) -> None:
    learner = Learner(context)
    page = learner.page
    start_lesson(learner, server_url, "base")
    for _ in range(3):
        learner.follow()
    learner.wait_for_step(3)  # "Place your first card": the Heir
    heir = page.locator(BOARD_TARGET)
    expect(heir).to_have_attribute("data-card-type", "heir")
    # The learner places the Soldier instead: explained, not played.
    page.locator('[data-testid="hand-card"][data-card-type="soldier"]').click()
    page.get_by_test_id("drop-end").click()
    stray = page.get_by_test_id("stray")
    expect(stray).to_be_visible()
    expect(stray).to_contain_text("You chose: Place Soldier at the end of the Queue.")
    expect(stray.get_by_test_id("stray-reason")).to_have_text(re.compile("Start with the Heir"))
    expect(page.get_by_test_id("queue-card")).to_have_count(0)
    expect(page.locator("body")).to_have_attribute("data-step", "3")
    # Back to the lesson's move: the Heir is highlighted again, and the lesson goes on.
    stray.get_by_test_id("stray-retry").click()
    expect(stray).to_be_hidden()
    expect(page.locator(BOARD_TARGET)).to_have_attribute("data-card-type", "heir")
    learner.follow()
    learner.wait_for_step(4)
    while learner.step() < 12:
        learner.follow()
    # "Eliminate a card": the lesson wants Green's Spy; the learner takes Blue's Lord anyway.
    lord = page.locator('[data-testid="queue-card"][data-card-type="lord"][data-family="1"]')
    lord.click()
    expect(page.get_by_test_id("stray")).to_contain_text("Eliminate the Spy.")
    expect(page.get_by_test_id("log").locator("li").last).not_to_contain_text("eliminated")
    page.get_by_test_id("stray-anyway").click()
    expect(page.get_by_test_id("coach-title")).to_have_text("Off the lesson")
    expect(page.get_by_test_id("log")).to_contain_text("Red eliminated Blue Lord with Soldier")
    # Off the lesson the bots answer; the learner may play on...
    page.locator(".exploring").wait_for()
    options = page.get_by_test_id("legal-option")
    if options.count():
        options.first.click()
        expect(page.locator("body:not(.busy)")).to_have_count(1)
    # ... and come back to the lesson where it was left.
    page.get_by_test_id("back-to-lesson").click()
    expect(page.get_by_test_id("coach-title")).to_have_text("Eliminate a card")
    expect(page.locator(BOARD_TARGET)).to_have_attribute("data-card-type", "spy")
    expect(page.get_by_test_id("log")).not_to_contain_text("Red eliminated Blue Lord")
    assert learner.errors == []


def tab_to_the_step(page: Page) -> str:
    """Press Tab until the focus is on what the step asks for (the highlighted place or
    option, or "Next"); the focused element's test id."""
    for _ in range(80):
        page.keyboard.press("Tab")
        testid, highlighted = page.evaluate(
            "(() => { const e = document.activeElement;"
            " return [e.dataset.testid || '', e.classList.contains('lesson-target')]; })()"
        )
        if testid == "lesson-next" or highlighted:
            return str(testid)
    pytest.fail("Tab never reached what the step asks for")


def test_a_lesson_can_be_followed_with_the_keyboard_alone(
    context: BrowserContext, server_url: str
) -> None:
    """Tab to what the step highlights, Enter: the lesson goes on."""
    learner = Learner(context)
    page = learner.page
    start_lesson(learner, server_url, "base")
    for step in range(8):
        learner.wait_for_step(step)
        if tab_to_the_step(page) == "hand-card":
            page.keyboard.press("Enter")  # the card is picked: now Tab on to where it goes
            expect(page.locator('[data-testid="hand-card"].selected')).to_have_count(1)
            tab_to_the_step(page)
        page.keyboard.press("Enter")
        learner.wait_for_step(step + 1)
    expect(page.get_by_test_id("coach-title")).to_have_text("The end of a round")
    assert learner.errors == []


def test_back_a_step_leave_and_resume(context: BrowserContext, server_url: str) -> None:
    learner = Learner(context)
    page = learner.page
    start_lesson(learner, server_url, "base")
    while learner.step() < 7:
        learner.follow()
    title = page.get_by_test_id("coach-title").text_content()
    page.get_by_test_id("lesson-back").click()
    learner.wait_for_step(6)
    expect(page.get_by_test_id("coach-title")).to_have_text("Reveal your Heir")
    # The learner's Heir is face down again: the step shows the game as it was.
    heir = page.locator('[data-testid="queue-card"][data-card-type="heir"]')
    expect(heir).to_have_attribute("data-face-up", "false")
    learner.follow()
    expect(page.get_by_test_id("coach-title")).to_have_text(title or "")
    # Leave, come back later: the lesson resumes where it was, from the browser's storage.
    page.get_by_test_id("leave-lesson").click()
    card = page.locator('[data-testid="lesson-card"][data-lesson="base"]')
    expect(card.get_by_test_id("lesson-status")).to_have_text("Step 8 of 34")
    expect(card.get_by_test_id("lesson-open")).to_have_text("Resume")
    page.goto(f"{server_url}/")
    page.goto(f"{server_url}/learn?lesson=base")
    learner.wait_for_step(7)
    expect(page.get_by_test_id("coach-title")).to_have_text(title or "")
    # Starting again asks first, then goes back to the first step.
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("restart-lesson").click()
    learner.wait_for_step(0)
    assert learner.errors == []


def test_the_end_offers_a_real_game_against_bots(
    context: BrowserContext, server_url: str
) -> None:
    learner = Learner(context)
    page = learner.page
    last = lesson_steps(server_url, "base") - 1
    page.goto(f"{server_url}/learn")
    page.evaluate(
        "(step) => localStorage.setItem('oriflamme.learn.base', JSON.stringify({step}))", last
    )
    page.goto(f"{server_url}/learn?lesson=base")
    learner.wait_for_step(last)
    expect(page.get_by_test_id("next-lesson")).to_have_text(
        "Next lesson: Embrasement, for two players"
    )
    page.get_by_test_id("play-real-game").click()
    expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+\?seat="))
    expect(page.get_by_test_id("player")).to_have_count(3)
    expect(page.get_by_test_id("hint-button")).to_be_visible()
    table_id = page.url.split("/t/")[1].split("?")[0]
    summary = httpx.get(f"{server_url}/api/tables/{table_id}", timeout=10).json()
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "bot"]
    assert [s["level"] for s in summary["seats"][1:]] == ["easy", "easy"]
    assert summary["hints"] is True
    creator = page.evaluate(f"localStorage.getItem('oriflamme.creator.{table_id}')")
    assert creator, "the creator's token is kept, as the lobby does"
    assert learner.errors == []


def test_card_help_links_to_the_cards_entry_on_the_rules_page(
    context: BrowserContext, server_url: str
) -> None:
    learner = Learner(context)
    page = learner.page
    start_lesson(learner, server_url, "base")
    heir = page.locator('[data-testid="hand-card"][data-card-type="heir"]')
    heir.hover()
    tip = page.get_by_test_id("card-tooltip")
    expect(tip).to_be_visible()
    link = tip.get_by_test_id("tip-rules-link")
    expect(link).to_have_attribute("href", "/rules?lang=en#card-heir")
    expect(link).to_have_attribute("target", "_blank")
    # The help stays open while the pointer moves onto it, so its link can be followed.
    with context.expect_page() as opened:
        link.click()
    rules = opened.value
    expect(rules).to_have_url(re.compile(r"/rules\?lang=en#card-heir$"))
    entry = rules.locator("#card-heir")
    expect(entry.get_by_test_id("card-ability")).to_have_text(re.compile("Gain 2 Influence"))
    expect(entry).to_be_in_viewport()
    assert learner.errors == []


def test_the_rules_page_in_both_languages_with_its_gallery(
    context: BrowserContext, server_url: str
) -> None:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server_url}/rules#card-cutthroat")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("gallery-card")).to_have_count(21)
    cutthroat = page.locator("#card-cutthroat")
    expect(cutthroat.locator("h4")).to_contain_text("Cutthroat")
    expect(cutthroat).to_be_in_viewport()
    # A card's clarifications, and back from a clarification to its cards.
    cutthroat.get_by_role("link", name="What does the Queen do?").click()
    expect(page).to_have_url(re.compile("#r-queen-1$"))
    clarification = page.locator("#r-queen-1")
    expect(clarification).to_be_in_viewport()
    clarification.get_by_role("link", name="Queen").click()
    expect(page.locator("#card-queen")).to_be_in_viewport()
    # French, at the same place, and remembered for the next visit.
    page.get_by_test_id("lang-fr").click()
    expect(page).to_have_url(re.compile(r"/rules\?lang=fr#card-queen$"))
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#card-queen h4")).to_contain_text("Reine")
    expect(page.locator("#card-queen").get_by_test_id("card-ability")).to_have_text(
        re.compile("Gagnez 2 Influence")
    )
    page.goto(f"{server_url}/rules")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page).to_have_url(re.compile(r"/rules\?lang=fr$"))
    # Printed: the rules and the cards, without the page's chrome.
    page.emulate_media(media="print")
    expect(page.locator(".topbar")).to_be_hidden()
    expect(page.locator(".toc")).to_be_hidden()
    expect(page.locator("#clarifications")).to_be_visible()
    assert errors == []


def test_the_lobby_links_to_the_lesson_and_the_rules(
    context: BrowserContext, server_url: str
) -> None:
    page = context.new_page()
    page.goto(f"{server_url}/")
    page.get_by_test_id("learn-link").click()
    expect(page).to_have_url(re.compile(r"/learn$"))
    expect(page.get_by_test_id("lesson-card")).to_have_count(2)
    page.goto(f"{server_url}/")
    page.get_by_test_id("rules-link").click()
    expect(page.locator("h1")).to_have_text("The rules of Oriflamme")


# ---------------------------------------------------------------------------- screenshots
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_screenshots_of_the_learning_pages(
    browser: Browser, server_url: str, lang: str, size: str
) -> None:
    """The guided game at a step that waits for a move, and the rules page at its card
    gallery, in each language and size; written into docs/ on request (module docstring)."""
    viewport = DESKTOP if size == "desktop" else PHONE
    made = browser.new_context(
        viewport=viewport, locale="fr-FR" if lang == "fr" else "en-US", reduced_motion="reduce"
    )
    try:
        learner = Learner(made)
        page = learner.page
        page.goto(f"{server_url}/learn")
        page.evaluate(
            "(lang) => localStorage.setItem('oriflamme.lang', lang)", lang
        )
        start_lesson(learner, server_url, "base")
        while learner.step() < 9:
            learner.follow()
        page.locator(BOARD_TARGET).click()  # the Soldier picked: its place is highlighted
        expect(page.locator(BOARD_TARGET)).to_have_attribute("data-testid", "stack")
        expect(page.get_by_test_id("coach-title")).to_have_text(
            "Stack a card on your own" if lang == "en" else "Posez une carte sur la vôtre"
        )
        page.mouse.move(0, 0)  # no card help over the board
        expect(page.get_by_test_id("card-tooltip")).to_be_hidden()
        page.evaluate("window.scrollTo(0, 0)")
        page.locator(BOARD_TARGET).scroll_into_view_if_needed()
        screenshot(page, f"learn-{size}-{lang}.png")
        page.goto(f"{server_url}/rules#card-shapeshifter")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.get_by_test_id("gallery-card")).to_have_count(21)
        expect(page.locator("#card-shapeshifter")).to_be_in_viewport()
        screenshot(page, f"rules-{size}-{lang}.png")
        assert learner.errors == []
    finally:
        made.close()


def test_progress_is_kept_per_lesson(context: BrowserContext, server_url: str) -> None:
    page = context.new_page()
    page.goto(f"{server_url}/learn")
    page.evaluate("localStorage.setItem('oriflamme.learn.embrasement', JSON.stringify({step: 4}))")
    page.evaluate("localStorage.setItem('oriflamme.learn.base', 'not json')")
    page.reload()
    cards = {
        name: page.locator(f'[data-testid="lesson-card"][data-lesson="{name}"]')
        for name in ("base", "embrasement")
    }
    expect(cards["embrasement"].get_by_test_id("lesson-status")).to_have_text("Step 5 of 24")
    expect(cards["base"].get_by_test_id("lesson-status")).to_have_text("Not started yet")
    stored: Any = page.evaluate("localStorage.getItem('oriflamme.learn.embrasement')")
    assert json.loads(stored) == {"step": 4}
