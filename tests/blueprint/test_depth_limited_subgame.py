"""Flop and turn subgames solved to the next card's deal (``blueprint.subgame.depth_limited``):
leaf values against the range-against-range equity they stand for, convergence of the
depth-limited solve, and known calls and folds, on each street."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, blocked_mask, holding_index
from blueprint.subgame.depth_limited import solve_street, street_hands
from blueprint.subgame.flop import FlopSpot
from blueprint.subgame.hands import compatible_mass
from blueprint.subgame.river import BetAbstraction
from blueprint.subgame.turn import TurnSpot

STREETS = [
    pytest.param(FlopSpot, tuple(parse_cards(["Ah", "9h", "5c"])), id="flop"),
    pytest.param(TurnSpot, tuple(parse_cards(["Ah", "9h", "5c", "2d"])), id="turn"),
]


@pytest.mark.parametrize(("spot_type", "board"), STREETS)
def test_a_checked_down_street_is_worth_the_range_equity(spot_type, board) -> None:
    rng = np.random.default_rng(5)
    ranges = rng.random((2, HOLDINGS)) * ~blocked_mask(list(board))
    spot = spot_type(board, 60.0, (500.0, 500.0), 0, ranges)
    no_bets = BetAbstraction(pot_fractions=(1.0,), all_in=False, max_raises=0)
    solution = solve_street(spot, no_bets, iterations=1)
    holdings, _, equity = street_hands(board)
    mine, theirs = ranges[0, holdings], ranges[1, holdings]
    mass = np.empty(len(holdings))
    compatible_mass(solution.subgame.hands.cards, theirs, mass)
    edge = float(mine @ equity @ theirs) / float(mine @ mass)  # P(win) - P(lose)
    first, second = solution.expected_values()
    # half the pot won or lost; the leaves' products run in float32 (7 digits)
    assert first == pytest.approx(30.0 * edge, rel=1e-5)
    assert second == pytest.approx(-first, rel=1e-5)


@pytest.mark.parametrize(("spot_type", "board"), STREETS)
def test_the_street_solve_converges(spot_type, board) -> None:
    rng = np.random.default_rng(7)
    spot = spot_type(board, 100.0, (400.0, 900.0), 1, rng.random((2, HOLDINGS)))
    sizes = BetAbstraction(pot_fractions=(0.5, 1.0), all_in=True, max_raises=2)
    rough = solve_street(spot, sizes, iterations=10)
    solved = solve_street(spot, sizes, iterations=200)
    assert solved.exploitability < 0.005 * spot.pot < rough.exploitability
    strategy = solved.node_strategy(0)
    live = ~blocked_mask(list(board))
    assert np.allclose(strategy[live].sum(axis=1), 1.0) and not strategy[~live].any()
    first, second = solved.expected_values()
    assert first + second == pytest.approx(0.0, abs=1e-6 * spot.pot)  # zero-sum, to float32


@pytest.mark.parametrize(("spot_type", "board"), STREETS)
def test_top_set_always_calls_an_all_in_a_trash_hand_never_does(spot_type, board) -> None:
    spot = spot_type(board, 100.0, (300.0, 300.0), 0, np.ones((2, HOLDINGS)))
    shove_only = BetAbstraction(pot_fractions=(), all_in=True, max_raises=1)
    solution = solve_street(spot, shove_only, iterations=200)
    tree = solution.tree
    shove = next(c for c in tree.children(0) if tree.action_names[tree.action[c]] == "all-in")
    facing = solution.node_strategy(int(shove))  # fold, call
    aces = [i for i, (a, b) in enumerate(HOLDING_CARDS) if a // 4 == b // 4 == 12]
    aces = [i for i in aces if not blocked_mask(list(board))[i]]
    trash = holding_index(*parse_cards(["3s", "7d"]))  # seven high, no pair, no real draw
    assert (facing[aces, 1] > 0.99).all()  # top set on A-9-5
    assert facing[trash, 0] > 0.99
