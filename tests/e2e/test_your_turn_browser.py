"""#29 sections 3 and 4 in Chromium: a hidden tab whose player's turn comes shows "(1) Your
turn" in its title (English and French) until it is seen again, with the chime and the system
notification the settings ask for (permission asked on a click only, never on load); the
settings are kept per browser; "confirm my moves" at a phone's size (on by default there):
Cancel sends nothing, Confirm plays the move; and a signed-in player's "My games" subscribes
to pushes: the service worker registered at the site's root, ``pushManager.subscribe`` called
with the server's key."""

from __future__ import annotations

import base64
import os
import secrets
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

from sizes_and_seats import ANN, DESKTOP, PHONE, RANDOM_BOT
from test_accounts_browser import sign_up

pytestmark = pytest.mark.e2e

#: The page's visibility, controlled by the test: ``window.setHidden(true)`` makes
#: ``document.hidden`` true and fires ``visibilitychange``, as a tab sent to the background.
#: Notifications and permission requests are counted.
PAGE_SPY_JS = """
(() => {
  let hidden = false;
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(Document.prototype, "visibilityState", {
    configurable: true, get: () => (hidden ? "hidden" : "visible") });
  window.setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
  window.notified = [];
  window.permissionAsked = 0;
  const Real = window.Notification;
  if (Real) {
    class Spy extends Real {
      constructor(title, options) {
        super(title, options);
        window.notified.push({ title, body: options && options.body });
      }
    }
    Object.defineProperty(Spy, "permission", { get: () => Real.permission });
    Spy.requestPermission = (...args) => {
      window.permissionAsked += 1;
      return Real.requestPermission(...args);
    };
    window.Notification = Spy;
  }
})();
"""

#: ``pushManager.subscribe``'s calls, their options kept (the key as base64url), before the
#: browser's own subscribe runs (headless Chromium may refuse it: no push service).
SUBSCRIBE_SPY_JS = """
(() => {
  window.subscribeCalls = [];
  const real = PushManager.prototype.subscribe;
  PushManager.prototype.subscribe = function (options) {
    const bytes = new Uint8Array(options.applicationServerKey);
    const key = btoa(String.fromCharCode(...bytes))
      .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
    window.subscribeCalls.push({ userVisibleOnly: options.userVisibleOnly, key });
    return real.call(this, options);
  };
})();
"""


def new_table(server_url: str) -> dict[str, Any]:
    body = {"players": 2, "seats": [ANN, RANDOM_BOT], "seed": 5}
    answer = httpx.post(f"{server_url}/api/tables", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def server_step(server_url: str, table: dict[str, Any]) -> int:
    answer = httpx.get(f"{server_url}/api/tables/{table['table_id']}/view",
                       params={"token": table["seats"][0]["token"]}, timeout=5)
    step: int = answer.json()["step"]
    return step


def ready_to_decide(page: Page) -> None:
    page.wait_for_function(
        "() => !document.body.classList.contains('busy')"
        " && document.querySelector('[data-testid=\"legal-option\"]') !== null"
    )


@pytest.fixture
def desktop(browser: Browser, server_url: str) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport=DESKTOP, locale="en-US")
    made.grant_permissions(["notifications"], origin=server_url)
    made.add_init_script(PAGE_SPY_JS)
    yield made
    made.close()


def test_a_hidden_tab_shows_your_turn_with_the_chime_and_notification(
    desktop: BrowserContext, server_url: str
) -> None:
    table = new_table(server_url)
    page = desktop.new_page()
    page.goto(server_url + table["seats"][0]["url"])
    ready_to_decide(page)
    expect(page).to_have_title("● Your turn — Oriflamme")
    assert page.evaluate("window.permissionAsked") == 0  # never on load

    # The settings: a sound and a notification (allowed in this browser), kept.
    page.get_by_test_id("settings-button").click()
    expect(page.get_by_test_id("settings-menu")).to_be_visible()
    expect(page.get_by_test_id("setting-confirm")).not_to_be_checked()  # not a phone
    page.get_by_test_id("setting-sound").check()
    page.get_by_test_id("setting-notify").check()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("settings-menu")).to_be_hidden()
    expect(page.get_by_test_id("settings-button")).to_be_focused()
    chimes = page.evaluate("window.chimes || 0")

    for lang, title in (("en", "(1) Your turn – Oriflamme"),
                        ("fr", "(1) À vous de jouer – Oriflamme")):
        if lang == "fr":
            page.get_by_test_id("lang-fr").click()
        ready_to_decide(page)
        step = int(page.evaluate("document.body.dataset.step"))
        page.evaluate("window.setHidden(true)")
        page.get_by_test_id("legal-option").first.click()  # the bot answers while hidden
        page.wait_for_function(f"() => Number(document.body.dataset.step) > {step}")
        ready_to_decide(page)
        expect(page).to_have_title(title)
        time.sleep(0.3)
        expect(page).to_have_title(title)  # until the tab is seen again
        page.evaluate("window.setHidden(false)")
        expect(page).not_to_have_title(title)
        assert page.title().startswith("● ")

    notified = page.evaluate("window.notified")
    assert [note["title"] for note in notified] == [
        "Your turn – Oriflamme", "À vous de jouer – Oriflamme"
    ]
    assert notified[1]["body"] == "Votre coup est attendu à cette table."
    assert page.evaluate("window.chimes") >= chimes + 2
    assert page.evaluate("window.permissionAsked") == 0  # granted already: nothing to ask

    # Kept in this browser.
    page.reload()
    page.get_by_test_id("settings-button").click()
    expect(page.get_by_test_id("setting-sound")).to_be_checked()
    expect(page.get_by_test_id("setting-notify")).to_be_checked()


def test_notifications_are_asked_for_on_a_click(browser: Browser, server_url: str) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    context.add_init_script(PAGE_SPY_JS)
    try:
        page = context.new_page()
        page.goto(server_url + new_table(server_url)["seats"][0]["url"])
        ready_to_decide(page)
        assert page.evaluate("window.permissionAsked") == 0
        page.get_by_test_id("settings-button").click()
        page.get_by_test_id("setting-notify").click()
        page.wait_for_function("() => window.permissionAsked === 1")
        # Headless Chromium answers at once; the box is ticked only if allowed.
        permission = page.evaluate("Notification.permission")
        box = page.get_by_test_id("setting-notify")
        if permission == "granted":
            expect(box).to_be_checked()
        else:
            expect(box).not_to_be_checked()
            expect(page.get_by_test_id("setting-note")).to_be_visible()
    finally:
        context.close()


def test_confirm_my_moves_on_a_phone(browser: Browser, server_url: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True)
    try:
        page = context.new_page()
        table = new_table(server_url)
        page.goto(server_url + table["seats"][0]["url"])
        ready_to_decide(page)
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        page.get_by_test_id("settings-button").click()
        expect(page.get_by_test_id("setting-confirm")).to_be_checked()  # a phone's default
        page.get_by_test_id("settings-button").click()
        step = server_step(server_url, table)
        option = page.get_by_test_id("legal-option").first
        label = option.inner_text()
        option.click()
        bar = page.get_by_test_id("confirm-move")
        expect(bar).to_be_visible()
        expect(bar.get_by_test_id("confirm-move-label")).to_have_text(label)
        expect(bar.get_by_test_id("confirm-move-yes")).to_be_focused()
        time.sleep(0.5)
        assert server_step(server_url, table) == step  # nothing sent yet
        bar.get_by_test_id("confirm-move-no").click()
        expect(bar).to_be_hidden()
        time.sleep(0.5)
        assert server_step(server_url, table) == step  # Cancel sent nothing
        assert page.evaluate("document.body.dataset.step") == str(step)
        page.get_by_test_id("legal-option").first.click()
        expect(bar).to_be_visible()
        bar.get_by_test_id("confirm-move-yes").click()
        expect(bar).to_be_hidden()
        page.wait_for_function(f"() => Number(document.body.dataset.step) > {step}")
        assert server_step(server_url, table) > step
        # Escape cancels too.
        ready_to_decide(page)
        step = server_step(server_url, table)
        page.get_by_test_id("legal-option").first.click()
        expect(bar).to_be_visible()
        page.keyboard.press("Escape")
        expect(bar).to_be_hidden()
        time.sleep(0.3)
        assert server_step(server_url, table) == step
    finally:
        context.close()


def test_my_games_subscribes_this_browser_to_pushes(browser: Browser, server_url: str) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    context.grant_permissions(["notifications"], origin=server_url)
    context.add_init_script(SUBSCRIBE_SPY_JS)
    try:
        page = context.new_page()
        sign_up(page, server_url, "Pusher " + secrets.token_hex(3))
        page.reload()
        toggle = page.get_by_test_id("push-toggle")
        expect(toggle).to_have_text("Notify me on this device when it is my turn")
        assert page.evaluate("navigator.serviceWorker.controller") is None  # nothing yet
        toggle.click()
        page.wait_for_function("() => window.subscribeCalls.length === 1")
        (call,) = page.evaluate("window.subscribeCalls")
        key = httpx.get(f"{server_url}/api/push/key", timeout=5).json()["key"]
        assert call == {"userVisibleOnly": True, "key": key}
        assert len(base64.urlsafe_b64decode(key + "=")) == 65
        worker = page.evaluate("""async () => {
            const registration = await navigator.serviceWorker.getRegistration("/");
            const active = registration.active || registration.waiting || registration.installing;
            return { scope: registration.scope, script: active.scriptURL };
        }""")
        assert worker == {"scope": f"{server_url}/", "script": f"{server_url}/push-worker.js"}
        # Headless Chromium has no push service: the browser may refuse the subscription, and
        # the page then says so; if it subscribed, the server holds it.
        state = page.get_by_test_id("push-state")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=\"push-state\"]').dataset.failed"
            " === 'true' || document.querySelector('[data-testid=\"push-toggle\"]')"
            ".textContent.startsWith('Stop')"
        )
        if state.get_attribute("data-failed") == "true":
            expect(state).to_contain_text("Notifications could not be turned on")
        else:
            listed = page.evaluate(
                "fetch('/api/push/subscriptions').then((r) => r.json())")["subscriptions"]
            assert len(listed) == 1
    finally:
        context.close()
