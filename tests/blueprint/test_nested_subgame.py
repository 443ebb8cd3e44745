"""Safe nested re-solving below an off-tree bet (``blueprint.subgame.nested``): the responder
keeps the range its solved strategy brought, and the gadget holds every bettor hand to its
best-response value at the node where it bet."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from blueprint.subgame.nested import resolve_below
from blueprint.subgame.river import BetAbstraction, RiverRoot, RiverSpot, solve_river
from blueprint.subgame.turn import TurnSpot
from blueprint.subgame.vector_cfr import node_reach, node_values

BOARD = tuple(parse_cards(["Ah", "Kh", "Qh", "7c", "2d"]))
SIZES = BetAbstraction(pot_fractions=(0.5, 1.0), all_in=True, max_raises=2)
POT = 100.0


def bet_after_check(fraction: float) -> RiverRoot:
    """The river after player 0 checks and player 1 bets ``fraction`` of the pot."""
    return RiverRoot(bets=(0.0, fraction * POT), raises=1, last_raise=fraction * POT)


@pytest.fixture(scope="module")
def solved():
    """A river solved on random ranges, and player 1's node after player 0's check."""
    ranges = np.random.default_rng(0).random((2, 1326))
    spot = RiverSpot(BOARD, POT, (400.0, 400.0), 0, ranges)
    solution = solve_river(spot, SIZES, iterations=200, target_pot_fraction=None)
    tree = solution.tree
    check = next(int(c) for c in tree.children(0) if tree.action_names[tree.action[c]] == "check")
    assert int(tree.player[check]) == 1
    return solution, check


def test_a_size_on_the_tree_gives_no_bettor_hand_more_than_its_best_reply(solved) -> None:
    solution, check = solved
    nested = resolve_below(solution, check, bet_after_check(1.0), SIZES, iterations=1000)
    assert (nested.holdings == solution.holdings).all()
    best = node_values(solution.subgame, solution.strategy, 1, check, best_response=True)
    after = node_values(nested.subgame, nested.strategy, 1, 0, best_response=True)
    mass = node_reach(solution.subgame, solution.strategy, check)[0].sum()
    gains = (after - best) / mass  # chips per deal of player 0's range, pot 100
    assert gains.max() < 0.1  # the gadget's bound, to 0.1% of the pot after 1,000 iterations
    assert gains.mean() < -1.0  # and most hands get less than their best reply on the tree


def test_the_responder_keeps_the_range_its_strategy_brought(solved) -> None:
    solution, check = solved
    nested = resolve_below(solution, check, bet_after_check(0.7), SIZES, iterations=10)
    reach = node_reach(solution.subgame, solution.strategy, check)[0]
    assert np.allclose(nested.subgame.ranges[0], reach)
    assert nested.actions(0)[:2] == ["fold", "call"]  # player 0 faces the bet
    assert nested.tree.contribution[0].tolist() == [50.0, 120.0]
    strategy = nested.node_strategy(0)[nested.holdings]
    assert np.allclose(strategy.sum(axis=1), 1.0)


def test_a_turn_is_re_solved_below_a_bet_with_its_equity_leaves() -> None:
    ranges = np.random.default_rng(1).random((2, 1326))
    spot = TurnSpot(BOARD[:4], POT, (400.0, 400.0), 0, ranges)
    from blueprint.subgame.depth_limited import solve_street

    solution = solve_street(spot, SIZES, iterations=50)
    tree = solution.tree
    check = next(int(c) for c in tree.children(0) if tree.action_names[tree.action[c]] == "check")
    nested = resolve_below(solution, check, bet_after_check(0.7), SIZES, iterations=50)
    assert nested.subgame.leaf_equity is not None and nested.tree.num_nodes < tree.num_nodes
    strategy = nested.node_strategy(0)[nested.holdings]
    assert np.allclose(strategy.sum(axis=1), 1.0)


def test_a_root_that_does_not_follow_the_players_bet_is_refused(solved) -> None:
    solution, check = solved
    with pytest.raises(ValueError, match="does not follow a bet of player 1"):
        resolve_below(solution, check, RiverRoot(bets=(30.0, 0.0), raises=1), SIZES)
    with pytest.raises(ValueError, match="not a decision"):
        resolve_below(solution, solution.tree.num_nodes, bet_after_check(0.7), SIZES)
