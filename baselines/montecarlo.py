"""The Monte Carlo model: a simulated win rate and per-street thresholds on every street.

The "Monte-Carlo model" of da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo Simulations",
Cardiff University (CM3203), estimates its win rate with 10,000 simulations against the opponents in
the hand and applies the threshold rule of :mod:`agent.boundary.thresholds` (its Figure 13) on every
street. The win rate comes from :func:`agent.poker.equity.equity` (exact where that is cheaper
than the simulations, e.g. the heads-up river and preflop table; Monte Carlo seeded from
``self.rng`` elsewhere). :meth:`MonteCarloPlayer.policy_table` gives the policy of many
holdings at once, heads-up as the law of the simulated decision (the won deals are
Binomial(simulations, p) with ``p`` exact, :mod:`baselines.win_rate_law`), for local best
response.

>>> from agent.boundary.situations import make_decision
>>> bot = MonteCarloPlayer(simulations=2000, seed=0)
>>> bot.action_probabilities(*make_decision(["As", "Ad"], ["Ac", "Ah", "2d"], to_call=20))
[('raise', 80, 1.0)]
"""

from __future__ import annotations

import numpy as np

from agent.boundary.policy import WeightedAction, certain
from agent.boundary.snapshot import Snapshot
from agent.boundary.threshold_law import level_cutoffs
from agent.boundary.thresholds import (
    STUDY_THRESHOLDS,
    Level,
    Thresholds,
    level_action,
    threshold_action,
    threshold_level,
)
from baselines.win_rate_player import HeadsUpRule, WinRatePlayer

MONTE_CARLO_SIMULATIONS = 10_000


class MonteCarloPlayer(WinRatePlayer):
    """Raises 2x min, min-raises, calls or checks/folds by its win rate (da Luz's thresholds)."""

    def __init__(
        self,
        simulations: int = MONTE_CARLO_SIMULATIONS,
        *,
        thresholds: Thresholds = STUDY_THRESHOLDS,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
    ):
        super().__init__(simulations, rng=rng, seed=seed)
        self.thresholds = thresholds

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        return certain(threshold_action(self.win_rate(snapshot), snapshot, self.thresholds))

    def heads_up_rule(self, snapshot: Snapshot) -> HeadsUpRule:
        street = snapshot.street
        return (
            level_cutoffs(self.simulations, street, 1, self.thresholds),
            lambda rate: int(threshold_level(rate, street, 1, self.thresholds)),
            lambda level: level_action(Level(level), snapshot),
        )
