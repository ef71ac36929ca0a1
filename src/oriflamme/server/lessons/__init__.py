"""Guided games that teach Oriflamme (``/learn``) on the real engine, and the rules page
(``/rules``): see docs/server.md, "Learning to play".

- :mod:`.script`: what a lesson is (a starting position and its beats) and how it is played;
- :mod:`.base_game`, :mod:`.embrasement`: the two lessons, in English and French;
- :mod:`.views`: what the learner's browser receives of a lesson's game;
- :mod:`.explore`: the learner's own moves off the lesson, answered by bots;
- :mod:`.routes`: the pages and the JSON API.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from . import base_game, embrasement
from .script import Lesson

#: The lessons by id, in the order they are offered.
LESSONS: Mapping[str, Lesson] = MappingProxyType(
    {lesson.id: lesson for lesson in (base_game.LESSON, embrasement.LESSON)}
)

__all__ = ["LESSONS", "Lesson"]
