"""The explicit stack of the sampling walks: entering a node, its next child, handing a value up.

External and outcome sampling (Lanctot et al. 2009, "Monte Carlo Sampling for Regret
Minimization in Extensive Games") and Deep CFR's traversals (Brown et al. 2019) walk one
deal depth first. The kernels keep the walk's stack in two arrays instead of recursing:
``frame[d] = (node, info-set row, next child, sampled child or -1)`` and ``values[d, k]``, the
value of child k of the node at depth d (d < ``blueprint.tree.MAX_DEPTH``). A kernel decides
what entering and leaving a decision mean (its regret and strategy updates); these functions
do the moving, so every walk moves the same way::

    frame, values = new_stack(num_children)
    push(frame, 0, root, row, chosen)
    d = 0
    while True:
        k = next_child(frame, values, num_children, d)
        if k == PASSED:
            continue
        if k >= 0:
            ...  # a terminal child: values[d, k] = its utility; a decision: push at d + 1
            continue
        result = ...  # the node's value from values[d], and its updates
        if d == 0:
            return result
        d = hand_up(frame, values, d, result)

They sit in the kernels' innermost loop, so numba inlines them where they are called. Each
kernel writes the loop out itself: numba does not cache a function that is handed its
entering and leaving functions as arguments, and the kernels are cached.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from blueprint.tree import MAX_DEPTH

DONE = -1  # from next_child: every child of the node has had its turn
PASSED = -2  # from next_child: this child is not the sampled one


@njit(cache=True, nogil=True)
def new_stack(num_children: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An empty stack for a tree: ``frame[MAX_DEPTH, 4]`` and ``values[MAX_DEPTH, width]``.

    ``width`` is the tree's most children at a node; a kernel's other per-depth rows (current
    strategies, sampling probabilities) take the shape of ``values``.
    """
    width = max(np.max(num_children), 1)
    return np.zeros((MAX_DEPTH, 4), dtype=np.int64), np.zeros((MAX_DEPTH, width))


@njit(cache=True, nogil=True, inline="always")
def push(frame: np.ndarray, d: int, node: int, row: int, chosen: int) -> None:
    """Enter decision ``node`` at depth ``d``: its row, no child walked yet, the sampled one."""
    frame[d, 0], frame[d, 1], frame[d, 2], frame[d, 3] = node, row, 0, chosen


@njit(cache=True, nogil=True, inline="always")
def next_child(frame: np.ndarray, values: np.ndarray, num_children: np.ndarray, d: int) -> int:
    """The next child k of depth ``d``'s node: k to walk it, ``PASSED``, or ``DONE``.

    Each child's value is 0 until it is walked; where a child was sampled (``frame[d, 3] >=
    0``) the others are ``PASSED`` over. ``DONE`` once every child has had its turn.
    """
    k = frame[d, 2]
    if k >= num_children[frame[d, 0]]:
        return DONE
    frame[d, 2] = k + 1
    values[d, k] = 0.0
    chosen = frame[d, 3]
    if chosen >= 0 and k != chosen:
        return PASSED
    return k


@njit(cache=True, nogil=True, inline="always")
def hand_up(frame: np.ndarray, values: np.ndarray, d: int, result: float) -> int:
    """Leave depth ``d`` > 0 with value ``result`` for the parent's child slot; the new depth."""
    values[d - 1, frame[d - 1, 2] - 1] = result
    return d - 1
