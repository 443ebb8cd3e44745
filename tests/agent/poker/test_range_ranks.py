"""Percentiles of many weighted ranges at once, and values by band: NumPy's numbers, to the
last bit."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.range_ranks import band_values, gathered_percentiles, ordered_percentiles


def test_each_holding_gets_the_weight_below_it_and_half_its_own():
    # holding 2 is the weakest (weight 1), then 0 (weight 2), then 1 (weight 1): total 4
    out = ordered_percentiles(np.array([[1.0, 2.0, 1.0]]), np.array([2, 0, 1]))
    assert out.tolist() == [[(1.0 + 1.0) / 4, (3.0 + 0.5) / 4, 0.5 / 4]]


@pytest.mark.parametrize("rows", [2, 1326])
def test_ranges_of_every_hole_match_numpy_bit_for_bit(rows: int):
    rng = np.random.default_rng(rows)
    weights = rng.random((rows, 1326)) * rng.random(rows)[:, np.newaxis]
    weights[weights < 0.2] = 0.0  # the holdings each hole blocks, and those folded away
    weights[1] = 0.0  # a hole that leaves the range nothing: every holding 0.5
    order = np.argsort(np.round(rng.random(1326), 2), kind="stable")  # ties of strength
    out = ordered_percentiles(np.take(weights, order, axis=1), order)
    assert np.array_equal(out, gathered_percentiles(weights, order))
    assert np.all(out[1] == 0.5)


def test_band_values_are_numpys_mix_of_the_band_and_the_rest():
    rng = np.random.default_rng(5)
    percentiles = rng.random((40, 1326))
    percentiles[0, :3] = [0.25, 0.75, np.nan]  # the edges, and a NaN, which is outside
    weight, chance = 0.8, 0.2 * 0.35
    band = ((percentiles >= 0.25) & (percentiles < 0.75)).astype(np.float64)
    out = band_values(percentiles, 0.25, 0.75, weight + chance, chance)
    assert np.array_equal(out, weight * band + chance)
    assert out[0, :3].tolist() == [weight + chance, chance, chance]


def test_shapes_that_do_not_match_are_refused():
    with pytest.raises(ValueError, match="a column per holding"):
        ordered_percentiles(np.ones((2, 3)), np.arange(4))
