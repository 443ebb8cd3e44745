"""The opponent model: situations read from a hand, frequencies, and the strength order
fitted from shown hands."""

from __future__ import annotations

import numpy as np
import pytest

from agent.boundary.snapshot import ActionRecord, Street
from agent.players.opponents.decisions import Earlier, Facing, Kind, Situation, hand_decisions
from agent.players.opponents.model import PRIOR, OpponentModel, ordered_band

FLOP_NO_BET = Situation(Street.FLOP, Facing.NONE)
FLOP_CHECK_THEN_BET = Situation(Street.FLOP, Facing.MEDIUM, Earlier.PASSIVE)


def record(street, seat, kind, amount, paid):
    return ActionRecord(street, seat, kind, amount, paid, 0)


def test_a_check_raise_is_read_as_a_raise_after_a_check_facing_a_pot_bet():
    history = [
        record(Street.PREFLOP, 0, "SMALLBLIND", 5, 5),
        record(Street.PREFLOP, 1, "BIGBLIND", 10, 10),
        record(Street.PREFLOP, 0, "CALL", 10, 5),
        record(Street.PREFLOP, 1, "CALL", 10, 0),  # a check
        record(Street.FLOP, 1, "CALL", 0, 0),  # a check
        record(Street.FLOP, 0, "RAISE", 20, 20),  # a pot-sized bet
        record(Street.FLOP, 1, "RAISE", 80, 80),
        record(Street.FLOP, 0, "FOLD", 0, 0),
    ]
    seen = [(d.seat, d.situation, d.kind) for d in hand_decisions(history)]
    assert seen == [
        (0, Situation(Street.PREFLOP, Facing.SMALL), Kind.PASSIVE),
        (1, Situation(Street.PREFLOP, Facing.NONE), Kind.PASSIVE),
        (1, Situation(Street.FLOP, Facing.NONE), Kind.PASSIVE),
        (0, Situation(Street.FLOP, Facing.NONE), Kind.AGGRESSIVE),
        (1, Situation(Street.FLOP, Facing.MEDIUM, Earlier.PASSIVE), Kind.AGGRESSIVE),
        (0, Situation(Street.FLOP, Facing.MEDIUM, Earlier.AGGRESSIVE), Kind.FOLD),  # 60 into 60
    ]


def test_frequencies_start_at_the_prior_and_follow_the_data():
    model = OpponentModel()
    assert np.allclose(model.frequencies(FLOP_CHECK_THEN_BET), PRIOR[Facing.MEDIUM])
    for _ in range(600):
        model.count(FLOP_CHECK_THEN_BET, Kind.FOLD)
    frequencies = model.frequencies(FLOP_CHECK_THEN_BET)
    assert abs(frequencies.sum() - 1.0) < 1e-12
    assert frequencies[Kind.FOLD] > 0.99
    assert np.allclose(model.frequencies(FLOP_NO_BET), PRIOR[Facing.NONE])  # other spots alone


def test_counts_decay_so_a_change_of_style_is_followed():
    model = OpponentModel()
    for _ in range(300):
        model.start_hand()
        model.count(FLOP_NO_BET, Kind.PASSIVE)
    for _ in range(300):
        model.start_hand()
        model.count(FLOP_NO_BET, Kind.AGGRESSIVE)
    assert model.frequencies(FLOP_NO_BET)[Kind.AGGRESSIVE] > 0.6


def shown_hands(model, percentile_of, rng, hands=40):
    """Show ``hands`` calls of a player who calls half the time, at percentiles drawn by
    ``percentile_of(rng)``."""
    spot = Situation(Street.FLOP, Facing.SMALL)
    for _ in range(hands):
        model.count(spot, Kind.FOLD)
        model.count(spot, Kind.PASSIVE)
        model.shown(spot, Kind.PASSIVE, [percentile_of(rng)])
    return model.rationality(Street.FLOP)


def test_a_player_who_calls_with_any_hand_is_read_as_random():
    rng = np.random.default_rng(0)
    assert OpponentModel().rationality(Street.FLOP) > 0.6  # the prior: sound play
    assert shown_hands(OpponentModel(), lambda r: r.random(), rng) < 0.2


def test_a_player_who_calls_with_its_stronger_hands_is_read_as_rational():
    rng = np.random.default_rng(0)
    # folding half and raising a few of its best, it calls with the hands in between
    rationality = shown_hands(OpponentModel(), lambda r: r.uniform(0.55, 0.95), rng)
    assert rationality > 0.85
    assert OpponentModel().rationality(Street.PREFLOP) < rationality  # groups learn apart


def test_one_bet_shown_with_the_weakest_hand_moves_a_flat_prior_further() -> None:
    # a bet with a hand at the 5th percentile: the rational player never bets it, so each
    # weight l is multiplied by (1 - l) times the bet's frequency (the same for every l)
    sound, flat = OpponentModel(), OpponentModel("flat")
    assert sound.rationality(Street.FLOP) == pytest.approx(0.72)  # the prior's mean
    assert flat.rationality(Street.FLOP) == pytest.approx(2.95 / 6)  # the grid's mean
    for model in (sound, flat):
        model.shown(FLOP_NO_BET, Kind.AGGRESSIVE, [0.05])
    # sound: prior x (1 - l) = .05, .04, .06, .06, .05, .02; flat: 1, .8, .6, .4, .2, .05
    assert sound.rationality(Street.FLOP) == pytest.approx(0.127 / 0.28)
    assert flat.rationality(Street.FLOP) == pytest.approx(0.8475 / 3.05)


def test_an_unknown_order_prior_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="order_prior='rational'"):
        OpponentModel("rational")


def test_a_range_per_hole_is_weighed_as_numpy_weighs_it():
    model = OpponentModel()
    situation = Situation(Street.FLOP, Facing.SMALL)
    for _ in range(3):
        model.count(situation, Kind.FOLD)
    percentiles = np.random.default_rng(2).random((30, 1326))
    frequencies = model.frequencies(situation)
    weight = model.rationality(Street.FLOP)
    for kind in Kind:
        band = ordered_band(kind, frequencies, percentiles)
        expected = weight * band + (1.0 - weight) * frequencies[kind]
        assert np.array_equal(model.likelihood(situation, kind, percentiles), expected)
