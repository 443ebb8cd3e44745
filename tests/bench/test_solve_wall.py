"""``bench.solve --wall``: solvers against seconds of solving, and the table it prints."""

from __future__ import annotations

import doctest
import importlib
import itertools
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest


@pytest.fixture(scope="module")
def solve() -> Iterator[ModuleType]:
    """``bench.solve``: ``bench`` is not installed, so the repository root goes on the path
    (``python -m pytest`` has it there already, plain ``pytest`` does not)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(Path(__file__).resolve().parents[2]))
        yield importlib.import_module("bench.solve")


class IterationClock:
    """A clock that moves ``seconds_each`` for every iteration its runner advances: the curve
    then has the same checkpoints on any machine, however loaded."""

    def __init__(self, runner: Any, seconds_each: float) -> None:
        self.now, self.inner, self.seconds_each = 0.0, runner, seconds_each

    def __call__(self) -> float:
        return self.now

    def advance(self, iterations: int) -> Any:
        self.now += iterations * self.seconds_each
        return self.inner.advance(iterations)


def test_cfr_plus_curve_runs_past_its_budget_and_falls(solve: ModuleType) -> None:
    clock = IterationClock(solve.our_runner("cfr+", seed=0), seconds_each=0.001)
    runner = solve.Runner(clock.advance, clock.inner.measure)
    curve = solve.wall_curve(runner, budget=0.5, clock=clock)
    seconds = [time_ for time_, _ in curve]
    mbb = [value for _, value in curve]
    assert seconds == sorted(seconds) and seconds[-1] >= 0.5 > seconds[-2]
    assert len(curve) >= 5
    assert mbb[0] > 2000  # one CFR+ iteration: about 2370 mbb/g
    assert mbb[-1] < mbb[0] / 1000
    assert mbb[-1] < min(mbb[: len(mbb) // 2])  # still falling in the second half
    # the average strategy's exploitability wobbles by a few percent between checkpoints
    assert all(later <= 1.25 * earlier for earlier, later in itertools.pairwise(mbb))


def test_table_reads_the_marks_and_the_time_to_one_mbb(solve: ModuleType) -> None:
    curves = {"fast": [(0.5, 90.0), (2.0, 9.0), (12.0, 0.9), (61.0, 0.1)], "short": [(0.2, 5.0)]}
    header, fast, short = solve.wall_table(curves)
    assert header.split() == ["solver", "1", "s", "10", "s", "60", "s", "to", "1", "mbb/g"]
    assert fast.split() == ["fast", "90", "9", "0.9", "12.00", "s"]
    assert short.split() == ["short", "—", "—", "—", "not", "in", "budget"]


def test_doctests(solve: ModuleType) -> None:
    assert doctest.testmod(solve).failed == 0
