"""What a player plays after the flop while numba compiles its kernels.

On a fresh install nothing is compiled, and the first flop decision and the first real-time
solve would each wait many seconds for compilation inside the game. The player instead starts
the warm-up in a separate process (:func:`blueprint.subgame.warmup.warm_up_in_background`) and,
in every hand that starts before that process ends, decides each spot after the flop, and
preflop against two or more opponents, by the study's thresholds (da Luz, seed 004) on a win
rate that compiles nothing (:func:`agent.poker.plain_equity.plain_equity`): exact heads-up on
the river, else from :data:`DEALS` deals. The rules before it (push/fold and the N-player
preflop table) and the heads-up preflop rules read tables and play as always. The hands after
the warm-up ends play the fixed strategy whole.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.boundary.policy import WeightedAction, certain
from agent.boundary.snapshot import Action, Snapshot, Street
from agent.boundary.thresholds import threshold_level, win_rate
from agent.players.rules.rule import Context, Table, hole_by_hole
from agent.players.rules.threshold import MAX_SIMULATED_OPPONENTS, Levels
from agent.poker.plain_equity import plain_equity
from agent.poker.range_equity import HOLDINGS

DEALS = 1_000  # the estimate's standard error is at most 0.016


class CompilingRule:
    """While ``context.compiling``, after the flop or against two or more opponents: the
    thresholds on a compile-free win rate."""

    name = "compiling"

    def __init__(self, context: Context, levels: Levels) -> None:
        self.context = context
        self.levels = levels

    def applies(self, snapshot: Snapshot) -> bool:
        """Whether this rule plays the spot: in a hand started while compiling, after the flop
        or against two or more opponents (where the rules after it would run a kernel)."""
        if not self.context.compiling:
            return False
        return snapshot.street != Street.PREFLOP or snapshot.opponents > 1

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        opponents = min(max(1, snapshot.opponents), MAX_SIMULATED_OPPONENTS)
        rate = win_rate(
            plain_equity(snapshot.hole, snapshot.board, opponents, DEALS, self.context.rng)
        )
        thresholds = self.context.options.threshold.thresholds
        level = threshold_level(rate, snapshot.street, opponents, thresholds)
        return certain(self.levels.action(level, snapshot))

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        return hole_by_hole(self.policy, snapshot, holes)

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        """Every holding alike: no solve reads our range in a hand this rule plays."""
        return np.ones(HOLDINGS)

    def detail(self) -> str:
        return ""
