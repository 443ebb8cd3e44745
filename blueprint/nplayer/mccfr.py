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
keyed by ``(seed, t)``, so a run is reproducible and independent of how the iterations are
split into kernel calls.

Kernel::

    external_sampling_kernel(kind, player, round, first_child, num_children, contribution,
        alive, infoset_base, buckets, ranks, weight, deals_per_iteration, iterations,
        regret, strategy_sum, seed, first_iteration, regret_exponent, average_exponent,
        regret_floor)
        -> float  # mean sampled root value of player 0 (a progress signal)
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from agent.poker.rng import GOLDEN, mix
from blueprint.nplayer.deals import NDeals
from blueprint.nplayer.tree import DECISION, MAX_DEPTH, NPlayerTree, terminal_utility
from blueprint.regret import average_strategy

_GOLDEN = uint64(GOLDEN)


@njit(cache=True, nogil=True)
def iteration_state(seed: int, iteration: int) -> np.ndarray:
    """A one-word RNG state for iteration ``iteration`` of the stream ``seed``."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = mix(uint64(seed) ^ mix(uint64(iteration) * _GOLDEN))
    return state


@njit(cache=True, nogil=True)
def uniform(state: np.ndarray) -> float:
    """A float in [0, 1) from the state (advanced in place)."""
    state[0] += _GOLDEN
    return float(mix(state[0]) >> uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def _walk(
    traverser, kind, player, rnd, first_child, num_children, contribution, alive,
    infoset_base, deal, ranks, regret, strategy_sum, w_regret, w_average, floor, state,
    frame, sigma, values,
):  # fmt: skip
    """One external-sampling traversal of one deal; the traverser's sampled root value.

    An explicit stack: ``frame[d]`` = (node, info-set row, next child, sampled child or -1
    at the traverser's nodes); ``sigma[d]`` the current strategy, ``values[d]`` the
    children's values. Entering a node is written out inline: this is the hot loop.
    """
    d, node, entering = 0, 0, True
    while True:
        if entering:
            entering = False
            actor, count = player[node], num_children[node]
            row = infoset_base[node] + deal[actor, rnd[node]]
            frame[d, 0], frame[d, 1], frame[d, 2], frame[d, 3] = node, row, 0, -1
            positive = 0.0
            for a in range(count):
                if regret[row, a] > 0.0:
                    positive += regret[row, a]
            for a in range(count):
                if positive > 0.0:
                    sigma[d, a] = max(regret[row, a], 0.0) / positive
                else:
                    sigma[d, a] = 1.0 / count
            if actor != traverser:
                for a in range(count):
                    strategy_sum[row, a] += w_average * sigma[d, a]
                u = uniform(state)
                chosen, total = count - 1, 0.0
                for a in range(count - 1):
                    total += sigma[d, a]
                    if u < total:
                        chosen = a
                        break
                frame[d, 3] = chosen
        node, k, chosen = frame[d, 0], frame[d, 2], frame[d, 3]
        count = num_children[node]
        if k < count:
            frame[d, 2] += 1
            values[d, k] = 0.0
            if chosen >= 0 and k != chosen:
                continue
            child = first_child[node] + k
            if kind[child] != DECISION:
                values[d, k] = terminal_utility(contribution, alive, child, ranks, traverser)
                continue
            d, node, entering = d + 1, child, True
            continue
        if chosen >= 0:
            result = values[d, chosen]
        else:
            result = 0.0
            for a in range(count):
                result += sigma[d, a] * values[d, a]
            row = frame[d, 1]
            for a in range(count):
                regret[row, a] = max(regret[row, a] + w_regret * (values[d, a] - result), floor)
        if d == 0:
            return result
        d -= 1
        values[d, frame[d, 2] - 1] = result


@njit(cache=True, nogil=True)
def external_sampling_kernel(
    kind, player, rnd, first_child, num_children, contribution, alive, infoset_base,
    buckets, ranks, weight, deals_per_iteration, iterations, regret, strategy_sum, seed,
    first_iteration, regret_exponent, average_exponent, regret_floor,
):  # fmt: skip
    """Run ``iterations`` external-sampling iterations (see the module docstring)."""
    width = max(np.max(num_children), 1)
    frame = np.zeros((MAX_DEPTH, 4), dtype=np.int64)
    sigma = np.zeros((MAX_DEPTH, width))
    values = np.zeros((MAX_DEPTH, width))
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
    tree: NPlayerTree,
    deals: NDeals,
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
    tree: NPlayerTree, deals: NDeals, iterations: int, seed: int, linear: bool = True
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
