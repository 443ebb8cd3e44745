"""The study's Monte Carlo model: a simulated win rate and per-street thresholds on every street.

Seed 004's "Monte-Carlo model" estimates its win rate with 10,000 simulations against the
opponents in the hand and applies the threshold rule of :mod:`agent.thresholds` (its
Figure 13) on every street. The win rate comes from :func:`agent.equity.equity` (exact where
that is cheaper than the simulations, e.g. the heads-up river and preflop table; Monte Carlo
seeded from ``self.rng`` elsewhere). :meth:`MonteCarloPlayer.policy_table` gives the policy of
many holdings at once, heads-up as the law of the simulated decision (the won deals are
Binomial(simulations, p) with ``p`` exact, :mod:`baselines.win_rate_law`), for local best
response.

>>> from agent.situations import make_decision
>>> bot = MonteCarloPlayer(simulations=2000, seed=0)
>>> bot.action_probabilities(*make_decision(["As", "Ad"], ["Ac", "Ah", "2d"], to_call=20))
[('raise', 80, 1.0)]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.equity import equity
from agent.player import level_cutoffs
from agent.policy import PolicyPlayer, WeightedAction, certain
from agent.snapshot import Snapshot
from agent.thresholds import (
    STUDY_THRESHOLDS,
    Level,
    Thresholds,
    level_action,
    threshold_action,
    threshold_level,
    win_rate,
)
from baselines.win_rate_law import holding_by_holding, law_table

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

    def policy_table(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[list[WeightedAction]]:
        """``[self.policy(snapshot with hole h) for h in holes]`` in law, in one pass.

        Heads-up: exact where one decision computes its win rate exactly (preflop, river),
        the law of the ``simulations``-deal estimate elsewhere (flop, turn). Several
        opponents: holding by holding.
        """
        if snapshot.opponents > 1:
            return holding_by_holding(self.policy, snapshot, holes)
        street = snapshot.street
        return law_table(
            snapshot,
            holes,
            self.simulations,
            level_cutoffs(self.simulations, street, 1, self.thresholds),
            lambda rate: int(threshold_level(rate, street, 1, self.thresholds)),
            lambda level: level_action(Level(level), snapshot),
        )
