"""The average strategy: sums normalised over each row's legal actions, uniform where none."""

from __future__ import annotations

import numpy as np

from blueprint.regret import average_strategy


def test_illegal_columns_and_negative_sums_carry_no_weight() -> None:
    sums = np.array([[1, 3, 5], [0, 0, 9], [-1, -2, 0], [2, -1, 4]], dtype=np.float32)
    average = average_strategy(sums, np.array([2, 2, 3, 3]))
    expected = [[0.25, 0.75, 0.0], [0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3], [1 / 3, 0.0, 2 / 3]]
    assert average.dtype == np.float64
    assert np.allclose(average, expected, rtol=0, atol=1e-15)
    assert sums[1, 2] == 9  # the input is left as it was
