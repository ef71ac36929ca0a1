"""Actions: small immutable values with a text notation and a JSON form.

An :class:`Action` is a named tuple ``(kind, card, to)``; which fields matter depends on the kind:

============  ==========================================  =============================
kind          meaning                                     notation
============  ==========================================  =============================
``place``     put ``card`` from hand at ``to``            ``place 12 end`` / ``front`` /
                                                          ``on 7`` (on the stack topped by 7)
``reveal``    reveal face-down ``card``                   ``reveal 12``
``leave``     leave ``card`` face down (+1 token)         ``leave 12``
``target``    choose top ``card`` (to eliminate, copy,    ``target 7``
              move, activate, corrupt)
``player``    choose player ``to`` (Spy)                  ``player 2``
``move``      move ``card`` to gap ``to`` (0 = front,     ``move 7 gap 3``
              len(queue) = end) (Royal Decree)
``twin``      put the Twin ``card`` at ``to`` (Prince)    ``twin 10 front`` / ``on 7``
``gain``      gain a Machination token                    ``gain``
``spend``     spend it to activate again                  ``spend``
============  ==========================================  =============================

>>> a = Action.parse("place 12 on 7")
>>> a
Action(kind=<ActionKind.PLACE: 0>, card=12, to=7)
>>> str(a), a.to_json()
('place 12 on 7', {'kind': 'place', 'card': 12, 'to': 7})
>>> Action.from_json({'kind': 'place', 'card': 12, 'to': 'end'}) == Action.place(12, END)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any, Final, NamedTuple

FRONT: Final = -1  #: ``to`` of a placement at the beginning of the Queue
END: Final = -2  #: ``to`` of a placement at the end of the Queue


class ActionKind(IntEnum):
    PLACE = 0
    REVEAL = 1
    LEAVE = 2
    TARGET = 3
    PLAYER = 4
    MOVE = 5
    TWIN = 6
    GAIN = 7
    SPEND = 8

    @property
    def slug(self) -> str:
        return self.name.lower()


# Each kind as a Final name, for compiled code: ``ActionKind.PLACE`` is an attribute lookup on
# the class at every read, a Final module constant a C static (the engine, the heuristics).
KIND_PLACE: Final = ActionKind.PLACE
KIND_REVEAL: Final = ActionKind.REVEAL
KIND_LEAVE: Final = ActionKind.LEAVE
KIND_TARGET: Final = ActionKind.TARGET
KIND_PLAYER: Final = ActionKind.PLAYER
KIND_MOVE: Final = ActionKind.MOVE
KIND_TWIN: Final = ActionKind.TWIN
KIND_GAIN: Final = ActionKind.GAIN
KIND_SPEND: Final = ActionKind.SPEND


class ActionError(ValueError):
    """An action that is malformed or not legal now."""


class Action(NamedTuple):
    """One decision; hashable, comparable, immutable."""

    kind: ActionKind
    card: int = -1
    to: int = -1

    # -- constructors -------------------------------------------------------------------
    @classmethod
    def place(cls, card: int, to: int) -> Action:
        return cls(ActionKind.PLACE, card, to)

    @classmethod
    def reveal(cls, card: int) -> Action:
        return cls(ActionKind.REVEAL, card)

    @classmethod
    def leave(cls, card: int) -> Action:
        return cls(ActionKind.LEAVE, card)

    @classmethod
    def target(cls, card: int) -> Action:
        return cls(ActionKind.TARGET, card)

    @classmethod
    def player(cls, player: int) -> Action:
        return cls(ActionKind.PLAYER, -1, player)

    @classmethod
    def move(cls, card: int, gap: int) -> Action:
        return cls(ActionKind.MOVE, card, gap)

    @classmethod
    def twin(cls, card: int, to: int) -> Action:
        return cls(ActionKind.TWIN, card, to)

    @classmethod
    def gain(cls) -> Action:
        return cls(ActionKind.GAIN)

    @classmethod
    def spend(cls) -> Action:
        return cls(ActionKind.SPEND)

    # -- notation -----------------------------------------------------------------------
    def __str__(self) -> str:
        k = self.kind
        if k in (ActionKind.PLACE, ActionKind.TWIN):
            return f"{k.slug} {self.card} {_where_text(self.to)}"
        if k in (ActionKind.REVEAL, ActionKind.LEAVE, ActionKind.TARGET):
            return f"{k.slug} {self.card}"
        if k is ActionKind.PLAYER:
            return f"player {self.to}"
        if k is ActionKind.MOVE:
            return f"move {self.card} gap {self.to}"
        return k.slug

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the text notation (see the module docstring)."""
        words = text.strip().lower().split()
        if not words:
            raise ActionError("empty action")
        try:
            kind = ActionKind[words[0].upper()]
        except KeyError:
            raise ActionError(f"unknown action kind {words[0]!r}") from None
        try:
            if kind in (ActionKind.PLACE, ActionKind.TWIN):
                if len(words) == 3 and words[2] in ("front", "end"):
                    return cls(kind, _card_id(words[1]), FRONT if words[2] == "front" else END)
                if len(words) == 4 and words[2] == "on":
                    return cls(kind, _card_id(words[1]), _card_id(words[3]))
            elif kind in (ActionKind.REVEAL, ActionKind.LEAVE, ActionKind.TARGET):
                if len(words) == 2:
                    return cls(kind, _card_id(words[1]))
            elif kind is ActionKind.PLAYER:
                if len(words) == 2:
                    return cls(kind, -1, _nonneg(words[1]))
            elif kind is ActionKind.MOVE:
                if len(words) == 4 and words[2] == "gap":
                    return cls(kind, _card_id(words[1]), _nonneg(words[3]))
            elif len(words) == 1:
                return cls(kind)
        except ValueError:
            pass
        raise ActionError(f"malformed action {text!r}")

    # -- JSON ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        k = self.kind
        out: dict[str, Any] = {"kind": k.slug}
        if k in (ActionKind.PLACE, ActionKind.TWIN):
            out["card"] = self.card
            out["to"] = "front" if self.to == FRONT else "end" if self.to == END else self.to
        elif k in (ActionKind.REVEAL, ActionKind.LEAVE, ActionKind.TARGET):
            out["card"] = self.card
        elif k is ActionKind.PLAYER:
            out["player"] = self.to
        elif k is ActionKind.MOVE:
            out["card"] = self.card
            out["gap"] = self.to
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        """Read the JSON form; raises :class:`ActionError` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ActionError("an action must be a JSON object")
        slug = data.get("kind")
        try:
            kind = ActionKind[str(slug).upper()]
        except KeyError:
            raise ActionError(f"unknown action kind {slug!r}") from None
        expected = {
            ActionKind.PLACE: {"card", "to"},
            ActionKind.TWIN: {"card", "to"},
            ActionKind.REVEAL: {"card"},
            ActionKind.LEAVE: {"card"},
            ActionKind.TARGET: {"card"},
            ActionKind.PLAYER: {"player"},
            ActionKind.MOVE: {"card", "gap"},
        }.get(kind, set())
        fields = set(data) - {"kind"}
        if fields != expected:
            want = ", ".join(sorted(expected)) or "no other field"
            raise ActionError(f"a {kind.slug!r} action takes {want}; got {sorted(fields)}")
        if kind in (ActionKind.PLACE, ActionKind.TWIN):
            to = data["to"]
            where = FRONT if to == "front" else END if to == "end" else _json_int(to, "to")
            return cls(kind, _json_int(data["card"], "card"), where)
        if kind is ActionKind.PLAYER:
            return cls(kind, -1, _json_int(data["player"], "player"))
        if kind is ActionKind.MOVE:
            return cls(kind, _json_int(data["card"], "card"), _json_int(data["gap"], "gap"))
        if "card" in expected:
            return cls(kind, _json_int(data["card"], "card"))
        return cls(kind)


def _where_text(to: int) -> str:
    return "front" if to == FRONT else "end" if to == END else f"on {to}"


def _card_id(word: str) -> int:
    return _nonneg(word.lstrip("#"))


def _nonneg(word: str) -> int:
    value = int(word)
    if value < 0:
        raise ValueError(word)
    return value


def _json_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ActionError(f"{name} must be a non-negative integer, not {value!r}")
    return value
