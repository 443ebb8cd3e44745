"""The multiway rule in the player: five opponents in the hand, preflop and on the flop."""

from __future__ import annotations

import pytest

from agent.boundary.equity_share import share_level
from agent.boundary.situations import make_decision
from agent.boundary.thresholds import Level
from agent.players.player import CFRv2FixedPlayer


@pytest.fixture(scope="module")
def players():
    return {
        rule: CFRv2FixedPlayer(multiway=rule, simulations=4000, seed=0)
        for rule in ("share", "study")
    }


def actions(player, hole, board=(), **spot):
    return {
        name
        for name, _, p in player.action_probabilities(*make_decision(hole, board, **spot))
        if p > 0
    }


@pytest.mark.parametrize("hole", [["7c", "2d"], ["9h", "4s"], ["Jc", "3d"]])
def test_weak_hands_fold_to_a_raise_into_five_opponents(players, hole):
    spot = dict(to_call=60, pot=95, players=6, stack=940)
    assert actions(players["share"], hole, **spot) == {"fold"}
    assert actions(players["study"], hole, **spot) == {"raise"}  # the thresholds: 0.20 ** 5


def test_aces_raise_the_pot_into_five_opponents_in_a_tournament():
    player = CFRv2FixedPlayer(simulations=4000, seed=0)
    player.receive_game_start_message(game_start(max_round=300))
    [(name, amount, _)] = player.action_probabilities(
        *make_decision(["As", "Ad"], to_call=10, paid=0, pot=15, players=6)
    )
    assert name == "raise" and amount >= 10 + 25  # at least the call plus the pot after it


def game_start(max_round: int) -> dict:
    rule = {"initial_stack": 1000, "max_round": max_round, "small_blind_amount": 5, "ante": 0}
    return {"player_num": 6, "rule": rule}


@pytest.mark.parametrize(("max_round", "priced"), [(1, 1), (300, 9)])
def test_preflop_it_prices_against_one_opponent_in_a_cash_game_and_all_in_a_tournament(
    max_round, priced
):
    player = CFRv2FixedPlayer(simulations=4000, seed=0)
    player.receive_game_start_message(game_start(max_round))
    assert player.settled.preflop_opponents == priced
    preflop = player.snapshot(*make_decision(["Ah", "5d"], to_call=10, pot=15, players=6))
    flop = player.snapshot(*make_decision(["Ah", "5d"], ["2c", "7d", "9s"], pot=60, players=6))
    assert player.fixed.multiway.priced_opponents(preflop) == min(5, priced)
    assert (
        player.fixed.multiway.priced_opponents(flop) == 5
    )  # after the flop, everyone still in the hand


@pytest.mark.parametrize(
    ("preflop_opponents", "expected"),
    [
        (1, {"Ah 5d": ("call", 10), "Qs 9d": ("call", 10), "As Ad": ("raise", 22)}),
        (9, {"Ah 5d": ("fold", 0), "Qs 9d": ("fold", 0), "As Ad": ("raise", 35)}),
    ],
)
def test_first_in_at_six_players_by_the_opponents_it_prices_against(preflop_opponents, expected):
    """Win rates A5o 0.60, Q9o 0.57, AA 0.85 against one hand: 1.19, 1.14 and 1.71 fair
    shares (limp, limp, half-pot raise: 10 to call plus 12 of the 25-chip pot); against five,
    A5o and Q9o win 0.20 and 0.21, below the price of 0.4."""
    player = CFRv2FixedPlayer(simulations=4000, seed=0, preflop_opponents=preflop_opponents)
    for hole, action in expected.items():
        decision = make_decision(hole.split(), to_call=10, pot=15, players=6)
        [(name, amount, probability)] = player.action_probabilities(*decision)
        assert (name, amount, probability) == (*action, 1.0)


def test_bad_preflop_opponents_are_named():
    with pytest.raises(ValueError, match="preflop_opponents=0"):
        CFRv2FixedPlayer(preflop_opponents=0)


def test_a_free_check_is_never_a_fold(players):
    spot = dict(to_call=0, pot=60, players=6)
    assert actions(players["share"], ["7c", "2d"], ["Ks", "Qh", "9c"], **spot) == {"call"}


@pytest.mark.parametrize(
    ("rate", "to_call", "pot", "level"),
    [
        (0.40, 0, 60, Level.RAISE_TWICE_MIN),  # 2.0 shares against 4 opponents
        (0.30, 0, 60, Level.MIN_RAISE),  # 1.5 shares
        (0.20, 60, 60, Level.PASS),  # a fair share, but the pot odds ask for 0.5
        (0.25, 20, 60, Level.CALL),  # 1.25 shares and the pot odds ask for exactly 0.25
    ],
)
def test_share_levels_at_the_boundaries(rate, to_call, pot, level):
    assert share_level(rate, opponents=4, to_call=to_call, pot=pot) is level


def test_bad_win_rates_are_named():
    with pytest.raises(ValueError, match="not a probability"):
        share_level(1.2, opponents=2, to_call=0, pot=10)
