"""Exact N-player best response, expected values and NashConv for enumerable deals.

One forward and one backward pass over the public tree with a vector over deals (Johanson
et al. 2011, "Accelerating Best Response Calculation in Large Extensive Games"), generalised
to P players: the forward pass (``blueprint.reach``) gives each node's reach under every
player but the responder (``reach[N, 1, D]``; chance enters as the deal weight); the
backward pass values every node for every player (``value[N, D, P]``), averaging the
non-responders' decisions under the policy and, at each responder decision, taking for each
of its buckets the action that maximises
sum over the deals holding that bucket of weight x reach x responder value.

With the others fixed, player i's gain is ``BR_i - u_i``; NashConv = sum over players of
the gains (0 exactly at a Nash equilibrium; Lanctot et al. 2017 for the name).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agent.poker.equity import copy_into
from blueprint.deals import Deals
from blueprint.reach import forward_reach, responder_slots
from blueprint.tree import DECISION, BettingTree, terminal_utility


@njit(cache=True, nogil=True)
def _backward(kind, player, rnd, first_child, num_children, contribution, alive,
              infoset_base, num_buckets, buckets, ranks, weight, policy, responder, reach,
              value):  # fmt: skip
    """Fill value[N, D, P] bottom up; the responder (>= 0) best-responds per bucket."""
    players, size = contribution.shape[1], buckets.shape[0]
    score = np.zeros((np.max(num_buckets), np.max(num_children)))
    for node in range(kind.shape[0] - 1, -1, -1):
        if kind[node] != DECISION:
            for d in range(size):
                for p in range(players):
                    value[node, d, p] = terminal_utility(contribution, alive, node, ranks[d], p)
            continue
        actor, count, first = player[node], num_children[node], first_child[node]
        if actor == responder:
            score[:, :] = 0.0
            for d in range(size):
                b = buckets[d, actor, rnd[node]]
                for k in range(count):
                    score[b, k] += weight[d] * reach[node, 0, d] * value[first + k, d, actor]
            for d in range(size):
                b = buckets[d, actor, rnd[node]]
                best = 0
                for k in range(1, count):
                    if score[b, k] > score[b, best] + 1e-12:
                        best = k
                copy_into(value[node, d], 0, value[first + best, d])
            continue
        for d in range(size):
            row = infoset_base[node] + buckets[d, actor, rnd[node]]
            for p in range(players):
                total = 0.0
                for k in range(count):
                    total += policy[row, k] * value[first + k, d, p]
                value[node, d, p] = total


def _root_values(tree: BettingTree, deals: Deals, policy: np.ndarray, responder: int):
    """Chance-weighted root values of every player (responder -1: the profile itself)."""
    deals.check_against(tree)
    table = np.ascontiguousarray(policy, dtype=np.float64)
    if table.shape != (tree.num_infosets, tree.max_actions):
        raise ValueError(f"policy has shape {table.shape}, expected "
                         f"{(tree.num_infosets, tree.max_actions)}")  # fmt: skip
    reach = np.zeros((tree.num_nodes, 1, deals.size))
    value = np.zeros((tree.num_nodes, deals.size, tree.num_players))
    kind, player, rnd, first, count, contribution, alive, base = tree.kernel_arrays()
    slot = responder_slots(tree.num_players, responder)
    forward_reach(kind, player, rnd, first, count, base, deals.buckets, table, slot, reach)
    _backward(kind, player, rnd, first, count, contribution, alive, base, tree.num_buckets,
              deals.buckets, deals.ranks, deals.weight, table, responder, reach,
              value)  # fmt: skip
    return deals.weight @ value[0]


def expected_values(tree: BettingTree, deals: Deals, policy: np.ndarray) -> np.ndarray:
    """Every player's expected utility under the profile ``policy``: ``float64[P]``."""
    return _root_values(tree, deals, policy, -1)


def best_response_value(
    tree: BettingTree, deals: Deals, policy: np.ndarray, responder: int
) -> float:
    """Player ``responder``'s best-response value against the others' ``policy``."""
    if not 0 <= responder < tree.num_players:
        raise ValueError(f"responder must lie in 0..{tree.num_players - 1}")
    return float(_root_values(tree, deals, policy, responder)[responder])


def best_response_gains(tree: BettingTree, deals: Deals, policy: np.ndarray) -> np.ndarray:
    """Each player's gain from deviating to a best response: ``float64[P]``, all >= 0."""
    values = expected_values(tree, deals, policy)
    best = [best_response_value(tree, deals, policy, p) for p in range(tree.num_players)]
    return np.maximum(np.array(best) - values, 0.0)


def nash_conv(tree: BettingTree, deals: Deals, policy: np.ndarray) -> float:
    """NashConv: the sum over players of their best-response gains."""
    return float(best_response_gains(tree, deals, policy).sum())
