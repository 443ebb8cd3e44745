"""External-sampling traversals that emit Deep CFR's training samples instead of updating tables.

Algorithm 2 of Brown, Lerer, Gross & Sandholm 2019 ("Deep Counterfactual Regret
Minimization"): the traverser's actions are walked full width, the opponent's sampled from its
current strategy (Lanctot et al. 2009). At each traverser decision the sampled instantaneous
regrets ``v(I, a) - sum_b sigma(I, b) v(I, b)`` become an advantage sample; at each opponent
decision its current strategy becomes an average-strategy sample. The current strategy of
every info-set row is given as a table (regret matching on the advantage networks, evaluated
once per iteration: the games are small enough to tabulate every row).

Kernel::

    traverse(kind, player, round, first_child, num_children, contribution, infoset_base,
             buckets, showdown, strategy, traverser, seed,
             regret_rows, regret_values, strategy_rows, strategy_values) -> (regrets, strategies)

``buckets[K, 2, R]`` and ``showdown[K]`` are the K sampled deals (one traversal each);
``strategy[num_infosets, max_actions]`` the current strategy; samples are written to the
``*_rows`` / ``*_values`` arrays (room for K x decision nodes each) and their counts returned.
Opponent actions come from the splitmix64 stream keyed by ``(seed, traversal index)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agent.poker.equity import copy_into
from blueprint.stack_walk import PASSED, hand_up, new_stack, next_child, push
from blueprint.streams import iteration_state, sample
from blueprint.tree import DECISION, traverser_utility


@njit(cache=True, nogil=True, inline="always")
def _enter(
    d, node, traverser, player, rnd, num_children, infoset_base, deal, strategy, state,
    frame, strategy_rows, strategy_values, counts,
):  # fmt: skip
    """Push decision ``node``; at the opponent's, record its strategy and sample an action."""
    actor = player[node]
    row = infoset_base[node] + deal[actor, rnd[node]]
    chosen = -1
    if actor != traverser:
        n = counts[1]
        strategy_rows[n] = row
        copy_into(strategy_values[n], 0, strategy[row])
        counts[1] = n + 1
        chosen = sample(strategy[row], num_children[node], state)
    push(frame, d, node, row, chosen)


@njit(cache=True, nogil=True)
def _walk(
    traverser, kind, player, rnd, first_child, num_children, contribution, infoset_base,
    deal, showdown, strategy, state, frame, values,
    regret_rows, regret_values, strategy_rows, strategy_values, counts,
):  # fmt: skip
    """One traversal with an explicit stack; returns the traverser's sampled root value."""
    d = 0
    _enter(0, 0, traverser, player, rnd, num_children, infoset_base, deal, strategy, state,
           frame, strategy_rows, strategy_values, counts)  # fmt: skip
    while True:
        k = next_child(frame, values, num_children, d)
        if k == PASSED:
            continue
        if k >= 0:
            child = first_child[frame[d, 0]] + k
            if kind[child] == DECISION:
                d += 1
                _enter(d, child, traverser, player, rnd, num_children, infoset_base, deal,
                       strategy, state, frame, strategy_rows, strategy_values,
                       counts)  # fmt: skip
            else:
                values[d, k] = traverser_utility(
                    kind, player, contribution, child, showdown, traverser
                )
            continue
        result = _leave(d, num_children, strategy, frame, values, regret_rows, regret_values,
                        counts)  # fmt: skip
        if d == 0:
            return result
        d = hand_up(frame, values, d, result)


@njit(cache=True, nogil=True, inline="always")
def _leave(d, num_children, strategy, frame, values, regret_rows, regret_values, counts):
    """The value of depth ``d``'s node; at the traverser's, record its sampled regrets."""
    node, row, chosen = frame[d, 0], frame[d, 1], frame[d, 3]
    if chosen >= 0:
        return values[d, chosen]
    count = num_children[node]
    result = 0.0
    for a in range(count):
        result += strategy[row, a] * values[d, a]
    n = counts[0]
    regret_rows[n] = row
    regret_values[n, :] = 0.0
    for a in range(count):
        regret_values[n, a] = values[d, a] - result
    counts[0] = n + 1
    return result


@njit(cache=True, nogil=True)
def traverse(
    kind, player, rnd, first_child, num_children, contribution, infoset_base,
    buckets, showdown, strategy, traverser, seed,
    regret_rows, regret_values, strategy_rows, strategy_values,
):  # fmt: skip
    """K traversals for ``traverser``, one per sampled deal; the sample counts written."""
    frame, values = new_stack(num_children)
    counts = np.zeros(2, dtype=np.int64)
    for i in range(buckets.shape[0]):
        state = iteration_state(seed, i)
        _walk(
            traverser, kind, player, rnd, first_child, num_children, contribution,
            infoset_base, buckets[i], showdown[i], strategy, state, frame, values,
            regret_rows, regret_values, strategy_rows, strategy_values, counts,
        )  # fmt: skip
    return counts[0], counts[1]
