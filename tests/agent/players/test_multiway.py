"""The multiway rule in the player: five opponents in the hand, preflop and on the flop."""

from __future__ import annotations

import pytest

from agent.boundary.equity_share import share_level
from agent.boundary.situations import make_decision
from agent.boundary.thresholds import Level
from agent.players.cfrv2 import CFRv2Player


@pytest.fixture(scope="module")
def players():
    return {
        rule: CFRv2Player(multiway=rule, simulations=4000, seed=0) for rule in ("share", "study")
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
    assert actions(players["study"], hole, **spot) == {"raise"}  # the study's 0.20 ** 5 rule


def test_aces_raise_the_pot_into_five_opponents(players):
    [(name, amount, _)] = players["share"].action_probabilities(
        *make_decision(["As", "Ad"], to_call=10, paid=0, pot=15, players=6)
    )
    assert name == "raise" and amount >= 10 + 25  # at least the call plus the pot after it


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
