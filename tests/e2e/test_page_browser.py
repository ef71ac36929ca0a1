"""End-to-end in Chromium, at desktop and phone widths: the page a player sees (issue #26, "The
page a player sees", items 1-9). A table waiting for players offers no move and says who is
missing; a joiner is told once to keep the link, and the front page's "My games" lists the
seats of this browser, your turn first; the stand-in's moves are marked in the log, in a recap
for the returning player and in the replay; the countdown sits next to the prompt; players are
named and marked in their colours; the replay lists each line of a step apart and its chart is
readable.

With ``ORIFLAMME_SCREENSHOTS=docs`` the tests also write the screenshots of docs/server.md.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

try:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from served import serving
from sizes_and_seats import ANN, BEN, LAPTOP, OPEN, PHONE_WIDE, RANDOM_BOT

pytestmark = pytest.mark.e2e

SIZES = {"desktop": LAPTOP, "phone": PHONE_WIDE}
DOCS = Path(__file__).resolve().parents[2] / "docs"
Opener = Callable[..., Page]


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``oriflamme serve`` with instant bots, no per-address quotas, a small review budget."""
    options = ["--tables-per-hour", "0", "--public-tables", "0"]
    env = {"ORIFLAMME_REVIEW_ITERATIONS": "40"}
    with serving(tmp_path_factory.mktemp("page-server"), options, env) as address:
        yield address


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Opener]:
    """Pages each in a browser context of its own (one person each); page errors fail the
    test."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def open_page(viewport: ViewportSize = LAPTOP, locale: str = "en-US") -> Page:
        context = browser.new_context(viewport=viewport, locale=locale, reduced_motion="reduce")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert errors == []


def create(url: str, **fields: Any) -> dict[str, Any]:
    body = {"players": 2, "seats": [ANN, BEN], **fields}
    answer = httpx.post(f"{url}/api/tables", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def join(url: str, table_id: str, name: str) -> dict[str, Any]:
    answer = httpx.post(f"{url}/api/tables/{table_id}/join", json={"name": name}, timeout=10)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def api_view(url: str, table_id: str, token: str) -> dict[str, Any]:
    answer = httpx.get(f"{url}/api/tables/{table_id}/view", params={"token": token}, timeout=10)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def fits(page: Page) -> None:
    """Nothing on the page is wider than the window."""
    size = page.viewport_size
    assert size is not None
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"] + 1, width


def in_first_screen(page: Page, testid: str) -> None:
    """The element is on the first screen of the page, unscrolled (measured at once: a view
    arriving may re-render it; from the document's top, whatever the page is scrolled to)."""
    box = page.evaluate(
        "(id) => { const r = document.querySelector(`[data-testid=${id}]`)"
        ".getBoundingClientRect(); return {top: r.top + window.scrollY,"
        " bottom: r.bottom + window.scrollY, scrolled: window.scrollY}; }",
        testid,
    )
    size = page.viewport_size
    assert size is not None
    assert box["top"] >= 0 and box["bottom"] <= size["height"], box


def screenshot(page: Page, name: str) -> None:
    """With ``ORIFLAMME_SCREENSHOTS=docs``: the page into docs/NAME, made small (at most 860
    pixels wide, 128 colours) when Pillow is installed."""
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


# ---------------------------------------------------------------- item 2
@pytest.mark.parametrize("size", SIZES)
def test_a_table_waiting_for_players_offers_no_move(new_page: Opener, url: str, size: str) -> None:
    table = create(url, seats=[ANN, OPEN], public=True, lang="fr")
    page = new_page(SIZES[size])
    page.goto(f"{url}{table['seats'][0]['url']}")
    status = page.get_by_test_id("status-text")
    expect(status).to_have_text(
        "Waiting for players to take the open seats (Blue): the game starts when every seat"
        " is taken."
    )
    expect(page.get_by_test_id("prompt")).to_be_hidden()
    expect(page.get_by_test_id("legal-option")).to_have_count(0)
    assert page.locator(".actionable, .choosable").count() == 0
    # A card of the hand does nothing: no option, no message.
    page.get_by_test_id("hand-cards").locator(".card").first.click()
    page.wait_for_timeout(300)
    expect(page.get_by_test_id("toast")).to_have_count(0)
    expect(page.get_by_test_id("legal-option")).to_have_count(0)
    fits(page)
    page.get_by_test_id("lang-fr").click()
    expect(status).to_have_text(
        "En attente de joueurs pour les places libres (Bleu)\u202f: la partie commence quand"
        " toutes les places sont prises."
    )
    if size == "phone":
        screenshot(page, "waiting-table-phone.png")


# ---------------------------------------------------------------- item 3
@pytest.mark.parametrize("size", SIZES)
def test_my_games_lists_every_seat_your_turn_first(new_page: Opener, url: str, size: str) -> None:
    theirs = create(url, seats=[ANN, OPEN], public=True)  # Ann decides first
    mine = create(url, seats=[OPEN, ANN], public=True)  # the joiner decides first
    bob = new_page(SIZES[size])
    for table in (theirs, mine):
        bob.goto(f"{url}/?join={table['table_id']}")
        bob.get_by_test_id("join-name").fill("Bob")
        bob.locator(f'[data-testid="open-table"][data-table="{table["table_id"]}"]').get_by_test_id(
            "join-seat").first.click()
        bob.wait_for_url(re.compile(rf"/t/{table['table_id']}\?seat="))
        # Told once that this link is the seat.
        notice = bob.get_by_test_id("keep-link")
        expect(notice).to_contain_text("This link is your seat")
        if table is theirs:
            fits(bob)
            if size == "phone":
                screenshot(bob, "keep-link-phone.png")
            bob.get_by_test_id("keep-link-ok").click()
            expect(notice).to_be_hidden()
            bob.reload()
            expect(bob.get_by_test_id("player-name").nth(1)).to_have_text("Bob")
            expect(notice).to_be_hidden()  # once
    bob.goto(f"{url}/")
    games = bob.get_by_test_id("my-game")
    expect(games).to_have_count(2)
    expect(games.nth(0)).to_have_attribute("data-table", mine["table_id"])
    expect(games.nth(0).get_by_test_id("my-game-state")).to_have_text("Your turn")
    expect(games.nth(1).get_by_test_id("my-game-state")).to_have_text("Waiting for Ann…")
    in_first_screen(bob, "my-games")
    fits(bob)
    screenshot(bob, f"my-games-{size}.png")
    bob.get_by_test_id("lang-fr").click()
    expect(games.nth(0).get_by_test_id("my-game-state")).to_have_text("À vous de jouer")
    # Back to the game from the list.
    games.nth(0).get_by_test_id("my-game-link").click()
    bob.wait_for_url(re.compile(rf"/t/{mine['table_id']}\?seat="))
    expect(bob.get_by_test_id("waiting")).to_have_text("À vous de jouer")


def test_the_creator_keeps_the_join_and_spectator_links(new_page: Opener, url: str) -> None:
    page = new_page(LAPTOP)
    page.goto(f"{url}/")
    page.get_by_test_id("players-count").select_option("2")
    rows = page.get_by_test_id("seat-row")
    rows.nth(0).get_by_test_id("seat-kind").select_option("human")
    rows.nth(0).get_by_test_id("seat-name").fill("Alice")
    rows.nth(1).get_by_test_id("seat-kind").select_option("open")
    page.get_by_test_id("create-game").click()
    expect(page.get_by_test_id("created")).to_be_visible()
    spectators = page.get_by_test_id("spectator-link").input_value()
    page.get_by_test_id("open-my-seat").click()
    expect(page.get_by_test_id("status-text")).to_contain_text("Waiting for players")
    page.goto(f"{url}/")
    game = page.get_by_test_id("my-game")
    expect(game).to_have_count(1)
    expect(game.get_by_test_id("my-game-join")).to_have_attribute(
        "href", re.compile(r"^/\?join="))
    watch = game.get_by_test_id("my-game-watch").get_attribute("href")
    assert watch is not None and spectators.endswith(watch)


# ---------------------------------------------------------------- items 1, 4, 5, 6
@pytest.mark.parametrize("size", SIZES)
def test_the_countdown_is_next_to_the_prompt(new_page: Opener, url: str, size: str) -> None:
    table = create(url, clock={"per_decision": 600}, absent_after=40)
    ann = new_page(SIZES[size])
    ann.goto(f"{url}{table['seats'][0]['url']}")
    expect(ann.get_by_test_id("waiting")).to_have_text("Your turn")
    clock = ann.get_by_test_id("prompt-clock")
    expect(clock).to_have_text(re.compile(r"^9:5\d left$"))
    in_first_screen(ann, "prompt-clock")
    in_first_screen(ann, "prompt")
    # Players named by their names, in their colours, not "Red".
    mark = ann.get_by_test_id("prompt").get_by_test_id("player-mark")
    expect(mark).to_have_text("Ann")
    expect(mark).to_have_class(re.compile("fam-red"))
    # The panels' count lines are whole (not clipped), in both languages (two families each).
    for lang in ("fr", "en"):
        ann.get_by_test_id(f"lang-{lang}").click()
        expect(ann.locator("html")).to_have_attribute("lang", lang)
        expect(ann.get_by_test_id("family-counts")).to_have_count(4)
        clipped = ann.evaluate(
            "() => [...document.querySelectorAll('[data-testid=family-counts]')].filter((n) => {"
            " const panel = n.closest('[data-testid=player]').getBoundingClientRect();"
            " const r = n.getBoundingClientRect(); return r.right > panel.right - 2"
            " || n.scrollWidth > n.clientWidth + 1; }).map((n) => n.textContent)"
        )
        assert clipped == [], (lang, clipped)
    fits(ann)
    if size == "phone":
        screenshot(ann, "prompt-clock-phone.png")
    # Ben watches Ann's countdown; when Ann leaves, it shows her absence's deadline (item 5).
    ben = new_page(SIZES[size])
    ben.goto(f"{url}{table['seats'][1]['url']}")
    expect(ben.get_by_test_id("prompt-clock")).to_have_text(re.compile(r"^9:5\d left$"))
    ann.close()
    expect(ben.get_by_test_id("prompt-clock")).to_have_text(
        re.compile(r"^stand-in plays in 0:[0-4]\d$"), timeout=10_000)
    in_first_screen(ben, "prompt-clock")


def test_stand_in_moves_are_marked_and_recapped(new_page: Opener, url: str) -> None:
    table = create(url, clock={"per_decision": 2}, stand_in="random")
    ann = new_page(LAPTOP)
    ann.goto(f"{url}{table['seats'][0]['url']}")
    # Ann lets her clock run out: the stand-in plays; the log says so, and so does a recap.
    marked = ann.get_by_test_id("log").locator(".by-stand-in")
    expect(marked.first).to_be_visible(timeout=15_000)
    expect(marked.first.get_by_test_id("stand-in-mark")).to_have_text("played by the stand-in")
    recap = ann.get_by_test_id("stand-in-recap")
    expect(recap).to_be_visible()
    expect(recap.get_by_test_id("stand-in-recap-text")).to_contain_text("the stand-in played")
    expect(recap.get_by_test_id("recap-line").first).to_contain_text("Ann")
    screenshot(ann, "stand-in-recap.png")
    recap.get_by_test_id("stand-in-recap-ok").click()
    expect(recap).to_be_hidden()


def test_a_returning_player_sees_what_was_played_for_them(new_page: Opener, url: str) -> None:
    table = create(url, seats=[ANN, RANDOM_BOT], absent_after=2, stand_in="random", lang="fr")
    ann = new_page(PHONE_WIDE)
    ann.goto(f"{url}{table['seats'][0]['url']}")
    expect(ann.get_by_test_id("waiting")).to_have_text("Your turn")
    ann.close()
    token = table["seats"][0]["token"]
    deadline = time.monotonic() + 20
    while not api_view(url, table["table_id"], token)["stand_ins"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    back = new_page(PHONE_WIDE, locale="fr-FR")  # a French browser
    back.goto(f"{url}{table['seats'][0]['url']}")
    recap = back.get_by_test_id("stand-in-recap")
    expect(recap.get_by_test_id("stand-in-recap-text")).to_contain_text("le remplaçant a joué")
    in_first_screen(back, "stand-in-recap")
    expect(back.locator(".by-stand-in").first.get_by_test_id("stand-in-mark")).to_have_text(
        "joué par le remplaçant")
    # The bot is named in French, in the log and the panels.
    expect(back.get_by_test_id("player-name").nth(1)).to_have_text("Robot bleu (hasard)")
    fits(back)
    screenshot(back, "stand-in-recap-phone.png")


# ---------------------------------------------------------------- items 4 and 8: the replay
def test_the_replay_marks_the_stand_in_and_lists_lines_apart(new_page: Opener, url: str) -> None:
    table = create(url, seats=[RANDOM_BOT, OPEN], public=True, no_show_after=2,
                   stand_in="random")
    ghost = join(url, table["table_id"], "Ghost")["token"]  # and never comes
    deadline = time.monotonic() + 60
    while (seen := api_view(url, table["table_id"], ghost))["observation"]["phase"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    started = httpx.post(f"{url}/api/tables/{table['table_id']}/games/1/analysis",
                         params={"token": ghost}, timeout=10)
    assert started.status_code in (200, 202), started.text
    page = new_page(LAPTOP)
    page.goto(f"{url}{seen['replay_url']}")
    expect(page.get_by_test_id("step-counter")).to_be_visible()
    frames = httpx.get(f"{url}/api/tables/{table['table_id']}/games/1/frames",
                       params={"token": ghost}, timeout=10).json()["frames"]
    many = next(i for i, f in enumerate(frames) if len(f["log"]) >= 3 and f["by"] == "stand_in")
    page.get_by_test_id("step-slider").fill(str(many))
    played = page.get_by_test_id("played-line")
    expect(played.get_by_test_id("played-log-line")).to_have_count(len(frames[many]["log"]))
    expect(played.get_by_test_id("stand-in-mark")).to_have_text("played by the stand-in")
    tops = played.evaluate(
        "n => [...n.querySelectorAll('[data-testid=played-log-line]')]"
        ".map((line) => line.getBoundingClientRect().top)"
    )
    assert tops == sorted(tops) and len(set(tops)) == len(tops)  # one line each
    # The win-chance chart: labels of at least 11 px, a value shown on hover.
    expect(page.get_by_test_id("win-chart")).to_be_visible(timeout=120_000)
    # Found and measured in one script: the chart is drawn again at each poll of the running
    # analysis, and a label found before a redraw measures 0 once it is detached.
    height = page.evaluate(
        "() => document.querySelector('.win-chart .axis-label').getBoundingClientRect().height"
    )
    assert height >= 11
    page.locator('[data-testid="win-point"], [data-testid="costly-point"]').first.hover()
    expect(page.get_by_test_id("win-readout")).to_have_text(re.compile(r"\d+\s?%$"))
    fits(page)
    screenshot(page, "replay-stand-in.png")
    phone = new_page(PHONE_WIDE)
    phone.goto(f"{url}{seen['replay_url']}")
    expect(phone.get_by_test_id("keys-help")).to_be_hidden()
    select = phone.get_by_test_id("view-select")
    expect(select).to_be_visible()
    assert select.evaluate("n => n.scrollWidth <= n.clientWidth + 1")
    fits(phone)


# ---------------------------------------------------------------- item 9: cosmetics
#: Red to place, seven cards in hand; both Shapeshifters face up in the Queue.
SEVEN_IN_HAND = {
    "config": {"players": 2, "variant": "standard"},
    "round": 2,
    "phase": "placement",
    "queue": [["red:shapeshifter*"], ["blue:shapeshifter*"], ["blue:heir*"]],
    "families": {
        "red": {"hand": ["archer", "soldier", "spy", "heir", "lord", "royal_decree", "ambush"],
                "rest": "set_aside"},
        "blue": {"hand": ["archer", "soldier", "spy"], "rest": "set_aside"},
    },
}
#: Red decides whether to reveal its face-down Shapeshifter.
RED_REVEALS = {**SEVEN_IN_HAND, "phase": "resolution", "placed": 2,
               "queue": [["red:shapeshifter"], ["blue:shapeshifter*"], ["blue:heir*"]]}
#: Each word of each card name on one line (a word broken in two has two boxes).
WORDS_WHOLE = """() => [...document.querySelectorAll('.card-name')].filter((n) => n.offsetParent)
  .flatMap((name) => {
    const text = name.firstChild;
    if (!text) return [];
    const broken = [];
    for (const match of text.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(text, match.index);
      range.setEnd(text, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
    return broken;
  })"""


def position_table(url: str, position: dict[str, Any]) -> dict[str, Any]:
    from oriflamme.api import Game

    return create(url, save=Game.from_position(position).save())


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    found: list[dict[str, float]] = page.evaluate(
        "(s) => [...document.querySelectorAll(s)].map((n) => n.getBoundingClientRect().toJSON())",
        selector,
    )
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5
            and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5)


@pytest.mark.parametrize("size", SIZES)
def test_card_names_whole_and_seven_cards_side_by_side(
    new_page: Opener, url: str, size: str
) -> None:
    table = position_table(url, SEVEN_IN_HAND)
    for locale in ("en-US", "fr-FR"):
        page = new_page(SIZES[size], locale=locale)
        page.goto(f"{url}{table['seats'][0]['url']}")
        expect(page.locator(".hand-cards > .card")).to_have_count(7)
        expect(page.get_by_test_id("queue").locator(".card-name").first).to_be_visible()
        assert page.evaluate(WORDS_WHOLE) == []
        if size == "desktop":
            cards = boxes(page, ".hand-cards > .card")
            assert not any(overlap(a, b) for i, a in enumerate(cards) for b in cards[i + 1:])
        fits(page)
    if size == "desktop":
        screenshot(page, "hand-seven-desktop.png")


@pytest.mark.parametrize("size", SIZES)
def test_the_reveal_buttons_leave_the_name_seen(new_page: Opener, url: str, size: str) -> None:
    table = position_table(url, RED_REVEALS)
    page = new_page(SIZES[size])
    page.goto(f"{url}{table['seats'][0]['url']}")
    reveal = page.get_by_test_id("reveal-button")
    expect(reveal).to_be_visible()
    # Measured at once (a view arriving re-renders the card). One's own face-down card shows
    # its name in a ribbon ("peek").
    found = page.evaluate(
        """() => {
          const reveal = document.querySelector('[data-testid=reveal-button]');
          const card = reveal.closest('.card');
          const name = card.querySelector('.peek, .card-name');
          return [name, reveal, card.querySelector('[data-testid=leave-button]')]
            .map((n) => n.getBoundingClientRect().toJSON());
        }"""
    )
    name, *buttons = found
    assert name["height"] > 0
    for box in buttons:
        assert not overlap(box, name), (box, name)


def computed_colour(locator: Locator) -> str:
    """The element's computed text colour; read again if a view arriving replaced the node
    between finding and reading it (a node out of the page has no computed style)."""
    for _ in range(50):
        colour: str = locator.evaluate("n => n.isConnected ? getComputedStyle(n).color : ''")
        if colour:
            return colour
        time.sleep(0.05)
    raise AssertionError("the element kept being replaced")


def luminance(colour: str) -> float:
    red, green, blue = (int(v) / 255 for v in re.findall(r"\d+", colour)[:3])

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def test_close_the_table_is_readable_and_the_end_links_alike(new_page: Opener, url: str) -> None:
    table = create(url, seats=[ANN, OPEN], public=True)
    page = new_page(LAPTOP)
    page.goto(f"{url}/")
    page.evaluate("([id, token]) => localStorage.setItem(`oriflamme.creator.${id}`, token)",
                  [table["table_id"], table["creator_token"]])
    page.goto(f"{url}{table['seats'][0]['url']}")
    close = page.get_by_test_id("close-table")
    expect(close).to_be_visible()
    colour = computed_colour(close)
    # Against the status bar's darker end (#e4cf9f): WCAG AA for normal text.
    lighter, darker = luminance("rgb(228, 207, 159)"), luminance(colour)
    assert (lighter + 0.05) / (darker + 0.05) >= 4.5, colour
    # The end screen's "Replay and analyse" looks like the buttons beside it.
    over = create(url, seats=[ANN, RANDOM_BOT], absent_after=2, stand_in="random")
    token = over["seats"][0]["token"]
    came = new_page(LAPTOP)  # Ann comes and goes: the stand-in plays out her game
    came.goto(f"{url}{over['seats'][0]['url']}")
    expect(came.get_by_test_id("waiting")).to_have_text("Your turn")
    came.close()
    deadline = time.monotonic() + 30
    while api_view(url, over["table_id"], token)["observation"]["phase"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    page.goto(f"{url}{over['seats'][0]['url']}")
    link, button = page.get_by_test_id("replay-link"), page.get_by_test_id("share-replay")
    expect(link).to_be_visible()
    expect(button).to_be_visible()
    looks = page.evaluate(
        "() => ['replay-link', 'share-replay'].map((id) => {"
        " const n = document.querySelector(`[data-testid=${id}]`); const s = getComputedStyle(n);"
        " return [s.fontSize, s.paddingTop, s.paddingLeft, s.borderTopWidth,"
        " s.textDecorationLine, Math.round(n.getBoundingClientRect().height),"
        " Math.round(n.getBoundingClientRect().top)]; })"
    )
    assert looks[0] == looks[1], looks
    screenshot(page, "end-screen-links.png")
