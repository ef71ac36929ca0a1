"""The terminal game (issues #17 and #19): one language from start to end, French commands,
continuing a saved game, saving it at the end and before leaving, a spinner while bots think."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from oriflamme.api import load, new_game
from oriflamme.cli import main
from oriflamme.terminal.texts import COMMANDS, TEXTS
from test_cli import Player, run

PLACEHOLDER = re.compile(r"\{[^}]*\}")
#: Words the two languages share: Influence, names, and the notation of actions, which is the
#: same in both languages ("reveal 12", "leave 12", "place 3 end"; docs/formats.md).
SHARED = {
    "influence", "oriflamme", "embrasement", "json", "reveal", "leave", "place", "target",
    "front", "spend", "twin", "player", "replay",
}


def fragments(template: str) -> set[str]:
    """The literal pieces of a template worth looking for: words of 5 letters or more."""
    words = set()
    for piece in PLACEHOLDER.split(template):
        words.update(
            w for w in re.findall(r"[A-Za-zÀ-ÿ']{5,}", piece) if w.lower() not in SHARED
        )
    return words


def leftovers(out: str, other: str, lang: str) -> set[str]:
    """Words of the ``other`` language's texts found in ``out`` that ``lang``'s texts (and the
    command names both languages accept) do not use."""
    own = set().union(*(fragments(t) for t in TEXTS[lang].values()))
    own |= {name for names in COMMANDS.values() for name in names["en"]}
    foreign = set().union(*(fragments(t) for t in TEXTS[other].values())) - own
    return {word for word in foreign if re.search(rf"\b{re.escape(word)}\b", out)}


#: English texts the terminal printed before every line went through the tables (issue #17).
ENGLISH_ONLY = [
    "players, embrasement cards", "Type 'help' for the commands", "Round 1 of 6", "The Queue is",
    "face down", "face up", "first player", "Set aside", "to decide", "none", "Final scores",
    "Cards in the Queue", "winner", "Winner:", "Not understood", "There is no option",
    "is not a legal option", "Pass to",
]


@pytest.mark.parametrize(
    "argv",
    [
        ["--players", "2", "--variant", "two-families", "--humans", "2", "--seed", "1"],
        ["--players", "3", "--cards", "embrasement", "--seed", "4"],
    ],
    ids=["2p-two-families-hot-seat", "3p-embrasement"],
)
def test_a_whole_game_in_french_has_no_english_left(argv: list[str]) -> None:
    script = ["aide", "aide soldat", "quoi donc", "99", "plateau", "journal"]
    code, out = run(["play", *argv, "--lang", "fr"], script, seed=7)
    assert code == 0, out[-2000:]
    assert "Scores finaux" in out and ("Gagnant : " in out or "Victoire partagée" in out)
    assert "Pas compris : 'quoi donc'" in out and "Il n'y a pas de possibilité 99" in out
    assert "Commandes :" in out and "sauver FICHIER" in out  # aide
    assert "Soldat (Personnage)" in out  # aide soldat
    for english in ENGLISH_ONLY:
        assert english not in out, english
    assert leftovers(out, "en", "fr") == set()


@pytest.mark.parametrize(
    "argv",
    [
        ["--players", "2", "--variant", "two-families", "--humans", "2", "--seed", "1"],
        ["--players", "3", "--cards", "embrasement", "--seed", "4"],
    ],
    ids=["2p-two-families-hot-seat", "3p-embrasement"],
)
def test_a_whole_game_in_english_has_no_french_left(argv: list[str]) -> None:
    script = ["help", "help soldier", "what now", "99", "board", "log"]
    code, out = run(["play", *argv], script, seed=7)
    assert code == 0, out[-2000:]
    assert "Final scores" in out
    assert leftovers(out, "fr", "en") == set()


def test_french_commands_work_and_english_ones_too(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    script = [f"sauver {first}", f"save {second}", "plateau", "board", "journal", "log", "quitter"]
    code, out = run(["play", "--players", "3", "--seed", "2", "--lang", "fr"], script)
    assert code == 0
    assert f"Sauvegardée dans {first}." in out and f"Sauvegardée dans {second}." in out
    assert out.count("Manche 1 sur 6") >= 3  # the turn, plateau, board
    assert "Partie abandonnée." in out
    assert load(first).save() == load(second).save()


def test_a_saved_game_continues_with_load(tmp_path: Path) -> None:
    saved = tmp_path / "mid.json"
    code, out = run(["play", "--players", "3", "--seed", "6"], ["1", "1", f"save {saved}", "quit"])
    assert code == 0 and f"Saved to {saved}." in out
    before = load(saved)
    code, out = run(["play", "--load", str(saved), "--bots", "random"], seed=1)
    assert code == 0, out[-2000:]
    assert f"a saved game continued from {saved}" in out and "Final scores" in out
    assert "seat 1, Blue: random bot" in out
    # A replay and a position continue too.
    replay, position = tmp_path / "r.json", tmp_path / "p.json"
    replay.write_text(json.dumps(before.replay()))
    position.write_text(json.dumps(before.position()))
    for path in (replay, position):
        code, out = run(["play", "--load", str(path), "--humans", "0"])
        assert code == 0 and "Final scores" in out


def test_load_refuses_set_up_options_and_finished_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = new_game(players=3, seed=3)
    saved = tmp_path / "g.json"
    saved.write_text(json.dumps(game.save()))
    assert main(["play", "--load", str(saved), "--players", "4"], stdin=io.StringIO("")) == 2
    assert "--players is not allowed with --load" in capsys.readouterr().err
    game.playout(__import__("random").Random(1))
    saved.write_text(json.dumps(game.save()))
    assert main(["play", "--load", str(saved)], stdin=io.StringIO("")) == 2
    assert "this game is over" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_bytes(b"\x00\x01\xff\xfe")
    assert main(["play", "--load", str(broken)], stdin=io.StringIO("")) == 2
    err = capsys.readouterr().err
    assert "not a text file" in err and err.count("\n") == 1


def test_saving_expands_the_home_strips_quotes_and_asks_before_replacing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "x.json").write_text("keep me")
    script = ['save "~/x.json"', "no", "save '~/x.json'", "yes", "save ~/y.json", "quit"]
    code, out = run(["play", "--players", "3", "--seed", "2"], script)
    assert code == 0
    assert f"{tmp_path / 'x.json'} exists. Overwrite it?" in out
    assert f"Not saved: {tmp_path / 'x.json'} was kept." in out
    assert load(tmp_path / "x.json").config.players == 3  # replaced after "yes"
    assert load(tmp_path / "y.json").config.players == 3


def test_a_finished_game_can_be_saved_and_save_writes_it_at_the_end(tmp_path: Path) -> None:
    end = tmp_path / "end.json"
    code, out = run(["play", "--players", "3", "--seed", "5", "--humans", "0", "--save", str(end)])
    assert code == 0 and f"Saved to {end}." in out
    assert load(end).is_over
    code, out = run(["play", "--players", "3", "--seed", "5", "--humans", "0", "--save", str(end)])
    assert code == 2  # an existing file is refused without --force
    code, out = run(
        ["play", "--players", "3", "--seed", "9", "--humans", "0", "--save", str(end), "--force"]
    )
    assert code == 0 and load(end).is_over
    # Asked at the end: a name saves the finished game.
    later = tmp_path / "later.json"
    screen = io.StringIO()
    console = Console(file=screen, width=200, force_terminal=False, color_system=None)

    class Finisher(Player):
        def readline(self) -> str:
            if "Save the finished game?" in self.screen.getvalue()[self.read_upto :]:
                self.read_upto = len(self.screen.getvalue())
                return f"{later}\n"
            return super().readline()

    argv = ["play", "--players", "3", "--seed", "5", "--bots", "random"]
    assert main(argv, stdin=Finisher(screen, [], 2), console=console) == 0
    assert load(later).is_over and f"Saved to {later}." in screen.getvalue()


def test_quit_and_ctrl_c_offer_to_save_first(tmp_path: Path) -> None:
    kept = tmp_path / "left.json"
    code, out = run(["play", "--players", "3", "--seed", "2"], ["quit", str(kept)])
    assert code == 0 and "Save the game first?" in out and f"Saved to {kept}." in out
    assert not load(kept).is_over

    class CtrlC(Player):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            self.interrupted = False

        def readline(self) -> str:
            if not self.interrupted:
                self.interrupted = True
                raise KeyboardInterrupt
            return f"{tmp_path / 'ctrl-c.json'}\n"

    screen = io.StringIO()
    console = Console(file=screen, width=200, force_terminal=False, color_system=None)
    code = main(["play", "--players", "3", "--seed", "2"], stdin=CtrlC(screen, []), console=console)
    assert code == 130
    assert "Save the game first?" in screen.getvalue() and "Interrupted." in screen.getvalue()
    assert load(tmp_path / "ctrl-c.json").config.players == 3


def test_a_spinner_says_who_is_thinking_on_a_terminal() -> None:
    screen = io.StringIO()
    console = Console(file=screen, width=120, force_terminal=True, color_system=None)
    argv = ["play", "--players", "3", "--seed", "3", "--humans", "0", "--bots", "medium"]
    assert main(argv, stdin=io.StringIO(""), console=console) == 0
    assert "Blue (medium) is thinking" in screen.getvalue()
