"""The examples in the documentation run and print what the docs say."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["api.md", "formats.md"])
def test_doc_examples(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # formats.md reads its JSON examples relative to the repo root
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(
        str(ROOT / "docs" / name), module_relative=False, optionflags=flags
    )
    assert result.attempted > 5
    assert result.failed == 0
