"""Turn subgames solved to the river's deal (``blueprint.subgame.turn``): the equity matrix
against enumeration over every river, and the leaf matrix a subgame accepts (the solves of
both depth-limited streets: ``test_depth_limited_subgame``)."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.evaluator import evaluate
from agent.poker.range_equity import HOLDINGS
from blueprint.subgame.river import BetAbstraction
from blueprint.subgame.turn import TurnSpot, turn_hands, turn_subgame
from blueprint.subgame.vector_cfr import Subgame

BOARD = tuple(parse_cards(["Ah", "9h", "5c", "2d"]))


def enumerated_edge(first: tuple[int, int], second: tuple[int, int]) -> float:
    """P(first beats second) - P(second beats first) over every river card (lower rank wins)."""
    dead = set(BOARD) | set(first) | set(second)
    rivers = [card for card in range(52) if card not in dead]
    edge = 0
    for river in rivers:
        mine = evaluate([*first, *BOARD, river])
        theirs = evaluate([*second, *BOARD, river])
        edge += (mine < theirs) - (mine > theirs)
    return edge / len(rivers)


@pytest.fixture(scope="module")
def board_hands():
    return turn_hands(BOARD)


def test_the_equity_matrix_is_what_enumeration_says(board_hands) -> None:
    holdings, hands, equity = board_hands
    assert len(holdings) == 1128 and equity.shape == (1128, 1128)  # C(48, 2)
    rng = np.random.default_rng(3)
    checked = 0
    while checked < 40:
        h, j = rng.integers(len(holdings), size=2)
        first, second = tuple(map(int, hands.cards[h])), tuple(map(int, hands.cards[j]))
        if set(first) & set(second):
            assert equity[h, j] == 0.0  # a blocked pair is never dealt
            continue
        # float32 holds k/44 to within 1e-7
        assert equity[h, j] == pytest.approx(enumerated_edge(first, second), abs=1e-7)
        checked += 1
    assert np.array_equal(equity, -equity.T)


def test_leaf_equity_must_be_antisymmetric(board_hands) -> None:
    _, hands, equity = board_hands
    subgame, _ = turn_subgame(TurnSpot(BOARD, 10.0, (50.0, 50.0), 0, np.ones((2, HOLDINGS))),
                              BetAbstraction(pot_fractions=(1.0,), max_raises=1))  # fmt: skip
    with pytest.raises(ValueError, match="antisymmetric"):
        Subgame(subgame.tree, hands, subgame.ranges, leaf_equity=np.abs(equity))
