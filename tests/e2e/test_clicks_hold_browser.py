"""End-to-end in Chromium: the controls of a decision stay the same nodes while the page draws
a view that does not change them. A button drawn anew between the press and the release of a
click loses the click (``replaceIfChanged`` in the client's ``dom.js``; docs/server.md,
"Clicks hold")."""

from __future__ import annotations

import os
import re
from typing import Any

import httpx
import pytest

try:
    from playwright.sync_api import Browser, expect
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from same_node import node_kept
from sizes_and_seats import ANN, BEN, DESKTOP_SHORT

pytestmark = pytest.mark.e2e


def _table(server_url: str) -> dict[str, Any]:
    body = {"players": 2, "seats": [ANN, BEN], "first_player": 0}
    answer = httpx.post(f"{server_url}/api/tables", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def test_a_player_s_options_stay_the_same_nodes_when_another_player_connects(
    browser: Browser, server_url: str
) -> None:
    """Ann is deciding when Ben opens his link: her page draws the new view (Ben is online)
    and keeps her option buttons, which that view does not change."""
    table = _table(server_url)
    contexts = [browser.new_context(viewport=DESKTOP_SHORT, locale="en-US") for _ in range(2)]
    try:
        ann = contexts[0].new_page()
        ann.goto(f"{server_url}{table['seats'][0]['url']}")
        expect(ann.get_by_test_id("waiting")).to_have_text("Your turn")
        option = ann.get_by_test_id("legal-option").first
        expect(option).to_be_enabled()
        ben_online = ann.locator('[data-testid="player"][data-seat="1"] .conn-dot')
        expect(ben_online).to_have_class(re.compile(r"\boffline\b"))
        with node_kept(option):
            ben = contexts[1].new_page()
            ben.goto(f"{server_url}{table['seats'][1]['url']}")
            expect(ben_online).to_have_class(re.compile(r"\bonline\b"))  # the view was drawn
    finally:
        for context in contexts:
            context.close()
