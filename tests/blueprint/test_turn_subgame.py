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
from blueprint.subgame.vector_cfr import LEAF_ROWS, LeafEquity, Subgame

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


def test_a_matrix_built_antisymmetric_is_wrapped_without_a_check_but_its_form_is_checked(
    board_hands,
) -> None:
    """``street_subgame`` passes the equity matrix as a ``LeafEquity``, unchecked; the wrapper
    still refuses a matrix the products cannot use, and a checked one gives the same values."""
    _, hands, equity = board_hands
    with pytest.raises(ValueError, match="float32"):
        LeafEquity(equity.astype(np.float64))
    with pytest.raises(ValueError, match="square"):
        LeafEquity(np.ascontiguousarray(equity[:, :-1]))
    subgame, _ = street_subgame(TurnSpot(BOARD, 10.0, (50.0, 50.0), 0, np.ones((2, HOLDINGS))),
                              BetAbstraction(pot_fractions=(1.0,), max_raises=1))  # fmt: skip
    checked = LeafEquity.checked(equity)
    assert np.array_equal(checked.matrix, subgame.leaf_equity)
    with pytest.raises(ValueError, match=f"\\({hands.size}, {hands.size}\\)"):
        Subgame(
            subgame.tree, hands, subgame.ranges, leaf_equity=LeafEquity(equity[:-1, :-1].copy())
        )


@pytest.mark.parametrize("pot_fractions", [(1.0,), (0.5, 1.0)])
def test_every_leaf_is_valued_by_its_own_row_of_the_product(pot_fractions) -> None:
    """The leaves' product pads its rows to whole blocks; each leaf still gets the value of
    its own opponent reach, in double precision: ``-stake * reach @ D``."""
    spot = TurnSpot(BOARD, 10.0, (50.0, 50.0), 0, np.ones((2, HOLDINGS)))
    subgame, _ = street_subgame(spot, BetAbstraction(pot_fractions=pot_fractions, max_raises=2))
    leaves = subgame.leaf_nodes
    tree, size = subgame.tree, subgame.hands.size
    reach = np.random.default_rng(3).random((tree.num_nodes, 2, size))
    equity = subgame.leaf_equity.astype(np.float64)
    for p in range(2):
        value = np.full((tree.num_nodes, size), np.nan)
        subgame.fill_leaves(reach, p, value)
        for leaf in leaves:
            expected = -tree.contribution[leaf, p] * (reach[leaf, 1 - p] @ equity)
            assert np.allclose(value[leaf], expected, rtol=1e-4, atol=1e-3)
        others = np.setdiff1d(np.arange(tree.num_nodes), leaves)
        assert np.isnan(value[others]).all()
    assert len(leaves) % LEAF_ROWS != 0  # the last block is ragged
