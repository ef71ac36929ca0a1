"""Train a small policy network on the PettingZoo environment with REINFORCE (NumPy, CPU).

    python examples/train_policy.py --games 20000 --out policy-3p-base.npz
    oriflamme tournament --bots policy:path=policy-3p-base.npz,random,random --players 3 \\
        --games 300

Every training game gives the learner one seat at random (its observations and action masks
come from ``oriflamme.envs.pettingzoo``) and uniformly random players the others. The policy is
:class:`oriflamme.bots.policy.PolicyNetwork` (one tanh hidden layer, a logit per action index,
illegal actions masked). After each batch of games, REINFORCE: every learner decision moves
the log-probability of its action by the game's reward (the win share: 1/k for each of k
winners, else 0) minus a running-mean baseline, with Adam. The weights are saved at the end
(and after every batch), ready for the ``policy`` bot. See docs/rl.md for a recorded run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from oriflamme.api import GameConfig
from oriflamme.bots.policy import PolicyNetwork
from oriflamme.envs.pettingzoo import raw_env

Array = npt.NDArray[np.float32]


@dataclass
class Episode:
    """The learner's decisions in one game: inputs, hidden activations, legal indices, the
    chosen position among them and the policy's probabilities."""

    inputs: list[Array] = field(default_factory=list)
    hidden: list[Array] = field(default_factory=list)
    legal: list[npt.NDArray[np.int64]] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)
    probs: list[Array] = field(default_factory=list)
    reward: float = 0.0


class Adam:
    """Adam on a list of arrays (gradient ascent)."""

    def __init__(self, params: list[Array], lr: float) -> None:
        self.params, self.lr = params, lr
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[Array]) -> None:
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            m_hat = m / (1 - 0.9**self.t)
            v_hat = v / (1 - 0.999**self.t)
            p += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def play_episode(env: raw_env, net: PolicyNetwork, seat: int, seed: int,
                 rng: np.random.Generator) -> Episode:
    """One game: the learner at ``seat`` samples from the policy, the others play at random."""
    episode = Episode()
    env.reset(seed=seed)
    learner = env.possible_agents[seat]
    for agent in env.agent_iter():
        if agent == learner:
            observation, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                episode.reward = float(reward)
                env.step(None)
                continue
            x = observation["observation"]
            legal = np.flatnonzero(observation["action_mask"])
            hidden, logits = net.forward(x)
            z = logits[legal] - logits[legal].max()
            probs = np.exp(z) / np.exp(z).sum()
            k = int(rng.choice(len(legal), p=probs))
            episode.inputs.append(x)
            episode.hidden.append(hidden)
            episode.legal.append(legal)
            episode.chosen.append(k)
            episode.probs.append(probs)
            env.step(int(legal[k]))
        else:
            _, _, terminated, truncated, _ = env.last(observe=False)
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(env.action_mask(agent))
            env.step(int(legal[rng.integers(len(legal))]))
    return episode


def gradients(net: PolicyNetwork, episodes: list[Episode], baseline: float) -> list[Array]:
    """The REINFORCE gradient of the mean return over ``episodes`` for the four weights."""
    w2, b2 = net.weights[2], net.weights[3]
    rows_x, rows_h, rows_g = [], [], []
    for ep in episodes:
        advantage = ep.reward - baseline
        for x, h, legal, k, probs in zip(ep.inputs, ep.hidden, ep.legal, ep.chosen, ep.probs,
                                         strict=True):
            g = np.zeros(len(b2), dtype=np.float32)
            g[legal] = -probs * advantage
            g[legal[k]] += advantage
            rows_x.append(x)
            rows_h.append(h)
            rows_g.append(g)
    if not rows_g:
        return [np.zeros_like(w) for w in net.weights]
    x_all, h_all, g_all = np.stack(rows_x), np.stack(rows_h), np.stack(rows_g)
    scale = 1.0 / len(episodes)
    d_hidden = (g_all @ w2) * (1.0 - h_all * h_all)
    return [scale * d_hidden.T @ x_all, scale * d_hidden.sum(0),
            scale * g_all.T @ h_all, scale * g_all.sum(0)]


def train(players: int = 3, cards: str = "base", variant: str | None = None,
          seconds: float = 180.0, max_games: int | None = None, hidden: int = 64,
          batch: int = 32, lr: float = 3e-3, seed: int = 0, out: str | None = None,
          report: Callable[[str], None] = print) -> PolicyNetwork:
    """Train for ``seconds`` (or ``max_games``); save to ``out`` after every batch."""
    config = GameConfig(players=players, cards=cards, variant=variant)
    net = PolicyNetwork.initial(config, hidden, random.Random(seed))
    env = raw_env(players=players, cards=cards, variant=variant)
    rng = np.random.default_rng(seed)
    adam = Adam(net.weights, lr)
    baseline = 1.0 / players
    start = time.perf_counter()
    games = 0
    recent: list[float] = []
    while time.perf_counter() - start < seconds and (max_games is None or games < max_games):
        episodes = [play_episode(env, net, (games + i) % players, seed * 1_000_003 + games + i,
                                 rng) for i in range(batch)]
        games += batch
        adam.step(gradients(net, episodes, baseline))
        rewards = [ep.reward for ep in episodes]
        baseline = 0.9 * baseline + 0.1 * float(np.mean(rewards))
        recent = (recent + rewards)[-1000:]
        if out is not None:
            net.save(out)
        if games % (batch * 20) == 0:
            report(f"{games:6d} games, {time.perf_counter() - start:6.0f} s: win share of the"
                   f" last {len(recent)} games {np.mean(recent):.3f} (random: {1 / players:.3f})")
    return net


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--cards", default="base")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--minutes", type=float, default=3.0, help="time budget")
    parser.add_argument("--games", type=int, default=None,
                        help="stop after this many games instead (reproducible)")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="policy.npz")
    args = parser.parse_args()
    seconds = args.minutes * 60 if args.games is None else float("inf")
    train(args.players, args.cards, args.variant, seconds, args.games, args.hidden,
          args.batch, args.lr, args.seed, args.out)
    print(f"saved {args.out}; play it with: oriflamme tournament --bots"
          f" policy:path={args.out},random{',random' * (args.players - 2)}"
          f" --players {args.players} --games 300")


if __name__ == "__main__":
    main()
