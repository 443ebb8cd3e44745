"""Flop subgames solved to the turn's deal (``blueprint.subgame.flop``): the equity matrix
against enumeration over the same run-outs, leaf values against the range-against-range
equity they stand for, convergence of the depth-limited solve, and known calls and folds."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.evaluator import evaluate
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, blocked_mask, holding_index
from agent.poker.share_table import completions
from blueprint.subgame.depth_limited import street_hands
from blueprint.subgame.flop import FlopSpot, flop_hands, solve_flop
from blueprint.subgame.hands import compatible_mass
from blueprint.subgame.river import BetAbstraction

BOARD = tuple(parse_cards(["Ah", "9h", "5c"]))


def sampled_edge(first: tuple[int, int], second: tuple[int, int]) -> float:
    """P(first beats second) - P(second beats first) over the board's sampled run-outs that
    block neither holding (lower rank wins)."""
    edge = played = 0
    for full in completions(BOARD):
        if set(full.tolist()) & (set(first) | set(second)):
            continue
        board = [int(card) for card in full]
        mine, theirs = evaluate([*first, *board]), evaluate([*second, *board])
        edge += (mine < theirs) - (mine > theirs)
        played += 1
    return edge / played


@pytest.fixture(scope="module")
def board_hands():
    return flop_hands(BOARD)


def test_the_equity_matrix_is_what_enumeration_over_the_run_outs_says(board_hands) -> None:
    holdings, hands, equity = board_hands
    assert len(holdings) == 1176 and equity.shape == (1176, 1176)  # C(49, 2)
    assert len(completions(BOARD)) == 150
    rng = np.random.default_rng(3)
    checked = 0
    while checked < 30:
        h, j = rng.integers(len(holdings), size=2)
        first, second = tuple(map(int, hands.cards[h])), tuple(map(int, hands.cards[j]))
        if set(first) & set(second):
            assert equity[h, j] == 0.0  # a blocked pair is never dealt
            continue
        assert equity[h, j] == pytest.approx(sampled_edge(first, second), abs=1e-6)
        checked += 1
    assert np.array_equal(equity, -equity.T)


def test_the_sample_is_within_its_standard_error_of_the_exact_equity() -> None:
    aces = tuple(parse_cards(["As", "Ad"]))  # top set against the nut flush draw
    draw = tuple(parse_cards(["Kh", "Qh"]))
    dead = set(BOARD) | set(aces) | set(draw)
    deck = [card for card in range(52) if card not in dead]
    outcomes = [
        np.sign(evaluate([*draw, *BOARD, *runout]) - evaluate([*aces, *BOARD, *runout]))
        for runout in itertools.combinations(deck, 2)
    ]
    exact = float(np.mean(outcomes))  # every one of the 990 run-outs: 0.489
    holdings, _, equity = flop_hands(BOARD)
    row = list(holdings).index(holding_index(*aces))
    col = list(holdings).index(holding_index(*draw))
    played = sum(not set(full.tolist()) & (set(aces) | set(draw)) for full in completions(BOARD))
    assert exact == pytest.approx(484 / 990)
    assert abs(float(equity[row, col]) - exact) < 3 * np.sqrt((1 - exact**2) / played)


def test_only_flop_and_turn_boards_are_depth_limited() -> None:
    with pytest.raises(ValueError, match="3 or 4 board cards"):
        street_hands(tuple(parse_cards(["Ah", "9h", "5c", "2d", "3s"])))
    with pytest.raises(ValueError, match="3 distinct cards"):
        FlopSpot(BOARD[:2], 10.0, (50.0, 50.0), 0, np.ones((2, HOLDINGS)))


def test_a_checked_down_flop_is_worth_the_range_equity(board_hands) -> None:
    rng = np.random.default_rng(5)
    ranges = rng.random((2, HOLDINGS)) * ~blocked_mask(list(BOARD))
    spot = FlopSpot(BOARD, 60.0, (500.0, 500.0), 0, ranges)
    no_bets = BetAbstraction(pot_fractions=(1.0,), all_in=False, max_raises=0)
    solution = solve_flop(spot, no_bets, iterations=1)
    holdings, _, equity = board_hands
    mine, theirs = ranges[0, holdings], ranges[1, holdings]
    mass = np.empty(len(holdings))
    compatible_mass(solution.subgame.hands.cards, theirs, mass)
    edge = float(mine @ equity @ theirs) / float(mine @ mass)  # P(win) - P(lose)
    first, second = solution.expected_values()
    assert first == pytest.approx(30.0 * edge, rel=1e-5)  # half the pot won or lost
    assert second == pytest.approx(-first, rel=1e-5)


def test_the_flop_solve_converges() -> None:
    rng = np.random.default_rng(7)
    spot = FlopSpot(BOARD, 100.0, (400.0, 900.0), 1, rng.random((2, HOLDINGS)))
    sizes = BetAbstraction(pot_fractions=(0.5, 1.0), all_in=True, max_raises=2)
    rough = solve_flop(spot, sizes, iterations=10)
    solved = solve_flop(spot, sizes, iterations=200)
    assert solved.exploitability < 0.005 * spot.pot < rough.exploitability
    strategy = solved.node_strategy(0)
    live = ~blocked_mask(list(BOARD))
    assert np.allclose(strategy[live].sum(axis=1), 1.0) and not strategy[~live].any()


def test_top_set_always_calls_an_all_in_a_trash_hand_never_does() -> None:
    spot = FlopSpot(BOARD, 100.0, (300.0, 300.0), 0, np.ones((2, HOLDINGS)))
    shove_only = BetAbstraction(pot_fractions=(), all_in=True, max_raises=1)
    solution = solve_flop(spot, shove_only, iterations=200)
    tree = solution.tree
    shove = next(c for c in tree.children(0) if tree.action_names[tree.action[c]] == "all-in")
    facing = solution.node_strategy(int(shove))  # fold, call
    aces = [i for i, (a, b) in enumerate(HOLDING_CARDS) if a // 4 == b // 4 == 12]
    aces = [i for i in aces if not blocked_mask(list(BOARD))[i]]
    trash = holding_index(*parse_cards(["3s", "7d"]))  # seven high, a backdoor straight at best
    assert (facing[aces, 1] > 0.99).all()
    assert facing[trash, 0] > 0.99
