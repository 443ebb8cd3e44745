"""Kuhn poker: known value, NashConv of reference policies, CFR family convergence."""

from __future__ import annotations

import numpy as np
import pytest

from blueprint.best_response import best_response, expected_value, exploitability, nash_conv
from blueprint.cfr import PRESETS, FullWidthSolver
from blueprint.kuhn import GAME_VALUE, fit_alpha, kuhn_equilibrium, kuhn_game
from blueprint.regret import uniform_strategy

GAME = kuhn_game()


def _uniform() -> np.ndarray:
    return uniform_strategy(GAME.tree.infoset_actions(), GAME.tree.max_actions)


def test_kuhn_has_twelve_information_sets_and_six_deals() -> None:
    assert GAME.tree.num_infosets == 12
    assert GAME.deals.size == 6
    assert GAME.deals.weight.sum() == pytest.approx(1.0)


def test_uniform_policy_nash_conv_is_eleven_twelfths() -> None:
    assert nash_conv(GAME.tree, GAME.deals, _uniform()) == pytest.approx(11 / 12, abs=1e-12)


def test_always_fold_nash_conv_is_two() -> None:
    fold = np.zeros((12, 2))
    fold[:, 0] = 1.0  # "pass" is Kuhn's fold when facing a bet
    assert nash_conv(GAME.tree, GAME.deals, fold) == pytest.approx(2.0, abs=1e-12)


@pytest.mark.parametrize("alpha", [0.0, 0.1, 1 / 3])
def test_every_member_of_the_nash_family_is_an_equilibrium(alpha: float) -> None:
    policy = kuhn_equilibrium(GAME, alpha)
    assert nash_conv(GAME.tree, GAME.deals, policy) == pytest.approx(0.0, abs=1e-12)
    assert expected_value(GAME.tree, GAME.deals, policy) == pytest.approx(GAME_VALUE, abs=1e-12)


def test_best_response_to_always_bet_folds_jacks_and_calls_with_queens() -> None:
    always_bet = np.zeros((12, 2))
    always_bet[:, 1] = 1.0
    response = best_response(GAME.tree, GAME.deals, always_bet, responder=1)
    facing_bet = GAME.tree.infoset_rows(GAME.decision_nodes[2])  # player 1 after "b"
    assert response[facing_bet, 1].tolist() == [0.0, 1.0, 1.0]  # J folds, Q and K call


def test_cfr_plus_reaches_the_game_value_and_the_nash_family() -> None:
    solver = FullWidthSolver(GAME.tree, GAME.deals, PRESETS["cfr+"])
    solver.run(1000)
    policy = solver.average_strategy()
    assert solver.game_value() == pytest.approx(GAME_VALUE, abs=1e-3)
    assert exploitability(GAME.tree, GAME.deals, policy) < 1e-3
    family = kuhn_equilibrium(GAME, fit_alpha(policy, GAME))
    assert np.abs(policy - family).max() < 0.02


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_exploitability_falls_with_iterations(name: str) -> None:
    solver = FullWidthSolver(GAME.tree, GAME.deals, PRESETS[name])
    checkpoints = []
    for _ in range(3):
        solver.run(100 if not checkpoints else 9 * solver.iteration)
        checkpoints.append(exploitability(GAME.tree, GAME.deals, solver.average_strategy()))
    assert checkpoints[0] > checkpoints[1] > checkpoints[2]
    assert checkpoints[2] < 5e-3
