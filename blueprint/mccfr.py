"""Monte Carlo CFR kernels: external and outcome sampling over a batch of deals (and the registry).

Each deal of a batch is one iteration ``t = first_iteration + i``; player 0 then player 1 is
the traverser on that deal (alternating updates). Samples inside a kernel come from a
splitmix64 stream keyed by ``(seed, t)`` (``blueprint.streams``), so any iteration can be
replayed and the result does not depend on how iterations are split into batches or
processes. The walks keep an explicit stack (``blueprint.stack_walk``).

- Chance sampling (Zinkevich et al. 2007; Lanctot et al. 2009): the deal is the sample; both
  players' actions are walked full width with reach probabilities. It needs no stack and lives
  in ``blueprint.chance_sweep``; ``KERNELS`` names all three.
- External sampling (Lanctot et al. 2009, "Monte Carlo Sampling for Regret Minimization in
  Extensive Games"): the traverser's actions full width, the opponent's sampled from its
  current strategy; the opponent's strategy sum gets its current strategy ("simple"
  averaging, as in OpenSpiel).
- Outcome sampling (same paper): one trajectory, the traverser exploring epsilon-uniformly;
  regrets and strategy sums are importance weighted by the sampling probability.

Options: regret-matching+ (floor at 0 after each info-set update, Tammelin 2014); linear
weighting (iteration t's regret and strategy increments times t^e: e = 1 for both is Linear
CFR, Brown & Sandholm 2019, "Solving Imperfect-Information Games via Discounted Regret
Minimization"); discounting whole tables at intervals (``blueprint.regret.discount_regrets``
/ ``scale_table``, as Pluribus does, Brown & Sandholm 2019 Science) is the driver's job.

Negative-regret pruning (external sampling; Brown & Sandholm 2019, "Superhuman AI for
multiplayer poker", Science, supplement, MCCFR-P): after iteration ``prune_after``, each
traversal prunes with probability ``prune_share`` (Pluribus: 0.95). A pruning traverser does
not explore an action whose regret is below ``prune_threshold`` times iteration t's regret
weight t^e (so the threshold keeps its meaning under linear weighting) and does not update
that action's regret. Pluribus's rule is the regret test alone; here an action is skipped
only if its current probability is also 0 (which a regret below a negative threshold has,
unless no regret of its row is positive) and it does not end the hand, so every node value
a walk returns is exact. The other walks explore everything, which lets a pruned action's
regret recover. With regret-matching+ no regret is negative and nothing is pruned.

Kernel signature (all three, ``@njit(cache=True)``)::

    <name>_batch(kind, player, round, first_child, num_children, contribution, infoset_base,
                 buckets, showdown, regret, strategy_sum, seed, first_iteration,
                 rm_plus, regret_exponent, average_exponent, epsilon,
                 prune_share=0.0, prune_threshold=0.0, prune_after=0) -> float

``buckets: int32[B, 2, R]``, ``showdown: int8[B]`` (deal weights are 1: deals must be sampled
from chance); ``regret``/``strategy_sum``: float32 or float64 ``[num_infosets, max_actions]``
updated in place; ``epsilon`` is used by outcome sampling only, the pruning arguments by
external sampling only. Returns the mean over the batch of player 0's sampled value (a
progress signal, not an estimate of the game value for external and outcome sampling).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from blueprint.chance_sweep import chance_sampling_batch
from blueprint.regret import floor_row, regret_matching_row
from blueprint.stack_walk import PASSED, hand_up, new_stack, next_child, push
from blueprint.streams import iteration_state, sample, uniform
from blueprint.tree import DECISION, MAX_DEPTH, traverser_utility

EXTERNAL, OUTCOME = 1, 2


@njit(cache=True, nogil=True)
def _enter(
    d, node, method, traverser, kind, player, rnd, first_child, num_children, infoset_base,
    deal, regret, strategy_sum, w_average, epsilon, state, frame, sigma, behaviour,
):  # fmt: skip
    """Push decision ``node`` at depth ``d``: its row, current strategy and sampled child."""
    actor, count = player[node], num_children[node]
    row = infoset_base[node] + deal[actor, rnd[node]]
    regret_matching_row(regret, row, count, sigma[d])
    chosen = -1
    if method == EXTERNAL and actor != traverser:
        for k in range(count):
            strategy_sum[row, k] += w_average * sigma[d, k]
        chosen = sample(sigma[d], count, state)
    elif method == OUTCOME:
        for k in range(count):
            explore = epsilon / count + (1.0 - epsilon) * sigma[d, k]
            behaviour[d, k] = explore if actor == traverser else sigma[d, k]
        chosen = sample(behaviour[d], count, state)
    push(frame, d, node, row, chosen)


@njit(cache=True, nogil=True, inline="always")
def _pruned(kind, first_child, node, row, k, regret, sigma, floor):
    """Whether the traverser skips child ``k`` of ``node`` (negative-regret pruning).

    Only a child of probability 0 whose regret is below ``floor`` (``-inf``: no pruning)
    and that is not a terminal: the node's value is then exact, and only that action's
    regret update is left out (Brown & Sandholm 2019, Science, supplement).
    """
    return regret[row, k] < floor and sigma[k] == 0.0 and kind[first_child[node] + k] == DECISION


@njit(cache=True, nogil=True)
def _leave(
    d, method, traverser, kind, player, first_child, num_children, regret, strategy_sum,
    rm_plus, w_regret, w_average, floor, frame, sigma, behaviour, values, reach,
):  # fmt: skip
    """Pop depth ``d``: update its row's regrets and strategy sum; return the node's value."""
    node, row, chosen = frame[d, 0], frame[d, 1], frame[d, 3]
    count, mine = num_children[node], player[node] == traverser
    own, opp, sampled = reach[d, 0], reach[d, 1], reach[d, 2]
    if method == OUTCOME:
        action_value = values[d, chosen] / behaviour[d, chosen]
        total = sigma[d, chosen] * action_value
        if mine:
            scale = w_regret * opp / sampled
            for k in range(count):
                regret[row, k] -= scale * total
                strategy_sum[row, k] += w_average * own * sigma[d, k] / sampled
            regret[row, chosen] += scale * action_value
    elif method == EXTERNAL and not mine:
        return values[d, chosen]
    else:
        total = 0.0
        for k in range(count):
            total += sigma[d, k] * values[d, k]
        if mine:
            for k in range(count):
                if not _pruned(kind, first_child, node, row, k, regret, sigma[d], floor):
                    regret[row, k] += w_regret * (values[d, k] - total)
    if mine and rm_plus:
        floor_row(regret, row, count)
    return total


@njit(cache=True, nogil=True)
def _walk(
    method, traverser, kind, player, rnd, first_child, num_children, contribution,
    infoset_base, deal, showdown, regret, strategy_sum, rm_plus, w_regret, w_average,
    epsilon, floor, state, frame, sigma, behaviour, values, reach,
):  # fmt: skip
    """One traversal of one deal with an explicit stack; the traverser's root value.

    The traverser skips the children ``_pruned`` names (``floor`` = ``-inf``: none).
    """
    reach[0, 0], reach[0, 1], reach[0, 2] = 1.0, 1.0, 1.0
    _enter(0, 0, method, traverser, kind, player, rnd, first_child, num_children,
           infoset_base, deal, regret, strategy_sum, w_average, epsilon, state, frame,
           sigma, behaviour)  # fmt: skip
    d = 0
    while True:
        k = next_child(frame, values, num_children, d)
        if k == PASSED:
            continue
        if k >= 0:
            node = frame[d, 0]
            mine = player[node] == traverser
            if not mine and sigma[d, k] == 0.0:
                continue
            if mine and _pruned(kind, first_child, node, frame[d, 1], k, regret, sigma[d], floor):
                continue
            child = first_child[node] + k
            if kind[child] != DECISION:
                values[d, k] = traverser_utility(
                    kind, player, contribution, child, showdown, traverser
                )
                continue
            reach[d + 1, 0] = reach[d, 0] * (sigma[d, k] if mine else 1.0)
            reach[d + 1, 1] = reach[d, 1] * (1.0 if mine else sigma[d, k])
            reach[d + 1, 2] = reach[d, 2] * (behaviour[d, k] if method == OUTCOME else 1.0)
            d += 1
            _enter(d, child, method, traverser, kind, player, rnd, first_child, num_children,
                   infoset_base, deal, regret, strategy_sum, w_average, epsilon, state,
                   frame, sigma, behaviour)  # fmt: skip
            continue
        result = _leave(d, method, traverser, kind, player, first_child, num_children, regret,
                        strategy_sum, rm_plus, w_regret, w_average, floor, frame, sigma,
                        behaviour, values, reach)  # fmt: skip
        if d == 0:
            return result
        d = hand_up(frame, values, d, result)


@njit(cache=True, nogil=True)
def _run_batch(
    method, kind, player, rnd, first_child, num_children, contribution, infoset_base,
    buckets, showdown, regret, strategy_sum, seed, first_iteration,
    rm_plus, regret_exponent, average_exponent, epsilon, prune_share, prune_threshold,
    prune_after,
):  # fmt: skip
    """Shared batch loop: per deal (iteration t), a walk for player 0 then player 1.

    From iteration ``prune_after + 1`` on, a walk prunes with probability ``prune_share``,
    its floor ``prune_threshold`` times iteration t's regret weight. The draw comes from the
    iteration's stream only when pruning is on, so without pruning the walks sample the same
    actions whatever the pruning arguments.
    """
    frame, values = new_stack(num_children)
    sigma, behaviour = np.zeros_like(values), np.zeros_like(values)
    reach = np.zeros((MAX_DEPTH, 3))
    total = 0.0
    for i in range(buckets.shape[0]):
        t = first_iteration + i
        state = iteration_state(seed, t)
        w_regret, w_average = float(t) ** regret_exponent, float(t) ** average_exponent
        for traverser in range(2):
            floor = -np.inf
            pruning = method == EXTERNAL and prune_share > 0.0 and t > prune_after
            if pruning and uniform(state) < prune_share:
                floor = prune_threshold * w_regret
            value = _walk(
                method, traverser, kind, player, rnd, first_child, num_children, contribution,
                infoset_base, buckets[i], showdown[i], regret, strategy_sum, rm_plus,
                w_regret, w_average, epsilon, floor, state, frame, sigma, behaviour, values,
                reach,
            )  # fmt: skip
            if traverser == 0:
                total += value
    return total / max(buckets.shape[0], 1)


@njit(cache=True, nogil=True)
def external_sampling_batch(
    kind, player, rnd, first_child, num_children, contribution, infoset_base,
    buckets, showdown, regret, strategy_sum, seed, first_iteration,
    rm_plus, regret_exponent, average_exponent, epsilon,
    prune_share=0.0, prune_threshold=0.0, prune_after=0,
):  # fmt: skip
    """External-sampling MCCFR: per deal, one walk per traverser."""
    return _run_batch(
        EXTERNAL, kind, player, rnd, first_child, num_children, contribution, infoset_base,
        buckets, showdown, regret, strategy_sum, seed, first_iteration,
        rm_plus, regret_exponent, average_exponent, epsilon, prune_share, prune_threshold,
        prune_after,
    )  # fmt: skip


@njit(cache=True, nogil=True)
def outcome_sampling_batch(
    kind, player, rnd, first_child, num_children, contribution, infoset_base,
    buckets, showdown, regret, strategy_sum, seed, first_iteration,
    rm_plus, regret_exponent, average_exponent, epsilon,
    prune_share=0.0, prune_threshold=0.0, prune_after=0,
):  # fmt: skip
    """Outcome-sampling MCCFR: per deal, one epsilon-exploring trajectory per traverser."""
    return _run_batch(
        OUTCOME, kind, player, rnd, first_child, num_children, contribution, infoset_base,
        buckets, showdown, regret, strategy_sum, seed, first_iteration,
        rm_plus, regret_exponent, average_exponent, epsilon, prune_share, prune_threshold,
        prune_after,
    )  # fmt: skip


def check_pruning(method: str, rm_plus: bool, share: float, threshold: float, after: int) -> None:
    """Raise ValueError unless the pruning options make sense for ``method``.

    >>> check_pruning("external", False, 0.95, -500.0, 1000)
    >>> check_pruning("external", True, 0.95, -500.0, 0)
    Traceback (most recent call last):
    ...
    ValueError: pruning skips actions of negative regret; regret-matching+ keeps none
    """
    if not 0.0 <= share < 1.0:
        raise ValueError(f"the pruning share {share!r} must lie in [0, 1)")
    if not threshold < 0.0 or after < 0:
        raise ValueError(
            f"the pruning threshold {threshold!r} must be negative and the iterations before"
            f" pruning {after!r} non-negative"
        )
    if share > 0.0 and method != "external":
        raise ValueError(f"pruning is for external sampling, not {method!r}")
    if share > 0.0 and rm_plus:
        raise ValueError("pruning skips actions of negative regret; regret-matching+ keeps none")


KERNELS = {
    "chance": chance_sampling_batch,
    "external": external_sampling_batch,
    "outcome": outcome_sampling_batch,
}
