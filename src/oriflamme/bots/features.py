"""What the learned network reads and answers: canonical observation vectors and action indices.

This module is the learned bots' one door to the research encoding
(:mod:`oriflamme.encoding`): the observation vector of a player and the fixed numbering
of actions, both relative to that player. It adds one transformation, *canonical card slots*:
the card ids of a family are dealt at random (``docs/architecture.md``), so in the raw vector a
card's block says nothing by its position, and a network would have to learn every card type in
every slot. But each family holds exactly one card of each type of the set-up (the Twin
included), so a card whose type the player knows is moved to the block of that type within its
family (slot ``i`` holds type ``layout.card_types[i]``), and the cards it does not know take
the family's remaining slots, in the order of their place in the Queue (then the unseen ones,
which look alike). The same permutation renumbers the cards in the action indices (placing a
card, a target, a destination stack), so "place my Archer at the end of the Queue" is one
output of the network whatever the deal.

The permutation is computed from the vector alone, so it uses nothing the player may not know
(R-INFO-1).

>>> from oriflamme.api import new_game
>>> game = new_game(players=3, seed=1)
>>> features = Features.of(game.config)
>>> observation = game.observe(0)
>>> x, slots = features.observation(observation)
>>> x.shape, features.actions
((996,), 420)
>>> hand = [entry["type"] for entry in observation["families"][0]["hand"]]
>>> sorted(features.layout.card_types[i].slug for i in features.own_slots(x)) == sorted(hand)
True
>>> indices = features.action_indices(game.legal_actions(), 0, slots)
>>> len(indices) == len(game.legal_actions())
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from oriflamme.api import Action, GameConfig, Observation
from oriflamme.encoding import ActionCodec, Layout, ObservationEncoder
from oriflamme.search import State

from .canonical import CardLayout, canonical_sparse

Vector = npt.NDArray[np.float32]
Indices = npt.NDArray[np.intp]

class Features:
    """The canonical encoding of one set-up (use :meth:`of`: one instance per set-up)."""

    __slots__ = ("_card_base", "_card_layout", "_codec", "_dests", "_encoder", "_offsets",
                 "_place_end", "_target_end", "_twin_start", "actions", "card_width",
                 "cards", "families", "family_size", "layout", "own_families", "players",
                 "size", "types")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self._encoder = ObservationEncoder(layout)
        self._codec = ActionCodec(layout)
        self.size: int = self._encoder.size
        self.actions: int = self._codec.size
        self.players = layout.players
        self.families = layout.families
        self.family_size = layout.family_size
        self.cards = layout.cards
        self.own_families = layout.own_families
        self.types = len(layout.card_types)
        assert self.types == self.family_size  # one card of each type per family
        self.card_width = self._encoder.card_width
        self._card_base = self.size - self.card_width * self.cards
        columns = self._encoder.columns
        self._card_layout = CardLayout(
            base=self._card_base, width=self.card_width, family_size=self.family_size,
            cards=self.cards, type_col=columns["type"], unknown_col=columns["unknown"],
            queue_col=columns["zone"] + 5,  # the Queue's zone column
            index_col=columns["index"], level_col=columns["level"])
        self._dests = self.cards + 2
        offsets = {kind.slug: start for kind, start in self._codec.offsets.items()}
        self._offsets = offsets
        self._place_end = offsets["target"]
        self._target_end = offsets["player"]
        self._twin_start = offsets["twin"]

    @staticmethod
    def of(config: GameConfig | Mapping[str, Any]) -> Features:
        """The features of a set-up (a configuration or its JSON form, as in an observation)."""
        return _features(Layout.of(config))

    # -- vectors ----------------------------------------------------------------------------
    def observation(self, observation: Observation) -> tuple[Vector, Indices]:
        """The canonical vector of a player's observation and its card permutation."""
        return self.canonical(self._encoder.encode(observation))

    def state(self, state: State, player: int) -> tuple[Vector, Indices]:
        """The same from a raw state (a sampled world), reading only what ``player`` may
        know (the encoder's fast path, proved equal to encoding the observation)."""
        return self.canonical(self._encoder.encode_state(state, player))

    def canonical(self, x: Vector) -> tuple[Vector, Indices]:
        """``x`` with each family's card blocks in canonical slots, and ``slots``: the
        canonical relative id of each relative card (see the module docstring)."""
        moved, values, slots = self._moved(x)
        out = np.zeros_like(x)
        out[moved] = values
        return out, np.array(slots, dtype=np.intp)

    def state_sparse(self, state: State, player: int) -> tuple[Indices, Vector]:
        """The non-zero entries of :meth:`state`'s canonical vector: their indices (in no
        particular order) and values, for the network's sparse forward pass
        (:meth:`oriflamme.bots.network.Network.sparse_value_logits`), the search's hot path."""
        inputs, values, _ = self.state_sparse_slots(state, player)
        return inputs, values

    def state_sparse_slots(self, state: State, player: int
                           ) -> tuple[Indices, Vector, list[int]]:
        """:meth:`state_sparse` and the card permutation (``slots``, as a list) of that view,
        for :meth:`action_indices`."""
        moved, values, slots = self._moved(self._encoder.encode_state(state, player))
        return np.array(moved, dtype=np.intp), values, slots

    def _moved(self, x: Vector) -> tuple[list[int], Vector, list[int]]:
        """The non-zero entries of raw vector ``x``: their canonical indices and values, and
        the card permutation."""
        inputs = np.flatnonzero(x)
        values = x[inputs]
        moved, slots = canonical_sparse(inputs.tolist(), values.tolist(), self._card_layout)
        return moved, values, slots

    def own_slots(self, x: Vector) -> list[int]:
        """The canonical slots (types) of the cards in the player's hand, from a canonical
        vector (for tests and explanations)."""
        hand_col = self._encoder.columns["zone"]
        blocks = x[self._card_base:].reshape(self.cards, self.card_width)
        return [int(i) for i in np.nonzero(blocks[:self.family_size, hand_col])[0]]

    # -- actions ----------------------------------------------------------------------------
    def action_indices(self, legal: Sequence[Action], player: int,
                       slots: Indices | list[int]) -> Indices:
        """The canonical output index of each of ``legal`` (actions of ``player``)."""
        return self.canonical_actions(self._codec.encode_all(legal, player),
                                      slots if isinstance(slots, list) else slots.tolist())

    def canonical_actions(self, raw: Sequence[int], slots: Sequence[int]) -> Indices:
        """Raw action indices of the codec renumbered by the card permutation ``slots``."""
        dests, size, players = self._dests, self.family_size, self.players
        place_end, target_end = self._place_end, self._target_end
        twin_start = self._twin_start
        out: list[int] = []
        for index in raw:
            if index < place_end:
                own, dest = divmod(index, dests)
                block, slot = divmod(own, size)
                low = block * players * size  # the player's j-th family is relative j * n
                own = block * size + slots[low + slot] - low
                if dest >= 2:
                    dest = 2 + slots[dest - 2]
                out.append(own * dests + dest)
            elif index < target_end:
                out.append(place_end + slots[index - place_end])
            elif twin_start <= index < twin_start + dests and index - twin_start >= 2:
                out.append(twin_start + 2 + slots[index - twin_start - 2])
            else:
                out.append(index)
        return np.array(out, dtype=np.intp)


@lru_cache(maxsize=32)
def _features(layout: Layout) -> Features:
    return Features(layout)
