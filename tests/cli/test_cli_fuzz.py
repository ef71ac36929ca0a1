"""Every subcommand driven with generated bad arguments and corrupt files (issue #19): never a
traceback; bad input always exits non-zero with one line naming what is wrong."""

from __future__ import annotations

import contextlib
import io
import json
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from oriflamme.api import new_game
from oriflamme.cli import main

#: Values no numeric option accepts (nothing here may start a long run or a server).
BAD_NUMBERS = st.sampled_from(["-1", "-3", "x", "", "1e9", "nan", "inf", "--", "1_0x", "1.5.2"])
#: (subcommand and its required arguments, its numeric options with values out of their range).
COMMANDS: list[tuple[list[str], dict[str, list[str]]]] = [
    (
        ["play"],
        {
            "--players": ["1", "6", "99999", "2.5"],
            "--seed": [str(2**63)],
            "--humans": ["6"],
            "--first-player": ["7", "3.0"],
        },
    ),
    (
        ["simulate", "--games", "1"],
        {"--players": ["0", "6"], "--seed": [str(2**64)], "--first-player": ["5"]},
    ),
    (["simulate", "--players", "3"], {"--games": ["0", "-0x1", "0.5"]}),
    (["simulate", "--players", "3", "--games", "2"], {"--jobs": ["0", "257", "1.5"]}),
    (["bench"], {"--seconds": ["0", "3601", "1e400"]}),
    (
        ["tournament", "--bots", "random", "--games", "1"],
        {"--players": ["1", "6"], "--seed": [str(2**63)], "--games": ["0"]},
    ),
    (
        ["serve"],
        {
            "--port": ["65536", "99999"],
            "--workers": ["0", "65"],
            "--bot-delay": ["61", "-0.1"],
            "--tables-per-hour": ["-5"],
            "--bot-tables": ["-1"],
        },
    ),
]
#: Options no subcommand has, and stray arguments.
BAD_WORDS = st.sampled_from(["--nope", "-z", "--players=", "extra", "--lang=de", "--cards="])


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    console = Console(file=out, width=120, force_terminal=False, color_system=None)
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = main(argv, stdin=io.StringIO(""), console=console)
    return code, out.getvalue(), err.getvalue()


def assert_one_clear_line(code: int, out: str, err: str, argv: list[str]) -> None:
    assert code != 0, (argv, out[-500:])
    assert "Traceback" not in err + out, (argv, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "error" in lines[0], (argv, err)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_bad_arguments_are_one_line_and_non_zero(data: st.DataObject) -> None:
    base, numeric = data.draw(st.sampled_from(COMMANDS), "command")
    if data.draw(st.booleans(), "a bad number or a bad word"):
        option = data.draw(st.sampled_from(sorted(numeric)), "option")
        values = st.one_of(BAD_NUMBERS, st.sampled_from(numeric[option]))
        argv = [*base, f"{option}={data.draw(values, 'value')}"]
    else:
        argv = [*base, data.draw(BAD_WORDS, "word")]
    code, out, err = run(argv)
    assert_one_clear_line(code, out, err, argv)


def _save_text() -> str:
    game = new_game(players=3, seed=5)
    rng = random.Random(5)
    for _ in range(12):
        game.apply(rng.choice(list(game.legal_actions())))
    return json.dumps(game.save())


SAVE = _save_text()


@st.composite
def corrupt_records(draw: st.DrawFn) -> bytes:
    """A save made unreadable: truncated, binary, of the wrong types, with an edited history,
    nested far too deep, or not a record at all."""
    how = draw(st.sampled_from(["truncated", "binary", "types", "history", "deep", "other"]))
    if how == "truncated":
        return SAVE.encode()[: draw(st.integers(1, len(SAVE) - 2))]
    if how == "binary":
        return draw(st.binary(min_size=1, max_size=64).filter(lambda b: not b.isascii()))
    record: dict[str, Any] = json.loads(SAVE)
    if how == "types":
        key = draw(st.sampled_from(["format", "version", "position", "history"]))
        record[key] = draw(st.sampled_from([None, 12, "x", [], [1, 2], {"a": 1}]))
        if key == "format":
            record[key] = draw(st.sampled_from([12, [], "oriflamme-nonsense"]))
        elif key == "history" and record[key] is None:
            record[key] = "x"  # null is a valid history (a game set up from a position)
        return json.dumps(record).encode()
    if how == "history":
        actions = record["history"]["actions"]
        index = draw(st.integers(0, len(actions) - 1))
        actions[index] = draw(
            st.sampled_from(
                [
                    {"kind": "place", "card": 999, "to": "end"},
                    {"kind": "target", "card": 4},
                    {"kind": "fly"},
                    {"kind": "place", "card": "x", "to": "end"},
                    "reveal 4",
                    None,
                ]
            )
        )
        return json.dumps(record).encode()
    if how == "deep":
        depth = draw(st.integers(2000, 100_000))
        return b"[" * depth + b"]" * depth
    return draw(st.sampled_from([b"[]", b"42", b'"text"', b"null", b"{}", b"", b"   "]))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(content=corrupt_records(), command=st.sampled_from(["replay", "play"]))
def test_corrupt_files_are_one_line_and_non_zero(content: bytes, command: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        path.write_bytes(content)
        if command == "replay":
            argv = ["replay", str(path), "--all"]
        else:
            argv = ["play", "--load", str(path)]
        code, out, err = run(argv)
    assert_one_clear_line(code, out, err, argv)
