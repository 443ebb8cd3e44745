"""Full-width counterfactual regret minimisation over all deals: CFR, CFR+, Linear CFR, DCFR.

One iteration walks the public tree once per updated player with vectors over the deal axis:
a forward pass computes both players' reach per (node, deal), a backward pass the updating
player's values, adds chance x opponent reach x (action value - node value) to the regret of
the row ``infoset_base[node] + bucket`` and own reach x strategy x weight to its strategy sum.

- CFR (Zinkevich et al. 2007): regret matching, uniform averaging;
- CFR+ (Tammelin 2014; Tammelin et al. 2015): regret-matching+, alternating updates, linear
  averaging (iteration t weighs t);
- Linear CFR and DCFR(alpha, beta, gamma) (Brown & Sandholm 2019): after iteration t
  positive regrets are scaled by t^alpha / (t^alpha + 1), negative ones by
  t^beta / (t^beta + 1), and iteration t's strategy weighs t^gamma. LCFR is (1, 1, 1), the
  recommended DCFR (1.5, 0, 2).

The conventions (iteration counter from 1, updates alternate player 0 then player 1, the
current strategy recomputed from regrets before each player's pass, DCFR discounting
after each player's pass) are OpenSpiel's, so the average strategies agree with its solvers.

Kernel (``@njit``): ``run_iterations(tree arrays..., deal arrays..., regret, strategy_sum,
sigma, row_player, row_actions, first_iteration, count, rm_plus, alternating, alpha, beta,
gamma, reach, value)`` runs ``count`` iterations in place; ``alpha``/``beta`` are NaN for no
discounting. Drive it through ``FullWidthSolver``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from blueprint.deals import Deals
from blueprint.reach import forward_reach, player_slots
from blueprint.regret import average_strategy, current_strategy, discount_regrets, floor_regrets
from blueprint.tree import DECISION, BettingTree, terminal_value


@dataclass(frozen=True)
class CFRConfig:
    """A full-width CFR variant: regret floor, update order, discounting and averaging."""

    regret_matching_plus: bool = False
    alternating: bool = True
    alpha: float | None = None
    beta: float | None = None
    gamma: float = 0.0

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if value is not None and not math.isfinite(value):
                raise ValueError(f"{name} must be a finite number or None, got {value}")
        if not math.isfinite(self.gamma) or self.gamma < 0:
            raise ValueError(f"gamma must be a non-negative number, got {self.gamma}")
        if (self.alpha is None) != (self.beta is None):
            raise ValueError("alpha and beta must both be set (discounting) or both be None")


PRESETS = {
    "cfr": CFRConfig(),
    "cfr+": CFRConfig(regret_matching_plus=True, gamma=1.0),
    "lcfr": CFRConfig(alpha=1.0, beta=1.0, gamma=1.0),
    "dcfr": CFRConfig(alpha=1.5, beta=0.0, gamma=2.0),
}


@njit(cache=True, nogil=True)
def cfr_pass(
    kind, player, rnd, first_child, num_children, contribution, infoset_base,
    buckets, showdown, weight, regret, strategy_sum, sigma, traverser, average_weight,
    reach, value,
):  # fmt: skip
    """One full-width pass updating ``traverser`` (-1: both); returns player 0's root value."""
    deals = buckets.shape[0]
    forward_reach(kind, player, rnd, first_child, num_children, infoset_base, buckets, sigma,
                  player_slots(2), reach)  # fmt: skip
    for node in range(kind.shape[0] - 1, -1, -1):
        if kind[node] != DECISION:
            for d in range(deals):
                value[node, d] = terminal_value(
                    kind[node], player[node], contribution[node, 0], contribution[node, 1],
                    showdown[d],
                )  # fmt: skip
            continue
        actor, first, count = player[node], first_child[node], num_children[node]
        update = traverser < 0 or traverser == actor
        sign = 1.0 if actor == 0 else -1.0
        for d in range(deals):
            row = infoset_base[node] + buckets[d, actor, rnd[node]]
            total = 0.0
            for k in range(count):
                total += sigma[row, k] * value[first + k, d]
            value[node, d] = total
            if not update:
                continue
            cf_reach = sign * weight[d] * reach[node, 1 - actor, d]
            own = average_weight * weight[d] * reach[node, actor, d]
            for k in range(count):
                regret[row, k] += cf_reach * (value[first + k, d] - total)
                strategy_sum[row, k] += own * sigma[row, k]
    root = 0.0
    for d in range(deals):
        root += weight[d] * value[0, d]
    return root


@njit(cache=True, nogil=True)
def _after_pass(regret, row_player, traverser, rm_plus, alpha, beta, t):
    """RM+ floor or DCFR discount of the rows just updated (NaN alpha: no discount)."""
    if rm_plus:
        floor_regrets(regret, row_player, traverser)
    if not np.isnan(alpha):
        positive = t**alpha / (t**alpha + 1.0)
        negative = t**beta / (t**beta + 1.0)
        discount_regrets(regret, row_player, traverser, positive, negative)


@njit(cache=True, nogil=True)
def run_iterations(
    kind, player, rnd, first_child, num_children, contribution, infoset_base,
    buckets, showdown, weight, regret, strategy_sum, sigma, row_player, row_actions,
    first_iteration, count, rm_plus, alternating, alpha, beta, gamma, reach, value,
):  # fmt: skip
    """Run iterations ``first_iteration .. first_iteration + count - 1`` in place.

    Returns player 0's value of the last current strategy profile.
    """
    root = 0.0
    for t in range(first_iteration, first_iteration + count):
        average_weight = float(t) ** gamma
        for half in range(2 if alternating else 1):
            traverser = half if alternating else -1
            current_strategy(regret, row_actions, sigma)
            root = cfr_pass(
                kind, player, rnd, first_child, num_children, contribution, infoset_base,
                buckets, showdown, weight, regret, strategy_sum, sigma, traverser,
                average_weight, reach, value,
            )  # fmt: skip
            _after_pass(regret, row_player, traverser, rm_plus, alpha, beta, float(t))
    return root


class FullWidthSolver:
    """Regret and strategy-sum tables for one game, advanced by full-width CFR iterations.

    >>> from blueprint.kuhn import kuhn_game
    >>> game = kuhn_game()
    >>> solver = FullWidthSolver(game.tree, game.deals, PRESETS["cfr+"])
    >>> solver.run(200)
    >>> solver.iteration, round(solver.game_value(), 3)
    (200, -0.056)
    """

    def __init__(self, tree: BettingTree, deals: Deals, config: CFRConfig) -> None:
        deals.check_against(tree)
        self.tree, self.deals, self.config = tree, deals, config
        self.regret = tree.new_table()
        self.strategy_sum = tree.new_table()
        self.iteration = 0
        self._sigma = tree.new_table()
        self._row_player = tree.infoset_player()
        self._row_actions = tree.infoset_actions()
        self._reach = np.empty((tree.num_nodes, 2, deals.size))
        self._value = np.empty((tree.num_nodes, deals.size))

    def run(self, iterations: int) -> None:
        """Advance by ``iterations`` iterations."""
        if iterations < 0:
            raise ValueError(f"iterations must be non-negative, got {iterations}")
        tree, deals, config = self.tree, self.deals, self.config
        nan = float("nan")
        run_iterations(
            tree.kind, tree.player, tree.round, tree.first_child, tree.num_children,
            tree.contribution, tree.infoset_base, deals.buckets, deals.showdown, deals.weight,
            self.regret, self.strategy_sum, self._sigma, self._row_player, self._row_actions,
            self.iteration + 1, iterations, config.regret_matching_plus, config.alternating,
            nan if config.alpha is None else config.alpha,
            nan if config.beta is None else config.beta,
            config.gamma, self._reach, self._value,
        )  # fmt: skip
        self.iteration += iterations

    def average_strategy(self) -> np.ndarray:
        """The average strategy table (the one converging to equilibrium)."""
        return average_strategy(self.strategy_sum, self._row_actions)

    def current_strategy(self) -> np.ndarray:
        """The regret-matching strategy of the current regrets."""
        out = self.tree.new_table()
        current_strategy(self.regret, self._row_actions, out)
        return out

    def game_value(self) -> float:
        """Player 0's expected utility under the average strategy."""
        from blueprint.best_response import expected_value

        return expected_value(self.tree, self.deals, self.average_strategy())
