"""A check that a page keeps an element's node while it draws a region again (a button drawn
anew between the press and the release of a click would lose the click: ``replaceIfChanged`` in
the client's ``dom.js``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Locator


@contextmanager
def node_kept(element: Locator) -> Iterator[None]:
    """Marks the node ``element`` finds; after the ``with``, ``element`` must find that node."""
    element.evaluate("node => { node.markedByTheTest = true; }")
    yield
    assert element.evaluate("node => node.markedByTheTest === true"), "drawn anew"
