"""Turn subgames solved to the river's deal (``blueprint.subgame.turn``): the equity matrix
against enumeration, leaf values against the range-against-range equity they stand for, and
convergence of the depth-limited solve."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.evaluator import evaluate
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, blocked_mask, holding_index
from blueprint.subgame.hands import compatible_mass
from blueprint.subgame.river import BetAbstraction
from blueprint.subgame.turn import TurnSpot, solve_turn, turn_hands, turn_subgame
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


def test_a_checked_down_turn_is_worth_the_range_equity(board_hands) -> None:
    rng = np.random.default_rng(5)
    ranges = rng.random((2, HOLDINGS)) * ~blocked_mask(list(BOARD))
    spot = TurnSpot(BOARD, 60.0, (500.0, 500.0), 0, ranges)
    no_bets = BetAbstraction(pot_fractions=(1.0,), all_in=False, max_raises=0)
    solution = solve_turn(spot, no_bets, iterations=1)
    holdings, _, equity = board_hands
    mine, theirs = ranges[0, holdings], ranges[1, holdings]
    mass = np.empty(len(holdings))
    compatible_mass(solution.subgame.hands.cards, theirs, mass)
    edge = float(mine @ equity @ theirs) / float(mine @ mass)  # P(win) - P(lose)
    first, second = solution.expected_values()
    # half the pot won or lost; the leaves' products run in float32 (7 digits)
    assert first == pytest.approx(30.0 * edge, rel=1e-5)
    assert second == pytest.approx(-first, rel=1e-5)


def test_the_turn_solve_converges(board_hands) -> None:
    rng = np.random.default_rng(7)
    ranges = rng.random((2, HOLDINGS))
    spot = TurnSpot(BOARD, 100.0, (400.0, 900.0), 1, ranges)
    sizes = BetAbstraction(pot_fractions=(0.5, 1.0), all_in=True, max_raises=2)
    rough = solve_turn(spot, sizes, iterations=10)
    solved = solve_turn(spot, sizes, iterations=200)
    assert solved.exploitability < 0.005 * spot.pot < rough.exploitability
    strategy = solved.node_strategy(0)
    live = ~blocked_mask(list(BOARD))
    assert np.allclose(strategy[live].sum(axis=1), 1.0) and not strategy[~live].any()
    first, second = solved.expected_values()
    assert first + second == pytest.approx(0.0, abs=1e-6 * spot.pot)  # zero-sum, to float32


def test_a_pair_of_aces_always_calls_an_all_in_a_trash_hand_never_does() -> None:
    ranges = np.ones((2, HOLDINGS))
    spot = TurnSpot(BOARD, 100.0, (300.0, 300.0), 0, ranges)
    shove_only = BetAbstraction(pot_fractions=(), all_in=True, max_raises=1)
    solution = solve_turn(spot, shove_only, iterations=200)
    tree = solution.tree
    shove = next(c for c in tree.children(0) if tree.action_names[tree.action[c]] == "all-in")
    facing = solution.node_strategy(int(shove))  # fold, call
    aces = [i for i, (a, b) in enumerate(HOLDING_CARDS) if a // 4 == b // 4 == 12]
    aces = [i for i in aces if not blocked_mask(list(BOARD))[i]]
    trash = holding_index(*parse_cards(["3s", "7d"]))
    assert (facing[aces, 1] > 0.99).all()  # top set on A-9-5-2
    assert facing[trash, 0] > 0.99  # seven high with no draw


def test_leaf_equity_must_be_antisymmetric(board_hands) -> None:
    _, hands, equity = board_hands
    subgame, _ = turn_subgame(TurnSpot(BOARD, 10.0, (50.0, 50.0), 0, np.ones((2, HOLDINGS))),
                              BetAbstraction(pot_fractions=(1.0,), max_raises=1))  # fmt: skip
    with pytest.raises(ValueError, match="antisymmetric"):
        Subgame(subgame.tree, hands, subgame.ranges, leaf_equity=np.abs(equity))
