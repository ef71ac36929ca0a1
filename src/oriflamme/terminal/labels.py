"""Texts for the terminal in one language, from the label methods of the public API."""

from __future__ import annotations

from oriflamme.api import Action, CardType, Game, card_name, family_colour_name

from .texts import TerminalTexts


class GameLabels:
    """Labels of one game in one language; ``viewer`` is a player, or None for the public.

    Every text names a card only when that viewer may know it (R-INFO-1).
    """

    def __init__(self, game: Game, lang: str = "en") -> None:
        self.game = game
        self.lang = lang
        #: The terminal's own texts in this language (the board's words, the help, errors).
        self.say = TerminalTexts(lang)

    def colour(self, family: int) -> str:
        return family_colour_name(family, self.lang).capitalize()

    def type_name(self, card_type: CardType) -> str:
        return card_name(card_type, self.lang)

    def player(self, player: int) -> str:
        return self.game.player_label(player, self.lang)

    def card(self, card: int, viewer: int | None) -> str:
        return self.game.card_label(card, viewer, self.lang)

    def action(self, action: Action, viewer: int | None) -> str:
        return self.game.label(action, self.lang, viewer)

    def prompt(self, viewer: int | None) -> str:
        return self.game.prompt(self.lang, viewer)

    def log_lines(self, viewer: int | None, start: int = 0) -> list[str]:
        return self.game.log_lines(viewer, self.lang, start)
