"""The networks shipped with the package: where they are, one file per set-up.

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
#: ``SETUP.json`` for each set-up (:func:`setup_key`).
WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"


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


def packaged_path(config: GameConfig | Mapping[str, Any]) -> Path | None:
    """The shipped weights of a set-up, if any."""
    path = WEIGHTS_DIR / f"{setup_key(config)}.npz"
    return path if path.is_file() else None


def packaged_setups() -> list[str]:
    """The set-ups with shipped weights (their :func:`setup_key`)."""
    return sorted(p.stem for p in WEIGHTS_DIR.glob("*.npz"))
