"""The views give exactly what the game itself gives, at every step of real games: the cached
log lines and card labels, and the ids of the cards a view must label."""

from __future__ import annotations

import random
from collections.abc import Iterator

from oriflamme.api import Game, new_game
from oriflamme.server.tables import ViewCache
from oriflamme.server.views import card_ids


def every_card_id(data: object) -> Iterator[int]:
    """Every card id in a JSON value: the values of its card fields, at any depth."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("id", "card", "resolving", "corruption_on", "to") and isinstance(value, int):
                yield value
            else:
                yield from every_card_id(value)
    elif isinstance(data, list):
        for item in data:
            yield from every_card_id(item)


CONFIGS = [
    {"players": 2, "cards": "base"},
    {"players": 2, "cards": "embrasement", "variant": "standard"},
    {"players": 3, "cards": "embrasement"},
    {"players": 4, "cards": "base"},
    {
        "players": 5,
        "cards": [
            "archer",
            "soldier",
            "royal_decree",
            "shapeshifter",
            "prince",
            "queen",
            "usurpation",
            "machination",
            "corruption",
            "cutthroat",
        ],
    },
]


def check_every_step(game: Game, rng: random.Random) -> int:
    """Play ``game`` to the end at random; compare the views' parts with the game after each
    action.

    Returns how many times a line already shown was worded differently later (the cache must
    then write it again).
    """
    cache = ViewCache()
    viewers = [None, *range(game.config.players)]
    cards = len(game.position()["ids"])
    shown: dict[tuple[int | None, str], list[str]] = {}
    rewritten = 0
    while not game.is_over:
        game.apply(game.random_action(rng))
        for viewer in viewers:
            observation = game.observe(viewer)
            legal = game.legal_actions() if viewer == game.current_player else []
            expected_ids = set(every_card_id([observation, [a.to_json() for a in legal]]))
            assert card_ids(observation, legal) == expected_ids
            for lang in ("en", "fr"):
                expected = game.log_lines(viewer=viewer, lang=lang)
                assert cache.log_lines(game, viewer, lang) == expected, (viewer, lang)
                before = shown.get((viewer, lang), [])
                rewritten += sum(old != new for old, new in zip(before, expected, strict=False))
                shown[viewer, lang] = expected
                some = set(rng.sample(range(cards), 6))
                assert cache.card_labels(game, some, viewer, lang) == {
                    str(card): game.card_label(card, viewer=viewer, lang=lang)
                    for card in sorted(some)
                }
    return rewritten


def test_cached_log_lines_and_card_labels_match_the_game() -> None:
    rng = random.Random(5)
    rewritten = 0
    for config in CONFIGS:
        for seed in range(2):
            rewritten += check_every_step(new_game(seed=seed, **config), rng)  # type: ignore[arg-type]
    assert rewritten > 0, "the games never reworded a line: the test proves nothing"
