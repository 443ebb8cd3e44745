"""Full-width XFP (Heinrich, Lanctot & Silver 2015): known answers on Kuhn and Leduc.

The reference trajectories were measured against OpenSpiel's ``fictitious_play.XFPSolver``
(open-spiel 2.0.2) in lockstep: NashConv agreed to 1e-14 at every iteration compared (Kuhn
1 to 50, Leduc 1 to 10), so its first values are exact known answers here.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from blueprint.best_response import expected_value, nash_conv
from blueprint.commands.cli import main
from blueprint.deals import Deals
from blueprint.kuhn import GAME_VALUE, kuhn_game
from blueprint.leduc import leduc_game
from blueprint.xfp import XFPConfig, XFPSolver, mix_best_response, own_parents

KUHN = kuhn_game()
LEDUC = leduc_game()


def _nash_conv_after(game, iterations: list[int]) -> list[float]:
    """NashConv of XFP's average policy after each iteration count (increasing)."""
    solver, values = XFPSolver(game.tree, game.deals), []
    for point in iterations:
        solver.run(point - solver.iteration)
        values.append(nash_conv(game.tree, game.deals, solver.average_strategy()))
    return values


def test_kuhn_trajectory_matches_openspiel() -> None:
    # NashConv 5/8, 5/12, 17/48, 19/72, 1/6 after 1, 2, 3, 5, 10 iterations, as OpenSpiel's.
    values = _nash_conv_after(KUHN, [1, 2, 3, 5, 10])
    assert values == pytest.approx([5 / 8, 5 / 12, 17 / 48, 19 / 72, 1 / 6], abs=1e-12)


def test_leduc_trajectory_matches_openspiel() -> None:
    values = _nash_conv_after(LEDUC, [1, 2, 10])
    assert values == pytest.approx([5.20625, 5.2613425925925945, 2.347537878787878], abs=1e-10)


def test_kuhn_reaches_the_game_value_and_a_small_nash_conv() -> None:
    # Measured at 10,000 iterations: value -0.0555679 (1.2e-5 from -1/18), NashConv 0.00402.
    # The tolerances leave a margin of 8x and 1.25x; 1,000 iterations give NashConv 0.0134.
    solver = XFPSolver(KUHN.tree, KUHN.deals)
    solver.run(10_000)
    policy = solver.average_strategy()
    assert expected_value(KUHN.tree, KUHN.deals, policy) == pytest.approx(GAME_VALUE, abs=1e-4)
    assert solver.game_value() == pytest.approx(GAME_VALUE, abs=1e-4)
    assert nash_conv(KUHN.tree, KUHN.deals, policy) < 0.005


def test_leduc_exploitability_falls_at_least_as_one_over_root_t() -> None:
    # Measured NashConv: 2.3475 (10), 0.5002 (100), 0.1270 (1,000), 0.1 s for the 1,000.
    # 1/sqrt(t) from t = 10 allows 0.2348 at 1,000: XFP is at 0.54 of it, so no extra margin.
    at_10, at_100, at_1000 = _nash_conv_after(LEDUC, [10, 100, 1000])
    assert at_10 > at_100 > at_1000
    assert at_100 <= at_10 * math.sqrt(10 / 100)
    assert at_1000 <= at_10 * math.sqrt(10 / 1000)
    assert at_1000 < 0.13


@pytest.mark.parametrize("game", [KUHN, LEDUC], ids=["kuhn", "leduc"])
def test_every_row_is_a_distribution_over_legal_actions(game) -> None:
    solver = XFPSolver(game.tree, game.deals)
    solver.run(500)
    policy = solver.average_strategy()
    legal = np.arange(game.tree.max_actions)[None, :] < game.tree.infoset_actions()[:, None]
    assert policy.shape == (game.tree.num_infosets, game.tree.max_actions)
    assert (policy >= 0.0).all()
    assert (policy[~legal] == 0.0).all()
    np.testing.assert_allclose(policy.sum(axis=1), 1.0, atol=1e-12)
    assert (policy[legal] > 0.0).all()  # the uniform start keeps every action in the mixture


def _realization_plan(policy: np.ndarray, parent_row, parent_action, order) -> np.ndarray:
    """x(row) * policy(row, k): the realization probability of each own sequence."""
    reach = np.ones(len(policy))
    for row in order:
        if parent_row[row] >= 0:
            reach[row] = reach[parent_row[row]] * policy[parent_row[row], parent_action[row]]
    return reach[:, None] * policy


def test_the_update_is_realization_equivalent_to_the_mixture() -> None:
    # Theorem 7: the behaviour update has the realization plan (1 - a) x_pi + a x_beta.
    tree, rng, alpha = LEDUC.tree, np.random.default_rng(7), 0.3
    actions = tree.infoset_actions()
    legal = np.arange(tree.max_actions)[None, :] < actions[:, None]
    policy = np.where(legal, rng.random(legal.shape) + 0.05, 0.0)
    policy /= policy.sum(axis=1, keepdims=True)
    choice = rng.integers(0, actions).astype(np.int64)
    best = np.zeros_like(policy)
    best[np.arange(len(choice)), choice] = 1.0
    parent_row, parent_action = own_parents(tree, LEDUC.deals)
    order = np.argsort(tree.infoset_node(), kind="stable")
    expected = (1 - alpha) * _realization_plan(policy, parent_row, parent_action, order)
    expected += alpha * _realization_plan(best, parent_row, parent_action, order)
    mixed = policy.copy()
    scratch = (np.empty(len(policy)), np.empty(len(policy)))
    mix_best_response(mixed, choice, actions, parent_row, parent_action, order, alpha, *scratch)
    np.testing.assert_allclose(
        _realization_plan(mixed, parent_row, parent_action, order), expected, atol=1e-14
    )
    assert not np.allclose(mixed, (1 - alpha) * policy + alpha * best)  # not a plain average


def test_leduc_rows_have_one_own_parent_and_imperfect_recall_is_refused() -> None:
    parent_row, parent_action = own_parents(LEDUC.tree, LEDUC.deals)
    first_moves = parent_row < 0
    # Six cards at each first move: player 0's at the root, player 1's after a check or a raise.
    assert first_moves.sum() == 3 * 6
    assert ((parent_action >= 0) == ~first_moves).all()
    buckets = LEDUC.deals.buckets.copy()
    buckets[:, :, 0] = np.random.default_rng(3).integers(0, 6, size=buckets.shape[:2])
    shuffled = Deals.build(buckets=buckets, showdown=LEDUC.deals.showdown)
    with pytest.raises(ValueError, match="perfect recall"):
        own_parents(LEDUC.tree, shuffled)


@pytest.mark.parametrize("exponent", [0.0, -1.0, 1.5, float("nan")])
def test_step_exponents_outside_zero_one_are_refused(exponent: float) -> None:
    with pytest.raises(ValueError, match="step_exponent"):
        XFPConfig(step_exponent=exponent)


def test_a_smaller_step_exponent_changes_the_run_and_still_learns() -> None:
    default = XFPSolver(LEDUC.tree, LEDUC.deals)
    slower = XFPSolver(LEDUC.tree, LEDUC.deals, XFPConfig(step_exponent=0.7))
    default.run(100)
    slower.run(100)
    first, second = default.average_strategy(), slower.average_strategy()
    assert not np.allclose(first, second)
    assert nash_conv(LEDUC.tree, LEDUC.deals, second) < 1.0


def test_cli_solves_kuhn_with_xfp() -> None:
    args = ["solve", "kuhn", "--algorithm", "xfp", "--iterations", "1000", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["algorithm"] == "xfp" and data["iterations"] == 1000
    assert data["checkpoints"][0]["nash_conv"] == pytest.approx(5 / 8, abs=1e-12)
    assert data["nash_conv"] < 0.015
    assert data["game_value"] == pytest.approx(GAME_VALUE, abs=2e-4)
