"""Positions whose hidden cards are dealt differently, for the tests that a bot or the server's
adviser sees only what its seat may know (R-INFO-1): the bots' tests and the server's."""

from __future__ import annotations

import random

from oriflamme.api import Game, new_game

__all__ = ["placement_positions", "rotated"]


def rotated(game: Game, colours: set[str]) -> Game:
    """The same position with the types of the hidden cards of ``colours`` rotated: every card in
    a hand, set aside, in a pile or face down in the Queue keeps its id and place but takes the
    type of the next such card of its family (in id order). Placement positions only."""
    position = game.position()
    assert not position["pending"] and position["resolving"] is None
    ids: dict[str, int] = position["ids"]
    renamed: dict[str, str] = {}
    for colour in colours:
        zones = position["families"][colour]
        names = [n for zone in ("hand", "set_aside", "pile") for n in zones.get(zone, [])]
        names += [ref.split(":")[1].rstrip("*") for stack in position["queue"] for ref in stack
                  if ref.startswith(colour + ":") and "*" not in ref and "+" not in ref]
        names.sort(key=lambda n: ids[f"{colour}:{n}"])
        for old, new in zip(names, names[1:] + names[:1], strict=True):
            renamed[f"{colour}:{old}"] = f"{colour}:{new}"

    def rename(ref: str) -> str:
        return renamed.get(ref, ref)

    for colour, zones in position["families"].items():
        for zone, names in zones.items():
            zones[zone] = [rename(f"{colour}:{n}").split(":")[1] for n in names]
    position["queue"] = [[rename(ref) for ref in stack] for stack in position["queue"]]
    position["ids"] = {rename(ref): cid for ref, cid in ids.items()}
    return Game.from_position(position)


def placement_positions(count: int) -> list[Game]:
    """Positions of random 3-player games where red must place, from round 2 on (so that the
    Queue holds face-down cards of every family)."""
    rng = random.Random(21)
    found: list[Game] = []
    for seed in range(count):
        game = new_game(players=3, seed=seed)
        while not game.is_over and len(found) < count:
            d = game.decision()
            if d is not None and d.player == 0 and d.kind.slug == "place" and game.round >= 2:
                found.append(Game.from_position(game.position()))
            game.apply(game.random_action(rng))
    return found
