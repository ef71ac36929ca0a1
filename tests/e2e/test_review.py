"""End-to-end in Chromium: a game finished against bots, replayed, analysed; a hint (#15).

The server runs with a small search budget for analyses and hints
(``ORIFLAMME_REVIEW_ITERATIONS``), so that the analysis of a whole game takes seconds. With
``ORIFLAMME_SCREENSHOTS=docs`` the test also writes the screenshots of docs/server.md.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

try:
    from playwright.sync_api import Browser, Page, expect
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from served import serving
from sizes_and_seats import ANN, DESKTOP_SHORT, EASY_BOT, PHONE, RANDOM_BOT

pytestmark = pytest.mark.e2e

DOCS = Path(__file__).resolve().parents[2] / "docs"
ANALYSIS_TIMEOUT_MS = 120_000
@pytest.fixture(scope="module")
def review_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``oriflamme serve`` with instant bots and a small review budget."""
    env = {"ORIFLAMME_REVIEW_ITERATIONS": "60"}
    with serving(tmp_path_factory.mktemp("review-server"), ["--tables-per-hour", "0"], env) as url:
        yield url


def create(url: str, **fields: Any) -> dict[str, Any]:
    body = {
        "players": 3,
        "seats": [
            ANN,
            RANDOM_BOT,
            EASY_BOT,
        ],
        "seed": 11,
        **fields,
    }
    answer = httpx.post(f"{url}/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A failed request's console line does not name it: its location does.
    page.on("console", lambda m: errors.append(f"{m.text} ({m.location.get('url', '')})")
            if m.type == "error" else None)
    return errors


def finish_by_clicking(page: Page) -> int:
    """Play the human seat by clicking its first option until the end screen shows; return
    how many decisions it made."""
    made = 0
    end = page.get_by_test_id("end-screen")
    deadline = time.monotonic() + 90
    while not end.is_visible():
        assert time.monotonic() < deadline, "the game did not end"
        options = page.locator('[data-testid="legal-option"]:not(:disabled)')
        if options.count() and not page.evaluate("document.body.classList.contains('busy')"):
            step = page.evaluate("document.body.dataset.step")
            options.first.click()
            made += 1
            page.wait_for_function(
                "(step) => document.body.dataset.step !== step", arg=step, timeout=10_000
            )
        else:
            page.wait_for_timeout(30)
    return made


def step_shown(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.step"))


def log_lines(page: Page) -> int:
    return page.get_by_test_id("log").locator("li").count()


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
        small = image.convert("RGB").resize(
            (860, round(image.height * 860 / image.width)), Image.Resampling.LANCZOS
        )
    small.quantize(colors=128).save(path, optimize=True)


def test_finish_replay_and_analyse_a_game(browser: Browser, review_url: str) -> None:
    table = create(review_url, players=3)
    seat = table["seats"][0]
    page = browser.new_page(viewport=DESKTOP_SHORT)
    errors = watch_errors(page)
    page.goto(f"{review_url}{seat['url']}")
    assert finish_by_clicking(page) > 5
    # The end screen leads to the replay; its Influence chart jumps to a round.
    expect(page.get_by_test_id("replay-link")).to_be_visible()
    page.locator('[data-testid="chart-round"][data-round="2"]').click()
    page.wait_for_url("**/replay?**round=2**")
    expect(page.get_by_test_id("step-counter")).to_contain_text("/")
    record = httpx.get(
        f"{review_url}/api/tables/{table['table_id']}/games/1/replay",
        params={"token": seat["token"]},
    ).json()
    total = len(record["actions"])
    at_round_two = step_shown(page)
    assert 0 < at_round_two < total
    frames = httpx.get(
        f"{review_url}/api/tables/{table['table_id']}/games/1/frames",
        params={"token": seat["token"]},
    ).json()["frames"]
    rounds = [len(f["observation"]["scores_by_round"]) for f in frames]
    assert rounds[at_round_two] == 2 and rounds[at_round_two - 1] == 1  # the end of round 2

    # Step through: buttons, arrow keys, the slider; the log follows the board.
    page.get_by_test_id("first-step").click()
    assert step_shown(page) == 0
    lines_at_start = log_lines(page)
    page.get_by_test_id("next-step").click()
    page.keyboard.press("ArrowRight")
    assert step_shown(page) == 2 and log_lines(page) > lines_at_start
    page.keyboard.press("ArrowLeft")
    assert step_shown(page) == 1
    page.get_by_test_id("step-slider").fill(str(total // 2))
    assert step_shown(page) == total // 2
    page.keyboard.press("End")
    assert step_shown(page) == total
    expect(page.get_by_test_id("step-counter")).to_have_text(f"Step {total} / {total}")

    # Views: as Ann saw it (others' cards hidden), then everything (every card's type shown),
    # at the last step where Ann saw cards of others face down (her frames tell which).
    unseen = [sum(card["type"] is None for stack in f["observation"]["queue"] for card in stack)
              for f in frames]
    step = max(i for i, n in enumerate(unseen) if n > 0)
    page.get_by_test_id("step-slider").fill(str(step))
    assert step_shown(page) == step
    hidden = '[data-testid="queue-card"]:not([data-card-type])'
    expect(page.locator(hidden)).to_have_count(unseen[step])
    assert page.get_by_test_id("replay-hand").count() == 0
    page.get_by_test_id("view-select").select_option("all")
    expect(page.get_by_test_id("replay-hand")).to_have_count(3)
    expect(page.locator(hidden)).to_have_count(0)
    assert page.locator('[data-testid="queue-card"][data-face-up="false"]').count() > 0
    page.get_by_test_id("view-select").select_option("0")
    expect(page.get_by_test_id("replay-hand")).to_have_count(0)

    # The analysis: progress, then the chart and the costliest moves, marked on the replay.
    page.get_by_test_id("analyse-button").click()
    expect(page.get_by_test_id("win-chart")).to_be_visible(timeout=ANALYSIS_TIMEOUT_MS)
    expect(page.get_by_test_id("costly-moves")).to_be_visible(timeout=ANALYSIS_TIMEOUT_MS)
    expect(page.get_by_test_id("analysis-status")).to_be_hidden()
    expect(page.get_by_test_id("analyse-button")).to_be_hidden()
    costly = page.get_by_test_id("costly-move")
    assert 1 <= costly.count() <= 3
    assert page.get_by_test_id("slider-mark").count() == costly.count()
    assert page.get_by_test_id("costly-point").count() == costly.count()
    first_costly = int(costly.first.get_attribute("data-step") or -1)
    costly.first.locator("button").click()
    assert step_shown(page) == first_costly
    verdict = page.get_by_test_id("move-verdict")
    expect(verdict).to_be_visible()
    expect(verdict).to_contain_text("Costly move")
    screenshot(page, "replay-analysis.png")

    # French, then phone width: everything still there, nothing wider than the screen.
    page.get_by_test_id("lang-fr").click()
    expect(page.get_by_test_id("step-counter")).to_contain_text("Étape")
    expect(verdict).to_contain_text("Coup coûteux")
    expect(page.get_by_test_id("analyse-button")).to_be_hidden()
    page.set_viewport_size(PHONE)
    page.get_by_test_id("view-select").select_option("all")
    expect(page.get_by_test_id("replay-hand")).to_have_count(3)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, width
    page.get_by_test_id("lang-en").click()
    page.set_viewport_size(DESKTOP_SHORT)
    page.keyboard.press("Home")
    page.get_by_test_id("step-slider").fill(str(at_round_two))
    screenshot(page, "replay-everything.png")
    assert errors == []
    page.close()


def test_replay_of_two_families_and_embrasement(browser: Browser, review_url: str) -> None:
    """Other set-ups replay too (played to the end by the API here)."""
    for fields in (
        {"players": 2, "variant": "two-families", "seats": [
            ANN, RANDOM_BOT]},
        {"players": 3, "cards": "embrasement"},
    ):
        table = create(review_url, **fields)
        token = table["seats"][0]["token"]
        base = f"{review_url}/api/tables/{table['table_id']}"
        deadline = time.monotonic() + 60
        while (view := httpx.get(f"{base}/view", params={"token": token}).json())["result"] is None:
            assert time.monotonic() < deadline
            if view["legal"]:
                httpx.post(f"{base}/actions", json={
                    "token": token, "action": view["legal"][0]["action"], "step": view["step"]})
            else:
                time.sleep(0.02)
        page = browser.new_page(viewport=PHONE)
        errors = watch_errors(page)
        page.goto(f"{review_url}/t/{table['table_id']}/replay?game=1&token={token}")
        expect(page.get_by_test_id("step-counter")).to_contain_text("/")
        page.keyboard.press("Home")
        page.get_by_test_id("view-select").select_option("all")
        expect(page.get_by_test_id("replay-hand")).to_have_count(fields["players"])
        for _ in range(12):
            page.keyboard.press("ArrowRight")
        assert step_shown(page) == 12
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
        assert errors == []
        page.close()


def test_a_hint_at_a_learning_table(browser: Browser, review_url: str) -> None:
    table = create(review_url, hints=True)
    page = browser.new_page(viewport=DESKTOP_SHORT)
    errors = watch_errors(page)
    page.goto(f"{review_url}{table['seats'][0]['url']}")
    expect(page.get_by_test_id("learning-tag")).to_be_visible()
    ask = page.get_by_test_id("hint-button")
    expect(ask).to_be_visible()
    before = step_shown(page)
    ask.click()
    expect(page.get_by_test_id("hint-text")).to_be_visible(timeout=10_000)
    hinted = page.locator('[data-testid="legal-option"].hinted')
    expect(hinted).to_have_count(1)
    assert page.locator('[data-testid="hand-card"].hinted').count() == 1
    assert step_shown(page) == before  # suggested, never played
    screenshot(page, "hint.png")
    hinted.click()
    page.wait_for_function("(step) => document.body.dataset.step !== step", arg=str(before))
    # A spectator sees that the table is a learning one, without the button.
    spectator = browser.new_page(viewport=DESKTOP_SHORT)
    spectator.goto(f"{review_url}{table['spectator_url']}")
    expect(spectator.get_by_test_id("learning-tag")).to_be_visible()
    expect(spectator.get_by_test_id("hint-button")).to_have_count(0)
    assert errors == []
    spectator.close()
    page.close()
