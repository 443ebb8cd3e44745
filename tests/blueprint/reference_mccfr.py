"""The oracle: chance-sampling MCCFR written plainly in Python, one recursive walk per player.

This is the algorithm of da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo
Simulations", Cardiff University (CM3203), its Figure 16 (after Lanctot et al. 2009), on our
tree arrays,
with the conventions of the compiled kernels: iterations counted from 1, for each sampled
deal player 0's pass then player 1's, the current strategy by regret matching of the
regrets as they stand before the pass, regret += opponent reach x (action value - node
value), strategy sum += t^gamma x own reach x current strategy at the updating player's
rows, and regret-matching+ flooring after each pass when asked; like the kernel, it does not
walk an opponent's actions of probability 0 (they change no regret). The compiled solver
(``blueprint.chance_sweep``) must give the same tables on the same deals, which the tests
check; ``bench/train.py`` times it against the kernel.
"""

from __future__ import annotations

import numpy as np

from blueprint.tree import DECISION, FOLD


def _strategy(regret: np.ndarray, row: int, count: int) -> list[float]:
    positive = [max(float(regret[row, k]), 0.0) for k in range(count)]
    total = sum(positive)
    if total > 0:
        return [p / total for p in positive]
    return [1.0 / count] * count


def _terminal(tree, node: int, showdown: int) -> float:
    c0, c1 = float(tree.contribution[node, 0]), float(tree.contribution[node, 1])
    if tree.kind[node] == FOLD:
        return -c0 if tree.player[node] == 0 else c1
    if showdown > 0:
        return c1
    if showdown < 0:
        return -c0
    return 0.5 * (c1 - c0)


def walk(tree, regret, strategy_sum, buckets, showdown, traverser, node, own, opp, weight, plus):
    """Player 0's value of ``node`` under the current strategy; updates ``traverser``'s rows."""
    if tree.kind[node] != DECISION:
        return _terminal(tree, node, showdown)
    actor = int(tree.player[node])
    row = int(tree.infoset_base[node]) + int(buckets[actor, tree.round[node]])
    count, first = int(tree.num_children[node]), int(tree.first_child[node])
    sigma = _strategy(regret, row, count)
    values = []
    for k in range(count):
        if actor == traverser:
            child = walk(tree, regret, strategy_sum, buckets, showdown, traverser,
                         first + k, own * sigma[k], opp, weight, plus)  # fmt: skip
        elif sigma[k] > 0:  # the kernel skips opponent actions of probability 0
            child = walk(tree, regret, strategy_sum, buckets, showdown, traverser,
                         first + k, own, opp * sigma[k], weight, plus)  # fmt: skip
        else:
            child = 0.0
        values.append(child)
    value = sum(s * v for s, v in zip(sigma, values, strict=True))
    if actor == traverser:
        sign = 1.0 if actor == 0 else -1.0
        for k in range(count):
            regret[row, k] += sign * opp * (values[k] - value)
            if plus and regret[row, k] < 0:  # RM+: a row is met once a pass, so this
                regret[row, k] = 0.0  # equals flooring the player's rows after the pass
            strategy_sum[row, k] += weight * own * sigma[k]
    return value


def reference_iterations(
    tree, regret, strategy_sum, buckets, showdown, first_iteration, rm_plus=True, gamma=1.0
):
    """Run one chance-sampled iteration per deal, numbered from ``first_iteration``.

    Returns the sum over iterations of player 0's value in player 0's pass.
    """
    total = 0.0
    for d in range(len(showdown)):
        weight = float(first_iteration + d) ** gamma
        for traverser in (0, 1):
            value = walk(tree, regret, strategy_sum, buckets[d], int(showdown[d]), traverser,
                         0, 1.0, 1.0, weight, rm_plus)  # fmt: skip
            if traverser == 0:
                total += value
    return total
