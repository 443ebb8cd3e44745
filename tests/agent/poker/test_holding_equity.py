"""Every holding's flop, turn and river equity at once equals hand-by-hand exact enumeration."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.equity import equity
from agent.poker.holding_equity import holding_equity


@pytest.mark.parametrize("board_size", [3, 4, 5])
def test_range_pass_equals_exact_enumeration(board_size):
    rng = np.random.default_rng(board_size)
    for _ in range(3):
        cards = [int(c) for c in rng.choice(52, board_size + 12, replace=False)]
        board, rest = cards[:board_size], cards[board_size:]
        table = holding_equity(board)
        for first, second in zip(rest[::2], rest[1::2], strict=True):
            exact = equity([first, second], board, method="exact")
            assert table.win[first, second] == pytest.approx(exact.win, abs=1e-12)
            assert table.tie[second, first] == pytest.approx(exact.tie, abs=1e-12)


def test_blocked_holdings_are_zero_and_rates_are_probabilities():
    board = [0, 5, 10, 15, 20]
    table = holding_equity(board)
    assert table.win[0, 1] == 0.0 and table.tie[5, 30] == 0.0
    assert ((table.win_rate >= 0) & (table.win_rate <= 1)).all()
    with pytest.raises(ValueError, match="expected 3, 4 or 5 distinct"):
        holding_equity([0, 0, 1, 2])
