"""Certainty equivalents: the mean without risk aversion, less than the mean with it, and the
closed form of exponential utility."""

from __future__ import annotations

import math

import pytest

from agent.players.adaptive.risk import certainty_equivalent, mean_value

SHOVE = ((0.8, 1000.0), (0.2, -1000.0))  # an 80% favourite staking a 1,000-chip stack


def test_without_aversion_a_gamble_is_worth_its_mean():
    assert certainty_equivalent(SHOVE, 0.0) == pytest.approx(600.0)
    assert mean_value(SHOVE) == pytest.approx(600.0)


def test_with_aversion_it_is_the_exponential_utility_closed_form():
    aversion = 2.0 / 1000  # twice the adaptive agent's default, 1,000-chip stacks
    expected = -math.log(0.8 * math.exp(-2.0) + 0.2 * math.exp(2.0)) / aversion
    assert certainty_equivalent(SHOVE, aversion) == pytest.approx(expected)
    assert certainty_equivalent(SHOVE, aversion) < 0  # the stack is worth more than the flip


def test_more_aversion_is_worth_less_and_a_sure_thing_is_worth_itself():
    worths = [certainty_equivalent(SHOVE, a) for a in (0.0, 1e-4, 1e-3, 1e-2)]
    assert worths == sorted(worths, reverse=True)
    assert certainty_equivalent(((1.0, -40.0),), 0.05) == pytest.approx(-40.0)


def test_large_stakes_do_not_overflow():
    assert certainty_equivalent(((0.5, 1e6), (0.5, -1e6)), 1.0) == pytest.approx(-1e6 + math.log(2))


def test_bad_gambles_are_refused_by_name():
    with pytest.raises(ValueError, match="risk aversion"):
        certainty_equivalent(SHOVE, -1.0)
    with pytest.raises(ValueError, match="positive probability"):
        certainty_equivalent(((0.0, 5.0),), 0.0)
