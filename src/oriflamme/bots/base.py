"""The bot interface and the registry that builds bots from a text spec.

A bot sees only its own player's observation (``game.observe(player)``) and the legal actions;
:mod:`oriflamme.bots.runner` is what hands them over, so a bot never holds the game itself.
Building an observation costs about as much as a dozen engine steps, so a bot that decides
without one (the random bot) declares ``needs_observation = False`` and is handed
:data:`NO_OBSERVATION` instead (see :func:`needs_observation`). A bot that also chooses by
position alone (the random bot again) may offer ``pick(n) -> int``: the runner then hands it
only the number of legal actions (:func:`picks_by_position`).

A *spec* names a registered bot, optionally with options: ``"random"``, ``"ismcts:iterations=500"``
or ``"name:key=value:key=value"``. A bare number sets the bot's first option: ``"ismcts:500"``.

>>> bot = make_bot("random", seed=1)
>>> bot.name
'random'
>>> make_bot("nobody", seed=1)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
oriflamme.bots.base.BotSpecError: unknown bot 'nobody'; known bots: ...random...
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

from oriflamme.api import Action, Observation


@runtime_checkable
class Bot(Protocol):
    """A player program: picks one of the legal actions from what its player may know."""

    name: str

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """Return one of ``legal`` (never empty) given the player's ``observation``."""
        ...


#: What a bot that declares ``needs_observation = False`` is given as its observation: an
#: empty read-only mapping (typed as an observation: such a bot never reads it).
NO_OBSERVATION: Observation = cast("Observation", MappingProxyType({}))


def observer(observation: Observation) -> int:
    """The player whose observation this is; ``ValueError`` for the public view (a bot plays
    from its own player's observation).

    >>> from oriflamme.api import new_game
    >>> observer(new_game(players=3, seed=1).observe(2))
    2
    >>> observer(new_game(players=3, seed=1).observe(None))
    Traceback (most recent call last):
    ...
    ValueError: a bot plays from its own player's observation, not the public view
    """
    viewer = observation["viewer"]
    if viewer is None:
        raise ValueError("a bot plays from its own player's observation, not the public view")
    return viewer


def needs_observation(bot: object) -> bool:
    """Whether ``bot`` reads its observation: true unless the bot (or its class) sets
    ``needs_observation = False``; bots that say nothing get their full observation."""
    return bool(getattr(bot, "needs_observation", True))


#: The options of a choice (a string, or a ``Literal`` type of strings).
Choice = TypeVar("Choice", bound=str)

#: ``pick(n)``: the index, from 0 to ``n - 1``, of the legal action chosen among ``n``.
Pick = Callable[[int], int]


def picks_by_position(bot: object) -> Pick | None:
    """The bot's ``pick`` method if it chooses by position alone: it declares
    ``needs_observation = False`` and has ``pick(n) -> int``, which must return the index
    its ``act`` would choose in a list of ``n`` legal actions. The runner then asks
    ``pick`` and builds neither the observation nor the list (see ``Game.pick_action``).

    >>> picks_by_position(make_bot("random", seed=1)) is not None
    True
    >>> picks_by_position(make_bot("greedy", seed=1)) is None
    True
    """
    pick = getattr(bot, "pick", None)
    return pick if callable(pick) and not needs_observation(bot) else None


def check_bot_setup(bot: object, config: Any) -> None:
    """Let ``bot`` refuse a game set-up before play (:class:`BotSpecError`): a bot that plays
    only some set-ups (a trained network) offers ``check_setup(config)``; others accept all.
    The commands call it once a game's configuration is known, so that such a bot is a refused
    spec at the start, never an error in the middle of a game."""
    check = getattr(bot, "check_setup", None)
    if callable(check):
        check(config)


class BotFactory(Protocol):
    """Builds a bot from a seed and the options of its spec (strings, already checked)."""

    def __call__(self, seed: int, options: Mapping[str, str]) -> Bot: ...


class BotSpecError(ValueError):
    """A bot spec that names no registered bot or gives it options it does not take."""


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A registered bot: its name, how to build it, a one-line description, its options."""

    name: str
    factory: BotFactory
    description: str
    options: tuple[str, ...] = ()


_REGISTRY: dict[str, BotEntry] = {}


def register_bot(
    name: str, factory: BotFactory, description: str, options: Sequence[str] = ()
) -> None:
    """Make ``name`` available to :func:`make_bot` (and to the command line's ``--bots``)."""
    key = name.strip().lower()
    if not key or any(ch in key for ch in ":=, "):
        raise ValueError(f"invalid bot name {name!r}")
    if key in _REGISTRY:
        raise ValueError(f"a bot named {key!r} is already registered")
    _REGISTRY[key] = BotEntry(key, factory, description, tuple(options))


def unregister_bot(name: str) -> None:
    """Forget a bot registered with :func:`register_bot` (tests and plugins that clean up)."""
    _REGISTRY.pop(name.strip().lower(), None)


def known_bots() -> dict[str, BotEntry]:
    """The registered bots by name, sorted by name."""
    return dict(sorted(_REGISTRY.items()))


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:key=value:..."`` into the name and its options (no check of the name)."""
    name, *parts = spec.strip().split(":")
    options: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep and key.replace(".", "", 1).isdigit():
            key, value = "", key  # a bare number: the bot's first option (see make_bot)
        elif not sep or not key:
            raise BotSpecError(f"bad option {part!r} in bot spec {spec!r}: expected key=value")
        if key in options:
            raise BotSpecError(f"option {key!r} given twice in bot spec {spec!r}")
        options[key] = value.strip()
    return name.strip().lower(), options


#: Specs already read, with the registry entry they were checked against: tournaments and
#: simulations make the same few bots for every game.
_READ_SPECS: dict[str, tuple[BotEntry, dict[str, str]]] = {}


def make_bot(spec: str, seed: int) -> Bot:
    """Build the bot a spec names; raises :class:`BotSpecError` listing what is known."""
    read = _READ_SPECS.get(spec)
    if read is not None and _REGISTRY.get(read[0].name) is read[0]:
        return read[0].factory(seed, dict(read[1]))
    entry, options = _read_spec(spec)
    if len(_READ_SPECS) < 256:
        _READ_SPECS[spec] = (entry, dict(options))
    return entry.factory(seed, options)


def bot_maker(spec: str) -> Callable[[int], Bot]:
    """``make_bot(spec, seed)`` as a function of the seed, the spec read and checked once
    (simulations make a bot per seat per game); raises :class:`BotSpecError` at once.

    >>> make = bot_maker("random")
    >>> make(5).pick(10) == make_bot("random", 5).pick(10)
    True
    """
    entry, options = _read_spec(spec)
    factory = entry.factory
    # Each bot gets its own copy of the options, as from make_bot: a factory may keep them.
    return lambda seed: factory(seed, dict(options))


def _read_spec(spec: str) -> tuple[BotEntry, dict[str, str]]:
    """The registry entry and the options of a spec, checked."""
    name, options = parse_spec(spec)
    entry = _REGISTRY.get(name)
    if entry is None:
        known = ", ".join(known_bots()) or "none"
        raise BotSpecError(f"unknown bot {name!r}; known bots: {known}")
    if "" in options:
        if not entry.options:
            raise BotSpecError(f"bot {name!r} takes no options, not {options['']!r}")
        if entry.options[0] in options:
            raise BotSpecError(f"option {entry.options[0]!r} given twice in bot spec {spec!r}")
        options[entry.options[0]] = options.pop("")
    unknown = sorted(set(options) - set(entry.options))
    if unknown:
        allowed = ", ".join(entry.options) or "no options"
        raise BotSpecError(
            f"bot {name!r} does not take option(s) {', '.join(unknown)} (it takes {allowed})"
        )
    return entry, options


# -- parsing the options of a spec, with clear errors ----------------------------------------
ON_OFF = ("on", "off")


def whole_option(key: str, text: str, least: int | None = None) -> int:
    """The whole number of option ``key`` (at least ``least``), or a clear BotSpecError."""
    try:
        value = int(text)
    except ValueError:
        raise BotSpecError(f"option {key}={text!r}: expected a whole number") from None
    if least is not None and value < least:
        raise BotSpecError(f"option {key}={text!r}: must be at least {least}")
    return value


def number_option(key: str, text: str, positive: bool) -> float:
    """The finite non-negative (or ``positive``) number of option ``key``."""
    try:
        value = float(text)
    except ValueError:
        raise BotSpecError(f"option {key}={text!r}: expected a number") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        kind = "positive" if positive else "non-negative"
        raise BotSpecError(f"option {key}={text!r}: must be a {kind} number")
    return value


def choice_option(key: str, text: str, allowed: Sequence[Choice]) -> Choice:
    """The value of option ``key``, one of ``allowed`` (case-insensitive)."""
    value = text.strip().lower()
    if value not in allowed:
        raise BotSpecError(f"option {key}={text!r}: choose from {', '.join(allowed)}")
    return allowed[allowed.index(value)]  # typed as one of ``allowed`` (a Literal type)


def budget_options(options: Mapping[str, str], default: int) -> tuple[int | None, float | None]:
    """The search budget of a spec: ``iterations`` (at least 1) and ``time`` (seconds per
    decision); ``default`` iterations when neither is given."""
    iterations = (
        whole_option("iterations", options["iterations"], 1) if "iterations" in options else None
    )
    seconds = number_option("time", options["time"], positive=True) if "time" in options else None
    if iterations is None and seconds is None:
        iterations = default
    return iterations, seconds


def check_budget(iterations: int | None, seconds: float | None) -> None:
    """Raise ValueError unless the budget of a search bot is usable: ``iterations`` (at least
    1), ``seconds`` per decision (positive), or both."""
    if iterations is None and seconds is None:
        raise ValueError("the search needs a budget: iterations, seconds or both")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"the time per decision must be positive, not {seconds}")
