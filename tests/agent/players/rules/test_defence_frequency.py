"""Pot odds, minimum defense frequency and equity ranks: constructed spots with known answers."""

from __future__ import annotations

import numpy as np
import pytest

from agent.boundary.situations import make_decision
from agent.players.cfrv2 import CFRv2Player
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.defence import (
    defends,
    hand_percentiles,
    minimum_defense_frequency,
    percentiles,
    pot_odds,
    preflop_odds_frequency,
    raises_for_value,
)
from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDING_CARDS, blocked_mask


@pytest.mark.parametrize(
    ("bet", "pot_before", "mdf", "odds"),
    [
        (100, 100, 1 / 2, 1 / 3),  # pot-sized bet: defend half, need a third of the pot
        (50, 100, 2 / 3, 1 / 4),  # half pot
        (990, 20, 20 / 1010, 990 / 2000),  # a 100-BB shove over a limped pot
        (10, 10, 1 / 2, 1 / 3),
    ],
)
def test_mdf_and_pot_odds_arithmetic(bet, pot_before, mdf, odds):
    pot = pot_before + bet  # the pot the defender sees includes the bet
    assert minimum_defense_frequency(bet, pot) == pytest.approx(mdf)
    assert pot_odds(bet, pot) == pytest.approx(odds)
    # a bluff with no equity breaks even against exactly MDF: p * (1 - MDF) = b * MDF
    assert pot_before * (1 - mdf) == pytest.approx(bet * mdf)


def test_bad_chip_counts_are_rejected():
    with pytest.raises(ValueError, match="to_call=50, pot=40"):
        minimum_defense_frequency(50, 40)
    with pytest.raises(ValueError, match="to_call=-1"):
        pot_odds(-1, 10)


def test_percentiles_rank_live_holdings_with_half_ties():
    share = np.array([0.1, 0.4, 0.4, 0.9, 0.7])
    live = np.array([True, True, True, True, False])
    assert percentiles(share, live).tolist() == [0.0, 0.5, 0.5, 1.0, 0.0]


def test_preflop_ranks_put_aces_first_and_seven_deuce_last():
    table = hand_percentiles(())
    aces, kings, trash = (parse_cards(h) for h in (["As", "Ah"], ["Ks", "Kh"], ["7c", "2d"]))
    assert table[aces[0], aces[1]] > table[kings[0], kings[1]] > 0.99
    assert table[trash[0], trash[1]] < 0.05  # 72o: among the weakest offsuit hands
    assert table[aces[1], aces[0]] == table[aces[0], aces[1]]


@pytest.mark.parametrize(("bet", "pot_before"), [(100, 200), (200, 200), (600, 200), (20, 200)])
def test_defending_share_of_a_river_range_is_the_mdf(bet, pot_before):
    board = parse_cards(["2c", "7d", "9h", "Js", "Kc"])  # no pair, no flush, no straight
    table = hand_percentiles(board)
    live = ~blocked_mask(board)
    ranks = table[HOLDING_CARDS[live, 0], HOLDING_CARDS[live, 1]]
    pot = pot_before + bet
    share = np.mean([defends(float(q), bet, pot) for q in ranks])
    assert share == pytest.approx(minimum_defense_frequency(bet, pot), abs=0.01)
    raising = np.mean([raises_for_value(float(q), bet, pot) for q in ranks])
    # river hands tie in groups (the same pair and kickers): shares match to a group's size
    assert raising == pytest.approx(minimum_defense_frequency(bet, pot) / 3, abs=0.02)


def test_the_nuts_rank_first_on_the_river():
    board = parse_cards(["2c", "2d", "7h", "Ks", "Qc"])
    table = hand_percentiles(board)
    quads = parse_cards(["2h", "2s"])  # the one holding that makes four of a kind
    kings = parse_cards(["Kd", "Kh"])  # the best full house: below quads, tied with 2 combos
    assert table[quads[0], quads[1]] == 1.0
    assert table[kings[0], kings[1]] == pytest.approx((1077 + 0.5 * 2) / 1080)


@pytest.mark.parametrize(
    ("hole", "mdf_shove", "odds_shove", "mdf_open", "odds_open"),
    [
        (["9c", "6d"], "fold", "fold", "fold", "call"),  # covers a 3x open's price, not a shove's
        (["Ah", "Tc"], "fold", "call", "raise", "raise"),
        (["8h", "8c"], "fold", "call", "raise", "raise"),
    ],
)
def test_preflop_odds_defence_continues_with_the_hands_that_cover_the_price(
    hole, mdf_shove, odds_shove, mdf_open, odds_open
):
    def action(player, to_call, pot):
        decision = make_decision(hole, to_call=to_call, paid=10, pot=pot, stack=990)
        [(name, _, _)] = player.action_probabilities(*decision)
        return name

    mdf, odds = CFRv2Player(seed=0), CFRv2FixedPlayer(seed=0, preflop_defense="odds")
    assert (action(mdf, 990, 1010), action(odds, 990, 1010)) == (mdf_shove, odds_shove)
    assert (action(mdf, 20, 40), action(odds, 20, 40)) == (mdf_open, odds_open)


def test_preflop_odds_frequency_follows_the_price():
    prices = [preflop_odds_frequency(bet, 20 + bet) for bet in (10, 20, 40, 100, 400, 980)]
    assert prices == sorted(prices, reverse=True)  # a bigger bet, fewer hands
    assert prices[0] == 1.0 and 0.05 < prices[-1] < 0.15
