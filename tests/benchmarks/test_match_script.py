"""benchmarks/bots/match.py: a head-to-head match in chunks, resumed after a stop, summed."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from doctests import check_examples
from scripts import ROOT, load_module


def load_script() -> ModuleType:
    return load_module(ROOT / "benchmarks" / "bots" / "match.py", "match_script")


def test_a_match_is_played_in_chunks_resumed_and_summed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = load_script()
    check_examples(match)
    args = ["--bots", "greedy,random", "--chunks", "2", "--chunk", "4", "--seed", "5",
            "--out", str(tmp_path)]
    assert match.main(args) == 0
    first = capsys.readouterr().out
    assert first.count("chunk ") == 2 and "greedy: " in first
    done = sorted(p.name for p in tmp_path.iterdir())
    assert done == ["chunk-5", "chunk-6"]
    stamp = (tmp_path / "chunk-5" / "results.json").stat().st_mtime_ns
    # run again with one more chunk: only the new one is played
    assert match.main([*args[:3], "3", *args[4:]]) == 0
    assert capsys.readouterr().out.count("chunk ") == 1
    assert (tmp_path / "chunk-5" / "results.json").stat().st_mtime_ns == stamp
    summary = match.summarise(tmp_path)
    assert summary["games"] == 12 and summary["chunks"] == 3
    assert summary["deals"] == 6  # each deal played twice, the seats swapped
    assert summary["won_both"] + summary["lost_both"] + summary["split"] == 6
    wins = 0.0
    for chunk in tmp_path.glob("chunk-*/results.json"):
        data = json.loads(chunk.read_text())
        assert data["bots"][0]["bot"] == "greedy"
        wins += data["bots"][0]["wins"]
    assert summary["win_share"] == pytest.approx(wins / 12)
    low, high = summary["interval"]
    assert low < summary["win_share"] < high or summary["win_share"] in (0.0, 1.0)
    assert set(summary["seconds_per_decision"]) == {"greedy", "random"}


def test_the_summary_refuses_chunks_of_another_match(tmp_path: Path) -> None:
    match = load_script()
    match.main(["--bots", "random,greedy", "--chunks", "1", "--chunk", "2", "--seed", "1",
                "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="not of random"):  # played, then refused
        match.main(["--bots", "greedy,random", "--chunks", "1", "--chunk", "2", "--seed", "2",
                    "--out", str(tmp_path)])
    assert (tmp_path / "chunk-2" / "results.json").exists()
    with pytest.raises(SystemExit, match="not of random"):
        match.summarise(tmp_path)
    with pytest.raises(SystemExit, match="no finished chunk"):
        match.summarise(tmp_path / "empty")


def test_one_against_two_in_three_player_games(tmp_path: Path) -> None:
    """One spec per seat: the first bot against the other two, seats rotated over each deal;
    a deal counts as won by the first bot only if it won all three of its games."""
    match = load_script()
    assert match.main(["--bots", "greedy,random,random", "--players", "3", "--chunks", "2",
                       "--chunk", "3", "--seed", "4", "--out", str(tmp_path)]) == 0
    summary = match.summarise(tmp_path)
    assert summary["games"] == 6 and summary["deals"] == 2
    records = [r for chunk in tmp_path.glob("chunk-*/results.json")
               for r in json.loads(chunk.read_text())["records"]]
    assert sorted(r["bots"].index("greedy") for r in records) == [0, 0, 1, 1, 2, 2]
    assert summary["won_both"] + summary["lost_both"] + summary["split"] == 2
    with pytest.raises(SystemExit):
        match.main(["--bots", "greedy,random,random", "--players", "4", "--out",
                    str(tmp_path)])


BASE_TYPES = {"archer", "soldier", "spy", "heir", "assassination", "royal_decree", "lord",
              "shapeshifter", "ambush", "conspiracy"}


def test_a_match_with_the_embrasement_cards_and_a_summary_of_one_set_up(tmp_path: Path) -> None:
    """``--cards`` reaches the tournament; chunks of another set-up in the same folder are
    refused, as those of other bots are."""
    match = load_script()
    assert match.main(["--bots", "greedy,random,random", "--players", "3", "--cards",
                       "embrasement", "--chunks", "1", "--chunk", "3", "--seed", "4", "--out",
                       str(tmp_path)]) == 0
    summary = match.summarise(tmp_path)
    assert summary["setup"]["cards"] == "embrasement" and summary["games"] == 3
    report = json.loads((tmp_path / "chunk-4" / "results.json").read_text())
    played = {c["type"] for c in report["card_types"]}
    assert played and played.isdisjoint(BASE_TYPES)
    with pytest.raises(SystemExit, match="set-up"):  # a base chunk beside them: played, refused
        match.main(["--bots", "greedy,random,random", "--players", "3", "--chunks", "1",
                    "--chunk", "3", "--seed", "5", "--out", str(tmp_path)])
