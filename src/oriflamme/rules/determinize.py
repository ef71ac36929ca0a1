"""World sampling (determinization) for search under hidden information.

A player's observation (:func:`.observe.observe`) fixes everything public plus the player's own
cards. :class:`WorldSampler` turns it into full states that agree with all of it: the cards the
player cannot see (other families' hands, set-aside cards, piles and face-down Queue cards, and
the order of the player's own piles) are dealt at random among the types each family can still
hold. Card ids stay where the observation shows them, so actions mean the same in every world.

Known limitation: inferences a careful player could draw from past events (for instance, a
Usurpation that brought no replacement shows its family's card of that name was not in its
set-aside) are not used; the sampler uses the facts the observation states (R-INFO-1).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from .cards import CardType
from .config import GameConfig
from .draws import shuffle
from .state import (
    DISCARDED,
    ELIMINATED,
    HAND,
    N_ZONES,
    PHASE_NAMES,
    PILE,
    RESERVE,
    SET_ASIDE,
    Frame,
    State,
)

#: Each frame kind by its name in an observation.
_FRAMES: Final[dict[str, int]] = {kind.slug: int(kind) for kind in Frame}
# What each family hides, as WorldSampler.__init__ describes it.
_Hidden = list[tuple[int, list[int], list[int], list[tuple[int, int]], list[int]]]


class WorldSampler:
    """Build once from an observation, then :meth:`sample` cheaply, many times.

    >>> from oriflamme.rules.engine import new_state
    >>> from oriflamme.rules.observe import observe
    >>> real = new_state(GameConfig(players=3), seed=4)
    >>> world = WorldSampler(observe(real, 0)).sample(random.Random(1))
    >>> world.zones[0] == real.zones[0]   # red's own hand is what red holds
    True
    >>> blue = slice(10, 20)               # blue's ids: the same types, dealt anew
    >>> sorted(world.card_type[blue]) == sorted(real.card_type[blue])
    True
    >>> world.card_type[blue] == real.card_type[blue]
    False
    """

    __slots__ = ("_hidden", "_template")

    def __init__(self, view: Mapping[str, Any]) -> None:
        viewer = view.get("viewer")
        if not isinstance(viewer, int) or isinstance(viewer, bool):
            raise ValueError("a world is sampled from a player's observation (viewer 0..n-1)")
        cfg = GameConfig.from_dict(view["config"])
        size = cfg.family_size
        nf = cfg.families
        n = nf * size
        s = State.__new__(State)
        s.config = cfg
        s.card_family = tuple(c // size for c in range(n))
        s.face_up = [False] * n
        s.tokens = [0] * n
        s.corrupt = [-1] * n
        types: list[int] = [-1] * n
        s.queue = []
        for stack in view["queue"]:
            ids = []
            for entry in stack:
                c = entry["id"]
                ids.append(c)
                s.face_up[c] = entry["face_up"]
                s.tokens[c] = entry["tokens"]
                corrupter = entry["corrupted_by"]
                s.corrupt[c] = -1 if corrupter is None else corrupter
                if entry["type"] is not None:
                    types[c] = CardType[entry["type"].upper()]
            s.queue.append(ids)
        s.zones = [[] for _ in range(nf * N_ZONES)]
        # For each family: the ids whose type is hidden (face down in the Queue, then unplaced),
        # the unplaced ones, the sizes of their hidden zones, and the types left to deal them.
        hidden: _Hidden = []
        family_types = [int(t) for t in cfg.card_types]
        if cfg.has_twin:
            family_types.append(int(CardType.TWIN))
        for fam in view["families"]:
            f = fam["family"]
            z = f * N_ZONES
            for zone, key in ((RESERVE, "reserve"), (DISCARDED, "discarded"),
                              (ELIMINATED, "eliminated"), (HAND, "hand"),
                              (SET_ASIDE, "set_aside")):
                for entry in fam.get(key, ()):
                    c = entry["id"]
                    s.zones[z + zone].append(c)
                    types[c] = CardType[entry["type"].upper()]
                    if zone in (RESERVE, DISCARDED, ELIMINATED):
                        s.face_up[c] = True
            sizes = [(PILE, fam["pile_size"])]
            if "hand" not in fam:
                sizes = [(HAND, fam["hand_size"]), (SET_ASIDE, fam["set_aside_size"]), *sizes]
            family_ids = range(f * size, f * size + size)
            known_types = {types[c] for c in family_ids if types[c] >= 0}
            free_types = [t for t in family_types if t not in known_types]
            in_queue = [c for st in s.queue for c in st if s.card_family[c] == f and types[c] < 0]
            located = {c for st in s.queue for c in st} | {
                c for zone in range(N_ZONES) for c in s.zones[z + zone]}
            unplaced = [c for c in family_ids if c not in located]
            if len(free_types) != len(in_queue) + len(unplaced) or sum(
                k for _, k in sizes
            ) != len(unplaced):
                raise ValueError(f"inconsistent observation for family {f}")
            hidden.append((f, in_queue + unplaced, unplaced, sizes, free_types))
        s.card_type = tuple(types)
        s.influence = list(view["influence"])
        s.round = view["round"]
        s.phase = PHASE_NAMES.index(view["phase"])
        s.first_player = view["first_player"]
        s.placed = view["placed"]
        s.cursor = view["cursor"] if view["cursor"] is not None else 0
        s.resolving = view["resolving"] if view["resolving"] is not None else -1
        s.pending = [(_FRAMES[p["frame"]], p["card"], p["family"], p["arg"])
                     for p in view["pending"]]
        s.log = None
        s.scores_by_round = [tuple(r) for r in view["scores_by_round"]]
        self._template = s
        self._hidden = hidden

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and copied) as what it built from its observation, which it does not keep:
        # the compiled class is not rebuilt attribute by attribute. Sampling never changes it.
        return (_resumed, (self._template, self._hidden))

    def deal(self, rng: random.Random) -> tuple[int, ...]:
        """The card type of every id in a world: the hidden ones dealt at random with ``rng``.

        Cheaper than a whole world: a search that accepts or rejects worlds by their hidden
        types deals first, then builds the world it keeps with :meth:`sample`.
        """
        types = list(self._template.card_type)
        for _, unknown, _, _, free_types in self._hidden:
            if not free_types:
                continue
            dealt = free_types[:]
            shuffle(rng, dealt)  # rng.shuffle's draws, without its interpreted loop
            for c, t in zip(unknown, dealt, strict=True):
                types[c] = t
        return tuple(types)

    def sample(self, rng: random.Random, types: tuple[int, ...] | None = None) -> State:
        """A full state consistent with the observation, hidden cards dealt with ``rng`` (or
        as in ``types``, a :meth:`deal` of this sampler); the hidden zones are ordered with
        ``rng``."""
        s = self._template.copy(keep_log=False)
        s.card_type = self.deal(rng) if types is None else types
        for f, _, unplaced, sizes, free_types in self._hidden:
            if not free_types:
                continue
            order = unplaced[:]
            shuffle(rng, order)
            k = 0
            for zone, count in sizes:
                s.zones[f * N_ZONES + zone] = order[k:k + count]
                k += count
        return s


# The smallest observation the constructor accepts (no family to check): ``_resumed`` builds
# from it, then sets what a sampler holds. The compiled class has no ``__new__`` that skips
# ``__init__``, and a sampler does not keep the observation it was built from.
_BLANK_VIEW: dict[str, Any] = {
    "viewer": 0, "config": {}, "queue": [], "families": [], "influence": [], "round": 1,
    "phase": PHASE_NAMES[0], "first_player": 0, "placed": 0, "cursor": None,
    "resolving": None, "pending": [], "scores_by_round": [],
}


def _resumed(template: State, hidden: _Hidden) -> WorldSampler:
    """The sampler ``WorldSampler.__reduce__`` gave (unpickling, ``copy``)."""
    sampler = WorldSampler(_BLANK_VIEW)
    sampler._template, sampler._hidden = template, hidden
    return sampler


def sample_world(view: Mapping[str, Any], rng: random.Random) -> State:
    """One world consistent with ``view`` (a player's observation); see :class:`WorldSampler`."""
    return WorldSampler(view).sample(rng)
