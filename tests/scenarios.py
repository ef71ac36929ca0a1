"""Scenario helpers: set up a position by value, act and inspect with card references.

A *card reference* is ``"colour:type"`` (``"red:soldier"``). Positions are built from the
position format only (see :mod:`oriflamme.rules.records`); actions are written with references
instead of ids and applied through :meth:`Game.apply`, which checks that they are legal.

>>> g = setup([["red:soldier"], ["blue:spy*"]], cursor=0)
>>> decision(g)
(0, 'reveal')
>>> sorted(options(g))
['leave red:soldier', 'reveal red:soldier']
>>> act(g, "reveal red:soldier")
>>> options(g)
{'target blue:spy'}
>>> act(g, "target blue:spy")
>>> where(g, "blue:spy"), influence(g), queue_refs(g)
('eliminated', [2, 1, 1], [['red:soldier*']])
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from oriflamme.api import END, FRONT, Action, ActionKind, Game, GameConfig
from oriflamme.rules.texts import FAMILY_COLOURS

__all__ = [
    "act",
    "decision",
    "face_up",
    "influence",
    "options",
    "queue_refs",
    "render",
    "setup",
    "tokens",
    "where",
]

_MODIFIERS = re.compile(r"[*+@].*$")


def setup(
    queue: Sequence[Sequence[str] | str],
    families: Mapping[str, Mapping[str, Any]] | None = None,
    players: int = 3,
    cards: str | Sequence[str] = "base",
    cursor: int = 0,
    phase: str = "resolution",
    round: int = 2,
    influence: Sequence[int] | None = None,
    first_player: int = 0,
    pending: Sequence[Mapping[str, Any]] | None = None,
    edition: str = "revised",
    variant: str | None = None,
    rest: str = "set_aside",
    **extra: Any,
) -> Game:
    """Build a game from a position given by value.

    ``queue`` lists the stacks in resolution order, each a list of references bottom first
    (a bare string is a one-card stack), with the position-format modifiers (``*`` face up,
    ``+N`` tokens, ``@colour`` Corruption). ``families`` maps a colour to its zones
    (``{"hand": ["lord"], "discarded": [...]}``); every card not listed goes to ``rest``
    (a family's own ``"rest"`` entry wins). ``extra`` adds position fields (``placed``,
    ``resolving``, ``scores_by_round``, ``id_seed``, ...).
    """
    config: dict[str, Any] = {
        "players": players,
        "cards": cards if isinstance(cards, str) else list(cards),
        "edition": edition,
        "first_player": first_player,
    }
    if variant is not None:
        config["variant"] = variant
    n_families = GameConfig.from_dict(config).families
    zones: dict[str, dict[str, Any]] = {
        colour: {"rest": rest} for colour in FAMILY_COLOURS[:n_families]
    }
    for colour, given in (families or {}).items():
        zones.setdefault(colour, {}).update(given)
    position: dict[str, Any] = {
        "config": config,
        "round": round,
        "phase": phase,
        "first_player": first_player,
        "influence": list(influence) if influence is not None else [1] * players,
        "queue": [[stack] if isinstance(stack, str) else list(stack) for stack in queue],
        "families": zones,
        "cursor": cursor,
        "pending": list(pending or []),
        **extra,
    }
    return Game.from_position(position)


def _refs_by_id(game: Game) -> dict[int, str]:
    ids: dict[str, int] = game.position()["ids"]
    return {cid: ref for ref, cid in ids.items()}


def _to_ids(game: Game, text: str) -> str:
    return " ".join(str(game.card(w)) if ":" in w else w for w in text.split())


def act(game: Game, text: str) -> None:
    """Apply an action written with references: ``"place red:lord on blue:spy"``,
    ``"move red:spy gap 0"``, ``"twin red:twin front"``, ``"player 2"``, ``"gain"``..."""
    game.apply(Action.parse(_to_ids(game, text)))


def render(game: Game, action: Action) -> str:
    """An action in the notation of :func:`act` (references instead of ids)."""
    refs = _refs_by_id(game)
    kind = action.kind
    if kind in (ActionKind.PLACE, ActionKind.TWIN):
        to = {FRONT: "front", END: "end"}.get(action.to) or f"on {refs[action.to]}"
        return f"{kind.slug} {refs[action.card]} {to}"
    if kind in (ActionKind.REVEAL, ActionKind.LEAVE, ActionKind.TARGET):
        return f"{kind.slug} {refs[action.card]}"
    if kind is ActionKind.MOVE:
        return f"move {refs[action.card]} gap {action.to}"
    if kind is ActionKind.PLAYER:
        return f"player {action.to}"
    return kind.slug


def options(game: Game) -> set[str]:
    """The legal actions now, rendered with references."""
    return {render(game, a) for a in game.legal_actions()}


def queue_refs(game: Game) -> list[list[str]]:
    """The Queue as in the position format: stacks bottom first, references with modifiers."""
    return [list(stack) for stack in game.position()["queue"]]


def _find(game: Game, ref: str) -> tuple[str, str]:
    """Where ``ref`` is and its modifiers (only Queue cards carry modifiers)."""
    position = game.position()
    colour, _, name = ref.partition(":")
    slug = name.strip().lower()
    for i, stack in enumerate(position["queue"]):
        for level, text in enumerate(stack):
            if _MODIFIERS.sub("", text) == ref:
                where = f"queue {i}" if level == len(stack) - 1 else f"queue {i} level {level}"
                return where, text[len(ref):]
    for zone, cards in position["families"][colour].items():
        if slug in cards:
            return zone, ""
    raise KeyError(f"{ref!r} is nowhere in this game")


def where(game: Game, ref: str) -> str:
    """Where a card is: ``"queue 2"`` (top card of stack 2), ``"queue 2 level 0"`` (covered,
    level 0 being the bottom), or a zone: ``hand``, ``set_aside``, ``reserve``, ``pile``,
    ``discarded``, ``eliminated``."""
    return _find(game, ref)[0]


def face_up(game: Game, ref: str) -> bool:
    """Whether the card is face up (cards out of the Queue: only the public piles are)."""
    zone, mods = _find(game, ref)
    if zone.startswith("queue"):
        return "*" in mods
    return zone in ("discarded", "eliminated", "reserve")


def tokens(game: Game, ref: str) -> int:
    """Influence tokens on a card (0 out of the Queue)."""
    found = re.search(r"\+(\d+)", _find(game, ref)[1])
    return int(found.group(1)) if found else 0


def influence(game: Game) -> list[int]:
    return list(game.position()["influence"])


def decision(game: Game) -> tuple[int, str] | None:
    """``(player, kind slug)`` of the decision awaited, or None once the game is over."""
    d = game.decision()
    return None if d is None else (d.player, d.kind.slug)
