"""Depth-limited solves whose leaf matrix is factorised (``Subgame(leaf_factors=...)``): the
range finder reproduces a matrix of low rank exactly, a factorisation of full rank gives the
exact walk's values (with a sparse own range too, its floor through the factors), a principal
submatrix's factors are the rows of the board's, and a re-solve below a bet keeps the rank."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS, blocked_mask
from blueprint.subgame.depth_limited import (
    board_factors,
    likely_hands,
    solve_street,
    street_factors,
    street_hands,
    street_subgame,
)
from blueprint.subgame.flop import FlopSpot
from blueprint.subgame.nested import resolve_below
from blueprint.subgame.river import BetAbstraction, RiverRoot
from blueprint.subgame.turn import TurnSpot
from blueprint.subgame.vector_cfr import LeafEquity, Subgame, low_rank, root_values

FLOP, TURN = tuple(parse_cards(["Ah", "9h", "5c"])), tuple(parse_cards(["Ah", "9h", "5c", "2d"]))
SIZES = BetAbstraction(pot_fractions=(1.0,), all_in=True, max_raises=2)


def antisymmetric_of_rank(size: int, half: int, seed: int) -> np.ndarray:
    """``U V^T - V U^T`` for random ``[size, half]`` U and V: antisymmetric, rank ``2 half``."""
    rng = np.random.default_rng(seed)
    u, v = rng.standard_normal((2, size, half))
    return (u @ v.T - v @ u.T).astype(np.float32)


def narrow_ranges(board: tuple[int, ...], seed: int, share: float = 0.03) -> np.ndarray:
    """Both ranges on about ``share`` of the holdings the board leaves: a small subgame."""
    rng = np.random.default_rng(seed)
    live = ~blocked_mask(list(board))
    return rng.random((2, HOLDINGS)) * (rng.random((2, HOLDINGS)) < share) * live


def random_policy(subgame: Subgame, seed: int) -> np.ndarray:
    """A random strategy over every decision's actions."""
    tree = subgame.tree
    table = np.random.default_rng(seed).random((tree.num_infosets, tree.max_actions))
    table *= tree.infoset_actions()[:, None] > np.arange(tree.max_actions)[None, :]
    return table / table.sum(axis=1, keepdims=True)


def test_the_range_finder_reproduces_a_matrix_of_its_rank() -> None:
    matrix = antisymmetric_of_rank(80, 3, seed=1)
    factors = low_rank(matrix, 6)
    assert factors.rank == 6
    assert np.allclose(factors.left @ factors.right, matrix, atol=1e-4)
    assert np.allclose(factors.left.T @ factors.left, np.eye(6), atol=1e-5)  # orthonormal
    again = low_rank(matrix, 6)
    assert (again.left == factors.left).all() and (again.right == factors.right).all()
    short = low_rank(matrix, 2)  # below the matrix's rank: an approximation, not the matrix
    assert not np.allclose(short.left @ short.right, matrix, atol=1e-2)
    assert low_rank(matrix, 500).rank == 80  # the rank is at most the size


def test_a_rank_below_one_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="rank must be positive"):
        low_rank(np.zeros((4, 4), dtype=np.float32), 0)


def test_a_street_s_factors_are_the_board_s_rows() -> None:
    keep = narrow_ranges(TURN, 2, share=0.3).sum(axis=0) > 0
    everything = board_factors(tuple(sorted(TURN)), 16)
    holdings, _, _ = street_hands(TURN)
    kept, _, _ = street_hands(TURN, keep)
    rows = np.searchsorted(holdings, kept)
    factors = street_factors(TURN, 16, keep)
    assert (factors.left == everything.left[rows]).all()
    assert (factors.right == everything.right[:, rows]).all()


@pytest.mark.parametrize("floor", [False, True])
@pytest.mark.parametrize(("spot_type", "board"), [(FlopSpot, FLOP), (TurnSpot, TURN)])
def test_factors_of_full_rank_give_the_exact_walks_values(spot_type, board, floor) -> None:
    """Every hand through factors of full rank, or (``floor``) our likely hands by their
    exact rows and the others through the factors: every hand's values are the dense walk's,
    and no hand of ours is dropped."""
    ranges = narrow_ranges(board, 8, share=0.05)
    ranges[0] += 1e-3 * ~blocked_mask(list(board))  # a floor on every holding of ours
    spot = spot_type(board, 60.0, (500.0, 500.0), 0, ranges)
    exact, _ = street_subgame(spot, SIZES)
    size = exact.hands.size
    rows = likely_hands(exact.ranges[0], 0.9) if floor else None
    assert rows is None or len(rows) < size / 5
    factors = low_rank(exact.leaf_equity, size)
    equity = LeafEquity(exact.leaf_equity)
    factored = Subgame(exact.tree, exact.hands, exact.ranges, leaf_equity=equity, own_rows=rows,
                       leaf_factors=factors)  # fmt: skip
    assert factored.solves_every_hand and (factored.ranges == exact.ranges).all()
    policy = random_policy(exact, 9)
    for player in (0, 1):
        values = root_values(factored, policy, player)
        assert np.allclose(values, root_values(exact, policy, player), rtol=1e-4, atol=1e-3)


def test_a_low_rank_solve_is_close_to_the_exact_one_and_stays_low_rank_below() -> None:
    spot = TurnSpot(TURN, 100.0, (400.0, 400.0), 0, narrow_ranges(TURN, 6, share=0.5))
    exact = solve_street(spot, SIZES, iterations=30, gadget_player=1)
    solution = solve_street(spot, SIZES, iterations=30, gadget_player=1, leaf_rank=32)
    assert solution.subgame.leaf_factors.rank == 32
    weights = spot.ranges[0]
    gap = np.abs(exact.node_strategy(0) - solution.node_strategy(0)).sum(axis=1)
    assert 0.0 < 0.5 * float(weights @ gap) / float(weights.sum()) < 0.1
    tree = solution.tree
    check = next(int(c) for c in tree.children(0) if tree.action_names[tree.action[c]] == "check")
    root = RiverRoot(bets=(0.0, 70.0), raises=1, last_raise=70.0)
    nested = resolve_below(solution, check, root, SIZES, iterations=30)
    assert nested.subgame.leaf_factors is not None
    assert nested.subgame.leaf_factors.rank == 32


def test_a_sparse_solve_with_a_floor_rank_solves_every_hand_of_ours() -> None:
    spot = FlopSpot(FLOP, 60.0, (500.0, 500.0), 0, narrow_ranges(FLOP, 5, share=0.3))
    live = ~blocked_mask(list(FLOP))
    floored = spot.ranges.copy()
    floored[0] = 0.99 * floored[0] / floored[0].sum() + 0.01 * live / live.sum()
    spot = FlopSpot(FLOP, 60.0, (500.0, 500.0), 0, floored)
    solution = solve_street(spot, SIZES, iterations=20, own_share=0.98, leaf_rank=16)
    subgame = solution.subgame
    assert len(subgame.own_rows) < 0.5 * len(solution.holdings)
    assert subgame.leaf_factors.rank == 16 and subgame.solves_every_hand
    ours = solution.node_strategy(0)[solution.holdings]  # we act first
    assert np.allclose(ours.sum(axis=1), 1.0)  # every holding of ours is solved
