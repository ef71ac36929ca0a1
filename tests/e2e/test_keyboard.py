"""End-to-end: a whole game against bots played with the keyboard alone (issue #31), and what a
screen reader is given: accessible names of the Queue's stacks, polite announcements of "your
turn", of new log lines and of the clock, a layout that holds at 320 px and at 200 % zoom.

The player only presses keys (Tab, the arrow keys, Enter, Escape): never a click. Each decision
is made on the board (a hand card, then a place in the Queue; reveal or leave; a target; a gap;
a player; gain or spend), chosen at random with a seeded generator among the board's legal
controls, and reached by tabbing to its region then moving with the arrow keys. Every control
reached must show a visible focus.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

try:
    from playwright.sync_api import Browser, BrowserContext, Page, expect
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from test_browser import (
    BOARD_SELECTOR,
    DESKTOP,
    Record,
    attribute_selector,
    check_end_screen,
    server_view,
    snapshot,
    wait_for_turn,
)
from test_decisions import position

pytestmark = pytest.mark.e2e

GAME_TIMEOUT_S = 90.0
MAX_DECISIONS = 300
MAX_KEYS_PER_MOVE = 120
#: Every announcement of the page's polite live region, kept in window.announced.
RECORD_ANNOUNCEMENTS_JS = """
window.announced = [];
new MutationObserver(() => {
  const region = document.querySelector('[data-testid="announcer"]');
  if (region && region.textContent) window.announced.push(region.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
#: What has the focus: its action or card, the roving region it is in, and how it is outlined.
FOCUSED_JS = """() => {
  const node = document.activeElement;
  if (!node || node === document.body) return null;
  const style = getComputedStyle(node);
  return {
    action: node.dataset.action || null,
    card: node.dataset.cardId || null,
    testid: node.dataset.testid || null,
    className: node.className || null,
    region: node.closest("[data-roving]")?.dataset.roving || null,
    outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
  };
}"""


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport=DESKTOP, locale="en-US")
    made.add_init_script(RECORD_ANNOUNCEMENTS_JS)
    yield made
    made.close()


def create(server_url: str, **fields: Any) -> dict[str, Any]:
    body = {
        "players": 3,
        "seats": [
            {"kind": "human", "name": "Kim"},
            {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "easy"},
        ],
        **fields,
    }
    answer = httpx.post(f"{server_url}/api/tables", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def focused(page: Page) -> dict[str, Any] | None:
    found: dict[str, Any] | None = page.evaluate(FOCUSED_JS)
    return found


def region_of(page: Page, selector: str) -> str | None:
    found: str | None = page.locator(selector).first.evaluate(
        "(node) => node.closest('[data-roving]')?.dataset.roving || null"
    )
    return found


def keyboard_to(page: Page, selector: str, matches: str) -> dict[str, Any]:
    """Move the focus with Tab, then the arrow keys within the target's region, until the
    focused element is ``selector``; ``matches`` tells it by its data-action or its card id."""
    region = region_of(page, selector)
    wanted = page.locator(selector).first.evaluate(f"(node) => node.dataset.{matches} || null")
    for _ in range(MAX_KEYS_PER_MOVE):
        now = focused(page)
        key = "action" if matches == "action" else "card"
        if now is not None and now[key] == wanted:
            assert now["outline"], f"no visible focus on {now}"
            return now
        in_region = now is not None and region is not None and now["region"] == region
        page.keyboard.press("ArrowRight" if in_region else "Tab")
    raise AssertionError(f"the keyboard never reached {selector}")


def tab_to_region(page: Page, region: str) -> dict[str, Any]:
    """From the prompt, press Tab until the focus is in ``region``; what has the focus then."""
    page.get_by_test_id("prompt").focus()
    for _ in range(MAX_KEYS_PER_MOVE):
        page.keyboard.press("Tab")
        now = focused(page)
        if now is not None and now["region"] == region:
            return now
    raise AssertionError(f"Tab never reached {region}")


def decide_by_keyboard(page: Page, rng: random.Random, record: Record) -> None:
    turn = wait_for_turn([page], time.monotonic() + 20)
    assert turn is not None
    seen = turn[1]
    actions = {key: json.loads(key) for key in seen.legal}
    placeable = sorted({a["card"] for a in actions.values() if a["kind"] in ("place", "twin")})
    if placeable:
        card = rng.choice(placeable)
        selector = f'[data-testid="hand-card"][data-card-id="{card}"]'
        hand_card = page.locator(selector)
        if hand_card.get_attribute("aria-pressed") != "true":
            keyboard_to(page, selector, "cardId")
            page.keyboard.press("Enter")
            expect(hand_card).to_have_attribute("aria-pressed", "true")
            if not record.kinds["escape"] and len(placeable) > 1:
                page.keyboard.press("Escape")  # changes their mind, then chooses it again
                expect(hand_card).to_have_attribute("aria-pressed", "false")
                page.keyboard.press("Enter")
                expect(hand_card).to_have_attribute("aria-pressed", "true")
                record.kinds["escape"] += 1
        seen = snapshot(page)
    board = sorted(seen.board)
    assert board, f"nothing on the board to choose: {seen}"
    key = rng.choice(board)
    target = f":is({BOARD_SELECTOR}){attribute_selector('data-action', key)}"
    keyboard_to(page, target, "action")
    step = page.evaluate("document.body.dataset.step")
    page.keyboard.press("Enter")
    record.kinds[actions[key]["kind"]] += 1
    page.wait_for_function("(step) => document.body.dataset.step !== step", arg=step)


def test_a_whole_game_against_bots_with_the_keyboard_alone(
    context: BrowserContext, server_url: str
) -> None:
    table = create(server_url, seed=31)
    link = f"{server_url}{table['seats'][0]['url']}"
    page = context.new_page()
    record = Record()
    record.watch(page)
    page.goto(link)
    expect(page.get_by_test_id("player")).to_have_count(3)
    rng = random.Random(31)
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while wait_for_turn([page], deadline) is not None:
        assert record.decisions < MAX_DECISIONS
        decide_by_keyboard(page, rng, record)
    check_end_screen(page, server_view(server_url, link))
    assert record.page_errors == []
    assert record.kinds["place"] >= 6 and record.kinds["escape"] == 1, record
    assert record.kinds["reveal"] + record.kinds["leave"] > 0, record
    # The end screen takes the focus? It is reachable: its first button by Tab.
    announced = page.evaluate("window.announced")
    assert any(text.startswith("Your turn.") for text in announced), announced
    log = page.get_by_test_id("log-line").all_inner_texts()
    assert any(line in text for text in announced for line in log[-3:]), (announced[-5:], log)
    print(f"\nkeyboard game: {dict(record.kinds)}")


def test_the_tab_order_is_prompt_options_hand_queue(
    context: BrowserContext, server_url: str
) -> None:
    table = create(server_url, seed=5)
    page = context.new_page()
    page.goto(f"{server_url}{table['seats'][0]['url']}")
    expect(page.locator('[data-testid="hand-card"][data-selectable="true"]').first).to_be_visible()
    # A card chosen from the keyboard: the Queue's places then take a stop too.
    tab_to_region(page, "hand-0")
    page.keyboard.press("Enter")
    expect(page.locator('[data-testid="drop-end"][data-action]')).to_have_count(1)
    page.get_by_test_id("prompt").focus()
    stops = []
    for _ in range(12):  # to the page's last stop
        page.keyboard.press("Tab")
        if (now := focused(page)) is None:
            break
        stops.append(now["region"] or now["testid"] or now["className"])
    # One stop each: the options, the log, the chat beside it (its tab, messages, field, Send
    # and phrases), the hand (after its "Cancel"), the Queue.
    chat = ["chat-tab-players", "chat-scroll", "chat-input", "chat-send", "chat-phrases"]
    assert stops == [
        "legal-options", "log-scroll", *chat, "cancel-selection", "hand-0", "queue"
    ], stops
    # Within a region the arrow keys move: along the hand, to its next card.
    first = tab_to_region(page, "hand-0")["card"]
    page.keyboard.press("ArrowRight")
    second = focused(page)
    assert second is not None and second["region"] == "hand-0" and second["card"] != first


#: A Machination with 2 tokens on stack 2 (red's, face down), resolving; others face up.
NAMED = position(
    [["blue:spy*"], ["red:machination+2"], ["red:soldier*", "green:archer*"]], 1
)


def test_every_stack_of_the_queue_has_a_name(context: BrowserContext, server_url: str) -> None:
    body = {"players": 3, "seats": [{"kind": "human", "name": "Kim"},
            {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}], "save": NAMED}
    answer = httpx.post(f"{server_url}/api/tables", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    page = context.new_page()
    page.goto(f"{server_url}{answer.json()['seats'][0]['url']}")
    stacks = page.get_by_test_id("stack")
    expect(stacks).to_have_count(3)
    expect(stacks.nth(1)).to_have_attribute("role", "group")
    names = [stacks.nth(i).get_attribute("aria-label") for i in range(3)]
    print(names)
    assert names == [
        "Queue position 1: Blue Spy",
        "Queue position 2: your Machination (face down), 2 Influence tokens, being resolved",
        "Queue position 3: Green Archer, 2 cards in this stack",
    ]
    page.get_by_test_id("lang-fr").focus()
    page.keyboard.press("Enter")
    expect(stacks.nth(0)).to_have_attribute("aria-label", re.compile("^File, position 1\u202f: "))
    # The reveal and leave buttons sit in a card that is a group, not an image.
    reveal = page.get_by_test_id("reveal-button")
    expect(reveal).to_have_count(1)
    card = reveal.locator("xpath=ancestor::*[@data-testid='queue-card'][1]")
    expect(card).to_have_attribute("role", "group")


def test_the_clock_of_ones_own_decision_is_announced(
    context: BrowserContext, server_url: str
) -> None:
    table = create(server_url, seed=7, clock={"per_decision": 20})
    page = context.new_page()
    page.goto(f"{server_url}{table['seats'][0]['url']}")
    expect(page.get_by_test_id("prompt-clock")).to_be_visible()
    page.wait_for_function(
        "() => window.announced.some((text) => /left to decide/.test(text))", timeout=15_000
    )


#: The narrowest screen WCAG asks for (1.4.10), and a 1280 px window zoomed to 200 %.
NARROW: list[tuple[str, dict[str, int]]] = [
    ("320 px", {"width": 320, "height": 640}),
    ("200 % zoom", {"width": 640, "height": 450}),
]
#: Anything wider than the window, but for the regions meant to scroll sideways.
OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  const inScroller = (node) => node.closest(".queue-scroll, .hand-cards, .log-scroll, pre");
  const wide = [...document.querySelectorAll("body *")].filter((node) => {
    const box = node.getBoundingClientRect();
    return box.width > 0 && (box.right > width + 1 || box.left < -1) && !inScroller(node)
      && getComputedStyle(node).position !== "fixed" && !node.closest("[hidden]");
  });
  return { scroll: document.documentElement.scrollWidth, width,
           wide: wide.slice(0, 5).map((n) => n.className || n.tagName) };
}"""


def test_nothing_is_lost_at_320_px_or_at_200_percent_zoom(
    browser: Browser, server_url: str
) -> None:
    table = create(server_url, seed=3)
    pages = {
        "lobby": ("/", "create-game"),
        "game": (table["seats"][0]["url"], "hand-card"),
        "learn": ("/learn", "lesson-open"),
        "rules": ("/rules?lang=fr", "print-rules"),
    }
    problems = []
    for name, viewport in NARROW:
        context = browser.new_context(viewport=viewport, device_scale_factor=2, locale="en-US")
        try:
            page = context.new_page()
            for where, (path, control) in pages.items():
                page.goto(f"{server_url}{path}")
                expect(page.get_by_test_id(control).first).to_be_visible()
                seen = page.evaluate(OVERFLOW_JS)
                if seen["scroll"] > seen["width"] or seen["wide"]:
                    problems.append((name, where, seen))
        finally:
            context.close()
    assert problems == []


#: The motion of a page's first button and of the deciding player's panel, as drawn.
MOTION_JS = """() => {
  const button = getComputedStyle(document.querySelector('[data-testid="legal-option"]'));
  return {
    transition: button.transitionDuration,
    animations: [...document.querySelectorAll('*')]
      .map((node) => getComputedStyle(node).animationName)
      .filter((name) => name && name !== 'none'),
  };
}"""


def test_reduced_motion_is_respected(browser: Browser, server_url: str) -> None:
    """With the system's "reduce motion" setting, nothing on the game page moves: no
    transition on the buttons, no animation (the deciding panel's pulse, the arrivals);
    without it, both are there (so the check can fail)."""
    table = create(server_url, seed=3)
    seen: dict[str, Any] = {}
    for motion in ("reduce", "no-preference"):
        context = browser.new_context(viewport=DESKTOP, locale="en-US", reduced_motion=motion)
        try:
            page = context.new_page()
            page.goto(f"{server_url}{table['seats'][0]['url']}")
            expect(page.get_by_test_id("legal-option").first).to_be_visible()
            seen[motion] = page.evaluate(MOTION_JS)
        finally:
            context.close()
    assert seen["reduce"]["transition"] == "0s"
    assert seen["reduce"]["animations"] == []
    assert seen["no-preference"]["transition"] != "0s"
    assert seen["no-preference"]["animations"] != []
