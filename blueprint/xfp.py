"""Full-width extensive-form fictitious play (XFP) over the public tree and all deals.

Heinrich, Lanctot & Silver 2015, "Fictitious Self-Play in Extensive-Form Games" (ICML),
Algorithm 1 (full-width XFP). Starting from the uniform policy pi_0, iteration t computes each
player's exact best response beta_t to the opponent's average policy pi_{t-1}
(``blueprint.best_response.profile_pass``, the public-tree pass of Johanson et al. 2011)
and mixes it into that player's average in behaviour form. Theorem 7: the behaviour strategy

    pi_t(I) = pi_{t-1}(I) + w(I) (beta_t(I) - pi_{t-1}(I)),
    w(I) = alpha_t x_beta(I) / ((1 - alpha_t) x_pi(I) + alpha_t x_beta(I)),

where x(I) is the player's own realization probability of info set I (the product of its own
action probabilities on the path to I), is realization-equivalent to the mixed strategy
(1 - alpha_t) Pi_{t-1} + alpha_t B_t. With alpha_t = 1/(t + 1) the average is the uniform
mixture of pi_0 and the t best responses (classical fictitious play, whose exploitability
tends to zero in two-player zero-sum games); ``XFPConfig.step_exponent`` e gives
alpha_t = (t + 1)^-e, a generalised weakened fictitious play for 0 < e <= 1. The conventions
(pi_0 uniform, alpha_t = 1/(t + 1), both best responses against the same pi_{t-1}) are
OpenSpiel's ``fictitious_play.XFPSolver``.

Own realization probabilities are kept per info-set row: with perfect recall each row has one
*own parent* (the row of the player's previous decision and the action taken there), read off
the deal arrays once. Kernel (``@njit``): ``run_iterations(tree arrays..., deal arrays...,
policy, row_actions, parent_row, parent_action, row_order, first_iteration, count,
step_exponent, reach, value, choice, own_reach, br_reach)`` advances ``policy`` in place;
``row_order`` lists the rows parents first. Drive it through ``XFPSolver``.

>>> from blueprint.kuhn import kuhn_game
>>> game = kuhn_game()
>>> solver = XFPSolver(game.tree, game.deals)
>>> solver.run(1000)
>>> solver.iteration, round(solver.game_value(), 3)
(1000, -0.056)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from blueprint.best_response import expected_value, profile_pass
from blueprint.deals import Deals
from blueprint.regret import uniform_strategy
from blueprint.tree import DECISION, BettingTree


@dataclass(frozen=True)
class XFPConfig:
    """XFP's step size: alpha_t = (t + 1)^-step_exponent (1: classical fictitious play)."""

    step_exponent: float = 1.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.step_exponent) and 0.0 < self.step_exponent <= 1.0):
            raise ValueError(f"step_exponent must lie in (0, 1], got {self.step_exponent}")


@njit(cache=True, nogil=True)
def _own_ancestors(kind, player, parent, first_child):
    """Per node and player: the nearest strict ancestor decision of that player (-1: none)
    and the action taken there towards the node."""
    nodes = kind.shape[0]
    ancestor = np.full((nodes, 2), -1, dtype=np.int64)
    action = np.full((nodes, 2), -1, dtype=np.int64)
    for node in range(1, nodes):
        up = parent[node]
        for p in range(2):
            if kind[up] == DECISION and player[up] == p:
                ancestor[node, p] = up
                action[node, p] = node - first_child[up]
            else:
                ancestor[node, p] = ancestor[up, p]
                action[node, p] = action[up, p]
    return ancestor, action


def own_parents(tree: BettingTree, deals: Deals) -> tuple[np.ndarray, np.ndarray]:
    """Each info-set row's own parent row and the action taken there (-1, -1 at first moves).

    Raises ValueError when two deals disagree (the buckets do not have perfect recall).
    """
    ancestor, action = _own_ancestors(tree.kind, tree.player, tree.parent, tree.first_child)
    nodes = np.flatnonzero(tree.kind == DECISION)
    actor = tree.player[nodes].astype(np.int64)
    rows = tree.infoset_base[nodes][:, None] + deals.buckets[:, actor, tree.round[nodes]].T
    up = ancestor[nodes, actor]
    known = np.maximum(up, 0)
    up_bucket = deals.buckets[:, actor, tree.round[known]].T
    up_rows = np.where(up[:, None] >= 0, tree.infoset_base[known][:, None] + up_bucket, -1)
    parent_row = np.full(tree.num_infosets, -1, dtype=np.int64)
    parent_action = np.full(tree.num_infosets, -1, dtype=np.int64)
    parent_row[rows.ravel()] = up_rows.ravel()
    parent_action[rows.ravel()] = np.repeat(action[nodes, actor], deals.size)
    if (parent_row[rows] != up_rows).any():
        raise ValueError("XFP needs perfect recall: an info-set row has two own parents")
    return parent_row, parent_action


@njit(cache=True, nogil=True)
def _realization(policy, choice, parent_row, parent_action, row_order, own_reach, br_reach):
    """Own realization probabilities of every row under the average and the best response."""
    for row in row_order:
        up = parent_row[row]
        if up < 0:
            own_reach[row] = 1.0
            br_reach[row] = 1.0
        else:
            k = parent_action[row]
            own_reach[row] = own_reach[up] * policy[up, k]
            br_reach[row] = br_reach[up] * (1.0 if choice[up] == k else 0.0)


@njit(cache=True, nogil=True)
def mix_best_response(
    policy, choice, row_actions, parent_row, parent_action, row_order, alpha, own_reach, br_reach
):
    """Theorem 7 in place: mix the pure best response ``choice`` into ``policy`` with weight
    alpha, row by row, weighted by the two own realization probabilities."""
    _realization(policy, choice, parent_row, parent_action, row_order, own_reach, br_reach)
    for row in range(policy.shape[0]):
        numerator = alpha * br_reach[row]
        if numerator == 0.0:
            continue
        mix = numerator / ((1.0 - alpha) * own_reach[row] + numerator)
        for k in range(row_actions[row]):
            target = 1.0 if choice[row] == k else 0.0
            policy[row, k] += mix * (target - policy[row, k])


@njit(cache=True, nogil=True)
def run_iterations(
    kind, player, rnd, first_child, num_children, contribution, infoset_base,
    buckets, showdown, weight, policy, row_actions, parent_row, parent_action, row_order,
    first_iteration, count, step_exponent, reach, value, choice, own_reach, br_reach,
):  # fmt: skip
    """Run XFP iterations ``first_iteration .. first_iteration + count - 1`` in place."""
    for t in range(first_iteration, first_iteration + count):
        for responder in range(2):
            profile_pass(
                kind, player, rnd, first_child, num_children, contribution, infoset_base,
                buckets, showdown, weight, policy, responder, reach, value, choice,
            )  # fmt: skip
        alpha = (t + 1.0) ** -step_exponent
        mix_best_response(
            policy, choice, row_actions, parent_row, parent_action, row_order, alpha,
            own_reach, br_reach,
        )  # fmt: skip


class XFPSolver:
    """The average policy of full-width XFP for one game, advanced by iterations.

    ``average_strategy()`` is the policy pi_t (the one converging to equilibrium).
    """

    def __init__(self, tree: BettingTree, deals: Deals, config: XFPConfig | None = None) -> None:
        deals.check_against(tree)
        self.tree, self.deals = tree, deals
        self.config = XFPConfig() if config is None else config
        self.iteration = 0
        self._row_actions = tree.infoset_actions()
        self.policy = uniform_strategy(self._row_actions, tree.max_actions)
        self._parent_row, self._parent_action = own_parents(tree, deals)
        self._row_order = np.argsort(tree.infoset_node(), kind="stable")
        self._reach = np.empty((tree.num_nodes, 1, deals.size))
        self._value = np.empty((tree.num_nodes, deals.size))
        self._choice = np.full(tree.num_infosets, -1, dtype=np.int64)
        self._own_reach = np.empty(tree.num_infosets)
        self._br_reach = np.empty(tree.num_infosets)

    def run(self, iterations: int) -> None:
        """Advance by ``iterations`` iterations."""
        if iterations < 0:
            raise ValueError(f"iterations must be non-negative, got {iterations}")
        tree, deals = self.tree, self.deals
        run_iterations(
            tree.kind, tree.player, tree.round, tree.first_child, tree.num_children,
            tree.contribution, tree.infoset_base, deals.buckets, deals.showdown, deals.weight,
            self.policy, self._row_actions, self._parent_row, self._parent_action,
            self._row_order, self.iteration + 1, iterations, self.config.step_exponent,
            self._reach, self._value, self._choice, self._own_reach, self._br_reach,
        )  # fmt: skip
        self.iteration += iterations

    def average_strategy(self) -> np.ndarray:
        """A copy of the average policy table."""
        return self.policy.copy()

    def game_value(self) -> float:
        """Player 0's expected utility under the average policy."""
        return expected_value(self.tree, self.deals, self.policy)
