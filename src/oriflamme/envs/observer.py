"""OpenSpiel observers of ``python_oriflamme``: the tensors and strings of what one player
knows (R-INFO-1) and the public actions only.

* Observation: the :class:`~oriflamme.encoding.ObservationEncoder` vector, and
  :func:`observation_text`.
* Information state (perfect recall): the same plus, per card, when and how it was placed
  (tensor), or the player's own dealt cards and the sequence of public actions (string).
* Public view (``private_info=NONE``): the spectators' observation, encoded from the player's
  seat.

Tensors come from the encoder's fast path (``encode_state``, reading the raw state, tested equal
to encoding the player's ``Game.observe``); strings are built from ``Game.observe`` itself
(slower, but not in a training loop's path).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from oriflamme.api import FAMILY_COLOURS, Action, Game
from oriflamme.encoding import ROUNDS, Vector
from oriflamme.search import state_of

if TYPE_CHECKING:
    from .openspiel import OriflammeState, Setup

#: Per card in the information state tensor: round placed (one-hot) and how (end, front, on).
PLACEMENT_FEATURES = ROUNDS + 3


def observation_text(observation: Mapping[str, Any]) -> str:
    """A compact, complete text of an observation (one line per part)."""
    o = observation

    def card(e: Mapping[str, Any]) -> str:
        text = f"{e['id']}:{e['type'] or '?'}"
        if "face_up" in e:
            text += "*" if e["face_up"] else ""
            text += f"+{e['tokens']}" if e["tokens"] else ""
            if e["corrupted_by"] is not None:
                text += f"@{FAMILY_COLOURS[e['corrupted_by']]}"
        return text

    lines = [
        f"round {o['round']} {o['phase']} first {o['first_player']} placed {o['placed']}"
        f" influence {' '.join(map(str, o['influence']))}",
        " ".join(["queue", *("[" + " ".join(card(e) for e in st) + "]" for st in o["queue"])]),
        f"cursor {o['cursor']} resolving {o['resolving']}",
    ]
    for fam in o["families"]:
        line = (f"{fam['colour']} hand {fam['hand_size']} set_aside {fam['set_aside_size']}"
                f" pile {fam['pile_size']} corruption {fam['corruption_on']}")
        for zone in ("reserve", "discarded", "eliminated", "hand", "set_aside"):
            if fam.get(zone):
                line += f" {zone} " + " ".join(card(e) for e in fam[zone])
        lines.append(line)
    if o["pending"]:
        lines.append("pending " + " ".join(
            f"{p['frame']}:{p['card']}:{p['family']}:{p['arg']}" for p in o["pending"]))
    d = o["decision"]
    if d is not None:
        lines.append(f"decision {d['player']} {d['kind']} {d['card']} {d['ability']}")
    if o["legal"]:
        lines.append("legal " + ", ".join(str(Action.from_json(a)) for a in o["legal"]))
    if o["result"] is not None:
        lines.append(f"winners {o['result']['winners']}")
    return "\n".join(lines)


class Observer:
    """OpenSpiel observer (the ``PyObserver`` protocol): ``tensor``, ``dict``, ``set_from``,
    ``string_from``. With ``perfect_recall`` it adds the public history; with ``public`` it
    shows the spectators' view (no private cards) from the player's seat."""

    def __init__(self, setup: Setup, perfect_recall: bool, public: bool) -> None:
        self._setup = setup
        self._perfect_recall = perfect_recall
        self._public = public
        size = setup.encoder.size
        cards = setup.layout.cards
        extra = cards * PLACEMENT_FEATURES if perfect_recall else 0
        self.tensor: Vector = np.zeros(size + extra, dtype=np.float32)
        self.dict: dict[str, Vector] = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["placements"] = self.tensor[size:].reshape(cards, PLACEMENT_FEATURES)
        self._observation = self.dict["observation"]
        self._memory = cast("memoryview[float]", self.tensor.data)

    def _view(self, game: Game, player: int) -> dict[str, Any]:
        return game.observe(None if self._public else player)

    def set_from(self, state: OriflammeState, player: int) -> None:
        track = state.track
        if track.game is None:
            self.tensor.fill(0.0)
            return
        setup = self._setup
        setup.encoder.encode_state(state_of(track.game), player, self._observation,
                                   self._public)
        if self._perfect_recall:
            self.dict["placements"].fill(0.0)
            m = self._memory
            base = setup.encoder.size
            rel = setup.layout.relative_cards(player)
            for card, round_no, where in track.placed:
                row = base + rel[card] * PLACEMENT_FEATURES
                m[row + round_no - 1] = 1.0
                m[row + ROUNDS + where] = 1.0  # end, front, on a stack

    def string_from(self, state: OriflammeState, player: int) -> str:
        track = state.track
        private = "" if self._public else f"dealt {self._own_deal(track.dealt, player)}"
        if track.game is None:
            return f"dealing {len(track.dealt)} {private}"
        text = observation_text(self._view(track.game, player))
        if not self._perfect_recall:
            return text
        moves = " ".join(str(move) for _, move in track.moves)
        return f"{private}\nmoves {moves}\n{text}"

    def _own_deal(self, dealt: Sequence[int], player: int) -> str:
        """The player's dealt cards so far that they may see (not their pile)."""
        setup = self._setup
        per, types = setup.per_family, setup.layout.card_types
        out: list[str] = []
        for f in setup.config.player_families(player):
            chunk = dealt[f * per:f * per + setup.known]
            out.extend(f"{f * setup.config.family_size + k}:{types[i].slug}"
                       for k, i in enumerate(chunk))
        return " ".join(out)
