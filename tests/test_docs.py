"""The examples in the documentation run and print what the docs say: the pages of docs/ and the
docstrings of every module of the package."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

from doctests import check_examples

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "oriflamme"


def modules_with_examples() -> list[str]:
    """The modules of the package whose source shows a ``>>>`` example (found without importing
    anything)."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            names.append(".".join(parts).removesuffix(".__init__"))
    return names


def test_modules_with_examples_are_found() -> None:
    found = modules_with_examples()
    assert {"oriflamme.api", "oriflamme.rules.records", "oriflamme.tournament"} <= set(found)
    assert len(found) > 25


@pytest.mark.parametrize("name", modules_with_examples())
def test_every_module_example_runs(name: str) -> None:
    """Each such module's examples all run (on the compiled build too) and hold."""
    check_examples(importlib.import_module(name))


@pytest.mark.parametrize("name", ["api.md", "formats.md"])
def test_doc_examples(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # formats.md reads its JSON examples relative to the repo root
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(
        str(ROOT / "docs" / name), module_relative=False, optionflags=flags
    )
    assert result.attempted > 5
    assert result.failed == 0
