"""Plackett-Luce ratings of players ranked in games, one update per game (Weng & Lin 2011).

The model is Algorithm 4 of R. C. Weng and C.-J. Lin, "A Bayesian Approximation Method for
Online Ranking", JMLR 12 (2011), for teams of one player, with the parameters and conventions
of openskill's ``PlackettLuce()`` (the library the tournament used before; the tests compare
the two): a player's skill is a normal belief N(mu, sigma²), mu = 25 and sigma = 25/3 at
first, and each game updates the beliefs of its k players from their ranks (1 = best; equal
ranks are ties; only the order of the ranks matters) as follows.

1. Dynamics: every player's variance grows first by tau² (tau = 25/300):
   v_i = sigma_i² + tau².
2. Scale: c = sqrt(sum_i (v_i + beta²)), beta = 25/6 (the performance noise of one game).
3. Strengths e_i = exp(mu_i / c). Each distinct rank r of the game (a *level*, holding a_r tied
   players) has S_r = the sum of e_q over the players q ranked r or worse.
4. For player i of rank r_i, over the levels r from the best down to r_i included:

   Omega_i = v_i / c * (1 / a_{r_i} - sum_r e_i / S_r)

   Delta_i = gamma_i * v_i / c² * sum_r (e_i / S_r) * (1 - e_i / S_r), gamma_i = sqrt(v_i) / c.

5. mu_i' = mu_i + Omega_i and sigma_i' = sqrt(v_i * max(1 - Delta_i, kappa)), kappa = 1e-4.

Without ties (every a_r = 1) this is the paper's update: its sums run over the teams q ranked
no worse than i (i itself included), with p_iq = e_i / S_q (S_q: the strengths of the teams
ranked no better than q), and are sum (delta_iq - p_iq) and sum p_iq (1 - p_iq). openskill
handles ties by dividing the term of every team q by the number a_q of teams tied with it; the
a_r tied players of a level share S_r, so their a_r equal terms add up to one term of the
level, and the delta term of i's own level becomes 1 / a_{r_i}: that is the form above. So
tied players gain or lose as one place shared, and all tied, the mus move towards each other.

As in openskill's defaults, the new sigma may exceed the old one (tau is added before the
update and sigma is not capped: ``limit_sigma`` off) and ratings are not rebalanced towards
outliers (``balance`` off). Ranks only; scores, margins and weights are not modelled.

>>> a, b = rate([Rating(), Rating()], [1, 2])
>>> round(a.mu, 4), round(a.sigma, 4), round(b.mu, 4), round(a.ordinal, 4)
(27.6354, 8.0659, 22.3646, 3.4377)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BETA", "KAPPA", "MU", "SIGMA", "TAU", "Rating", "rate", "update"]

#: The prior mean of a player's skill.
MU = 25.0
#: The prior standard deviation of a player's skill (MU / 3).
SIGMA = MU / 3
#: The standard deviation of one game's performance around the skill (SIGMA / 2).
BETA = SIGMA / 2
#: The floor of the factor a variance is multiplied by in one update (keeps it positive).
KAPPA = 0.0001
#: The standard deviation a skill drifts by between two games (SIGMA / 100), added before each
#: update.
TAU = MU / 300

_BETA_SQ = BETA * BETA
_TAU_SQ = TAU * TAU


@dataclass(frozen=True, slots=True)
class Rating:
    """A belief N(mu, sigma²) about a player's skill.

    >>> r = Rating()
    >>> r.mu, round(r.sigma, 4), r.ordinal
    (25.0, 8.3333, 0.0)
    """

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: a cautious estimate of the skill, to sort players by."""
        return self.mu - 3.0 * self.sigma


def rate(players: Sequence[Rating], ranks: Sequence[float]) -> list[Rating]:
    """The ratings of the ``players`` of one game after it, in the same order.

    ``ranks[i]`` is player i's place (lower is better; equal places are ties; any numbers, only
    their order matters). The update is the one of the module docstring.

    >>> [round(r.mu, 4) for r in rate([Rating(), Rating(), Rating()], [2, 1, 2])]
    [23.5655, 27.869, 23.5655]
    """
    k = len(players)
    if len(ranks) != k:
        raise ValueError(f"{k} players but {len(ranks)} ranks")
    if k < 2:
        raise ValueError("a game needs at least two players")
    mus, sigmas = update([p.mu for p in players], [p.sigma for p in players], ranks)
    return [Rating(mu, sigma) for mu, sigma in zip(mus, sigmas, strict=True)]


def update(
    mus: Sequence[float], sigmas: Sequence[float], ranks: Sequence[float]
) -> tuple[list[float], list[float]]:
    """:func:`rate` on bare numbers (the same operations, so the same results to the last bit):
    the new mus and sigmas of the players of one game, from their mus, sigmas and ranks (at
    least two players, as many of each; not checked). A tournament rates thousands of games:
    no :class:`Rating` is made for each.

    >>> mus, sigmas = update([MU, MU], [SIGMA, SIGMA], [1, 2])
    >>> [Rating(m, s) for m, s in zip(mus, sigmas)] == rate([Rating(), Rating()], [1, 2])
    True
    """
    variances = [s * s + _TAU_SQ for s in sigmas]
    c = math.sqrt(sum(variances) + len(mus) * _BETA_SQ)
    strengths = [math.exp(mu / c) for mu in mus]
    # The levels from the best rank to the worst: their strength and number of players.
    levels = sorted(set(ranks))
    level_of = dict(zip(levels, range(len(levels)), strict=True))
    of_player = [level_of[r] for r in ranks]
    level_strength = [0.0] * len(levels)
    tied = [0] * len(levels)
    for n, e in zip(of_player, strengths, strict=True):
        level_strength[n] += e
        tied[n] += 1
    # S_r for each level (worst first, then reversed), and running sums over the levels from
    # the best of 1 / S_r and 1 / S_r²: sum_r e_i / S_r = e_i * inv[n], and sum_r (e_i / S_r)²
    # = e_i² * inv_sq[n].
    below = 0.0
    sums = []
    for strength in reversed(level_strength):
        below += strength
        sums.append(below)
    inv, inv_sq = [], []
    acc = acc_sq = 0.0
    for s in reversed(sums):
        acc += 1.0 / s
        acc_sq += 1.0 / (s * s)
        inv.append(acc)
        inv_sq.append(acc_sq)
    new_mus, new_sigmas = [], []
    for mu, n, v, e in zip(mus, of_player, variances, strengths, strict=True):
        share = e * inv[n]  # sum_r p_ir
        omega = v / c * (1.0 / tied[n] - share)
        delta = math.sqrt(v) / c * v / (c * c) * (share - e * e * inv_sq[n])
        new_mus.append(mu + omega)
        new_sigmas.append(math.sqrt(v * max(1.0 - delta, KAPPA)))
    return new_mus, new_sigmas

