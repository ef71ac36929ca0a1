"""Display names and ability texts of the 21 card types, in English and French (pure data).

The texts are short summaries written for this project; the authority on every detail is
``RULINGS.md`` (the ruling ids of each card are listed in :attr:`CardText.rulings`).

>>> card_name(CardType.ROYAL_DECREE, "fr")
'Décret royal'
>>> card_text(CardType.QUEEN)
"Gain 2 Influence. Whoever eliminates an opponent's Queen gains 1 more."
>>> print(card_help(CardType.SOLDIER, "fr").splitlines()[0])
Soldat (Personnage)
>>> family_colour_name(4, "fr")
'violet'
>>> card_name(CardType.SPY, "de")
Traceback (most recent call last):
    ...
ValueError: unknown language 'de': expected one of 'en', 'fr'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .cards import CardType

__all__ = [
    "CARD_TEXTS",
    "FAMILY_COLOURS",
    "KIND_NAMES",
    "LANGS",
    "CardText",
    "card_help",
    "card_name",
    "card_text",
    "family_colour_name",
    "kind_name",
]

#: Supported languages, the default first.
LANGS: tuple[str, ...] = ("en", "fr")

#: Name of each card kind, per language: ``KIND_NAMES[lang]["character" | "intrigue"]``.
KIND_NAMES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "en": MappingProxyType({"character": "Character", "intrigue": "Intrigue"}),
        "fr": MappingProxyType({"character": "Personnage", "intrigue": "Intrigue"}),
    }
)

#: Family colours, by family index (English; see :func:`family_colour_name`).
FAMILY_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple")
_FAMILY_COLOURS_FR: tuple[str, ...] = ("rouge", "bleu", "vert", "jaune", "violet")

_HELP_LABELS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {"en": ("Notes", "Rulings"), "fr": ("Précisions", "Règles")}
)


@dataclass(frozen=True, slots=True)
class CardText:
    """Names, ability and clarifications of one card type, in both languages."""

    name_en: str
    name_fr: str
    text_en: str
    text_fr: str
    notes_en: str
    notes_fr: str
    rulings: tuple[str, ...]

    def name(self, lang: str = "en") -> str:
        return self.name_fr if _check_lang(lang) == "fr" else self.name_en

    def text(self, lang: str = "en") -> str:
        return self.text_fr if _check_lang(lang) == "fr" else self.text_en

    def notes(self, lang: str = "en") -> str:
        return self.notes_fr if _check_lang(lang) == "fr" else self.notes_en


def _check_lang(lang: str) -> str:
    if lang not in LANGS:
        expected = ", ".join(repr(x) for x in LANGS)
        raise ValueError(f"unknown language {lang!r}: expected one of {expected}")
    return lang


_TEXTS: dict[CardType, CardText] = {
    # ----------------------------------------------------------------- base characters
    CardType.ARCHER: CardText(
        name_en="Archer",
        name_fr="Archer",
        text_en="Eliminate the top card of the first stack or of the last stack of the Queue.",
        text_fr="Éliminez la carte du dessus de la première ou de la dernière pile de la File.",
        notes_en=(
            "The target may be face down, of your own family, or the Archer itself when it stands "
            "at an end; the elimination gives you 1 in every case."
        ),
        notes_fr=(
            "La cible peut être face cachée, de votre famille, ou l'Archer lui-même s'il est à "
            "une extrémité ; l'élimination vous rapporte 1 dans tous les cas."
        ),
        rulings=("R-ARCHER-1", "R-ABIL-1", "R-ELIM-1"),
    ),
    CardType.SOLDIER: CardText(
        name_en="Soldier",
        name_fr="Soldat",
        text_en="Eliminate the top card of a stack adjacent to the Soldier.",
        text_fr="Éliminez la carte du dessus d'une pile adjacente au Soldat.",
        notes_en=(
            "Face-down cards and cards of your own family are valid targets, and you gain 1 for "
            "the elimination. Only top cards can be hit; a stack counts once however tall."
        ),
        notes_fr=(
            "Les cartes face cachée et celles de votre famille sont des cibles valides, et "
            "l'élimination vous rapporte 1. Seules les cartes du dessus sont visées ; une pile "
            "compte une fois, quelle que soit sa hauteur."
        ),
        rulings=("R-SOLDIER-1", "R-QUEUE-2", "R-ABIL-1", "R-ELIM-1"),
    ),
    CardType.SPY: CardText(
        name_en="Spy",
        name_fr="Espion",
        text_en="Take 1 Influence from a player who controls the top card of an adjacent stack.",
        text_fr=(
            "Prenez 1 Influence à un joueur qui contrôle la carte du dessus d'une pile adjacente."
        ),
        notes_en=(
            "The Influence comes from the player's own pool, never from tokens on the card. "
            "Choosing yourself is allowed (even when it is the only choice) and does nothing."
        ),
        notes_fr=(
            "L'Influence est prise devant le joueur, jamais sur la carte. Vous choisir "
            "vous-même est permis (même si c'est le seul choix) et n'a aucun effet."
        ),
        rulings=("R-SPY-1", "R-SPY-2", "R-SCORE-1", "R-2P-2"),
    ),
    CardType.HEIR: CardText(
        name_en="Heir",
        name_fr="Héritier",
        text_en=(
            "Gain 2 Influence, unless another revealed, uncovered card with the same name is in "
            "the Queue."
        ),
        text_fr=(
            "Gagnez 2 Influence, sauf si une autre carte révélée et non recouverte du même nom se "
            "trouve dans la File."
        ),
        notes_en=(
            "Face-down or covered Heirs do not block the gain. A Shapeshifter copying the Heir "
            "keeps its own name, so only another revealed, uncovered Shapeshifter blocks it."
        ),
        notes_fr=(
            "Les Héritiers face cachée ou recouverts ne bloquent pas le gain. Un Changeforme qui "
            "copie l'Héritier garde son nom : seul un autre Changeforme révélé et non recouvert "
            "l'en prive."
        ),
        rulings=("R-HEIR-1", "R-SHIFT-1"),
    ),
    # ----------------------------------------------------------------- base intrigues
    CardType.ASSASSINATION: CardText(
        name_en="Assassination",
        name_fr="Assassinat",
        text_en="Eliminate any top card in the Queue. Discard the Assassination.",
        text_fr="Éliminez n'importe quelle carte du dessus de la File. Défaussez l'Assassinat.",
        notes_en=(
            "The target may be face down, of your own family, or the Assassination itself; the "
            "elimination gives you 1."
        ),
        notes_fr=(
            "La cible peut être face cachée, de votre famille, ou l'Assassinat lui-même ; "
            "l'élimination vous rapporte 1."
        ),
        rulings=("R-ASSASSIN-1", "R-ABIL-1", "R-ELIM-1"),
    ),
    CardType.ROYAL_DECREE: CardText(
        name_en="Royal Decree",
        name_fr="Décret royal",
        text_en=(
            "Move the top card of another stack into a gap of the Queue (between two stacks or at "
            "an end), never onto a stack. Discard the Royal Decree."
        ),
        text_fr=(
            "Déplacez la carte du dessus d'une autre pile dans un intervalle de la File (entre "
            "deux piles ou à une extrémité), jamais sur une pile. Défaussez le Décret royal."
        ),
        notes_en=(
            "The card keeps its face, tokens and Corruption token, uncovers the card beneath it, "
            "and is not eliminated. Moved after the cursor it resolves this round (perhaps "
            "twice); moved before it, it does not."
        ),
        notes_fr=(
            "La carte garde sa face, ses jetons et son jeton Corruption, découvre la carte "
            "dessous, et n'est pas éliminée. Placée après le curseur elle est résolue ce tour "
            "(parfois deux fois) ; placée avant, elle ne l'est pas."
        ),
        rulings=("R-DECREE-1", "R-ELIM-3", "R-RES-2", "R-RES-3", "R-ABIL-2"),
    ),
    # ----------------------------------------------------------------- base characters
    CardType.LORD: CardText(
        name_en="Lord",
        name_fr="Seigneur",
        text_en=(
            "Gain 1 Influence, plus 1 for each adjacent stack whose top card your family controls."
        ),
        text_fr=(
            "Gagnez 1 Influence, plus 1 par pile adjacente dont votre famille contrôle la carte "
            "du dessus."
        ),
        notes_en=(
            "Face-down top cards count, covered cards do not. In the first edition, every card of "
            "your family in an adjacent stack counts, covered ones included."
        ),
        notes_fr=(
            "Les cartes du dessus face cachée comptent, les cartes recouvertes non. Dans la "
            "première édition, chaque carte de votre famille dans une pile adjacente compte, "
            "même recouverte."
        ),
        rulings=("R-LORD-1", "R-QUEUE-2", "R-EDITION-1"),
    ),
    CardType.SHAPESHIFTER: CardText(
        name_en="Shapeshifter",
        name_fr="Changeforme",
        text_en=(
            "Choose a revealed Character on top of an adjacent stack and apply its ability as if "
            "the Shapeshifter were that card."
        ),
        text_fr=(
            "Choisissez un Personnage révélé au sommet d'une pile adjacente et appliquez sa "
            "capacité comme si le Changeforme était cette carte."
        ),
        notes_en=(
            "It acts from its own place, for its controller, and keeps the name Shapeshifter: no "
            "Queen bonus, no Prince/Twin link (a copied Prince or Twin just gains 1), and a copied "
            "Schemer discards the Shapeshifter. Copying a Shapeshifter does nothing; the choice is "
            "made again at each activation."
        ),
        notes_fr=(
            "Il agit depuis sa place, pour son contrôleur, et garde le nom Changeforme : pas de "
            "bonus de Reine, pas de lien Prince/Jumeau (un Prince ou un Jumeau copié rapporte "
            "juste 1), et une Intrigante copiée défausse le Changeforme. Copier un Changeforme "
            "n'a aucun effet ; le choix est refait à chaque activation."
        ),
        rulings=("R-SHIFT-1", "R-HEIR-1", "R-ABIL-1"),
    ),
    # ----------------------------------------------------------------- base intrigues
    CardType.AMBUSH: CardText(
        name_en="Ambush",
        name_fr="Embuscade",
        text_en=(
            "If you reveal it: its tokens are discarded, gain 1 Influence, discard the Ambush. "
            "If a card of another player eliminates it: discard that card and gain 4 Influence."
        ),
        text_fr=(
            "Si vous la révélez : ses jetons sont défaussés, gagnez 1 Influence, défaussez "
            "l'Embuscade. Si une carte d'un autre joueur l'élimine : défaussez cette carte et "
            "gagnez 4 Influence."
        ),
        notes_en=(
            "The eliminator still gains its 1 (not when a Cutthroat hits this card alone). "
            "Eliminated by your own card: only the elimination's 1 and the attacker stays "
            "(first edition: 1 more, attacker discarded). Whoever eliminates it, the Ambush and "
            "its tokens are then discarded: it goes to your discarded cards."
        ),
        notes_fr=(
            "L'éliminateur gagne quand même son 1 (sauf si une Coupe-jarret n'élimine que cette "
            "carte). Éliminée par votre propre carte : seul le 1 de l'élimination, l'attaquant "
            "reste (première édition : 1 de plus, l'attaquant est défaussé). Quel que soit "
            "l'éliminateur, l'Embuscade et ses jetons sont ensuite défaussés : elle rejoint vos "
            "cartes défaussées."
        ),
        rulings=(
            "R-AMBUSH-1",
            "R-AMBUSH-2",
            "R-AMBUSH-3",
            "R-ELIM-1",
            "R-ELIM-2",
            "R-CUT-1",
            "R-EDITION-1",
            "R-2P-2",
        ),
    ),
    CardType.CONSPIRACY: CardText(
        name_en="Conspiracy",
        name_fr="Complot",
        text_en="Gain twice the number of tokens on the Conspiracy. Discard the Conspiracy.",
        text_fr="Gagnez le double du nombre de jetons sur le Complot. Défaussez le Complot.",
        notes_en=(
            "The total is exactly twice the tokens (3 tokens give 6): they are not also gained "
            "on reveal. Revealed without tokens it gains nothing."
        ),
        notes_fr=(
            "Le total est exactement le double des jetons (3 jetons donnent 6) : ils ne sont pas "
            "gagnés une seconde fois à la révélation. Révélé sans jeton, il ne rapporte rien."
        ),
        rulings=("R-CONSP-1", "R-RES-1"),
    ),
    # ----------------------------------------------------------------- Embrasement characters
    CardType.PRINCE: CardText(
        name_en="Prince",
        name_fr="Prince",
        text_en=(
            "When revealed: place your family's Twin from its reserve, face up, where a normal "
            "placement may go, then gain 1 Influence. Any other activation: gain 1 Influence."
        ),
        text_fr=(
            "À sa révélation : placez le Jumeau de votre famille, face visible, depuis sa réserve, "
            "là où un placement normal le permet, puis gagnez 1 Influence. Toute autre "
            "activation : gagnez 1 Influence."
        ),
        notes_en=(
            "The Twin may not go onto a Prince, and acts only when the cursor reaches it. When a "
            "Prince is eliminated, every uncovered Twin of the family that controlled it is "
            "discarded."
        ),
        notes_fr=(
            "Le Jumeau ne peut pas recouvrir un Prince et n'agit que lorsque le curseur l'atteint. "
            "Quand un Prince est éliminé, tout Jumeau non recouvert de la famille qui le "
            "contrôlait est défaussé."
        ),
        rulings=("R-PRINCE-1", "R-PRINCE-2", "R-PRINCE-3", "R-RES-4", "R-PLACE-1"),
    ),
    CardType.TWIN: CardText(
        name_en="Twin",
        name_fr="Jumeau",
        text_en="Gain 1 Influence.",
        text_fr="Gagnez 1 Influence.",
        notes_en=(
            "It is never in a hand nor set aside: it enters play through its Prince (or an "
            "Usurpation). When a Twin is eliminated, every uncovered Prince of the family that "
            "controlled it is discarded."
        ),
        notes_fr=(
            "Il n'est jamais en main ni écarté : il entre en jeu par son Prince (ou une "
            "Usurpation). Quand un Jumeau est éliminé, tout Prince non recouvert de la famille qui "
            "le contrôlait est défaussé."
        ),
        rulings=("R-TWIN-1", "R-PRINCE-1", "R-PRINCE-2", "R-PRINCE-3", "R-USURP-1"),
    ),
    CardType.QUEEN: CardText(
        name_en="Queen",
        name_fr="Reine",
        text_en="Gain 2 Influence. Whoever eliminates an opponent's Queen gains 1 more.",
        text_fr="Gagnez 2 Influence. Qui élimine la Reine d'un adversaire gagne 1 de plus.",
        notes_en=(
            "The bonus counts per Queen, even for a Cutthroat that gains nothing for its single "
            "elimination. A Shapeshifter copying the Queen gains 2 but is no Queen."
        ),
        notes_fr=(
            "Le bonus compte pour chaque Reine, même pour une Coupe-jarret qui ne gagne rien pour "
            "une élimination unique. Un Changeforme qui copie la Reine gagne 2 mais n'est pas une "
            "Reine."
        ),
        rulings=("R-QUEEN-1", "R-CUT-1", "R-SHIFT-1"),
    ),
    CardType.CUTTHROAT: CardText(
        name_en="Cutthroat",
        name_fr="Coupe-jarret",
        text_en=(
            "Eliminate the top card of an adjacent stack, then every revealed top card with the "
            "same name controlled by an opponent of your family."
        ),
        text_fr=(
            "Éliminez la carte du dessus d'une pile adjacente, puis toute carte du dessus révélée "
            "du même nom contrôlée par un adversaire de votre famille."
        ),
        notes_en=(
            "If only one card is eliminated in all, the elimination gives nothing; otherwise each "
            "card gives 1. Queen bonuses and Ambush/Trap clauses apply to each card, in "
            "resolution order."
        ),
        notes_fr=(
            "Si une seule carte est éliminée en tout, l'élimination ne rapporte rien ; sinon "
            "chaque carte rapporte 1. Bonus de Reine et clauses d'Embuscade ou de Guet-apens "
            "s'appliquent à chaque carte, dans l'ordre de résolution."
        ),
        rulings=("R-CUT-1", "R-ELIM-1", "R-QUEEN-1", "R-AMBUSH-2", "R-TRAP-2"),
    ),
    CardType.APOTHECARY: CardText(
        name_en="Apothecary",
        name_fr="Apothicaire",
        text_en="Eliminate a top card adjacent to another top card that your family controls.",
        text_fr=(
            "Éliminez une carte du dessus adjacente à une autre carte du dessus que votre famille "
            "contrôle."
        ),
        notes_en=(
            "The reference card may be face down; without one there is no effect, and the "
            "Apothecary itself may be the target. It is always the eliminator, so an Ambush or "
            "Trap it hits discards it."
        ),
        notes_fr=(
            "La carte de référence peut être face cachée ; sans elle, aucun effet, et "
            "l'Apothicaire peut être lui-même la cible. Il est toujours l'éliminateur : une "
            "Embuscade ou un Guet-apens touché le défausse."
        ),
        rulings=("R-APOTH-1", "R-ELIM-1", "R-AMBUSH-2", "R-TRAP-2"),
    ),
    CardType.FELON: CardText(
        name_en="Felon",
        name_fr="Félon",
        text_en=(
            "For each adjacent stack, the player controlling its top card loses 1 Influence, "
            "you included."
        ),
        text_fr=(
            "Pour chaque pile adjacente, le joueur qui contrôle sa carte du dessus perd "
            "1 Influence, vous compris."
        ),
        notes_en=(
            "A player controlling both neighbours loses 2, and nobody goes below 0. In the "
            "2-player variant a player loses 1 per adjacent card of either of their families."
        ),
        notes_fr=(
            "Un joueur qui contrôle les deux voisines perd 2, et personne ne descend sous 0. À "
            "2 joueurs, un joueur perd 1 par carte adjacente de l'une ou l'autre de ses familles."
        ),
        rulings=("R-FELON-1", "R-SCORE-1", "R-2P-2"),
    ),
    CardType.SCHEMER: CardText(
        name_en="Schemer",
        name_fr="Intrigante",
        text_en=(
            "If an adjacent stack holds two or more cards, discard the Schemer; otherwise gain "
            "2 Influence."
        ),
        text_fr=(
            "Si une pile adjacente compte deux cartes ou plus, défaussez l'Intrigante ; sinon "
            "gagnez 2 Influence."
        ),
        notes_en=(
            "The stacks are checked each time the ability applies, not when they are built. "
            "Discarded this way the Schemer gains nothing."
        ),
        notes_fr=(
            "Les piles sont vérifiées à chaque application de la capacité, pas au moment où elles "
            "se forment. Défaussée ainsi, l'Intrigante ne rapporte rien."
        ),
        rulings=("R-SCHEMER-1", "R-SHIFT-1"),
    ),
    # ----------------------------------------------------------------- Embrasement intrigues
    CardType.USURPATION: CardText(
        name_en="Usurpation",
        name_fr="Usurpation",
        text_en=(
            "Eliminate the top card of an adjacent stack. If it was an opponent's Character "
            "alone in its stack, put your family's card of the same name in its place, face up, "
            "from your set-aside, discarded or eliminated cards. Discard the Usurpation."
        ),
        text_fr=(
            "Éliminez la carte du dessus d'une pile adjacente. Si c'était un Personnage adverse "
            "seul dans sa pile, mettez à sa place la carte du même nom de votre famille, face "
            "visible, prise parmi vos cartes écartées, défaussées ou éliminées. Défaussez "
            "l'Usurpation."
        ),
        notes_en=(
            "The replacement is mandatory when possible; it arrives without tokens, brings no "
            "Twin if it is a Prince, and acts only when the cursor reaches it. A Twin can only "
            "come from discarded or eliminated cards."
        ),
        notes_fr=(
            "Le remplacement est obligatoire s'il est possible ; la carte arrive sans jeton, "
            "n'amène pas de Jumeau si c'est un Prince, et n'agit que lorsque le curseur "
            "l'atteint. Un Jumeau ne peut venir que des cartes défaussées ou éliminées."
        ),
        rulings=("R-USURP-1", "R-USURP-2", "R-RES-4", "R-ELIM-1", "R-2P-2", "R-ABIL-2"),
    ),
    CardType.MACHINATION: CardText(
        name_en="Machination",
        name_fr="Machination",
        text_en=(
            "Discard the Machination, keeping its tokens. Activate a revealed top-card Character "
            "your family controls; then for each kept token, gain it or spend it to activate "
            "such a Character again."
        ),
        text_fr=(
            "Défaussez la Machination en gardant ses jetons. Activez un Personnage révélé au "
            "sommet d'une pile que votre famille contrôle ; puis, pour chaque jeton gardé, "
            "gagnez-le ou dépensez-le pour activer à nouveau un tel Personnage."
        ),
        notes_en=(
            "Each activation is resolved fully before the next choice, and the Character may "
            "differ each time. Without an eligible Character the tokens are simply gained; they "
            "are never gained automatically on reveal."
        ),
        notes_fr=(
            "Chaque activation est entièrement résolue avant le choix suivant, et le Personnage "
            "peut changer à chaque fois. Sans Personnage éligible, les jetons sont simplement "
            "gagnés ; ils ne le sont jamais automatiquement à la révélation."
        ),
        rulings=("R-MACH-1", "R-MACH-2", "R-RES-1", "R-RES-2", "R-ABIL-2"),
    ),
    CardType.TRAP: CardText(
        name_en="Trap",
        name_fr="Guet-apens",
        text_en=(
            "If you reveal it: its tokens are discarded, gain 1 Influence, discard the Trap. If a "
            "card of another player eliminates it: discard that card and steal 3 Influence from "
            "that player."
        ),
        text_fr=(
            "Si vous le révélez : ses jetons sont défaussés, gagnez 1 Influence, défaussez le "
            "Guet-apens. Si une carte d'un autre joueur l'élimine : défaussez cette carte et "
            "volez 3 Influence à ce joueur."
        ),
        notes_en=(
            "The eliminator gains its 1 first (not when a Cutthroat hits this card alone), then "
            "loses at most what it has. Eliminated by your own card: only the elimination's 1, "
            "whatever the edition; an eliminated Trap goes to your eliminated cards."
        ),
        notes_fr=(
            "L'éliminateur gagne d'abord son 1 (sauf si une Coupe-jarret n'élimine que cette "
            "carte), puis perd au plus ce qu'il a. Éliminé par votre propre carte : seul le 1 de "
            "l'élimination, quelle que soit l'édition ; un Guet-apens éliminé rejoint vos cartes "
            "éliminées."
        ),
        rulings=("R-TRAP-1", "R-TRAP-2", "R-SCORE-1", "R-CUT-1", "R-ELIM-2", "R-2P-2"),
    ),
    CardType.CORRUPTION: CardText(
        name_en="Corruption",
        name_fr="Corruption",
        text_en=(
            "Put your family's Corruption token on a revealed top-card Character that is not on "
            "an opponent's stack of two or more cards; your family controls it from now on. "
            "Discard the Corruption."
        ),
        text_fr=(
            "Posez le jeton Corruption de votre famille sur un Personnage révélé au sommet d'une "
            "pile, sauf sur une pile adverse de deux cartes ou plus ; votre famille le contrôle "
            "désormais. Défaussez la Corruption."
        ),
        notes_en=(
            "The token replaces any other Corruption token and may go on your own card. When the "
            "corrupted card leaves the Queue the token is gone for good and the card goes to its "
            "owner's eliminated cards."
        ),
        notes_fr=(
            "Le jeton remplace tout autre jeton Corruption et peut aller sur votre propre carte. "
            "Quand la carte corrompue quitte la File, le jeton est perdu pour de bon et la carte "
            "rejoint les cartes éliminées de son propriétaire."
        ),
        rulings=("R-CORR-1", "R-CORR-2", "R-CORR-3", "R-ABIL-2"),
    ),
}

#: Names, texts, notes and ruling ids of every card type, in :class:`CardType` order.
CARD_TEXTS: Mapping[CardType, CardText] = MappingProxyType({t: _TEXTS[t] for t in CardType})


def card_name(card_type: CardType, lang: str = "en") -> str:
    """Display name of ``card_type`` in ``lang`` ("en" or "fr")."""
    return CARD_TEXTS[card_type].name(lang)


def card_text(card_type: CardType, lang: str = "en") -> str:
    """Ability text of ``card_type`` in ``lang`` ("en" or "fr")."""
    return CARD_TEXTS[card_type].text(lang)


def kind_name(card_type: CardType, lang: str = "en") -> str:
    """``Character``/``Personnage`` or ``Intrigue``, in ``lang``."""
    kind = "character" if card_type.is_character else "intrigue"
    return KIND_NAMES[_check_lang(lang)][kind]


def card_help(card_type: CardType, lang: str = "en") -> str:
    """Multi-line help: name and kind, ability, notes and governing ruling ids."""
    entry = CARD_TEXTS[card_type]
    notes_label, rulings_label = _HELP_LABELS[_check_lang(lang)]
    sep = " : " if lang == "fr" else ": "
    return "\n".join(
        (
            f"{entry.name(lang)} ({kind_name(card_type, lang)})",
            entry.text(lang),
            f"{notes_label}{sep}{entry.notes(lang)}",
            f"{rulings_label}{sep}{', '.join(entry.rulings)}",
        )
    )


def family_colour_name(index: int, lang: str = "en") -> str:
    """Colour name of family ``index`` (0 to 4) in ``lang``."""
    colours = _FAMILY_COLOURS_FR if _check_lang(lang) == "fr" else FAMILY_COLOURS
    if not 0 <= index < len(colours):
        raise ValueError(f"family index {index} out of range 0..{len(colours) - 1}")
    return colours[index]
