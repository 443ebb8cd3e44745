"""The rules' tests' shared hands."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agent.boundary.snapshot import Snapshot, Street

# the small blind min-raises, the big blind calls, then both check to the river
MIN_RAISED = [["call"] * 4, ["min"] + ["call"] * 3]
Streets = Callable[[list[int]], dict[Street, Snapshot]]


@pytest.fixture
def min_raised_streets(scripted_hand) -> Streets:
    """The small blind's first decision on each street of a hand it opens by the minimum and
    both check down, from the stacks given (seed 7)."""

    def decisions(stacks: list[int]) -> dict[Street, Snapshot]:
        bots = scripted_hand(stacks, ante=0, scripts=MIN_RAISED, seed=7)
        small_blind = bots[bots[0].seen[0].small_blind_seat]
        seen: dict[Street, Snapshot] = {}
        for snapshot in small_blind.seen:
            seen.setdefault(snapshot.street, snapshot)
        assert list(seen) == list(Street)
        return seen

    return decisions
