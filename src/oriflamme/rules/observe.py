"""Views: what one player (or a spectator) may know, as plain JSON data (R-INFO-1).

This is the only way information leaves the rules. A player sees the public facts plus their
own hand, their own set-aside cards and the identity of their own face-down cards in the Queue;
a spectator (``viewer=None``) sees the public facts only.
"""

from __future__ import annotations

from typing import Final

from .cards import CardType
from .engine import decision, legal_actions, result
from .events import EventKind
from .observation import (
    Observation,
    ObservedCard,
    ObservedEvent,
    ObservedFamily,
    QueueCard,
)
from .state import (
    DISCARDED,
    ELIMINATED,
    HAND,
    N_ZONES,
    PHASE_NAMES,
    PILE,
    RESERVE,
    RESOLUTION,
    SET_ASIDE,
    Card,
    Event,
    Frame,
    Player,
    State,
)
from .texts import FAMILY_COLOURS

#: Each pending frame kind's name in observations and positions (:attr:`Frame.slug`).
FRAME_NAMES: Final[dict[int, str]] = {int(kind): kind.slug for kind in Frame}


def knows(state: State, viewer: Player | None, card: Card) -> bool:
    """Whether ``viewer`` may know the identity of ``card`` now."""
    if state.face_up[card]:
        return True
    return viewer is not None and state.card_family[card] % state.config.players == viewer


def _card(state: State, viewer: Player | None, card: Card) -> ObservedCard:
    return {
        "id": card,
        "family": state.card_family[card],
        "type": CardType(state.card_type[card]).slug if knows(state, viewer, card) else None,
    }


def observe(state: State, viewer: Player | None, with_log: bool = False) -> Observation:
    """The view of player ``viewer`` (``None``: a spectator's public view)."""
    cfg = state.config
    n = cfg.players
    if viewer is not None and (isinstance(viewer, bool) or not 0 <= viewer < n):
        raise ValueError(f"viewer must be a player 0 to {n - 1} or None, not {viewer}")
    queue: list[list[QueueCard]] = []
    for stack in state.queue:
        cards: list[QueueCard] = []
        for c in stack:
            cards.append({
                "id": c,
                "family": state.card_family[c],
                "type": CardType(state.card_type[c]).slug if knows(state, viewer, c) else None,
                "face_up": state.face_up[c],
                "tokens": state.tokens[c],
                "corrupted_by": state.corrupt[c] if state.corrupt[c] >= 0 else None,
                "controller": state.controller(c),
            })
        queue.append(cards)
    families: list[ObservedFamily] = []
    for f in range(cfg.families):
        z = f * N_ZONES
        mine = viewer is not None and f % n == viewer
        fam: ObservedFamily = {
            "family": f,
            "player": f % n,
            "colour": FAMILY_COLOURS[f],
            "hand_size": len(state.zones[z + HAND]),
            "set_aside_size": len(state.zones[z + SET_ASIDE]),
            "pile_size": len(state.zones[z + PILE]),
            "reserve": [_card(state, viewer, c) for c in state.zones[z + RESERVE]],
            "discarded": [_card(state, viewer, c) for c in state.zones[z + DISCARDED]],
            "eliminated": [_card(state, viewer, c) for c in state.zones[z + ELIMINATED]],
            "corruption_on": next(
                (c for c in range(len(state.corrupt)) if state.corrupt[c] == f), None),
        }
        if mine:
            fam["hand"] = [_card(state, viewer, c) for c in state.zones[z + HAND]]
            fam["set_aside"] = [_card(state, viewer, c) for c in state.zones[z + SET_ASIDE]]
        families.append(fam)
    d = decision(state)
    view: Observation = {
        "viewer": viewer,
        "config": cfg.to_dict(),
        "round": state.round,
        "phase": PHASE_NAMES[state.phase],
        "first_player": state.first_player,
        "placed": state.placed,
        "influence": list(state.influence),
        "scores_by_round": [list(r) for r in state.scores_by_round],
        "queue": queue,
        "families": families,
        "cursor": state.cursor if state.phase == RESOLUTION else None,
        "resolving": (state.resolving if state.phase == RESOLUTION and state.resolving >= 0
                      else None),
        "pending": [
            {"frame": FRAME_NAMES[k], "card": x, "family": f, "arg": a}
            for k, x, f, a in state.pending
        ],
        "decision": None,
        "legal": [],
        "result": None,
    }
    if d is not None:
        view["decision"] = {
            "player": d.player,
            "kind": d.kind.slug,
            "card": d.card if d.card >= 0 else None,
            "ability": CardType(d.ability).slug if d.ability >= 0 else None,
        }
        if viewer == d.player:
            view["legal"] = [a.to_json() for a in legal_actions(state)]
    r = result(state)
    if r is not None:
        view["result"] = {
            "scores": list(r.scores),
            "queue_cards": list(r.queue_cards),
            "winners": list(r.winners),
        }
    if with_log:
        view["log"] = events_for(state, viewer)
    return view


def event_type_for(state: State, viewer: Player | None, e: Event) -> int:
    """The card type an event may show ``viewer``: public at the time, or the viewer's own."""
    if e.card_type >= 0:
        return e.card_type
    if (e.card >= 0 and viewer is not None
            and state.card_family[e.card] % state.config.players == viewer):
        return state.card_type[e.card]
    return -1


#: Slugs by value, looked up rather than built per event (views and tournaments read every
#: event of a game).
_KIND_SLUGS: Final[dict[int, str]] = {int(k): k.slug for k in EventKind}
_TYPE_SLUGS: Final[dict[int, str]] = {int(t): t.slug for t in CardType}


def event_json(state: State, viewer: Player | None, e: Event) -> ObservedEvent:
    t = event_type_for(state, viewer, e)
    return {
        "kind": _KIND_SLUGS[e.kind],
        "round": e.round,
        "player": e.player if e.player >= 0 else None,
        "card": e.card if e.card >= 0 else None,
        "card_type": _TYPE_SLUGS[t] if t >= 0 else None,
        "other": e.other,
        "amount": e.amount,
    }


def events_for(state: State, viewer: Player | None, start: int = 0) -> list[ObservedEvent]:
    """The log from ``start`` as ``viewer`` may see it (public form for ``None``)."""
    if state.log is None:
        return []
    return [event_json(state, viewer, e) for e in state.log[start:]]
