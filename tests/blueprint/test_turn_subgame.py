"""Turn subgames solved to the river's deal (``blueprint.subgame.turn``): the leaf matrix a
subgame accepts (the matrix and the solves of both depth-limited streets:
``test_depth_limited_subgame``)."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS
from blueprint.subgame.depth_limited import street_hands, street_subgame
from blueprint.subgame.river import BetAbstraction
from blueprint.subgame.turn import TurnSpot
from blueprint.subgame.vector_cfr import Subgame

BOARD = tuple(parse_cards(["Ah", "9h", "5c", "2d"]))


@pytest.fixture(scope="module")
def board_hands():
    return street_hands(BOARD)


def test_leaf_equity_must_be_antisymmetric(board_hands) -> None:
    _, hands, equity = board_hands
    subgame, _ = street_subgame(TurnSpot(BOARD, 10.0, (50.0, 50.0), 0, np.ones((2, HOLDINGS))),
                              BetAbstraction(pot_fractions=(1.0,), max_raises=1))  # fmt: skip
    with pytest.raises(ValueError, match="antisymmetric"):
        Subgame(subgame.tree, hands, subgame.ranges, leaf_equity=np.abs(equity))
