"""Pot shares against each holding: one pass that gives every range's equity."""

from __future__ import annotations

import numpy as np
import pytest

from agent.players.adaptive.shares import pot_shares, range_share
from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS, blocked_mask, holding_index, range_equity


@pytest.mark.parametrize("board", [["2c", "7d", "9h", "Js"], ["2c", "7d", "9h", "Js", "Ks"]])
def test_the_shares_give_the_exact_range_equity_on_the_turn_and_river(board):
    rng = np.random.default_rng(3)
    hole, cards = parse_cards(["Ah", "Td"]), parse_cards(board)
    weights = rng.random(HOLDINGS) * ~blocked_mask([*hole, *cards])
    shares = pot_shares(hole, cards, rng)
    exact = range_equity(hole, cards, weights)
    assert range_share(shares, weights) == pytest.approx(exact, abs=1e-12)


def test_preflop_shares_are_the_all_in_table():
    shares = pot_shares(parse_cards(["As", "Ah"]), [], np.random.default_rng(0))
    kings = holding_index(*parse_cards(["Kc", "Kd"]))
    assert shares[kings] == pytest.approx(0.82, abs=0.01)  # AA against KK: about 82%
    assert shares[holding_index(*parse_cards(["As", "Kd"]))] == 0.0  # blocked


def test_flop_shares_sample_the_run_outs_close_to_the_exact_equity():
    rng = np.random.default_rng(0)
    hole, flop = parse_cards(["Qh", "Qd"]), parse_cards(["2c", "7d", "9h"])
    weights = (~blocked_mask([*hole, *flop])).astype(float)
    exact = range_equity(hole, flop, weights)
    assert range_share(pot_shares(hole, flop, rng), weights) == pytest.approx(exact, abs=0.02)
