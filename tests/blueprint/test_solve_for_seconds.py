"""Solving against a time budget: the wall-clock comparison of ``bench.solve --wall``."""

from __future__ import annotations

import pytest

from blueprint.kuhn import GAME_VALUE
from blueprint.solve import solve_for_seconds


def test_cfr_plus_runs_past_its_budget_with_growing_checkpoints() -> None:
    result = solve_for_seconds("kuhn", "cfr+", seconds=0.3)
    iterations = [c.iteration for c in result.checkpoints]
    assert iterations[:6] == [1, 2, 3, 4, 6, 9]  # x1.5 rounded, at least one more each time
    seconds = [c.seconds for c in result.checkpoints]
    assert seconds == sorted(seconds) and seconds[-1] >= 0.3 > seconds[-2]
    assert result.final.exploitability_mbb < result.checkpoints[0].exploitability_mbb / 100
    assert result.final.game_value == pytest.approx(GAME_VALUE, abs=1e-3)


def test_bad_budgets_are_named() -> None:
    with pytest.raises(ValueError, match="seconds must be positive"):
        solve_for_seconds("kuhn", "cfr+", seconds=0)
    with pytest.raises(ValueError, match="game must be one of"):
        solve_for_seconds("holdem", "cfr+", seconds=1)
