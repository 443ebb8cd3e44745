"""The range of local best response stays a distribution and excludes blocked holdings."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.equity import equity, showdown_equities
from agent.poker.range_equity import (
    HOLDING_CARDS,
    HOLDINGS,
    blocked_mask,
    holding_index,
    range_equity,
)
from arena.lbr.range import Range


def test_uniform_range_excludes_lbr_cards_and_sums_to_one() -> None:
    hand = Range.uniform(parse_cards(["As", "Kd"]))
    assert np.count_nonzero(hand.weights) == 1225  # C(50, 2)
    assert hand.weights.sum() == pytest.approx(1.0)
    assert not hand.weights[blocked_mask(parse_cards(["As", "Kd"]))].any()


def test_random_bayes_updates_keep_a_distribution_without_blocked_cards() -> None:
    rng = np.random.default_rng(3)
    dead = parse_cards(["2c", "2d"])
    hand = Range.uniform(dead)
    board = parse_cards(["Ah", "Kh", "7s", "4c", "9d"])
    for cards in (board[:3], board[3:4], board[4:]):
        hand.block(cards)
        dead = dead + cards
        for _ in range(3):
            live = hand.live()
            assert hand.update(live, rng.random(len(live)))
            assert hand.weights.sum() == pytest.approx(1.0)
            assert not hand.weights[blocked_mask(dead)].any()
            assert (hand.weights >= 0).all()
    assert np.count_nonzero(hand.weights) == 990  # C(45, 2): nothing unblocked was lost


def test_an_impossible_action_leaves_the_range_and_counts_a_miss() -> None:
    hand = Range.uniform()
    before = hand.weights.copy()
    assert not hand.update(hand.live(), np.zeros(HOLDINGS))
    assert hand.misses == 1
    assert np.array_equal(hand.weights, before)
    with pytest.raises(ValueError, match="probabilities"):
        hand.update(hand.live(), np.full(HOLDINGS, 2.0))


def test_range_equity_against_the_uniform_range_is_the_exact_equity() -> None:
    for board in (["2c", "7d", "9h", "Js"], ["2c", "7d", "9h", "Js", "3s"]):
        found = range_equity(["As", "Kd"], board, np.ones(HOLDINGS))
        assert found == pytest.approx(equity(["As", "Kd"], board, method="exact").share, abs=1e-12)


def test_range_equity_against_one_holding_is_the_showdown_equity() -> None:
    weights = np.zeros(HOLDINGS)
    weights[holding_index(*parse_cards(["Qs", "Qh"]))] = 1.0
    board = ["2c", "7d", "9h"]
    expected = showdown_equities([["As", "Kd"], ["Qs", "Qh"]], board)[0]
    assert range_equity(["As", "Kd"], board, weights) == pytest.approx(expected, abs=1e-12)


def test_preflop_range_equity_is_sampled_with_the_injected_generator() -> None:
    first = range_equity(["As", "Ad"], [], np.ones(HOLDINGS), rng=np.random.default_rng(1))
    again = range_equity(["As", "Ad"], [], np.ones(HOLDINGS), rng=np.random.default_rng(1))
    assert first == again
    assert first == pytest.approx(0.852, abs=0.01)  # AA against a random hand
    with pytest.raises(ValueError, match="rng"):
        range_equity(["As", "Ad"], [], np.ones(HOLDINGS))
    with pytest.raises(ValueError, match="share a card"):
        range_equity(["As", "Ad"], ["As", "2c", "3c"], np.ones(HOLDINGS))


def test_holdings_table_is_every_pair_once() -> None:
    assert len({tuple(pair) for pair in HOLDING_CARDS.tolist()}) == HOLDINGS
    assert all(holding_index(a, b) == i for i, (a, b) in enumerate(HOLDING_CARDS.tolist()))
