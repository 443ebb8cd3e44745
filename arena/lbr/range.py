"""The opponent's range during one hand of local best response: a distribution over holdings.

Local best response (Lisy & Bowling 2017, "Equilibrium Approximation Quality of Current
No-Limit Poker Bots", Algorithm 1) keeps, for the hand in progress, the probability of each
of the opponent's 1,326 possible holdings given everything public and LBR's own cards. It
starts uniform over the holdings that share no card with LBR's hole cards, loses every
holding that shares a card with a newly dealt board card, and after every opponent action
``a`` is updated by Bayes' rule: ``P(h | a) ∝ P(h) * P(a | h)``, with ``P(a | h)`` the
opponent's policy for holding ``h`` at that public state. The weights always sum to 1.

If the opponent takes an action its (modelled) policy gives probability 0 with every
holding still in the range (a sampled or noisy policy model can do this), the update is
skipped and counted in :attr:`Range.misses`: the range stays what it was, a documented
approximation, instead of an empty or undefined distribution.

>>> from agent.poker.cards import parse_cards
>>> hand = Range.uniform(parse_cards(["As", "Ad"]))
>>> int(np.count_nonzero(hand.weights)), round(float(hand.weights.sum()), 12)
(1225, 1.0)
>>> hand.block(parse_cards(["Ah", "Kc", "2d"]))
>>> int(np.count_nonzero(hand.weights))
1081
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from agent.poker.range_equity import HOLDINGS, blocked_mask


@dataclass
class Range:
    """Weights over the 1,326 holdings (the order of
    :data:`agent.poker.range_equity.HOLDING_CARDS`)."""

    weights: np.ndarray
    misses: int = 0
    dead: set[int] = field(default_factory=set)

    @classmethod
    def uniform(cls, dead: Sequence[int] = ()) -> Range:
        """Every holding without a dead card, equally likely."""
        weights = np.ones(HOLDINGS)
        weights[blocked_mask(dead)] = 0.0
        weights /= weights.sum()
        return cls(weights, dead=set(dead))

    def block(self, cards: Sequence[int]) -> None:
        """Remove the holdings that share a card with ``cards`` (new board cards)."""
        new = [card for card in cards if card not in self.dead]
        if not new:
            return
        self.dead.update(new)
        kept = self.weights.copy()
        kept[blocked_mask(new)] = 0.0
        if kept.sum() > 0:
            self.weights = kept / kept.sum()
        else:  # every holding left was blocked: restart uniform over what is still possible
            self.weights = Range.uniform(sorted(self.dead)).weights

    def live(self) -> np.ndarray:
        """Indices of the holdings with positive weight."""
        return np.flatnonzero(self.weights > 0)

    def update(self, indices: np.ndarray, likelihood: np.ndarray) -> bool:
        """Bayes' rule with ``likelihood[i] = P(action | holding indices[i])``.

        Holdings not in ``indices`` get likelihood 0. Returns False (and leaves the range
        as it was) when the action has probability 0 under every holding.

        >>> r = Range(np.array([0.5, 0.25, 0.25] + [0.0] * (HOLDINGS - 3)))
        >>> r.update(np.array([0, 1, 2]), np.array([0.0, 1.0, 0.5])), r.weights[:3].tolist()
        (True, [0.0, 0.6666666666666666, 0.3333333333333333])
        """
        indices = np.asarray(indices, dtype=np.int64)
        likelihood = np.asarray(likelihood, dtype=np.float64)
        if indices.shape != likelihood.shape:
            raise ValueError(f"{len(indices)} holdings but {len(likelihood)} likelihoods given")
        if (likelihood < 0).any() or (likelihood > 1 + 1e-9).any():
            raise ValueError("likelihoods must be probabilities in [0, 1]")
        posterior = np.zeros(HOLDINGS)
        posterior[indices] = self.weights[indices] * likelihood
        total = posterior.sum()
        if total <= 0:
            self.misses += 1
            return False
        self.weights = posterior / total
        return True

    def mean_of(self, indices: np.ndarray, values: np.ndarray) -> float:
        """The range-weighted mean of ``values`` given for the holdings ``indices``."""
        mass = self.weights[indices]
        total = mass.sum()
        return float(mass @ values / total) if total > 0 else 0.0
