"""Exact best response, NashConv, exploitability (mbb/g) and the expected value of a profile.

For any game whose deals can be enumerated, one bottom-up pass over the public tree with a
vector over deals computes a best response (Johanson et al. 2011, "Accelerating Best Response
Calculation in Large Extensive Games": walk the public tree, keep vectors over private
states). A forward pass (``blueprint.reach``) gives each node's opponent reach per deal;
the backward pass values terminals per deal, averages opponent decisions under the policy,
and at each best-responder decision picks, per (node, bucket), the action maximising the
sum over the deals holding that bucket of chance x opponent reach x value.

NashConv = sum over players of (best-response value - profile value) = BR_0 + BR_1 in a
zero-sum game; exploitability = NashConv / 2; mbb/g = 1000 x exploitability in chips for an
ante (blind unit) of 1.

Kernel: ``profile_pass(kind, player, round, first_child, num_children, contribution,
infoset_base, buckets, showdown, weight, policy, responder, reach, value, choice)`` fills
``reach[N, 1, D]`` and ``value[N, D]`` with the responder's values (``responder`` = -1:
player 0's values under the policy alone) and returns the chance-weighted root value.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from blueprint.deals import Deals
from blueprint.reach import forward_reach, responder_slots
from blueprint.tree import DECISION, BettingTree, terminal_value


@njit(cache=True, nogil=True)
def profile_pass(
    kind,
    player,
    rnd,
    first_child,
    num_children,
    contribution,
    infoset_base,
    buckets,
    showdown,
    weight,
    policy,
    responder,
    reach,
    value,
    choice,
):
    """Values of the responder (or of player 0 when ``responder`` < 0); root value returned.

    ``choice[row]`` receives the best response's action at each responder info-set row.
    """
    deals = buckets.shape[0]
    forward_reach(kind, player, rnd, first_child, num_children, infoset_base, buckets, policy,
                  responder_slots(2, responder), reach)  # fmt: skip
    sign = -1.0 if responder == 1 else 1.0
    for node in range(kind.shape[0] - 1, -1, -1):
        if kind[node] != DECISION:
            for d in range(deals):
                value[node, d] = sign * terminal_value(
                    kind[node], player[node], contribution[node, 0], contribution[node, 1],
                    showdown[d],
                )  # fmt: skip
            continue
        actor, first, count = player[node], first_child[node], num_children[node]
        if actor != responder:
            for d in range(deals):
                row = infoset_base[node] + buckets[d, actor, rnd[node]]
                total = 0.0
                for k in range(count):
                    total += policy[row, k] * value[first + k, d]
                value[node, d] = total
            continue
        _best_choice(node, actor, first, count, rnd[node], infoset_base, buckets, weight,
                     reach, value, choice)  # fmt: skip
    root = 0.0
    for d in range(deals):
        root += weight[d] * value[0, d]
    return root


@njit(cache=True, nogil=True)
def _best_choice(
    node, actor, first, count, rnd, infoset_base, buckets, weight, reach, value, choice
):
    """At a responder decision: per bucket, the action of highest counterfactual value."""
    deals = buckets.shape[0]
    base = infoset_base[node]
    num_rows = 0
    for d in range(deals):
        num_rows = max(num_rows, buckets[d, actor, rnd] + 1)
    gains = np.zeros((num_rows, count))
    for d in range(deals):
        cf = weight[d] * reach[node, 0, d]
        b = buckets[d, actor, rnd]
        for k in range(count):
            gains[b, k] += cf * value[first + k, d]
    for b in range(num_rows):
        best = 0
        for k in range(1, count):
            if gains[b, k] > gains[b, best]:
                best = k
        choice[base + b] = best
    for d in range(deals):
        value[node, d] = value[first + choice[base + buckets[d, actor, rnd]], d]


def _run(
    tree: BettingTree, deals: Deals, policy: np.ndarray, responder: int
) -> tuple[float, np.ndarray]:
    """One profile pass; returns the root value and the responder's choices."""
    deals.check_against(tree)
    table = np.ascontiguousarray(policy, dtype=np.float64)
    if table.shape != (tree.num_infosets, tree.max_actions):
        expected = (tree.num_infosets, tree.max_actions)
        raise ValueError(f"policy has shape {table.shape}, expected {expected}")
    reach = np.empty((tree.num_nodes, 1, deals.size))
    value = np.empty((tree.num_nodes, deals.size))
    choice = np.full(tree.num_infosets, -1, dtype=np.int64)
    root = profile_pass(
        tree.kind, tree.player, tree.round, tree.first_child, tree.num_children,
        tree.contribution, tree.infoset_base, deals.buckets, deals.showdown, deals.weight,
        table, responder, reach, value, choice,
    )  # fmt: skip
    return float(root), choice


def expected_value(tree: BettingTree, deals: Deals, policy: np.ndarray) -> float:
    """Player 0's expected utility when both players follow ``policy``."""
    return _run(tree, deals, policy, -1)[0]


def best_response_value(
    tree: BettingTree, deals: Deals, policy: np.ndarray, responder: int
) -> float:
    """The expected utility of ``responder``'s best response to the opponent's ``policy``."""
    if responder not in (0, 1):
        raise ValueError(f"responder must be 0 or 1, got {responder}")
    return _run(tree, deals, policy, responder)[0]


def best_response(
    tree: BettingTree, deals: Deals, policy: np.ndarray, responder: int
) -> np.ndarray:
    """A pure best response of ``responder`` as a strategy table (rows of the opponent: 0)."""
    if responder not in (0, 1):
        raise ValueError(f"responder must be 0 or 1, got {responder}")
    _, choice = _run(tree, deals, policy, responder)
    table = tree.new_table()
    rows = np.flatnonzero(choice >= 0)
    table[rows, choice[rows]] = 1.0
    return table


def nash_conv(tree: BettingTree, deals: Deals, policy: np.ndarray) -> float:
    """Sum of both players' best-response gains against ``policy`` (0 at an equilibrium)."""
    return best_response_value(tree, deals, policy, 0) + best_response_value(tree, deals, policy, 1)


def exploitability(tree: BettingTree, deals: Deals, policy: np.ndarray) -> float:
    """NashConv / 2, in chips."""
    return nash_conv(tree, deals, policy) / 2.0


def to_mbb(chips: float, big_blind: float = 1.0) -> float:
    """Chips to milli-big-blinds (the ante is the unit in Kuhn and Leduc).

    >>> to_mbb(0.0125)
    12.5
    """
    return 1000.0 * chips / big_blind
