"""Chance-sampling MCCFR as two sweeps over the node arrays, with no stack and no recursion.

Chance sampling (Zinkevich et al. 2007; Lanctot et al., "Monte Carlo Sampling for Regret
Minimization in Extensive Games", NIPS 2009) walks one sampled deal full width: each
player's actions weighted by the current strategy. Nodes are listed parent first
(``blueprint.tree``), so the walk of one traverser is two passes over the node index:

1. forward, parents before children: each reached decision's row, its current strategy by
   regret matching, and both reach probabilities of its children. An opponent's action of
   probability 0 leaves its subtree unreached (it would change no regret);
2. backward, children before parents: terminal utilities, node values as the
   strategy-weighted sum of their children, and at the traverser's decisions the regret and
   strategy-sum updates (then the regret-matching+ floor when asked).

Within one pass every row is met at most once (a decision's rows are its own), so computing
all strategies before any update gives exactly the numbers of the recursive walk
(``tests.blueprint.reference_mccfr``). The player who is not traversing keeps its
regrets, so the second traverser reuses the strategies the first pass computed at its
decisions. The arrays a sweep needs are indexed by node and stay in the first-level cache;
only the deal's own rows of the tables are read from memory, and those of the next deal are
prefetched (``blueprint.prefetch``) while the current one runs.

Same signature as the kernels of ``blueprint.mccfr``::

    chance_sampling_batch(kind, player, round, first_child, num_children, contribution,
                          infoset_base, buckets, showdown, regret, strategy_sum, seed,
                          first_iteration, rm_plus, regret_exponent, average_exponent,
                          epsilon) -> float

(``seed`` and ``epsilon`` are unused: the deal is the only sample).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from blueprint.prefetch import prefetch_row
from blueprint.regret import floor_row, regret_matching_row
from blueprint.tree import DECISION, traverser_utility


@njit(cache=True, nogil=True)
def _prefetch(decisions, player, rnd, infoset_base, deal, regret, strategy_sum):
    """Start loading the rows a deal will read (see ``blueprint.prefetch``)."""
    for node in decisions:
        r = infoset_base[node] + deal[player[node], rnd[node]]
        prefetch_row(regret, r)
        prefetch_row(strategy_sum, r)


@njit(cache=True, nogil=True)
def _forward(
    traverser, decisions, player, rnd, first_child, num_children, infoset_base, deal, regret,
    reached, row, own, opp, sigma, fresh,
):  # fmt: skip
    """Rows, current strategies and reach probabilities of every reached decision."""
    reached[0], own[0], opp[0] = True, 1.0, 1.0
    for node in decisions:
        first, count = first_child[node], num_children[node]
        if not reached[node]:
            for k in range(count):
                reached[first + k] = False
            continue
        actor = player[node]
        if not fresh[node]:
            row[node] = infoset_base[node] + deal[actor, rnd[node]]
            regret_matching_row(regret, row[node], count, sigma[node])
            fresh[node] = actor != traverser  # still current in the other player's pass
        mine = actor == traverser
        for k in range(count):
            child, p = first + k, sigma[node, k]
            reached[child] = mine or p != 0.0
            own[child] = own[node] * p if mine else own[node]
            opp[child] = opp[node] if mine else opp[node] * p


@njit(cache=True, nogil=True)
def _backward(
    traverser, kind, player, first_child, num_children, contribution, showdown, regret,
    strategy_sum, rm_plus, w_regret, w_average, reached, row, own, opp, sigma, value,
):  # fmt: skip
    """Values bottom-up and the traverser's regret and strategy-sum updates; the root value."""
    for node in range(kind.shape[0] - 1, -1, -1):
        if not reached[node]:
            value[node] = 0.0
            continue
        if kind[node] != DECISION:
            value[node] = traverser_utility(kind, player, contribution, node, showdown, traverser)
            continue
        first, count = first_child[node], num_children[node]
        total = 0.0
        for k in range(count):
            total += sigma[node, k] * value[first + k]
        value[node] = total
        if player[node] != traverser:
            continue
        r, weight, average = row[node], w_regret * opp[node], w_average * own[node]
        for k in range(count):
            regret[r, k] += weight * (value[first + k] - total)
            strategy_sum[r, k] += average * sigma[node, k]
        if rm_plus:
            floor_row(regret, r, count)
    return value[0]


@njit(cache=True, nogil=True)
def chance_sampling_batch(
    kind, player, rnd, first_child, num_children, contribution, infoset_base,
    buckets, showdown, regret, strategy_sum, seed, first_iteration,
    rm_plus, regret_exponent, average_exponent, epsilon,
    prune_share=0.0, prune_threshold=0.0, prune_after=0,
):  # fmt: skip
    """Chance-sampled CFR: one full-width iteration per deal, player 0's pass then player 1's.

    ``epsilon`` and the pruning arguments are the other kernels' (``blueprint.mccfr``), unused.

    Returns the mean over the batch of player 0's value in its own pass.
    """
    n, width = kind.shape[0], max(np.max(num_children), 1)
    reached = np.zeros(n, dtype=np.bool_)
    fresh = np.zeros(n, dtype=np.bool_)
    row = np.zeros(n, dtype=np.int64)
    own, opp, value = np.zeros(n), np.zeros(n), np.zeros(n)
    sigma = np.zeros((n, width))
    decisions = np.flatnonzero(kind == DECISION)
    total = 0.0
    for i in range(buckets.shape[0]):
        t = first_iteration + i
        w_regret, w_average = float(t) ** regret_exponent, float(t) ** average_exponent
        fresh[:] = False
        if i + 1 < buckets.shape[0]:
            _prefetch(decisions, player, rnd, infoset_base, buckets[i + 1], regret, strategy_sum)
        for traverser in range(2):
            _forward(traverser, decisions, player, rnd, first_child, num_children, infoset_base,
                     buckets[i], regret, reached, row, own, opp, sigma, fresh)  # fmt: skip
            root = _backward(traverser, kind, player, first_child, num_children, contribution,
                             showdown[i], regret, strategy_sum, rm_plus, w_regret, w_average,
                             reached, row, own, opp, sigma, value)  # fmt: skip
            if traverser == 0:
                total += root
    return total / max(buckets.shape[0], 1)
