"""What storage announced of a table that this server's copy may not have yet.

Changes are announced to every server (``Store.listen``). One that reaches a server while it is
loading the table, or while the table is locked, is noted here and applied afterwards: a copy
is never older than a change its server was told of.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .storage import ACTION, PRESENCE, Change
from .tables import Table

#: Any change that is not an action or presence: the table is read again.
ALL = "all"


@dataclass
class Announced:
    """The kinds of change announced for a table, and the latest (game, step) among them."""

    kinds: set[str] = field(default_factory=set)
    upto: tuple[int, int] = (0, 0)

    def note(self, change: Change) -> None:
        self.kinds.add(change.kind if change.kind in (ACTION, PRESENCE) else ALL)
        self.upto = max(self.upto, (change.game, change.step))

    def known_by(self, table: Table) -> bool:
        """Whether ``table`` already has every change noted (presence is read apart)."""
        kinds = self.kinds - {PRESENCE}
        return not kinds or (
            kinds == {ACTION} and (table.game_number, len(table.game.history)) >= self.upto
        )
