"""The learned network: action values and win shares from a canonical observation, in NumPy.

A multilayer perceptron over :class:`~oriflamme.bots.features.Features` (the observation
vector, card blocks in canonical slots): ReLU hidden layers, then two heads:

* ``q``: one value per canonical action index, the deciding player's expected share of victory
  after taking that action (trained by deep Monte-Carlo on self-play returns, DouZero's way);
* ``v``: one logit per relative player, whose softmax is every player's expected share of
  victory in the position (trained on the same games' outcomes).

Inference is plain NumPy in float32, one vector at a time for a bot's decision (the same
arithmetic on the pure and the compiled build: NumPy is the same library in both), or batched
for training.

Weights files are NumPy ``.npz`` archives (no pickles): the arrays ``w0, b0, w1, b1, ..., q_w,
q_b, v_w, v_b`` and ``meta``, a JSON text with the format name, its version and the set-up the
network was trained for. :meth:`Network.load` checks all of it (format, version, set-up, every
shape, finite values) and raises :class:`WeightsError` with one clear sentence otherwise. Next
to a shipped file, a JSON *sidecar* (``NAME.json``) records how it was made: the command, seed,
budget, commit and the file's SHA-256.

>>> import numpy as np
>>> from oriflamme.api import new_game
>>> game = new_game(players=3, seed=1)
>>> net = Network.initial(game.config, hidden=(16,), rng=np.random.default_rng(0))
>>> x, slots = net.features.observation(game.observe(0))
>>> q, shares = net.evaluate(x)
>>> q.shape, shares.shape, round(float(shares.sum()), 4)
((420,), (3,), 1.0)
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from oriflamme.api import Action, GameConfig
from oriflamme.search import State

from .features import Features, Indices, Vector
from .shipped import setup_key

Matrix = npt.NDArray[np.float32]

#: The name and version of the weights format (:meth:`Network.load` refuses others).
FORMAT = "oriflamme-network"
VERSION = 1


#: The description key, and its value, of a network whose ``q`` head is a policy.
ACTIONS_KEY = "actions"
POLICY = "policy"


class WeightsError(ValueError):
    """A weights file that cannot be used: missing, corrupt, of another format or version,
    for another set-up, or with arrays of the wrong shape."""


def _setup(config: GameConfig) -> dict[str, Any]:
    """What of a configuration a network depends on (the encoding's sizes and meaning)."""
    data = config.to_dict()
    return {"players": data["players"], "cards": data["cards"], "variant": data["variant"]}


class Network:
    """The weights of one network and its set-up's :class:`Features`."""

    def __init__(self, config: GameConfig, arrays: Mapping[str, npt.ArrayLike],
                 info: Mapping[str, Any] | None = None) -> None:
        self.config = config
        self.features = Features.of(config)
        self.info: dict[str, Any] = dict(info or {})
        layers = sum(1 for name in arrays if name.startswith("w"))
        names = [*(f"{k}{i}" for i in range(layers) for k in ("w", "b")),
                 "q_w", "q_b", "v_w", "v_b"]
        missing = [name for name in names if name not in arrays]
        if missing or layers == 0:
            raise WeightsError(f"arrays missing: {', '.join(missing) or 'w0'}")
        weights = {name: np.asarray(arrays[name], dtype=np.float32) for name in names}
        width = self.features.size
        expected: dict[str, tuple[int, ...]] = {}
        for i in range(layers):
            out = weights[f"b{i}"].shape[0] if weights[f"b{i}"].ndim == 1 else -1
            expected[f"w{i}"], expected[f"b{i}"] = (out, width), (out,)
            width = out
        expected.update(q_w=(self.features.actions, width), q_b=(self.features.actions,),
                        v_w=(self.features.players, width), v_b=(self.features.players,))
        for name in names:
            if weights[name].shape != expected[name]:
                raise WeightsError(
                    f"array {name} has shape {weights[name].shape}, expected {expected[name]}"
                    f" for {setup_key(config)}")
            if not np.isfinite(weights[name]).all():
                raise WeightsError(f"array {name} holds values that are not finite numbers")
        self.hidden = tuple(weights[f"b{i}"].shape[0] for i in range(layers))
        self._trunk = [(weights[f"w{i}"], weights[f"b{i}"]) for i in range(layers)]
        self._q = (weights["q_w"], weights["q_b"])
        self._v = (weights["v_w"], weights["v_b"])
        self._first_rows: Matrix | None = None  # :meth:`value_logits`'s copy of ``w0``, by input

    @property
    def is_policy(self) -> bool:
        """Whether the ``q`` head is a policy's logits (a network trained to imitate a searching
        teacher, :mod:`oriflamme.training.imitation`) rather than action values."""
        return self.info.get(ACTIONS_KEY) == POLICY

    def copy(self) -> Network:
        """A network with copies of these weights (training changes its own in place)."""
        return Network(self.config, {k: v.copy() for k, v in self.arrays().items()}, self.info)

    # -- building, saving, loading ---------------------------------------------------------
    @classmethod
    def initial(cls, config: GameConfig, hidden: Sequence[int],
                rng: np.random.Generator) -> Network:
        """Random weights (He initialisation; the heads start small: values near 0 and equal
        win shares)."""
        features = Features.of(config)
        arrays: dict[str, npt.NDArray[np.float32]] = {}
        width = features.size
        for i, out in enumerate(hidden):
            arrays[f"w{i}"] = (rng.standard_normal((out, width)) * math.sqrt(2.0 / width)
                               ).astype(np.float32)
            arrays[f"b{i}"] = np.zeros(out, np.float32)
            width = out
        arrays["q_w"] = (rng.standard_normal((features.actions, width)) * 0.01
                         ).astype(np.float32)
        arrays["q_b"] = np.zeros(features.actions, np.float32)
        arrays["v_w"] = (rng.standard_normal((features.players, width)) * 0.01
                         ).astype(np.float32)
        arrays["v_b"] = np.zeros(features.players, np.float32)
        return cls(config, arrays)

    def arrays(self) -> dict[str, Matrix]:
        """The weights by name (the arrays themselves: training updates them in place)."""
        out: dict[str, Matrix] = {}
        for i, (w, b) in enumerate(self._trunk):
            out[f"w{i}"], out[f"b{i}"] = w, b
        out["q_w"], out["q_b"] = self._q
        out["v_w"], out["v_b"] = self._v
        return out

    def meta(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "setup": _setup(self.config),
                "hidden": list(self.hidden), **self.info}

    def to_bytes(self, half: bool = False) -> bytes:
        """The ``.npz`` file's content (``half``: weights stored as float16, half the size;
        they are read back as float32)."""
        dtype = np.float16 if half else np.float32
        buffer = io.BytesIO()
        arrays = {name: a.astype(dtype) for name, a in self.arrays().items()}
        np.savez_compressed(buffer, meta=np.array(json.dumps(self.meta(), sort_keys=True)),
                            **arrays)  # type: ignore[arg-type]
        return buffer.getvalue()

    def save(self, path: str | Path, half: bool = False) -> None:
        Path(path).write_bytes(self.to_bytes(half))

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "weights") -> Network:
        """Read a weights file's content; :class:`WeightsError` names what is wrong."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as archive:
                arrays = {key: archive[key] for key in archive.files}
        except (OSError, ValueError, EOFError, KeyError) as exc:
            raise WeightsError(f"{name} is not a NumPy .npz archive of weights ({exc})") from None
        except Exception as exc:  # zipfile and zlib raise their own types on corrupt data
            raise WeightsError(f"{name} is corrupt ({type(exc).__name__}: {exc})") from None
        if "meta" not in arrays:
            raise WeightsError(f"{name} has no 'meta' record: not an oriflamme network")
        try:
            meta = json.loads(str(arrays.pop("meta")))
        except ValueError:
            raise WeightsError(f"{name}: its 'meta' record is not JSON") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise WeightsError(f"{name} is not an oriflamme network (format"
                               f" {meta.get('format') if isinstance(meta, dict) else None!r})")
        if meta.get("version") != VERSION:
            raise WeightsError(f"{name} is version {meta.get('version')!r} of the weights format;"
                               f" this oriflamme reads version {VERSION}")
        setup = meta.get("setup")
        try:
            assert isinstance(setup, dict)
            config = GameConfig.from_dict(setup)
        except Exception:
            raise WeightsError(f"{name}: its set-up {setup!r} is not a game set-up") from None
        info = {k: v for k, v in meta.items() if k not in ("format", "version", "setup",
                                                              "hidden")}
        try:
            return cls(config, arrays, info)
        except WeightsError as exc:
            raise WeightsError(f"{name}: {exc}") from None

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """Read a weights file (see the module docstring); :class:`WeightsError` if unusable."""
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise WeightsError(f"cannot read {path}: {exc.strerror or exc}") from None
        return cls.from_bytes(data, str(path))

    def check_setup(self, config: GameConfig | Mapping[str, Any]) -> None:
        """Raise :class:`WeightsError` unless this network plays ``config``'s set-up."""
        key = setup_key(config)
        if key != setup_key(self.config):
            raise WeightsError(f"this network plays {setup_key(self.config)}, not {key}")

    # -- inference --------------------------------------------------------------------------
    def _hidden(self, x: Vector) -> Matrix:
        h: Matrix = x
        for w, b in self._trunk:
            h = h @ w.T + b
            np.maximum(h, 0.0, out=h)
        return h

    def evaluate(self, x: Vector) -> tuple[Vector, Vector]:
        """The action values and the win shares (by relative player) of one canonical
        vector."""
        h = self._hidden(x)
        w, b = self._q
        q: Vector = h @ w.T + b
        return q, _softmax(self._value_logits(h))

    def q_values(self, x: Vector) -> Vector:
        """The ``q`` head's outputs of one canonical vector, or of a batch of them (rows)."""
        h = self._hidden(x)
        w, b = self._q
        q: Vector = h @ w.T + b
        return q

    def win_shares(self, x: Vector) -> Vector:
        """Every relative player's expected share of victory (sums to 1); for a batch of
        vectors (rows), one row of shares each."""
        return _softmax(self._value_logits(self._hidden(x)))

    def value_logits(self, x: Vector) -> list[float]:
        """The win shares' logits of one canonical vector (:meth:`win_shares` is their
        softmax): the search's hot path, asked at the end of every rollout.

        An observation vector is mostly zeros (about 75 of the 996 inputs with 3 players), so
        the first layer adds the rows of the non-zero inputs only, from a copy of its weights
        stored by input (made on the first call: call this on a network whose weights no
        longer change, as the bots' networks, not on one being trained). The other layers
        multiply one vector each: OpenBLAS multiplies a single vector several times faster
        than a matrix of a few rows here. The result equals the dense product's to float32
        rounding (a test checks it).
        """
        inputs = np.flatnonzero(x)
        return self.sparse_value_logits(inputs, x[inputs])

    def sparse_value_logits(self, inputs: Indices, values: Vector) -> list[float]:
        """:meth:`value_logits` of the vector whose non-zero entries are ``values`` at
        ``inputs`` (``Features.state_sparse``), without building the vector."""
        h = self._sparse_hidden(inputs, values)
        w, b = self._v
        logits: list[float] = (w @ h + b).tolist()
        return logits

    def _sparse_hidden(self, inputs: Indices, values: Vector) -> Matrix:
        """The last hidden layer of the vector whose non-zero entries are ``values`` at
        ``inputs``."""
        rows = self._first_rows
        if rows is None:
            rows = self._first_rows = np.ascontiguousarray(self._trunk[0][0].T)
        h: Matrix = values @ rows.take(inputs, axis=0)
        h += self._trunk[0][1]
        np.maximum(h, 0.0, out=h)
        for w, b in self._trunk[1:]:
            h = w @ h
            h += b
            np.maximum(h, 0.0, out=h)
        return h

    def action_logits_in(self, state: State, player: int, legal: Sequence[Action]) -> Vector:
        """The ``q`` outputs of ``legal`` from ``player``'s view of world ``state`` (a policy
        network's logits), by the sparse path: the search's model of an opponent
        (``guided:opponents=policy``)."""
        features = self.features
        inputs, values, slots = features.state_sparse_slots(state, player)
        indices = features.action_indices(legal, player, slots)
        h = self._sparse_hidden(inputs, values)
        w, b = self._q
        logits: Vector = w.take(indices, axis=0) @ h + b.take(indices)
        return logits

    def best_action_in(self, state: State, player: int, legal: Sequence[Action]) -> Action:
        """The legal action of highest :meth:`action_logits_in` (a policy's most likely)."""
        return legal[int(np.argmax(self.action_logits_in(state, player, legal)))]

    def own_share_in(self, state: State, player: int) -> float:
        """``player``'s own expected share of victory in world ``state``, from its view:
        :meth:`own_share` of ``features.state(state, player)``, by the sparse path."""
        return _own(self.sparse_value_logits(*self.features.state_sparse(state, player)))

    def shares_in(self, state: State, player: int) -> list[float]:
        """:meth:`shares` of ``player``'s view of world ``state`` (relative players), by the
        sparse path."""
        return _shares(self.sparse_value_logits(*self.features.state_sparse(state, player)))

    def own_share(self, x: Vector) -> float:
        """The viewer's own expected share of victory, ``win_shares(x)[0]``, from
        :meth:`value_logits`."""
        return _own(self.value_logits(x))

    def shares(self, x: Vector) -> list[float]:
        """:meth:`win_shares` of one vector, from :meth:`value_logits`, as a list."""
        return _shares(self.value_logits(x))

    def _value_logits(self, h: Matrix) -> Vector:
        w, b = self._v
        logits: Vector = h @ w.T + b
        return logits


def _own(logits: list[float]) -> float:
    """The first player's share of the softmax of ``logits``."""
    own = logits[0]
    return 1.0 / sum(math.exp(logit - own) for logit in logits)


def _shares(logits: list[float]) -> list[float]:
    """The softmax of ``logits``, as a list."""
    top = max(logits)
    z = [math.exp(logit - top) for logit in logits]
    total = sum(z)
    return [share / total for share in z]


def _softmax(logits: Vector) -> Vector:
    z = np.exp(logits - logits.max(axis=-1, keepdims=True))
    out: Vector = z / z.sum(axis=-1, keepdims=True)
    return out


def sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@lru_cache(maxsize=16)
def load_cached(path: str, mtime_ns: int = 0, size: int = 0) -> Network:
    """:meth:`Network.load`, once per file version (its time and size) per process: the bots
    of a tournament share it, and a file rewritten by training is read again."""
    return Network.load(path)
