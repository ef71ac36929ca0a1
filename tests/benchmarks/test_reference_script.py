"""benchmarks/engine/reference.py: the side-by-side comparison with another engine (issue #13).

The real reference (jojolebarjos/oriflamme-simulator) is not installed here; a stand-in with
its interface (``Board``, ``Kind``, ``PlaceState``, ``state.actions``, ``action.next_state``,
``state.has_ended``), written for this test, checks the script's processes and arithmetic.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from scripts import ROOT, load_module

STAND_IN = '''
import enum


class Kind(enum.Enum):
    ONE = 0
    TWO = 1
    THREE = 2
    FOUR = 3
    FIVE = 4
    SIX = 5
    SEVEN = 6
    EIGHT = 7


class Board:
    def __init__(self, queue, hands, tokens):
        self.hands = [list(hand) for hand in hands]


class Play:
    def __init__(self, board, player, card):
        self.board, self.player, self.card = board, player, card

    @property
    def next_state(self):
        hands = [list(hand) for hand in self.board.hands]
        hands[self.player].remove(self.card)
        board = Board([], hands, [])
        return PlaceState(board, (self.player + 1) % len(hands))


class PlaceState:
    def __init__(self, board, player):
        self.board, self.player = board, player

    @property
    def has_ended(self):
        return not any(self.board.hands)

    @property
    def actions(self):
        return [Play(self.board, self.player, card) for card in self.board.hands[self.player]]
'''


def test_without_the_reference_it_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    script = load_module(ROOT / "benchmarks" / "engine" / "reference.py", "reference_script")
    assert script.main(["--reference-python", "/no/such/python"]) == 0
    assert "reference engine not installed" in capsys.readouterr().out


def test_it_measures_both_engines_side_by_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = tmp_path / "ref" / "oriflamme"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(STAND_IN, encoding="utf-8")
    launcher = tmp_path / "python"
    launcher.write_text(
        f'#!/bin/sh\nPYTHONPATH="{tmp_path / "ref"}" exec "{sys.executable}" "$@"\n')
    launcher.chmod(0o755)
    script = load_module(ROOT / "benchmarks" / "engine" / "reference.py", "reference_script")
    args = ["--reference-python", str(launcher), "--seconds", "0.2", "--games", "20",
            "--repeat", "1", "--json"]
    assert script.main(args) == 0
    figures = json.loads(capsys.readouterr().out)
    reference = figures["reference"]
    assert reference["decisions_per_game"] == 21  # 3 hands of the stand-in's first 7 kinds
    assert reference["hand"][0] == "one" and len(reference["hand"]) == 7
    assert reference["games_per_s"] > 0 and reference["process_s"] > 0
    [ours] = figures["ours"]
    assert "oriflamme" in ours["version"]
    for key in ("playouts", "loop"):
        rate = ours[f"{key}_games_per_s"]
        expected = rate / reference["games_per_s"]
        assert ours[f"{key}_x"] == pytest.approx(expected, rel=0.02, abs=0.006)
    assert ours["simulate_x"] == pytest.approx(
        reference["process_s"] / ours["simulate_process_s"], rel=0.02, abs=0.006)
    assert ours["tournament_x"] == pytest.approx(
        reference["process_s"] / ours["tournament_process_s"], rel=0.02, abs=0.006)
    assert ours["simulate_one_game_s"] > 0 and ours["tournament_process_s"] > 0
