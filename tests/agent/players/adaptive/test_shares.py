"""Pot shares against each holding: one pass that gives every range's equity, the same for
one hole and for many."""

from __future__ import annotations

import numpy as np
import pytest

from agent.players.adaptive.shares import disjoint_holdings, pot_shares, share_table
from agent.poker.cards import parse_cards
from agent.poker.range_equity import (
    HOLDING_CARDS,
    HOLDINGS,
    blocked_mask,
    holding_index,
    range_equity,
)


def equity(shares: np.ndarray, weights: np.ndarray) -> float:
    return float(shares @ weights / weights.sum())


@pytest.mark.parametrize("board", [["2c", "7d", "9h", "Js"], ["2c", "7d", "9h", "Js", "Ks"]])
def test_the_shares_give_the_exact_range_equity_on_the_turn_and_river(board):
    rng = np.random.default_rng(3)
    hole, cards = parse_cards(["Ah", "Td"]), parse_cards(board)
    weights = rng.random(HOLDINGS) * ~blocked_mask([*hole, *cards])
    exact = range_equity(hole, cards, weights)
    assert equity(pot_shares(hole, cards), weights) == pytest.approx(exact, abs=1e-12)


def test_preflop_shares_are_the_all_in_table():
    shares = pot_shares(parse_cards(["As", "Ah"]), [])
    kings = holding_index(*parse_cards(["Kc", "Kd"]))
    assert shares[kings] == pytest.approx(0.82, abs=0.01)  # AA against KK: about 82%
    assert shares[holding_index(*parse_cards(["As", "Kd"]))] == 0.0  # blocked


def test_flop_shares_sample_the_run_outs_close_to_the_exact_equity():
    hole, flop = parse_cards(["Qh", "Qd"]), parse_cards(["2c", "7d", "9h"])
    weights = (~blocked_mask([*hole, *flop])).astype(float)
    exact = range_equity(hole, flop, weights)
    assert equity(pot_shares(hole, flop), weights) == pytest.approx(exact, abs=0.02)


@pytest.mark.parametrize("board", [[], ["2c", "7d", "9h"], ["2c", "7d", "9h", "Js"]])
def test_a_hole_has_the_same_row_alone_as_among_all_holes(board):
    cards = parse_cards(board)
    holes = [(int(a), int(b)) for a, b in HOLDING_CARDS if not {a, b} & set(cards)]
    table = share_table(holes, cards)
    for position in (0, 17, len(holes) - 1):
        alone = pot_shares(holes[position], cards)
        assert np.array_equal(alone, table[position])


def test_a_pair_of_holes_shares_each_other_pot():
    """Against each other, two holes' shares add up to the whole pot."""
    cards = parse_cards(["2c", "7d", "9h"])
    first, second = tuple(parse_cards(["Ah", "Kd"])), tuple(parse_cards(["Qs", "Qc"]))
    rows = share_table([first, second], cards)
    forward = rows[0, holding_index(*second)]
    backward = rows[1, holding_index(*first)]
    assert forward + backward == pytest.approx(1.0)
    assert 0.0 < forward < 0.5  # AK behind the queens on a low flop


def test_holdings_that_share_a_card_with_the_hole_are_out():
    mask = disjoint_holdings([tuple(parse_cards(["As", "Ah"]))])[0]
    assert mask.sum() == HOLDINGS - 101  # 50 + 50 holdings with one ace, 1 with both
