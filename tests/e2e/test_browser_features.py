"""End-to-end: the web client's features around the board, in a real headless Chromium.

The language switch, the card help on hover, the game log, the end screen with its Influence
chart, "play again", handing a waiting seat to a bot, the spectator's read-only view, display
names that look like HTML and the piles of discarded cards. Games are kept short by starting
tables from positions (``save`` in ``POST /api/tables``, docs/server.md): red (Ann's seat) has
the last decision of round 6, or must place a card in round 2 once the bots have placed theirs,
or must eliminate a card with its Soldier.
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
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        Dialog,
        Locator,
        Page,
        expect,
    )
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from sizes_and_seats import DESKTOP, EASY_BOT
from test_browser import (
    Record,
    check_end_screen,
    create_table,
    server_view,
    upload_save,
)

pytestmark = pytest.mark.e2e

#: Opens a page in a fresh browser context (the ``new_page`` fixture).
PageOpener = Callable[[], Page]

TIMEOUT_S = 20.0
COLOURS = ("red", "blue", "green")
#: Round 6, resolution: red reveals or leaves its Lord, the last card, and the game is over.
#: The Queue holds a face-up card of another family, red's own face-down Lord and a face-down
#: card of blue that red cannot know.
LAST_DECISION: dict[str, Any] = {
    "format": "oriflamme-position",
    "config": {"players": 3, "cards": "base"},
    "round": 6,
    "phase": "resolution",
    "placed": 3,
    "influence": [5, 4, 3],
    "scores_by_round": [[1, 2, 1], [2, 2, 2], [3, 2, 3], [4, 3, 3], [5, 4, 3]],
    "queue": [["blue:soldier*"], ["green:archer*"], ["blue:spy"], ["red:lord"]],
    "cursor": 3,
    "families": {colour: {"hand": ["heir"], "rest": "set_aside"} for colour in COLOURS},
}
#: Round 2, placement: blue and green (bots) place a card each, then red must place one.
PLACEMENT: dict[str, Any] = {
    "format": "oriflamme-position",
    "config": {"players": 3, "cards": "base"},
    "round": 2,
    "phase": "placement",
    "first_player": 1,
    "placed": 0,
    "influence": [2, 1, 1],
    "scores_by_round": [[2, 1, 1]],
    "queue": [["blue:soldier*"], ["green:archer*"], ["red:lord"]],
    "families": {
        colour: {"hand": ["heir", "spy", "ambush"], "rest": "set_aside"} for colour in COLOURS
    },
}
#: The card types that are face up in PLACEMENT: every other type is hidden from a spectator.
PUBLIC_TYPES = {"soldier", "archer"}
BASE_TYPES = [
    "archer",
    "soldier",
    "spy",
    "heir",
    "assassination",
    "royal_decree",
    "lord",
    "shapeshifter",
    "ambush",
    "conspiracy",
]
#: A display name that runs a script if a page ever parses it as HTML (names are at most 24
#: characters, too short for ``<img src=x onerror="window.__pwned=1">``).
HOSTILE_NAME = "<style onload=__pwned=1>"
#: Strings of the interface, by language (src/oriflamme/server/static/js/i18n.js).
UI_TEXTS = {
    "en": {
        "options_title": "Your options",
        "log_title": "Game log",
        "your_turn": "Your turn",
        "hand_title": "Your hand (3)",
    },
    "fr": {
        "options_title": "Vos choix",
        "log_title": "Journal de la partie",
        "your_turn": "À vous de jouer",
        "hand_title": "Votre main (3)",
    },
}
#: The chart and its legend: per series, its player and the tooltip of each dot.
CHART_JS = """() => {
  const end = document.querySelector('[data-testid="end-screen"]');
  const chart = end.querySelector('[data-testid="influence-chart"]');
  if (!chart) return null;
  return {
    tag: chart.tagName.toLowerCase(),
    series: [...chart.querySelectorAll("g.series")].map((g) => ({
      player: Number(g.dataset.player),
      points: g.querySelector("polyline").getAttribute("points").trim().split(/\\s+/).length,
      dots: [...g.querySelectorAll("circle > title")].map((title) => title.textContent),
    })),
    legend: [...end.querySelectorAll(".chart-legend li")].map(
      (li) => [li.querySelector(".legend-name").textContent,
               li.querySelector(".legend-value").textContent]),
  };
}"""


def create_from(
    server_url: str,
    save: dict[str, Any],
    name: str = "Ann",
    seats: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    """A table continuing ``save``: red's seat human (``name``), the others "easy" bots (or
    ``seats``).

    Returns the server's answer (links and tokens)."""
    bot = EASY_BOT
    seats = seats or [{"kind": "human", "name": name}, bot, bot]
    body = {"players": 3, "seats": seats, "save": save}
    response = httpx.post(f"{server_url}/api/tables", json=body, timeout=10)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def view_of(server_url: str, link: str, lang: str = "en") -> dict[str, Any]:
    """The view of a seat's or a spectator's link, over HTTP, in ``lang``."""
    parts = urlsplit(link)
    query = parse_qs(parts.query)
    token = (query.get("seat") or query["watch"])[0]
    response = httpx.get(
        f"{server_url}/api/tables/{parts.path.rsplit('/', 1)[-1]}/view",
        params={"token": token, "lang": lang},
        timeout=5,
    )
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def card_texts(server_url: str, lang: str) -> dict[str, dict[str, str]]:
    response = httpx.get(f"{server_url}/api/cards", params={"lang": lang}, timeout=5)
    assert response.status_code == 200, response.text
    texts: dict[str, dict[str, str]] = response.json()
    return texts


def open_seat(page: Page, link: str, step: int) -> None:
    """Open a link and wait until the page shows ``step`` and the seat's turn."""
    page.goto(link)
    page.wait_for_function("(s) => document.body.dataset.step === String(s)", arg=step)
    expect(page.get_by_test_id("waiting")).to_have_text("Your turn")


def wait_for_step(server_url: str, link: str, step: int) -> dict[str, Any]:
    """The link's view once its game reached ``step`` (the bots play at once)."""
    deadline = time.monotonic() + TIMEOUT_S
    while (view := view_of(server_url, link))["step"] < step:
        assert time.monotonic() < deadline, f"the game never reached step {step}"
        time.sleep(0.05)
    assert view["step"] == step, view["step"]
    return view


def hover_help(page: Page, card: Locator) -> Locator:
    """Hover ``card`` and return its help, once shown (after the previous one was hidden)."""
    tip = page.get_by_test_id("card-tooltip")
    for attempt in range(3):
        page.mouse.move(0, 0)
        expect(tip).to_be_hidden()
        card.hover()
        try:
            expect(tip).to_be_visible(timeout=3000)
            return tip
        except AssertionError:
            # A view that arrived meanwhile (a seat connecting) replaced the hovered node: the
            # new one never saw the pointer come in. Hover it again.
            if attempt == 2:
                raise
    return tip


def reveal_the_last_card(page: Page) -> None:
    """Red reveals its Lord: the game ends and the end screen opens."""
    page.get_by_test_id("reveal-button").click()
    expect(page.get_by_test_id("end-screen")).to_be_visible()
    expect(page.get_by_test_id("final-score-row")).to_have_count(3)


def shown(text: str) -> str:
    """A server's sentence as the page shows it: the names without their isolates."""
    return text.replace("\u2068", "").replace("\u2069", "")


def check_language(page: Page, view: dict[str, Any], cards: dict[str, dict[str, str]]) -> None:
    """The page shows the interface, the server's texts and the card names in ``view``'s
    language."""
    lang = view["lang"]
    texts = UI_TEXTS[lang]
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_test_id(f"lang-{lang}")).to_have_attribute("aria-pressed", "true")
    expect(page.locator('.panel-title[data-i18n="options_title"]')).to_have_text(
        texts["options_title"]
    )
    expect(page.locator('.panel-title[data-i18n="log_title"]')).to_have_text(texts["log_title"])
    expect(page.get_by_test_id("waiting")).to_have_text(texts["your_turn"])
    expect(page.get_by_test_id("hand-title")).to_have_text(texts["hand_title"])
    # The page shows each named player as a mark of their own, without the isolates around
    # the name (docs/server.md, "Names in sentences").
    expect(page.get_by_test_id("prompt")).to_have_text(shown(view["prompt"]))
    expect(page.get_by_test_id("log-line")).to_have_text([shown(line) for line in view["log"]])
    expect(page.get_by_test_id("legal-option")).to_have_text(
        [entry["label"] for entry in view["legal"]]
    )
    (red,) = [f for f in view["observation"]["families"] if f["player"] == 0]
    names = [cards[card["type"]]["name"] for card in red["hand"]]
    expect(page.get_by_test_id("hand-card").locator(".card-name")).to_have_text(names)


@pytest.fixture
def new_page(browser: Browser) -> Iterator[PageOpener]:
    """Opens desktop pages, each in a context of its own (its own cookies: its own person), and
    closes them all when the test ends, however it ends."""
    contexts: list[BrowserContext] = []

    def open_page() -> Page:
        context = browser.new_context(viewport=DESKTOP, locale="en-US", reduced_motion="reduce")
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def test_switching_the_language_changes_the_page_and_back(
    new_page: PageOpener, server_url: str
) -> None:
    created = create_from(server_url, PLACEMENT)
    link = f"{server_url}{created['seats'][0]['url']}"
    wait_for_step(server_url, link, 2)  # the bots placed: Ann must place
    views = {lang: view_of(server_url, link, lang) for lang in ("en", "fr")}
    assert views["en"]["log"] and views["en"]["log"] != views["fr"]["log"]
    cards = {lang: card_texts(server_url, lang) for lang in ("en", "fr")}
    assert cards["en"]["heir"]["name"] != cards["fr"]["heir"]["name"]
    record = Record()
    page = new_page()
    record.watch(page)
    open_seat(page, link, 2)
    check_language(page, views["en"], cards["en"])
    page.get_by_test_id("lang-fr").click()
    check_language(page, views["fr"], cards["fr"])
    page.get_by_test_id("lang-en").click()
    check_language(page, views["en"], cards["en"])
    assert record.page_errors == []


def test_hovering_a_card_shows_its_ability(new_page: PageOpener, server_url: str) -> None:
    created = create_from(server_url, LAST_DECISION)
    link = f"{server_url}{created['seats'][0]['url']}"
    cards = card_texts(server_url, "en")
    record = Record()
    page = new_page()
    record.watch(page)
    open_seat(page, link, 0)
    queue = page.get_by_test_id("queue")

    # A card in the hand, then a face-up card of another family in the Queue.
    for card, slug in [
        (page.locator('[data-testid="hand-card"][data-card-type="heir"]'), "heir"),
        (queue.locator('[data-card-type="soldier"]'), "soldier"),
    ]:
        tip = hover_help(page, card)
        expect(tip.locator(".tip-title strong")).to_have_text(cards[slug]["name"])
        expect(tip.locator(".tip-text")).to_have_text(cards[slug]["text"])
        expect(tip.locator(".tip-notes")).to_have_text(cards[slug]["notes"])
        expect(tip.locator(".tip-note")).to_have_count(0)

    # Red's own face-down Lord: red knows it, and is told the others do not.
    tip = hover_help(page, queue.locator('[data-card-type="lord"][data-face-up="false"]'))
    expect(tip.locator(".tip-title strong")).to_have_text(cards["lord"]["name"])
    expect(tip.locator(".tip-note")).to_have_text(
        "Face down: the other players do not know this card."
    )
    expect(tip.locator(".tip-text")).to_have_text(cards["lord"]["text"])

    # Blue's face-down Spy: red cannot know it, and neither can its help.
    hidden = queue.locator('[data-testid="queue-card"][data-face-up="false"][data-family="1"]')
    expect(hidden).not_to_have_attribute("data-card-type", re.compile(".*"))
    tip = hover_help(page, hidden)
    expect(tip.locator(".tip-title strong")).to_have_text("Blue face-down card")
    expect(tip.locator(".tip-note")).to_have_text(
        "A face-down card: you cannot know what it is until it is revealed."
    )
    expect(tip.locator(".tip-text")).to_have_count(0)
    expect(tip).not_to_contain_text(cards["spy"]["text"])

    page.mouse.move(0, 0)
    expect(page.get_by_test_id("card-tooltip")).to_be_hidden()
    assert record.page_errors == []


def test_the_log_and_the_end_screen_show_the_game(new_page: PageOpener, server_url: str) -> None:
    created = create_from(server_url, LAST_DECISION)
    link = f"{server_url}{created['seats'][0]['url']}"
    record = Record()
    page = new_page()
    record.watch(page)
    open_seat(page, link, 0)
    expect(page.get_by_test_id("log-line")).to_have_count(0)  # a position has no events
    expect(page.get_by_test_id("end-screen")).to_be_hidden()
    reveal_the_last_card(page)

    view = view_of(server_url, link)
    assert view["log"][0] == "\u2068Ann\u2069 revealed Lord"  # by name (issue #26)
    assert view["log"][-1] == "The game ended"
    expect(page.get_by_test_id("log-line")).to_have_text([shown(line) for line in view["log"]])
    check_end_screen(page, view)
    assert view["result"]["scores"] == [6, 4, 3]
    expect(page.get_by_test_id("winners")).to_have_text("Winner: Ann")
    expect(page.get_by_test_id("end-screen").locator("h2")).to_have_text("You won!")

    names = [seat["name"] for seat in view["seats"]]
    rounds = view["scores_by_round"]
    assert len(rounds) == 6 and rounds[-1] == view["result"]["scores"]
    chart = page.evaluate(CHART_JS)
    assert chart is not None, "no Influence chart on the end screen"
    assert chart["tag"] == "svg"
    assert chart["series"] == [
        {
            "player": seat,
            "points": 7,
            "dots": [f"{name} — start: 1"]
            + [f"{name} — Round {n}: {row[seat]}" for n, row in enumerate(rounds, 1)],
        }
        for seat, name in enumerate(names)
    ]
    assert chart["legend"] == [
        [name, str(score)] for name, score in zip(names, view["result"]["scores"], strict=True)
    ]
    # The end screen can be closed and opened again.
    page.get_by_test_id("close-end-screen").click()
    expect(page.get_by_test_id("end-screen")).to_be_hidden()
    page.get_by_test_id("show-results").click()
    expect(page.get_by_test_id("influence-chart")).to_be_visible()
    assert record.page_errors == []


def test_play_again_starts_a_new_game_at_the_same_link(
    new_page: PageOpener, server_url: str
) -> None:
    created = create_from(server_url, LAST_DECISION)
    link = f"{server_url}{created['seats'][0]['url']}"
    record = Record()
    page = new_page()
    record.watch(page)
    open_seat(page, link, 0)
    reveal_the_last_card(page)
    again = page.get_by_test_id("play-again")
    expect(again).to_have_text("Play again")
    again.click()

    expect(page.get_by_test_id("end-screen")).to_be_hidden()
    expect(page.get_by_test_id("round-info")).to_have_text("Game 2 · Round 1 / 6 · Placement")
    expect(page.get_by_test_id("waiting")).to_have_text("Your turn")
    expect(page.get_by_test_id("hand-card")).to_have_count(7)  # 10 cards, 3 set aside
    expect(page.get_by_test_id("log-line")).to_have_count(0)
    expect(page.get_by_test_id("show-results")).to_be_hidden()
    assert page.url == link
    view = view_of(server_url, link)
    assert (view["game_number"], view["step"], view["result"]) == (2, 0, None)
    assert view["observation"]["round"] == 1 and view["observation"]["phase"] == "placement"
    hand = sorted(card["type"] for card in view["observation"]["families"][0]["hand"])
    shown = page.get_by_test_id("hand-card").evaluate_all(
        "(cards) => cards.map((c) => c.dataset.cardType)"
    )
    assert sorted(shown) == hand
    assert record.page_errors == []


def test_the_creator_hands_a_waiting_seat_to_a_bot(new_page: PageOpener, server_url: str) -> None:
    record = Record()
    page = new_page()
    record.watch(page)
    # The lobby keeps the creator's token in this browser: the game page offers the control.
    alice_link, bob_link = create_table(page, server_url, ["Alice", "Bob"], "base")
    open_seat(page, alice_link, 0)
    bob = page.locator('[data-testid="player"][data-seat="1"]')
    page.get_by_test_id("legal-option").first.click()
    expect(page.get_by_test_id("waiting")).to_have_text("Waiting for Bob…")
    expect(bob.get_by_test_id("connection")).to_have_class(re.compile(r"\boffline\b"))
    expect(page.get_by_test_id("hand-to-bot")).to_have_count(1)  # Bob's only

    asked: list[str] = []

    def accept(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    bob.get_by_test_id("hand-to-bot").click()
    expect(page.get_by_test_id("toast")).to_have_text("Bob's seat is now played by a bot.")
    assert asked == ["Hand Bob's seat to a bot? Their link will then only watch."]
    expect(bob.get_by_test_id("player-name")).to_have_text("Blue bot (medium)")
    expect(bob.locator(".tag-bot")).to_have_text("Bot · medium")
    expect(page.get_by_test_id("hand-to-bot")).to_have_count(0)

    # The bots play Bob's placement and go on until Alice must decide again.
    page.wait_for_function("() => Number(document.body.dataset.step) >= 3")
    expect(page.get_by_test_id("waiting")).to_have_text("Your turn")
    expect(page.get_by_test_id("hand-card")).to_have_count(6)
    # The seat is named as it is now: its bot.
    expect(page.get_by_test_id("log-line").nth(1)).to_have_text(
        re.compile(r"^Blue bot \(medium\) placed "))
    bob_view = server_view(server_url, bob_link)  # Bob's old link only watches
    assert bob_view["you"] is None and bob_view["legal"] == []
    assert bob_view["seats"][1]["kind"] == "bot" and bob_view["step"] >= 3
    assert record.page_errors == []


def test_the_spectator_link_is_read_only_and_hides_the_hidden_cards(
    new_page: PageOpener, server_url: str
) -> None:
    created = create_from(server_url, PLACEMENT)
    seat_link = f"{server_url}{created['seats'][0]['url']}"
    watch_link = f"{server_url}{created['spectator_url']}"
    wait_for_step(server_url, seat_link, 2)  # the bots placed: Ann must place
    hidden = [t for t in BASE_TYPES if t not in PUBLIC_TYPES]
    names = card_texts(server_url, "en")
    hidden_words = re.compile(
        r"\b(" + "|".join(re.escape(w) for t in hidden for w in (t, names[t]["name"])) + r")\b",
        re.IGNORECASE,
    )
    record = Record()
    ann, watcher = new_page(), new_page()
    for page in (ann, watcher):
        record.watch(page)
    open_seat(ann, seat_link, 2)
    watcher.goto(watch_link)
    watcher.wait_for_function("() => document.body.dataset.step === '2'")
    expect(watcher.get_by_test_id("player")).to_have_count(3)
    expect(watcher.get_by_test_id("queue-card")).to_have_count(5)
    expect(watcher.get_by_test_id("log-line")).to_have_count(2)

    # Read-only: no hand, nothing that acts, while Ann's page offers her decision.
    expect(watcher.get_by_test_id("spectator-badge")).to_be_visible()
    expect(watcher.get_by_test_id("waiting")).to_have_text("Waiting for Ann…")
    expect(watcher.get_by_test_id("hand-title")).to_have_text("Hands")
    expect(watcher.get_by_test_id("spectating")).to_have_text(
        "You are watching: the hands stay hidden."
    )
    expect(watcher.get_by_test_id("options-hint")).to_have_text("You are watching this game.")
    expect(ann.locator("[data-action]").first).to_be_visible()
    for selector in (
        '[data-testid="hand-card"]',
        '[data-testid="legal-option"]',
        '[data-testid="hand-to-bot"]',
        "[data-action]",
        "[data-selectable]",
        ".actionable, .selectable, .targetable",
        '[role="button"]',
        "[tabindex]",
        "[draggable='true']",
    ):
        # The chat panel aside: spectators write in their own chat (docs/server.md, "Chat").
        game = f":is({selector}):not([data-testid='chat-panel'] *)"
        expect(watcher.locator(game)).to_have_count(0)
    expect(watcher.get_by_test_id("chat-input")).to_be_visible()
    assert ann.locator("[data-action]").count() > 0

    # No hidden card identity anywhere in the spectator's page (text or attributes).
    html = watcher.content()
    shown_types = watcher.locator("[data-card-type]").evaluate_all(
        "(cards) => cards.map((c) => [c.dataset.cardType, c.dataset.faceUp])"
    )
    assert sorted(shown_types) == [["archer", "true"], ["soldier", "true"]]
    assert hidden_words.findall(html) == []
    face_down = watcher.locator('[data-testid="queue-card"][data-face-up="false"]')
    expect(face_down).to_have_count(3)
    labels = face_down.evaluate_all("(cards) => cards.map((c) => c.getAttribute('aria-label'))")
    assert sorted(labels) == [
        "Blue face-down card",
        "Green face-down card",
        "Red face-down card",
    ]
    # The same check finds the cards Ann holds in her own page.
    assert {"heir", "spy", "ambush", "lord"} <= {
        word.lower() for word in hidden_words.findall(ann.content())
    }

    # A click on the board does nothing. (A card with another stacked on it,
    # class "under", is partly covered, so the click goes to uncovered cards.)
    uncovered = watcher.locator('[data-testid="queue-card"]:not(.under)')
    assert uncovered.count() >= 1
    for index in range(uncovered.count()):
        uncovered.nth(index).click()
    watcher.wait_for_timeout(300)
    assert view_of(server_url, seat_link)["step"] == 2
    assert record.page_errors == []


#: Round 2, resolution: red's face-up Soldier must eliminate red's own face-down Ambush or blue's
#: face-down Lord (R-SOLDIER-1, R-AMBUSH-3).
OWN_AMBUSH: dict[str, Any] = {
    "format": "oriflamme-position",
    "config": {"players": 3, "cards": "base"},
    "round": 2,
    "phase": "resolution",
    "placed": 3,
    "influence": [2, 1, 1],
    "scores_by_round": [[2, 1, 1]],
    "queue": [["red:ambush+2"], ["red:soldier*"], ["blue:lord"], ["green:spy"]],
    "cursor": 1,
    "families": {colour: {"hand": ["heir"], "rest": "set_aside"} for colour in COLOURS},
}


def test_an_ambush_eliminated_by_its_own_player_shows_as_discarded(
    new_page: PageOpener, server_url: str
) -> None:
    """R-AMBUSH-3, R-ELIM-2: Ann's Soldier eliminates her own Ambush by a click on the Queue;
    her page and the spectator's show it among red's discarded cards, none as eliminated. (Blue
    and green are humans who do not play: the game waits at step 1, blue's reveal.)"""
    seats = [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy")]
    created = create_from(server_url, OWN_AMBUSH, seats=seats)
    seat_link = f"{server_url}{created['seats'][0]['url']}"
    watch_link = f"{server_url}{created['spectator_url']}"
    record = Record()
    ann, watcher = new_page(), new_page()
    for page in (ann, watcher):
        record.watch(page)
    open_seat(ann, seat_link, 0)
    ambush = view_of(server_url, seat_link)["observation"]["queue"][0][0]
    assert ambush["type"] == "ambush" and not ambush["face_up"]
    ann.locator(
        f'[data-testid="queue-card"][data-card-id="{ambush["id"]}"][data-action]'
    ).click()
    wait_for_step(server_url, seat_link, 1)
    watcher.goto(watch_link)
    for page in (ann, watcher):
        red = page.locator('[data-testid="player"][data-seat="0"]')
        discarded = red.get_by_test_id("zone-discarded").get_by_test_id("discarded-card")
        expect(discarded).to_have_count(1)
        expect(discarded).to_have_attribute("data-card-id", str(ambush["id"]))
        expect(discarded).to_have_attribute("data-card-type", "ambush")
        expect(discarded).to_have_attribute("aria-label", "Ambush")
        expect(red.get_by_test_id("zone-eliminated")).to_have_count(0)
        log = page.get_by_test_id("log-line")
        expect(log.filter(has_text="Red Ambush was discarded")).to_have_count(1)
    assert record.page_errors == []


def test_a_display_name_that_looks_like_html_stays_text(
    new_page: PageOpener, server_url: str
) -> None:
    record = Record()
    pwned = "() => typeof window.__pwned"
    page = new_page()
    record.watch(page)
    # The lobby: continue LAST_DECISION with the name on red's seat.
    upload_save(page, server_url, LAST_DECISION)
    expect(page.get_by_test_id("seat-row")).to_have_count(3)
    for seat in range(3):
        row = page.locator(f'[data-testid="seat-row"][data-seat="{seat}"]')
        row.get_by_test_id("seat-kind").select_option("human" if seat == 0 else "bot")
    page.locator('[data-testid="seat-row"][data-seat="0"]').get_by_test_id("seat-name").fill(
        HOSTILE_NAME
    )
    page.get_by_test_id("create-game").click()
    expect(page.get_by_test_id("created")).to_be_visible()
    invite = page.locator('[data-testid="invite"][data-seat="0"] strong')
    expect(invite).to_have_text(HOSTILE_NAME)
    assert page.evaluate(pwned) == "undefined"

    page.get_by_test_id("open-my-seat").click()
    page.wait_for_function("() => document.body.dataset.step === '0'")
    red = page.locator('[data-testid="player"][data-seat="0"]')
    expect(red.get_by_test_id("player-name")).to_have_text(HOSTILE_NAME)
    reveal_the_last_card(page)
    expect(page.get_by_test_id("winners")).to_have_text(f"Winner: {HOSTILE_NAME}")
    winner = page.locator('[data-testid="final-score-row"][data-seat="0"]')
    expect(winner.locator(".name-cell")).to_contain_text(HOSTILE_NAME)
    expect(page.locator(".chart-legend .legend-name").first).to_have_text(HOSTILE_NAME)
    first_dot = page.locator('[data-testid="influence-chart"] g.series[data-player="0"] title')
    expect(first_dot.first).to_have_text(f"{HOSTILE_NAME} — start: 1")

    page.wait_for_timeout(300)
    assert page.evaluate(pwned) == "undefined"
    assert page.locator("[onload], [onerror]").count() == 0
    assert page.evaluate("() => document.body.innerText").count(HOSTILE_NAME) >= 3
    assert record.page_errors == []
    # The name is a live payload: parsed as HTML in a page without a policy, it runs ...
    inject = (
        "(name) => { const box = document.createElement('div'); box.innerHTML = name;"
        " document.body.append(box); }"
    )
    bare = new_page()
    bare.set_content("<p>no policy here</p>")
    bare.evaluate(inject, HOSTILE_NAME)
    bare.wait_for_function("() => window.__pwned === 1")
    # ... and even parsed as HTML in the game page, its Content-Security-Policy refuses it.
    page.evaluate(
        "() => { window.__refused = []; document.addEventListener('securitypolicyviolation',"
        " (event) => window.__refused.push(event.violatedDirective)); }"
    )
    page.evaluate(inject, HOSTILE_NAME)
    page.wait_for_function("() => window.__refused.length > 0")
    assert page.evaluate(pwned) == "undefined"
