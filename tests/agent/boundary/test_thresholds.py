"""da Luz's threshold rule (cited in agent.boundary.thresholds): every band on every street,
the opponent scaling, legality."""

from __future__ import annotations

import pytest

from agent.boundary.situations import make_decision
from agent.boundary.snapshot import Snapshot, Street, is_legal
from agent.boundary.thresholds import (
    STUDY_THRESHOLDS,
    Level,
    Thresholds,
    threshold_action,
    threshold_level,
    win_rate,
)
from agent.poker.equity import Equity

# (street, win rate just above raise-2x, just above min-raise, just above call, at call)
BANDS = [
    (Street.PREFLOP, 0.21, 0.18, 0.14, 0.13),
    (Street.FLOP, 0.56, 0.46, 0.31, 0.30),
    (Street.TURN, 0.48, 0.48, 0.41, 0.40),
    (Street.RIVER, 0.91, 0.81, 0.71, 0.70),
]


@pytest.mark.parametrize(("street", "above_x2", "above_x1", "above_call", "at_call"), BANDS)
def test_each_band_of_the_study(
    street: Street, above_x2: float, above_x1: float, above_call: float, at_call: float
) -> None:
    assert threshold_level(above_x2, street) is Level.RAISE_TWICE_MIN
    expected_x1 = Level.RAISE_TWICE_MIN if street is Street.TURN else Level.MIN_RAISE
    assert threshold_level(above_x1, street) is expected_x1
    assert threshold_level(above_call, street) is Level.CALL
    assert threshold_level(at_call, street) is Level.PASS  # strict comparison, as da Luz's rule


def test_turn_has_no_min_raise_band() -> None:
    levels = {threshold_level(rate / 1000, Street.TURN) for rate in range(1001)}
    assert Level.MIN_RAISE not in levels


def test_opponents_scale_the_thresholds_by_power() -> None:
    # river call threshold .7: .49 against two opponents, .343 against three
    assert threshold_level(0.50, Street.RIVER, opponents=2) is Level.CALL
    assert threshold_level(0.48, Street.RIVER, opponents=2) is Level.PASS
    assert threshold_level(0.35, Street.RIVER, opponents=3) is Level.CALL
    assert threshold_level(0.82, Street.RIVER, opponents=2) is Level.RAISE_TWICE_MIN


def test_actions_are_legal_and_sized_as_the_study() -> None:
    hole, board = ["As", "Kd"], ["2c", "7h", "9s", "Jd", "3c"]
    snap = Snapshot.from_ppe(*make_decision(hole, board, to_call=20, pot=60, stack=500))
    assert (snap.min_raise, snap.max_raise) == (40, 500)
    assert threshold_action(0.95, snap) == ("raise", 80)
    assert threshold_action(0.85, snap) == ("raise", 40)
    assert threshold_action(0.75, snap) == ("call", 20)
    assert threshold_action(0.10, snap) == ("fold", 0)
    free = Snapshot.from_ppe(*make_decision(hole, board, pot=60))
    assert threshold_action(0.10, free) == ("call", 0)


def test_short_stacks_clamp_or_call() -> None:
    hole, board = ["As", "Kd"], ["2c", "7h", "9s", "Jd", "3c"]
    short = Snapshot.from_ppe(*make_decision(hole, board, to_call=20, stack=60))
    assert threshold_action(0.95, short) == ("raise", 60)
    broke = Snapshot.from_ppe(*make_decision(hole, board, to_call=50, stack=30))
    for rate in (0.95, 0.85, 0.75):
        action = threshold_action(rate, broke)
        assert action == ("call", 50) and is_legal(broke, action)


def test_win_rate_counts_ties_and_bad_input_is_refused() -> None:
    assert win_rate(Equity(win=0.4, tie=0.2, loss=0.4, share=0.5)) == pytest.approx(0.6)
    with pytest.raises(ValueError, match="not a probability"):
        threshold_level(1.5, Street.FLOP)
    with pytest.raises(ValueError, match="four win rates"):
        Thresholds(call=(0.1, 0.2, 0.3))  # type: ignore[arg-type]
    assert STUDY_THRESHOLDS.call == (0.13, 0.30, 0.40, 0.70)
