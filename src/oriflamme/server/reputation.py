"""Reputation: the share of an account's finished games that it finished without leaving
(``Leave the game``, or a game whose decisions the stand-in mostly made), shown on its profile,
in the lobby and at the table next to its name; a public table may ask for a minimum to join
(``409 reputation_too_low``). A player with no finished game yet has none shown, and may join
any table (nobody has had a reason to doubt them)."""

from __future__ import annotations

from .storage import Store
from .storage.rating_records import Reputation

#: The reputation a player without finished games is held to have when a table asks for one.
NEW_PLAYER_REPUTATION = 1.0


def shown_reputation(reputation: Reputation | None) -> float | None:
    """The share shown (rounded to a thousandth); None without finished games."""
    share = None if reputation is None else reputation.share
    return None if share is None else round(share, 3)


async def reputation_for_joining(store: Store, account_id: str) -> float:
    """The account's reputation as a table's minimum sees it."""
    share = (await store.reputations([account_id])).get(account_id)
    found = None if share is None else share.share
    return NEW_PLAYER_REPUTATION if found is None else found
