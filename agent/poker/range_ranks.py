"""Each holding's place in weighted ranges, many ranges at once, compiled.

A range's percentile of a holding is the range's weight below it in strength order plus half
its own, over the range's whole weight (``agent.players.opponents.ranges``). Local best
response asks for it with one range per hole of ours: 1,326 ranges of 1,326 holdings. NumPy
then makes a cumulative sum, two temporaries and a scattered copy of 1.76 million numbers;
:func:`ordered_percentiles` does the sums, the division and the scatter in two passes over
each row, with NumPy's arithmetic in NumPy's order, so its numbers are NumPy's to the last
bit (:func:`gathered_percentiles` is NumPy's way, the cheaper for a single range).
:func:`band_values` then gives each holding one value inside a band of percentiles and another
outside it, in one pass where NumPy makes four.

>>> sorted_weights = np.array([[1.0, 1.0, 2.0], [0.0, 0.0, 0.0]])
>>> ordered_percentiles(sorted_weights, np.array([1, 2, 0])).tolist()
[[0.75, 0.125, 0.375], [0.5, 0.5, 0.5]]
>>> band_values(np.array([[0.1, 0.5, 0.9]]), 0.5, np.inf, 1.0, 0.25).tolist()
[[0.25, 1.0, 1.0]]
"""

from __future__ import annotations

import numpy as np
from numba import njit


def gathered_percentiles(weights: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The same percentiles by NumPy: ``weights`` (one range, or one a row) gathered in
    ``order``, their cumulative sums, and a scatter back. Cheaper than the compiled passes for
    a single range; for two or more its sums are those :func:`ordered_percentiles` makes.

    >>> gathered_percentiles(np.array([1.0, 1.0, 2.0]), np.array([1, 2, 0])).tolist()
    [0.875, 0.125, 0.5]
    """
    sorted_weights = weights[..., order]
    total = sorted_weights.sum(axis=-1, keepdims=True)
    cumulative = np.cumsum(sorted_weights, axis=-1) - 0.5 * sorted_weights
    middle = np.divide(cumulative, total, out=np.full_like(cumulative, 0.5), where=total > 0)
    result = np.empty_like(middle)
    result[..., order] = middle
    return result


def ordered_percentiles(sorted_weights: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Each row's percentiles, put back in holding order.

    ``sorted_weights``: one range per row, its holdings in ``order`` (weakest first);
    ``order``: the holding at each sorted position. Out: ``out[r, order[i]]`` is row ``r``'s
    running weight up to position ``i``, less half of position ``i``'s, over the row's total
    (0 or less gives every holding 0.5). The total and the running weight add the row in
    order, one holding after another: the sums NumPy makes over the columns of
    ``weights[..., order]``, a gather of two or more rows, which it lays out by column.
    """
    if sorted_weights.ndim != 2 or sorted_weights.shape[1] != len(order):
        raise ValueError(
            f"sorted weights of shape {sorted_weights.shape}: expected a row per range and "
            f"a column per holding ({len(order)})"
        )
    out = np.empty(sorted_weights.shape)
    _ordered_percentiles(
        np.ascontiguousarray(sorted_weights, dtype=np.float64),
        np.ascontiguousarray(order, dtype=np.int64),
        out,
    )
    return out


@njit(cache=True, nogil=True)
def _ordered_percentiles(sorted_weights: np.ndarray, order: np.ndarray, out: np.ndarray) -> None:
    rows, count = sorted_weights.shape
    for row in range(rows):
        total = 0.0
        for position in range(count):
            total += sorted_weights[row, position]
        running = 0.0
        for position in range(count):
            weight = sorted_weights[row, position]
            running += weight  # NumPy's cumulative sum: the same additions in the same order
            if total > 0:
                out[row, order[position]] = (running - 0.5 * weight) / total
            else:
                out[row, order[position]] = 0.5


def band_values(
    percentiles: np.ndarray, low: float, high: float, inside: float, outside: float
) -> np.ndarray:
    """``inside`` where ``low <= percentile < high``, else ``outside`` (a NaN is outside)."""
    out = np.empty(percentiles.shape)
    _band_values(
        np.ascontiguousarray(percentiles, dtype=np.float64).ravel(),
        float(low),
        float(high),
        float(inside),
        float(outside),
        out.ravel(),
    )
    return out


@njit(cache=True, nogil=True)
def _band_values(
    values: np.ndarray, low: float, high: float, inside: float, outside: float, out: np.ndarray
) -> None:
    for index in range(values.size):
        value = values[index]
        out[index] = inside if value >= low and value < high else outside
