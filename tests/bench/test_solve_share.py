"""``bench.solve_share``: the clock that times every solve and counts the leaf products' work."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS
from blueprint.subgame.depth_limited import solve_street
from blueprint.subgame.river import BetAbstraction
from blueprint.subgame.turn import TurnSpot
from blueprint.subgame.vector_cfr import Subgame

BOARD = tuple(parse_cards(["Ah", "9h", "5c", "2d"]))
TURN_HANDS = 1128  # the holdings four board cards leave: C(48, 2)


@pytest.fixture(scope="module")
def solve_share() -> Iterator[ModuleType]:
    """``bench.solve_share``, with the repository root on the path (``bench`` is not installed)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(Path(__file__).resolve().parents[2]))
        yield importlib.import_module("bench.solve_share")


def test_each_leaf_product_of_a_checked_down_turn_is_one_row_by_its_hands_squared(
    solve_share,
) -> None:
    original = Subgame.fill_leaves
    clock = solve_share.Clock()
    spot = TurnSpot(BOARD, 60.0, (500.0, 500.0), 0, np.ones((2, HOLDINGS)))
    no_bets = BetAbstraction(pot_fractions=(1.0,), all_in=False, max_raises=0)  # one leaf
    with solve_share.clocked(clock):
        solve_street(spot, no_bets, iterations=2)
    assert Subgame.fill_leaves is original  # the block puts the method back
    assert clock.calls["leaves"] > 0
    assert clock.multiply_adds == clock.calls["leaves"] * TURN_HANDS**2
    assert clock.calls["solves"] == 0  # no player asked: the solver's own calls are not counted
