"""A finite-difference check of the learner's hand-written gradients (tests/training)."""

from __future__ import annotations

import numpy as np
import pytest

from oriflamme.bots.network import Network
from oriflamme.training.learner import Batch, losses_and_gradients


def check_gradients(net: Network, batch: Batch, value_weight: float = 0.7,
                    per_array: int = 3) -> int:
    """Compare ``per_array`` random non-zero entries of each array's gradient with central
    differences of the loss (the forward pass runs in float64 on float64 inputs, so the
    differences stay exact); return how many were checked."""
    _, grads = losses_and_gradients(net, batch, value_weight)
    rng = np.random.default_rng(1)
    checked = 0
    for name, array in net.arrays().items():
        flat = array.reshape(-1)
        candidates = np.nonzero(grads[name].reshape(-1))[0]
        for index in rng.choice(candidates, size=min(per_array, len(candidates)),
                                replace=False):
            old = flat[index].copy()
            flat[index] = old + np.float32(1e-3)
            high = float(flat[index])
            plus, _ = losses_and_gradients(net, batch, value_weight)
            flat[index] = old - np.float32(1e-3)
            low = float(flat[index])
            minus, _ = losses_and_gradients(net, batch, value_weight)
            flat[index] = old
            numeric = ((plus.q + value_weight * plus.v)
                       - (minus.q + value_weight * minus.v)) / (high - low)
            assert numeric == pytest.approx(float(grads[name].reshape(-1)[index]),
                                            rel=0.01, abs=1e-6), name
            checked += 1
    return checked
