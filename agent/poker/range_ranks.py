"""Each holding's place in weighted ranges, many ranges at once, compiled.

A range's percentile of a holding is the range's weight below it in strength order plus half
its own, over the range's whole weight (``agent.players.opponents.ranges``). Local best
response asks for it with one range per hole of ours: 1,326 ranges of 1,326 holdings. NumPy
then makes a cumulative sum, two temporaries and a scattered copy of 1.76 million numbers;
:func:`ordered_percentiles` does the running sum, the division and the scatter in one pass,
with the same arithmetic in the same order, so its numbers are NumPy's to the last bit.

>>> sorted_weights = np.array([[1.0, 1.0, 2.0], [0.0, 0.0, 0.0]])
>>> ordered_percentiles(sorted_weights, sorted_weights.sum(axis=1), np.array([1, 2, 0])).tolist()
[[0.75, 0.125, 0.375], [0.5, 0.5, 0.5]]
"""

from __future__ import annotations

import numpy as np
from numba import njit


def ordered_percentiles(
    sorted_weights: np.ndarray, totals: np.ndarray, order: np.ndarray
) -> np.ndarray:
    """Each row's percentiles, put back in holding order.

    ``sorted_weights``: one range per row, its holdings in ``order`` (weakest first);
    ``totals``: each row's weight (0 or less gives every holding 0.5); ``order``: the holding
    at each sorted position. Out: ``out[r, order[i]]`` is row ``r``'s running weight up to
    position ``i``, less half of position ``i``'s, over the row's total.
    """
    if sorted_weights.ndim != 2 or sorted_weights.shape != (len(totals), len(order)):
        raise ValueError(
            f"sorted weights of shape {sorted_weights.shape}: expected "
            f"({len(totals)}, {len(order)}), a row per total and a column per holding"
        )
    out = np.empty_like(sorted_weights, dtype=np.float64)
    _ordered_percentiles(
        np.ascontiguousarray(sorted_weights, dtype=np.float64),
        np.ascontiguousarray(totals, dtype=np.float64),
        np.ascontiguousarray(order, dtype=np.int64),
        out,
    )
    return out


@njit(cache=True, nogil=True)
def _ordered_percentiles(
    sorted_weights: np.ndarray, totals: np.ndarray, order: np.ndarray, out: np.ndarray
) -> None:
    rows, count = sorted_weights.shape
    for row in range(rows):
        total = totals[row]
        running = 0.0
        for position in range(count):
            weight = sorted_weights[row, position]
            running += weight  # NumPy's cumulative sum: the same additions in the same order
            if total > 0:
                out[row, order[position]] = (running - 0.5 * weight) / total
            else:
                out[row, order[position]] = 0.5
