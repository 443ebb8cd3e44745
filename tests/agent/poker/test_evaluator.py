"""The compiled seven-card evaluator agrees with phevaluator and with poker's rules."""

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.evaluator import board_ranker, eval7, evaluate, rank_holdings, ranked
from agent.poker.range_equity import HOLDING_CARDS


def test_kernel_equals_phevaluator_on_random_hands():
    rng = np.random.default_rng(11)
    for _ in range(20_000):
        cards = [int(card) for card in rng.choice(52, 7, replace=False)]
        assert eval7(*cards) == evaluate(cards)


def boards_of_every_kind() -> list[list[int]]:
    """Random boards, and boards with three, four and five cards of a suit, two pairs, trips
    and quads."""
    rng = np.random.default_rng(5)
    boards = [[int(card) for card in rng.choice(52, 5, replace=False)] for _ in range(8)]
    for suited in (3, 4, 5):
        ranks = rng.choice(13, 5, replace=False)
        boards.append([4 * int(r) + (0 if k < suited else 2 + k % 2) for k, r in enumerate(ranks)])
    for board in ("Ah Ad Kh Kd 2h", "7c 7d 7h Jc Qc", "9s 9h 9d 9c 3s"):
        boards.append(parse_cards(board.split()))
    return boards


def test_the_board_ranker_ranks_every_holding_as_phevaluator_does():
    for board in boards_of_every_kind():
        assert len(set(board)) == 5
        ranker = board_ranker(np.array(board, dtype=np.int64))
        for first in range(52):
            for second in range(first + 1, 52):
                if first not in board and second not in board:
                    cards = [first, second, *board]
                    assert ranked(ranker, first, second) == evaluate(cards), cards


def test_every_holding_is_ranked_on_a_board_as_phevaluator_does():
    """The memo's shortcut where no flush is possible, and the full path where one is."""
    ranks = np.empty(len(HOLDING_CARDS), dtype=np.int64)
    for board in boards_of_every_kind():
        rank_holdings(np.array(board, dtype=np.int64), HOLDING_CARDS, ranks)
        for (first, second), rank in zip(HOLDING_CARDS.tolist(), ranks.tolist(), strict=True):
            on_board = first in board or second in board
            expected = -1 if on_board else evaluate([first, second, *board])
            assert rank == expected, (first, second)


def test_wheel_is_a_straight_and_beats_trips():
    wheel = eval7(*parse_cards(["As", "2d", "3c", "4h", "5s", "9d", "Kc"]))
    trips = eval7(*parse_cards(["Ks", "Kd", "Kc", "4h", "5s", "9d", "2c"]))
    six_high = eval7(*parse_cards(["6s", "2d", "3c", "4h", "5s", "9d", "Kc"]))
    assert six_high < wheel < trips


def test_board_plays_ties_ignore_unused_kickers():
    board = ["As", "Ad", "Ks", "Kd", "Qc"]
    first = eval7(*parse_cards(["2h", "3h", *board]))
    second = eval7(*parse_cards(["4c", "5c", *board]))
    assert first == second


def test_flush_beats_straight_and_loses_to_full_house():
    flush = eval7(*parse_cards(["2h", "9h", "Jh", "Kh", "4h", "5d", "6c"]))
    straight = eval7(*parse_cards(["2h", "3d", "4c", "5s", "6h", "Kd", "Qc"]))
    full_house = eval7(*parse_cards(["2h", "2d", "2c", "5s", "5h", "Kd", "Qc"]))
    assert full_house < flush < straight


def test_evaluate_rejects_wrong_sizes():
    with pytest.raises(ValueError, match="4 cards given"):
        evaluate([0, 1, 2, 3])
