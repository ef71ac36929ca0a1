"""Game configuration: players, card set, variant, edition, first player.

A configuration is frozen and validated on creation; with a seed and a list of actions it
determines a game completely.

>>> cfg = GameConfig(players=4, cards="embrasement")
>>> cfg.families, cfg.has_twin
(4, True)
>>> GameConfig(players=2).variant
'two-families'
>>> GameConfig(players=6)
Traceback (most recent call last):
...
oriflamme.rules.config.ConfigError: players must be 2 to 5, not 6
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypedDict

from .cards import BASE_SET, CHOOSABLE, EMBRASEMENT_SET, CardType

VARIANTS: Final = ("standard", "two-families")
EDITIONS: Final = ("revised", "first")
MAX_FAMILIES: Final = 5


class ConfigError(ValueError):
    """A configuration that is not a legal game set-up."""


def parse_cards(cards: str | Iterable[CardType | str]) -> tuple[CardType, ...]:
    """Turn ``"base"``, ``"embrasement"``, a comma list or a sequence into 10 card types."""
    if isinstance(cards, str):
        key = cards.strip().lower()
        if key == "base":
            return BASE_SET
        if key in ("embrasement", "ablaze"):
            return EMBRASEMENT_SET
        items: list[CardType | str] = [p for p in key.split(",") if p.strip()]
    else:
        items = list(cards)
    out: list[CardType] = []
    for item in items:
        try:
            t = item if isinstance(item, CardType) else CardType.from_name(str(item))
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        if t is CardType.TWIN:
            raise ConfigError("the Twin is not chosen: it comes with the Prince (R-SET-1)")
        if t in out:
            raise ConfigError(f"card type {t.slug} is listed twice (R-SET-1)")
        out.append(t)
    if len(out) != 10:
        raise ConfigError(f"a family is 10 distinct card types (R-SET-1), got {len(out)}")
    return tuple(out)


class ConfigDict(TypedDict):
    """A configuration's JSON form (:meth:`GameConfig.to_dict`): ``cards`` is a set's name or
    the card-type slugs."""

    players: int
    cards: str | list[str]
    variant: str
    edition: str
    first_player: int | None


@dataclass(frozen=True, slots=True)
class GameConfig:
    """A game set-up (R-SETUP-1, R-SET-1, R-EDITION-1, R-2P-1..3).

    ``variant`` is ``"two-families"`` (the official 2-player variant, R-2P-1) or
    ``"standard"`` (one family per player; with 2 players this is R-2P-3). Left as ``None`` it
    becomes ``"two-families"`` for 2 players and ``"standard"`` otherwise. ``first_player``
    ``None`` means drawn at random from the seed.
    """

    players: int = 3
    cards: tuple[CardType, ...] | str = BASE_SET
    variant: str | None = None
    edition: str = "revised"
    first_player: int | None = 0
    #: Placements in a round (derived; kept as a field because the engine reads it often).
    placements: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards, variant = _checked(self.players, self.cards, self.variant, self.edition,
                                  self.first_player)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "placements", self.players * self.placements_per_round)

    @property
    def card_types(self) -> tuple[CardType, ...]:
        assert isinstance(self.cards, tuple)
        return self.cards

    @property
    def two_families(self) -> bool:
        return self.variant == "two-families"

    @property
    def families(self) -> int:
        return 2 * self.players if self.two_families else self.players

    @property
    def has_twin(self) -> bool:
        return CardType.PRINCE in self.card_types

    @property
    def family_size(self) -> int:
        """Cards per family, the Twin included."""
        return 11 if self.has_twin else 10

    @property
    def placements_per_round(self) -> int:
        return 2 if self.two_families else 1

    def family_player(self, family: int) -> int:
        """The player who plays ``family`` (player p plays p, and p+2 in the 2-player variant)."""
        return family % self.players

    def player_families(self, player: int) -> tuple[int, ...]:
        return (player, player + 2) if self.two_families else (player,)

    def card_set_name(self) -> str:
        if self.card_types == BASE_SET:
            return "base"
        if self.card_types == EMBRASEMENT_SET:
            return "embrasement"
        return "mixed"

    def to_dict(self) -> ConfigDict:
        name = self.card_set_name()
        cards: str | list[str] = name if name != "mixed" else [t.slug for t in self.card_types]
        variant = self.variant
        assert variant is not None  # set by __post_init__
        return {
            "players": self.players,
            "cards": cards,
            "variant": variant,
            "edition": self.edition,
            "first_player": self.first_player,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its JSON form: the compiled build cannot set a frozen instance's fields
        # one by one, as unpickling field by field does (process pools pass configurations).
        return (_config_from_dict, (self.to_dict(),))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameConfig:
        if not isinstance(data, Mapping):
            raise ConfigError("configuration must be a JSON object")
        unknown = set(data) - {"players", "cards", "variant", "edition", "first_player"}
        if unknown:
            raise ConfigError(f"unknown configuration field(s): {', '.join(sorted(unknown))}")
        cards = data.get("cards", "base")
        if not isinstance(cards, str | list):
            raise ConfigError("cards must be 'base', 'embrasement' or a list of 10 card names")
        parsed = parse_cards(cards if isinstance(cards, str) else [str(c) for c in cards])
        players, variant = data.get("players", 3), data.get("variant")
        edition, first_player = data.get("edition", "revised"), data.get("first_player", 0)
        # JSON holds values of any type: checked before they reach the typed constructor,
        # which in the compiled build would raise TypeError instead of ConfigError.
        _checked(players, parsed, variant, edition, first_player)
        return cls(players=players, cards=parsed, variant=variant, edition=edition,
                   first_player=first_player)


def _config_from_dict(data: dict[str, Any]) -> GameConfig:
    return GameConfig.from_dict(data)


def _checked(
    players: object,
    cards: tuple[CardType, ...] | str,
    variant: object,
    edition: object,
    first_player: object,
) -> tuple[tuple[CardType, ...], str]:
    """Check the fields of a configuration (R-SETUP-1, R-2P-1): the card types and the variant
    they stand for, or :class:`ConfigError` naming the first bad field."""
    if not isinstance(players, int) or not 2 <= players <= 5:
        raise ConfigError(f"players must be 2 to 5, not {players!r}")
    parsed = parse_cards(cards)
    if variant is None:
        variant = "two-families" if players == 2 else "standard"
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ConfigError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    if variant == "two-families" and players != 2:
        raise ConfigError("the two-families variant is for 2 players (R-2P-1)")
    if not isinstance(edition, str) or edition not in EDITIONS:
        raise ConfigError(f"edition must be one of {', '.join(EDITIONS)}, not {edition!r}")
    fp = first_player
    if fp is not None and (not isinstance(fp, int) or not 0 <= fp < players):
        raise ConfigError(f"first_player must be 0 to {players - 1} or None, not {fp}")
    return parsed, variant


__all__ = ["CHOOSABLE", "EDITIONS", "VARIANTS", "ConfigError", "GameConfig", "parse_cards"]
