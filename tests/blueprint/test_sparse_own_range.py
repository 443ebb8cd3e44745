"""A sparse own range in depth-limited solves (``Subgame(own_rows=...)``): the leaf products
that read only our likely hands' rows give the values of the dense walk over the same kept
range, our other hands are left unsolved, and a re-solve below a bet stays sparse."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS, blocked_mask
from blueprint.subgame.depth_limited import likely_hands, solve_street, street_subgame
from blueprint.subgame.flop import FlopSpot
from blueprint.subgame.nested import resolve_below
from blueprint.subgame.river import BetAbstraction, RiverRoot
from blueprint.subgame.turn import TurnSpot
from blueprint.subgame.vector_cfr import LeafEquity, Subgame, root_values
from blueprint.tree import DECISION

FLOP, TURN = tuple(parse_cards(["Ah", "9h", "5c"])), tuple(parse_cards(["Ah", "9h", "5c", "2d"]))
SIZES = BetAbstraction(pot_fractions=(1.0,), all_in=True, max_raises=2)


def spiky_ranges(board: tuple[int, ...], seed: int) -> np.ndarray:
    """Our range on a fifth of the holdings plus a small floor on all; theirs dense."""
    rng = np.random.default_rng(seed)
    live = ~blocked_mask(list(board))
    ours = rng.random(HOLDINGS) * (rng.random(HOLDINGS) < 0.2) + 1e-4
    return np.stack([ours * live, rng.random(HOLDINGS) * live])


def random_policy(subgame: Subgame, seed: int) -> np.ndarray:
    """A random strategy over every decision's actions."""
    tree = subgame.tree
    table = np.random.default_rng(seed).random((tree.num_infosets, tree.max_actions))
    table *= tree.infoset_actions()[:, None] > np.arange(tree.max_actions)[None, :]
    return table / table.sum(axis=1, keepdims=True)


@pytest.mark.parametrize(("spot_type", "board"), [(FlopSpot, FLOP), (TurnSpot, TURN)])
def test_the_sparse_products_give_the_dense_walks_values(spot_type, board) -> None:
    spot = spot_type(board, 60.0, (500.0, 500.0), 1, spiky_ranges(board, 3))
    sparse, _ = street_subgame(spot, SIZES, own_share=0.98)
    rows = sparse.own_rows
    assert rows is not None and len(rows) < 0.3 * sparse.hands.size
    kept = sparse.ranges.copy()  # our range kept to its likely hands, theirs as it was
    assert not np.delete(kept[0], rows).any() and (kept[1] == sparse.ranges[1]).all()
    dense = Subgame(sparse.tree, sparse.hands, kept, leaf_equity=LeafEquity(sparse.leaf_equity))
    policy = random_policy(sparse, 4)
    theirs = root_values(sparse, policy, 1)
    assert np.allclose(theirs, root_values(dense, policy, 1), rtol=1e-5, atol=1e-4)
    ours = root_values(sparse, policy, 0)[rows]
    assert np.allclose(ours, root_values(dense, policy, 0)[rows], rtol=1e-5, atol=1e-4)


def test_our_hands_outside_the_likely_ones_have_no_strategy() -> None:
    spot = FlopSpot(FLOP, 60.0, (500.0, 500.0), 0, spiky_ranges(FLOP, 5))
    solution = solve_street(spot, SIZES, iterations=20, own_share=0.98)
    rows = solution.subgame.own_rows
    solved = np.zeros(len(solution.holdings), dtype=bool)
    solved[rows] = True
    ours = solution.node_strategy(0)[solution.holdings]  # we act first
    assert np.allclose(ours[solved].sum(axis=1), 1.0) and not ours[~solved].any()
    weights = solution.subgame.ranges[0]
    assert weights[rows].sum() == pytest.approx(spot.ranges[0].sum() * 0.98, rel=0.02)
    tree = solution.tree
    check = next(int(c) for c in tree.children(0) if tree.action_names[tree.action[c]] == "check")
    assert int(tree.player[check]) == 1 and tree.kind[check] == DECISION
    theirs = solution.node_strategy(check)[solution.holdings]
    assert np.allclose(theirs.sum(axis=1), 1.0)  # the opponent's every hand is solved


def test_a_bet_re_solved_below_keeps_our_range_sparse() -> None:
    spot = TurnSpot(TURN, 100.0, (400.0, 400.0), 0, spiky_ranges(TURN, 6))
    solution = solve_street(spot, SIZES, iterations=30, gadget_player=1, own_share=0.98)
    tree = solution.tree
    check = next(int(c) for c in tree.children(0) if tree.action_names[tree.action[c]] == "check")
    root = RiverRoot(bets=(0.0, 70.0), raises=1, last_raise=70.0)
    nested = resolve_below(solution, check, root, SIZES, iterations=30)
    reached = np.flatnonzero(nested.subgame.ranges[0] > 0)
    assert nested.subgame.own_rows is not None
    assert set(nested.subgame.own_rows) <= set(solution.subgame.own_rows) | set(reached)
    assert set(reached) <= set(solution.subgame.own_rows)


def test_likely_hands_carry_the_share_heaviest_first() -> None:
    weights = np.array([0.05, 0.5, 0.0, 0.3, 0.15])
    assert likely_hands(weights, 0.8).tolist() == [1, 3]
    assert likely_hands(weights, 0.9).tolist() == [1, 3, 4]
    assert likely_hands(weights, 1.0).tolist() == [0, 1, 3, 4]


def test_a_sparse_own_range_is_refused_where_the_gadget_chooses_ours() -> None:
    spot = TurnSpot(TURN, 100.0, (400.0, 400.0), 0, spiky_ranges(TURN, 7))
    with pytest.raises(ValueError, match="sparse own range needs player 0's range"):
        solve_street(spot, SIZES, iterations=1, gadget_player=0, own_share=0.98)
