"""End-to-end in Chromium (issue #26 items 3 and 11): the lobby page after one address tried to
flood it. The create form comes first on the page (desktop and phone), the open tables come a
page at a time with filters, a real table stays on the first page, each entry says what
matters before joining (bots marked, clock, stand-in, absence limit, hints, edition, language),
a new public table appears at once (the page's timers frozen), and a join link shows its table
even when it is not listed. With ``ORIFLAMME_SCREENSHOTS=docs`` the screenshots of
docs/server.md are written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

try:
    from playwright.sync_api import Browser, Page, ViewportSize, expect
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from served import serving
from sizes_and_seats import ANN, DESKTOP_SHORT, OPEN, PHONE_WIDE
from test_review import DOCS, watch_errors

pytestmark = pytest.mark.e2e

FLOODER = "127.0.0.2"
#: Other people's tables, each from an address of its own: two pages of the lobby.
OTHERS = [f"127.0.0.{n}" for n in range(3, 15)]


@pytest.fixture(scope="module")
def lobby_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``oriflamme serve`` with its default lobby quota (3 listed tables per address)."""
    with serving(tmp_path_factory.mktemp("lobby-server")) as url:
        yield url


def create_from(url: str, address: str, **fields: Any) -> httpx.Response:
    body = {"players": 3, "seats": [ANN, OPEN, OPEN], "public": True, **fields}
    with httpx.Client(
        base_url=url, timeout=10, transport=httpx.HTTPTransport(local_address=address)
    ) as client:
        return client.post("/api/tables", json=body)


#: The other people's tables: a name, then the set-up (players, cards, clock), in turn.
NAMES = ["Bruno", "Chloé", "Dmitri", "Élise", "Farah", "Gus", "Hana", "Iris", "Jon", "Kemal", "Léa"]
SETUPS: list[dict[str, Any]] = [
    {"players": 2, "variant": "standard"},
    {"players": 3, "cards": "embrasement"},
    {"players": 4, "clock": {"per_decision": 120}, "absent_after": 600},
    {"players": 3, "clock": {"per_decision": 30}, "stand_in": "easy", "absent_after": None},
]


@pytest.fixture(scope="module")
def flooded(lobby_url: str) -> dict[str, Any]:
    """One address tries 120 public 5-seat tables (3 are listed); twelve other people list a
    table each; one of them a learning table with a hard bot, a clock and an expert stand-in."""
    five = {"players": 5, "seats": [ANN, OPEN, OPEN, OPEN, OPEN]}
    answers = [create_from(lobby_url, FLOODER, **five) for _ in range(120)]
    codes = [a.status_code for a in answers]
    assert codes.count(201) == 3 and codes.count(429) == 117, codes
    others: list[tuple[str, int]] = []
    for i, address in enumerate(OTHERS[1:]):
        setup = SETUPS[i % len(SETUPS)]
        host = {"kind": "human", "name": NAMES[i]}
        seats = [host] + [OPEN] * (setup["players"] - 1)
        answer = create_from(lobby_url, address, **setup, seats=seats)
        assert answer.status_code == 201, answer.text
        others.append((answer.json()["table_id"], setup["players"]))
    learning = create_from(
        lobby_url,
        OTHERS[0],
        players=4,
        seats=[ANN, {"kind": "bot", "level": "hard"}, OPEN, OPEN],
        hints=True,
        clock={"per_decision": 45},
        stand_in="expert",
        absent_after=300,
        edition="first",
        lang="fr",
    )
    assert learning.status_code == 201, learning.text
    return {"learning": learning.json()["table_id"], "others": others}


def screenshot(page: Page, name: str, testid: str | None = None) -> None:
    """With ``ORIFLAMME_SCREENSHOTS=docs``: the first screen of the page (or one element of
    it) into docs/NAME, at most 860 pixels wide, 128 colours, when Pillow is installed."""
    if os.environ.get("ORIFLAMME_SCREENSHOTS") != "docs":
        return
    path = DOCS / name
    page.mouse.move(0, 0)
    # The sticky top bar would cover the middle of a tall element's picture.
    page.evaluate("document.querySelector('.topbar').style.position = 'static'")
    if testid is None:
        page.screenshot(path=str(path), type="png")
    else:
        page.get_by_test_id(testid).screenshot(path=str(path), type="png")
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


def listed(page: Page) -> list[str]:
    return [
        str(row.get_attribute("data-table"))
        for row in page.get_by_test_id("open-tables").get_by_test_id("open-table").all()
    ]


@pytest.mark.parametrize("viewport", [DESKTOP_SHORT, PHONE_WIDE], ids=["desktop", "phone"])
def test_the_create_form_comes_first_and_the_lobby_comes_in_pages(
    browser: Browser, lobby_url: str, flooded: dict[str, Any], viewport: ViewportSize
) -> None:
    page = browser.new_page(viewport=viewport, locale="en-US")
    errors = watch_errors(page)
    page.goto(f"{lobby_url}/")
    form = page.get_by_test_id("create-form")
    expect(form).to_be_visible()
    form_box = form.bounding_box()
    tables_box = page.get_by_test_id("open-tables-section").bounding_box()
    assert form_box is not None and tables_box is not None
    assert form_box["y"] < viewport["height"] / 2  # on the first screen, not 10,000 px down
    assert form_box["y"] < tables_box["y"]
    rows = page.get_by_test_id("open-tables").get_by_test_id("open-table")
    expect(rows).to_have_count(10)  # a page: 15 tables are listed
    first = listed(page)
    assert flooded["learning"] in first and flooded["others"][-1][0] in first
    flood_rows = page.get_by_test_id("open-tables").locator(
        "[data-testid=open-table]:has([data-seat='4'])"
    )
    assert flood_rows.count() <= 1  # the flooder's newest comes in turn with everyone's
    expect(page.get_by_test_id("lobby-page")).to_have_text("Page 1")
    suffix = "" if viewport is DESKTOP_SHORT else "-phone"
    screenshot(page, f"lobby{suffix}.png")
    screenshot(page, f"lobby-open-tables{suffix}.png", "open-tables-section")
    page.get_by_test_id("lobby-next").click()
    expect(page.get_by_test_id("lobby-page")).to_have_text("Page 2")
    expect(rows).to_have_count(5)
    second = listed(page)
    assert not set(first) & set(second)
    expect(page.get_by_test_id("lobby-next")).to_be_disabled()
    page.get_by_test_id("lobby-previous").click()
    expect(page.get_by_test_id("lobby-page")).to_have_text("Page 1")
    expect(rows).to_have_count(10)
    assert errors == []
    page.close()


def test_an_entry_shows_bots_clock_stand_in_absence_and_hints_in_both_languages(
    browser: Browser, lobby_url: str, flooded: dict[str, Any]
) -> None:
    page = browser.new_page(viewport=DESKTOP_SHORT, locale="en-US")
    errors = watch_errors(page)
    page.goto(f"{lobby_url}/")
    page.get_by_test_id("filter-hints").select_option("true")
    rows = page.get_by_test_id("open-tables").get_by_test_id("open-table")
    expect(rows).to_have_count(1)
    row = rows.first
    assert row.get_attribute("data-table") == flooded["learning"]
    bot = row.locator("[data-testid=lobby-seat][data-kind=bot]")
    expect(bot).to_have_count(1)
    expect(bot.get_by_test_id("bot-tag")).to_have_text("bot · hard", ignore_case=True)
    expect(row.get_by_test_id("join-seat")).to_have_count(2)
    expect(row.get_by_test_id("open-table-setup")).to_contain_text(
        "4 players · Oriflamme (base game) · first edition · in French"
    )
    expect(row.get_by_test_id("open-table-rules")).to_have_text(
        "45 s per move (then the expert bot plays) · away 5 min: the expert bot plays"
        " · a player who never comes is played for after 5 min · hints allowed"
    )
    page.get_by_test_id("lang-fr").click()
    expect(bot.get_by_test_id("bot-tag")).to_have_text("robot · difficile", ignore_case=True)
    # Its name too, as the server gave it, in French (issue #26, page item 7).
    expect(bot).to_contain_text(re.compile(r"Robot (rouge|bleu|vert|jaune|violet) \(difficile\)"))
    expect(row.get_by_test_id("open-table-setup")).to_contain_text(
        "4 joueurs · Oriflamme (jeu de base) · première édition · en français"
    )
    expect(row.get_by_test_id("open-table-rules")).to_have_text(
        "45 s par coup (puis le robot expert joue) · absent 5 min\u202f: le robot expert joue"
        " · un joueur qui ne vient jamais est remplacé au bout de 5 min · conseils permis"
    )
    page.get_by_test_id("lang-en").click()
    page.get_by_test_id("filter-hints").select_option("false")
    page.get_by_test_id("filter-players").select_option("5")
    expect(rows).to_have_count(3)  # the flooder's three
    page.get_by_test_id("filter-players").select_option("2")
    expect(rows).to_have_count(sum(players == 2 for _, players in flooded["others"]))
    page.get_by_test_id("filter-clock").select_option("true")
    expect(rows).to_have_count(0)
    expect(page.get_by_test_id("open-tables-empty")).to_have_text(
        "No table waiting for players matches these filters."
    )
    assert errors == []
    page.close()


def test_a_new_public_table_appears_at_once(
    browser: Browser, lobby_url: str, flooded: dict[str, Any]
) -> None:
    page = browser.new_page(viewport=DESKTOP_SHORT, locale="en-US")
    errors = watch_errors(page)
    page.clock.install()
    page.goto(f"{lobby_url}/")
    rows = page.get_by_test_id("open-tables").get_by_test_id("open-table")
    expect(rows).to_have_count(10)
    # From now on no timer fires (the 3-second refresh included) unless the test says so.
    page.clock.pause_at(datetime.now() + timedelta(seconds=1))
    page.get_by_test_id("players-count").select_option("2")
    page.get_by_test_id("variant").select_option("standard")
    seats = page.get_by_test_id("seat-row")
    seats.nth(0).get_by_test_id("seat-kind").select_option("human")
    seats.nth(0).get_by_test_id("seat-name").fill("Mine")
    seats.nth(1).get_by_test_id("seat-kind").select_option("open")
    page.get_by_test_id("public").check()
    page.get_by_test_id("create-game").click()
    expect(page.get_by_test_id("created")).to_be_visible()
    href = page.get_by_test_id("open-my-seat").get_attribute("href")
    assert href is not None
    mine = href.split("?")[0].rsplit("/", 1)[-1]
    expect(
        page.locator(f"[data-testid=open-tables] [data-testid=open-table][data-table='{mine}']")
    ).to_be_visible()
    assert listed(page)[0] == mine  # the newest of its creator and of all
    # Someone else's new table comes with the next refresh, without reloading the page.
    theirs = create_from(lobby_url, "127.0.0.40", players=2, seats=[OPEN, ANN]).json()["table_id"]
    page.clock.run_for(3500)
    expect(page.locator(
        f"[data-testid=open-tables] [data-testid=open-table][data-table='{theirs}']"
    )).to_be_visible()
    assert errors == []
    page.close()


def test_a_join_link_shows_its_table_even_unlisted(browser: Browser, lobby_url: str) -> None:
    private = create_from(
        lobby_url, "127.0.0.41", public=False, players=2, seats=[ANN, OPEN], variant="standard"
    ).json()
    page = browser.new_page(viewport=PHONE_WIDE, locale="en-US")
    errors = watch_errors(page)
    page.goto(f"{lobby_url}/?join={private['table_id']}")
    invited = page.get_by_test_id("invited-table").get_by_test_id("open-table")
    expect(invited).to_have_count(1)
    assert invited.get_attribute("data-table") == private["table_id"]
    expect(invited.get_by_test_id("open-table-setup")).to_contain_text("One family each")
    page.get_by_test_id("join-name").fill("Bea")
    invited.get_by_test_id("join-seat").click()
    page.wait_for_url(f"**/t/{private['table_id']}?seat=*")
    page.goto(f"{lobby_url}/?join={private['table_id']}")
    expect(page.get_by_test_id("invited-gone")).to_have_text(
        "This table has no open seat any more."
    )
    assert errors == []
    page.close()



def test_one_table_too_many_is_refused_in_the_players_language(
    browser: Browser, lobby_url: str
) -> None:
    while create_from(lobby_url, "127.0.0.1").status_code == 201:
        pass  # this address's tables fill its places in the lobby
    page = browser.new_page(viewport=PHONE_WIDE, locale="fr-FR")
    page.goto(f"{lobby_url}/")
    expect(page.get_by_test_id("create-game")).to_have_text("Créer la partie")
    seats = page.get_by_test_id("seat-row")
    seats.nth(1).get_by_test_id("seat-kind").select_option("open")
    page.get_by_test_id("public").check()
    page.get_by_test_id("create-game").click()
    # The refusal's text, and its reference in the server's logs (#32: the request id).
    expect(page.get_by_test_id("toast")).to_have_text(re.compile(
        "^Vous avez déjà autant de tables dans le salon que permis\u202f: fermez-en une, ou"
        " attendez qu’une se remplisse\\. \\(réf\\. [0-9a-f]{12}\\)$"
    ))
    expect(page.get_by_test_id("create-form")).to_be_visible()  # nothing was created
    page.close()
