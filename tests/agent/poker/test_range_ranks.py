"""Percentiles of many weighted ranges at once: NumPy's numbers, to the last bit."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.range_ranks import ordered_percentiles


def numpy_percentiles(sorted_weights: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The same percentiles by NumPy's cumulative sum and scatter."""
    total = sorted_weights.sum(axis=-1, keepdims=True)
    cumulative = np.cumsum(sorted_weights, axis=-1) - 0.5 * sorted_weights
    middle = np.divide(cumulative, total, out=np.full_like(cumulative, 0.5), where=total > 0)
    result = np.empty_like(middle)
    result[..., order] = middle
    return result


def test_each_holding_gets_the_weight_below_it_and_half_its_own():
    # holding 2 is the weakest (weight 1), then 0 (weight 2), then 1 (weight 1): total 4
    sorted_weights = np.array([[1.0, 2.0, 1.0]])
    out = ordered_percentiles(sorted_weights, np.array([4.0]), np.array([2, 0, 1]))
    assert out.tolist() == [[(1.0 + 1.0) / 4, (3.0 + 0.5) / 4, 0.5 / 4]]


def test_ranges_of_every_hole_match_numpy_bit_for_bit():
    rng = np.random.default_rng(3)
    weights = rng.random((1326, 1326)) * rng.random(1326)[:, np.newaxis]
    weights[weights < 0.2] = 0.0  # the holdings each hole blocks, and those folded away
    weights[7] = 0.0  # a hole that leaves the range nothing: every holding 0.5
    order = np.argsort(np.round(rng.random(1326), 2), kind="stable")  # ties of strength
    sorted_weights = weights[:, order]
    out = ordered_percentiles(sorted_weights, sorted_weights.sum(axis=-1), order)
    assert np.array_equal(out, numpy_percentiles(sorted_weights, order))
    assert np.all(out[7] == 0.5)


def test_shapes_that_do_not_match_are_refused():
    with pytest.raises(ValueError, match="a row per total and a column per holding"):
        ordered_percentiles(np.ones((2, 3)), np.ones(3), np.arange(3))
