"""What the learner sees of a lesson's game: the view of their seat, as a table would send it.

The shape is the game page's view (docs/server.md, "The view"), so the browser draws a lesson
with the game page's own board; it is built from the learner's observation only (R-INFO-1):
the script's future moves and the bots' cards never reach the browser.
"""

from __future__ import annotations

from typing import Any

from oriflamme.api import FAMILY_COLOURS, Action, Game

from ..views import LOG_LINES, card_ids
from .script import Lesson


def seat_infos(lesson: Lesson, lang: str) -> list[dict[str, Any]]:
    """The seats of a lesson: the learner, and bots named after their colours."""
    return [
        {
            "seat": seat,
            "name": name(lang),
            "kind": "human" if seat == lesson.seat else "bot",
            "level": None,
            "connected": True,
            "away": False,
            "colour": FAMILY_COLOURS[seat],
        }
        for seat, name in enumerate(lesson.names)
    ]


def learner_view(
    lesson: Lesson, game: Game, lang: str, legal: list[Action] | None
) -> dict[str, Any]:
    """The learner's view of ``game`` in ``lang``; ``legal``: the moves offered (None: the
    learner's legal moves if they decide now, else none)."""
    seat = lesson.seat
    observation = game.observe(seat)
    decision = observation["decision"]
    player = None if decision is None else decision["player"]
    if legal is None:
        legal = game.legal_actions() if player == seat else []
    seats = seat_infos(lesson, lang)
    return {
        "step": len(game.history),
        "you": seat,
        "lang": lang,
        "seats": seats,
        "observation": observation,
        # "You: choose a card to place", as the lesson speaks to the learner (the log keeps the
        # colours: its sentences are written for a player's name in the third person).
        "prompt": game.prompt(viewer=seat, lang=lang, names=[s["name"] for s in seats]),
        "legal": [
            {"action": a.to_json(), "label": game.label(a, viewer=seat, lang=lang)} for a in legal
        ],
        "log": game.log_lines(viewer=seat, lang=lang)[-LOG_LINES:],
        "cards": {
            str(card): game.card_label(card, viewer=seat, lang=lang)
            for card in sorted(card_ids(observation, legal))
        },
        "result": observation["result"],
        "scores_by_round": observation["scores_by_round"],
        "waiting_for": None
        if player is None
        else {"seat": player, "name": seats[player]["name"], "kind": seats[player]["kind"]},
        "waiting_for_players": False,
        "closed": False,
        "clock": None,
        "hints": False,
    }
