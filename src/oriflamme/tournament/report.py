"""The tournament's outputs: ``results.json``, ``report.md`` and four SVG charts, drawn by
:mod:`oriflamme.tournament.charts` without a plotting library (matplotlib's import and drawing
took longer than a tournament of random bots plays: issue #13)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from oriflamme import __version__

from . import charts as svg
from .charts import percent
from .schedule import Plan, Settings
from .stats import summarise
from .worker import GameRecord

RESULTS_FORMAT = "oriflamme-tournament"
CHARTS = {
    "win_share.svg": "Win share per bot, with its 95% interval",
    "rating.svg": "Rating per bot",
    "seats.svg": "Win share per seat",
    "card_influence.svg": "Influence earned per game, by card type",
}


def build_results(
    settings: Settings, laid_out: Plan, records: Sequence[GameRecord], run: dict[str, Any]
) -> dict[str, Any]:
    """Everything about the tournament: how it was run, every figure, every game."""
    return {
        "format": RESULTS_FORMAT,
        "version": 1,
        "run": {**run, "oriflamme": __version__},
        "settings": {
            "bots": list(settings.entrants),
            "specs": list(settings.bots),
            "config": settings.config().to_dict(),
            "seed": settings.seed,
            "games_requested": settings.games,
            "games": laid_out.games,
            "rotation": [[settings.entrants[b] for b in lineup] for lineup in laid_out.lineups],
        },
        **summarise(settings, records),
        "records": [r.to_json() for r in records],
    }


def milliseconds(seconds: float) -> str:
    """A time per decision in milliseconds, never in exponent notation: ``1,240``, ``3.2``.

    >>> milliseconds(1.24), milliseconds(0.0032), milliseconds(0.00004)
    ('1,240', '3.2', '0.04')
    """
    ms = 1000 * seconds
    if ms >= 100:
        return f"{ms:,.0f}"
    return f"{ms:.2g}" if ms < 1 else f"{ms:.1f}"


def _table(headings: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(headings) + " |"]
    lines.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(headings))) + "|")
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return lines


def markdown(results: dict[str, Any]) -> str:
    """The report: how the tournament was run, the tables, the charts and what they mean."""
    run, settings = results["run"], results["settings"]
    config = settings["config"]
    players = config["players"]
    cards = config["cards"] if isinstance(config["cards"], str) else ", ".join(config["cards"])
    rotation = len(settings["rotation"])
    rounded = (
        f" ({settings['games_requested']} asked, rounded up to a whole number of rotations)"
        if settings["games"] != settings["games_requested"]
        else ""
    )
    lines = [
        f"# Tournament: {' vs '.join(settings['bots'])}",
        "",
        f"- Command: `{run['command']}`",
        f"- Games: {results['games']}{rounded}; {results['shared_victories']} shared victories;"
        f" {results['mean_decisions_per_game']:.1f} decisions per game",
        f"- Set-up: {players} players, cards {cards}, variant {config['variant']},"
        f" edition {config['edition']}; seat 0 places first in round 1",
        f"- Seed: {settings['seed']}; started {run['started']}; took {run['seconds']:.1f} s"
        f" ({run['backend']} backend, {run['jobs']} workers); oriflamme {run['oriflamme']}",
        f"- Seat rotation ({rotation} lineup{'s' if rotation > 1 else ''}, each used equally"
        f" often; seats 0 to {players - 1}): "
        + "; ".join("(" + ", ".join(lineup) + ")" for lineup in settings["rotation"]),
        "",
        "## Bots",
        "",
    ]
    lines += _table(
        ["Bot", "Games", "Seats", "Win share", "95% interval", "Mean score", "ms / decision",
         "Rating μ", "σ", "Ordinal"],
        [
            [
                f"`{b['bot']}`",
                str(b["games"]),
                str(b["seats"]),
                percent(b["win_share"]),
                f"{percent(b['win_share_ci95'][0])} – {percent(b['win_share_ci95'][1])}",
                f"{b['mean_score']:.2f}",
                milliseconds(b["mean_decision_seconds"]),
                f"{b['rating']['mu']:.2f}",
                f"{b['rating']['sigma']:.2f}",
                f"{b['rating']['ordinal']:.2f}",
            ]
            for b in results["bots"]
        ],
    )
    lines += ["", "![Win share](win_share.svg) ![Rating](rating.svg)", "", "## Seats", ""]
    lines += _table(
        ["Seat", "Win share", "95% interval", "Mean score"],
        [
            [
                str(s["seat"]),
                percent(s["win_share"]),
                f"{percent(s['win_share_ci95'][0])} – {percent(s['win_share_ci95'][1])}",
                f"{s['mean_score']:.2f}",
            ]
            for s in results["seats"]
        ],
    )
    lines += ["", "![Seats](seats.svg)", "", "## Card types (per game)", ""]
    lines += _table(
        ["Card", "Influence earned", "Revealed", "Eliminated", "Left face down"],
        [
            [
                c["name"],
                f"{c['influence_per_game']:.2f}",
                f"{c['revealed_per_game']:.2f}",
                f"{c['eliminated_per_game']:.2f}",
                f"{c['hidden_per_game']:.2f}",
            ]
            for c in results["card_types"]
        ],
    )
    lines += [
        "",
        "![Influence per card type](card_influence.svg)",
        "",
        "## What the figures mean",
        "",
        "- *Win share*: wins per seat played, a shared victory counting 1/k for each of its k"
        f" co-winners; evenly matched bots score about 1/{players} = {percent(1 / players)}."
        " *Seats* counts seat-games (a bot may hold several seats of a game), *Games* the games"
        " it took part in.",
        "- *95% interval*: the Wilson score interval of the win share.",
        "- *Rating*: Plackett-Luce (Weng-Lin, as openskill computes it), updated game by game"
        " from the ranking (score, then cards controlled in the Queue; equal on both is a tie)."
        " Ordinal = μ − 3σ.",
        "- *Seats*: seat 0 places first in round 1, the first player moves on each round.",
        "- *Card types*: Influence gained or stolen credited to the card that earned it; cards"
        " revealed and eliminated during the game; cards still face down in the Queue at the"
        " end. See docs/tournaments.md.",
        "",
    ]
    return "\n".join(lines)


def charts(results: dict[str, Any], out: Path) -> list[Path]:
    """Draw the charts of ``CHARTS`` into ``out``; return their paths."""
    even: float = 1 / results["settings"]["config"]["players"]
    bots, seats = results["bots"], results["seats"]
    cards = sorted(results["card_types"], key=lambda c: c["influence_per_game"])

    def shares(name: str, labels: list[str], rows: list[dict[str, Any]]) -> str:
        return svg.share_chart(
            labels,
            [row["win_share"] for row in rows],
            [row["win_share_ci95"] for row in rows],
            title=CHARTS[name],
            axis_label="win share",
            reference=even,
            reference_label=f"even ({percent(even)})",
        )

    drawn = {
        "win_share.svg": shares("win_share.svg", [b["bot"] for b in bots], bots),
        "rating.svg": svg.rating_chart(
            [b["bot"] for b in bots],
            [b["rating"]["mu"] for b in bots],
            [b["rating"]["sigma"] for b in bots],
            [b["rating"]["ordinal"] for b in bots],
            title=CHARTS["rating.svg"],
        ),
        "seats.svg": shares("seats.svg", [f"seat {s['seat']}" for s in seats], seats),
        "card_influence.svg": svg.bar_chart(
            [c["name"] for c in cards],
            [c["influence_per_game"] for c in cards],
            title=CHARTS["card_influence.svg"],
            axis_label="Influence per game",
        ),
    }
    paths = []
    for name, text in drawn.items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def results_json(results: dict[str, Any]) -> str:
    """``results`` as JSON text: indented, except that each game record holds one line.

    ``json.dumps`` with an indent runs the pure-Python encoder (0.15 s for 3000 games); one
    record per line lets orjson write the records (0.06 s with ``json.dumps``, 6 ms with
    orjson), and keeps the file readable. ``json.loads`` gives ``results`` back.

    >>> print(results_json({"games": 2, "records": [{"seed": 1}, {"seed": 2}]}), end="")
    {
     "games": 2,
     "records": [
      {"seed":1},
      {"seed":2}
     ]
    }
    """
    records = results.get("records")
    if not isinstance(records, list):
        return json.dumps(results, indent=1) + "\n"
    rest = json.dumps({k: v for k, v in results.items() if k != "records"}, indent=1)
    lines = ",\n".join("  " + compact_json(r) for r in records)
    spliced = f' "records": [\n{lines}\n ]' if records else ' "records": []'
    return ("{\n" if rest == "{}" else rest[:-2] + ",\n") + spliced + "\n}\n"


def compact_json(value: Any) -> str:
    """``value`` as compact JSON text on one line, in ASCII like ``json.dumps`` (orjson, several
    times faster, writes other characters as they are, and some, such as U+2028, split lines
    for some readers: then ``json.dumps`` writes it).

    >>> print(compact_json({"bot": "random", "seconds": [0.5, 1e-06]}))
    {"bot":"random","seconds":[0.5,1e-6]}
    >>> compact_json(["été"]).isascii()
    True
    """
    text = orjson.dumps(value).decode()
    return text if text.isascii() else json.dumps(value, separators=(",", ":"))


def write_report(results: dict[str, Any], out: Path) -> list[Path]:
    """Write ``results.json``, ``report.md`` and the charts into ``out`` (which must exist)."""
    written = [out / "results.json", out / "report.md"]
    written[0].write_text(results_json(results), encoding="utf-8")
    written[1].write_text(markdown(results), encoding="utf-8")
    return written + charts(results, out)
