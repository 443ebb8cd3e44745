"""Games run with the garbage collector paced, in this process and in workers, and the
caller's thresholds come back after the run."""

from __future__ import annotations

import gc

from arena.collection import YOUNGEST_THRESHOLD
from arena.match import run_tasks


def youngest_threshold(task: list[int]) -> list[dict[str, int]]:
    return [{"task": task[0], "youngest": gc.get_threshold()[0]}]


def test_games_run_with_the_collector_paced_and_the_thresholds_come_back():
    before = gc.get_threshold()
    assert before[0] != YOUNGEST_THRESHOLD
    for workers in (1, 2):
        rows = [
            row for rows in run_tasks(youngest_threshold, [[0], [1], [2]], workers) for row in rows
        ]
        assert sorted(row["task"] for row in rows) == [0, 1, 2]
        assert {row["youngest"] for row in rows} == {YOUNGEST_THRESHOLD}
        assert gc.get_threshold() == before
