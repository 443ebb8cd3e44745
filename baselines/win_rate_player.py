"""The shared body of the baselines that act on a simulated win rate (Honest, Monte Carlo).

Both simulating baselines estimate their win rate (win or tie against the
opponents still in the hand) with ``simulations`` deals of :func:`agent.poker.equity.equity`,
exact where that is cheaper, and map it to an action by a rule. :class:`WinRatePlayer` holds
what they share: the simulation count (checked), the win rate, and ``policy_table`` (the
law of the decision for many holdings at once, :mod:`baselines.win_rate_law`). A subclass
gives ``policy`` and, for the heads-up law, its rule as cutoffs and two maps
(:meth:`WinRatePlayer.heads_up_rule`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from agent.boundary.policy import PolicyPlayer, WeightedAction
from agent.boundary.snapshot import Action, Snapshot
from agent.boundary.thresholds import win_rate
from agent.poker.equity import equity
from baselines.win_rate_law import holding_by_holding, law_table

HeadsUpRule = tuple[Sequence[int], Callable[[float], int], Callable[[int], Action]]
"""``(cutoffs, level_of_rate, action_of_level)`` as :func:`baselines.win_rate_law.law_table`
takes them."""


class WinRatePlayer(PolicyPlayer):
    """A player whose decision is a rule on its simulated win rate."""

    def __init__(
        self,
        simulations: int,
        *,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
    ):
        super().__init__(rng=rng, seed=seed)
        if not isinstance(simulations, int) or simulations <= 0:
            raise ValueError(f"simulations={simulations!r}: expected a positive integer")
        self.simulations = simulations

    def win_rate(self, snapshot: Snapshot) -> float:
        """The chance to win or tie against the opponents still in the hand."""
        opponents = max(1, snapshot.opponents)
        found = equity(snapshot.hole, snapshot.board, opponents, self.simulations, self.rng)
        return win_rate(found)

    def heads_up_rule(self, snapshot: Snapshot) -> HeadsUpRule:
        """The rule at ``snapshot`` heads-up: level cutoffs in won deals and the two maps."""
        raise NotImplementedError

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
        cutoffs, level_of_rate, action_of_level = self.heads_up_rule(snapshot)
        return law_table(snapshot, holes, self.simulations, cutoffs, level_of_rate, action_of_level)
