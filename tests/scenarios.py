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
    "OWN_AMBUSH_BY_EDITION",
    "OWN_AMBUSH_MOVES",
    "SHARED_VICTORY",
    "act",
    "assert_own_ambush_outcome",
    "decision",
    "face_up",
    "influence",
    "options",
    "own_ambush_replay",
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


# -- scenarios the adapters replay through their own interfaces ---------------------------------
#: R-AMBUSH-3, R-EDITION-1: red's Soldier eliminates red's own face-down Ambush (3 players, red
#: holding a Soldier and an Ambush). Round 1: red's Ambush, then any card of blue's and green's,
#: all left face down. Round 2 (blue first): blue's and green's at the end, red's Soldier in front
#: of its Ambush. Patterns match the start of the actions' English labels.
OWN_AMBUSH_MOVES = (
    "Place Ambush at the end", "Place .* at the end", "Place .* at the end",
    "Leave", "Leave", "Leave",
    "Place .* at the end", "Place .* at the end", "Place Soldier at the front",
    "Reveal Soldier", "Eliminate your Ambush",
)
#: (edition, red's Influence after, whether the Soldier stays): the revised edition gives the
#: elimination's 1 only and the Soldier stays; the first edition 1 more and discards the Soldier.
#: In both the Ambush goes to red's discarded cards.
OWN_AMBUSH_BY_EDITION = [("revised", 2, True), ("first", 3, False)]


def assert_own_ambush_outcome(position: Mapping[str, Any], red: int, soldier_stays: bool) -> None:
    """Check a position after :data:`OWN_AMBUSH_MOVES` against one edition's outcome."""
    assert position["influence"] == [red, 1, 1]
    assert (position["queue"][0] == ["red:soldier*"]) is soldier_stays
    assert len(position["queue"]) == 4 + soldier_stays
    assert [len(stack) for stack in position["queue"]] == [1] * (4 + soldier_stays)
    red_piles = position["families"]["red"]
    assert red_piles["discarded"] == (["ambush"] if soldier_stays else ["ambush", "soldier"])
    assert "eliminated" not in red_piles


#: A dealt game (3 players, base cards) up to red's Soldier eliminating red's Ambush (card 3) in
#: round 2: :data:`OWN_AMBUSH_MOVES` on the deal of ``seed`` (the first deal of the PettingZoo
#: environment reset with seed 0). Replays hold only the seed and the actions, so one recorded
#: before R-AMBUSH-3 was corrected is this very record.
_OWN_AMBUSH_REPLAY: dict[str, Any] = {
    "format": "oriflamme-replay",
    "version": 1,
    "config": {"players": 3, "cards": "base", "variant": "standard", "edition": "revised",
               "first_player": 0},
    "seed": 3553260803050964941,
    "actions": [
        {"kind": "place", "card": 3, "to": "end"},
        {"kind": "place", "card": 13, "to": "end"},
        {"kind": "place", "card": 23, "to": "end"},
        {"kind": "leave", "card": 3},
        {"kind": "leave", "card": 13},
        {"kind": "leave", "card": 23},
        {"kind": "place", "card": 14, "to": "end"},
        {"kind": "place", "card": 24, "to": "end"},
        {"kind": "place", "card": 6, "to": "front"},
        {"kind": "reveal", "card": 6},
        {"kind": "target", "card": 3},
    ],
}


def own_ambush_replay(edition: str = "revised") -> dict[str, Any]:
    """The replay of red's Soldier eliminating red's own Ambush (card 3), in ``edition``."""
    config = {**_OWN_AMBUSH_REPLAY["config"], "edition": edition}
    actions = [dict(action) for action in _OWN_AMBUSH_REPLAY["actions"]]
    return {**_OWN_AMBUSH_REPLAY, "config": config, "actions": actions}


#: The last decision of a game: red leaves its Spy face down, the round and the game end with
#: red and blue tied on Influence (5) and on cards in the Queue (1 each): a shared victory.
SHARED_VICTORY: dict[str, Any] = {
    "config": {"players": 3}, "round": 6, "phase": "resolution", "cursor": 1,
    "influence": [5, 5, 3], "queue": [["blue:soldier*"], ["red:spy"]],
    "families": {c: {"rest": "eliminated"} for c in ("red", "blue", "green")},
}
