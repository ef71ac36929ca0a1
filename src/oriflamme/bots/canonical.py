"""Canonical card slots of an observation vector, from its non-zero entries: the hot loop of
:meth:`oriflamme.bots.features.Features.canonical`, compiled with mypyc.

The learned network reads a player's observation vector with each family's card blocks moved
to *canonical slots* (``features.py`` explains why): a card whose type the player knows goes to
the slot of its type in its family; the cards it does not know take the family's remaining
slots, in the order of their place in the Queue (stack, then level; those outside the Queue
last, ties by card). Only the non-zero entries of a vector are read (about 75 of 996 with 3
players), as plain lists, so that the loop runs as compiled code without NumPy; both the dense
canonical vector and the search's sparse forward pass are built from what this returns, so the
two cannot disagree.

The permutation is computed from the vector alone, so it uses nothing the player may not know
(R-INFO-1).

>>> layout = CardLayout(base=1, width=6, family_size=2, cards=2, type_col=0, unknown_col=2,
...                     queue_col=3, index_col=4, level_col=5)
>>> # one family of two cards: card 0 unknown, in the Queue's third stack; card 1 known to be
>>> # of type 0 (entry 0 is a global feature, before the card blocks)
>>> canonical_sparse([0, 3, 4, 5, 7], [1.0, 1.0, 1.0, 0.2, 1.0], layout)
([0, 9, 10, 11, 1], [1, 0])
"""

from __future__ import annotations

from typing import Final

#: Key of a card the player cannot identify that is not in the Queue: after those in it.
_NOT_IN_QUEUE: Final = 1000.0


class CardLayout:
    """Where the card blocks of a set-up's observation vector are, and their columns."""

    __slots__ = ("base", "cards", "family_size", "index_col", "level_col", "queue_col",
                 "type_col", "unknown_col", "width")

    def __init__(self, base: int, width: int, family_size: int, cards: int, type_col: int,
                 unknown_col: int, queue_col: int, index_col: int, level_col: int) -> None:
        #: Index of the first card block; each block is ``width`` entries.
        self.base = base
        self.width = width
        #: Cards per family, one of each type (slot ``i`` of a family holds type ``i``).
        self.family_size = family_size
        self.cards = cards
        #: Columns within a block: the first type column (one-hot over ``family_size``), the
        #: "unknown type" flag, "in the Queue", the stack's index, the level in the stack.
        self.type_col = type_col
        self.unknown_col = unknown_col
        self.queue_col = queue_col
        self.index_col = index_col
        self.level_col = level_col


def canonical_sparse(indices: list[int], values: list[float],
                     layout: CardLayout) -> tuple[list[int], list[int]]:
    """The canonical index of each non-zero entry (``indices``, ascending, with their
    ``values``) of an observation vector, and ``slots``: the canonical relative card of each
    relative card."""
    base, width, size = layout.base, layout.width, layout.family_size
    cards = layout.cards
    type_col, unknown_col = layout.type_col, layout.unknown_col
    queue_col, index_col, level_col = layout.queue_col, layout.index_col, layout.level_col
    last_type = type_col + size
    kind = [-1] * cards  # a known card's type; -1: unknown
    key = [0.0] * cards  # an unknown card's place: in the Queue by stack and level, or last
    card_of = [-1] * len(indices)  # the relative card of each entry (-1: not a card's)
    for i in range(len(indices)):
        offset = indices[i] - base
        if offset < 0:
            continue
        card = offset // width
        card_of[i] = card
        col = offset - card * width
        if col == unknown_col:
            key[card] += _NOT_IN_QUEUE
        elif type_col <= col < last_type:
            kind[card] = col - type_col  # a one-hot: its non-zero column is its type
        elif col == queue_col:
            key[card] -= _NOT_IN_QUEUE * values[i]
        elif col == index_col:
            key[card] += values[i] * 100.0
        elif col == level_col:
            key[card] += values[i] * 10.0
    slots = [0] * cards
    for low in range(0, cards, size):
        taken = [False] * size
        hidden: list[int] = []  # the family's unknown cards, by key (then card)
        for card in range(low, low + size):
            if kind[card] < 0:
                # insertion in order: a family has at most ten cards
                at = len(hidden)
                while at > 0 and key[hidden[at - 1]] > key[card]:
                    at -= 1
                hidden.insert(at, card)
            else:
                slots[card] = low + kind[card]
                taken[kind[card]] = True
        free = low
        for card in hidden:
            while taken[free - low]:
                free += 1
            slots[card] = free
            free += 1
    out = list(indices)
    for i in range(len(indices)):
        card = card_of[i]
        if card >= 0:
            out[i] += (slots[card] - card) * width
    return out, slots
