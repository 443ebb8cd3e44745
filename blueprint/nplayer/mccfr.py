"""External-sampling MCCFR for N players, as numba kernels over flat arrays.

External sampling (Lanctot et al. 2009, "Monte Carlo Sampling for Regret Minimization in
Extensive Games", Algorithm 1): in each iteration every player in turn is the *traverser*;
its actions are walked full width, every other player's action is sampled from its current
(regret-matching) strategy, and chance is sampled by the deal. The traverser's sampled
counterfactual regret ``v(a) - sum_b sigma(b) v(b)`` is added at each of its info sets. The
strategy sums follow "simple" averaging (as OpenSpiel does): at every sampled
(non-traverser) info set the actor's current strategy is added. The same algorithm is the
core of Pluribus's blueprint (Brown & Sandholm 2019, Science), which also weights iteration
t linearly (Linear CFR, Brown & Sandholm 2019, AAAI): here iteration t's regret and strategy
increments are multiplied by ``t ** regret_exponent`` and ``t ** average_exponent`` (1 and 1
= linear; 0 and 0 = plain MCCFR). Cumulative regrets are floored at ``regret_floor`` after
each update: 0 is regret-matching+ (Tammelin 2014), -inf plain regret matching.

Each iteration takes ``deals_per_iteration`` consecutive deals of the deal arrays (wrapping
round): all of them, with their chance weights, for a game whose deals are enumerated (a
sweep), or one sampled deal (weight 1) per iteration. Samples come from a splitmix64 stream
keyed by ``(seed, t)`` (``blueprint.streams``), so a run is reproducible and independent of
how the iterations are split into kernel calls. The walk keeps an explicit stack
(``blueprint.stack_walk``).

Kernel::

    external_sampling_kernel(kind, player, round, first_child, num_children, contribution,
        alive, infoset_base, buckets, ranks, weight, deals_per_iteration, iterations,
        regret, strategy_sum, seed, first_iteration, regret_exponent, average_exponent,
        regret_floor)
        -> float  # mean sampled root value of player 0 (a progress signal)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from blueprint.deals import Deals
from blueprint.regret import average_strategy, regret_matching_row
from blueprint.stack_walk import PASSED, hand_up, new_stack, next_child, push
from blueprint.streams import iteration_state, sample
from blueprint.tree import DECISION, BettingTree, terminal_utility


@njit(cache=True, nogil=True, inline="always")
def _enter(
    d, node, traverser, player, rnd, num_children, infoset_base, deal, regret, strategy_sum,
    w_average, state, frame, sigma,
):  # fmt: skip
    """Push decision ``node``: its current strategy; at another player's, a sampled action."""
    actor, count = player[node], num_children[node]
    row = infoset_base[node] + deal[actor, rnd[node]]
    regret_matching_row(regret, row, count, sigma[d])
    chosen = -1
    if actor != traverser:
        for a in range(count):
            strategy_sum[row, a] += w_average * sigma[d, a]
        chosen = sample(sigma[d], count, state)
    push(frame, d, node, row, chosen)


@njit(cache=True, nogil=True)
def _walk(
    traverser, kind, player, rnd, first_child, num_children, contribution, alive,
    infoset_base, deal, ranks, regret, strategy_sum, w_regret, w_average, floor, state,
    frame, sigma, values,
):  # fmt: skip
    """One external-sampling traversal of one deal; the traverser's sampled root value.

    ``sigma[d]`` holds the current strategy of the node at depth ``d`` of the stack.
    """
    _enter(0, 0, traverser, player, rnd, num_children, infoset_base, deal, regret,
           strategy_sum, w_average, state, frame, sigma)  # fmt: skip
    d = 0
    while True:
        k = next_child(frame, values, num_children, d)
        if k == PASSED:
            continue
        if k >= 0:
            child = first_child[frame[d, 0]] + k
            if kind[child] != DECISION:
                values[d, k] = terminal_utility(contribution, alive, child, ranks, traverser)
                continue
            d += 1
            _enter(d, child, traverser, player, rnd, num_children, infoset_base, deal, regret,
                   strategy_sum, w_average, state, frame, sigma)  # fmt: skip
            continue
        node, row, chosen = frame[d, 0], frame[d, 1], frame[d, 3]
        if chosen >= 0:
            result = values[d, chosen]
        else:
            result = 0.0
            for a in range(num_children[node]):
                result += sigma[d, a] * values[d, a]
            for a in range(num_children[node]):
                regret[row, a] = max(regret[row, a] + w_regret * (values[d, a] - result), floor)
        if d == 0:
            return result
        d = hand_up(frame, values, d, result)


@njit(cache=True, nogil=True)
def external_sampling_kernel(
    kind, player, rnd, first_child, num_children, contribution, alive, infoset_base,
    buckets, ranks, weight, deals_per_iteration, iterations, regret, strategy_sum, seed,
    first_iteration, regret_exponent, average_exponent, regret_floor,
):  # fmt: skip
    """Run ``iterations`` external-sampling iterations (see the module docstring)."""
    frame, values = new_stack(num_children)
    sigma = np.zeros_like(values)
    players, size = contribution.shape[1], buckets.shape[0]
    total = 0.0
    for i in range(iterations):
        t = first_iteration + i
        state = iteration_state(seed, t)
        start = (i * deals_per_iteration) % size
        for traverser in range(players):
            for j in range(deals_per_iteration):
                deal = (start + j) % size
                w_regret = weight[deal] * float(t) ** regret_exponent
                w_average = weight[deal] * float(t) ** average_exponent
                value = _walk(
                    traverser, kind, player, rnd, first_child, num_children, contribution,
                    alive, infoset_base, buckets[deal], ranks[deal], regret, strategy_sum,
                    w_regret, w_average, regret_floor, state, frame, sigma, values,
                )  # fmt: skip
                if traverser == 0:
                    total += weight[deal] * value
    return total / max(iterations, 1)


def external_sampling(
    tree: BettingTree,
    deals: Deals,
    regret: np.ndarray,
    strategy_sum: np.ndarray,
    *,
    seed: int,
    first_iteration: int,
    iterations: int,
    deals_per_iteration: int,
    linear: bool = True,
    rm_plus: bool = False,
) -> float:
    """Run external-sampling MCCFR iterations in place on ``regret`` and ``strategy_sum``.

    ``first_iteration`` starts at 1 (linear weights are t). For a sweep pass all enumerated
    deals with ``deals_per_iteration = deals.size``; for sampled deals (weight 1) use 1.
    ``linear`` weights iteration t by t; ``rm_plus`` floors regrets at 0.
    Returns the mean sampled root value of player 0 (a progress signal).
    """
    if first_iteration < 1 or iterations < 0:
        raise ValueError("first_iteration must be >= 1 and iterations >= 0")
    if not 1 <= deals_per_iteration <= deals.size:
        raise ValueError(f"deals_per_iteration must lie in 1..{deals.size}")
    exponent = 1.0 if linear else 0.0
    return float(
        external_sampling_kernel(  # type: ignore[call-arg]
            *tree.kernel_arrays(),
            deals.buckets,
            deals.ranks,
            deals.weight,
            deals_per_iteration,
            iterations,
            regret,
            strategy_sum,
            seed,
            first_iteration,
            exponent,
            exponent,
            0.0 if rm_plus else -np.inf,
        )
    )


def solve_sweep(
    tree: BettingTree, deals: Deals, iterations: int, seed: int, linear: bool = True
) -> np.ndarray:
    """External-sampling MCCFR sweeping all enumerated deals each iteration.

    Returns the average strategy table ``float64[num_infosets, max_actions]``.
    """
    deals.check_against(tree)
    regret, strategy_sum = tree.new_table(), tree.new_table()
    external_sampling(
        tree, deals, regret, strategy_sum, seed=seed, first_iteration=1,
        iterations=iterations, deals_per_iteration=deals.size, linear=linear,
    )  # fmt: skip
    return average_strategy(strategy_sum, tree.infoset_actions())
