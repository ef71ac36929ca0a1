"""Every text the terminal game prints around the rules' own labels, in English and French.

One table of strings per language, like the web client's ``i18n.js``: the rules give the card
names, actions, prompts and log lines (``oriflamme.api``); this table gives everything else (the
banner, the board's words, the help, the errors, saving, the end). Commands have a name in each
language, and the English names work in French too (not the other way round).

>>> TerminalTexts("fr")("round", n=2, rounds=6)
'Manche 2 sur 6'
>>> french = TerminalTexts("fr")
>>> french.command("plateau"), french.command("board"), TerminalTexts("en").command("aide")
('board', 'board', None)
"""

from __future__ import annotations

from typing import Any

LANGS = ("en", "fr")

#: The commands of a game, by canonical name: their names in each language.
COMMANDS: dict[str, dict[str, tuple[str, ...]]] = {
    "help": {"en": ("help", "?"), "fr": ("aide", "?")},
    "board": {"en": ("board",), "fr": ("plateau",)},
    "log": {"en": ("log",), "fr": ("journal",)},
    "save": {"en": ("save",), "fr": ("sauver",)},
    "quit": {"en": ("quit", "exit"), "fr": ("quitter",)},
}

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        # the banner
        "banner": "Oriflamme: {players} players, {cards} cards, {variant}, {edition} edition,"
        " seed {seed}.",
        "banner_loaded": "Oriflamme: a saved game continued from {file}: {players} players,"
        " {cards} cards, {variant}, {edition} edition, round {round}.",
        "seat_human": "  seat {seat}, {player}: human",
        "seat_bot": "  seat {seat}, {player}: {bot} bot",
        "type_help": "Type 'help' for the commands.",
        "cards_base": "base",
        "cards_embrasement": "Embrasement",
        "cards_mixed": "chosen",
        "variant_standard": "standard",
        "variant_two-families": "two families each",
        "edition_revised": "revised",
        "edition_first": "first",
        # the board
        "round": "Round {n} of {rounds}",
        "phase_placement": "placement",
        "phase_resolution": "resolution",
        "first_player": "first player: {player}",
        "queue_empty": "The Queue is empty.",
        "face_up": "face up",
        "face_down": "face down",
        "tokens_one": "1 token",
        "tokens_many": "{n} tokens",
        "corrupted": "corrupted: ",
        "below": " below: ",
        "up": " (up)",
        "col_player": "Player",
        "col_influence": "Influence",
        "col_hand": "Hand",
        "col_set_aside": "Set aside",
        "you": "you",
        "to_decide": "to decide",
        "zone_hand": "Hand",
        "zone_set_aside": "Set aside",
        "zone_discarded": "Discarded",
        "zone_eliminated": "Eliminated",
        "none": "none",
        # a turn
        "pass_to": "Pass to {player}, then press Enter.",
        "only_option": "Only one option for {player}: {label} (applied automatically).",
        "earlier_events": "… {n} earlier events (type 'log' to see them)",
        "nothing_yet": "(nothing has happened yet)",
        "thinking": "{player} ({bot}) is thinking…",
        "help": "Answer with the number of an option or its notation (e.g. 'reveal 12',"
        " 'place 3 end').\nCommands:\n"
        "  help CARD   the text of a card, e.g. 'help soldier' or 'help royal decree'\n"
        "  board       show the table and the options again\n"
        "  log         the whole game log as you may see it\n"
        "  save FILE   save the game (JSON; 'oriflamme play --load FILE' continues it,"
        " 'oriflamme replay FILE' plays it back)\n"
        "  quit        leave the game (you may save it first)",
        # mistakes
        "no_option": "There is no option {n}: choose 1 to {count}.",
        "not_understood": "Not understood: {line!r}. Type an option number (1 to {count}), an"
        " action such as 'reveal 12', or 'help'.",
        "not_legal": "'{action}' is not a legal option now; type 'board' to see them.",
        "no_card": "No card named {name!r}; try e.g. 'help soldier'.",
        # saving and leaving
        "save_where": "Say where to save: save FILE",
        "saved": "Saved to {path}.",
        "cannot_save": "Cannot save to {path}: {reason}",
        "overwrite": "{path} exists. Overwrite it? (yes/no) ",
        "not_overwritten": "Not saved: {path} was kept.",
        "yes": "yes",
        "y": "y",
        "offer_save": "Save the game first? A file name, or Enter to leave without saving: ",
        "abandoned": "Game abandoned.",
        "interrupted": "Interrupted.",
        "input_ended": "The input ended before the game did.",
        "offer_save_end": "Save the finished game? A file name, or Enter to finish: ",
        # the end
        "game_over": "The game is over",
        "final_scores": "Final scores",
        "col_queue_cards": "Cards in the Queue",
        "winner_mark": "winner",
        "winner": "Winner: {player}.",
        "shared_victory": "Shared victory: {players}.",
        "tie": "Tie on {score} Influence between {players}: the most cards controlled in the"
        " Queue wins (R-END-1).",
        # replays
        "replay_banner": "Replay: {players} players, {cards} cards, {variant}, seed {seed},"
        " {actions} actions; viewed by {viewer}.",
        "a_spectator": "a spectator",
        "no_history": "This record has no history: here is its position.",
        "next_or_quit": "Enter: next action, q: quit > ",
        "quit_words": "q quit",
        "position_differs": "Warning: the saved position differs from its replayed history.",
    },
    "fr": {
        "banner": "Oriflamme : {players} joueurs, cartes {cards}, {variant}, édition {edition},"
        " graine {seed}.",
        "banner_loaded": "Oriflamme : une partie sauvegardée reprise de {file} : {players}"
        " joueurs, cartes {cards}, {variant}, édition {edition}, manche {round}.",
        "seat_human": "  place {seat}, {player} : humain",
        "seat_bot": "  place {seat}, {player} : robot {bot}",
        "type_help": "Tapez « aide » pour les commandes.",
        "cards_base": "de base",
        "cards_embrasement": "d'Embrasement",
        "cards_mixed": "choisies",
        "variant_standard": "règles standard",
        "variant_two-families": "deux familles chacun",
        "edition_revised": "révisée",
        "edition_first": "originale",
        "round": "Manche {n} sur {rounds}",
        "phase_placement": "placement",
        "phase_resolution": "résolution",
        "first_player": "premier joueur : {player}",
        "queue_empty": "La File est vide.",
        "face_up": "face visible",
        "face_down": "face cachée",
        "tokens_one": "1 jeton",
        "tokens_many": "{n} jetons",
        "corrupted": "corrompue : ",
        "below": " dessous : ",
        "up": " (visible)",
        "col_player": "Joueur",
        "col_influence": "Influence",
        "col_hand": "Main",
        "col_set_aside": "De côté",
        "you": "vous",
        "to_decide": "doit décider",
        "zone_hand": "Main",
        "zone_set_aside": "De côté",
        "zone_discarded": "Défaussées",
        "zone_eliminated": "Éliminées",
        "none": "aucune",
        "pass_to": "Passez la main à {player}, puis appuyez sur Entrée.",
        "only_option": "Une seule possibilité pour {player} : {label} (appliquée d'office).",
        "earlier_events": "… {n} événements plus anciens (tapez « journal » pour les voir)",
        "nothing_yet": "(rien ne s'est encore passé)",
        "thinking": "{player} ({bot}) réfléchit…",
        "help": "Répondez par le numéro d'une possibilité ou sa notation (par ex. « reveal 12 »,"
        " « place 3 end »).\nCommandes :\n"
        "  aide CARTE     le texte d'une carte, par ex. « aide soldat » ou « aide décret"
        " royal »\n"
        "  plateau        montrer à nouveau la table et les possibilités\n"
        "  journal        tout le journal de la partie tel que vous pouvez le voir\n"
        "  sauver FICHIER sauvegarder la partie (JSON ; « oriflamme play --load FICHIER » la"
        " reprend, « oriflamme replay FICHIER » la rejoue)\n"
        "  quitter        quitter la partie (vous pouvez d'abord la sauvegarder)\n"
        "Les noms anglais des commandes (help, board, log, save, quit) marchent aussi.",
        "no_option": "Il n'y a pas de possibilité {n} : choisissez de 1 à {count}.",
        "not_understood": "Pas compris : {line!r}. Tapez un numéro de possibilité (1 à"
        " {count}), une action comme « reveal 12 », ou « aide ».",
        "not_legal": "« {action} » n'est pas possible maintenant ; tapez « plateau » pour voir"
        " les possibilités.",
        "no_card": "Aucune carte ne s'appelle {name!r} ; essayez par ex. « aide soldat ».",
        "save_where": "Dites où sauvegarder : sauver FICHIER",
        "saved": "Sauvegardée dans {path}.",
        "cannot_save": "Impossible de sauvegarder dans {path} : {reason}",
        "overwrite": "{path} existe. L'écraser ? (oui/non) ",
        "not_overwritten": "Pas de sauvegarde : {path} est conservé.",
        "yes": "oui",
        "y": "o",
        "offer_save": "Sauvegarder la partie d'abord ? Un nom de fichier, ou Entrée pour partir"
        " sans sauvegarder : ",
        "abandoned": "Partie abandonnée.",
        "interrupted": "Interrompue.",
        "input_ended": "L'entrée s'est terminée avant la partie.",
        "offer_save_end": "Sauvegarder la partie terminée ? Un nom de fichier, ou Entrée pour"
        " finir : ",
        "game_over": "La partie est finie",
        "final_scores": "Scores finaux",
        "col_queue_cards": "Cartes dans la File",
        "winner_mark": "gagnant",
        "winner": "Gagnant : {player}.",
        "shared_victory": "Victoire partagée : {players}.",
        "tie": "Égalité à {score} d'Influence entre {players} : le plus de cartes contrôlées"
        " dans la File l'emporte (R-END-1).",
        "replay_banner": "Rejeu : {players} joueurs, cartes {cards}, {variant}, graine {seed},"
        " {actions} actions ; vu par {viewer}.",
        "a_spectator": "un spectateur",
        "no_history": "Cet enregistrement n'a pas d'historique : voici sa position.",
        "next_or_quit": "Entrée : action suivante, q : quitter > ",
        "quit_words": "q quitter quit",
        "position_differs": "Attention : la position sauvegardée diffère de son historique"
        " rejoué.",
    },
}


class TerminalTexts:
    """The terminal's texts in one language."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in LANGS:
            raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}")
        self.lang = lang
        self._table = TEXTS[lang]

    def __call__(self, key: str, **values: Any) -> str:
        return self._table[key].format(**values)

    def command(self, word: str) -> str | None:
        """The command a typed word names (in this language, or in English), or None."""
        word = word.lower()
        for name, names in COMMANDS.items():
            if word in names[self.lang] or word in names["en"]:
                return name
        return None

    def setup(self, config: Any) -> dict[str, str]:
        """The words of a configuration for the banners: cards, variant, edition."""
        return {
            "cards": self(f"cards_{config.card_set_name()}"),
            "variant": self(f"variant_{config.variant}"),
            "edition": self(f"edition_{config.edition}"),
        }

    def yes(self, answer: str) -> bool:
        """Whether an answer says yes (in this language, or in English)."""
        word = answer.strip().lower()
        return word in {self("yes"), self("y"), "yes", "y"}
