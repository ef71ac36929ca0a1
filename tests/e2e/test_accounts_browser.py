"""End-to-end in Chromium (issue #28, accounts): sign up from the front page, sign out and in
again, the account page (sessions of two browsers, "sign out everywhere"), French texts, and a
passkey added then used to sign in, with the DevTools virtual authenticator.

WebAuthn needs a host name (not an IP address) as its relying party: the pages are opened at
``http://localhost:PORT``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

try:
    from playwright.sync_api import Browser, Page, Route, expect
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from same_node import node_kept
from served import serving
from test_review import watch_errors

pytestmark = pytest.mark.e2e

PASSWORD = "a long enough passphrase"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("accounts-server")) as url:
        yield url.replace("127.0.0.1", "localhost")


def open_dialog(page: Page, which: str) -> None:
    page.get_by_test_id("account-area").get_by_test_id(which).click()
    expect(page.get_by_test_id("account-dialog")).to_be_visible()


def fill_and_submit(page: Page, name: str, password: str) -> None:
    dialog = page.get_by_test_id("account-dialog")
    dialog.get_by_test_id("account-name").fill(name)
    dialog.get_by_test_id("account-password").fill(password)
    dialog.get_by_test_id("account-submit").click()


def sign_up(page: Page, site: str, name: str) -> None:
    page.goto(f"{site}/")
    open_dialog(page, "sign-up")
    fill_and_submit(page, name, PASSWORD)
    expect(page.get_by_test_id("account-link")).to_have_text(name)


def test_a_guest_s_buttons_stay_the_same_when_the_server_answers(
    browser: Browser, site: str
) -> None:
    """The account area draws a guest's buttons before the server has said who is here. Its
    answer, "a guest", keeps the same buttons: a click pressed on a button that is then drawn
    anew would be lost (a flaky test once showed it)."""
    page = browser.new_page()
    held: list[Route] = []
    page.route("**/api/account/session", lambda route: held.append(route))
    page.goto(f"{site}/")
    sign_up_button = page.get_by_test_id("account-area").get_by_test_id("sign-up")
    expect(sign_up_button).to_be_visible()
    with node_kept(sign_up_button):
        page.wait_for_timeout(0)  # lets Playwright hand the held requests over
        assert held, "the page asked the server who is here"
        for route in held:
            route.continue_()
        expect(page.get_by_test_id("account-area")).to_have_attribute("data-answered", "true")
    open_dialog(page, "sign-up")
    page.close()


def test_sign_up_sign_out_and_in_again(browser: Browser, site: str) -> None:
    page = browser.new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/")
    # A weak password is refused with a clear message, the dialog stays open.
    open_dialog(page, "sign-up")
    fill_and_submit(page, "Alice", "password1")
    expect(page.get_by_test_id("account-error")).to_contain_text("most common")
    page.get_by_test_id("account-cancel").click()
    sign_up(page, site, "Alice")
    page.reload()
    expect(page.get_by_test_id("account-link")).to_have_text("Alice")  # the cookie stays

    page.get_by_test_id("sign-out").click()
    expect(page.get_by_test_id("account-area").get_by_test_id("sign-in")).to_be_visible()
    page.reload()
    expect(page.get_by_test_id("account-area").get_by_test_id("sign-in")).to_be_visible()
    open_dialog(page, "sign-in")
    # A wrong password: the message shows the reference the server sent with its refusal
    # (#32: a player's report then finds its log line).
    with page.expect_response(lambda r: r.url.endswith("/api/account/signin")) as answered:
        fill_and_submit(page, "alice", "wrong password")
    refusal = answered.value
    request_id = refusal.headers["x-request-id"]
    assert refusal.status == 401 and refusal.json()["error"]["request_id"] == request_id
    expect(page.get_by_test_id("account-error")).to_have_text(
        f"Wrong name or password. (ref. {request_id})"
    )
    fill_and_submit(page, "alice", PASSWORD)
    expect(page.get_by_test_id("account-link")).to_have_text("Alice")

    # In French.
    page.get_by_test_id("lang-fr").click()
    expect(page.get_by_test_id("sign-out")).to_have_text("Se déconnecter")
    page.get_by_test_id("lang-en").click()
    # The failed requests are the weak password's and the wrong password's: a guest's page
    # asks nothing that fails.
    said = [e.split(" (http")[0] for e in errors]  # each without the address it names
    assert [("422" in e, "401" in e) for e in said] == [(True, False), (False, True)], errors
    page.close()


def test_the_account_page_signs_out_everywhere(browser: Browser, site: str) -> None:
    first, second = browser.new_context(), browser.new_context()
    one, two = first.new_page(), second.new_page()
    errors = watch_errors(one)
    sign_up(one, site, "Bruno")
    two.goto(f"{site}/")
    open_dialog(two, "sign-in")
    fill_and_submit(two, "Bruno", PASSWORD)
    expect(two.get_by_test_id("account-link")).to_have_text("Bruno")

    one.get_by_test_id("account-link").click()
    expect(one.get_by_test_id("account-title-name")).to_have_text("Signed in as Bruno")
    sessions = one.get_by_test_id("session")
    expect(sessions).to_have_count(2)
    expect(one.locator('[data-testid="session"][data-current="true"]')).to_contain_text(
        "This browser"
    )
    one.get_by_test_id("sign-out-everywhere").click()
    expect(one.get_by_test_id("account-guest")).to_be_visible()
    two.reload()
    expect(two.get_by_test_id("account-area").get_by_test_id("sign-in")).to_be_visible()
    assert not errors, errors
    first.close()
    second.close()


def test_a_passkey_is_added_then_signs_in(browser: Browser, site: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    errors = watch_errors(page)
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True,
    }})
    sign_up(page, site, "Chloé")
    page.goto(f"{site}/account")
    expect(page.get_by_test_id("passkeys-none")).to_be_visible()
    page.get_by_test_id("passkey-label").fill("test laptop")
    page.get_by_test_id("passkey-add").click()
    expect(page.get_by_test_id("passkey")).to_have_count(1)
    expect(page.get_by_test_id("passkey")).to_contain_text("test laptop")
    expect(page.get_by_test_id("passkey")).to_contain_text("never used")

    page.goto(f"{site}/")
    page.get_by_test_id("sign-out").click()
    open_dialog(page, "sign-in")
    page.get_by_test_id("passkey-sign-in").click()
    expect(page.get_by_test_id("account-link")).to_have_text("Chloé")
    page.goto(f"{site}/account")
    expect(page.get_by_test_id("passkey")).to_contain_text("last used")
    assert not errors, errors
    context.close()


def test_the_account_area_fits_a_phone(browser: Browser, site: str) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    page.goto(f"{site}/")
    expect(page.get_by_test_id("account-area").get_by_test_id("sign-in")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 376
    open_dialog(page, "sign-in")
    page.get_by_test_id("account-switch").click()  # to the sign-up form
    fill_and_submit(page, "Wilhelmina-Konstantinova", PASSWORD)  # 24 characters
    expect(page.get_by_test_id("account-link")).to_have_text("Wilhelmina-Konstantinova")
    assert page.evaluate("document.documentElement.scrollWidth") <= 376
    # On a phone, signing out is on the account page, which the name links to.
    page.get_by_test_id("account-link").click()
    page.get_by_test_id("page-sign-out").click()
    expect(page.get_by_test_id("account-guest")).to_be_visible()
    context.close()
