"""The explicit stack of the sampling walks: entering a node, its next child, handing a value up.

External and outcome sampling (Lanctot et al. 2009, "Monte Carlo Sampling for Regret
Minimization in Extensive Games") and Deep CFR's traversals (Brown et al. 2019) walk one
deal depth first. The kernels keep the walk's stack in two arrays instead of recursing:
``frame[d] = (node, info-set row, next child, sampled child or -1)`` and ``values[d, k]``, the
value of child k of the node at depth d (d < ``blueprint.tree.MAX_DEPTH``). A kernel decides
what entering and leaving a decision mean (its regret and strategy updates); these helpers
do the moving, so every walk moves the same way::

    frame, values = new_stack(num_children)
    push(frame, 0, root, row, chosen)
    d = 0
    while True:
        k = next_child(frame, values, num_children, d)
        if k >= 0:
            ...  # a terminal child: values[d, k] = its utility; a decision: push at d + 1
            continue
        result = ...  # the node's value from values[d], and its updates
        d = hand_up(frame, values, d, result)
        if d < 0:
            return result
"""

from __future__ import annotations

import numpy as np
from numba import njit

from blueprint.tree import MAX_DEPTH


@njit(cache=True, nogil=True)
def new_stack(num_children: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An empty stack for a tree: ``frame[MAX_DEPTH, 4]`` and ``values[MAX_DEPTH, width]``.

    ``width`` is the tree's most children at a node; a kernel's other per-depth rows (current
    strategies, sampling probabilities) take the shape of ``values``.
    """
    width = max(np.max(num_children), 1)
    return np.zeros((MAX_DEPTH, 4), dtype=np.int64), np.zeros((MAX_DEPTH, width))


@njit(cache=True, nogil=True)
def push(frame: np.ndarray, d: int, node: int, row: int, chosen: int) -> None:
    """Enter decision ``node`` at depth ``d``: its row, no child walked yet, the sampled one."""
    frame[d, 0], frame[d, 1], frame[d, 2], frame[d, 3] = node, row, 0, chosen


@njit(cache=True, nogil=True)
def next_child(frame: np.ndarray, values: np.ndarray, num_children: np.ndarray, d: int) -> int:
    """The index k of the next child to walk at depth ``d``, or -1 once all are done.

    Every child passed gets value 0 until it is walked; where a child was sampled
    (``frame[d, 3] >= 0``) the others are passed over.
    """
    count, chosen = num_children[frame[d, 0]], frame[d, 3]
    k = frame[d, 2]
    while k < count:
        values[d, k] = 0.0
        k += 1
        if chosen < 0 or k - 1 == chosen:
            frame[d, 2] = k
            return k - 1
    frame[d, 2] = k
    return -1


@njit(cache=True, nogil=True)
def hand_up(frame: np.ndarray, values: np.ndarray, d: int, result: float) -> int:
    """Leave depth ``d`` with value ``result`` for the parent's child slot; the new depth.

    -1 means the root was left and ``result`` is the walk's value.
    """
    if d > 0:
        values[d - 1, frame[d - 1, 2] - 1] = result
    return d - 1
