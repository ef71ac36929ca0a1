"""The network's training step: losses, gradients by hand (backpropagation) and Adam.

Two losses on a minibatch of self-play samples:

* the action values, by deep Monte-Carlo: the squared error between ``q[action]`` and the
  return of the player who took it (its share of victory at the end of the game), on the
  samples that carry an action;
* the win shares: the cross-entropy between the value head's softmax and every player's share
  of victory (relative to the sample's player), on every sample, weighted by
  ``value_weight``.

The gradients are written out by hand for the network's shape (ReLU layers, two linear heads),
which keeps training in NumPy: no deep-learning library is needed, on any machine the package
runs on. ``tests/training/test_training.py`` checks them against finite differences.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from oriflamme.bots.network import Matrix, Network

Array = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Batch:
    """A minibatch: inputs (B x size), the action index of each sample (-1: none), its
    player's return, and every relative player's share (B x n)."""

    inputs: Array
    actions: npt.NDArray[np.int32]
    returns: Array
    shares: Array
    #: Imitation (:mod:`.imitation`): the teacher's policy over the action indices (B x A,
    #: summing to 1 over the legal ones) and the legal actions' mask; the ``q`` head is then
    #: trained as the policy's logits (softmax cross-entropy over the legal actions) instead
    #: of action values.
    policy: Array | None = None
    legal: npt.NDArray[np.bool_] | None = None


@dataclass(frozen=True, slots=True)
class Losses:
    q: float  # mean squared error of the action values (imitation: the policy's cross-entropy)
    v: float  # cross-entropy of the win shares

    @property
    def total(self) -> float:
        return self.q + self.v


def losses_and_gradients(
    net: Network, batch: Batch, value_weight: float = 1.0
) -> tuple[Losses, dict[str, Array]]:
    """The losses on ``batch`` and the gradient of ``q + value_weight * v`` by array name."""
    arrays = net.arrays()
    layers = len(net.hidden)
    activations: list[Array] = [batch.inputs]
    h = batch.inputs
    for i in range(layers):
        h = np.maximum(h @ arrays[f"w{i}"].T + arrays[f"b{i}"], 0.0)
        activations.append(h)
    grads: dict[str, Array] = {}
    size = len(batch.actions)

    q_w, q_b = arrays["q_w"], arrays["q_b"]
    if batch.policy is not None and batch.legal is not None:
        q_loss, d_h = _policy_gradients(h, q_w, q_b, batch.policy, batch.legal, grads)
    else:
        q_loss, d_h = _value_gradients(h, q_w, q_b, batch, grads)

    # win shares: softmax cross-entropy on every sample
    v_w, v_b = arrays["v_w"], arrays["v_b"]
    logits = h @ v_w.T + v_b
    logits -= logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    probs = exp / exp.sum(axis=1, keepdims=True)
    log_probs = logits - np.log(exp.sum(axis=1, keepdims=True))
    v_loss = float(-(batch.shares * log_probs).sum() / size)
    d_logits = (value_weight / size) * (probs - batch.shares)
    grads["v_w"] = (d_logits.T @ h).astype(np.float32)
    grads["v_b"] = d_logits.sum(axis=0).astype(np.float32)
    d_h += d_logits @ v_w

    for i in reversed(range(layers)):
        d_h *= activations[i + 1] > 0
        grads[f"w{i}"] = (d_h.T @ activations[i]).astype(np.float32)
        grads[f"b{i}"] = d_h.sum(axis=0).astype(np.float32)
        if i:
            d_h = d_h @ arrays[f"w{i}"]
    return Losses(q_loss, v_loss), grads


def _value_gradients(h: Array, q_w: Array, q_b: Array, batch: Batch,
                     grads: dict[str, Array]) -> tuple[float, Array]:
    """The action values' squared error (only the action taken counts), its gradients into
    ``grads``, and the gradient that flows into the last hidden layer."""
    rows = np.nonzero(batch.actions >= 0)[0]
    taken = batch.actions[rows]
    picked = q_w[taken]
    q = (h[rows] * picked).sum(axis=1) + q_b[taken]
    error = q - batch.returns[rows]
    count = max(len(rows), 1)
    d_q = (2.0 / count) * error
    grads["q_w"] = np.zeros_like(q_w)
    np.add.at(grads["q_w"], taken, d_q[:, None] * h[rows])
    grads["q_b"] = np.bincount(taken, weights=d_q, minlength=len(q_b)).astype(np.float32)
    d_h = np.zeros_like(h)
    d_h[rows] = d_q[:, None] * picked
    return float((error * error).sum() / count), d_h


def _policy_gradients(h: Array, q_w: Array, q_b: Array, policy: Array,
                      legal: npt.NDArray[np.bool_], grads: dict[str, Array]
                      ) -> tuple[float, Array]:
    """The cross-entropy between the teacher's policy and the softmax of the ``q`` logits over
    the legal actions, its gradients into ``grads``, and the gradient into the last hidden
    layer."""
    size = len(h)
    logits = h @ q_w.T + q_b
    logits = np.where(legal, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    exp = np.where(legal, np.exp(logits), 0.0)
    total = exp.sum(axis=1, keepdims=True)
    probs = exp / total
    log_probs = np.where(legal, logits - np.log(total), 0.0)
    loss = float(-(policy * log_probs).sum() / size)
    d_logits = ((probs - policy) / size).astype(np.float32)
    grads["q_w"] = (d_logits.T @ h).astype(np.float32)
    grads["q_b"] = d_logits.sum(axis=0).astype(np.float32)
    return loss, d_logits @ q_w


class Adam:
    """Adam (Kingma & Ba 2015) on the network's arrays, updated in place."""

    def __init__(self, net: Network, rate: float = 5e-4, beta1: float = 0.9,
                 beta2: float = 0.999, epsilon: float = 1e-8) -> None:
        self.net = net
        self.rate, self.beta1, self.beta2, self.epsilon = rate, beta1, beta2, epsilon
        self.steps = 0
        self.moments: dict[str, tuple[Matrix, Matrix]] = {
            name: (np.zeros_like(a), np.zeros_like(a)) for name, a in net.arrays().items()}

    def step(self, grads: dict[str, Array]) -> None:
        self.steps += 1
        b1, b2 = self.beta1, self.beta2
        scale = self.rate * np.sqrt(1 - b2 ** self.steps) / (1 - b1 ** self.steps)
        for name, param in self.net.arrays().items():
            m, v = self.moments[name]
            g = grads[name]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            param -= (scale * m / (np.sqrt(v) + self.epsilon)).astype(np.float32)

    def state(self) -> dict[str, Matrix]:
        """The moments as arrays (for a checkpoint)."""
        out: dict[str, Matrix] = {}
        for name, (m, v) in self.moments.items():
            out[f"adam_m_{name}"], out[f"adam_v_{name}"] = m, v
        return out

    def restore(self, arrays: dict[str, Matrix], steps: int) -> None:
        for name, (m, v) in self.moments.items():
            m[...] = arrays[f"adam_m_{name}"]
            v[...] = arrays[f"adam_v_{name}"]
        self.steps = steps


class Average:
    """An exponential moving average of the network's weights (Polyak averaging): the
    targets are single outcomes (0 or 1), so the weights after each step wander around what
    they learn; their average over the last steps (about ``1 / (1 - decay)`` of them) predicts
    better, and is what a run ships."""

    def __init__(self, net: Network, decay: float) -> None:
        self.decay = decay
        self.arrays = {name: a.copy() for name, a in net.arrays().items()}

    def update(self, net: Network) -> None:
        keep = np.float32(self.decay)
        for name, param in net.arrays().items():
            average = self.arrays[name]
            average *= keep
            average += (1 - keep) * param

    def network(self, like: Network) -> Network:
        """The averaged weights as a network (of ``like``'s set-up and information)."""
        return Network(like.config, self.arrays, like.info)


def train_epochs(net: Network, adam: Adam, inputs: npt.NDArray[np.floating[Any]],
                 actions: npt.NDArray[np.int32], returns: Array, shares: Array,
                 epochs: int, batch_size: int, rng: np.random.Generator,
                 value_weight: float = 1.0, average: Average | None = None) -> Losses:
    """``epochs`` passes over the samples in shuffled minibatches; the mean losses."""
    def batch(pick: npt.NDArray[np.intp]) -> Batch:
        return Batch(inputs[pick].astype(np.float32), actions[pick], returns[pick],
                     shares[pick])

    total_q = total_v = 0.0
    for _ in range(epochs):
        losses = train_pass(net, adam, len(actions), batch, batch_size, rng, value_weight,
                            average)
        total_q += losses.q
        total_v += losses.v
    return Losses(total_q / max(epochs, 1), total_v / max(epochs, 1))


def train_pass(net: Network, adam: Adam, size: int,
               batch: Callable[[npt.NDArray[np.intp]], Batch], batch_size: int,
               rng: np.random.Generator, value_weight: float = 1.0,
               average: Average | None = None) -> Losses:
    """One pass over ``size`` samples in shuffled minibatches of ``batch_size`` (``batch``
    builds the minibatch of the given rows); the mean losses over its steps."""
    order = rng.permutation(size)
    total_q = total_v = 0.0
    steps = 0
    for start in range(0, len(order), batch_size):
        pick = order[start:start + batch_size]
        if len(pick) < 2:
            continue
        losses, grads = losses_and_gradients(net, batch(pick), value_weight)
        adam.step(grads)
        if average is not None:
            average.update(net)
        total_q += losses.q
        total_v += losses.v
        steps += 1
    steps = max(steps, 1)
    return Losses(total_q / steps, total_v / steps)
