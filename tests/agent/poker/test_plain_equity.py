"""The compile-free equity: exact heads-up on the river, as enumeration says; elsewhere a
Monte Carlo estimate within its standard error of the exact figure."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.equity import equity
from agent.poker.plain_equity import plain_equity


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_river_heads_up_is_the_enumerations_answer(seed: int) -> None:
    cards = np.random.default_rng(seed).choice(52, 7, replace=False).tolist()
    hole, board = cards[:2], cards[2:]
    plain = plain_equity(hole, board, 1, 1, np.random.default_rng(0))
    assert plain == equity(hole, board, method="exact")


def test_a_board_that_plays_splits_the_pot_among_all() -> None:
    board = ["Ts", "Js", "Qs", "Ks", "As"]
    for opponents in (1, 3):
        tie = plain_equity(["2c", "3d"], board, opponents, 50, np.random.default_rng(0))
        assert (tie.win, tie.tie, tie.loss) == (0.0, 1.0, 0.0)
        assert tie.share == pytest.approx(1 / (opponents + 1))


@pytest.mark.parametrize(
    ("hole", "board"),
    [
        (["As", "Kd"], []),
        (["As", "Kd"], ["2c", "7h", "9s"]),
        (["7c", "7d"], ["2c", "Kh", "9s", "Jd"]),
    ],
)
def test_the_flop_and_turn_estimates_are_within_four_standard_errors(hole, board) -> None:
    exact = equity(hole, board, method="exact")
    deals = 2_000
    plain = plain_equity(hole, board, 1, deals, np.random.default_rng(5))
    error = np.sqrt(exact.share * (1 - exact.share) / deals)
    assert abs(plain.share - exact.share) < 4 * error
    assert abs(plain.win - exact.win) < 4 * error


def test_three_opponents_agree_with_the_compiled_estimate() -> None:
    hole, board = ["Qh", "Qd"], ["2c", "7h", "9s", "3d"]
    compiled = equity(hole, board, opponents=3, simulations=100_000, rng=np.random.default_rng(1))
    plain = plain_equity(hole, board, 3, 2_000, np.random.default_rng(2))
    assert abs(plain.share - compiled.share) < 4 * np.sqrt(0.25 / 2_000)


@pytest.mark.parametrize(
    ("board", "opponents", "deals", "message"),
    [
        (["2c", "7h", "9s"], 0, 10, "opponents"),
        (["2c", "7h", "9s"], 1, 0, "deals"),
    ],
)
def test_bad_input_is_named(board, opponents, deals, message) -> None:
    with pytest.raises(ValueError, match=message):
        plain_equity(["As", "Kd"], board, opponents, deals, np.random.default_rng(0))
