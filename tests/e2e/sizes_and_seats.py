"""What the browser tests share: the window sizes they open pages at, and the seats of the
tables they create.

Each test module keeps the sizes it was written and checked at (its screenshots in docs/ and its
"on the first screen" checks depend on them), hence several desktop heights and two phones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Playwright is imported by the tests themselves (skipped without it)
    from playwright.sync_api import ViewportSize

#: A desktop window, 1280 × 900: the game page's tests and the lessons.
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
#: A desktop window less tall, 1280 × 860: the lobby, the review and the fair-play notices.
DESKTOP_SHORT: ViewportSize = {"width": 1280, "height": 860}
#: A laptop's screen, 1280 × 800: the page a player sees must fit its first screen.
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
#: A small phone, 375 × 812 (the narrowest width the client is drawn for).
PHONE: ViewportSize = {"width": 375, "height": 812}
#: A wider phone, 390 × 844.
PHONE_WIDE: ViewportSize = {"width": 390, "height": 844}

ANN: dict[str, Any] = {"kind": "human", "name": "Ann"}
BEN: dict[str, Any] = {"kind": "human", "name": "Ben"}
BOB: dict[str, Any] = {"kind": "human", "name": "Bob"}
#: A seat anyone with the table's link (or the lobby) may take.
OPEN: dict[str, Any] = {"kind": "open"}
RANDOM_BOT: dict[str, Any] = {"kind": "bot", "level": "random"}
EASY_BOT: dict[str, Any] = {"kind": "bot", "level": "easy"}
