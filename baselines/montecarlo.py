"""The study's Monte Carlo model: a simulated win rate and per-street thresholds on every street.

Seed 004's "Monte-Carlo model" estimates its win rate with 10,000 simulations against the
opponents in the hand and applies the threshold rule of :mod:`agent.thresholds` (its
Figure 13) on every street. The win rate comes from :func:`agent.equity.equity` (exact where
that is cheaper than the simulations, e.g. the heads-up river and preflop table; Monte Carlo
seeded from ``self.rng`` elsewhere).

>>> from agent.situations import make_decision
>>> bot = MonteCarloPlayer(simulations=2000, seed=0)
>>> bot.action_probabilities(*make_decision(["As", "Ad"], ["Ac", "Ah", "2d"], to_call=20))
[('raise', 80, 1.0)]
"""

from __future__ import annotations

import numpy as np

from agent.equity import equity
from agent.policy import PolicyPlayer, WeightedAction, certain
from agent.snapshot import Snapshot
from agent.thresholds import STUDY_THRESHOLDS, Thresholds, threshold_action, win_rate

MONTE_CARLO_SIMULATIONS = 10_000


class MonteCarloPlayer(PolicyPlayer):
    """Raises 2x min, min-raises, calls or checks/folds by its win rate (seed 004)."""

    def __init__(
        self,
        simulations: int = MONTE_CARLO_SIMULATIONS,
        *,
        thresholds: Thresholds = STUDY_THRESHOLDS,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
    ):
        super().__init__(rng=rng, seed=seed)
        if not isinstance(simulations, int) or simulations <= 0:
            raise ValueError(f"simulations={simulations!r}: expected a positive integer")
        self.simulations = simulations
        self.thresholds = thresholds

    def win_rate(self, snapshot: Snapshot) -> float:
        """The chance to win or tie against the opponents still in the hand."""
        opponents = max(1, snapshot.opponents)
        found = equity(snapshot.hole, snapshot.board, opponents, self.simulations, self.rng)
        return win_rate(found)

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        return certain(threshold_action(self.win_rate(snapshot), snapshot, self.thresholds))
