"""Human-readable labels in English and French: players, cards, actions, prompts and the log.

Pure functions of a :class:`~.state.State`, computed on demand (never in the engine's hot
path). Every label is written for a *viewer* (a player index, or ``None`` for a spectator) and
never names a card type that viewer may not know (R-INFO-1): a card is named only when
:func:`.observe.knows` allows it, and a log event names its card only when
:func:`.observe.event_type_for` does. A card whose type is hidden is never described by
anything that depends on its type (not even the gender of a French word). The words are
per-language tables of format strings; ``lang`` is ``"en"`` or ``"fr"``.

>>> from oriflamme.rules.config import GameConfig
>>> from oriflamme.rules.engine import new_state
>>> state = new_state(GameConfig(players=3), seed=1)
>>> decision_label(state, None, "en"), decision_label(state, None, "fr")
('Red: choose a card to place', 'Rouge\\u202f: choisissez une carte à placer')
>>> player_label(new_state(GameConfig(players=2), seed=1), 1, "fr")
'Bleu & jaune'
>>> action_label(state, Action.place(3, END), None, "en")
'Place a card at the end of the Queue'

Players are named by their colours unless the caller passes their ``names`` (one per player,
used as given: a server's display names), which every function that names a player takes:

>>> decision_label(state, None, "en", names=("Ann", "Ben", "Cy"))
'Ann: choose a card to place'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple, TypeAlias

from .abilities import DecisionKind
from .actions import END, FRONT, Action, ActionKind
from .cards import CardType
from .engine import Decision, decision
from .events import EventKind
from .observe import event_type_for, knows
from .state import Card, CardTypeId, Event, Family, Player, State
from .texts import LANGS, card_name, family_colour_name

__all__ = [
    "action_label",
    "card_label",
    "decision_label",
    "event_label",
    "family_label",
    "log_lines",
    "player_label",
]

_WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "player.two": "{first} & {second}",
        "card.known": "{Colour} {name}",
        "card.hidden": "{Colour} face-down card",
        "card.own": "your {name}",
        "card.own_down": "your {name} (face down)",
        "card.any": "card",
        "card.any_of": "{Colour} card",
        "card.in_stack": "{card} (stack {n})",
        "where.front": "at the front of the Queue",
        "where.end": "at the end of the Queue",
        "where.on": "on top of {card}",
        "gap.front": "to the front of the Queue",
        "gap.end": "to the end of the Queue",
        "gap.between": "between {left} and {right}",
        "gap.after": "after stack {n}",
        "action.place": "Place {card} {where}",
        "action.reveal": "Reveal {card}",
        "action.reveal_tokens": "Reveal {card} ({tokens})",
        "action.leave": "Leave face down (+1 token)",
        "action.player": "Steal 1 from {player}",
        "action.player_self": "Steal 1 from {player} (no effect)",
        "action.move": "Move it {gap}",
        "action.gain": "Gain 1 Influence",
        "action.spend": "Spend it to activate a character again",
        "target.eliminate": "Eliminate {card}",
        "target.copy": "Copy {card}",
        "target.move_card": "Move {card}",
        "target.activate": "Activate {card}",
        "target.corrupt": "Corrupt {card}",
        "prompt": "{who}: {what}",
        "who.card": "{player}'s {card}",
        "who.as": "{who} (as {ability})",
        "ask.place": "choose a card to place",
        "ask.reveal": "reveal or leave face down?",
        "ask.eliminate": "choose a card to eliminate",
        "ask.steal": "choose a player to steal 1 from",
        "ask.copy": "choose a character to copy",
        "ask.move_card": "choose a card to move",
        "ask.move_to": "choose where to move {card}",
        "ask.place_twin": "choose where to place the {twin}",
        "ask.activate": "choose a character to activate",
        "ask.token": "gain 1 Influence or spend a token to activate again? ({left})",
        "ask.corrupt": "choose a character to corrupt",
        "over": "The game is over",
        "event.placed": "{player} placed {card} {where}",
        "event.revealed": "{player} revealed {card}",
        "event.left": "{player} left {card} face down ({tokens})",
        "event.eliminated": "{player} eliminated {card} with {by}",
        "event.discarded": "{card} was discarded",
        "event.moved": "{player} moved {card} {gap}",
        "event.stole": "{player} stole {n} from {other}",
        "event.gained": "{player} gained {n}",
        "event.gained_from": "{player} gained {n} ({source})",
        "event.lost": "{player} lost {n}",
        "event.lost_from": "{player} lost {n} ({source})",
        "event.corrupted": "{player} corrupted {card}",
        "event.corrupted_for": "{player} corrupted {card} ({colour} token)",
        "event.copied": "{player} copied {card} with {by}",
        "event.activated": "{player} activated {card} with {by}",
        "event.replaced": "{player} put {card} in place {of_other}",
        "event.drew": "{player} drew {cards}",
        "event.round_ended": "Round {n} ended",
        "event.game_ended": "The game ended",
    },
    "fr": {
        "player.two": "{first} & {second}",
        "card.known": "{name} {colour}",
        "card.hidden": "carte {colour} face cachée",
        "card.own": "votre {name}",
        "card.own_down": "votre {name} (face cachée)",
        "card.any": "carte",
        "card.any_of": "carte {colour}",
        "card.in_stack": "{card} (pile {n})",
        "where.front": "au début de la File",
        "where.end": "à la fin de la File",
        "where.on": "sur {card}",
        "gap.front": "au début de la File",
        "gap.end": "à la fin de la File",
        "gap.between": "entre {left} et {right}",
        "gap.after": "après la pile {n}",
        "action.place": "Placer {card} {where}",
        "action.reveal": "Révéler {card}",
        "action.reveal_tokens": "Révéler {card} ({tokens})",
        "action.leave": "Laisser face cachée (+1 jeton)",
        "action.player": "Voler 1 à {player}",
        "action.player_self": "Voler 1 à {player} (sans effet)",
        "action.move": "Déplacer {gap}",
        "action.gain": "Gagner 1 Influence",
        "action.spend": "Le dépenser pour activer de nouveau un personnage",
        "target.eliminate": "Éliminer {card}",
        "target.copy": "Copier {card}",
        "target.move_card": "Déplacer {card}",
        "target.activate": "Activer {card}",
        "target.corrupt": "Corrompre {card}",
        "prompt": "{who}\u202f: {what}",
        "who.card": "{card} de {player}",
        "who.as": "{who} (comme {ability})",
        "ask.place": "choisissez une carte à placer",
        "ask.reveal": "révéler ou laisser face cachée\u202f?",
        "ask.eliminate": "choisissez une carte à éliminer",
        "ask.steal": "choisissez à qui voler 1",
        "ask.copy": "choisissez un personnage à copier",
        "ask.move_card": "choisissez une carte à déplacer",
        "ask.move_to": "choisissez où déplacer {card}",
        "ask.place_twin": "choisissez où placer le {twin}",
        "ask.activate": "choisissez un personnage à activer",
        "ask.token": (
            "gagner 1 Influence ou dépenser un jeton pour activer de nouveau\u202f? ({left})"
        ),
        "ask.corrupt": "choisissez un personnage à corrompre",
        "over": "La partie est terminée",
        "event.placed": "{player} a placé {card} {where}",
        "event.revealed": "{player} a révélé {card}",
        "event.left": "{player} a laissé {card} face cachée ({tokens})",
        "event.eliminated": "{player} a éliminé {card} avec {by}",
        "event.discarded": "{card} a été défaussé{e}",
        "event.moved": "{player} a déplacé {card} {gap}",
        "event.stole": "{player} a volé {n} à {other}",
        "event.gained": "{player} a gagné {n}",
        "event.gained_from": "{player} a gagné {n} ({source})",
        "event.lost": "{player} a perdu {n}",
        "event.lost_from": "{player} a perdu {n} ({source})",
        "event.corrupted": "{player} a corrompu {card}",
        "event.corrupted_for": "{player} a corrompu {card} (jeton {colour})",
        "event.copied": "{player} a copié {card} avec {by}",
        "event.activated": "{player} a activé {card} avec {by}",
        "event.replaced": "{player} a mis {card} à la place {of_other}",
        "event.drew": "{player} a pioché {cards}",
        "event.round_ended": "Fin de la manche {n}",
        "event.game_ended": "Fin de la partie",
    },
}

#: Phrases with a number: (singular, plural) format strings.
_COUNTED: Mapping[str, Mapping[str, tuple[str, str]]] = {
    "en": {
        "gain_tokens": ("gain {n} token", "gain {n} tokens"),
        "lose_tokens": ("{n} token discarded", "{n} tokens discarded"),
        "keep_tokens": ("{n} token for its ability", "{n} tokens for its ability"),
        "tokens_on": ("{n} token on it", "{n} tokens on it"),
        "tokens_left": ("{n} token left", "{n} tokens left"),
        "cards": ("{n} card", "{n} cards"),
    },
    "fr": {
        "gain_tokens": ("gagner {n} jeton", "gagner {n} jetons"),
        "lose_tokens": ("{n} jeton défaussé", "{n} jetons défaussés"),
        "keep_tokens": ("{n} jeton pour son pouvoir", "{n} jetons pour son pouvoir"),
        "tokens_on": ("{n} jeton dessus", "{n} jetons dessus"),
        "tokens_left": ("{n} jeton restant", "{n} jetons restants"),
        "cards": ("{n} carte", "{n} cartes"),
    },
}
#: Numbers that take the singular.
_SINGULAR: Mapping[str, frozenset[int]] = {"en": frozenset({1}), "fr": frozenset({0, 1})}

#: Determiners of a named card (masculine, feminine, before a vowel) and of an unnamed one.
_ARTICLES: Mapping[str, Mapping[str, str]] = {
    "en": {"m": "", "f": "", "elided": "", "indefinite": "a "},
    "fr": {"m": "le ", "f": "la ", "elided": "l'", "indefinite": "une "},
}
#: "of" + determiner, by determiner.
_OF: Mapping[str, Mapping[str, str]] = {
    "en": {"": "of ", "a ": "of a "},
    "fr": {"le ": "du ", "la ": "de la ", "l'": "de l'", "une ": "d'une ", "": "de "},
}
_VOWELS = frozenset("aeiouhéèêàâîôûAEIOUHÉÈÊÀÂÎÔÛ")
#: Card names of feminine gender (French agreement); an unnamed card is "une carte".
_FEMININE_NAMES: Mapping[str, frozenset[CardType]] = {
    "en": frozenset(),
    "fr": frozenset(
        {
            CardType.AMBUSH,
            CardType.QUEEN,
            CardType.SCHEMER,
            CardType.USURPATION,
            CardType.MACHINATION,
            CardType.CORRUPTION,
        }
    ),
}
_FEMININE_COLOURS: Mapping[str, Mapping[str, str]] = {
    "en": {},
    "fr": {"bleu": "bleue", "vert": "verte", "violet": "violette"},
}
#: Past-participle ending agreeing with a (masculine, feminine) subject.
_AGREEMENT: Mapping[str, tuple[str, str]] = {"en": ("", ""), "fr": ("", "e")}

#: What revealing does with the tokens on a card, when not simply gaining them (R-RES-1):
#: lost for Ambush and Trap (R-AMBUSH-1, R-TRAP-1), used by Conspiracy and Machination
#: (R-CONSP-1, R-MACH-1).
_TOKEN_FATE: Mapping[CardType, str] = {
    CardType.AMBUSH: "lose_tokens",
    CardType.TRAP: "lose_tokens",
    CardType.CONSPIRACY: "keep_tokens",
    CardType.MACHINATION: "keep_tokens",
}


class _Noun(NamedTuple):
    """A card as words: its text, the determiner it takes in a sentence, its gender."""

    text: str
    article: str
    feminine: bool


# -- words --------------------------------------------------------------------------------
def _words(lang: str) -> Mapping[str, str]:
    if lang not in LANGS:
        expected = ", ".join(repr(x) for x in LANGS)
        raise ValueError(f"unknown language {lang!r}: expected one of {expected}")
    return _WORDS[lang]


def _say(lang: str, key: str, **slots: object) -> str:
    return _words(lang)[key].format(**slots)


def _count(lang: str, key: str, n: int) -> str:
    one, many = _COUNTED[lang][key]
    return (one if n in _SINGULAR[lang] else many).format(n=n)


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _the(noun: _Noun) -> str:
    return noun.article + noun.text


def _of(noun: _Noun, lang: str) -> str:
    return _OF[lang][noun.article] + noun.text


def _check_viewer(state: State, viewer: Player | None) -> None:
    if viewer is not None and not 0 <= viewer < state.config.players:
        raise ValueError(f"viewer must be a player 0 to {state.config.players - 1} or None")


#: The players' names a caller gives (one per player), or None: their colours.
Names: TypeAlias = Sequence[str] | None


def _check_names(state: State, names: Names) -> None:
    if names is not None and len(names) != state.config.players:
        raise ValueError(f"names must name the {state.config.players} players, not {len(names)}")


def _colour(family: Family, lang: str, feminine: bool) -> str:
    name = family_colour_name(family, lang)
    return _FEMININE_COLOURS[lang].get(name, name) if feminine else name


# -- players and cards --------------------------------------------------------------------
def family_label(state: State, family: Family, lang: str) -> str:
    """The family's colour as a name: ``"Red"`` / ``"Rouge"``."""
    _words(lang)
    if not 0 <= family < state.config.families:
        raise ValueError(f"family must be 0 to {state.config.families - 1}, not {family}")
    return _capitalise(family_colour_name(family, lang))


def player_label(state: State, player: Player, lang: str, names: Names = None) -> str:
    """The player's name in ``names`` if given; else their colour (``"Red"``), or in the
    two-families variant their two colours: ``"Red & green"`` / ``"Rouge & vert"``. Players are
    never numbered on screen (the command line numbers seats from 0, like the API; one
    numbering only)."""
    _words(lang)
    if not 0 <= player < state.config.players:
        raise ValueError(f"player must be 0 to {state.config.players - 1}, not {player}")
    if names is not None:
        _check_names(state, names)
        return names[player]
    if not state.config.two_families:
        return family_label(state, player, lang)
    first, second = (family_colour_name(f, lang) for f in state.config.player_families(player))
    return _say(lang, "player.two", first=_capitalise(first), second=second)


def _named(card_type: CardTypeId, family: Family | None, lang: str) -> _Noun:
    """A card of known type; with its family's colour unless ``family`` is None."""
    t = CardType(card_type)
    name = card_name(t, lang)
    feminine = t in _FEMININE_NAMES[lang]
    text = name
    if family is not None:
        colour = _colour(family, lang, feminine)
        text = _say(lang, "card.known", name=name, colour=colour, Colour=_capitalise(colour))
    articles = _ARTICLES[lang]
    article = articles["elided" if text[0] in _VOWELS else "f" if feminine else "m"]
    return _Noun(text, article, feminine)


def _unnamed(family: Family | None, lang: str, face_down: bool) -> _Noun:
    """A card of hidden type: nothing in it depends on the type."""
    if family is None:
        text = _say(lang, "card.any")
    else:
        colour = _colour(family, lang, feminine=True)  # "carte" is feminine
        key = "card.hidden" if face_down else "card.any_of"
        text = _say(lang, key, colour=colour, Colour=_capitalise(colour))
    return _Noun(text, _ARTICLES[lang]["indefinite"], True)


def _card_noun(state: State, card: Card, viewer: Player | None, lang: str) -> _Noun:
    family = state.card_family[card]
    if not knows(state, viewer, card):
        return _unnamed(family, lang, face_down=True)
    if state.face_up[card]:
        return _named(state.card_type[card], family, lang)
    own = _named(state.card_type[card], family if state.config.two_families else None, lang)
    key = "card.own_down" if state.in_queue(card) else "card.own"
    return _Noun(_say(lang, key, name=own.text), "", own.feminine)


def card_label(state: State, card: Card, viewer: Player | None, lang: str) -> str:
    """``"Red Soldier"`` / ``"Soldat rouge"`` when ``viewer`` may know the card; the viewer's
    own face-down card ``"your Spy (face down)"``; else ``"Blue face-down card"``."""
    _words(lang)
    _check_viewer(state, viewer)
    return _card_noun(state, card, viewer, lang).text


def _queue_noun(state: State, card: Card, viewer: Player | None, lang: str) -> _Noun:
    """A card in the Queue; an unknown one gets its stack number, to tell it from others."""
    noun = _card_noun(state, card, viewer, lang)
    number = next((i + 1 for i, st in enumerate(state.queue) if card in st), 0)
    if knows(state, viewer, card) or not number:
        return noun
    return noun._replace(text=_say(lang, "card.in_stack", card=noun.text, n=number))


def _actor_noun(
    state: State, card: Card, card_type: CardTypeId, player: Player, lang: str
) -> _Noun:
    """``card`` (``card_type`` -1 when not shown) in a sentence about ``player``: the colour is
    left out for the player's own family in the standard game ("Red placed Soldier")."""
    family = state.card_family[card]
    colour = None if not state.config.two_families and family == player else family
    if card_type < 0:
        return _unnamed(colour, lang, face_down=False)
    return _named(card_type, colour, lang)


def _known_type(state: State, card: Card, viewer: Player | None) -> int:
    return state.card_type[card] if knows(state, viewer, card) else -1


# -- actions ------------------------------------------------------------------------------
def _current(state: State) -> Decision:
    d = decision(state)
    if d is None:
        raise ValueError("the game is over: there is no decision to label an action for")
    return d


def _where(state: State, to: int, viewer: Player | None, lang: str, in_queue: bool) -> str:
    if to == FRONT:
        return _say(lang, "where.front")
    if to == END:
        return _say(lang, "where.end")
    noun = _queue_noun(state, to, viewer, lang) if in_queue else _card_noun(state, to, viewer, lang)
    return _say(lang, "where.on", card=_the(noun))


def _place_action(state: State, a: Action, viewer: Player | None, lang: str) -> str:
    player = state.player_of(state.card_family[a.card])
    card = _actor_noun(state, a.card, _known_type(state, a.card, viewer), player, lang)
    where = _where(state, a.to, viewer, lang, in_queue=True)
    return _say(lang, "action.place", card=_the(card), where=where)


def _reveal_action(state: State, a: Action, viewer: Player | None, lang: str) -> str:
    t = _known_type(state, a.card, viewer)
    card = _the(_actor_noun(state, a.card, t, state.player_of(state.card_family[a.card]), lang))
    tokens = state.tokens[a.card]
    if t < 0 or not tokens:
        return _say(lang, "action.reveal", card=card)
    fate = _count(lang, _TOKEN_FATE.get(CardType(t), "gain_tokens"), tokens)
    return _say(lang, "action.reveal_tokens", card=card, tokens=fate)


def _fixed_action(state: State, a: Action, viewer: Player | None, lang: str) -> str:
    return _say(lang, f"action.{a.kind.slug}")


def _target_action(state: State, a: Action, viewer: Player | None, lang: str) -> str:
    kind = _current(state).kind
    key = f"target.{kind.slug}"
    if key not in _words(lang):
        raise ValueError(f"a target action does not answer a {kind.slug} decision")
    return _say(lang, key, card=_the(_queue_noun(state, a.card, viewer, lang)))


def _player_action(
    state: State, a: Action, viewer: Player | None, lang: str, names: Names = None
) -> str:
    key = "action.player_self" if a.to == _current(state).player else "action.player"
    return _say(lang, key, player=player_label(state, a.to, lang, names))


def _beside(stack: list[int], moving: int) -> int:
    """The card of ``stack`` next to a gap once ``moving`` has left it."""
    return stack[-2] if stack[-1] == moving and len(stack) > 1 else stack[-1]


def _move_action(state: State, a: Action, viewer: Player | None, lang: str) -> str:
    q = state.queue
    if a.to == 0:
        gap = _say(lang, "gap.front")
    elif a.to >= len(q):
        gap = _say(lang, "gap.end")
    else:
        left, right = (
            _the(_queue_noun(state, _beside(q[j], a.card), viewer, lang)) for j in (a.to - 1, a.to)
        )
        gap = _say(lang, "gap.between", left=left, right=right)
    return _say(lang, "action.move", gap=gap)


_ACTION_LABELS: Mapping[ActionKind, Callable[[State, Action, Player | None, str], str]] = {
    ActionKind.PLACE: _place_action,
    ActionKind.REVEAL: _reveal_action,
    ActionKind.LEAVE: _fixed_action,
    ActionKind.TARGET: _target_action,
    ActionKind.PLAYER: _player_action,
    ActionKind.MOVE: _move_action,
    ActionKind.TWIN: _place_action,
    ActionKind.GAIN: _fixed_action,
    ActionKind.SPEND: _fixed_action,
}


def action_label(
    state: State, action: Action, viewer: Player | None, lang: str, names: Names = None
) -> str:
    """What ``action`` does, for the current decision: ``"Eliminate Blue Archer"``."""
    _words(lang)
    _check_viewer(state, viewer)
    _check_names(state, names)
    kind = ActionKind(action.kind)
    if kind is ActionKind.PLAYER:  # the only action that names a player
        return _capitalise(_player_action(state, action, viewer, lang, names))
    return _capitalise(_ACTION_LABELS[kind](state, action, viewer, lang))


# -- decisions ----------------------------------------------------------------------------
def _who(state: State, d: Decision, viewer: Player | None, lang: str, names: Names) -> str:
    """Who decides: the player, or the player's card whose ability asks ("Blue's Soldier")."""
    player = player_label(state, d.player, lang, names)
    if not state.pending or d.kind is DecisionKind.REVEAL:
        return player
    acting = state.pending[-1][1]
    if not knows(state, viewer, acting):
        return player
    t = state.card_type[acting]
    card = _actor_noun(state, acting, t, d.player, lang).text
    who = _say(lang, "who.card", player=player, card=card)
    if d.ability >= 0 and d.ability != t:
        who = _say(lang, "who.as", who=who, ability=card_name(CardType(d.ability), lang))
    return who


def _ask_slots(state: State, d: Decision, viewer: Player | None, lang: str) -> dict[str, str]:
    if d.kind is DecisionKind.MOVE_TO:
        return {"card": _the(_queue_noun(state, d.card, viewer, lang))}
    if d.kind is DecisionKind.PLACE_TWIN:
        return {"twin": card_name(CardType.TWIN, lang)}
    if d.kind is DecisionKind.TOKEN:
        return {"left": _count(lang, "tokens_left", state.pending[-1][3])}
    return {}


def decision_label(state: State, viewer: Player | None, lang: str, names: Names = None) -> str:
    """The prompt for the current decision: ``"Blue's Soldier: choose a card to eliminate"``."""
    _words(lang)
    _check_viewer(state, viewer)
    _check_names(state, names)
    d = decision(state)
    if d is None:
        return _say(lang, "over")
    what = _say(lang, f"ask.{d.kind.slug}", **_ask_slots(state, d, viewer, lang))
    return _capitalise(_say(lang, "prompt", who=_who(state, d, viewer, lang, names), what=what))


# -- events -------------------------------------------------------------------------------
def _event_victim(state: State, e: Event, viewer: Player | None, lang: str) -> _Noun:
    """The event's card, named with its colour when its type may be shown."""
    t = event_type_for(state, viewer, e)
    family = state.card_family[e.card]
    return _named(t, family, lang) if t >= 0 else _unnamed(family, lang, face_down=True)


def _event_actor(state: State, e: Event, viewer: Player | None, lang: str) -> _Noun:
    return _actor_noun(state, e.card, event_type_for(state, viewer, e), e.player, lang)


def _other_actor(state: State, e: Event, viewer: Player | None, lang: str) -> _Noun:
    """The card in ``e.other`` that acted for ``e.player``."""
    return _actor_noun(state, e.other, _known_type(state, e.other, viewer), e.player, lang)


def _placed_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    return {
        "card": _the(_event_actor(state, e, viewer, lang)),
        "where": _where(state, e.other, viewer, lang, in_queue=False),
    }


def _revealed_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    return {"card": _the(_event_actor(state, e, viewer, lang))}


def _left_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    return {
        "card": _the(_event_actor(state, e, viewer, lang)),
        "tokens": _count(lang, "tokens_on", e.amount),
    }


def _eliminated_event(
    state: State, e: Event, viewer: Player | None, lang: str
) -> dict[str, object]:
    return {
        "card": _the(_event_victim(state, e, viewer, lang)),
        "by": _the(_other_actor(state, e, viewer, lang)),
    }


def _discarded_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    card = _event_victim(state, e, viewer, lang)
    return {"card": _the(card), "e": _AGREEMENT[lang][card.feminine]}


def _moved_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    gap = _say(lang, "gap.front") if e.other == 0 else _say(lang, "gap.after", n=e.other)
    return {"card": _the(_event_victim(state, e, viewer, lang)), "gap": gap}


def _stole_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    return {"n": e.amount, "other": player_label(state, e.other, lang)}


def _amount_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    """A gain or loss, with its source card when that may be shown."""
    shown = e.card >= 0 and event_type_for(state, viewer, e) >= 0
    return {"n": e.amount, "source": _event_actor(state, e, viewer, lang).text if shown else ""}


def _corrupted_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    return {
        "card": _the(_event_victim(state, e, viewer, lang)),
        "colour": family_colour_name(e.other, lang),
    }


def _copied_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    return {
        "card": _the(_card_noun(state, e.other, viewer, lang)),
        "by": _the(_event_actor(state, e, viewer, lang)),
    }


def _activated_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    return {
        "card": _the(_event_victim(state, e, viewer, lang)),
        "by": _the(_other_actor(state, e, viewer, lang)),
    }


def _replaced_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    return {
        "card": _the(_event_actor(state, e, viewer, lang)),
        "of_other": _of(_card_noun(state, e.other, viewer, lang), lang),
    }


def _drew_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    return {"cards": _count(lang, "cards", e.amount)}


def _round_event(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    return {"n": e.amount}


def _no_slots(state: State, e: Event, viewer: Player | None, lang: str) -> dict[str, object]:
    return {}


#: The words of each event kind, beyond the player: its template slots.
_EVENT_SLOTS: Mapping[
    EventKind, Callable[[State, Event, Player | None, str], dict[str, object]]
] = {
    EventKind.PLACED: _placed_event,
    EventKind.REVEALED: _revealed_event,
    EventKind.LEFT: _left_event,
    EventKind.ELIMINATED: _eliminated_event,
    EventKind.DISCARDED: _discarded_event,
    EventKind.MOVED: _moved_event,
    EventKind.STOLE: _stole_event,
    EventKind.GAINED: _amount_event,
    EventKind.LOST: _amount_event,
    EventKind.CORRUPTED: _corrupted_event,
    EventKind.COPIED: _copied_event,
    EventKind.ACTIVATED: _activated_event,
    EventKind.TWIN_PLACED: _placed_event,
    EventKind.REPLACED: _replaced_event,
    EventKind.DREW: _drew_event,
    EventKind.ROUND_ENDED: _round_event,
    EventKind.GAME_ENDED: _no_slots,
}


def _event_key(state: State, e: Event, slots: Mapping[str, object]) -> str:
    kind = EventKind(e.kind)
    if kind is EventKind.TWIN_PLACED:
        return "event.placed"
    if kind in (EventKind.GAINED, EventKind.LOST) and slots["source"]:
        return f"event.{kind.slug}_from"
    if kind is EventKind.CORRUPTED and state.config.two_families:
        return "event.corrupted_for"
    return f"event.{kind.slug}"


def event_label(
    state: State, event: Event, viewer: Player | None, lang: str, names: Names = None
) -> str:
    """One log event as a sentence, e.g. ``"Red eliminated Blue Archer with Soldier"``."""
    _words(lang)
    _check_viewer(state, viewer)
    _check_names(state, names)
    kind = EventKind(event.kind)
    slots = _EVENT_SLOTS[kind](state, event, viewer, lang)
    if kind is EventKind.STOLE:  # the other player named, too
        slots["other"] = player_label(state, event.other, lang, names)
    player = player_label(state, event.player, lang, names) if event.player >= 0 else ""
    return _capitalise(_say(lang, _event_key(state, event, slots), player=player, **slots))


def log_lines(
    state: State, viewer: Player | None, lang: str, start: int = 0, names: Names = None
) -> list[str]:
    """The game log from event ``start`` on, one sentence per event, as ``viewer`` sees it."""
    _words(lang)
    _check_viewer(state, viewer)
    _check_names(state, names)
    if state.log is None:
        return []
    return [event_label(state, e, viewer, lang, names) for e in state.log[start:]]
