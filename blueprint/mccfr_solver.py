"""A driver for the MCCFR kernels on games whose deals can be enumerated (Kuhn, Leduc).

Deals are drawn by chance probability from the injected ``numpy.random.Generator`` in
batches; each batch's kernel seed is drawn from the same generator, so a seed fixes the run.
Options beyond the kernels' own: interval discounting as in Pluribus (Brown & Sandholm 2019,
Science): after every ``discount_interval`` iterations, with T the number of intervals done,
positive regrets are scaled by T^alpha / (T^alpha + 1), negative ones by T^beta / (T^beta + 1)
and strategy sums by (T / (T + 1))^gamma; Pluribus's linear discounting is (1, 1, 1). Its
negative-regret pruning is the external-sampling kernel's (``blueprint.mccfr``).

>>> import numpy as np
>>> from blueprint.kuhn import kuhn_game
>>> game = kuhn_game()
>>> solver = MCCFRSolver(game.tree, game.deals, MCCFRConfig("external"), np.random.default_rng(1))
>>> solver.run(100)
>>> solver.iteration
100
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from blueprint.deals import Deals
from blueprint.mccfr import KERNELS, check_pruning
from blueprint.regret import (
    average_strategy,
    discount_factor,
    discount_regrets,
    scale_table,
)
from blueprint.tree import BettingTree


@dataclass(frozen=True)
class MCCFRConfig:
    """An MCCFR variant: sampling scheme, regret floor, weighting, exploration, discounting,
    negative-regret pruning (``blueprint.mccfr``)."""

    method: str = "external"
    regret_matching_plus: bool = False
    regret_exponent: float = 0.0
    average_exponent: float = 0.0
    epsilon: float = 0.6
    batch_size: int = 1000
    discount_interval: int = 0
    alpha: float = 1.0
    beta: float = 1.0
    gamma: float = 1.0
    prune_share: float = 0.0
    prune_threshold: float = -500.0
    prune_after: int = 0

    def __post_init__(self) -> None:
        if self.method not in KERNELS:
            raise ValueError(f"method must be one of {sorted(KERNELS)}, got {self.method!r}")
        check_pruning(self.method, self.regret_matching_plus, self.prune_share,
                      self.prune_threshold, self.prune_after)  # fmt: skip
        if not 0.0 < self.epsilon <= 1.0:
            raise ValueError(f"epsilon must lie in (0, 1], got {self.epsilon}")
        if self.batch_size < 1 or self.discount_interval < 0:
            raise ValueError(
                f"batch_size must be >= 1 and discount_interval >= 0, got "
                f"{self.batch_size} and {self.discount_interval}"
            )
        for name in ("regret_exponent", "average_exponent", "alpha", "beta", "gamma"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(f"{name} must be finite, got {getattr(self, name)}")


class MCCFRSolver:
    """Regret and strategy-sum tables advanced by one MCCFR kernel on sampled deals."""

    def __init__(
        self,
        tree: BettingTree,
        deals: Deals,
        config: MCCFRConfig,
        rng: np.random.Generator,
        dtype: type = np.float64,
    ) -> None:
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        deals.check_against(tree)
        self.tree, self.deals, self.config, self.rng = tree, deals, config, rng
        self.regret = tree.new_table(dtype)
        self.strategy_sum = tree.new_table(dtype)
        self.iteration = 0
        self._kernel = KERNELS[config.method]
        self._chance = deals.weight / deals.weight.sum()
        self._row_player = tree.infoset_player()
        self._row_actions = tree.infoset_actions()

    def run(self, iterations: int) -> None:
        """Advance by ``iterations`` iterations (one sampled deal each)."""
        if iterations < 0:
            raise ValueError(f"iterations must be non-negative, got {iterations}")
        remaining = iterations
        while remaining > 0:
            size = min(remaining, self.config.batch_size, self._to_next_discount())
            self._batch(size)
            remaining -= size
            interval = self.config.discount_interval
            if interval and self.iteration % interval == 0:
                self._discount(self.iteration // interval)

    def _to_next_discount(self) -> int:
        """Iterations left before the next discount point (unbounded without discounting)."""
        interval = self.config.discount_interval
        return interval - self.iteration % interval if interval else self.config.batch_size

    def _batch(self, size: int) -> None:
        """Sample ``size`` deals and run the kernel on them."""
        index = self.rng.choice(self.deals.size, size=size, p=self._chance)
        seed = int(self.rng.integers(0, 2**63 - 1))
        tree, config = self.tree, self.config
        self._kernel(
            tree.kind, tree.player, tree.round, tree.first_child, tree.num_children,
            tree.contribution, tree.infoset_base, np.ascontiguousarray(self.deals.buckets[index]),
            np.ascontiguousarray(self.deals.showdown[index]), self.regret, self.strategy_sum,
            seed, self.iteration + 1, config.regret_matching_plus, config.regret_exponent,
            config.average_exponent, config.epsilon, config.prune_share, config.prune_threshold,
            config.prune_after,
        )  # fmt: skip
        self.iteration += size

    def _discount(self, intervals: int) -> None:
        """Pluribus/DCFR-style discount of both tables after ``intervals`` intervals."""
        config = self.config
        positive = discount_factor(intervals, config.alpha)
        negative = discount_factor(intervals, config.beta)
        discount_regrets(self.regret, self._row_player, -1, positive, negative)
        scale_table(self.strategy_sum, (intervals / (intervals + 1.0)) ** config.gamma)

    def average_strategy(self) -> np.ndarray:
        """The average strategy table (float64)."""
        return average_strategy(self.strategy_sum, self._row_actions)
