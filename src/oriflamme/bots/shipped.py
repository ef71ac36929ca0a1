"""The networks shipped with the package: where they are, one file per set-up and use.

Each set-up with a network has ``SETUP.npz``, the network the search (``master``) reads; a
set-up may also have ``SETUP.play.npz``, trained for the network alone (``learned``), which
the ``network`` bot plays where it exists (the search's file where it does not).

No NumPy here: the server's advice asks whether a set-up has a network (to choose ``master``
or ``hard``) without loading the network's modules, which it imports only to use one.

>>> setup_key({"players": 3, "cards": "base", "variant": "standard"})
'3p-base'
>>> packaged_path({"players": 5, "cards": "embrasement", "variant": "standard"}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from oriflamme.api import GameConfig

#: Where the shipped weights live (inside the package): ``SETUP.npz`` and its sidecar
#: ``SETUP.json`` for each set-up (:func:`setup_key`), and ``SETUP.play.npz`` with
#: ``SETUP.play.json`` where the network alone has its own.
WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
#: What a shipped network is for: the search's value (``SETUP.npz``), play alone
#: (``SETUP.play.npz``, else the search's), or the search's model of the opponents
#: (``SETUP.policy.npz``: a policy imitating a searching player; no fallback).
USES = ("search", "play", "policy")


def setup_key(config: GameConfig | Mapping[str, Any]) -> str:
    """The set-up a network plays, as a file name: ``3p-base``, ``2p-base-two-families``...

    >>> setup_key(GameConfig(players=2))
    '2p-base-two-families'
    >>> setup_key(GameConfig(players=4, cards="embrasement"))
    '4p-embrasement'
    """
    data = config.to_dict() if isinstance(config, GameConfig) else config
    cards = data["cards"]
    name = cards if isinstance(cards, str) else "+".join(cards)
    key = f"{data['players']}p-{name}"
    if data["players"] == 2 and data["variant"] == "two-families":
        key += "-two-families"
    return key


def packaged_path(config: GameConfig | Mapping[str, Any], use: str = "search") -> Path | None:
    """The shipped weights of a set-up for ``use`` (:data:`USES`), if any: for ``play``, its
    own file where there is one, else the search's; for ``policy``, its own file only."""
    if use not in USES:
        raise ValueError(f"use is one of {', '.join(USES)}, not {use!r}")
    key = setup_key(config)
    if use == "policy":
        own = WEIGHTS_DIR / f"{key}.policy.npz"
        return own if own.is_file() else None
    if use == "play" and (own := WEIGHTS_DIR / f"{key}.play.npz").is_file():
        return own
    path = WEIGHTS_DIR / f"{key}.npz"
    return path if path.is_file() else None


def packaged_setups() -> list[str]:
    """The set-ups with shipped weights (their :func:`setup_key`)."""
    return sorted(p.stem for p in WEIGHTS_DIR.glob("*.npz") if "." not in p.stem)


def packaged_files() -> list[Path]:
    """Every shipped weights file (each set-up's, and the ``.play`` ones)."""
    return sorted(WEIGHTS_DIR.glob("*.npz"))
