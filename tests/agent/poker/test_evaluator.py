"""The compiled seven-card evaluator agrees with phevaluator and with poker's rules."""

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.evaluator import eval7, evaluate


def test_kernel_equals_phevaluator_on_random_hands():
    rng = np.random.default_rng(11)
    for _ in range(20_000):
        cards = [int(card) for card in rng.choice(52, 7, replace=False)]
        assert eval7(*cards) == evaluate(cards)


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
