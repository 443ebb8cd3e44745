"""Equity: known preflop values, exact enumeration against brute force, and input checks."""

import itertools
import math

import numpy as np
import pytest

from agent.poker.equity import equity, preflop_equity, showdown_equities
from agent.poker.evaluator import evaluate


def brute_force_river(hole, board):
    hero = evaluate(hole + board)
    unseen = [card for card in range(52) if card not in hole + board]
    wins = ties = 0
    for opponent in itertools.combinations(unseen, 2):
        villain = evaluate(list(opponent) + board)
        wins += hero < villain
        ties += hero == villain
    total = math.comb(len(unseen), 2)
    return wins / total, ties / total


def test_aces_preflop_monte_carlo_within_noise():
    result = equity(
        ["As", "Ah"], simulations=200_000, rng=np.random.default_rng(3), method="monte-carlo"
    )
    noise = 4 * math.sqrt(0.25 / 200_000)
    assert abs(result.win - 0.8493) < noise
    assert abs(result.tie - 0.0055) < noise
    assert abs(result.share - 0.852) < noise


def test_preflop_table_knows_aces_and_kings():
    assert abs(preflop_equity(["Ad", "Ac"]).share - 0.852) < 0.002
    assert abs(preflop_equity(["Kd", "Kc"]).share - 0.824) < 0.002
    assert equity(["As", "Ah"]) == preflop_equity(["Ac", "Ad"])


def test_exact_river_equals_brute_force_on_random_spots():
    rng = np.random.default_rng(5)
    for _ in range(5):
        cards = [int(card) for card in rng.choice(52, 7, replace=False)]
        hole, board = cards[:2], cards[2:]
        result = equity(hole, board, method="exact")
        win, tie = brute_force_river(hole, board)
        assert result.win == pytest.approx(win, abs=1e-12)
        assert result.tie == pytest.approx(tie, abs=1e-12)
        assert result.share == pytest.approx(win + tie / 2, abs=1e-12)


def test_exact_turn_matches_monte_carlo():
    hole, board = ["Qh", "Jh"], ["Th", "2h", "9c", "3d"]
    exact = equity(hole, board, method="exact")
    sampled = equity(
        hole, board, simulations=100_000, rng=np.random.default_rng(1), method="monte-carlo"
    )
    assert abs(exact.share - sampled.share) < 4 * math.sqrt(0.25 / 100_000)


def test_split_pot_counts_half():
    result = equity(["2c", "3d"], ["As", "Ks", "Qs", "Js", "Ts"], method="exact")
    assert result.tie == 1.0
    assert result.share == 0.5


def test_equities_of_all_players_sum_to_one():
    hands = [["As", "Ah"], ["Kd", "Kc"], ["9s", "8s"]]
    shares = showdown_equities(hands, ["2s", "7s", "Jd"])
    assert sum(shares) == pytest.approx(1.0, abs=1e-12)
    heads_up = showdown_equities([["As", "Ah"], ["Kd", "Kc"]], ["2c", "7d", "Jh", "3s"])
    assert heads_up == pytest.approx([42 / 44, 2 / 44])  # two kings left among 44 rivers


def test_more_opponents_lower_equity():
    rng = np.random.default_rng(8)
    one = equity(
        ["Ts", "Td"], ["2c", "7h", "Kd"], simulations=20_000, rng=rng, method="monte-carlo"
    )
    three = equity(["Ts", "Td"], ["2c", "7h", "Kd"], opponents=3, simulations=20_000, rng=rng)
    assert three.share < one.share - 0.1
    assert three.win + three.tie + three.loss == pytest.approx(1.0)


def test_same_seed_same_result():
    first = equity(
        ["7s", "6s"], ["5s", "4d", "Kc"], simulations=5_000, rng=np.random.default_rng(9)
    )
    again = equity(
        ["7s", "6s"], ["5s", "4d", "Kc"], simulations=5_000, rng=np.random.default_rng(9)
    )
    assert first == again


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hole": ["As", "Xx"]}, "malformed card 'Xx'"),
        ({"hole": ["As", "As"]}, "duplicated card 'As'"),
        ({"hole": ["As", "Kd"], "board": ["2c"]}, "has 1 cards"),
        ({"hole": ["As", "Kd"], "board": ["2c", "3c", "4c", "5c", "6c", "7c"]}, "has 6 cards"),
        ({"hole": ["As", "Kd"], "simulations": 0}, "simulations=0"),
        ({"hole": ["As", "Kd"], "board": ["2c", "3c", "4c"], "method": "monte-carlo"}, "needs rng"),
        ({"hole": ["As", "Kd"], "opponents": 2, "method": "exact"}, "not 2"),
        ({"hole": ["As", "Kd"], "method": "guess"}, "unknown equity method"),
    ],
)
def test_bad_input_names_the_problem(kwargs, message):
    with pytest.raises(ValueError, match=message):
        equity(**kwargs)
