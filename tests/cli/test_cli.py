"""The command line: play (scripted), simulate, replay, bench and clean errors."""

from __future__ import annotations

import io
import json
import random
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console

from oriflamme import __version__
from oriflamme.api import Game, load, new_game
from oriflamme.bots import RandomBot, make_bot, play_game
from oriflamme.build import build_name
from oriflamme.cli import build_parser, main
from oriflamme.cli.common import bot_seed
from oriflamme.cli.play import run_play
from oriflamme.terminal.labels import GameLabels
from oriflamme.terminal.render import board
from scenarios import own_ambush_replay

OPTION = re.compile(r"^\s*(\d+)\. .*\[([^\]]+)\]\s*$", re.MULTILINE)


class Player:
    """Scripted input: first the given lines, then answers read off the options on screen,
    alternately by number and by notation; Enter when asked to pass the screen."""

    def __init__(self, screen: io.StringIO, script: Sequence[str], seed: int = 0) -> None:
        self.screen = screen
        self.script = list(script)
        self.rng = random.Random(seed)
        self.read_upto = 0
        self.options: list[tuple[str, str]] = []
        self.answers = 0

    def readline(self) -> str:
        text = self.screen.getvalue()
        new, self.read_upto = text[self.read_upto :], len(text)
        shown = OPTION.findall(new)
        if shown:
            self.options = shown
        elif "press Enter" in new or "appuyez sur Entrée" in new:
            return "\n"
        if not self.script and ("Save the" in new or "Sauvegarder la partie" in new):
            return "\n"  # the offer to save at the end: no file (not an option number)
        if self.script:
            return self.script.pop(0) + "\n"
        if not self.options:
            return ""
        number, notation = self.rng.choice(self.options)
        self.options = []
        self.answers += 1
        return (number if self.answers % 2 else notation) + "\n"


def run(argv: list[str], script: Sequence[str] = (), seed: int = 0) -> tuple[int, str]:
    screen = io.StringIO()
    console = Console(file=screen, width=200, force_terminal=False, color_system=None)
    code = main(argv, stdin=Player(screen, script, seed), console=console)
    return code, screen.getvalue()


# -- play -----------------------------------------------------------------------------------------
def test_full_three_player_base_game_with_commands_and_mistakes(tmp_path: Path) -> None:
    saved = tmp_path / "mid.json"
    script = [
        "help soldier",
        "help",
        "help nobody",
        "what now",
        "99",
        "reveal 9999",
        "",
        "log",
        "board",
        f"save {saved}",
    ]
    code, out = run(["play", "--players", "3", "--cards", "base", "--seed", "4"], script)
    assert code == 0, out[-2000:]
    assert "seat 0, Red: human" in out and "seat 1, Blue: medium bot" in out
    assert "Soldier (Character)" in out  # help soldier
    assert "save FILE" in out  # help
    assert "No card named 'nobody'" in out
    assert "Not understood: 'what now'" in out
    assert "There is no option 99: choose 1 to" in out
    assert "'reveal 9999' is not a legal option now" in out
    assert f"Saved to {saved}." in out
    assert "Final scores" in out and re.search(r"Winner: |Shared victory: ", out)
    assert json.loads(saved.read_text())["format"] == "oriflamme-save"


def test_full_embrasement_game_in_french() -> None:
    code, out = run(
        ["play", "--players", "4", "--cards", "embrasement", "--seed", "8", "--lang", "fr"],
        ["help soldat"],
        seed=3,
    )
    assert code == 0, out[-2000:]
    assert "Soldat (Personnage)" in out
    assert "Scores finaux" in out


def test_full_two_family_hot_seat_game() -> None:
    argv = ["play", "--players", "2", "--variant", "two-families", "--humans", "2", "--seed", "1"]
    code, out = run(argv, seed=5)
    assert code == 0, out[-2000:]
    assert "Pass to Blue & yellow, then press Enter." in out
    assert "Final scores" in out


MIXED_CARDS = "archer,soldier,spy,heir,assassination,lord,shapeshifter,ambush,conspiracy,queen"


@pytest.mark.parametrize(
    ("options", "setup"),
    [
        (["--players", "2", "--variant", "standard", "--cards", MIXED_CARDS],
         {"players": 2, "variant": "standard", "cards": MIXED_CARDS}),
        (["--players", "3", "--first-player", "random", "--edition", "first"],
         {"players": 3, "first_player": None, "edition": "first"}),
        (["--players", "5", "--cards", "embrasement", "--first-player", "2"],
         {"players": 5, "cards": "embrasement", "first_player": 2}),
    ],
    ids=["2p-one-family-mixed", "3p-random-first-player-first-edition", "5p-embrasement-p2"],
)
def test_play_sets_up_what_the_options_ask(
    tmp_path: Path, options: list[str], setup: dict[str, object]
) -> None:
    """R-SET-1, R-2P-3, R-EDITION-1: the set-up options reach the game (the game saved at the
    first prompt is the API's deal of the same set-up and seed, after the bots' moves before
    it), and the game plays to its end."""
    saved = tmp_path / "start.json"
    code, out = run(["play", *options, "--seed", "6", "--bots", "random"], [f"save {saved}"])
    assert code == 0, out[-2000:]
    assert "Final scores" in out
    data = json.loads(saved.read_text())
    expected = new_game(seed=6, **setup)  # type: ignore[arg-type]
    for action in data["history"]["actions"]:  # the bots' moves before the first prompt
        expected.apply(action)
    assert data == json.loads(json.dumps(expected.save()))


def test_run_play_directly_and_forced_moves_are_announced() -> None:
    # With every seat a bot except one human, single-option decisions of the human are applied
    # and announced; any seed where that happens will do, so look for one among a few.
    for seed in range(6):
        args = build_parser().parse_args(["play", "--seed", str(seed), "--cards", "embrasement"])
        screen = io.StringIO()
        console = Console(file=screen, width=200, force_terminal=False)
        assert run_play(args, input=Player(screen, [], seed), console=console) == 0
        if "(applied automatically)" in screen.getvalue():
            break
    else:
        pytest.fail("no forced decision in six games")


def test_quit_and_end_of_input() -> None:
    code, out = run(["play", "--seed", "1"], ["quit"])
    assert code == 0 and "Game abandoned." in out and "Final scores" not in out
    screen = io.StringIO()
    console = Console(file=screen, width=200, force_terminal=False)
    assert main(["play", "--seed", "1"], stdin=io.StringIO(""), console=console) == 1
    assert "The input ended before the game did." in screen.getvalue()


def test_bots_only_game_prints_the_public_log() -> None:
    code, out = run(["play", "--humans", "0", "--seed", "2", "--players", "5"])
    assert code == 0
    assert "Round 1 ended" in out and "Final scores" in out
    assert "Type 'help'" not in out


def test_the_board_names_only_the_cards_the_viewer_may_know() -> None:
    game = Game.from_position(
        {
            "config": {"players": 3},
            "round": 2,
            "phase": "resolution",
            "queue": [["red:soldier"], ["blue:heir"], ["green:spy*"]],
            "families": {c: {"rest": "set_aside"} for c in ("red", "blue", "green")},
        }
    )
    console = Console(file=io.StringIO(), width=200, force_terminal=False)
    labels = GameLabels(game)

    def shown(viewer: int | None) -> str:
        with console.capture() as capture:
            console.print(board(game.observe(viewer), labels))
        return capture.get()

    red_soldier, blue_heir, green_spy = (
        game.card(r) for r in ("red:soldier", "blue:heir", "green:spy")
    )
    as_red = shown(0)
    assert f"#{red_soldier} Soldier" in as_red and f"#{green_spy} Spy" in as_red
    assert f"#{blue_heir} ?" in as_red and f"#{blue_heir} Heir" not in as_red
    as_blue = shown(1)
    assert f"#{blue_heir} Heir" in as_blue and f"#{red_soldier} ?" in as_blue
    public = shown(None)
    assert f"#{red_soldier} ?" in public and f"#{blue_heir} ?" in public
    assert "Hand (" not in public


# -- simulate -------------------------------------------------------------------------------------
def test_simulate_json_is_one_consistent_object(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "3", "--cards", "base", "--games", "12", "--seed", "3"]
    assert main([*argv, "--json"]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out)
    assert out.strip().count("\n") == 0
    assert summary["games"] == 12 and summary["players"] == 3
    wins, tied = summary["wins"], summary["tied_games"]
    assert len(wins) == len(summary["mean_scores"]) == 3
    # every game has one winner, or several who each count a win
    assert 12 + tied <= sum(wins) <= 12 + 2 * tied
    assert all(score >= 0 for score in summary["mean_scores"])
    assert summary["mean_decisions"] > 3 * 6  # at least one placement per player and round
    assert main([*argv, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in again.items() if k != "seconds"} == {
        k: v for k, v in summary.items() if k != "seconds"
    }


def test_simulate_figures_match_the_games_it_plays(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "2", "--cards", "embrasement", "--games", "4", "--json"]
    assert main([*argv, "--seed", "20", "--variant", "two-families"]) == 0
    summary = json.loads(capsys.readouterr().out)
    # play the same games again through the API (deals 20..23, the same bot seeds)
    totals, wins, tied, decisions = [0, 0], [0, 0], 0, 0
    for seed in range(20, 24):
        game = new_game(players=2, cards="embrasement", seed=seed)
        result = play_game(game, {p: make_bot("random", bot_seed(seed, p)) for p in (0, 1)})
        assert result is not None
        totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
        for p in result.winners:
            wins[p] += 1
        tied += len(result.winners) > 1
        decisions += len(game.history)
    assert summary["games"] == 4 and summary["variant"] == "two-families"
    assert summary["mean_scores"] == [t / 4 for t in totals]
    assert summary["wins"] == wins and summary["tied_games"] == tied
    assert summary["mean_decisions"] == decisions / 4


def test_simulate_in_several_processes_gives_the_same_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--jobs N`` shares the games among N processes; the summary (shared victories
    included) is the same as in one process, and the progress reaches every game."""
    argv = ["simulate", "--players", "4", "--cards", "embrasement", "--games", "120", "--seed",
            "5", "--json"]
    summaries = []
    for jobs in ("1", "2", "3"):
        assert main([*argv, "--jobs", jobs]) == 0
        captured = capsys.readouterr()
        summary = json.loads(captured.out)
        summary.pop("seconds")
        summaries.append(summary)
        assert "simulate: 120/120 games (100%)" in captured.err
    assert summaries[0] == summaries[1] == summaries[2]
    assert summaries[0]["tied_games"] > 0 and sum(summaries[0]["wins"]) == pytest.approx(120)
    assert main([*argv, "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err


def test_simulate_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "4", "--cards", "embrasement", "--games", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Mean score" in out and "Wins" in out
    assert "3 games" in out and "decisions per game" in out
    assert re.search(r"decisions per game; \d+ ms\.", " ".join(out.split()))  # not "0.00 s"


def test_simulate_durations_read_well() -> None:
    from oriflamme.cli.simulate import _duration

    assert [_duration(s) for s in (0.0, 0.004, 0.5, 1.0, 12.345)] == [
        "0 ms", "4 ms", "500 ms", "1.00 s", "12.35 s"]


# -- replay ---------------------------------------------------------------------------------------
def finished_game_file(tmp_path: Path) -> tuple[Path, Game]:
    game = new_game(players=3, cards="embrasement", seed=6)
    play_game(game, {p: RandomBot(p) for p in range(3)})
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(game.replay()))
    return path, game


def test_replay_all_prints_every_action_and_the_result(tmp_path: Path) -> None:
    path, game = finished_game_file(tmp_path)
    code, out = run(["replay", str(path), "--all"])
    assert code == 0
    n = len(game.history)
    assert f"{n}/{n} · " in out and "Final scores" in out
    assert "Warning" not in out
    result = game.result()
    assert result is not None
    assert ("Winner: " if len(result.winners) == 1 else "Shared victory: ") in out


def test_replay_steps_and_quits(tmp_path: Path) -> None:
    path, _ = finished_game_file(tmp_path)
    screen = io.StringIO()
    console = Console(file=screen, width=200, force_terminal=False)
    code = main(
        ["replay", str(path), "--player", "1"], stdin=io.StringIO("\n\nq\n"), console=console
    )
    out = screen.getvalue()
    assert code == 0
    assert " 2/" in out and " 3/" not in out
    assert "viewed by Blue" in out


def test_replay_of_a_save_made_during_play(tmp_path: Path) -> None:
    saved = tmp_path / "save.json"
    code, _ = run(["play", "--players", "2", "--seed", "3"], ["1", "2", f"save {saved}", "quit"])
    assert code == 0
    actions = json.loads(saved.read_text())["history"]["actions"]
    assert len(actions) >= 2  # two answers of Red, and the bots' moves in between
    code, out = run(["replay", str(saved), "--all", "--public"])
    assert code == 0
    n = len(actions)
    assert f"{n} actions" in out and f"{n}/{n} · " in out and f"{n + 1}/" not in out
    assert "Warning" not in out


def test_replay_of_a_position_shows_it(tmp_path: Path) -> None:
    game = Game.from_position(
        {
            "config": {"players": 3},
            "round": 3,
            "queue": [["red:soldier+1"], ["blue:heir"]],
            "families": {c: {"rest": "set_aside"} for c in ("red", "blue", "green")},
        }
    )
    path = tmp_path / "position.json"
    path.write_text(json.dumps(game.position()))
    code, out = run(["replay", str(path), "--player", "0"])
    assert code == 0
    assert "has no history" in out and "Round 3 of 6" in out
    assert f"#{game.card('red:soldier')} Soldier" in out and "1 token" in out


@pytest.mark.parametrize(("edition", "red_discarded"),
                         [("revised", "#3 Ambush"), ("first", "#3 Ambush, #6 Soldier")])
def test_replay_shows_an_own_ambush_among_the_discarded_cards(
    tmp_path: Path, edition: str, red_discarded: str
) -> None:
    """R-AMBUSH-3, R-ELIM-2: red's Soldier eliminates red's own Ambush; the log says so and the
    board lists the Ambush (and, in the first edition, the Soldier) as discarded."""
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(own_ambush_replay(edition)))
    code, out = run(["replay", str(path), "--all", "--public"])
    assert code == 0
    last = out[out.index("11/11 · Red: "):]
    assert "Red eliminated Red Ambush with Soldier\n  Red Ambush was discarded" in last
    assert f"Discarded (Red): {red_discarded}\n" in last
    assert "Eliminated (" not in last


def test_replay_of_a_save_written_before_r_ambush_3_plays_it_again(tmp_path: Path) -> None:
    """A save keeps the position its engine wrote: one from before R-AMBUSH-3 was corrected
    (the own Ambush eliminated, no discarded event) still loads as it was saved, and replaying
    its history files the Ambush as discarded, with a warning that the two differ."""
    save = load(own_ambush_replay()).save()
    red = save["position"]["families"]["red"]
    red["discarded"].remove("ambush")
    red["eliminated"] = ["ambush"]
    # The old engine logged no discarded event for the Ambush.
    assert save["log"][-2][:4] == [4, 2, 0, 3]
    del save["log"][-2]
    old = load(save)
    assert old.position()["families"]["red"]["eliminated"] == ["ambush"]
    path = tmp_path / "old-save.json"
    path.write_text(json.dumps(save))
    code, out = run(["replay", str(path), "--all", "--public"])
    assert code == 0
    assert "Warning: the saved position differs from its replayed history." in out
    assert "Discarded (Red): #3 Ambush\n" in out[out.index("11/11 · "):]


def test_the_board_lists_every_familys_public_piles() -> None:
    """R-ELIM-2: discarded and eliminated cards are public: every viewer sees them, by name."""
    game = Game.from_position(
        {
            "config": {"players": 3},
            "round": 3,
            "queue": [["red:soldier"], ["blue:heir"]],
            "families": {
                "red": {"discarded": ["ambush", "spy"], "rest": "set_aside"},
                "blue": {"eliminated": ["lord"], "rest": "set_aside"},
                "green": {"rest": "set_aside"},
            },
        }
    )
    console = Console(file=io.StringIO(), width=200, force_terminal=False)
    ambush, spy, lord = (game.card(r) for r in ("red:ambush", "red:spy", "blue:lord"))
    for viewer in (None, 0, 1, 2):
        with console.capture() as capture:
            console.print(board(game.observe(viewer), GameLabels(game)))
        shown = capture.get()
        assert f"Discarded (Red): #{ambush} Ambush, #{spy} Spy\n" in shown
        assert f"Eliminated (Blue): #{lord} Lord\n" in shown
        assert "Eliminated (Red)" not in shown and "Discarded (Blue)" not in shown
        assert "Discarded (Green)" not in shown and "Eliminated (Green)" not in shown


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"format": "oriflamme-replay", "config": {}, "seed": "x", "actions": []}', "seed"),
        (
            '{"format": "oriflamme-replay", "config": {}, "seed": 1, "actions": [{"kind": "fly"}]}',
            "actions[0]",
        ),
        ("[1, 2]", "JSON object"),
    ],
)
def test_a_corrupt_record_is_a_clean_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["replay", str(path), "--all"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


# -- errors, help, version, bench -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--players", "9"], "--players: expected a whole number from 2 to 5, not '9'"),
        (["play", "--players", "0"], "--players: expected a whole number from 2 to 5, not '0'"),
        (["play", "--players", "-3"], "--players: expected a whole number from 2 to 5"),
        (["play", "--first-player", "5"], "--first-player must be a seat from 0 to 2 or 'random'"),
        (["simulate", "--players", "2", "--games", "1", "--first-player", "2"], "0 to 1 or"),
        (["play", "--seed", "-1"], "--seed: expected a whole number from 0"),
        (["replay", "x.json", "--player", "7"], "--player: expected a whole number from 0 to 4"),
        (["bench", "--seconds", "-1"], "--seconds: expected seconds more than 0"),
        (["bench", "--seconds", "nan"], "--seconds: expected seconds more than 0"),
        (["tournament", "--bots", "random", "--games", "1", "--players", "1"], "from 2 to 5"),
        (["tournament", "--bots", "random", "--games", "1", "--seed", "-2"], "--seed: expected"),
        (["serve", "--port", "99999"], "--port: expected a whole number from 0 to 65535"),
        (["serve", "--port", "-1"], "--port: expected a whole number from 0 to 65535"),
        (["serve", "--workers", "0"], "--workers: expected a whole number from 1"),
        (["serve", "--bot-delay", "-1"], "--bot-delay: expected seconds from 0 to 60"),
        (["serve", "--tables-per-hour", "-5"], "--tables-per-hour: expected a whole number"),
        (["play", "--cards", "base,foo"], "unknown card type"),
        (["play", "--bots", "nobody"], "known bots: "),
        (["play", "--humans", "4"], "--humans must be 0 to 3"),
        (["play", "--bots", "random,random,random"], "names 3 bots but there are 2 bot seats"),
        (["play", "--variant", "two-families"], "two-families variant is for 2 players"),
        (["play", "--players", "three"], "expected a whole number from 2 to 5, not 'three'"),
        (["play", "--first-player", "x"], "expected a player number or 'random'"),
        (["simulate", "--players", "3", "--games", "0"], "expected a whole number of at least 1"),
        (["simulate", "--games", "2"], "--players"),
        (["replay", "/nonexistent/file.json"], "cannot read"),
        (["replay", "x.json", "--player", "1", "--public"], "not allowed with"),
        (["fly"], "invalid choice"),
        ([], "COMMAND"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv, stdin=io.StringIO("")) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    if argv:
        assert err.count("\n") == 1


def test_help_lists_the_commands_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("play", "simulate", "replay", "bench"):
        assert re.search(rf"^\s+{command}\s", out, re.MULTILINE)
    assert main(["--version"]) == 0
    # The version names the build in use (issue #13): "pure Python" or "compiled (mypyc, ...)".
    assert capsys.readouterr().out.strip() == f"oriflamme {__version__} ({build_name()})"


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue #13: one run gives every figure (playouts, engine loops, runner, search, adapters)
    # and names the build it measured.
    assert main(["bench", "--seconds", "0.05", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["build"] == build_name() and figures["version"] == __version__
    rows = figures["playouts"]
    assert isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows)
    engine = figures["engine"]
    for key in ("playout_games_per_s", "loop_games_per_s", "simulate_games_per_s"):
        assert engine[key] > 0
    assert figures["search"]["iterations_per_s"] > 0
    adapters = figures["adapters"]
    assert "missing" in adapters or adapters["openspiel_x"] > 0
    if "missing" not in adapters:  # the protocols' own cost, on a trivial game
        assert adapters["openspiel_floor_us"] > 0 and adapters["pettingzoo_floor_us"] > 0
    assert main(["bench", "--seconds", "0.02"]) == 0
    out = capsys.readouterr().out
    assert "protocol alone" in out or "not measured" in out
    assert "games/s" in out and "decisions/s" in out and build_name() in out
    assert "ISMCTS" in out or "ismcts" in out
    assert all(str(row["setup"]) in out for row in rows)


def test_bench_side_by_side_with_another_build(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--other runs the benchmark with another python (here this one, through a launcher that
    finds these sources: --other drops PYTHONPATH) and prints both side by side."""
    import oriflamme

    launcher = tmp_path / "python"
    sources = Path(oriflamme.__file__).resolve().parents[1]
    launcher.write_text(f'#!/bin/sh\nPYTHONPATH="{sources}" exec "{sys.executable}" "$@"\n')
    launcher.chmod(0o755)
    assert main(["bench", "--seconds", "0.02", "--other", str(launcher)]) == 0
    out = capsys.readouterr().out
    assert "Side by side" in out and "ISMCTS iterations/s" in out
    assert main(["bench", "--seconds", "0.02", "--other", "/no/such/python"]) == 2
    assert "--other /no/such/python: cannot run it" in capsys.readouterr().err


def test_simulate_imports_only_what_it_uses() -> None:
    """Issue #13: start-up is part of a short ``simulate``; the other commands' modules (the
    tournament package, the server, asyncio, NumPy, the search bots; with --json not even
    rich) are not imported by it. Runs in a fresh interpreter, output to a pipe."""
    import subprocess

    code = (
        "import sys\n"
        "from oriflamme.cli.main import main\n"
        "assert main(['simulate', '--players', '3', '--games', '2', '--json']) == 0\n"
        "heavy = ['oriflamme.tournament', 'oriflamme.server', 'asyncio', 'rich',\n"
        "         'oriflamme.cli.play', 'oriflamme.cli.bench', 'numpy', 'matplotlib',\n"
        "         'oriflamme.bots.ismcts', 'oriflamme.bots.evaluation', 'multiprocessing']\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    summary, imported = done.stdout.strip().splitlines()
    assert json.loads(summary)["games"] == 2
    assert imported == "[]"


def test_a_tournament_in_one_process_imports_only_what_it_uses(tmp_path: Path) -> None:
    """Issue #13: a short tournament in this process (``--jobs 1``) with ``--json`` starts
    without rich, a process pool, the server or a plotting library; its JSON is the results."""
    import subprocess

    out = tmp_path / "t"
    code = (
        "import sys\n"
        "from oriflamme.cli.main import main\n"
        "assert main(['tournament', '--bots', 'random,random', '--games', '4', '--jobs', '1',\n"
        f"             '--out', {str(out)!r}, '--json']) == 0\n"
        "heavy = ['rich', 'multiprocessing', 'concurrent.futures', 'logging', 'asyncio',\n"
        "         'oriflamme.server', 'matplotlib', 'numpy', 'oriflamme.bots.ismcts']\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    results, imported = done.stdout.strip().splitlines()
    assert json.loads(results) == json.loads((out / "results.json").read_text())
    assert imported == "[]"


def test_bot_seeds_are_distinct_per_game_and_seat() -> None:
    """Each seat of each game gets its own bot seed (the bots' generators mix it); a seat out
    of range is refused rather than colliding with another game's."""
    seeds = {bot_seed(game, seat) for game in range(200) for seat in range(5)}
    assert len(seeds) == 1000
    assert bot_seed(5, 2) == bot_seed(5, 2) != bot_seed(5, 3)
    with pytest.raises(ValueError, match="a seat is 0 to 7, not 8"):
        bot_seed(1, 8)
